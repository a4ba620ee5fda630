"""The organiser's desk on the hall board: the tournament kept in the hall's store, the games
the tables send, the organiser's actions, and what the tournament's pages show.

It runs on the board's asyncio loop (``hall.board`` hands it every ``record/`` message and
every tournament action from the live channel); the rules are ``hall.tournament``'s (pure) and
the games' keeping ``hall.store``'s. Seating a stage (``generate``, ``seed_final``) is work of
seconds: it runs in a thread of the loop's executor on a copy, and its result is taken only if
the tournament has not changed meanwhile. Every change calls ``changed`` (the board pushes both
views to their pages).

Every answer to the organiser is ``Words`` (docs/i18n.md: the catalogs' ``desk.`` keys), which
the page renders in the organiser's language; ``message`` is their English, for a script.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
import zipfile
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from hall import tournament as tm
from hall.seating import chart as seating_module
from hall.store import HallStore, Received
from hall.tables import table_words
from kit.i18n import Words, joined, render
from results import scoring

log = logging.getLogger("hall.desk")

#: what was being done when a refusal came, by action
WHAT = {"generate_seating": "desk.what.generate", "load_tournament_seating": "desk.what.load",
        "send_tournament_round": "desk.what.send", "seed_final": "desk.what.final",
        "bring_back_tournament": "desk.what.bring_back", "withdraw_player": "desk.what.withdraw"}


def answer(kind: str, words: Words, **more: Any) -> dict[str, Any]:
    """An answer to the organiser: ``words`` for the page, ``message`` their English (and
    ``more``: a question's ``replace``)."""
    return {"type": kind, "message": str(words), "words": words.to_json(), **more}


class Desk:
    """The tournament of the store at hand; ``publish(topic, payload)`` sends a retained QoS 1
    message (the board's MQTT client); ``changed()`` is called after every change."""

    def __init__(self, store: HallStore, presets: dict[str, scoring.Preset],
                 publish: Callable[[str, bytes], None], changed: Callable[[], None]):
        self.store, self.presets = store, presets
        self.publish, self.changed = publish, changed
        document = store.tournament()
        self.tournament = None if document is None else tm.decode(document)
        self.notice: Words | None = None  # the latest answer, for every organiser's page
        self.working: asyncio.Future[Any] | None = None
        self._views: tuple[dict[str, Any], dict[str, Any]] | None = None

    # ------------------------------------------------------------------ the games

    def receive(self, topic: str, payload: bytes) -> Received:
        """A message of a table's ``record/`` topic, into the store."""
        received = self.store.receive(topic, payload, time.time())
        if received.changed or received.kind == "refused":
            self._changed()
        return received

    # ------------------------------------------------------------------ the views

    def views(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The organiser's view and the public one, made again only after a change.

        Only a tournament's views show the games: without one (a club evening) no game is
        read from the store to make them. Each game held, decoded, is about 150 kB for the
        moment the views are made (a 27 kB record of a FIIM game), and the process's memory
        keeps the high-water mark: reading them all at each game's record grew the board by
        that much a game, all evening (docs/performance.md, "A club evening")."""
        if self._views is None:
            held = [] if self.tournament is None else self.store.games()
            history = {h.message.game: self.store.history(h.message.game) for h in held}
            organiser = tm.organiser_view(self.tournament, held, self.presets,
                                          self.store.refusals, history)
            organiser["notice"] = None if self.notice is None else self.notice.to_json()
            organiser["replaced"] = self.replaced()
            organiser["working"] = self.working is not None
            self._views = (organiser, tm.public_view(self.tournament, held, self.presets))
        return self._views

    def _changed(self) -> None:
        self._views = None
        self.changed()

    def _say(self, words: Words) -> dict[str, Any]:
        self.notice = words
        self._changed()
        return answer("done", words)

    def _refuse(self, what: str, problems: Sequence[Words | str]) -> dict[str, Any]:
        self.notice = Words("desk.refused", what=Words(what), why=joined(problems))
        self._changed()
        return answer("refused", self.notice)

    # ------------------------------------------------------------------ the actions

    def act(self, message: dict[str, Any]) -> dict[str, Any]:
        """One of the organiser's actions (docs/tournament.md lists them); a ``KeyError``,
        ``TypeError`` or ``ValueError`` of a malformed one goes to the caller."""
        action = message["action"]
        if action == "create_tournament":
            return self._create(message)
        if self.tournament is None:
            return answer("refused", Words("desk.none"))
        try:
            if action == "generate_seating":
                return self._work("main", float(message.get("seconds", 5)),
                                  tm.generate, int(message.get("seed", 1)))
            if action == "load_tournament_seating":
                seating = seating_module.parse(str(message["csv"]), seats=10)
                self._save(tm.with_seating(self.tournament, seating, loaded=True))
                return self._say(Words("desk.seating", rounds=self._rounds("main")))
            if action == "send_tournament_round":
                return self._send(int(message["round"]))
            if action == "bring_back_tournament":
                return self._bring_back(int(message["n"]))
            if action == "seed_final":
                held = self.store.games()
                finalists, rounds = int(message.get("finalists", 10)), int(message["rounds"])
                table, seats = str(message.get("table", "table-1")), str(message.get("seats", ""))
                return self._work("final", float(message.get("seconds", 5)),
                                  lambda t, seed, seconds: tm.seed_final(
                                      t, held, self.presets, finalists, rounds, table, seed,
                                      seconds, seats), int(message.get("seed", 1)))
            if action == "withdraw_player":
                player, start = str(message["player"]), int(message["from_round"])
                given = message.get("substitute")
                substitute = None if given in (None, "") else str(given)
                return self._work("withdraw", float(message.get("seconds", 5)),
                                  lambda t, seed, seconds: tm.withdraw(
                                      t, player, start, substitute, seed, seconds),
                                  int(message.get("seed", 1)))
        except tm.TournamentError as exc:
            return self._refuse(WHAT[action], exc.problems)
        except seating_module.SeatingError as exc:
            return self._refuse("desk.what.seating", exc.problems)
        return answer("refused", Words("desk.unknown", action=str(action)))

    def _create(self, message: dict[str, Any]) -> dict[str, Any]:
        """A new tournament. Over one whose rounds went to the tables, or whose games came in,
        refused; over one still being prepared, asked first (``confirm``, unless the message
        says ``"replace": <its id>``), and the old one kept in the store (``bring_back``)."""
        t = self.tournament
        if t is not None and self._started(t):
            return self._refuse("desk.what.create", [Words("desk.exists", name=t.name)])
        try:
            made = tm.create(str(message["name"]), str(message["players"]),
                             int(message["games"]), int(message["tables"]),
                             str(message.get("scoring", tm.DEFAULT_SCORING)),
                             str(message.get("restrictions", "")), time.time(), self.presets,
                             same_yo=bool(message.get("same_yo", True)))
        except tm.TournamentError as exc:
            return self._refuse("desk.what.create", exc.problems)
        if t is not None and message.get("replace") != t.id:
            # asked, not refused: the page offers to replace it; nothing changes meanwhile
            return answer("confirm", Words("desk.replace.ask", name=t.name, new=made.name,
                                           seated=self._seated(t)), replace=t.id)
        if t is None:
            self._save(made)
            kept: Words | str = ""
        else:
            self.store.replace_tournament(tm.encode(made), time.time())
            self.tournament = made
            kept = Words("desk.replace.kept", name=t.name)
        return self._say(Words("desk.created", name=made.name,
                               players=Words("desk.players", count=len(made.players)),
                               games=Words("desk.games", count=made.games),
                               tables=Words("desk.tables", count=made.tables), kept=kept))

    def _bring_back(self, n: int) -> dict[str, Any]:
        """Replaced tournament ``n`` back, the current one kept in its stead; refused once
        the current one has started (its rounds at the tables, its games in)."""
        assert self.tournament is not None
        if self._started(self.tournament):
            return self._refuse("desk.what.bring_back",
                                [Words("desk.exists", name=self.tournament.name)])
        before = self.tournament.name
        document = self.store.bring_back(n, time.time())
        if document is None:
            return self._refuse("desk.what.bring_back", [Words("desk.no_replaced")])
        self.tournament = tm.decode(document)
        return self._say(Words("desk.brought_back", name=self.tournament.name, kept=before))

    def _started(self, t: tm.Tournament) -> bool:
        """Whether ``t`` is under way: a round sent, or a game of it in."""
        return any(r.sent for r in t.rounds) or any(h.message.tournament == t.id
                                                    for h in self.store.games())

    @staticmethod
    def _seated(t: tm.Tournament) -> Words:
        main = [r.number for r in t.stage("main")]
        return Words("desk.replace.seated", rounds=main) if main else Words("desk.replace.unseated")

    def replaced(self) -> list[dict[str, Any]]:
        """The tournaments kept after a replacement, the latest first (the page offers them
        back)."""
        found = []
        for n, when, document in self.store.replaced()[:5]:
            old = tm.decode(document)
            found.append({"n": n, "name": old.name, "replaced": when,
                          "players": len(old.players), "rounds": len(old.stage("main"))})
        return found

    def _send(self, number: int) -> dict[str, Any]:
        assert self.tournament is not None
        sent = tm.messages(self.tournament, number)
        for table, document in sent.items():
            self.publish(f"mafia/{table}/seating", msgspec.json.encode(document))
        self._save(tm.sent(self.tournament, number, time.time()))
        log.info("round %d sent to %s", number, ", ".join(sent))
        return self._say(Words("desk.sent", round=number,
                               tables=[table_words(t) for t in sorted(sent)]))

    def _work(self, stage: str, seconds: float, make: Callable[..., tm.Tournament],
              seed: int) -> dict[str, Any]:
        """``make(tournament, seed, seconds)`` in a thread; its result taken on the loop if
        the tournament is as it was."""
        if self.working is not None:
            return answer("refused", Words("desk.busy"))
        if not 0 < seconds <= 600:
            return self._refuse("desk.what.seating", [Words("desk.seconds", seconds=seconds)])
        before = self.tournament
        self.working = asyncio.get_running_loop().run_in_executor(None, make, before, seed,
                                                                  seconds)
        self.working.add_done_callback(lambda done: self._worked(done, before, stage))
        if stage == "withdraw":
            return self._say(Words("desk.withdrawing", seconds=seconds))
        return self._say(Words("desk.working", stage=tm.stage_words(stage), seconds=seconds))

    def _worked(self, done: asyncio.Future[Any], before: tm.Tournament | None,
                stage: str) -> None:
        self.working = None
        try:
            made = done.result()
        except tm.TournamentError as exc:
            self._refuse({"main": "desk.what.generate", "final": "desk.what.final",
                          "withdraw": "desk.what.withdraw"}[stage], exc.problems)
            return
        if self.tournament is not before:
            self._say(Words("desk.moved"))
            return
        self._save(made)
        if stage == "withdraw":
            last = made.withdrawals[-1]
            self._say(Words("desk.substituted", player=last.player, round=last.round,
                            substitute=last.substitute) if last.substitute else
                      Words("desk.withdrawn", player=last.player, round=last.round))
        elif stage == "main":
            self._say(Words("desk.seating", rounds=self._rounds("main")))
        else:
            final = made.stage("final")
            table, seats = next(iter(final[0].seating.items()))
            self._say(Words("desk.final", players=Words("desk.players", count=len(seats)),
                            table=table_words(table), rounds=self._rounds("final")))

    def _save(self, tournament: tm.Tournament) -> None:
        self.store.save_tournament(tm.encode(tournament))
        self.tournament = tournament
        self._changed()

    def _rounds(self, stage: str) -> list[int]:
        assert self.tournament is not None
        return [r.number for r in self.tournament.stage(stage)]

    # ------------------------------------------------------------------ exports

    def standings_table(self, which: str) -> tuple[Any, Words]:
        """``overall``, a stage (``main``, ``final``) or a round's number: that table and its
        name; ``KeyError(Words)`` when there is no such table."""
        if self.tournament is None:
            raise KeyError(Words("desk.none"))
        tables = tm.table_of(self.tournament, self.store.games(), self.presets)
        if which == "overall":
            return tables.overall, Words("tournament.standings.overall")
        if which in tables.stages:
            return tables.stages[which], Words("tournament.standings.stage",
                                               stage=tm.stage_words(which))
        if which.isdigit() and int(which) in tables.rounds:
            return tables.rounds[int(which)], Words("board.round", round=int(which))
        raise KeyError(Words("desk.no_standings", which=which,
                             stages=", ".join(tables.stages)))

    def standings_csv(self, which: str) -> str:
        """A table (``standings_table``) as CSV for a script."""
        return tm.standings_csv(self.standings_table(which)[0])

    def standings_xlsx(self, which: str, language: str) -> bytes:
        """A table (``standings_table``) as the organiser's workbook in ``language``."""
        table, name = self.standings_table(which)
        return tm.standings_xlsx(table, render(name, language), language)

    def games_zip(self, language: str) -> bytes:
        """The tournament's games as the platform's game JSON, a file each, and
        ``not-exported.csv`` with the reason for each other game, in the reader's
        ``language``."""
        if self.tournament is None:
            raise KeyError(Words("desk.none"))
        done = tm.exported(self.tournament, self.store.games())
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in sorted(done.files.items()):
                archive.writestr(name, data)
            archive.writestr("not-exported.csv", done.refused_csv(language))
        return out.getvalue()
