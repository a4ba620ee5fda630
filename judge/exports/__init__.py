"""Exports of a finished game's record to other systems' formats (``docs/exports.md``)."""
