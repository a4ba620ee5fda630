"""Tests of judge/game/: the engine, by each book and its paragraphs, and its properties."""
