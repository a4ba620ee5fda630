"""Tests of hall/seating/: the generator's scores, plan and command."""
