"""The seat console's firmware logic, apart from its hardware.

Runs on the console (MicroPython, with ``main.py`` wiring the RP2040's pins and USB serial) and on
the host inside the console emulator (``firmware_bridge.emulator``), speaking the real protocol.
Everything the logic needs from the board comes through a small *pin layer* object:

    hw.ticks_ms()                 -> int, a free-running millisecond clock
    hw.keys_down(seat)            -> bytes, the keys held on that seat's keypad (e.g. b"7")
    hw.button_down(seat)          -> bool, the vote button
    hw.show_light(seat, mode, rgb)   public light (mode index in protocol.LIGHT_MODES)
    hw.show_indicator(seat, pattern) the private indicator only the seated player sees
    hw.write(data)                bytes to the host

The main loop calls ``poll()`` every few milliseconds and ``receive(data)`` with whatever bytes
came from the host. At boot, and every second until the host answers with WELCOME, it says
HELLO; the host's acknowledgements count only after that WELCOME (a frame sent before it may
acknowledge the previous boot's events). Inputs are debounced here (stable for
``DEBOUNCE_MS``) and stamped with the time of the first edge of the stable change, so the host
learns when the hand moved. Events wait in a ring buffer until the host acknowledges them;
unacknowledged ones are sent again.
"""

try:
    from firmware_bridge import protocol as p
except ImportError:  # on the console, protocol.py sits next to this file
    import protocol as p

DEBOUNCE_MS = 10
RESEND_MS = 200
HOST_SILENCE_MS = 5000
RING = 32
FIRMWARE = (1, 3, 0)  # 1.3: blinks and indicator patterns timed on the console


def elapsed(now, then):
    """Milliseconds from ``then`` to ``now`` on the 32-bit clock (correct across its wrap)."""
    return (now - then) & 0xFFFFFFFF


class _Input:
    """Settle-based debounce of one key or button: a change counts once stable for DEBOUNCE_MS,
    stamped with the time it began."""

    __slots__ = ("raw", "since", "stable")

    def __init__(self):
        self.stable = False
        self.raw = False
        self.since = 0

    def update(self, raw, now):
        """Returns the stamped time of a settled change, or None."""
        if raw != self.raw:
            self.raw = raw
            self.since = now
            return None
        if raw != self.stable and elapsed(now, self.since) >= DEBOUNCE_MS:
            self.stable = raw
            return self.since
        return None


