"""The judge's live channel as a contract (docs/judge-api.md): the committed JSON Schema is what
the code generates, every message of a real session fits it both ways (the actions a page
sends, the views and refusals it gets), a bad message is refused naming the field and changes
nothing, a view the same as the last one is not sent again, and every action the engine offers
is one the schema describes."""

from __future__ import annotations

import json

import jsonschema
import pytest

from judge.game import Action
from judge.game.actions import ACTIONS
from judge.panel import config as judge_config
from judge.panel.api_schema import render
from judge.panel.service import Panel
from kit.i18n import render as english_of
from tests.support.judge_configs import GOOD, write
from tests.support.paths import REPO
from tests.support.web_client import live_session

DOC_PATH = REPO / "docs" / "judge-api.schema.json"
DOC = json.loads(DOC_PATH.read_text(encoding="utf-8"))
ROLES = ["don", "mafia", "mafia", "sheriff", *["civilian"] * 6]


def test_the_committed_schema_is_what_the_code_generates():
    assert DOC_PATH.read_text(encoding="utf-8") == render(), (
        "docs/judge-api.schema.json is stale: run "
        "`mafia-table judge schema > docs/judge-api.schema.json`")


def fits(message: dict, what: str) -> None:
    """``message`` is a valid ``ActionMessage`` or ``PanelMessage`` of the document."""
    jsonschema.validate(message, {"$ref": f"#/$defs/{what}", **DOC},
                        cls=jsonschema.Draft202012Validator)


def test_the_prose_document_names_every_action_and_the_schema_describes_it():
    prose = (DOC_PATH.parent / "judge-api.md").read_text(encoding="utf-8")
    described = {a["properties"]["action"]["const"]
                 for a in DOC["$defs"]["ActionMessage"]["oneOf"]}
    assert described == set(ACTIONS)
    missing = [kind for kind in ACTIONS if f"`{kind}`" not in prose]
    assert not missing, f"docs/judge-api.md does not describe {missing}"


def session(tmp_path, script, panel: Panel | None = None) -> list[dict]:
    """Log in, open the live channel of ``panel`` (a new one by default), and run
    ``script(send, receive)``; every frame the panel sent, in order."""

    async def sending(ws, receive) -> None:
        await script(ws.send_str, receive)

    return live_session(panel or new_panel(tmp_path), sending)


def new_panel(tmp_path) -> Panel:
    return Panel(judge_config.load(write(tmp_path, GOOD)))


def test_every_message_of_a_session_fits_the_schema_both_ways(tmp_path):
    """A page's actions (taken from the view's own offers) and every view and refusal the
    panel sends back validate against docs/judge-api.schema.json."""
    sent: list[dict] = []

    async def script(send, receive) -> None:
        view = await receive()

        async def act(action: str, **args) -> dict:
            message = {"action": action, "args": args, "version": view["game"]["version"]}
            sent.append(message)
            await send(json.dumps(message))
            return await receive()

        assert view["api"] == 4 and view["game"]["book"]["id"] == "fiim"
        view = await act("name", seat=2, name="Vera")
        view = await act("deal", roles=ROLES)
        view = await act("start")
        view = await act("next")  # morning: day 1
        for _ in range(3):
            offer = next(o for o in view["game"]["offers"] if o["key"] == "next")
            view = await act(offer["action"], **offer.get("args", {}))
        view = await act("foul", seat=3)
        view = await act("nominate", seat=7)
        view = await act("disqualify", seat=9, reason="5.1.2")
        refused = await act("foul", seat=99)  # not a seat: the schema says so too
        assert refused["type"] == "refused" and refused["field"] == "args.seat"
        with pytest.raises(jsonschema.ValidationError):
            fits(sent.pop(), "ActionMessage")
        view = await act("undo")

    frames = session(tmp_path, script)
    for message in sent:
        fits(message, "ActionMessage")
    for frame in frames:
        fits(frame, "PanelMessage")
    assert {f["type"] for f in frames} == {"view", "refused"}
    last = frames[-1]["game"]
    assert last["stage"] == "day" and last["seats"][8]["in_game"] is True  # the undo


