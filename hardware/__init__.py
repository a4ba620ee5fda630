"""Pi-side devices behind small interfaces, each with a real and a simulated backend.

The backends follow gpiozero's own idea: devices never touch hardware, they talk to pins from a
pin factory, and the factory is chosen by config (``lgpio`` on a Pi, ``mock`` anywhere).
"""


def is_worth_telling(failures: int) -> bool:
    """Failures 1, 2, 4, 8...: a device that keeps failing is reported (log, ``health``), not
    a flood."""
    return failures & (failures - 1) == 0
