"""The judge's side of a table: the rules core that runs a game of a club's rule book on one
table over MQTT, the panel the judge runs it from, the game's record and paperwork, and the
stream overlay (docs/judge.md). Four rooms, one folder each; imports go down only, and never
across between the overlay and the record (``tests/test_layers.py`` holds it):

    panel/      the live panel: the service that puts the rooms together, its config and command
                line, the link to the table, the game kept in its journal, the judge's live
                view and API (docs/judge.md, docs/judge-api.md)
       │
       ├──────────────┐
       ▼              ▼
    overlay/       record/        the stream's public view (docs/overlay.md) | a game's record,
       │              │           its protocol sheet, the games' store, pages and their way
       │              │           to the hall (docs/record.md, docs/exports.md)
       ▼              ▼
    game/         the engine: a game of any rule book as pure data (docs/judge-engine.md)

Beside ``judge/`` the rooms may import ``contract``, ``kit`` and ``results`` (never the
controller, never the hall).
"""
