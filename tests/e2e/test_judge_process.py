"""The judge as the end-to-end tests run it (``tests/support/judge_panel.Judge``): a process
whose output is read all the while, so a judge that logs a lot never stops on a full pipe."""

from __future__ import annotations

import urllib.error
import urllib.request

from kit.local_broker import free_port
from tests.support.judge_panel import Judge, judge_config

#: a refused request is logged twice with its path (the refusal, the access log): this many
#: long ones say far more than a pipe holds (64 KiB on Linux) before anyone reads it
REQUESTS, PATH = 60, "/api/games/" + "x" * 2000


def test_a_judge_that_logs_more_than_a_pipe_holds_goes_on_answering(tmp_path, broker):
    listen = f"127.0.0.1:{free_port()}"
    judge = Judge(judge_config(tmp_path, broker.port, listen))
    try:
        for _ in range(REQUESTS):
            try:
                urllib.request.urlopen(f"http://{listen}{PATH}", timeout=10)
            except urllib.error.HTTPError as refused:  # 401: no login, and logged
                assert refused.code == 401
    finally:
        said = judge.stop()
    assert len(said) > REQUESTS * len(PATH) > 64 * 1024
    assert said.count(f"GET {PATH} from 127.0.0.1 refused (401)") == REQUESTS
