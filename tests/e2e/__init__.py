"""Whole games and whole tables across the parts: the table, a rules core or the judge's
panel, real brokers and Chromium."""
