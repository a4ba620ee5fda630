"""The tournament hall: many tables, each with its own broker bridged to one hall broker
(docs/hall.md, docs/tournament.md).

``hall.board`` is the organisers' web page over the hall broker: every table's row
(``hall.tables``, pure), and the tournament, whose desk (``hall.desk``), rules
(``hall.tournament``, pure), store (``hall.store``) and pages (``hall.tournament_routes``) share
its one web app, login, live channel and stylesheet. The seating is a room of its own,
``hall/seating/`` (the chart the tables get, the generator and its command), which imports
nothing else of the hall. ``hall.pki`` makes a hall's accounts and certificates, and
``hall.sim`` runs a whole simulated hall on one machine (the hall broker, and per table a
mosquitto on the shipped bridge config and a ``--sim`` controller; ``hall.sim_tournament``
plays a tournament on it). ``hall.cli`` is ``mafia-table hall``.
"""
