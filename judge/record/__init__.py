"""A game on paper: its record, its protocol sheet, the games kept, their pages, and their way
to the hall (docs/record.md, docs/exports.md).

``document`` builds a game's record from the panel's journal of inputs (pure) and lays the
judge's edits over it; ``sheet`` writes the protocol sheet and the results CSV (pure);
``store`` keeps the games in the panel's SQLite (the game being played read from the journal
it is handed); ``routes`` the games' pages and API on the panel's web app; ``feed`` each
finished game on its way to the hall until the broker has it; ``static/`` the sheet's
stylesheet. The record's schema, scores and exports are ``results``' (the hall reads them too).

It may import the game (``judge.game``), ``contract``, ``kit`` and ``results``: never the live
panel (which hands it its journal and its login) and never the overlay.
"""
