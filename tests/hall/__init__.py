"""Tests of hall/: the board's pure parts, and a simulated hall of tables on the shipped
configs."""
