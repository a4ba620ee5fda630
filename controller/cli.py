"""The table's commands of ``mafia-table`` (``mafia_table.cli`` composes them with the judge's
and the hall's): run a table, or check its config.

    mafia-table run --config FILE [--sim [--resume]] [--broker HOST:PORT] [--table ID] [-v]
    mafia-table sim [--config FILE] [--resume] [--window] [--screenshot PNG [--after S]] ...
    mafia-table state show|reset --config FILE [--sim] [--yes]
    mafia-table consoles [--by-id DIR] [--timeout S]
    mafia-table check-config FILE
    mafia-table doctor [--config FILE] [--user NAME]
    mafia-table watch (--config FILE | --table ID [--broker HOST:PORT]) [--username U ...]
    mafia-table pinout --config FILE [--svg FILE]
    mafia-table selftest --config FILE [--seat N ...] [--timeout S] [--username U ...]
    mafia-table asyncapi

Exit codes: 0 clean stop (SIGTERM / Ctrl-C) or a good config, 2 bad arguments or config, a
journal folder it cannot write, another controller already running on the journal or online
on the table id, or (``run``) a machine that cannot drive the GPIO: no pin library, no Pi, no
permission on the GPIO chips (``run``, ``sim``; restarting cannot fix any of them), or
(``doctor``) anything this machine lacks for the table, 1 a failure while running
(``pinout``: a conflict found; ``selftest``: a fault found; ``state reset``: not done;
``consoles``: no console answered).
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from contract.seats import no_seat
from controller import __version__
from kit.local_broker import LocalBroker, is_listening
from kit.logs import setup_logging

if TYPE_CHECKING:
    from controller.config import Config

log = logging.getLogger("mafia-table")

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
EXAMPLE = Path("config") / "table.example.toml"
#: where scripts/install-pi.sh puts the table's config
INSTALLED_CONFIG = Path("/etc/mafia-table/table.toml")
#: docs/i18n.md, "The table's voice"
VOICE_HELP = ("override [music] voice: the language the table speaks (ru, en) until a judge's "
              "panel sets its own")


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The table's subcommands, each with its handler as ``run``."""
    run = sub.add_parser("run", help="run the table controller")
    run.set_defaults(run=_run)
    run.add_argument("--config", required=True, metavar="FILE", help="table config (TOML)")
    run.add_argument("--sim", action="store_true",
                     help="simulated seats: mock GPIO pins driven by mafia/<table>/sim/...; "
                          "starts a private broker if none listens on a loopback address")
    run.add_argument("--resume", action="store_true", help="with --sim: go on from the last "
                     "simulated run's table (by default a simulation starts clean)")
    run.add_argument("--broker", metavar="HOST:PORT", help="override [broker] host and port")
    run.add_argument("--table", metavar="ID", help="override the table id")
    run.add_argument("--voice", metavar="LANG", help=VOICE_HELP)
    run.add_argument("-v", "--verbose", action="store_true", help="debug logging")

    sim = sub.add_parser("sim", help="run a simulated table (run --sim), optionally in a window "
                                     "to press its buttons and watch its lights")
    sim.set_defaults(run=_run)
    sim.add_argument("--config", default=str(EXAMPLE), metavar="FILE",
                     help=f"table config (default: {EXAMPLE})")
    sim.add_argument("--resume", action="store_true",
                     help="go on from the last simulated run's table (by default: a clean one)")
    sim.add_argument("--window", action="store_true", help="draw the table in a pygame window")
    sim.add_argument("--screenshot", metavar="PNG", help="save a picture of the table --after "
                     "seconds, then stop (headless without --window)")
    sim.add_argument("--after", type=float, default=2.0, metavar="S",
                     help="when to take the screenshot (default 2 s)")
    sim.add_argument("--broker", metavar="HOST:PORT", help="override [broker] host and port")
    sim.add_argument("--table", metavar="ID", help="override the table id")
    sim.add_argument("--voice", metavar="LANG", help=VOICE_HELP)
    sim.add_argument("-v", "--verbose", action="store_true", help="debug logging")

    state = sub.add_parser("state", help="show or reset what a table keeps between runs (day, "
                                         "standings, nominations, running vote)")
    state.set_defaults(run=_state)
    state.add_argument("action", choices=["show", "reset"])
    state.add_argument("--config", required=True, metavar="FILE", help="table config (TOML)")
    state.add_argument("--sim", action="store_true", help="the simulated table's journal "
                       "(what `sim --resume` would go on from)")
    state.add_argument("--yes", action="store_true", help="reset without asking")

    consoles = sub.add_parser("consoles", help="list the plugged seat consoles, ready to paste "
                                               "into the config")
    consoles.set_defaults(run=_consoles)
    consoles.add_argument("--by-id", default="/dev/serial/by-id", metavar="DIR",
                          help="where the stable port names are (default /dev/serial/by-id)")
    consoles.add_argument("--timeout", type=float, default=2.0, metavar="S",
                          help="how long to wait for each console's answer (default 2 s)")

    check = sub.add_parser("check-config", help="check a config file and exit")
    check.set_defaults(run=_check_config)
    check.add_argument("file", metavar="FILE")

    doctor = sub.add_parser("doctor", help="say what this machine lacks to run the table (pin "
                                           "library, Pi, consoles, sound, permissions), each "
                                           "with the command that fixes it")
    doctor.set_defaults(run=_doctor)
    doctor.add_argument("--config", default=str(INSTALLED_CONFIG), metavar="FILE",
                        help=f"table config (default: {INSTALLED_CONFIG})")
    doctor.add_argument("--user", metavar="NAME", help="whose permissions to check (default: "
                        "the service's user, mafia-table, where it exists, else yours)")

    watch = sub.add_parser("watch", help="show a table's MQTT traffic, decoded, as it happens")
    watch.set_defaults(run=_watch)
    watch.add_argument("--config", metavar="FILE",
                       help="take the broker (address, account, TLS) and table from this config")
    watch.add_argument("--broker", metavar="HOST:PORT", help="broker address (default "
                       "127.0.0.1:1883, or the config's)")
    watch.add_argument("--table", metavar="ID", help="table id (required without --config)")
    watch.add_argument("--username", help="broker account, e.g. observer")
    watch.add_argument("--password-file", metavar="FILE", help="file holding its password")

    pinout = sub.add_parser("pinout", help="print the pin map seat by seat, with conflicts")
    pinout.set_defaults(run=_pinout)
    pinout.add_argument("--config", required=True, metavar="FILE", help="table config (TOML)")
    pinout.add_argument("--svg", metavar="FILE", help="also draw the wiring into this SVG file")

    selftest = sub.add_parser("selftest", help="check a wired table seat by seat, with a "
                                               "technician at it (the controller must run)")
    selftest.set_defaults(run=_selftest)
    selftest.add_argument("--config", required=True, metavar="FILE", help="table config (TOML)")
    selftest.add_argument("--seat", type=int, action="append", metavar="N",
                          help="check only this seat (repeat for more)")
    selftest.add_argument("--timeout", type=float, default=15.0, metavar="S",
                          help="how long to wait for each press (default 15 s)")
    selftest.add_argument("--broker", metavar="HOST:PORT", help="override [broker] host and port")
    selftest.add_argument("--username", help="broker account allowed to send commands")
    selftest.add_argument("--password-file", metavar="FILE", help="file holding its password")

    asyncapi = sub.add_parser("asyncapi", help="print the AsyncAPI document of the MQTT API")
    asyncapi.set_defaults(run=_asyncapi)


