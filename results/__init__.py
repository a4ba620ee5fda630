"""What a game leaves behind, shared by the judge's panel and the hall (docs/record.md,
docs/tournament.md): the record's schema (``results.record``), its scores by a preset
(``results.scoring``), a tournament's standings (``results.standings``), the record's way to
the hall (``results.feed``), and the rating platform's game JSON with the platform's own checks
ported (``results.mafiaratings``). Pure: nothing here does I/O but reading a preset file.
"""
