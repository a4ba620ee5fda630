"""Tests of controller/journal/: the journal under faults, and power cuts."""
