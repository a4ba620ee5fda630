"""The single event loop that owns the table state.

Adapters run on their own threads (gpiozero's edge callbacks, the console links, paho's network
thread). They never touch the state: they ``submit`` inputs (or ``call_soon`` shell work), which
is thread-safe and never blocks. The loop thread takes whatever has arrived, adds the timer ticks
that have come due, orders the batch by input time and applies it through the pure core, then
performs the effects.

Ordering by input time (not arrival) means a press that was queued behind a slow command is still
seen at the instant the hand made it; rules decide by those timestamps, not by when the loop got
round to them.

The table comes before its remote control. What arrives over MQTT waits in two bounded lanes
of its own: the simulator's hands (``sim/``: presses, ahead, so a simulated table's players are
not held up by a flood of light commands) and the commands. One that does not fit is refused at
once (``submit_command`` returns False and the caller answers it ``busy``), so a flood can
neither grow memory nor bury a press. Each batch takes every table input that has arrived
(edges, keys, console news, shell calls, a stop) but at most ``COMMANDS_PER_BATCH`` of the
lanes' items, and no more than ``COMMAND_RATE`` a second (a token bucket whose refill the loop's
own wait includes; the ``sim/`` lane within ``SIM_RATE``, each of its drives an event): a press
waits for a handful of commands, never for the queue, and a flood costs the loop a bounded share
of the CPU whatever its rate. Within a batch, effects that only
show the newest value are coalesced and performed at the batch's end: a seat's light set twice
is set once (to the last), and the retained ``state`` is written and published once (the last
snapshot, in the place of the first); the replies come after them, so none goes out before what
its command shows. A stop refuses new commands and returns once the ones already queued are
applied: a bounded wait.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from typing import Protocol

from contract.inputs import CommandReceived, Input, Tick
from controller.clock import Clock
from controller.core.effects import PublishState, Reply, SetLight, WakeAt
from controller.core.performed import Performed, StepEffect
from controller.core.state import TableState
from controller.core.table import step
from controller.rate import TokenBucket

log = logging.getLogger(__name__)

_STOP = object()
_WAKE = object()  # commands arrived in an empty queue
#: Commands waiting for the loop beyond this many are refused (answered ``busy``).
COMMAND_QUEUE = 256
#: ``sim/`` commands waiting beyond this many are refused: a simulated table's hands, taken
#: before the commands (a hand presses a few times a second; a flood of them finds this full).
SIM_QUEUE = 64
#: Commands (``sim/`` ones first) applied in one batch at most; a table input waits for no more.
COMMANDS_PER_BATCH = 4
#: Commands applied a second at most, whatever the flood: what the loop may spend on its remote
#: control (a rules core sends a few a second; a judge's burst, tens).
COMMAND_RATE = 1000.0
#: ``sim/`` commands a second at most, within that: each drive a hand makes is an event, and a
#: table's ten players press a few times a second (a vote's fists, 20 drives, in a tenth).
SIM_RATE = 200.0
#: Effects a batch performs at its end: lights and ``state`` coalesced, then the replies, so a
#: reply never goes out before what its command shows. Every other effect is performed as its
#: input is applied.
AT_BATCH_END = (SetLight, PublishState, Reply)


class Repeats(Protocol):
    """The shell's record of the commands accepted (``controller.shell.repeats``)."""

    def repeat(self, cmd: CommandReceived) -> Reply | None:
        """The reply for a copy of a command accepted already (it is not applied), or None."""

    def taken(self, cmd: CommandReceived, reply: Reply) -> None:
        """``cmd`` was applied and answered ``reply``."""


class _Lane:
    """A bounded queue of commands (or the shell work one asked for). Once full, it refuses
    until it has drained to half, so a sender that keeps it full gets steady ``busy`` answers,
    not a flicker of accepted and refused ones."""

    def __init__(self, limit: int):
        self.limit = limit
        self.items: deque[object] = deque()
        self.refusing = False

    def offer(self, item: object) -> bool:
        waiting = len(self.items)
        if waiting >= self.limit:
            self.refusing = True
        elif self.refusing and waiting <= self.limit // 2:
            self.refusing = False
        if self.refusing:
            return False
        self.items.append(item)
        return True


