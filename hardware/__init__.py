"""Pi-side devices behind small interfaces, each with a real and a simulated backend.

The backends follow gpiozero's own idea: devices never touch hardware, they talk to pins from a
pin factory, and the factory is chosen by config (``lgpio`` on a Pi, ``mock`` anywhere).
"""
