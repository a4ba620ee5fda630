"""Random legal games of every shipped book, played from what the engine offers (``offered``)
against a simulated table (tests/engine_table.py): no input crashes, no state the book cannot
reach appears, every offer taken as offered is accepted, every game ends in a win the book
allows, an undo equals the game replayed without the tap, a new game at any moment ends what
the table holds (``wind_up``), every offer says what it does (a ``kind`` the live channel's
schema lists) and every ``choose`` taken as offered fits the schema's shape for its decision. A
book whose mechanisms are not all built yet is played as far as the engine goes (its deal), and
fully once they are."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import jsonschema
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from judge.game import Action, Game, Refused, TableEvent, load_rules, new_game, step
from judge.game.actions import Offer
from judge.game.book import BOOKS
from judge.game.end import counted_out, win_check
from judge.game.endgames import ENDGAMES
from judge.game.mechanisms import mechanism
from judge.game.offers import offered
from judge.game.wind_up import wind_up
from tests.support.engine_table import SimTable
from tests.support.paths import REPO

SHIPPED = sorted(p.stem for p in BOOKS.glob("*.toml"))
#: the live channel's schema (docs/judge-api.schema.json): the offers' kinds, choose's shapes
SCHEMA = json.loads((REPO / "docs" / "judge-api.schema.json").read_text(encoding="utf-8"))
KINDS = frozenset(SCHEMA["$defs"]["Offer"]["properties"]["kind"]["enum"])
ACTION = jsonschema.Draft202012Validator({"$ref": "#/$defs/ActionMessage", **SCHEMA})
#: the inputs of the random part of a game at a table of ten (a larger table takes more in
#: proportion: a day is a speech and a vote's window a seat); then the judge ends it with fouls
#: or removals
RANDOM_INPUTS = 150
#: how often the judge takes each kind of offer, against 1 for the others: the removals rarely,
#: so that games reach their votes and nights
WEIGHTS = {"foul": 0.15, "disqualify": 0.02, "show_card": 0.05, "undo": 0.3, "night_input": 0.1,
           "new_game": 0.0, "forfeit": 0.02, "gift": 0.02, "violation": 0.1}


def weight(offer: Offer) -> float:
    """How often the judge takes ``offer``: by its key (a win he declares), else its action."""
    return WEIGHTS.get(offer.key, WEIGHTS.get(offer.action, 1.0))


def bare(game: Game) -> Game:
    return replace(game, version=0, undo=())


def args_for(offer: Offer, game: Game, rng: random.Random) -> dict:
    """The offer's arguments as the judge would give them: the eligible seats, valid cards
    (the deck's optional ones among them, at random)."""
    args = dict(offer.args)
    for param in offer.params:
        if param.kind == "seat":
            args[param.name] = rng.choice(param.seats)
        elif param.kind == "seats":
            args[param.name] = rng.sample(param.seats, rng.randint(param.min or 0, min(
                len(param.seats), param.max or len(param.seats))))
        elif param.kind == "number":  # a seed, or a number the rules bound (a called one)
            args[param.name] = rng.randint(1, param.max) if param.max else rng.randint(0, 10**6)
        elif param.kind == "text":
            args[param.name] = rng.choice(["", "a reason"])
        elif param.kind == "choice":
            args[param.name] = rng.choice(param.choices)
        elif param.kind == "choices":  # the organiser's optional cards: as many as fit
            args[param.name] = optional_cards(game, param.choices, rng)
    roles = next((p.name for p in offer.params if p.kind == "roles"), None)
    if roles is not None:  # the cards typed: the deck with the optional cards added
        cards = game.book.deck_for(len(game.players)).cards(len(game.players),
                                                            tuple(args.get("add", ())))
        args[roles] = rng.sample(cards, len(cards))
    return args


def optional_cards(game: Game, choices: list[str], rng: random.Random) -> list[str]:
    """A random few of the deck's optional cards, each with a card left to replace."""
    row = game.book.deck_for(len(game.players))
    added: list[str] = []
    for card in rng.sample(choices, rng.randint(0, len(choices))):
        try:
            row.cards(len(game.players), (*added, card))
        except LookupError:
            continue
        added.append(card)
    return added


def check(before: Game, game: Game, commands: list, deck: Counter | None,
          declared: bool = False) -> None:
    """What no game of the book may ever show (``declared``: the judge declared a win)."""
    book = game.book
    assert game.version > before.version
    assert game.day >= before.day and game.night >= before.night
    ladder = book.fouls
    assert all(0 <= p.fouls <= ladder.out_at for p in game.players)
    assert all(not p.in_game for p in game.players if p.fouls == ladder.out_at)
    if game.stage == "day":
        assert set(game.nominees) <= set(game.alive)
    assert len(set(game.nominees)) == len(game.nominees)
    assert game.floor is None or game.floor in game.alive or game.stage == "last_words"
    if deck is not None:
        assert Counter(p.role for p in game.players) == deck
    if game.stage == "over":  # a win the book allows, and its condition holds (at a removal,
        assert game.winner in (*book.teams, "draw")  # or at the day's end: the Crow's «критика»)
        rows = [r for r in book.endgames if r.team == game.winner]
        assert declared or any(ENDGAMES[r.kind].holds(counted_out(game), r) for r in rows) or any(
            (dusk := ENDGAMES[r.kind].at_nightfall(game, r)) is not None and dusk.wins
            for r in rows)
    else:
        assert game.winner is None
        if game.stage not in ("setup", "last_words"):  # leavers: the check comes after them
            assert win_check(game) is None
    for command in commands:
        verb = command.spec.verb
        assert verb != "night/step" or game.stage in ("night", "night0")
        if verb == "night/step":
            step_ = book.step(command.payload.step)
            assert command.payload.actors == list(mechanism(step_.mechanism).actors(before,
                                                                                      step_))
            if step_.mechanism != "succession":  # the departed Don wakes out of the game
                assert set(command.payload.actors) <= set(game.alive)
        assert verb != "vote/start" or game.stage == "vote"


def check_wind_up(game: Game, table: SimTable) -> None:
    """A new game now, before the panel heard a word from the table (its ``state`` not come
    yet): the endings cover the vote the table runs, the timer and night step the game
    started, and the night (docs/judge.md, "New game"; issue 36: a vote left running)."""
    verbs = [c.spec.verb for c in wind_up(game, {})]
    assert table.vote is None or "vote/cancel" in verbs
    assert ("timer/stop" in verbs) == (game.floor is not None or game.discussing
                                       or game.countdown)
    assert ("night/stop" in verbs) == (game.running_step is not None)
    assert ("phase" in verbs) == (game.stage in ("night", "night0"))
    assert verbs == [v for v in ("vote/cancel", "timer/stop", "night/stop", "phase")
                     if v in verbs]  # the table refuses the day while any of the others runs


def play(name: str, seed: int, draws: st.DataObject) -> None:
    rules = load_rules(name)
    book = rules.book
    seats = draws.draw(st.integers(book.players.min, book.players.max), label="seats")
    rng = random.Random(seed)
    table = SimTable(pick=lambda options, most: rng.sample(list(options), rng.randint(
        0, min(most, len(options)))))
    game = new_game(seats, rules=rules)
    journal: list[Action | TableEvent] = []
    times: list[float] = []  # when each came (a violation is counted by them)
    deck: Counter | None = None
    vote_kinds: set[str] = set()
    stages: set[str] = set()

    def take(given: Action | TableEvent, at: int) -> bool:
        nonlocal game, deck
        before = game
        game, commands, _ = step(game, given, float(at))
        if game is before:
            return False
        journal.append(given)
        times.append(float(at))
        if game.vote is not None:
            vote_kinds.add(game.vote.kind)
        if before.stage == "setup" and game.stage != "setup":
            # the cards as the game starts with them: a deal by called numbers (the Crow
            # Club's) deals nothing at its ``deal``, each card at its player's ``call``
            deck = Counter(p.role for p in game.players)
        declared = isinstance(given, Action) and given.kind == "choose" \
            and given.args.get("of") in {r.kind for r in book.endgames}
        check(before, game, commands, deck if game.stage != "setup" else None, declared)
        stages.add(game.stage)
        table.hear(game, commands)
        check_wind_up(game, table)
        return True

    inputs = RANDOM_INPUTS * max(seats, 10) // 10
    undo_from = rng.randint(0, inputs)  # the first undo comes at any depth of a game
    for at in range(inputs * 2):
        if game.stage == "over":
            break
        offers = [o for o in offered(game) if o.enabled and o.action != "name"
                  and (o.action != "undo" or at >= undo_from)
                  and all(p.seats for p in o.params if p.kind == "seat")]
        # with only the rare offers to take (a count on its way), the judge mostly waits
        waiting = all(weight(o) < 1 for o in offers)
        hear = bool(table.pending) and (at >= inputs or rng.random() < (0.9 if waiting
                                                                          else 0.5))
        if at >= inputs and not hear:  # the judge ends it: fouls, else removals
            ending = [o for o in offers if o.action in ("foul", "disqualify")]
            offers = ending or offers
        if hear:
            take(table.pending.popleft(), at)
            continue
        if not offers:
            break
        assert {o.kind for o in offers} <= KINDS, offers
        offer = rng.choices(offers, [weight(o) for o in offers])[0]
        given = Action(offer.action, args_for(offer, game, rng))
        if offer.action == "choose":
            ACTION.validate({"action": "choose", "args": given.args, "version": game.version})
        if offer.action == "start" and book.unbuilt:
            with pytest.raises(Refused, match="needs what the engine does not have yet"):
                step(game, given, float(at))
            return  # played as far as the engine goes
        if offer.action == "undo":
            undone, _, _ = step(game, given, float(at))
            assert_undo_is_replay(game, undone, list(zip(journal, times, strict=True)), rules,
                                  seats)
            game = undone
            if game.stage == "setup":  # an earlier deal back (its optional cards with it)
                deck = Counter(p.role for p in game.players)
            journal.append(given)
            times.append(float(at))
            continue
        try:
            take(given, at)
        except Refused as exc:  # an offer taken as offered is never refused
            raise AssertionError(f"offered {offer} refused: {exc}") from exc
    assert game.stage == "over", f"{name}: no end after {inputs * 2} inputs"
    event(f"nights played: {min(game.night, 3)}{'+' if game.night > 3 else ''}")
    votes = sum(1 for g in journal if isinstance(g, TableEvent) and g.topic.endswith("result")
                and g.topic.startswith("event/"))
    event(f"votes: {min(votes, 3)}")
    event(f"winner: {game.winner}")
    for kind in sorted(vote_kinds):
        event(f"vote: {kind}")
    for stage in sorted(stages - {"setup", "night0", "day", "night", "last_words", "over"}):
        event(f"a stage of the vote: {stage}")
    for acted in sorted({a.mechanism for a in game.acts}):
        event(f"acted: {acted}")
    for chose in sorted({g.args["of"] for g in journal if isinstance(g, Action)
                         and g.kind == "choose"}):
        event(f"the judge chose: {chose}")


def assert_undo_is_replay(game: Game, undone: Game,
                          journal: list[tuple[Action | TableEvent, float]], rules,
                          seats: int) -> None:
    """The undo is the game replayed, at the same times, without the judge's last undoable
    tap (the table's events after it kept)."""
    kinds = [m.kind for m in game.undo]
    taps = [i for i, (g, _) in enumerate(journal) if isinstance(g, Action) and g.kind != "undo"]
    marked = [i for i in taps if journal[i][0].kind in kinds]
    if not marked or any(isinstance(g, Action) and g.kind == "undo" for g, _ in journal):
        return  # after an earlier undo the marks' order is not the journal's: not compared
    dropped = marked[-1]
    rebuilt = new_game(seats, rules=rules)
    for i, (kept, at) in enumerate(journal):
        if i != dropped:
            rebuilt, _, _ = step(rebuilt, kept, at)
    assert bare(undone) == bare(rebuilt)
    event(f"an undo compared with the replay, in stage {game.stage}")


@pytest.mark.timeout(600)  # 300 games on the CPU: 16 s alone, over 120 s beside the suite
@pytest.mark.parametrize("name", SHIPPED)
@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), draws=st.data())
def test_random_legal_games_of_every_book_end_in_a_win_the_book_allows(name, seed, draws):
    play(name, seed, draws)
