"""Every bench's ``--quick``: the same measurement with small counts, in seconds, not minutes.

A bench nobody runs rots: an import moves, a flag goes, and it is found broken the day a figure
is wanted. So each bench parses its command line with ``arguments``, which adds ``--quick``, and
the test command runs every bench that way (tests/bench/test_quick.py): that it runs to the end
and prints its figures. The figures of a quick run are not figures (too few samples, on a busy
test machine); nothing is asserted about them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any


def arguments(parser: argparse.ArgumentParser, quick: dict[str, Any],
              argv: Sequence[str] | None = None) -> argparse.Namespace:
    """``parser``'s arguments from ``argv`` (the command line's by default), with ``--quick``
    added: when it is given, the defaults are ``quick``'s (by destination), and a flag given
    beside it still wins (a repeatable flag adds to the quick list)."""
    parser.add_argument("--quick", action="store_true",
                        help="small counts, seconds not minutes: that the bench runs and prints "
                             f"its figures (sets {_shown(quick)})")
    given = list(sys.argv[1:] if argv is None else argv)
    if "--quick" in given:
        parser.set_defaults(**quick)
    return parser.parse_args(given)


def _shown(quick: dict[str, Any]) -> str:
    return ", ".join(f"{name.replace('_', '-')} {value}" for name, value in quick.items())
