"""The table model and its transition function.

``TableState`` holds what the controller knows about the table: its seats and what each light
shows, the phase, and the debounce state of every wired button. ``step`` applies one input and
returns the new state with the effects to perform. It is pure: same state and input, same result.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from controller.core import commands
from controller.core.buttons import Button, SeatButton
from controller.core.debounce import Accepted, Debounce, on_edge, settle
from controller.core.effects import DrivePin, Effect, Emit, PublishState, Reply, SetLight, WakeAt
from controller.core.inputs import ButtonEdge, CommandReceived, Input, Tick
from controller.core.lights import LIGHT_OFF, Light, LightMode


@dataclass(frozen=True)
class TableSetup:
    """Facts fixed for the life of the service, taken from the config.

    ``wired``: the buttons that have a GPIO pin. ``debounce``: the lockout in seconds.
    ``simulated``: whether ``sim/...`` commands may drive the (mock) pins.
    """

    table: str
    seats: int
    wired: frozenset[Button] = frozenset()
    debounce: float = 0.02
    simulated: bool = False


@dataclass(frozen=True)
class TableState:
    setup: TableSetup
    phase: str = "idle"
    lights: tuple[Light, ...] = ()
    buttons: dict[Button, Debounce] = field(default_factory=dict)

    def light(self, seat: int) -> Light:
        return self.lights[seat - 1]


def initial_state(setup: TableSetup, lights: tuple[Light, ...] | None = None) -> TableState:
    """Every wired button released; lights as saved before a restart, else all off."""
    if lights is None or len(lights) != setup.seats:
        lights = (LIGHT_OFF,) * setup.seats
    return TableState(
        setup=setup,
        lights=lights,
        buttons={button: Debounce() for button in setup.wired},
    )


def snapshot(state: TableState) -> dict[str, Any]:
    """The retained ``state`` document: what a newly connected client needs to draw the table."""
    return {
        "table": state.setup.table,
        "phase": state.phase,
        "seats": [
            {"seat": seat, "light": state.light(seat).as_dict()}
            for seat in range(1, state.setup.seats + 1)
        ],
    }


def start(state: TableState) -> list[Effect]:
    """Effects that bring the outside world in line with ``state`` when the service starts."""
    lights: list[Effect] = [
        SetLight(seat, state.light(seat)) for seat in range(1, state.setup.seats + 1)
    ]
    return [*lights, PublishState(snapshot(state))]


def step(state: TableState, inp: Input) -> tuple[TableState, list[Effect]]:
    """Apply one input. The only entry point of the core."""
    match inp:
        case ButtonEdge():
            return _button_edge(state, inp)
        case Tick():
            return _tick(state, inp.t)
        case CommandReceived(verb="light"):
            return _light_command(state, inp)
        case CommandReceived(verb="sim/press" | "sim/release"):
            return _sim_button(state, inp)
        case CommandReceived():
            return state, [_reply(inp, commands.request_id(inp.payload),
                                  f"unknown command {inp.verb!r}")]
    raise TypeError(f"not an input: {inp!r}")


def _button_event(button: Button, accepted: Accepted, source: str) -> Emit:
    action = "press" if accepted.pressed else "release"
    if isinstance(button, SeatButton):
        return Emit(f"seat/{action}", accepted.t, {"seat": button.seat, "source": source})
    return Emit(f"judge/{action}", accepted.t, {"button": button.name, "source": source})


def _button_edge(state: TableState, edge: ButtonEdge) -> tuple[TableState, list[Effect]]:
    hold = state.setup.debounce
    before = state.buttons.get(edge.button, Debounce())
    after, accepted = on_edge(before, edge.pressed, edge.t, hold)
    if after == before:
        return state, []
    effects: list[Effect] = []
    if accepted is not None:
        effects.append(_button_event(edge.button, accepted, edge.source))
    elif after.pending:
        effects.append(WakeAt(after.settle_at(hold)))
    return replace(state, buttons={**state.buttons, edge.button: after}), effects


def _tick(state: TableState, now: float) -> tuple[TableState, list[Effect]]:
    hold = state.setup.debounce
    buttons = dict(state.buttons)
    effects: list[Effect] = []
    for button, before in sorted(state.buttons.items(), key=lambda item: item[1].raw_t):
        after, accepted = settle(before, now, hold)
        if accepted is not None:
            buttons[button] = after
            effects.append(_button_event(button, accepted, "gpio"))
    if not effects:
        return state, []
    return replace(state, buttons=buttons), effects


def _reply(cmd: CommandReceived, id: str | None, error: str | None) -> Reply:
    return Reply(cmd.verb, id, error is None, error, cmd.response_topic, cmd.correlation)


def _light_command(state: TableState, cmd: CommandReceived) -> tuple[TableState, list[Effect]]:
    parsed = commands.parse_light(cmd.payload, state.setup.seats)
    if parsed.value is None:
        return state, [_reply(cmd, parsed.id, parsed.error)]
    lights = list(state.lights)
    effects: list[Effect] = []
    for spec in parsed.value.lights:
        color = spec.color.lower() if spec.color else None
        light = Light(LightMode(spec.mode), color)
        if lights[spec.seat - 1] != light:
            lights[spec.seat - 1] = light
            effects.append(SetLight(spec.seat, light))
    new = replace(state, lights=tuple(lights))
    if effects:
        effects.append(PublishState(snapshot(new)))
    effects.append(_reply(cmd, parsed.id, None))
    return new, effects


def _sim_button(state: TableState, cmd: CommandReceived) -> tuple[TableState, list[Effect]]:
    if not state.setup.simulated:
        return state, [_reply(cmd, commands.request_id(cmd.payload),
                              "this table is not simulated (start it with --sim)")]
    parsed = commands.parse_sim_button(cmd.payload, state.setup.wired)
    if parsed.value is None:
        return state, [_reply(cmd, parsed.id, parsed.error)]
    pressed = cmd.verb == "sim/press"
    return state, [DrivePin(parsed.value, pressed), _reply(cmd, parsed.id, None)]