class EventLoop:
    """Applies inputs to the core in time order and hands effects to ``perform``.

    ``perform`` is called on the loop thread for every effect except ``WakeAt``, which the loop
    keeps itself. An exception while applying one input is logged with the input and the state is
    left as it was before it: one bad input must not stop the table.

    ``applying(inp)``, when given, is a context manager entered around each input and the
    performing of its effects: the shell uses it to journal a console input's events together
    with the console's position (one transaction), then acknowledge the console.
    """

    def __init__(self, state: TableState, *, clock: Clock, perform: Callable[[Performed], None],
                 command_queue: int = COMMAND_QUEUE, command_rate: float = COMMAND_RATE,
                 take_commands: Callable[[], bool] = lambda: True,
                 repeats: Repeats | None = None,
                 applying: Callable[[Input], AbstractContextManager[object]] | None = None):
        """``take_commands``: asked (on the loop thread) before taking commands from their
        queue; False leaves them waiting (the shell's backpressure: too many replies not yet
        acknowledged by the broker). ``repeats``: the shell's record of the commands accepted,
        so that each runs once by its id. ``applying``: a context around each input's
        application, its effects (but the coalesced ones, see ``AT_BATCH_END``) performed inside
        it."""
        self._take_commands = take_commands
        self._repeats = repeats
        self._state = state
        self._clock = clock
        self._perform = perform
        self._applying = applying or (lambda inp: nullcontext())
        # table inputs, shell calls, the stop, and a wake-up when commands arrive: a
        # SimpleQueue, whose put may be called from a signal handler (a stop on SIGTERM)
        self._inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._commands_lock = threading.Lock()
        # the remote lanes, taken in this order: sim/ (a simulated table's hands), commands
        self._sims = _Lane(SIM_QUEUE)
        self._commands = _Lane(command_queue)
        self._lanes = (self._sims, self._commands)
        self._budget = TokenBucket(command_rate, COMMANDS_PER_BATCH, clock.monotonic())
        self._sim_budget = TokenBucket(SIM_RATE, COMMANDS_PER_BATCH, clock.monotonic())
        self._stopping = False
        self._batch_effects: list[StepEffect] | None = None  # performed at the end of the batch
        self._wakes: list[float] = []
        self._settles: list[float] = []  # the debounce wakes among them
        self._calls: list[tuple[float, int, Callable[[], object]]] = []  # call_at, by time
        self._order = itertools.count()  # ties in _calls run in the order they were asked

    @property
    def state(self) -> TableState:
        """The current table state (read it from the loop thread, or after ``run`` returned)."""
        return self._state

    def submit(self, inp: Input) -> bool:
        """Hand an input to the loop. Thread-safe, never blocks.

        A ``CommandReceived`` joins the bounded command queue: False when it is full (or the
        loop is stopping), and the command was not taken. Table inputs are always taken."""
        if isinstance(inp, CommandReceived):
            return self.submit_command(inp)
        self._inbox.put(inp)
        return True

    def submit_command(self, command: CommandReceived | Callable[[], object], *,
                       sim: bool = False) -> bool:
        """Queue a command (or shell work a command asked for, such as a replay) behind the
        table's inputs, in the ``sim`` lane (the simulator's hands) or the commands'.
        Thread-safe, never blocks; False when that lane is full (see ``_Lane``) or stopping."""
        lane = self._sims if sim else self._commands
        with self._commands_lock:
            idle = not any(other.items for other in self._lanes)
            if self._stopping or not lane.offer(command):
                return False
        if idle:  # the loop may be waiting on the inbox alone: wake it
            self._inbox.put(_WAKE)
        return True

    def unrun_commands(self) -> list[object]:
        """After the loop stopped: take the commands it did not get to (their replies still
        await the broker), so the shell can answer them. Thread-safe."""
        with self._commands_lock:
            left = [item for lane in self._lanes for item in lane.items]
            for lane in self._lanes:
                lane.items.clear()
        return left

    @property
    def stopping(self) -> bool:
        """``stop`` was asked: commands are refused."""
        return self._stopping

    @property
    def commands_waiting(self) -> int:
        """Commands queued (both lanes), not yet applied."""
        return sum(len(lane.items) for lane in self._lanes)

    @property
    def refusing(self) -> bool:
        """A lane is full and refuses until it has drained to half."""
        return any(lane.refusing for lane in self._lanes)

    def call_soon(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the loop thread before the next inputs. Thread-safe, never blocks.

        For shell work that must touch what the loop thread owns (the store), such as the
        broker's acknowledgements arriving on paho's thread.
        """
        self._inbox.put(fn)

    def call_at(self, t: float, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the loop thread once the clock reaches ``t`` (host monotonic). Loop
        thread only (from ``perform`` or a ``call_soon``): the shell's own timers, such as a
        sound to play at its time, woken by the same wait as the core's ticks."""
        heapq.heappush(self._calls, (t, next(self._order), fn))

    def every(self, seconds: float, fn: Callable[[], object]) -> None:
        """Call ``fn`` on the loop thread every ``seconds``, the first time as the loop starts
        (a ``call_at`` that books its next turn). Set it before ``run``. A loop stuck on one
        input calls nobody: that is what systemd's watchdog, fed from here, needs to see."""

        def turn() -> None:
            self.call_at(self._clock.monotonic() + seconds, turn)
            fn()

        self.call_at(self._clock.monotonic(), turn)

    def stop(self) -> None:
        """Ask ``run`` to return after the inputs and commands already submitted; commands
        submitted from now on are refused. Thread-safe, and safe in a signal handler (SIGTERM):
        it takes no lock."""
        self._stopping = True
        self._inbox.put(_STOP)

    def run(self, start: Iterable[StepEffect] = ()) -> None:
        """Perform ``start`` effects, then loop until ``stop``."""
        self._perform_all(start)
        while not self._run_batch(self._next_batch()):
            pass
        while self.commands_waiting and self._take_commands():  # those queued before the stop
            self._run_batch(self._next_batch())

    def drain(self, done: Callable[[], bool], timeout: float) -> None:
        """After ``run`` returned: keep working until ``done()`` or ``timeout`` seconds pass.

        For a clean stop that waits for the broker's last acknowledgements.
        """
        deadline = self._clock.monotonic() + timeout
        while not done():
            left = deadline - self._clock.monotonic()
            if left <= 0:
                return
            self._run_batch(self._next_batch(left))

    def _run_batch(self, batch: list[object]) -> bool:
        """Run one batch: shell calls, then inputs and due ticks in time order, then the
        batch's effects (coalesced). True on stop."""
        self._batch_effects = []
        try:
            for fn in [item for item in batch if callable(item)]:
                self._run_call(fn)
            self._run_due_calls()
            inputs = [item for item in batch if item is not _STOP and not callable(item)]
            inputs.extend(self._due_ticks(self._clock.monotonic()))
            inputs.sort(key=lambda inp: inp.t)  # type: ignore[attr-defined]
            for inp in inputs:
                self.apply(inp)  # type: ignore[arg-type]
        finally:
            effects, self._batch_effects = self._batch_effects, None
            self._perform_all(coalesced(effects))
        if _STOP not in batch:
            return False
        # settle a release still inside its debounce lockout, so no button is left pressed;
        # a timer's or a vote's later moments are not run early
        while self._settles:
            last = max(self._settles)
            self._settles.clear()
            for tick in self._due_ticks(last):
                self.apply(tick)
        return True

    def apply(self, inp: Input) -> None:
        """Apply one input through the core and perform its effects; a copy of a command
        accepted already is answered as the first one was (``Repeats``), not applied again."""
        try:
            if isinstance(inp, CommandReceived) and self._repeats is not None:
                again = self._repeats.repeat(inp)
                if again is not None:
                    self._perform_all([again])
                    return
            with self._applying(inp):
                try:
                    self._state, effects = step(self._state, inp)
                except Exception:
                    log.exception("input %r was not applied (internal error); table state "
                                  "unchanged", inp)
                    return
                if isinstance(inp, CommandReceived) and self._repeats is not None:
                    for effect in effects:
                        if isinstance(effect, Reply):  # the core answers each command once
                            self._repeats.taken(inp, effect)
                self._perform_all(effects)
        except Exception:
            log.exception("input %r: its effects were not all kept", inp)

    def _perform_all(self, effects: Iterable[StepEffect]) -> None:
        for effect in effects:
            if isinstance(effect, WakeAt):
                heapq.heappush(self._wakes, effect.t)
                if effect.settle:
                    self._settles.append(effect.t)
                continue
            if self._batch_effects is not None and isinstance(effect, AT_BATCH_END):
                self._batch_effects.append(effect)
                continue
            try:
                self._perform(effect)
            except Exception:
                log.exception("effect %r failed", effect)

    def _run_due_calls(self) -> None:
        now = self._clock.monotonic()
        while self._calls and self._calls[0][0] <= now:
            self._run_call(heapq.heappop(self._calls)[2])

    def _run_call(self, fn: Callable[[], object]) -> None:
        try:
            fn()
        except Exception:
            log.exception("call %r failed", fn)

    def _next_batch(self, limit: float | None = None) -> list[object]:
        """Wait (until the next wake, the budget's refill, or ``limit`` seconds) for something
        to do; then take every table input and the commands the budget allows, ``sim/`` first.
        """
        now = self._clock.monotonic()
        due = [*self._wakes[:1], *(call[0] for call in self._calls[:1])]
        take = sims = 0
        if self.commands_waiting and self._take_commands():
            take, refill = self._ready(now)
            sims = min(take, self._sim_budget.ready(len(self._sims.items), now)[0])
            if not take:
                due.append(now + refill)
        timeout = limit
        if due:
            timeout = min(timeout if timeout is not None else float("inf"),
                          max(0.0, min(due) - now))
        try:
            # commands to take now: look at the inbox without waiting
            batch = [self._inbox.get_nowait() if take else self._inbox.get(timeout=timeout)]
        except queue.Empty:
            batch = []
        while True:
            try:
                batch.append(self._inbox.get_nowait())
            except queue.Empty:
                break
        if take:
            with self._commands_lock:
                taken = [self._sims.items.popleft() for _ in range(sims)]
                while self._commands.items and len(taken) < take:
                    taken.append(self._commands.items.popleft())
            self._sim_budget.spend(sims)
            self._budget.spend(len(taken))
            batch += taken
        return [item for item in batch if item is not _WAKE]

    def _ready(self, now: float) -> tuple[int, float]:
        """How many of the lanes' items to take now (the ``sim/`` ones within their own rate),
        and if none, the seconds until some may be."""
        sims, wait = 0, float("inf")
        if self._sims.items:
            sims, wait = self._sim_budget.ready(len(self._sims.items), now)
        if not sims and not self._commands.items:
            return 0, wait
        return self._budget.ready(sims + len(self._commands.items), now)

    def _due_ticks(self, now: float) -> list[Tick]:
        """Ticks for the wakes due by ``now``."""
        if self._settles:
            self._settles = [t for t in self._settles if t > now]
        ticks: list[Tick] = []
        while self._wakes and self._wakes[0] <= now:
            t = heapq.heappop(self._wakes)
            if not ticks or ticks[-1].t != t:
                ticks.append(Tick(t))
        return ticks


def coalesced(effects: list[StepEffect]) -> list[StepEffect]:
    """``effects`` with each seat's light set once, to its last value, and one ``state``
    snapshot, the last; each kept in the place of its first (so what a consumer sees next is
    never older than the state before it)."""
    last_light: dict[int, SetLight] = {}
    last_state: PublishState | None = None
    for effect in effects:
        if isinstance(effect, SetLight):
            last_light[effect.seat] = effect
        elif isinstance(effect, PublishState):
            last_state = effect
    out: list[StepEffect] = []
    for effect in effects:
        if isinstance(effect, SetLight):
            if effect.seat in last_light:
                out.append(last_light.pop(effect.seat))
        elif isinstance(effect, PublishState):
            if last_state is not None:
                out.append(last_state)
                last_state = None
        else:
            out.append(effect)
    return out
