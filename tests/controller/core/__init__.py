"""Tests of controller/core/: the pure table core on a fake timeline, paragraph by
paragraph of the rules."""
