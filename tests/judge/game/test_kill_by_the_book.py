# ruff: noqa: RUF002 (the books quoted in Russian)
"""Every kill of every shipped book, against the table's own reading of the picks: each actor
keys one seat (the shared one or another), several, or nothing; the deciders in the game or
out (a successor acting in the Don's place); and the table's result is made by the table's own
night code (``tests.support.table_night``), so a group whose picks differ comes marked
``disagree``, as a real table marks it. Who decides is read here from each book's text, not
from its file:

- FIIM 4.5.4-4.5.5: every black on the same single seat; another seat, several, or none: a miss;
- classic 000 «Крестный Отец»: "Ночью Крестный Отец решает, кого ночью убивать"; «Правая
  Рука»: "После смерти Крестного Отца принимает его функции"; without both the family agree
  (the digest's reading), the joker's pick ignored ("Мафия не знает кто из них Джокер");
  «Маньяк» alone: his pick;
- Crow Club «Дон Мафии»: "У него перстень, он решает … а Дон показывает 3, Покинет стол 3"; "Дон
  может … сделать промах"; the next Don named by the last decides; with no Don the mafia
  agree (the digest's reading); «Вор»: a thief who copied the maniac kills with him, the
  card's maniac's pick standing;
- online 003 «По игровой легенде…»: the mafiosi who name someone must agree ("Любой ролевой
  персонаж имеет право не делать хода ночью"); the maniac alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import given
from hypothesis import strategies as st

from judge.game import Game, load_rules, new_game, step
from judge.game.book import BOOKS
from judge.game.mechanisms import mechanism
from judge.game.state import set_player
from tests.support.judge_game import run, tap
from tests.support.online_003 import ADDED_24, ROLES_24
from tests.support.record_game import ROLES as FIIM_ROLES
from tests.support.table_night import reported, surplus


@dataclass(frozen=True)
class Reading:
    """Who decides a book's kill: ``deciders`` in order of succession (each by card, else one
    acting as it), else every actor but the ``ignore``d (``all``) or every one who names
    someone (``named``) on one seat."""

    deciders: tuple[str, ...] = ()
    agree: str = "all"
    ignore: tuple[str, ...] = ()


#: each shipped book's kills as its text reads (the docstring)
READINGS = {
    ("fiim", "mafia_shot"): Reading(),
    ("classic-000", "family_kill"): Reading(("godfather", "right_hand"), ignore=("joker",)),
    ("classic-000", "maniac_kill"): Reading(agree="named"),
    ("crow-club", "mafia_shot"): Reading(("don",)),
    ("crow-club", "maniac_kill"): Reading(("maniac",)),
    ("online-003", "maniac_kill"): Reading(agree="named"),
    ("online-003", "mafia_kill"): Reading(agree="named"),
}
#: the deal each book's kills are played at, and the seats that may act as a role (the Crow
#: Club's next Don, a mafioso; its thief, seat 9, who copied the maniac)
CROW = ["don", "mafia", "mafia", "maniac", "doctor", "sheriff", "paranoid", *["civilian"] * 6]
CLASSIC = ["godfather", "right_hand", "family", "family", "joker", "chief", "doctor",
           "maniac", *["civilian"] * 6]
DEALS: dict[str, tuple[list[str], list[str], dict[str, tuple[int, ...]]]] = {
    "fiim": (FIIM_ROLES, [], {}),
    "classic-000": (CLASSIC, ["joker", "maniac"], {}),
    "crow-club": (CROW, [], {"don": (2, 3), "maniac": (9,)}),
    "online-003": (ROLES_24, ADDED_24, {}),
}
KEYS = ("shared", "other", "several", "nothing")


def test_every_kill_of_every_shipped_book_has_its_reading_here():
    kills = {(path.stem, s.name) for path in BOOKS.glob("*.toml")
             for s in load_rules(path.stem).book.night.steps if s.mechanism == "kill"}
    assert kills == set(READINGS)


def at_night(book: str, name: str, out: set[int], acting: dict[int, str]) -> Game:
    """``book``'s deal, the seats ``out`` gone, those of ``acting`` acting as a role, and the
    step ``name`` running on night 1 for its actors."""
    roles, add, _ = DEALS[book]
    rules = load_rules(book)
    game, _, _ = run(new_game(len(roles), rules=rules), tap("deal", roles=roles, add=add))
    for seat in out:
        game = set_player(game, seat, in_game=False, left="voted_out")
    for seat, role in acting.items():
        game = set_player(game, seat, acts=role)
    game = replace(game, stage="night", night=1)
    kill = game.book.step(name)
    return replace(game, running_step=name, opened=(name,),
                   step_actors=mechanism("kill").actors(game, kill))


def expected(game: Game, reading: Reading, keyed: dict[int, str], shared: int,
             surplus_first: bool) -> int | None:
    """The seat the book's text kills, or ``None``: a miss."""
    actors = game.step_actors

    def pick(actor: int) -> int | None:  # the actor's own single pick, if whole
        key = keyed[actor]
        if key == "shared" or (key == "several" and surplus_first):
            return shared
        return other(game, shared, actor) if key == "other" else None

    for role in reading.deciders:
        decider = next((a for a in actors if game.player(a).role == role),
                       next((a for a in actors if game.player(a).acts == role), None))
        if decider is not None:
            return pick(decider)
    counted = [a for a in actors if game.player(a).role not in reading.ignore]
    picks = [pick(a) for a in counted]
    if reading.agree == "named":
        picks = [p for p in picks if p is not None]
        return picks[0] if picks and len(set(picks)) == 1 else None
    return picks[0] if picks and None not in picks and len(set(picks)) == 1 else None


def other(game: Game, shared: int, actor: int) -> int:
    """A seat in the game other than ``shared``, each actor's own."""
    seats = [s for s in game.alive if s != shared]
    return seats[actor % len(seats)]


@st.composite
def nights(draw: st.DrawFn) -> tuple[Game, dict[int, str], int]:
    """A kill of a shipped book at night 1: some of its actors out (a decider too), a
    successor acting as one, and what each living actor keys."""
    book, name = draw(st.sampled_from(sorted(READINGS)))
    roles, _, acting = DEALS[book]
    holders = [s for s, r in enumerate(roles, start=1)
               if r in load_rules(book).book.step(name).roles]
    out = draw(st.sets(st.sampled_from(holders), max_size=len(holders) - 1))
    acts = {seat: role for role, seats in acting.items() for seat in seats
            if seat not in out and draw(st.booleans())}
    game = at_night(book, name, out, acts)
    keyed = {a: draw(st.sampled_from(KEYS)) for a in game.step_actors}
    targets = [s for s in game.alive if s not in game.step_actors] or list(game.alive)
    return game, keyed, draw(st.sampled_from(targets))


@given(nights())
def test_a_kill_is_the_deciders_pick_whatever_the_others_show_else_the_books_agreement(
        drawn):
    game, keyed, shared = drawn
    numbers = {a: {"shared": [shared], "other": [other(game, shared, a)],
                   "several": [shared, other(game, shared, a)], "nothing": []}[k]
               for a, k in keyed.items()}
    name = game.running_step or ""
    event = reported(game, numbers)
    after, _, _ = step(game, event, 1.0)
    act = after.acts[-1]
    killed = expected(game, READINGS[(game.book.id, name)], keyed, shared,
                      surplus(game, name) == "first")
    assert (act.outcome, act.targets) == (("kill", (killed,)) if killed else ("miss", ())), \
        (keyed, [(p.actor, p.picks, p.miss) for p in event.event.picks])
    assert after.dying == ((killed,) if killed else ())
