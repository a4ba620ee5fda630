"""The tournament's seating generator: pure, deterministic by seed and work, made of small
modules with one job each, importing nothing but numpy and each other (and :mod:`hall.seating`,
the CSV format the board reads):

- :mod:`~hall.seating_plan.scores`: the platform's three scores (a faithful port);
- :mod:`~hall.seating_plan.instance`: a tournament to seat, and its refusals;
- :mod:`~hall.seating_plan.split`: whether the kept-apart pairs can hold;
- :mod:`~hall.seating_plan.cyclic`: a combinatorial start for small full halls;
- :mod:`~hall.seating_plan.groups`: who meets whom, at which table (local search);
- :mod:`~hall.seating_plan.labels`: each round's tables renumbered (Hungarian method);
- :mod:`~hall.seating_plan.seats`: the seat numbers inside each game (edge colouring);
- :mod:`~hall.seating_plan.plan`: all of it in order, the work counted;
- :mod:`~hall.seating_plan.floor`, :mod:`~hall.seating_plan.report`: how good it is, in words;
- :mod:`~hall.seating_plan.inputs`: the names and restrictions files.

The command is :mod:`hall.seating_cli` (``mafia-table hall seating``).
"""
