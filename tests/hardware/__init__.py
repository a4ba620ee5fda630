"""Tests of hardware/: the GPIO board, the expanders, the LED strip's encoding, the
speaker."""
