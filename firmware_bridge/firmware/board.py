"""The wiring of one console (edit for your board). GPIO numbers of the Raspberry Pi Pico."""

SEATS = [1]  # the seats this console serves (the host's config decides what it may speak for)
KEYPAD_ROWS = [2, 3, 4, 5]
KEYPAD_COLS = [6, 7, 8]
KEYMAP = [b"123", b"456", b"789", b"*0#"]
BUTTON = 10  # the vote button, to ground
RGB = [13, 14, 15]  # the public light, through resistors
INDICATOR = 16  # the private indicator LED
