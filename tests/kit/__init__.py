"""Tests of kit/: what the services share (the web login)."""
