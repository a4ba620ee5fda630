"""What the judge may do now: ``offered(game)``, as data a page renders without knowing the book.

Each ``Offer`` is one action the rules take in the game's present state (``action``, its
``docs/judge-api.md`` kind), with the arguments it carries already (``args``) and the ones the
judge gives (``params``: a seat to pick among the ``seats`` eligible, several seats, a number,
a text, cards, a choice). ``key`` names the offer on the page (its button's id); ``label`` is
its words (``kit.i18n.Words``: a catalog key and parameters, which a page renders in its
reader's language: docs/i18n.md). An offer that is shown but not
possible yet (Confirm before the table proposes a count) has ``enabled`` false. The engine
still decides: an offered action may be refused (a seat not eligible, a stale page), with the
paragraph; nothing here is a rule, only a description of what the rules would take.

A mechanism or a vote procedure that needs the judge's decision (the thief's "black?", the
departed Don's successor) offers ``choose`` with ``args = {"of": <its step or "vote">}``
(``Mechanism.offers``, ``Procedure.offers``), and gets the value in its ``choose``.
"""

from __future__ import annotations

from judge.game.actions import Offer, Param
from judge.game.day import discussing, rounds
from judge.game.endgames import ENDGAMES
from judge.game.mechanisms import MECHANISMS, barred, mechanism, stepless
from judge.game.night import plan
from judge.game.setup import CALLERS, STACK
from judge.game.state import Game
from judge.game.votes import PROCEDURES, procedure
from kit.i18n import Words

#: what each of the engine's own offers does (``Offer.kind``), beside the decisions of the
#: mechanisms and vote procedures (``decisions``); docs/judge-api.md says what each does
KINDS = ("name", "deal_random", "deal_typed", "start_night", "start_day", "next",
         "step_running", "open_step", "morning", "start_discussion", "end_discussion",
         "give_floor", "give_last_words", "next_round", "start_vote", "start_revote", "leave",
         "confirm_count", "reject_count", "correct_count", "foul", "nominate", "withdraw",
         "disqualify", "show_card", "end_step", "enter_pick", "night_input_count",
         "night_input_keypad", "undo", "deal_called", "call", "violation", "violation_end",
         "reseat", "swap")


def decisions() -> dict[str, object]:
    """Every decision a mechanism, a vote procedure or an endgame asks of the judge, with the
    one shape its value takes (``Mechanism.decisions``, ``Procedure.decisions``,
    ``Endgame.decisions``): the ``kind`` of its
    offers and the ``decision`` of its ``choose``. A name two modules declare must take one
    shape."""
    found: dict[str, object] = {}
    declared = [(m.name, m.decisions) for m in MECHANISMS.values()] + [
        (p.name, p.decisions) for p in PROCEDURES.values()] + [
        (e.name, e.decisions) for e in ENDGAMES.values()]
    for module, shapes in declared:
        for name, shape in shapes.items():
            if found.setdefault(name, shape) != shape:
                raise ValueError(f"decision {name!r} takes two shapes: {found[name]!r} and "
                                 f"{shape!r} ({module})")
    return dict(sorted(found.items()))


def offered(game: Game) -> list[Offer]:
    """Every action the judge may take now, in the order a page shows them."""
    offers = _setup(game) if game.stage == "setup" else _playing(game)
    offers.append(Offer(action="undo", kind="undo", key="undo", label=Words("offer.undo"),
                        enabled=bool(game.undo), group="panel"))
    return offers


