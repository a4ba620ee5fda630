"""The house stays as drawn: every import goes down the layers, and no modules import each other
in a circle (docs/architecture.md, "Layers").

Read with the standard library's ``ast`` (no third-party tool): every import statement of every
module of the project's packages, wherever it stands (at the top, inside a function, under
``if TYPE_CHECKING:``, in a ``try``), relative ones resolved. ``from a.b import c`` is an import
of the module ``a.b.c`` when there is one, else of ``a.b``. Importing a module runs its
package's ``__init__`` too, but that is not counted: a package whose ``__init__`` gathers its
modules' names would otherwise be a circle with each of them.

The layers, bottom up; a package may import itself and what ``MAY_IMPORT`` lists:

    contract                    the table's vocabulary: imports no other project code
    kit                         what the services share: the contract
    results                     a game's record, its scores, the standings, the platform's
                                game JSON (what the judge writes and the hall counts): the
                                contract and the kit
    hardware, firmware_bridge   the drivers: the contract and the kit, never each other
    judge, hall                 the judge's panel, the hall board: the contract, the kit and
                                the results
    controller                  the table: the contract, the kit and the drivers
    mafia_table                 the mafia-table command: the parts
    bench, examples             clients: anything (bench: of tests, tests.support only;
                                examples: the packages only)

and inside the controller, ``controller.core`` is pure: the contract and itself only.

Inside a package, its rooms (``ROOMS``, issue 35) are held the same way: a module of a room may
import its own room and the rooms listed for it, and no other module of its package. The
judge's, top down (judge/__init__.py draws them):

    judge.panel                 the live panel: the overlay, the record and the game
    judge.overlay, judge.record the stream's view | the paperwork: the game only (never the
                                panel, never each other)
    judge.game                  the engine: no other room

and the hall's seating (``hall.seating``: the chart, the generator, its command) imports nothing
else of the hall. No
package imports ``tests``, ``bench`` or ``examples``. The imports issue 24 named, each of which
this test refuses (``test_the_imports_issue_24_named_are_refused``): ``hardware`` ->
``controller.core`` and ``controller.config``, ``hardware.seat_lights`` -> ``firmware_bridge``,
``firmware_bridge`` -> ``controller.core``, ``controller.cli`` -> ``judge``, and the circles
``controller.budget`` <-> ``controller.config``, ``core.table`` <-> ``core.registry`` <-> the
``*_commands``, ``core.effects`` <-> ``core.night`` / ``core.vote``, ``judge.panel.service`` <->
``judge.overlay.routes`` / ``judge.record.routes``.

The harness is held the same way (``test_the_harness_is_imported_only_through_tests_support``):
of ``tests``, a test module, a conftest, the support package and a bench import only
``tests.support``, so no test module imports another (31 did, ``tests.test_service.Running``
alone 20 times, and a bench broke when a helper moved between test modules), the support
package imports no test module, and the tests import no bench, example or script (they run
them as programs).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: the packages whose imports are held to the layers
PACKAGES = ("contract", "kit", "results", "hardware", "firmware_bridge", "judge", "hall",
            "controller", "mafia_table", "bench", "examples")
#: what nothing in ``PACKAGES`` may import (``bench`` and ``examples`` are clients: only they
#: may import ``tests``, ``bench`` its support package, ``tests.support``)
OUTSIDE = ("tests", "bench", "examples", "scripts")
#: the one part of ``tests`` that anything imports: the harness the tests and benches share
SUPPORT = "tests.support"

#: package -> the other packages it may import
MAY_IMPORT: dict[str, frozenset[str]] = {
    "contract": frozenset(),
    "kit": frozenset({"contract"}),
    "results": frozenset({"contract", "kit"}),
    "hardware": frozenset({"contract", "kit"}),
    "firmware_bridge": frozenset({"contract", "kit"}),
    "judge": frozenset({"contract", "kit", "results"}),
    "hall": frozenset({"contract", "kit", "results"}),
    "controller": frozenset({"contract", "kit", "hardware", "firmware_bridge"}),
    "mafia_table": frozenset({"contract", "kit", "controller", "judge", "hall"}),
    "bench": frozenset({"contract", "kit", "results", "hardware", "firmware_bridge", "judge",
                        "hall", "controller", "mafia_table", "tests"}),
    "examples": frozenset({"contract", "kit", "results", "hardware", "firmware_bridge", "judge",
                           "hall", "controller", "mafia_table"}),
}
#: a subpackage held tighter than its package: it may import only these (and itself)
PURE: dict[str, frozenset[str]] = {"controller.core": frozenset({"contract"})}
#: a package's rooms: room -> the other rooms of its package it may import (no other module of
#: the package); the other packages it may import are its package's (``MAY_IMPORT``)
ROOMS: dict[str, frozenset[str]] = {
    "judge.panel": frozenset({"judge.overlay", "judge.record", "judge.game"}),
    "judge.overlay": frozenset({"judge.game"}),
    "judge.record": frozenset({"judge.game"}),
    "judge.game": frozenset(),
    "hall.seating": frozenset(),
}

Graph = Mapping[str, frozenset[str]]


def module_name(path: Path, root: Path = REPO) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules(root: Path = REPO) -> dict[str, Path]:
    """Every module of ``PACKAGES`` (and of ``tests``, which they must not import)."""
    return {module_name(path, root): path for package in (*PACKAGES, "tests")
            for path in sorted((root / package).rglob("*.py"))
            if "node_modules" not in path.parts}


def imports_of(module: str, source: str, *, is_package: bool,
               known: Iterable[str]) -> frozenset[str]:
    """The project modules ``module`` imports (its source ``source``), wherever the import
    stands; ``known``: the project's modules, for telling ``from a import b`` (a module ``b``)
    from ``from a import name``."""
    known = set(known)
    found: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in known
                          else target)
    return frozenset(name for name in found if name.split(".")[0] in (*PACKAGES, *OUTSIDE))


def import_graph(root: Path = REPO) -> dict[str, frozenset[str]]:
    modules = project_modules(root)
    return {name: imports_of(name, path.read_text(encoding="utf-8"),
                             is_package=path.name == "__init__.py", known=modules)
            for name, path in modules.items()}


def against_the_layers(graph: Graph) -> list[str]:
    """Every import of a ``PACKAGES`` module that its layer does not allow."""
    wrong = []
    for module, imported in sorted(graph.items()):
        package = module.split(".")[0]
        if package not in MAY_IMPORT:
            continue  # tests: they may import anything
        for target in sorted(imported):
            other = target.split(".")[0]
            pure = next((p for p in PURE if module == p or module.startswith(p + ".")), None)
            if pure is not None:
                allowed = target == pure or target.startswith(pure + ".") or other in PURE[pure]
            else:
                allowed = other == package or other in MAY_IMPORT[package]
            if not allowed:
                wrong.append(f"{module} imports {target}")
    return wrong


def _room(module: str) -> str | None:
    return next((room for room in ROOMS if module == room or module.startswith(room + ".")),
                None)


def against_the_rooms(graph: Graph) -> list[str]:
    """Every import by a module of a room of another module of its package that is not of its
    own room nor of a room ``ROOMS`` lets it import."""
    wrong = []
    for module, imported in sorted(graph.items()):
        room = _room(module)
        if room is None:
            continue
        package = module.split(".")[0]
        for target in sorted(imported):
            if target.split(".")[0] != package:
                continue  # another package: against_the_layers holds it
            if _room(target) not in (room, *ROOMS[room]):
                wrong.append(f"{module} imports {target}")
    return wrong


def against_the_harness(graph: Graph) -> list[str]:
    """Every import of a ``tests`` module that is not of ``tests.support``, by a module of
    ``tests`` or ``bench``, and every import of a bench, an example or a script by a module of
    ``tests``."""
    wrong = []
    for module, imported in sorted(graph.items()):
        package = module.split(".")[0]
        if package not in ("tests", "bench"):
            continue  # the packages: against_the_layers refuses any import of tests
        for target in sorted(imported):
            other = target.split(".")[0]
            if other == "tests":
                allowed = target == SUPPORT or target.startswith(SUPPORT + ".")
            else:
                allowed = package == "bench" or other not in OUTSIDE
            if not allowed:
                wrong.append(f"{module} imports {target}")
    return wrong


def circles(graph: Graph) -> list[frozenset[str]]:
    """The modules of ``PACKAGES`` that import each other in a loop: each strongly connected
    part of the graph with more than one module (or a module importing itself), Tarjan's way.
    (The tests' imports are held by ``against_the_harness``.)"""
    graph = {module: frozenset(t for t in imported if t.split(".")[0] in PACKAGES)
             for module, imported in graph.items() if module.split(".")[0] in PACKAGES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1 or v in graph.get(v, ()):
                found.append(frozenset(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


GRAPH = import_graph()


def test_every_import_goes_down_the_layers():
    assert against_the_layers(GRAPH) == []


def test_every_import_inside_a_package_goes_down_its_rooms():
    assert against_the_rooms(GRAPH) == []


def test_the_judge_has_only_rooms_and_every_room_has_modules():
    """Nothing of the judge lives beside its rooms (a module there would belong to none), and
    each room the test names is there (a renamed room would leave its rule holding nothing)."""
    judge = [m for m in GRAPH if m.split(".")[0] == "judge"]
    assert [m for m in judge if m != "judge" and _room(m) is None] == []
    for room in ROOMS:
        assert any(m.startswith(room + ".") for m in GRAPH), room


def test_the_rooms_refuse_an_import_going_up_or_across():
    """The overlay and the record never import the live panel (its service least of all),
    nor each other; the game imports no other room; the seating nothing else of the hall."""
    for module, source in [
        ("judge.overlay.routes", "from judge.panel.service import Panel"),
        ("judge.overlay.view", "from judge.panel.views import judge_view"),
        ("judge.overlay.routes", "from judge.panel.live_view import LiveView"),
        ("judge.record.store", "from judge.panel.journal import Journal"),
        ("judge.record.routes", "from judge.panel.config import JudgeConfig"),
        ("judge.record.sheet", "from judge.overlay.public import public_view"),
        ("judge.overlay.view", "from judge.record import document"),
        ("judge.game.engine", "from judge.record.document import build"),
        ("hall.seating.plan", "from hall.tournament import Tournament"),
        ("hall.seating.chart", "from hall.store import HallStore"),
    ]:
        assert against_the_rooms(_with(module, source)) != [], (module, source)
    for module, source in [
        ("judge.panel.service", "from judge.overlay.routes import add_routes"),
        ("judge.record.routes", "from judge.game.book import Book"),
        ("hall.tournament", "from hall.seating import plan"),
    ]:
        assert against_the_rooms(_with(module, source)) == [], (module, source)


def test_the_harness_is_imported_only_through_tests_support():
    assert against_the_harness(GRAPH) == []


def test_no_modules_import_each_other_in_a_circle():
    assert circles(GRAPH) == []


def test_the_graph_has_every_package_and_sees_a_type_checking_import():
    assert {module.split(".")[0] for module in GRAPH} >= set(PACKAGES)
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from contract import api\n"
    assert imports_of("kit.x", source, is_package=False, known=GRAPH) == {"contract.api"}
    relative = "from . import effects\nfrom .state import TableState\n"
    assert imports_of("controller.core.table", relative, is_package=False, known=GRAPH) == {
        "controller.core.effects", "controller.core.state"}


def _with(module: str, source: str) -> dict[str, frozenset[str]]:
    """The project's graph with ``module`` also importing what ``source`` imports."""
    added = imports_of(module, source, is_package=False, known=GRAPH)
    return {**GRAPH, module: GRAPH.get(module, frozenset()) | added}


TYPE_ONLY = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    {}\n"


def test_the_imports_issue_24_named_are_refused():
    """Each import the issue found against the layers, put back, fails the layering check."""
    for module, source in [
        ("hardware.gpio", "from controller.core.inputs import ButtonEdge"),
        ("hardware.strip", "from controller.config import StripConfig"),
        ("hardware.gpio", "from firmware_bridge.firmware import light_timing"),
        ("hardware.strip", "from firmware_bridge.protocol import LIGHT_MODES"),
        ("hardware.seat_lights", "from firmware_bridge.link import ConsoleLink"),
        ("firmware_bridge.session", "from controller.core.inputs import ButtonEdge"),
        ("firmware_bridge.ports", "from controller.config import ConsoleConfig"),
        ("controller.cli", "from judge.panel.service import serve"),
        ("judge.panel.service", "from controller.mqtt_link import configure_client"),
        ("hall.board", "from controller.webpages import Pages"),
        ("contract.api", "from controller import __version__"),
        ("kit.mqtt", "from controller.config import BrokerConfig"),
        ("controller.core.table", "from controller.store import Store"),
    ]:
        assert against_the_layers(_with(module, source)) != [], (module, source)


def test_the_results_are_below_the_panel_and_the_board_that_share_them():
    """The record's schema, the scoring and the standings serve the judge and the hall alike
    (issue 29): nothing of either may leak into them, and neither imports the other still."""
    for module, source in [
        ("results.record", "from judge.game import Game"),
        ("results.standings", "from hall.tournament import Tournament"),
        ("results.scoring", "from controller.config import Config"),
        ("hall.games", "from judge.record.document import build"),
        ("judge.record.feed", "from hall.games import HallGames"),
    ]:
        assert against_the_layers(_with(module, source)) != [], (module, source)


def test_the_circles_issue_24_named_are_refused_even_when_the_import_is_for_types_only():
    for module, source, circle in [
        ("controller.config.budget", "from controller.config import Config",
         {"controller.config", "controller.config.loading", "controller.config.budget"}),
        ("controller.core.registry", "from controller.core.table import TableState",
         {"controller.core.table", "controller.core.registry"}),
        ("controller.core.light_commands", "from controller.core.table import TableState",
         {"controller.core.table", "controller.core.registry",
          "controller.core.light_commands"}),
        ("controller.core.effects", "from controller.core.vote import VoteSession",
         {"controller.core.effects", "controller.core.vote"}),
        ("controller.core.effects", "from controller.core.night import NightStep",
         {"controller.core.effects", "controller.core.night"}),
        ("judge.overlay.routes", "from judge.panel.service import Panel",
         {"judge.panel.service", "judge.overlay.routes"}),
        ("judge.record.routes", "from judge.panel.service import Panel",
         {"judge.panel.service", "judge.record.routes"}),
    ]:
        found = circles(_with(module, TYPE_ONLY.format(source)))
        assert any(circle <= part for part in found), (module, source, found)


def test_a_test_module_or_bench_importing_a_test_module_is_refused():
    """The imports the harness had before tests/support/, put back (at their modules' new
    places), each fail the harness check; the same names from the support package pass."""
    for module, source in [
        ("tests.e2e.test_judge", "from tests.controller.test_service import Running"),
        ("tests.e2e.test_judge", "from tests.test_service import Running"),
        ("tests.judge.overlay.test_overlay",
         "from tests.judge.game.test_judge_game import run, tap"),
        ("tests.controller.test_first_run", "from tests.controller.test_security import hall"),
        ("tests.firmware_bridge.test_micropython",
         "from tests.firmware_bridge import test_firmware"),
        ("tests.controller.test_budget", "from tests.conftest import write_config"),
        ("tests.support.judge_panel", "from tests.controller.test_service import Running"),
        ("bench.judge", "from tests.e2e.test_judge import Hands, Judge"),
        ("bench.cues", "from tests.controller.test_cue_schedule import onset"),
        ("bench.electronics", "from tests.conftest import REPO"),
        ("tests.bench.test_quick", "import bench.gpio"),
    ]:
        assert against_the_harness(_with(module, source)) != [], (module, source)
    for module, source in [
        ("tests.e2e.test_judge", "from tests.support.running import Running"),
        ("bench.judge", "from tests.support import judge_panel"),
    ]:
        assert against_the_harness(_with(module, source)) == [], (module, source)
