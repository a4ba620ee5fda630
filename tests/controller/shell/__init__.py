"""Tests of controller/shell/: the seat lights on every backend, the wall clock's watch."""
