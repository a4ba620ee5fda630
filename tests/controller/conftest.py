"""The controller's tests' own fixture: the hall's broker as shipped, which the table's account
and the self-test's probe are held to."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.shipped_broker import Hall


@pytest.fixture
def hall(tmp_path) -> Iterator[Hall]:
    """The hall's broker as shipped (``tests.support.shipped_broker``), started in the test's
    folder, stopped after it."""
    hall = Hall(tmp_path)
    hall.broker.start()
    yield hall
    hall.broker.close()
