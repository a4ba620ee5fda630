"""``choose`` has one documented, schema-checked shape per decision, and every offer says what it
will do (``kind``), so a client needs no label keys (docs/judge-api.md, "Offer kinds" and
"Decisions"; issue 36 item 7). The classic club's roulette and the online variant's deciding
vote are played through the live channel by their kinds alone; every shape the schema gives is
the one the engine takes, and a value of another shape, a decision not asked now or not there,
is refused naming the argument and changes nothing."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from judge.game import Action, Game, Refused, load_rules, new_game, step
from judge.game.offers import KINDS, decisions, offered
from judge.game.state import BadArgument
from judge.panel import config as judge_config
from judge.panel.live_view import OWN_KINDS
from judge.panel.service import Panel
from kit.i18n import render
from tests.support.judge_configs import GOOD, write
from tests.support.paths import REPO
from tests.support.record_game import ROLES as FIIM_ROLES
from tests.support.table_event import table_event
from tests.support.web_client import live_session

DOC = json.loads((REPO / "docs" / "judge-api.schema.json").read_text(encoding="utf-8"))
PROSE = (REPO / "docs" / "judge-api.md").read_text(encoding="utf-8")
CLASSIC = load_rules("classic-000")
CLASSIC_ROLES = ["godfather", "right_hand", "family", "joker", "chief", "detective", "doctor",
                 "maniac", "laura", "civilian"]


def fits(message: dict) -> None:
    jsonschema.validate(message, {"$ref": "#/$defs/ActionMessage", **DOC},
                        cls=jsonschema.Draft202012Validator)


def run(game: Game, *inputs) -> Game:
    for i, given in enumerate(inputs):
        game, _, _ = step(game, given, float(i))
    return game


def tap(kind: str, **args) -> Action:
    return Action(kind, args)


def roulette() -> Game:
    """The classic club's day 1 tied between 3 and 8: the roulette, its number not written."""
    game = run(new_game(10, rules=CLASSIC), tap("deal", roles=CLASSIC_ROLES, add=[
        "joker", "detective", "maniac", "laura"]), tap("start"))
    while game.stage in ("night0", "day"):
        game = run(game, tap("next"))
    game = run(game, table_event("event/vote/result", {
        "kind": "nominees", "outcome": "tie", "tied": [3, 8],
        "counts": [{"candidate": 3, "count": 4}, {"candidate": 8, "count": 4}]}))
    assert game.stage == "roulette"
    return game


def the(game: Game, kind: str):
    [offer] = [o for o in offered(game) if o.kind == kind]
    return offer


# ------------------------------------------------------------------ the schema and the prose


def test_every_decision_has_one_shape_in_the_schema_and_every_kind_is_documented():
    shapes = {one["title"]: one for one in DOC["$defs"]["Choose"]["oneOf"]}
    assert sorted(shapes) == sorted(decisions())
    for name, shape in decisions().items():
        assert shapes[name]["properties"]["decision"] == {"const": name}
        assert ("value" in shapes[name]["required"]) == (shape is not None)
    kinds = DOC["$defs"]["Offer"]["properties"]["kind"]["enum"]
    assert sorted(kinds) == sorted({*KINDS, *OWN_KINDS, *decisions()})
    missing = [kind for kind in kinds if f"`{kind}`" not in PROSE]
    assert not missing, f"docs/judge-api.md does not say what these offers do: {missing}"
    assert "Offer" in DOC["$defs"] and "kind" in DOC["$defs"]["Offer"]["required"]


@pytest.mark.parametrize(("args", "valid"), [
    ({"of": "vote", "decision": "roulette_number", "value": 3}, True),
    ({"of": "vote", "decision": "roulette_number", "value": "3"}, False),  # api 3's string
    ({"of": "vote", "decision": "roulette_end"}, True),
    ({"of": "vote", "decision": "roulette_end", "value": 0}, False),
    ({"of": "vote", "value": 3}, False),  # no decision
    ({"of": "vote", "decision": "deciding_vote", "value": [2]}, False),
    ({"of": "immunity", "decision": "immunity", "value": [3, 9]}, True),
    ({"of": "immunity", "decision": "immunity", "value": 3}, False),
    ({"of": "laura", "decision": "laura_over", "value": True}, True),
    ({"of": "laura", "decision": "laura_over", "value": False}, False),
    ({"of": "thief", "decision": "copy_side", "value": "black"}, True),
    ({"of": "thief", "decision": "copy_side", "value": "green"}, False),
    ({"of": "vote", "decision": "spin", "value": 1}, False),
])
def test_the_schema_takes_each_decision_in_its_one_shape_only(args, valid):
    message = {"action": "choose", "args": args, "version": 3}
    if valid:
        fits(message)
    else:
        with pytest.raises(jsonschema.ValidationError):
            fits(message)


# ------------------------------------------------------------------ the engine


