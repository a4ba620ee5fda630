"""Each shipped book's timings and how its game opens (docs/book-timings.md), generated from the
book files (``config/books/*.toml``) as the live channel's schema is from the code:
``mafia-table judge timings`` prints it, and a test regenerates it and compares.

What each timing times is read from the book itself: the first night's countdown, each day
round's speeches, the last words, the night steps' seconds, and the vote procedure's own
speeches (``Procedure.timings``). A judge config's ``[timings]`` may set any of these names and
no other (``judge.panel.config``).
"""

from __future__ import annotations

import textwrap

from judge.game import Rules, load_rules
from judge.game.book import BOOKS, Book, Round, preset_path
from judge.game.votes import PROCEDURES

#: the document's first lines
HEADER = """\
# Each book's timings, and how its game opens

Generated from the book files (`config/books/*.toml`) by `mafia-table judge timings`; do not
edit (`tests/judge/panel/test_book_timings.py` regenerates it and compares). The engine and the
book's schema: [judge-engine.md](judge-engine.md).

A judge config's `[timings]` ([judge.md](judge.md), "Config") sets any of its book's timings,
in seconds (above 0, at most 600), over the book's own; a name the book does not take is
refused at the start, naming the ones it takes. `night_step` "from the preset" is the book's
table preset's `[night] seconds` (`config/rules/<preset>.toml`).
"""


def render_doc() -> str:
    """The document: every shipped book, in name order."""
    names = sorted(path.stem for path in BOOKS.glob("*.toml"))
    return "\n".join([HEADER, *(_book(name, load_rules(name)) for name in names)])


def uses(book: Book) -> dict[str, list[str]]:
    """Each of the book's timings with what it times, in the book's order (empty: nothing)."""
    used: dict[str, list[str]] = {name: [] for name in book.timings}
    first = book.first_night
    if first is not None and first.seconds is not None:
        used[first.seconds].append("night 0's countdown (the first night)")
    rounds = book.day.rounds
    for i, round in enumerate(rounds):
        for name, what in _round(round, i + 1 if len(rounds) > 1 else None):
            used[name].append(what)
    if book.leaving.last_words is not None:
        used[book.leaving.last_words].append("the last words of a player who leaves")
    procedure = PROCEDURES.get(book.vote.procedure)
    for name, what in (procedure.timings if procedure is not None else {}).items():
        used[name].append(f"{what} (the `{book.vote.procedure}` vote)")
    steps: dict[str, list[str]] = {}
    for step in book.night.steps:
        steps.setdefault(step.seconds, []).append(step.words.get("en", step.name))
    for name, labels in steps.items():
        used[name].append("the night steps: " + ", ".join(labels))
    return used


def _round(round: Round, number: int | None) -> list[tuple[str, str]]:
    """What a day round's timings time: each speech (the opener's and the closer's apart), or
    the whole table's discussion."""
    where = "every day" if number is None else f"day round {number}"
    when = {"all": "", "first": ", day 1 only", "later": ", from day 2"}[round.days]
    if round.kind == "discussion":
        return [(round.timing, f"the whole table's discussion ({where}{when})")]
    ends = {"the opener's": round.opener_timing, "the closer's": round.closer_timing}
    said = {round.timing: ["every other speech" if any(ends.values()) else "each speech"]}
    for whose, timing in ends.items():
        if timing is not None:
            said.setdefault(timing, []).append(whose)
    return [(timing, _speeches(parts) + f" ({where}{when})") for timing, parts in said.items()]


def _speeches(parts: list[str]) -> str:
    """``["the opener's", "the closer's"]`` -> "the opener's and the closer's speeches"."""
    if not parts[-1].endswith("'s"):
        return " and ".join(parts)
    return " and ".join(parts) + (" speeches" if len(parts) > 1 else " speech")


def _book(name: str, rules: Rules) -> str:
    book = rules.book
    players = book.players
    size = f"{players.min}" if players.min == players.max else f"{players.min} to {players.max}"
    preset = preset_path(book).stem
    lines = [f"## {book.title.get('en', name)} (`{name}`)", "",
             *textwrap.wrap(f"`config/books/{name}.toml`, {size} players; its table preset "
                            f"`{preset}`: a table plays it with `rules = "
                            f"\"rules/{preset}.toml\"` in its config.", 100), "",
             *textwrap.wrap(f"**It opens with** {_opening(rules)}", 100), "",
             "| timing | seconds | what it times |", "| --- | --- | --- |"]
    for timing, what in uses(book).items():
        given = book.timings[timing]
        seconds = f"{rules.timings[timing]:g}"
        if given == "preset":
            seconds += " (from the preset)"
        said = "; ".join(what) if what else "nothing the book names (a spare name)"
        lines.append(f"| `{timing}` | {seconds} | {said} |")
    return "\n".join(lines) + "\n"


def _opening(rules: Rules) -> str:
    """How the book's game opens: its first night (night 0) and what happens in it, then day
    1 on the judge's Morning; or day 1 at once."""
    first = rules.book.first_night
    if first is None:
        return "day 1: the judge's **Start** opens it (no first night)."
    seconds = rules.timings[first.seconds] if first.seconds is not None else 0
    says = first.says.get("en", "").replace("{{seconds}}", f"{seconds:g}")
    countdown = f", a countdown of `{first.seconds}`" if first.seconds is not None else ""
    cite = first.rule if isinstance(first.rule, str) else first.rule.get("en", "")
    steps = [s.words.get("en", s.name) for s in rules.book.night.steps if s.nights.has(0)]
    acts = f"its night steps: {', '.join(steps)}" if steps else "no night step opens on it"
    return (f"night 0, the first night (`[first_night]`, {cite}){countdown}: {says}; {acts}. "
            "The judge's **Morning** then opens day 1.")
