"""Tests of results/: a game's record schema, its scores by preset, the standings of a
tournament, the rating platform's game JSON and its checks."""
