"""The record of a whole game played over a real broker (``examples/fiim_game.py --record``,
the example table simulated) against what the table itself published: every ballot's voters,
every re-vote and question, every mafioso's shot, every check and the best move, who left."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict

import pytest

from judge.record import document as rec
from tests.support.audit import events
from tests.support.mqtt import Subscriber, with_json
from tests.support.paths import REPO
from tests.support.running import Running
from tests.support.table_configs import quick_table


@pytest.mark.timeout(240)
def test_the_record_of_a_game_over_the_api_is_what_the_table_published(tmp_path, broker):
    audit = Subscriber(broker.port, ["mafia/table-1/#"])
    run = Running(quick_table(tmp_path, broker.port))
    path = tmp_path / "record.json"
    try:
        game = subprocess.run(
            [sys.executable, str(REPO / "examples" / "fiim_game.py"), "--broker",
             f"127.0.0.1:{broker.port}", "--seed", "7", "--pace", "0", "--record", str(path)],
            capture_output=True, text=True, timeout=200)
        assert game.returncode == 0, game.stdout + game.stderr
        # the table answers in order: once this reply is in, so is every event before it
        audit.publish("mafia/table-1/cmd/light", '{"id": "end", "lights": [{"seat": 1, '
                                                 '"mode": "auto"}]}')
        audit.wait_for(with_json("mafia/table-1/reply/light", id="end"))
    finally:
        run.close()
        audit.close()
    public, private = events(audit, "event"), events(audit, "private")
    record = rec.decode(path.read_bytes())
    assert record.status == "finished" and record.winner is not None

    # 4.4.6: every confirmed count, in order, with each voter's seat
    ballots = [b for d in record.days for v in d.votes for b in v.ballots]
    confirmed = [e for e in public if e["topic"] == "vote/confirmed"]
    assert [(b.candidate, b.voters, b.leftover, b.count, b.by) for b in ballots] == [
        (e["candidate"], e["voters"], e["leftover"], e["count"], e["by"]) for e in confirmed]
    assert sum(b.rejected for b in ballots) == sum(e["topic"] == "vote/rejected"
                                                   for e in public)
    # 4.4.11-4.4.12: every vote's outcome, splits and re-votes and the question included
    rounds = [v for d in record.days for v in d.votes]
    results = [e for e in public if e["topic"] == "vote/result"]
    assert [(v.outcome, v.tied) for v in rounds] == [(r["outcome"], r.get("tied", []))
                                                     for r in results]
    assert any(v.kind == "question" for v in rounds)

    # 4.5: each mafioso's shot, the checks, the best move, night by night
    night_results = [e for e in private if e["topic"] == "night/result"]
    shots = [e for e in night_results if e["step"] == "mafia_shot"]
    assert [[(s.actor, s.picks, s.miss) for s in n.shots] for n in record.nights] == [
        [(p["actor"], p["picks"], p["miss"]) for p in e["picks"]] for e in shots]
    for step, field in (("don_check", "don_check"), ("sheriff_check", "sheriff_check")):
        table = [e["picks"][0]["picks"][0] for e in night_results
                 if e["step"] == step and e["picks"] and e["picks"][0]["miss"] is None]
        assert [getattr(n, field).target for n in record.nights
                if getattr(n, field) is not None] == table
    [best] = [e for e in night_results if e["step"] == "best_move"]
    assert record.nights[0].best_move.guesses == best["picks"][0]["picks"]

    # 1.4: who left is who the table's standings say is out
    alive: dict[int, bool] = defaultdict(lambda: True)
    for e in public:
        if e["topic"] == "seats":
            alive.update({s["seat"]: s["in_game"] for s in e["seats"]})
    assert [p.seat for p in record.players if p.left is None] == [
        s for s in range(1, 11) if alive[s]]
