"""The stream overlay: the game as the hall and the stream see it (docs/overlay.md).

``public`` is the public projection of a game (no roles, no night), which the judge's view is
built on too; ``view`` the overlay's view of it (pure: the secrets, when the organiser allows
them, only ``delay`` seconds late); ``routes`` its page, live channel and JSON on the panel's
web app, following the panel's live view as one of its watchers; ``mafiaratings`` the same view
in the rating platform's overlay's shape; ``config`` the ``[overlay]`` section of the judge's
config; ``static/`` the page.

It may import the game (``judge.game``), ``contract``, ``kit`` and ``results``: never the live
panel (which hands it what it follows) and never the record.
"""
