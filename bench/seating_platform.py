"""The rating platform's own seating code, run under Debian's ``php-cli`` for the bench.

Nothing of the platform is in this repository: its ``include/seating.php`` and
``seating_optimization.php`` are read at run time from a snapshot of szotin/mafiaratings (a
checkout, or a bare git directory: then from its ``HEAD``), copied into a temporary directory
beside this bench's stand-ins for its database and job runner (``bench/seating_php/``), and run
there by ``bench/seating_php/run.php``: ``score`` asks its ``SeatingDef`` for the three scores of
seatings, ``optimize`` runs its generator and optimizers on a new tournament for a budget of CPU
seconds.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hall.seating.scores import Definition, Layout, Scores
from tests.support.platform_source import read_source

STANDINS = Path(__file__).parent / "seating_php"
#: the platform's files the bench runs, by their path in its repository
FILES = ("include/seating.php", "seating_optimization.php")
#: ``SeatingDef::normalizeRestrictions`` (include/seating.php) loops while
#: ``count(_find_longest_groups(...)) > 0``, and that returns ``null`` once no pair is left: PHP 7
#: counted ``null`` as 0 (with a warning), PHP 8 throws a TypeError, so on PHP 8 the function
#: never returns, and every save of the players optimizer (which calls it through
#: ``ensure_seating_existance``) dies. The copy the bench runs counts ``null`` as PHP 7 did; the
#: substitution must match exactly once, so a change upstream shows.
PHP7_COUNT = ("count($groups = _find_longest_groups($restrictions_by_player_copy))",
              "count($groups = (_find_longest_groups($restrictions_by_player_copy) ?? array()))")


class PlatformError(RuntimeError):
    """The platform's PHP failed or answered something unreadable."""


class Platform:
    """A temporary directory holding the platform's files and the stand-ins, and ``php``."""

    def __init__(self, directory: Path, php: str):
        self.directory = directory
        self.php = php

    def _ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        done = subprocess.run(
            [self.php, "-d", "display_errors=stderr", "-d", "error_reporting=" + str(32767 & ~8192),
             "-d", "memory_limit=2G", "run.php"],
            cwd=self.directory, input=json.dumps(request), capture_output=True, text=True,
            timeout=timeout, check=False)
        if done.returncode != 0:
            raise PlatformError(f"php exited {done.returncode}: {done.stderr[-2000:]}")
        try:
            answer: dict[str, Any] = json.loads(done.stdout)
        except ValueError as exc:
            raise PlatformError(f"php answered no JSON: {done.stdout[-500:]!r} "
                                f"{done.stderr[-2000:]}") from exc
        return answer

    @staticmethod
    def _definition(defn: Definition) -> dict[str, Any]:
        return {"players": defn.players, "tables": defn.tables, "games": defn.games,
                "restrictions": [list(group) for group in defn.apart]}

    def score(self, defn: Definition, layouts: Sequence[Layout]) -> list[Scores]:
        """The platform's three scores of each seating."""
        answer = self._ask({"op": "score", **self._definition(defn),
                            "seatings": [[[list(g) for g in r] for r in lay] for lay in layouts]},
                           timeout=600)
        return [Scores(*triple) for triple in answer["scores"]]

    def optimize(self, defn: Definition, seconds: float, seed: int) -> dict[str, Any]:
        """The platform's generator and optimizers for ``seconds`` of CPU time: its answer
        (``seating``, ``scores``, ``elapsed`` and ``cpu`` seconds, ``passes``, ``items``,
        ``runs``, ``errors``)."""
        # its budget is CPU time (run.php counts it); the wall clock only guards against a
        # hang, and on a machine busy with other work (load 20 on two cores) a CPU second
        # can take ten
        answer = self._ask({"op": "optimize", **self._definition(defn), "seconds": seconds,
                            "seed": seed}, timeout=seconds * 30 + 600)
        answer["scores"] = Scores(*answer["scores"])
        return answer


@contextmanager
def platform(snapshot: Path, php: str = "php") -> Iterator[Platform]:
    """The platform's seating code from ``snapshot``, ready to run."""
    if shutil.which(php) is None:
        raise PlatformError(f"{php} is not installed (Debian: apt install php-cli)")
    with tempfile.TemporaryDirectory(prefix="mafiaratings-seating-") as tmp:
        directory = Path(tmp)
        (directory / "include").mkdir()
        for name in FILES:
            text = read_source(snapshot, name).decode()
            if name == "include/seating.php":
                if text.count(PHP7_COUNT[0]) != 1:
                    raise PlatformError(f"{name} changed: the PHP 7 count() fix does not apply")
                text = text.replace(*PHP7_COUNT)
            (directory / name).write_text(text)
        for standin in ("db.php", "json.php", "updater.php"):
            shutil.copy(STANDINS / standin, directory / "include" / standin)
        shutil.copy(STANDINS / "run.php", directory / "run.php")
        yield Platform(directory, php)
