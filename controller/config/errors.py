"""The one error a config raises: every problem found, each with its key path."""

from __future__ import annotations

#: the ``source`` of a ``ConfigError`` about flags, not about a file
COMMAND_LINE = "command line"


class ConfigError(Exception):
    """The config cannot be used. ``problems`` lists every ``key.path: reason`` found."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: " + "; ".join(problems))

    def report(self) -> str:
        title = ("bad command line:" if self.source == COMMAND_LINE
                 else f"config error in {self.source}:")
        return "\n".join([title, *(f"  {p}" for p in self.problems)])
