"""The generator's input files: the players' names and the restrictions, checked whole.

Names: one player a line (1 to 64 characters; blank lines and ``#`` comments are skipped),
exactly as many as ``--players``, no name twice. Without a file the players are
``Player 1`` .. ``Player N``.

Restrictions: one rule a line, its fields separated by commas, a kind and two or more players
(by name, or by number 1..N)::

    # a club: no two of them at one table
    apart, Anna, Boris, Clara
    # may meet, as rarely as the balance allows
    avoid, Dmitry, 7

Every pair of a line's players gets the rule. Any mistake refuses the whole file, each named by
its line, so a half-read file never seats anyone.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from hall.seating.instance import Pair, pair
from kit.i18n import Words

KINDS = ("apart", "avoid")


class InputError(ValueError):
    """A file with mistakes; ``problems`` names each by its line, as words (``str()``: the
    English; the tournament page renders them in its reader's language)."""

    def __init__(self, source: str, problems: list[Words]):
        super().__init__(f"{source}: " + "; ".join(str(p) for p in problems))
        self.source = source
        self.problems = problems


def default_names(players: int) -> list[str]:
    return [f"Player {k}" for k in range(1, players + 1)]


def names(text: str, players: int, source: str = "names") -> list[str]:
    """The names of a names file, or :class:`InputError`."""
    found: list[str] = []
    problems: list[Words] = []
    where: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        name = raw.strip()
        if not name or name.startswith("#"):
            continue
        if len(name) > 64:
            problems.append(Words("seating.input.long", line=number))
        elif name in where:
            problems.append(Words("seating.input.again", line=number, name=name,
                                  first=where[name]))
        else:
            where[name] = number
            found.append(name)
    if not problems and len(found) != players:
        problems.append(Words("seating.input.names", names=len(found), players=players))
    if problems:
        raise InputError(source, problems)
    return found


@dataclass
class Restrictions:
    apart: set[Pair] = field(default_factory=set)
    avoid: set[Pair] = field(default_factory=set)


def restrictions(text: str, players: list[str], source: str = "restrictions") -> Restrictions:
    """The pairs of a restrictions file (players numbered from 0), or :class:`InputError`."""
    index = {name: k for k, name in enumerate(players)}
    found = Restrictions()
    problems: list[Words] = []
    for number, cells in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [c.strip() for c in cells]
        if not any(cells) or cells[0].startswith("#"):
            continue
        kind, given = cells[0].lower(), [c for c in cells[1:] if c]
        if kind not in KINDS:
            problems.append(Words("seating.input.rule", line=number, rule=cells[0],
                                  kinds=", ".join(KINDS)))
            continue
        chosen: list[int] = []
        for token in given:
            if token in index:
                chosen.append(index[token])
            elif token.isdigit() and 1 <= int(token) <= len(players):
                chosen.append(int(token) - 1)
            else:
                problems.append(Words("seating.input.player", line=number, token=token,
                                      most=len(players)))
        if len(set(chosen)) != len(chosen):
            problems.append(Words("seating.input.twice", line=number))
        elif len(given) < 2:
            problems.append(Words("seating.input.pair", line=number, kind=kind))
        else:
            rule = found.apart if kind == "apart" else found.avoid
            rule.update(pair(a, b) for k, a in enumerate(chosen) for b in chosen[k + 1:])
    if problems:
        raise InputError(source, problems)
    return found
