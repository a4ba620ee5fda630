"""The imperative shell around the rules core, one job per module.

``controller.service.Service`` is the façade: it builds these parts and hands each the few
others it talks to. Nothing here decides anything about the game (that is ``controller.core``);
each module does one kind of I/O for it:

* ``wiring``: the adapters a config asks for (the table's setup for the core, the console links,
  the devices opened at start);
* ``restore``: the table kept in the journal across a restart (saved on every change, read back
  at start);
* ``outbox``: an event's way out: journaled first, then published while connected, the journals'
  troubles retried, the outbox's limit watched;
* ``effects``: the one place each effect of the core is performed;
* ``hands``: the simulated hand (``--sim``) that presses wired, expander and console buttons;
* ``intake``: commands in from the broker (refused at once when stale or when the queue is full)
  and their replies out;
* ``replay``: ``cmd/replay``, kept events published again;
* ``health``: one builder for each section of the retained ``health`` document;
* ``clock_watch``: whether the wall clock is synchronised, asked every half minute.
"""