def _setup(game: Game) -> list[Offer]:
    row = game.book.deck_for(len(game.players))
    optional = sorted(row.optional) if row is not None else []
    add = [Param(name="add", kind="choices", choices=[*optional])] if optional else []
    seats = [p.seat for p in game.players]
    return [
        Offer(action="name", kind="name", key="name", label=Words("offer.name"), group="seat",
              params=[Param(name="seat", kind="seat", seats=seats),
                      Param(name="name", kind="text")]),
        Offer(action="reseat", kind="reseat", key="reseat", label=Words("offer.reseat"),
              group="setup", enabled=any(p.name for p in game.players)),
        Offer(action="swap", kind="swap", key="swap", label=Words("offer.swap"), group="seat",
              params=[Param(name="seats", kind="seats", seats=seats, min=2, max=2)]),
        Offer(action="deal", kind="deal_random", key="deal", label=Words("offer.deal"),
              group="setup",
              params=[Param(name="seed", kind="number"), *add]),
        Offer(action="deal", kind="deal_typed", key="deal-typed", label=Words("offer.deal.typed"),
              group="setup",
              params=[Param(name="roles", kind="roles", choices=list(game.book.roles)), *add]),
        *_called_deal(game, add),
        Offer(action="start", kind="start_night" if game.book.first_night is not None
              else "start_day", key="start", label=_start_words(game), primary=True,
              group="setup", enabled=all(p.role for p in game.players)),
        _night_input(game),
        *_mechanisms(game),
    ]


def _called_deal(game: Game, add: list[Param]) -> list[Offer]:
    """A book's deal by called numbers: from the side the game before at the table did not
    begin from (the Crow Club's «Раздача»: "Каждую игру сторона раздачи меняется"), or the
    other; while it is under way, the next player's call."""
    if not game.book.deal.called:
        return []
    last = game.previous
    sides = ["last", "first"] if last is not None and last.dealt_from == "first" \
        else ["first", "last"]
    seats = {"first": 1, "last": len(game.players)}
    offers = [Offer(action="deal", kind="deal_called", key=key, group="setup",
                    args={"called": side},
                    label=Words("offer.deal.called", seat=seats[side]),
                    params=[Param(name="seed", kind="number"), *add])
              for key, side in zip(("deal-called", "deal-called-other"), sides, strict=True)]
    callers, stack = game.note(CALLERS), game.note(STACK)
    if callers:
        offers.append(Offer(action="call", kind="call", key="call", group="setup", primary=True,
                            label=Words("offer.call", seat=callers[0], cards=len(stack)),
                            params=[Param(name="number", kind="number", max=len(stack))]))
    return offers


def _mechanisms(game: Game) -> list[Offer]:
    """The decisions the book's mechanisms ask of the judge now (``Mechanism.offers``; a book
    with mechanisms not built yet is offered its setup only)."""
    offers = [o for step in game.book.night.steps if step.mechanism in MECHANISMS
              for o in MECHANISMS[step.mechanism].offers(game, step)]
    return offers + [o for name in stepless(game.book) if name in MECHANISMS
                     for o in MECHANISMS[name].offers(game, None)]


def _start_words(game: Game) -> Words:
    return Words("offer.start.night" if game.book.first_night is not None
                 else "offer.start.day")


def _playing(game: Game) -> list[Offer]:
    offers: list[Offer] = []
    over = game.stage == "over"
    voting = game.stage in procedure(game).stages
    if not over and not voting:
        offers.append(_next(game))
    if voting and game.vote is not None:
        proposed = game.vote.proposed is not None
        offers += [
            Offer(action="confirm", kind="confirm_count", key="confirm",
                  label=Words("offer.confirm"), primary=True, enabled=proposed, group="vote"),
            Offer(action="reject", kind="reject_count", key="reject",
                  label=Words("offer.reject"), enabled=proposed, group="vote"),
            Offer(action="correct", kind="correct_count", key="correct",
                  label=Words("offer.correct"), enabled=proposed, group="vote",
                  params=[Param(name="voters", kind="seats", seats=list(game.alive))])]
    if game.stage in ("night", "night0"):
        offers += _night(game)
    if over:
        return offers
    alive = list(game.alive)
    if game.book.fouls.given:
        offers.append(_seat("foul", Words("offer.foul"), alive))
    if game.book.fouls.every:  # a violation that goes on: a foul every so many seconds
        going = dict(game.violations)
        offers.append(_seat("violation", Words("offer.violation",
                                                seconds=game.book.fouls.every),
                            [s for s in alive if s not in going]))
        offers += [Offer(action="violation", kind="violation_end", key=f"violation-end-{seat}",
                         group="seat",
                         label=Words("offer.violation.end", seat=seat),
                         args={"seat": seat, "ends": True}) for seat in going]
    if game.stage == "day" and rounds(game)[game.round].nominations:
        offers.append(_seat("nominate", Words("offer.nominate"),
                            [s for s in alive if s not in game.nominees
                             and barred(game, s, "nominated") is None]))
        offers.append(_seat("withdraw", Words("offer.withdraw"), list(game.nominees)))
    offers.append(Offer(action="disqualify", kind="disqualify", key="disqualify",
                        label=Words("offer.disqualify"), group="seat",
                        params=[Param(name="seat", kind="seat", seats=alive),
                                Param(name="reason", kind="text")]))
    hidden = [p.seat for p in game.players if p.in_game and not p.shown]
    offers.append(_seat("show_card", Words("offer.show_card"), hidden))
    offers += _mechanisms(game)
    offers += procedure(game).offers(game)
    offers += [o for row in game.book.endgames for o in ENDGAMES[row.kind].offers(game, row)]
    return offers


