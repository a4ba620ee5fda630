"""What the judge may do now: ``offered(game)``, as data a page renders without knowing the book.

Each ``Offer`` is one action the rules take in the game's present state (``action``, its
``docs/judge-api.md`` kind), with the arguments it carries already (``args``) and the ones the
judge gives (``params``: a seat to pick among the ``seats`` eligible, several seats, a number,
a text, cards, a choice). ``key`` names the offer on the page (its button's id, and the key a
translation catalog looks up); ``label`` is its English words. An offer that is shown but not
possible yet (Confirm before the table proposes a count) has ``enabled`` false. The engine
still decides: an offered action may be refused (a seat not eligible, a stale page), with the
paragraph; nothing here is a rule, only a description of what the rules would take.

A mechanism or a vote procedure that needs the judge's decision (the thief's "black?", the
departed Don's successor) offers ``choose`` with ``args = {"of": <its step or "vote">}``
(``Mechanism.offers``, ``Procedure.offers``), and gets the value in its ``choose``.
"""

from __future__ import annotations

from judge.game.actions import Offer, Param
from judge.game.day import rounds
from judge.game.mechanisms import mechanism
from judge.game.night import plan
from judge.game.state import Game
from judge.game.votes import procedure


def offered(game: Game) -> list[Offer]:
    """Every action the judge may take now, in the order a page shows them."""
    offers = _setup(game) if game.stage == "setup" else _playing(game)
    offers.append(Offer(action="undo", key="undo", label="Undo", enabled=bool(game.undo),
                        group="panel"))
    return offers


def _setup(game: Game) -> list[Offer]:
    row = game.book.deck_for(len(game.players))
    optional = sorted(row.optional) if row is not None else []
    add = [Param(name="add", kind="choices", choices=optional)] if optional else []
    seats = [p.seat for p in game.players]
    return [
        Offer(action="name", key="name", label="Name", group="seat",
              params=[Param(name="seat", kind="seat", seats=seats),
                      Param(name="name", kind="text")]),
        Offer(action="deal", key="deal", label="Deal at random", group="setup",
              params=[Param(name="seed", kind="number"), *add]),
        Offer(action="deal", key="deal-typed", label="Deal the roles typed", group="setup",
              params=[Param(name="roles", kind="roles", choices=list(game.book.roles)), *add]),
        Offer(action="start", key="start", label=_start_words(game), primary=True,
              group="setup", enabled=all(p.role for p in game.players)),
        _night_input(game),
    ]


def _start_words(game: Game) -> str:
    return "Night falls: start" if game.book.first_night is not None else "Day 1: start"


def _playing(game: Game) -> list[Offer]:
    offers: list[Offer] = []
    over = game.stage == "over"
    voting = game.stage in procedure(game).stages
    if not over and not voting:
        offers.append(_next(game))
    if voting and game.vote is not None:
        proposed = game.vote.proposed is not None
        offers += [
            Offer(action="confirm", key="confirm", label="Confirm count", primary=True,
                  enabled=proposed, group="vote"),
            Offer(action="reject", key="reject", label="Reject (count again)",
                  enabled=proposed, group="vote"),
            Offer(action="correct", key="correct", label="Correct: selected voters",
                  enabled=proposed, group="vote",
                  params=[Param(name="voters", kind="seats", seats=list(game.alive))])]
    if game.stage in ("night", "night0"):
        offers += _night(game)
    if over:
        return offers
    alive = list(game.alive)
    if game.book.fouls.given:
        offers.append(_seat("foul", "Foul to selected", alive))
    if game.stage == "day" and rounds(game)[game.round].nominations:
        offers.append(_seat("nominate", "Nominate selected",
                            [s for s in alive if s not in game.nominees]))
        offers.append(_seat("withdraw", "Withdraw selected", list(game.nominees)))
    offers.append(Offer(action="disqualify", key="disqualify", label="Disqualify selected",
                        group="seat", params=[Param(name="seat", kind="seat", seats=alive),
                                              Param(name="reason", kind="text")]))
    hidden = [p.seat for p in game.players if p.in_game and not p.shown]
    offers.append(_seat("show_card", "Show the card of selected", hidden))
    for step in game.book.night.steps:
        offers += mechanism(step.mechanism).offers(game, step)
    offers += procedure(game).offers(game)
    return offers


def _seat(action: str, label: str, seats: list[int]) -> Offer:
    """An action on one seat of ``seats`` (none eligible: still offered, and refused with the
    paragraph whichever seat the judge picks, as the page shows)."""
    return Offer(action=action, key=action.replace("_", "-"), label=label, group="seat",
                 params=[Param(name="seat", kind="seat", seats=seats)])


def _next(game: Game) -> Offer:
    """The judge's Next, in the words of what it does now."""
    label, enabled = "Next", True
    if game.stage in ("night", "night0"):
        steps = plan(game)
        if game.running_step is not None:
            label, enabled = "Step running…", False
        elif steps:
            label = f"Open {game.book.step(steps[0]).words}"
        else:
            label = "Morning"
    elif game.speakers:
        label = f"Last words: {game.speakers[0]}" if game.stage == "last_words" \
            else f"Floor to {game.speakers[0]}"
    else:
        label = {"day": "Start the vote", "defence": "Re-vote",
                 "last_words": "They leave"}.get(game.stage, "Next")
        if game.stage == "day" and game.round + 1 < len(rounds(game)):
            label = "Next round"
    return Offer(action="next", key="next", label=label, primary=True, enabled=enabled)


def _night(game: Game) -> list[Offer]:
    offers = []
    if game.running_step is not None:
        step = game.book.step(game.running_step)
        offers.append(Offer(action="end_step", key="end-step", label="End the step now",
                            group="night", enabled=not game.ending))
    elif game.tonight and game.opened and game.tonight[-1].step == game.opened[-1]:
        step = game.book.step(game.opened[-1])
    else:
        return [_night_input(game)]
    actors = list(game.step_actors)
    offers.append(Offer(
        action="night_pick", key="night-pick", label=f"Enter a pick: {step.words}",
        group="night", params=[Param(name="actor", kind="seat", seats=actors),
                               Param(name="targets", kind="seats", seats=list(game.alive),
                                     max=step.picks)]))
    return [*offers, _night_input(game)]


def _night_input(game: Game) -> Offer:
    other = "count" if game.night_input == "keypad" else "keypad"
    words = {"count": "Night picks: count mode (vote buttons)",
             "keypad": "Night picks: keypads"}
    return Offer(action="night_input", key="night-input", label=words[other],
                 args={"mode": other}, group="night")


