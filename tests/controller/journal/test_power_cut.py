"""A killed controller loses no event its journal acknowledged (kill -9 at a random instant);
``[store] synchronous`` picks how often the journal is flushed (bench/power_cut.py measures what
a power cut keeps in each mode, docs/performance.md "Power cuts")."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from controller import config
from controller.journal import Journal
from kit.config import ConfigError
from tests.support.table_configs import SMALL_TABLE, write_config

WRITER = """
import sys
from pathlib import Path
from controller.journal import Journal
store = Journal(Path(sys.argv[1]), keep=20000, synchronous=sys.argv[2])
while True:
    event = store.append("event/seat/press", lambda seq: b'{"seq": %d}' % seq)
    print(event.seq, flush=True)  # acknowledged: the table's logic goes on from here
"""


@pytest.mark.parametrize("synchronous", ["normal", "full"])
def test_kill_9_keeps_every_acknowledged_event(tmp_path, synchronous):
    journal = tmp_path / "t.db"
    target = random.Random(synchronous).randint(50, 300)
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(journal), synchronous],
                             stdout=subprocess.PIPE, text=True)
    try:
        acked = 0
        while acked < target:  # wait on the writer's word, not on time
            acked = int(child.stdout.readline())
        child.kill()
        acked = max([acked, *(int(line) for line in child.stdout.read().split()[:-1])])
    finally:
        child.kill()
        child.wait()
    store = Journal(journal, keep=20000)
    try:
        kept = [event.seq for event in store.unacked_after(0, limit=acked + 1000)]
        assert kept[:acked] == list(range(1, acked + 1))  # all there, in order, no gap
        assert store.last_seq >= acked
    finally:
        store.close()


def test_the_synchronous_key_sets_sqlites_flushing(tmp_path):
    body = SMALL_TABLE.format(port=1883).replace('path = "t1.db"',
                                                 'path = "t1.db"\nsynchronous = "full"')
    cfg = config.load(write_config(tmp_path, body))
    assert cfg.store.synchronous == "full"
    store = Journal(cfg.store_path(), keep=1, synchronous=cfg.store.synchronous)
    try:  # a per-connection setting: asked on the store's own connection
        assert store._db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    finally:
        store.close()
    with pytest.raises(ConfigError, match=r"store\.synchronous: invalid enum value"):
        config.load(write_config(tmp_path, body.replace('"full"', '"off"')))