def _asyncapi(args: argparse.Namespace) -> int:
    from controller.asyncapi import render

    sys.stdout.write(render())
    return 0


def _check_config(args: argparse.Namespace) -> int:
    from controller import config
    from controller.config.budget import budget, render

    path = args.file
    cfg = config.load(path)
    parts = [f"table {cfg.table}", f"{cfg.seats} seats", f"{len(cfg.gpio.buttons())} GPIO buttons"]
    if cfg.expanders is not None:
        parts.append(f"{len(cfg.expander_buttons())} expander buttons")
    if cfg.strip is not None:
        parts.append(f"{len(cfg.strip.seat)} seats lit by the strip")
    print(f"{path}: ok ({', '.join(parts)}, gpio backend {cfg.backends.gpio})")
    for line in render(budget(cfg)):
        print(f"  {line}")
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from controller import config
    from controller.doctor import Account, examine, service_account

    cfg = config.load(args.config)
    try:
        account = service_account() if args.user is None else Account.named(args.user)
    except KeyError:
        print(f"mafia-table doctor: --user: no user {args.user} here", file=sys.stderr)
        return 2
    troubles = examine(cfg, account)
    for trouble in troubles:
        print(f"mafia-table doctor: {trouble}")
    if troubles:
        return 2
    print(f"mafia-table doctor: ok: table {cfg.table} can run here as {account.name} (gpio "
          f"{cfg.backends.gpio}, {len(cfg.console)} consoles, audio {cfg.backends.audio})")
    return 0


