"""What every config file of the project shares: the section base and the one error.

The table's config (``controller.config``), the drivers' own sections in it (``hardware``,
``firmware_bridge``), the judge's config and the scoring presets are all msgspec structs over
TOML. Each section is a ``Section``: unknown keys are errors and every field is named, so a
misspelt key is refused rather than silently ignored. Whatever is wrong, all of it at once, is
one ``ConfigError``, each problem with its key path.
"""

from __future__ import annotations

import msgspec

#: the ``source`` of a ``ConfigError`` about flags, not about a file
COMMAND_LINE = "command line"


class Section(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base for config sections: unknown keys are errors, every field is named."""


class ConfigError(Exception):
    """The config cannot be used. ``problems`` lists every ``key.path: reason`` found."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: " + "; ".join(problems))

    def report(self) -> str:
        title = ("bad command line:" if self.source == COMMAND_LINE
                 else f"config error in {self.source}:")
        return "\n".join([title, *(f"  {p}" for p in self.problems)])
