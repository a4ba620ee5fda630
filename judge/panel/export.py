"""``mafia-table judge export``: a game of the panel's store in another system's format, on
stdout, without the panel running (the store is SQLite in WAL mode: a running panel is not
disturbed). The formats themselves are ``results``' (``results.mafiaratings``, docs/exports.md):
this is the command's part, opening the panel's journal and store from its config."""

from __future__ import annotations

from pathlib import Path

from judge.panel.config import JudgeConfig
from judge.panel.journal import Journal
from judge.record import document as rec
from judge.record.store import GameStore
from results import mafiaratings


class ExportFailed(Exception):
    """Why there is nothing to print: no such game, or its export is refused."""


def find(cfg: JudgeConfig, id: str) -> rec.Record:
    """Game ``id``: the one being played (from the journal) or an archived one."""
    if not Path(cfg.journal.path).exists():
        raise ExportFailed(f"no games yet: {cfg.journal.path} does not exist")
    journal = Journal(cfg.journal.path)
    store = GameStore(journal, cfg.journal.path, cfg.table, cfg.game_rules, cfg.game.seats)
    try:
        found = store.find(id)
    finally:
        store.close()
        journal.close()
    if found is None:
        raise ExportFailed(f"no game {id!r}")
    return found


def export(cfg: JudgeConfig, id: str, options: dict[str, str]) -> bytes:
    """The game as mafiaratings' JSON; ``options`` as the panel's query (club, event...)."""
    try:
        chosen = mafiaratings.options_from_query(options)
    except ValueError as exc:  # msgspec.ValidationError names the option
        raise ExportFailed(f"export options: {exc}") from None
    try:
        return mafiaratings.export_json(find(cfg, id), chosen)
    except mafiaratings.ExportRefused as exc:
        raise ExportFailed(str(exc)) from None
