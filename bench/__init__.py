"""Benchmarks, run by hand (``python -m bench.gpio``); figures go to docs/performance.md."""
