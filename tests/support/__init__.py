"""The harness the tests and the benches share: real parts started and driven, games scripted,
documents read. Tests get it through their conftest's fixtures or by importing these modules;
no test module imports another, and a bench imports only this package of ``tests``
(tests/test_layers.py holds both to it).

Where things are and how a table is configured:

* ``paths``: the checkout's root, the shipped example table and rule presets.
* ``table_configs``: table config files written to a test's folder (the six-seat ``SMALL_TABLE``,
  its ``CONSOLES``, the quick example table) and loaded as the service loads them.

Real parts, running:

* ``running``: the table service in the test's process (``Running``), and waiting until it is
  ``online``.
* ``process``: the table service as its own process, started and stopped as systemd does.
* ``mqtt``: a recording MQTT client (``Subscriber``, ``Consumer``) and what to wait for.
* ``shipped_broker``: the hall's mosquitto on the shipped config and ACL (``Hall``).
* ``chromium``: Debian's headless Chromium through Playwright.
* ``web_client``: an HTTP client that behaves as the app's own page in a browser (its
  cookies, its ``Origin``), a session logged in to the judge's panel, and an app's routes.
* ``web_apps``: the judge's panel with every route it can have and a game played, and a hall
  board without a broker.
* ``disk_audio``: the samples SDL's disk audio driver wrote, and when a sound began in them.
* ``micropython_node``: code run under real MicroPython (its WebAssembly port, under Node).
* ``waiting``: polling a condition nothing announces, with a deadline.

Driving the parts:

* ``core_driver``: the pure core on a fake timeline, and the hands' inputs (``press``,
  ``judge``, ``typed``).
* ``core_tables``: the core's test tables and hypothesis's command payloads.
* ``console_wire``: a host session and the console firmware talking in memory on one clock.
* ``judge_game``: the judge's game core driven by hand, and hypothesis's taps and events.
* ``engine_table``: a simulated table answering the judge's engine's commands with the
  table's events, for the random games of every book.
* ``club_books``: a club's copy of FIIM's book, with cards added from data.
* ``judge_configs``: a judge's config and password files.
* ``judge_panel``: the judge's panel end to end (``mafia-table judge``, the players' hands on
  the simulated table, the page as the judge taps it).
* ``table_event``: the table's events as the judge decodes them, given only the fields that
  matter.

Games and documents:

* ``record_game``: a whole scripted FIIM game as the judge's journal keeps it.
* ``record_edits``: that game's record, and hypothesis's corrections of it.
* ``mafiaratings_games``: random whole games, for the mafiaratings export.
* ``audit``: a table's events read off the wire by a rules core's audit, in ``seq`` order.
* ``asyncapi``: docs/asyncapi.yaml and the schema it gives each topic.
* ``protocol_vectors``: docs/protocol.md and the bad inputs it names.
"""
