"""``cmd/audio``: the judge's hand on the sound (pure).

Three jobs in one command: the music (its volume, skip to the next track), a sound now (a cue
tone, a number spoken in the table's voice; ``mafia-table selftest`` uses both to check the
speaker), and the table's voice itself (``voice``: the language every spoken cue is said in
from now on, which the judge's panel sends from its ``[panel] language``). Sounds are
scheduled ``AUDIO_LEAD`` ahead as ``Cue`` effects rather than played at once, so a busy table
still spaces the tone and the number ``SAY_AFTER_CUE`` apart (``controller.cue_schedule``
plays them).
"""

from __future__ import annotations

from dataclasses import replace

from contract.commands import AudioCommand
from controller.core.effects import AudioControl, Cue, Effect, spoken
from controller.core.replies import Outcome
from controller.core.state import TableState

SAY_AFTER_CUE = 1.0  # s: cmd/audio with both a cue and a number speaks after the cue
#: s: cmd/audio's sounds start this long after the command, scheduled ahead so that the tone
#: and the number are SAY_AFTER_CUE apart however busy the table is (controller.cue_schedule)
AUDIO_LEAD = 0.3


def play(state: TableState, cmd: AudioCommand, t: float) -> Outcome:
    if cmd.voice is not None:  # first: a number in the same command is said in it
        state = replace(state, voice=cmd.voice)
    at, group = t + AUDIO_LEAD, f"audio/{cmd.id}"
    sounds: list[Effect] = [] if cmd.cue is None else [Cue(cmd.cue, at, group)]
    if cmd.say is not None:  # after the cue, if there is one (cues last under a second)
        sounds.append(Cue(spoken(state.speaks, f"number/{cmd.say}"),
                          at + (SAY_AFTER_CUE if sounds else 0.0), group))
    if cmd.volume is not None or cmd.next_track:
        sounds.insert(0, AudioControl(cmd.volume, cmd.next_track))
    if not sounds and cmd.voice is None:
        return state, [], 'give "volume", "next_track", "cue", "say" or "voice"'
    return state, sounds, None
