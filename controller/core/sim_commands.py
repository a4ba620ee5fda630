"""``sim/press``, ``sim/release``, ``sim/key``: a simulated table's hands (pure).

On a table started with ``--sim`` nobody sits at the buttons: these commands press and release
a wired button's mock pin, or type on a seat's emulated console keypad. They only ask the shell
to act (``DrivePin``, ``TypeKeys``); the press then comes back as any press does, through the
pin's edge and the debounce, so a simulated game exercises the real input path. The command
registry refuses them on a table that is not simulated.
"""

from __future__ import annotations

from contract.buttons import JUDGE_BUTTON_NAMES, Button, JudgeButton, SeatButton
from contract.commands import SimButtonCommand, SimKeysCommand
from controller.core.effects import DrivePin, TypeKeys
from controller.core.replies import Outcome
from controller.core.state import TableState


def press(state: TableState, cmd: SimButtonCommand, t: float) -> Outcome:
    return _drive(state, cmd, pressed=True)


def release(state: TableState, cmd: SimButtonCommand, t: float) -> Outcome:
    return _drive(state, cmd, pressed=False)


def type_keys(state: TableState, cmd: SimKeysCommand, t: float) -> Outcome:
    if cmd.seat not in state.setup.keypads:
        return state, [], f"seat {cmd.seat} has no console keypad on this table"
    return state, [TypeKeys(cmd.seat, cmd.keys)], None


def _drive(state: TableState, cmd: SimButtonCommand, pressed: bool) -> Outcome:
    """Exactly one of ``seat`` or ``judge``, naming a button this table has wired."""
    if (cmd.seat is None) == (cmd.judge is None):
        return state, [], 'give exactly one of "seat" or "judge"'
    if cmd.judge is not None:
        if cmd.judge not in JUDGE_BUTTON_NAMES:
            return state, [], (f"judge: unknown button {cmd.judge!r} "
                               f"(one of {', '.join(JUDGE_BUTTON_NAMES)})")
        button: Button = JudgeButton(cmd.judge)
    else:
        assert cmd.seat is not None  # exactly one of them, checked above
        button = SeatButton(cmd.seat)
    if button not in state.setup.wired:
        what = f"seat {cmd.seat}" if cmd.judge is None else f"judge button {cmd.judge!r}"
        return state, [], f"{what} has no button on this table"
    return state, [DrivePin(button, pressed)], None
