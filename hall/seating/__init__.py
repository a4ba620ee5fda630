"""The seating: who sits at which table and seat in each round of a tournament (docs/hall.md,
"Making the seating"; docs/tournament.md).

- :mod:`~hall.seating.chart`: the seating chart, a CSV of ``round,table,seat,player`` lines
  checked whole, and its message to each table (the judge's panel fills in the names from it);
- :mod:`~hall.seating.cli`: ``mafia-table hall seating``, the generator on the command line.

The generator: pure, deterministic by seed and work, made of small modules with one job each:

- :mod:`~hall.seating.scores`: the platform's three scores (a faithful port);
- :mod:`~hall.seating.instance`: a tournament to seat, and its refusals;
- :mod:`~hall.seating.split`: whether the kept-apart pairs can hold;
- :mod:`~hall.seating.cyclic`: a combinatorial start for small full halls;
- :mod:`~hall.seating.groups`: who meets whom, at which table (local search);
- :mod:`~hall.seating.labels`: each round's tables renumbered (Hungarian method);
- :mod:`~hall.seating.seats`: the seat numbers inside each game (edge colouring);
- :mod:`~hall.seating.plan`: all of it in order, the work counted;
- :mod:`~hall.seating.floor`, :mod:`~hall.seating.report`: how good it is, in words;
- :mod:`~hall.seating.inputs`: the names and restrictions files.

A room of the hall: it imports numpy and itself (with ``kit`` and ``contract``), never the
board or the tournament, which use it (``tests/test_layers.py`` holds it).
"""