@pytest.mark.parametrize(("text", "field", "says"), [
    ('{"action": "foul", "args": {"seat": "three"}, "version": VERSION}', "args.seat",
     "foul: malformed arguments: args.seat: Expected `int`, got `str`"),
    ('{"action": "foul", "args": {}, "version": VERSION}', "args",
     "Object missing required field `seat`"),
    ('{"action": "name", "args": {"seat": 1, "colour": 2}, "version": VERSION}', "args",
     "unknown field `colour`"),
    ('{"action": 3, "version": VERSION}', "action", "malformed message: action: Expected `str`"),
    ('{"action": "next"}', None, "missing required field `version`"),
    ('{"action": "next", "version": VERSION, "extra": 1}', None, "unknown field `extra`"),
    ('{"action": "timer", "args": {"op": "rewind"}, "version": VERSION}', "args.op",
     "timer: malformed arguments: args.op"),
    ("{not json", None, "malformed message: not JSON"),
    ('{"action": "start", "version": 0}', "version", "another tab acted first"),
])
def test_a_bad_message_is_refused_naming_the_field_and_changes_nothing(tmp_path, text, field,
                                                                        says):
    async def script(send, receive) -> None:
        view = await receive()
        await send(json.dumps({"action": "deal", "args": {"seed": 4},
                               "version": view["game"]["version"]}))
        view = await receive()
        await send(text.replace("VERSION", str(view["game"]["version"])))
        refused = await receive()
        assert refused["type"] == "refused" and refused["field"] == field, refused
        assert says in english_of(refused["words"], "en"), refused
        fits(refused, "PanelMessage")

    frames = session(tmp_path, script)
    assert [f["type"] for f in frames] == ["view", "view", "refused"]  # nothing changed


def test_an_action_with_a_ref_is_answered_done_or_refused_with_it(tmp_path):
    """A client's ``ref`` comes back: ``done`` for the action taken (its view to every page
    too), and in the refusal of one refused: here one made on a view that another action
    overtook (a table event does the same), refused as stale."""
    panel = new_panel(tmp_path)

    async def script(send, receive) -> None:
        view = await receive()
        await send(json.dumps({"action": "deal", "args": {"seed": 4}, "ref": 1,
                               "version": view["game"]["version"]}))
        answers = [await receive(), await receive()]
        assert sorted(a["type"] for a in answers) == ["done", "view"], answers
        [done] = [a for a in answers if a["type"] == "done"]
        assert done == {"type": "done", "ref": 1}
        fits(done, "PanelMessage")
        seen = next(a for a in answers if a["type"] == "view")["game"]["version"]
        panel.apply(Action("start", {}))  # another tab acts first
        await receive()
        await send(json.dumps({"action": "next", "ref": 2, "version": seen}))
        refused = await receive()
        assert refused["type"] == "refused" and refused["ref"] == 2, refused
        assert refused["field"] == "version"
        fits(refused, "PanelMessage")

    session(tmp_path, script, panel)


def test_a_view_the_same_as_the_last_one_sent_is_not_sent_again(tmp_path):
    """A table message that changes nothing the page shows (the same health twice) sends no
    frame: the tab's next frame is the next change (the table's status)."""
    health = json.dumps({"consoles": [{"online": True}], "audio": {"ok": True}}).encode()
    panel = new_panel(tmp_path)

    async def script(send, receive) -> None:
        first = await receive()
        assert first["table"]["consoles"] == []
        panel._on_table("health", health)
        assert (await receive())["table"]["consoles"] == [True]
        panel._on_table("health", health)  # nothing new to show
        panel._on_table("status", json.dumps({"state": "online"}).encode())
        after = await receive()
        assert after["table"]["status"] == "online", after
        fits(after, "PanelMessage")

    assert len(session(tmp_path, script, panel)) == 3
