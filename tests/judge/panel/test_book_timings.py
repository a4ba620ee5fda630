"""Each book's timings, documented from the book files (docs/book-timings.md, issue 36 item 6):
the committed document is what the books generate, every timing a book names times something,
and a judge config that sets a timing its book does not take is refused naming the ones it
takes, under the config's own key."""

from __future__ import annotations

import pytest

from judge.game import load_rules
from judge.game.book import BOOKS
from judge.panel import config as judge_config
from judge.panel.book_timings import render_doc, uses
from kit.config import ConfigError
from tests.support.judge_configs import GOOD, write
from tests.support.paths import REPO

DOC_PATH = REPO / "docs" / "book-timings.md"
SHIPPED = sorted(path.stem for path in BOOKS.glob("*.toml"))


def test_the_committed_document_is_what_the_books_generate():
    assert DOC_PATH.read_text(encoding="utf-8") == render_doc(), (
        "docs/book-timings.md is stale: run "
        "`mafia-table judge timings > docs/book-timings.md`")


@pytest.mark.parametrize("book", SHIPPED)
def test_every_timing_a_book_names_times_something_and_is_in_the_document(book):
    rules = load_rules(book)
    spare = [name for name, what in uses(rules.book).items() if not what]
    assert not spare, f"{book} names timings nothing times: {spare}"
    section = render_doc().split(f"(`{book}`)")[1].split("\n## ")[0]
    for name, seconds in rules.timings.items():
        assert f"| `{name}` | {seconds:g}" in section


def config(tmp_path, book: str, timings: dict[str, float]):
    body = GOOD.replace("[timings]\nspeech = 45\n", "") + f'[game]\nbook = "{book}"\n' \
        + "[timings]\n" + "".join(f"{name} = {value}\n" for name, value in timings.items())
    return write(tmp_path, body)


@pytest.mark.parametrize("book", SHIPPED)
def test_a_timing_the_book_does_not_take_is_refused_naming_those_it_takes(tmp_path, book):
    """The online variant with FIIM's ``meeting`` (the issue's case), and every book with each
    other book's timing it does not take: refused under ``timings.<name>``, saying which names
    this book takes; each of its own is taken."""
    takes = list(load_rules(book).book.timings)
    foreign = sorted({name for other in SHIPPED for name in load_rules(other).book.timings}
                     - set(takes))
    for name in foreign:
        with pytest.raises(ConfigError) as refused:
            judge_config.load(config(tmp_path, book, {name: 30}))
        [problem] = refused.value.problems
        assert problem.startswith(f"timings.{name}: "), problem
        assert f"takes {', '.join(takes)} (docs/book-timings.md)" in problem
    cfg = judge_config.load(config(tmp_path, book, {name: 12 for name in takes}))
    assert all(cfg.game_timings[name] == 12 for name in takes)


def test_the_online_book_refuses_meeting_in_words_that_name_its_acquaintance(tmp_path):
    with pytest.raises(ConfigError) as refused:
        judge_config.load(config(tmp_path, "online-003", {"meeting": 60}))
    assert refused.value.problems == [
        "timings.meeting: the book 'Mafia on Skype' takes no timing 'meeting'; it takes "
        "acquaintance, speech, defence, night_step (docs/book-timings.md)"]
