"""Tests of scripts/: the Pi's installer, into a scratch root."""
