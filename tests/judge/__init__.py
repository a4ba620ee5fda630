"""Tests of judge/: the game core by the FIIM rules, the panel's service and routes,
records, sheets, scores, exports, the overlay."""
