"""Waiting on a condition a test cannot be told of (a console's health, a pin's level): polled
every 5 ms until it holds, failing loudly after ``timeout``."""

from __future__ import annotations

import time


def until(predicate, timeout: float = 5.0, what: str = "condition"):
    """``predicate()``'s first true value, polled until ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while not (result := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)
    return result


async def until_async(predicate, timeout: float = 10.0, what: str = "condition"):
    """``until`` inside an asyncio loop: polled every 5 ms without blocking the loop (whose
    callbacks may be what makes ``predicate`` true)."""
    import asyncio

    deadline = time.monotonic() + timeout
    while not (result := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)
    return result
