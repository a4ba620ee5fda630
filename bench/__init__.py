"""Benchmarks, run by hand (``python -m bench.gpio``); figures go to docs/performance.md. Each
takes ``--quick`` (bench/quick.py), and the test suite runs every one that way."""