class Console:
    def __init__(self, hw, unique_id, boot_id, seats, capabilities=None):
        self.hw = hw
        self.unique_id = unique_id
        self.boot_id = boot_id
        self.seats = list(seats)
        self.capabilities = (p.CAP_KEYPAD | p.CAP_BUTTON | p.CAP_RGB | p.CAP_INDICATOR
                             if capabilities is None else capabilities)
        self.decoder = p.Decoder()
        self.buttons = {seat: _Input() for seat in self.seats}
        self.keys = {seat: {k: _Input() for k in p.KEYS} for seat in self.seats}
        self.pending = []  # [(seq, payload)] not yet acknowledged, oldest first
        self.next_seq = 1
        self.last_sent = None
        self.host_ack = 0
        self.last_heard = None
        self.lights_on = False
        self.overflow = 0
        self.protocol = (p.PROTO_MAJOR, p.PROTO_MINOR)
        self.welcomed = False  # the host's acks refer to this boot only after its WELCOME
        self.last_hello = None

    # ---------------------------------------------------------------- inputs

    def settling(self):
        """True while an input changed and has not settled: poll often now (else the main loop
        may sleep longer, as the host emulator does)."""
        for seat in self.seats:
            if self.buttons[seat].raw != self.buttons[seat].stable:
                return True
            for state in self.keys[seat].values():
                if state.raw != state.stable:
                    return True
        return False

    def poll(self):
        now = self.hw.ticks_ms()
        if not self.welcomed and (self.last_hello is None
                                  or elapsed(now, self.last_hello) >= 1000):
            self._hello(now)  # at boot, and every second until the host welcomes us
        for seat in self.seats:
            down = self.hw.keys_down(seat)
            for key, state in self.keys[seat].items():
                at = state.update(key in down, now)
                if at is not None and state.stable:
                    self._event(seat, p.EV_KEY, key, at)
            at = self.buttons[seat].update(self.hw.button_down(seat), now)
            if at is not None:
                kind = p.EV_BUTTON_DOWN if self.buttons[seat].stable else p.EV_BUTTON_UP
                self._event(seat, kind, 0, at)
        if (self.pending and self.last_sent is not None
                and elapsed(now, self.last_sent) >= RESEND_MS):
            self._resend(now)
        if (self.lights_on and self.last_heard is not None
                and elapsed(now, self.last_heard) >= HOST_SILENCE_MS):
            self._blank()

    def _event(self, seat, kind, value, at):
        if len(self.pending) >= RING:
            self.overflow += 1  # the host has been away too long; the newest are lost
            return
        seq = self.next_seq
        self.next_seq = p.seq_after(seq)
        payload = p.pack_event(seat, kind, value, at)
        self.pending.append((seq, payload))
        self._send(p.T_EVENT, seq, payload)
        if len(self.pending) == 1:  # the resend clock runs from the oldest unacknowledged send
            self.last_sent = self.hw.ticks_ms()

    def _resend(self, now):
        for seq, payload in self.pending:
            self._send(p.T_EVENT, seq, payload)
        self.last_sent = now

    def _hello(self, now):
        self.welcomed = False
        self.last_hello = now
        first = self.pending[0][0] if self.pending else self.next_seq
        self._send(p.T_HELLO, 0, p.pack_hello(FIRMWARE, self.capabilities, self.unique_id,
                                              self.boot_id, self.seats, *self.protocol,
                                              first_seq=first))

    def _send(self, type, seq, payload=b""):
        self.hw.write(p.encode_frame(type, seq, self.host_ack, payload))

    def _blank(self):
        for seat in self.seats:
            self.hw.show_light(seat, 0, (0, 0, 0))
            self.hw.show_indicator(seat, 0)
        self.lights_on = False

    # ---------------------------------------------------------------- host

    def receive(self, data):
        for frame in self.decoder.feed(data):
            self.last_heard = self.hw.ticks_ms()
            if self.welcomed:
                self._acknowledged(frame.ack)
            try:
                self._handle(frame)
            except ValueError:  # a payload this firmware cannot read (a newer minor): skip it
                self.decoder.counts["bad_payload"] = self.decoder.counts.get("bad_payload", 0) + 1

    def _acknowledged(self, ack):
        if ack == 0:
            return
        for i, (seq, _) in enumerate(self.pending):
            if seq == ack:
                del self.pending[:i + 1]
                self.last_sent = self.hw.ticks_ms()  # the new oldest gets its full wait
                return

    def _handle(self, frame):
        if frame.type == p.T_HELLO_REQUEST:
            self._hello(self.hw.ticks_ms())
        elif frame.type == p.T_WELCOME:
            if p.unpack_welcome(frame.payload) == self.boot_id:
                self.welcomed = True
                if self.pending:
                    self._resend(self.hw.ticks_ms())
        elif frame.type == p.T_PING:
            self._send(p.T_PONG, 0, p.pack_pong(p.unpack_ping(frame.payload),
                                                self.hw.ticks_ms()))
        elif frame.type == p.T_LIGHT:
            seat, mode, rgb = p.unpack_light(frame.payload)
            if seat in self.seats:
                self.hw.show_light(seat, mode, rgb)
                self.lights_on = True
        elif frame.type == p.T_INDICATOR:
            seat, pattern = p.unpack_indicator(frame.payload)
            if seat in self.seats:
                self.hw.show_indicator(seat, pattern)
                self.lights_on = True
