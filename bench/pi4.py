"""How much slower a Raspberry Pi 4's core runs our kind of code than this machine's: one
published figure of a Pi 4 on a well-known Python benchmark, and the same benchmark run here, in
the same run as the figures it scales (the machine is shared: its speed moves with the load).

The benchmark is the Computer Language Benchmarks Game's n-body (five planets, each step every
pair's pull and every body's move; pyperformance's ``nbody`` is the same program): CPython
running floating-point arithmetic, attribute-free loops and list indexing, the interpreter's own
speed, which is what the table's processes spend their CPU on. Its published Pi 4 figure:

* Chaitanya Mehta, "Performance Analysis of Languages on Raspberry Pi"
  (https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages):
  a Raspberry Pi 4 Model B Rev 1.1 (4 GB), 5,000,000 steps of the Python program in
  **158.263 s** under the ``performance`` governor, the CPU fixed at **1.5 GHz** (its plot says
  so; 158.393 s ``ondemand``). That is 31.65 us a step. A Pi 4 at 1.8 GHz (the boards since
  revision 1.4, and any with ``arm_freq=1800``) takes 1.5/1.8 of that, clock for clock: 26.4 us.

What it does not say: the Python version (Raspberry Pi OS shipped 3.7 until late 2021, then
3.9); this machine runs the same program 1.42 times slower under 3.7.16 than under 3.11.7
(5.13 against 3.62 us a step), so a Pi 4 on Debian 12's 3.11 is likely faster than the
figure: the projection errs towards a slower Pi, an upper bound. A C benchmark (sysbench's
primes) makes a Pi 4 look half as fast as this machine, not an eighth: its loop is integer
divisions the A72 does well, no measure of an interpreter (docs/performance.md, "A whole club
evening on one table", has both). Emulation under qemu is no measure of either.
"""

from __future__ import annotations

import time

#: the published Pi 4 figure: seconds for 5,000,000 steps at 1.5 GHz (see the module's docstring)
PI4_SECONDS, PI4_STEPS, PI4_GHZ = 158.263, 5_000_000, 1.5

PI = 3.14159265358979323
SOLAR_MASS = 4 * PI * PI
DAYS_PER_YEAR = 365.24


def _bodies() -> list[tuple[list[float], list[float], float]]:
    """The sun and the four giant planets: position (AU), velocity (AU a day, by the year),
    mass (solar masses times 4 pi^2)."""
    d = DAYS_PER_YEAR
    return [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], SOLAR_MASS),
        ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03 * d, 7.69901118419740425e-03 * d,
          -6.90460016972063023e-05 * d], 9.54791938424326609e-04 * SOLAR_MASS),
        ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03 * d, 4.99852801234917238e-03 * d,
          2.30417297573763929e-05 * d], 2.85885980666130812e-04 * SOLAR_MASS),
        ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03 * d, 2.37847173959480950e-03 * d,
          -2.96589568540237556e-05 * d], 4.36624404335156298e-05 * SOLAR_MASS),
        ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03 * d, 1.62824170038242295e-03 * d,
          -9.51592254519715870e-05 * d], 5.15138902046611451e-05 * SOLAR_MASS),
    ]


def _system() -> tuple[list, list]:
    bodies = _bodies()
    px = py = pz = 0.0
    for _, (vx, vy, vz), m in bodies:  # the sun's momentum balances the planets'
        px -= vx * m
        py -= vy * m
        pz -= vz * m
    sun = bodies[0][1]
    sun[0], sun[1], sun[2] = px / SOLAR_MASS, py / SOLAR_MASS, pz / SOLAR_MASS
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies))
             for j in range(i + 1, len(bodies))]
    return bodies, pairs


def advance(steps: int, dt: float = 0.01) -> float:
    """``steps`` steps of the five bodies from the start; the system's energy after them (after
    1,000 steps: -0.169087605, the benchmark's own check)."""
    bodies, pairs = _system()
    for _ in range(steps):
        for ((x1, y1, z1), v1, m1), ((x2, y2, z2), v2, m2) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** -1.5)
            b1m, b2m = m1 * mag, m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for r, (vx, vy, vz), _ in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz
    return energy(bodies, pairs)


def energy(bodies: list, pairs: list) -> float:
    e = 0.0
    for ((x1, y1, z1), _, m1), ((x2, y2, z2), _, m2) in pairs:
        e -= m1 * m2 / ((x1 - x2) ** 2 + (y1 - y2) ** 2 + (z1 - z2) ** 2) ** 0.5
    for _, (vx, vy, vz), m in bodies:
        e += m * (vx * vx + vy * vy + vz * vz) / 2.0
    return e


def microseconds_a_step(steps: int) -> float:
    """This machine's CPU time a step, the best of three runs of ``steps`` (CPU time, not the
    wall's: a neighbour's work on the other core is not ours)."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        advance(steps)
        best = min(best, time.process_time() - started)
    return best / steps * 1e6


def pi4_microseconds(ghz: float) -> float:
    """The published Pi 4's time a step, at ``ghz`` (1.5 as measured, or 1.8 clock for clock)."""
    return PI4_SECONDS / PI4_STEPS * 1e6 * PI4_GHZ / ghz
