"""The serial link to seat consoles (protocol codec, host link, console firmware, emulator).

The wire protocol is told in docs/protocol.md, how the parts fit in docs/architecture.md. A
table needs none of it: GPIO and expander seats work without consoles.
"""