def _seat(action: str, label: Words, seats: list[int]) -> Offer:
    """An action on one seat of ``seats``; none eligible (Withdraw with nobody nominated, Show
    card with every card shown): shown, but not enabled, so the judge sees it does not apply."""
    return Offer(action=action, kind=action, key=action.replace("_", "-"), label=label,
                 group="seat", enabled=bool(seats),
                 params=[Param(name="seat", kind="seat", seats=seats)])


def _next(game: Game) -> Offer:
    """The judge's Next, with what it does now (its ``kind``) and its words."""
    kind, label, enabled = "next", Words("offer.next"), True
    if game.stage in ("night", "night0"):
        steps = plan(game)
        if game.running_step is not None:
            kind, label, enabled = "step_running", Words("offer.next.running"), False
        elif steps:
            kind, label = "open_step", Words("offer.next.step",
                                             step=game.book.step(steps[0]).words)
        else:
            kind, label = "morning", Words("offer.next.morning")
    elif discussing(game):  # the whole table's time: Next starts it, then ends it
        kind, label = ("end_discussion", Words("offer.next.discussion.end")) \
            if game.discussing else ("start_discussion", Words(
                "offer.next.discussion", seconds=game.timings[rounds(game)[game.round].timing]))
    elif game.speakers:
        kind, label = ("give_last_words", Words("offer.next.last_words", seat=game.speakers[0])) \
            if game.stage == "last_words" \
            else ("give_floor", Words("offer.next.floor", seat=game.speakers[0]))
    elif game.stage == "day" and game.round + 1 < len(rounds(game)):
        kind, label = "next_round", Words("offer.next.round")
    else:
        leaving = list(game.leaving)
        kind, label = {"day": ("start_vote", Words("offer.next.vote")),
                       "defence": ("start_revote", Words("offer.next.revote")),
                       "last_words": ("leave", Words("offer.next.leave", seats=leaving,
                                                     count=len(leaving)))}.get(
            game.stage, (kind, label))
    return Offer(action="next", kind=kind, key="next", label=label, primary=True,
                 enabled=enabled)


def _night(game: Game) -> list[Offer]:
    offers = []
    if game.running_step is not None:
        step = game.book.step(game.running_step)
        offers.append(Offer(action="end_step", kind="end_step", key="end-step",
                            label=Words("offer.end_step"), group="night",
                            enabled=not game.ending))
    elif game.tonight and game.opened and game.tonight[-1].step == game.opened[-1]:
        step = game.book.step(game.opened[-1])
    else:
        return [_night_input(game)]
    actors = list(game.step_actors)
    offers.append(Offer(
        action="night_pick", kind="enter_pick", key="night-pick",
        label=Words("offer.night_pick", step=step.words),
        group="night", params=[Param(name="actor", kind="seat", seats=actors),
                               Param(name="targets", kind="seats", seats=list(game.alive),
                                     max=mechanism(step.mechanism).picks(game, step))]))
    return [*offers, _night_input(game)]


def _night_input(game: Game) -> Offer:
    other = "count" if game.night_input == "keypad" else "keypad"
    words = {"count": Words("offer.night_input.count"),
             "keypad": Words("offer.night_input.keypad")}
    return Offer(action="night_input", kind=f"night_input_{other}", key="night-input",
                 label=words[other], args={"mode": other}, group="night")


