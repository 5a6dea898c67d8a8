"""How the mints refuse: one exception type and the unknown-key refusal they share.

A refusal is raised at the call site, inside the tool, where the model reads its
message in place of the result; so every message starts ``refused:``, names the
field as the caller spelled it, and says the fix.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from semantics_lint.vocabulary import SNAKE_TO_CAMEL


class Refusal(ValueError):
    """A declaration the vocabulary cannot honour. The message starts ``refused:``."""

    def __init__(self, message: str) -> None:
        if not message.startswith("refused:"):
            message = f"refused: {message}"
        super().__init__(message)


def meant_key(key: str, known: Iterable[str]) -> str | None:
    """The field a misspelled ``key`` most likely meant, or None.

    A snake_case spelling of a camelCase field names that field; otherwise a unique
    close match (a typo such as ``measuerdAt``) is offered.
    """
    known = tuple(known)
    camel = SNAKE_TO_CAMEL.get(key)
    if camel is not None and camel in known:
        return camel
    matches = difflib.get_close_matches(key, known, n=2, cutoff=0.75)
    if len(matches) == 1:
        return matches[0]
    return None


def unknown_key_message(path: str, key: str, known: Iterable[str]) -> str:
    """``refused: provenance.measured_at: did you mean measuredAt?`` and the like."""
    known = tuple(known)
    # A key that would vanish or blur in the message (empty, padded, a control
    # character) is shown quoted, so the caller can still find it.
    spelled = key if key and key == key.strip() and key.isprintable() else repr(key)
    where = f"{path}.{spelled}" if path else spelled
    meant = meant_key(key, known)
    if meant is not None and SNAKE_TO_CAMEL.get(key) == meant:
        return f"refused: {where}: did you mean {meant}? (the declaration is camelCase)"
    if meant is not None:
        return f"refused: {where}: did you mean {meant}?"
    return f"refused: {where} is not a field here; the fields are {', '.join(known)}"


def refuse_unknown_keys(path: str, decl: Mapping[str, object], known: Iterable[str]) -> None:
    """Raise a :class:`Refusal` for the first key of ``decl`` that is not in ``known``.

    Keys are never dropped silently: a list declared under a misspelled key would
    otherwise vanish without a word.
    """
    known = tuple(known)
    for key in decl:
        if key not in known:
            raise Refusal(unknown_key_message(path, str(key), known))
