"""The table's voice heard: a speech timer's warning on a simulated table, through a real
mosquitto, is the warning tone and then "ten seconds" in the language the table speaks, found
by the words' own samples in what SDL's disk driver wrote (tests/support/disk_audio.py): the
config's ``[music] voice`` first, then the one ``cmd/audio`` gives; a voice the table has not
is refused and the table speaks on as it did."""

from __future__ import annotations

from controller.core.timer import SAY_AFTER, WARN
from hardware.audio import SOUNDS
from tests.support.disk_audio import RATE, onset, wait_for_bytes
from tests.support.mqtt import Subscriber, with_json
from tests.support.running import Running, online
from tests.support.table_configs import heard_table

TOLERANCE = 0.030  # s, onset to onset: within one group the mixer places each part exactly
WORDS = {voice: SOUNDS / "words" / voice / "ten_seconds.wav" for voice in ("ru", "en")}


def warning_heard(core: Subscriber, out, timer_id: str) -> tuple[bytes, int]:
    """Start seat 1's speech 0.5 s above the warning; once its warning and its words have been
    played, what the driver wrote and where the speech started."""
    mark = out.stat().st_size
    core.publish("mafia/t1/cmd/timer/start",
                 f'{{"id": "{timer_id}", "seat": 1, "seconds": {WARN + 0.5}, "replace": true}}')
    core.wait_for(with_json("mafia/t1/event/timer", timer=timer_id, state="warning"))
    wait_for_bytes(out, mark + int((0.5 + SAY_AFTER + 1.6) * RATE) * 2)  # the words are ~1.3 s
    return out.read_bytes(), mark


def test_the_warning_says_ten_seconds_in_the_voice_chosen(tmp_path, broker, subscriber):
    cfg, out = heard_table(tmp_path, broker.port)
    run = Running(cfg)
    core = subscriber
    try:
        online(core)
        core.wait_for(with_json("mafia/t1/state", voice="ru"))  # [music] voice's default
        written, mark = warning_heard(core, out, "s1")
        tone, words = onset(written, SOUNDS / "warning.wav", mark), onset(
            written, WORDS["ru"], mark)
        assert tone is not None and words is not None, (tone, words)
        assert abs(words - tone - SAY_AFTER) <= TOLERANCE, words - tone
        assert onset(written, WORDS["en"], mark) is None

        core.publish("mafia/t1/cmd/audio", '{"id": "v1", "voice": "en"}')
        core.wait_for(with_json("mafia/t1/reply/audio", id="v1", ok=True))
        core.wait_for(with_json("mafia/t1/state", voice="en"))
        written, mark = warning_heard(core, out, "s2")
        assert onset(written, WORDS["en"], mark) is not None
        assert onset(written, WORDS["ru"], mark) is None

        core.publish("mafia/t1/cmd/audio", '{"id": "v2", "voice": "uk"}')
        [refused] = core.wait_for(with_json("mafia/t1/reply/audio", id="v2", ok=False))
        assert refused.json()["error"] == "voice: invalid enum value 'uk'"
        written, mark = warning_heard(core, out, "s3")
        assert onset(written, WORDS["en"], mark) is not None  # still English
    finally:
        run.close()
