"""Tests of judge/panel/: the service, the live channel as a contract, the screen, the table's
link and events, the panel under hostile input."""
