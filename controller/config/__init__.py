"""The table config: a TOML file, checked completely before anything starts.

Every problem is reported with its key path, e.g. ``gpio.seat[2].button: pin 17 is already used
by gpio.seat[0].light``, and a config with any problem is refused whole: the service never
starts half-configured. One module a job, in the order a file goes through them:

- ``overrides``: the command-line flags (``--table``, ``--broker``, ``--sim``, an account),
  checked alone, then written over the raw TOML;
- ``presets``: the rule preset named by ``rules`` (``config/rules/*.toml``) merged under the
  table's own ``[vote]``, ``[day]``, ``[night]`` and ``[standings]``;
- ``schema``: the typed structs the raw TOML is converted to (types, ranges, no unknown keys):
  ``Config`` composes the table's own sections with each driver's, which lives beside its
  driver (``hardware.gpio.GpioConfig``, ``hardware.strip.StripConfig``,
  ``hardware.expander.ExpanderConfig``, ``hardware.audio.MusicConfig``,
  ``firmware_bridge.link.ConsoleConfig``);
- ``wiring``: how seats, pins, strip, expanders and consoles fit together;
- ``credentials``: the files the config names exist, the password and TLS files load;
- ``budget``: the current each rail gives and the parts draw (refused when overloaded);
- ``loading``: ``parse`` and ``load``, which run the steps above in that order;
- ``paths`` (the journal's default place) serves the rest.

Every problem is a ``kit.config.ConfigError`` (the judge's config raises the same), and every
section a ``kit.config.Section``; the ``[broker]`` section is ``kit.mqtt.BrokerConfig``, which
the judge's config shares. Callers import the table config's own names from
``controller.config``; the names below are its public surface.
"""

from controller.config.loading import load, parse
from controller.config.overrides import Overrides, broker_from_flags, with_account
from controller.config.paths import sim_store_path
from controller.config.schema import (
    TABLE_ID_PATTERN,
    TABLE_ID_RULE,
    Backends,
    Config,
    DayRules,
    NightRules,
    StoreConfig,
    TableId,
    table_id_problem,
)
from controller.config.wiring import wiring_problems

__all__ = [
    "TABLE_ID_PATTERN", "TABLE_ID_RULE", "Backends", "Config", "DayRules", "NightRules",
    "Overrides", "StoreConfig", "TableId", "broker_from_flags", "load", "parse", "sim_store_path",
    "table_id_problem", "wiring_problems", "with_account",
]