def test_classic_000_roulette_a_number_is_a_number_and_each_step_has_its_decision():
    """«Русскую рулетку» through the offers' kinds: the hidden number, then each call; the
    text "3" (api 3's shape) is refused naming ``args.value``, and nothing changes."""
    game = roulette()
    offer = the(game, "roulette_number")
    assert offer.args == {"of": "vote", "decision": "roulette_number"}
    assert offer.params[0].choices == [1, 2, 3, 4, 5, 6, 7]
    with pytest.raises(BadArgument) as refused:
        step(game, tap("choose", of="vote", decision="roulette_number", value="3"), 0.0)
    assert refused.value.field == "args.value"
    assert "Expected `int`, got `str`" in render(refused.value.line, "en")
    game = run(game, tap("choose", **offer.args, value=3))
    call = the(game, "roulette_call")
    assert call.params[0].choices == [1, 2, 3, 4, 5, 6, 7]
    game = run(game, tap("choose", **call.args, value=5))
    assert 5 not in the(game, "roulette_call").params[0].choices


@pytest.mark.parametrize(("args", "field", "says"), [
    ({"of": "vote", "decision": "roulette_call", "value": 2}, None,
     "that is not asked now; the panel asks for: The judge's number"),
    ({"of": "vote", "decision": "roulette_spin", "value": 2}, "args.decision",
     "choose: vote asks no decision roulette_spin (it asks: vote_first, roulette_number, "
     "roulette_call, roulette_end)"),
    ({"of": "vote", "value": 2}, "args", "Object missing required field `decision`"),
    ({"of": "vote", "decision": "roulette_number", "value": 8}, None, "1 to 7"),
    ({"of": "vote", "decision": "roulette_number", "value": True}, "args.value",
     "Expected `int`, got `bool`"),
    ({"of": "vote", "decision": "roulette_number"}, "args.value", "Expected `int`, got `null`"),
    ({"of": "mafia_kill", "decision": "roulette_number", "value": 2}, None,
     "no step mafia_kill"),
])
def test_a_choose_of_another_shape_or_decision_is_refused_and_changes_nothing(args, field, says):
    game = roulette()
    with pytest.raises(Refused) as refused:
        step(game, tap("choose", **args), 0.0)
    assert getattr(refused.value, "field", None) == field
    assert says in render(refused.value.line, "en"), render(refused.value.line, "en")


def test_fiim_each_next_says_what_it_does():
    """FIIM's Next through a day: its kind follows the game, and the start says night 0."""
    game = run(new_game(), tap("deal", roles=FIIM_ROLES))
    assert the(game, "start_night").action == "start"
    game = run(game, tap("start"))
    assert [o.kind for o in offered(game) if o.action == "next"] == ["morning"]
    game = run(game, tap("next"))
    assert the(game, "give_floor").label.params == {"seat": 1}
    game = run(game, tap("nominate", seat=5), tap("nominate", seat=6))  # 4.4.10: two
    while game.speakers:
        game = run(game, tap("next"))
    assert game.floor == 10  # the last speaker: Next ends his floor and starts the vote
    assert [o.kind for o in offered(game) if o.action == "next"] == ["start_vote"]
    game = run(game, tap("next"))
    assert game.stage == "vote" and the(game, "confirm_count").enabled is False


# ------------------------------------------------------------------ the live channel


def test_online_003_the_deciding_vote_through_the_live_channel_by_its_kind(tmp_path):
    """«Если в конце игры…»: a client finds the offer by its kind, sends its args with the
    seat (the schema's one shape), and the game ends; a seat as text is refused naming
    ``args.value``, with the game as it was."""
    panel = Panel(judge_config.load(write(tmp_path, GOOD.replace(
        "[timings]\nspeech = 45\n", "") + '[game]\nbook = "online-003"\nseats = 7\n')))
    roles = ["mafia", "mafia", "commissar", *["honest"] * 4]
    for given in (tap("deal", roles=roles), tap("start"),
                  *(tap("disqualify", seat=s) for s in (2, 4, 5, 6, 7))):  # 1 and 3 left
        panel.apply(given)
    while panel.game.stage in ("night0", "day"):
        panel.apply(tap("next"))
    assert panel.game.stage == "vote", panel.game.stage

    async def script(ws, receive) -> None:
        view = await receive()
        offer = next(o for o in view["game"]["offers"] if o["kind"] == "deciding_vote")
        bad = {"action": "choose", "args": {**offer["args"], "value": "3"},
               "version": view["game"]["version"]}
        with pytest.raises(jsonschema.ValidationError):
            fits(bad)
        await ws.send_json(bad)
        refused = await receive()
        assert refused["type"] == "refused" and refused["field"] == "args.value", refused
        good = {"action": "choose", "args": {**offer["args"], "value": 1}, "ref": 1,
                "version": view["game"]["version"]}
        fits(good)
        await ws.send_json(good)
        answers = [await receive(), await receive()]
        assert {a["type"] for a in answers} == {"done", "view"}, answers
        over = next(a for a in answers if a["type"] == "view")["game"]
        assert over["stage"] == "over" and over["winner"] == "honest"
        assert all(re.fullmatch(r"[a-z_]+", o["kind"]) for o in over["offers"])

    live_session(panel, script)
