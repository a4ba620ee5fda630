"""An empty module for MicroPython: ``from __future__ import annotations`` (which it lacks) and
empty package markers."""

annotations = None
