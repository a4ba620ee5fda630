"""The pure functional core: ``step(state, input) -> (state, effects)``.

Nothing in this package reads a clock, touches a pin, opens a socket or starts a thread. Inputs
carry their own timestamps (host monotonic seconds, taken at the hardware edge), effects are plain
data that the shell performs. That makes every rule here testable with a fake clock and hypothesis.
"""
