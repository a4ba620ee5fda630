"""The top of the house: the ``mafia-table`` command, composed of each part's own commands.

Nothing imports this package; it imports the parts (``controller``, ``judge``, ``hall``) and
lets each add its subcommands (docs/architecture.md, "Layers").
"""
