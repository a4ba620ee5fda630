"""Finding the modules of an extension folder (``mechanisms``, ``votes``, ``endgames``).

Each folder holds one module per variant, every one defining a module attribute (``MECHANISM``,
``PROCEDURE``, ``ENDGAME``) with the variant's ``name``; the folder's ``__init__`` collects them
by importing every module beside it, so adding a variant is adding a file.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from typing import Any, Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


def discover(package: str, path: Iterable[str], attribute: str, kind: type[T]) -> dict[str, T]:
    """``{variant.name: variant}`` of every module of ``package`` (but ``base``) defining
    ``attribute``; a module without it, a variant of the wrong type, or a name used twice is a
    mistake and raises."""
    found: dict[str, T] = {}
    for info in sorted(pkgutil.iter_modules(list(path)), key=lambda i: i.name):
        if info.name == "base":
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        variant: Any = getattr(module, attribute, None)
        if not isinstance(variant, kind):
            raise TypeError(f"{module.__name__} defines no {attribute} ({kind.__name__})")
        if variant.name in found:
            raise ValueError(f"{package}: {variant.name!r} defined twice")
        found[variant.name] = variant
    return found
