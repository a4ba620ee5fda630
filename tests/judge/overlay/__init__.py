"""Tests of judge/overlay/: the stream's view (secrets only late) and its routes."""