def _pinout(args: argparse.Namespace) -> int:
    from controller import config
    from controller.pinout import pin_map, render

    cfg = config.parse(args.config)
    pins = pin_map(cfg)
    sys.stdout.write(render(pins))
    if args.svg is not None:
        from controller.pinout_svg import draw

        try:
            Path(args.svg).write_text(draw(pins, cfg), encoding="utf-8")
        except OSError as exc:
            print(f"mafia-table pinout: cannot write {args.svg}: {exc}", file=sys.stderr)
            return 2
        print(f"wiring drawn into {args.svg}")
    return 1 if pins.conflicts else 0


def _selftest(args: argparse.Namespace) -> int:
    from controller import config
    from controller.selftest import (
        Selftest,
        SelftestError,
        TableClient,
        TerminalTechnician,
        summary,
    )

    cfg = config.load(args.config, config.Overrides(
        broker=args.broker, username=args.username, password_file=args.password_file))
    wrong = [n for n in args.seat or [] if no_seat(n, cfg.seats)]
    if wrong or not 0 < args.timeout < math.inf:
        print(f"mafia-table selftest: --seat takes 1..{cfg.seats} and --timeout seconds > 0",
              file=sys.stderr)
        return 2
    try:
        table = TableClient(cfg, timeout=10.0)
        try:
            findings = Selftest(cfg, TerminalTechnician(), table, press_timeout=args.timeout,
                                seats=args.seat).run()
        finally:
            table.close()
    except SelftestError as exc:
        print(f"mafia-table selftest: {exc}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, EOFError):
        print("\nmafia-table selftest: stopped", file=sys.stderr)
        return 2
    print()
    print(summary(findings), end="")
    return 1 if any(not f.ok for f in findings) else 0


def _watch(args: argparse.Namespace) -> int:
    from controller import config
    from controller.watch import watch

    if args.config is not None:
        cfg = config.load(args.config, config.Overrides(
            table=args.table, broker=args.broker, username=args.username,
            password_file=args.password_file))
        return watch(cfg.broker, cfg.table)
    if args.table is None:
        print("mafia-table watch: give --table ID (or --config FILE)", file=sys.stderr)
        return 2
    if problem := config.table_id_problem(args.table):
        print(f"mafia-table watch: --table: {problem}", file=sys.stderr)
        return 2
    broker = config.broker_from_flags(args.broker or "127.0.0.1:1883")
    return watch(config.with_account(broker, args.username, args.password_file), args.table)


def _consoles(args: argparse.Namespace) -> int:
    from controller.console_scan import render, scan

    if not 0 < args.timeout < math.inf:
        print("mafia-table consoles: --timeout takes a number of seconds > 0", file=sys.stderr)
        return 2
    found = scan(Path(args.by_id), timeout=args.timeout)
    sys.stdout.write(render(found, Path(args.by_id)))
    return 0 if any(port.hello is not None for port in found) else 1


def _state(args: argparse.Namespace) -> int:
    from controller import config, stored_state
    from controller.presence import UNLOCKED, lock_journal

    cfg = config.load(args.config, config.Overrides(simulated=args.sim))
    if args.action == "show":
        sys.stdout.write(stored_state.describe(cfg))
        return 0
    lock = lock_journal(cfg.store_path())
    if lock is None:
        print(f"mafia-table state reset: a controller is running on {cfg.store_path()}; stop it "
              "first (systemctl stop mafia-table)", file=sys.stderr)
        return 1
    try:
        sys.stdout.write(stored_state.describe(cfg))
        if not args.yes:
            try:
                answer = input(f"Forget table {cfg.table}'s saved day, standings, nominations "
                               "and running vote? Events are kept. [y/N] ")
            except EOFError:
                answer = ""
            if answer.strip().lower() not in ("y", "yes"):
                print("nothing changed", file=sys.stderr)
                return 1
        stored_state.reset(cfg)
    finally:
        if lock != UNLOCKED:
            os.close(lock)
    print(f"table {cfg.table}: saved state reset; the next start is a new table")
    return 0


def _run(args: argparse.Namespace) -> int:
    from controller import config

    simulated = args.command == "sim" or args.sim
    if args.command == "sim" and not 0 <= args.after < math.inf:
        print("mafia-table sim: --after takes a number of seconds >= 0", file=sys.stderr)
        return 2
    if args.resume and not simulated:
        print("mafia-table run: --resume goes with --sim (a real table always goes on from "
              "its journal; `mafia-table state reset` starts it anew)", file=sys.stderr)
        return 2
    overrides = config.Overrides(table=args.table, broker=args.broker, voice=args.voice,
                                 simulated=simulated)
    cfg = config.load(args.config, overrides)
    setup_logging(args.verbose)
    if not simulated and not _machine_fits(cfg):
        return 2

    from controller import stored_state
    from controller.journal import JournalUnavailable
    from controller.service import Service  # after the config is known good

    broker = None
    stop_requested = []
    for signum in (signal.SIGTERM, signal.SIGINT):  # before anything starts that needs stopping
        signal.signal(signum, lambda *_: stop_requested.append(True))
    try:
        if simulated and cfg.broker.host in LOOPBACK and not is_listening(cfg.broker.host,
                                                                        cfg.broker.port):
            broker = LocalBroker(cfg.broker.port)
            broker.start()
            log.info("no broker on %s:%d: started a private mosquitto for this simulated table",
                     cfg.broker.host, cfg.broker.port)
        if _taken(cfg):
            return 2
        if simulated and not args.resume and stored_state.discard_journal(cfg):
            log.info("simulated table %s starts clean (--resume goes on from the last run)",
                     cfg.table)
        service = Service(cfg, freeze_startup=True)
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: service.stop())
        if stop_requested:
            service.stop()
        log.info("mafia-table %s starting: table %s, boot %s%s", __version__, cfg.table,
                 service.boot_id, " (simulated seats)" if simulated else "")
        if args.command == "sim" and (args.window or args.screenshot):
            return _run_window(service, args)
        service.run()
        return 0
    except JournalUnavailable as exc:
        log.error("%s", exc)
        return 2
    except Exception:
        log.exception("the controller failed")
        return 1
    finally:
        if broker is not None:
            broker.close()


