"""The tournament hall: many tables, each with its own broker bridged to one hall broker.

``hall.pki`` makes a hall's accounts and certificates, ``hall.sim`` runs a whole simulated hall
on one machine (the hall broker, and per table a mosquitto on the shipped bridge config and a
``--sim`` controller), and ``hall.board`` is the organisers' web page over the hall broker.
"""
