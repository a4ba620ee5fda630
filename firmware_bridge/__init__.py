"""The serial link to seat consoles (protocol codec, host link, console firmware, emulator).

Built by the consoles issue; see DESIGN.md section 6. Empty until then: GPIO seats work without it.
"""