def _machine_fits(cfg: Config) -> bool:
    """Whether this process can drive the table's GPIO here (the pin library, a Pi, the GPIO
    chips' permission); else says why and how to fix it, a line each. A console not there only
    warns: the table plays on, and reopens it when it comes (the speaker warns for itself)."""
    from controller.doctor import Account, console_troubles, pin_troubles

    account = Account.this_process()
    fatal = pin_troubles(cfg.backends.gpio, account)
    for trouble in fatal:
        log.error("%s", trouble)
    for trouble in console_troubles(cfg, account):
        log.warning("%s", trouble)
    return not fatal


def _taken(cfg: Config) -> bool:
    """True (and says so) when another controller runs on this journal or is online on this
    table id. On False, this process holds the journal's lock until it exits."""
    from controller import stored_state
    from controller.presence import live_controller, lock_journal

    if lock_journal(cfg.store_path()) is None:
        log.error("another controller is running on the journal %s (table %s); not starting a "
                  "second one", cfg.store_path(), cfg.table)
        return True
    live = live_controller(cfg.broker, cfg.table, own_boot_id=stored_state.last_boot_id(cfg))
    if live is None:
        return False
    log.error("another controller (boot %s, version %s) is online on table %s at %s:%d; "
              "not starting a second one (stop it, or give this one another --table)",
              live.boot_id, live.version, cfg.table, cfg.broker.host, cfg.broker.port)
    return True


def _run_window(service, args: argparse.Namespace) -> int:
    """The service's loop on a thread, the window (or a headless frame) on this one."""
    from controller.sim_window import TableWindow

    loop = threading.Thread(target=service.run_loop, name="loop")
    try:
        service.start()
        loop.start()
        view = TableWindow(service, visible=args.window)
        try:
            if args.screenshot is None:
                view.run(stop_when=lambda: not loop.is_alive())
            else:
                deadline = time.monotonic() + args.after
                done = lambda: time.monotonic() >= deadline or not loop.is_alive()  # noqa: E731
                if args.window and not view.run(stop_when=done):
                    return 0  # closed before the screenshot was due: nothing to save
                loop.join(max(0.0, deadline - time.monotonic()))  # headless: just wait
                try:
                    view.save(Path(args.screenshot))
                except Exception as exc:  # pygame.error, OSError: a path it cannot write
                    log.error("cannot save the screenshot to %s: %s", args.screenshot, exc)
                    return 1
                log.info("screenshot saved to %s", args.screenshot)
            return 0
        finally:
            view.close()
    finally:
        service.stop()
        if loop.is_alive():
            loop.join(10)
        service.shutdown()
