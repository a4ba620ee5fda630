"""The kit the services share: what the table, the judge's panel and the hall board each need
of a broker, a config file, a web page and a login, written once.

``mqtt`` (the ``[broker]`` section and a paho client set up from it), ``config`` (the config
sections' base and ``ConfigError``), ``weblogin`` (the one password gate of the web pages),
``webpages`` (their one WebSocket fan-out), ``webguard`` (the checks and headers in front of
every route), ``webserve`` (HTTPS, the trust page, the access log), ``pki`` and ``pki_cli``
(the local CA and the pages' certificate, ``mafia-table tls``) and ``local_broker`` (a private
mosquitto on loopback for ``--sim``, the tests and the benches). It imports the contract and
nothing else of the project (docs/architecture.md, "Layers").
"""
