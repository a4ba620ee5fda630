"""Tests of judge/, one folder a room as the code is: ``game/`` (the engine, book by book and
paragraph by paragraph), ``panel/`` (the live panel: service, API, screen, the table's link and
events, hostile input), ``overlay/`` (the stream's view and its routes), ``record/`` (the record,
its sheet, the games' routes and exports, the feed to the hall)."""
