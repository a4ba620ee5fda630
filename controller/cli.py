"""``mafia-table``: run a table, or check its config.

    mafia-table run --config FILE [--sim] [--broker HOST:PORT] [--table ID] [-v]
    mafia-table sim [--config FILE] [--window] [--screenshot PNG [--after S]] [--broker ...]
    mafia-table check-config FILE
    mafia-table watch (--config FILE | --table ID [--broker HOST:PORT]) [--username U ...]
    mafia-table pinout --config FILE [--svg FILE]
    mafia-table selftest --config FILE [--seat N ...] [--timeout S] [--username U ...]
    mafia-table asyncapi

Exit codes: 0 clean stop (SIGTERM / Ctrl-C) or a good config, 2 bad arguments or config, or a
journal folder it cannot write (restarting cannot fix either), 1 a failure while running
(``pinout``: a conflict found; ``selftest``: a fault found).
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
from collections.abc import Sequence
from pathlib import Path

from controller import __version__, config
from controller.local_broker import LocalBroker, is_listening

log = logging.getLogger("mafia-table")

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
EXAMPLE = Path("config") / "table.example.toml"

#: syslog priorities for systemd's stderr prefix (``<3>error``), see sd-daemon(3).
_SD_PRIORITY = {"DEBUG": 7, "INFO": 6, "WARNING": 4, "ERROR": 3, "CRITICAL": 2}


class _JournalFormatter(logging.Formatter):
    """``<6>controller.service: message``: journald reads the priority and adds the time."""

    def format(self, record: logging.LogRecord) -> str:
        return f"<{_SD_PRIORITY.get(record.levelname, 6)}>{super().format(record)}"


def setup_logging(verbose: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(_JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, handlers=[handler],
                        force=True)
    if not verbose:
        logging.getLogger("paho").setLevel(logging.WARNING)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mafia-table",
                                     description="The controller of a sport-mafia club table.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the table controller")
    run.add_argument("--config", required=True, metavar="FILE", help="table config (TOML)")
    run.add_argument("--sim", action="store_true",
                     help="simulated seats: mock GPIO pins driven by mafia/<table>/sim/...; "
                          "starts a private broker if none listens on a loopback address")
    run.add_argument("--broker", metavar="HOST:PORT", help="override [broker] host and port")
    run.add_argument("--table", metavar="ID", help="override the table id")
    run.add_argument("-v", "--verbose", action="store_true", help="debug logging")

    sim = sub.add_parser("sim", help="run a simulated table (run --sim), optionally in a window "
                                     "to press its buttons and watch its lights")
    sim.add_argument("--config", default=str(EXAMPLE), metavar="FILE",
                     help=f"table config (default: {EXAMPLE})")
    sim.add_argument("--window", action="store_true", help="draw the table in a pygame window")
    sim.add_argument("--screenshot", metavar="PNG", help="save a picture of the table --after "
                     "seconds, then stop (headless without --window)")
    sim.add_argument("--after", type=float, default=2.0, metavar="S",
                     help="when to take the screenshot (default 2 s)")
    sim.add_argument("--broker", metavar="HOST:PORT", help="override [broker] host and port")
    sim.add_argument("--table", metavar="ID", help="override the table id")
    sim.add_argument("-v", "--verbose", action="store_true", help="debug logging")

    check = sub.add_parser("check-config", help="check a config file and exit")
    check.add_argument("file", metavar="FILE")

    watch = sub.add_parser("watch", help="show a table's MQTT traffic, decoded, as it happens")
    watch.add_argument("--config", metavar="FILE",
                       help="take the broker (address, account, TLS) and table from this config")
    watch.add_argument("--broker", metavar="HOST:PORT", help="broker address (default "
                       "127.0.0.1:1883, or the config's)")
    watch.add_argument("--table", metavar="ID", help="table id (required without --config)")
    watch.add_argument("--username", help="broker account, e.g. observer")
    watch.add_argument("--password-file", metavar="FILE", help="file holding its password")

    pinout = sub.add_parser("pinout", help="print the pin map seat by seat, with conflicts")
    pinout.add_argument("--config", required=True, metavar="FILE", help="table config (TOML)")
    pinout.add_argument("--svg", metavar="FILE", help="also draw the wiring into this SVG file")

    selftest = sub.add_parser("selftest", help="check a wired table seat by seat, with a "
                                               "technician at it (the controller must run)")
    selftest.add_argument("--config", required=True, metavar="FILE", help="table config (TOML)")
    selftest.add_argument("--seat", type=int, action="append", metavar="N",
                          help="check only this seat (repeat for more)")
    selftest.add_argument("--timeout", type=float, default=15.0, metavar="S",
                          help="how long to wait for each press (default 15 s)")
    selftest.add_argument("--broker", metavar="HOST:PORT", help="override [broker] host and port")
    selftest.add_argument("--username", help="broker account allowed to send commands")
    selftest.add_argument("--password-file", metavar="FILE", help="file holding its password")

    sub.add_parser("asyncapi", help="print the AsyncAPI document of the MQTT API")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    commands = {"check-config": _check_config, "watch": _watch, "selftest": _selftest,
                "pinout": _pinout, "asyncapi": _asyncapi, "run": _run, "sim": _run}
    try:
        return commands[args.command](args)
    except config.ConfigError as exc:  # from any command: nothing has started
        print(exc.report(), file=sys.stderr)
        return 2


def _asyncapi(args: argparse.Namespace) -> int:
    from controller.asyncapi import render

    sys.stdout.write(render())
    return 0


def _check_config(args: argparse.Namespace) -> int:
    from controller.budget import budget, render

    path = args.file
    cfg = config.load(path)
    parts = [f"table {cfg.table}", f"{cfg.seats} seats", f"{len(cfg.wired_buttons())} GPIO buttons"]
    if cfg.expanders is not None:
        parts.append(f"{len(cfg.expander_buttons())} expander buttons")
    if cfg.strip is not None:
        parts.append(f"{len(cfg.strip.seat)} seats lit by the strip")
    print(f"{path}: ok ({', '.join(parts)}, gpio backend {cfg.backends.gpio})")
    for line in render(budget(cfg)):
        print(f"  {line}")
    return 0


def _pinout(args: argparse.Namespace) -> int:
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
    from controller.selftest import (
        Selftest,
        SelftestError,
        TableClient,
        TerminalTechnician,
        summary,
    )

    cfg = config.load(args.config, config.Overrides(
        broker=args.broker, username=args.username, password_file=args.password_file))
    wrong = [n for n in args.seat or [] if not 1 <= n <= cfg.seats]
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
    from controller.watch import watch

    if args.config is not None:
        cfg = config.load(args.config, config.Overrides(
            table=args.table, broker=args.broker, username=args.username,
            password_file=args.password_file))
        return watch(cfg.broker, cfg.table)
    if args.table is None:
        print("mafia-table watch: give --table ID (or --config FILE)", file=sys.stderr)
        return 2
    broker = config.broker_from_flags(args.broker or "127.0.0.1:1883")
    return watch(config.with_account(broker, args.username, args.password_file), args.table)


def _run(args: argparse.Namespace) -> int:
    simulated = args.command == "sim" or args.sim
    if args.command == "sim" and not 0 <= args.after < math.inf:
        print("mafia-table sim: --after takes a number of seconds >= 0", file=sys.stderr)
        return 2
    overrides = config.Overrides(table=args.table, broker=args.broker, simulated=simulated)
    cfg = config.load(args.config, overrides)
    setup_logging(args.verbose)

    from controller.service import Service  # after the config is known good: imports gpiozero
    from controller.store import JournalUnavailable

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
        service = Service(cfg)
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


if __name__ == "__main__":
    sys.exit(main())
