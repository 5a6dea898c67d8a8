"""What the runtime's own checks say about values the linter reads: the linter's one door
into ``semantics_lint.runtime``.

The rule logic that both doors need lives once, in the runtime: which field a
misspelled key meant (the mint's refusal names it; SEM101 offers it as a fix), whether a
text is an ISO 8601 instant with a zone (the mint refuses a period that is not; SEM406
reports it). The rules ask here, and only here does the linter import the runtime: the
dependency runs one way, from the static door to the runtime's pure functions, never the
other way (the runtime imports the vocabulary and nothing of the linter). A test holds
both directions (``tests/test_layers.py``). Judging a whole literal declaration with the
mints' validators (SEM100, the two doors agreeing) belongs here too.
"""

from __future__ import annotations

from collections.abc import Iterable

from semantics_lint.runtime.mints import instant_of
from semantics_lint.runtime.refusal import meant_key

__all__ = ["closest_field", "instant"]


def closest_field(key: str, fields: Iterable[str]) -> str | None:
    """The field a misspelled ``key`` most likely meant, as the mint's refusal names it
    (the camelCase field of a snake_case spelling, or the one close match), or None."""
    return meant_key(key, fields)


def instant(text: str) -> tuple[int, int] | None:
    """``(seconds since the epoch, nanoseconds)`` of an ISO 8601 instant with a zone, as
    the mint reads one, or None when the mint would refuse it."""
    return instant_of(text)
