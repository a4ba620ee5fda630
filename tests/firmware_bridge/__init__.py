"""Tests of firmware_bridge/: the console wire's codec, the firmware's logic (on CPython
and on real MicroPython), the host session, consoles on ptys."""
