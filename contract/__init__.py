"""The table's contract: the vocabulary every part of the project speaks, and nothing else.

What a button, a light and an input are (``buttons``, ``lights``, ``light_timing``,
``inputs``), what the table tells the world (``events``) and accepts (``commands``, ``verbs``),
the published payloads around them (``api``: the envelope, ``state``, ``health``...), where
they go (``topics``), the one check of a seat number (``seats``) and the one wording of a
decoding error (``validation``), and what a consumer learns from ``seq`` (``event_seq``).

This package imports no other code of the project: the controller, the drivers, the judge's
panel and the hall board are all its clients (docs/architecture.md, "Layers"). Pure: no I/O.
"""
