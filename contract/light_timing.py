"""How the table's lights look over time: one definition for the consoles and the host.

Part of what a light shows, so it lives in the table's contract: the console firmware reads it
on the Pico (copied beside ``console.py``, see firmware_bridge/firmware/README.md), and the host
reads the same file for its own lights: the GPIO LEDs (``hardware/gpio.py``), the LED strip
(``hardware/strip.py``), the emulated consoles and the virtual table's window
(``controller/sim_window.py``). So a seat blinks alike whichever of them lights it. Plain
MicroPython: no imports (MicroPython reads the annotations and ignores them).

Light modes are numbered as ``contract.lights.LightMode.number`` and the console protocol's
LIGHT message number them: 0 off, 1 on, 2 dim, 3 blink, 4 fast blink. Indicator patterns: 0
off, 1 on (taken), 2 blink, 3 double blink (not taken).
"""

DIM = 0.15  # the share of full brightness that "dim" shows
BLINK_MS = 500  # "blink": this long on, then this long off
FAST_BLINK_MS = 150  # "fast_blink" (a speech's last seconds)
INDICATOR_PERIOD_MS = 1000  # an indicator pattern repeats every second
INDICATOR_BLINK_MS = 500  # pattern 2: lit for the first half of the second
INDICATOR_FLASH_MS = 120  # pattern 3: two flashes this long, this far apart


def light_level(mode: int, t_ms: float) -> float:
    """How bright a public light in mode ``mode`` is (0..1), ``t_ms`` after it was set: a
    blink starts lit."""
    if mode == 1:
        return 1.0
    if mode == 2:
        return DIM
    if mode == 3:
        return 1.0 if t_ms % (2 * BLINK_MS) < BLINK_MS else 0.0
    if mode == 4:
        return 1.0 if t_ms % (2 * FAST_BLINK_MS) < FAST_BLINK_MS else 0.0
    return 0.0


def indicator_on(pattern: int, t_ms: float) -> bool:
    """Whether the private indicator is lit ``t_ms`` after ``pattern`` was set."""
    phase = t_ms % INDICATOR_PERIOD_MS
    if pattern == 1:
        return True
    if pattern == 2:
        return phase < INDICATOR_BLINK_MS
    if pattern == 3:
        return phase < INDICATOR_FLASH_MS or (
            2 * INDICATOR_FLASH_MS <= phase < 3 * INDICATOR_FLASH_MS)
    return False
