"""The live panel: one table's game run from the judge's tablet or phone (docs/judge.md).

``service`` is the panel's process: it puts the rooms together (the game kept in its journal,
the link to the table, the record's routes, the overlay's) and serves the judge's page and its
live channel. ``cli`` is ``mafia-table judge`` (serve, ``export``, ``schema``), ``config`` its
TOML file; ``table_link`` the MQTT connection to the table and ``table_events`` its events read
into the game's types; ``journal`` the game's inputs in SQLite and ``kept_game`` the game moved
on by them; ``views`` what the judge's pages are shown, ``live_view`` the push of it to every
tab, ``api_schema`` the live channel's JSON Schema (docs/judge-api.md); ``export`` the
command-line export of a stored game; ``static/`` the judge's page.

The top room: it may import the overlay (``judge.overlay``), the record (``judge.record``) and
the game (``judge.game``), with ``contract``, ``kit`` and ``results``; nothing imports it but
``mafia_table`` (and the benches, examples and tests).
"""
