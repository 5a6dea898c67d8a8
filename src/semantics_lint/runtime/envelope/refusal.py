"""How the mints refuse: one exception type, what it says, and the unknown-key refusal.

A refusal is raised at the call site, inside the tool, where the model reads its
message in place of the result; so every message starts ``refused:``, names the
field as the caller spelled it, and says the fix.

Beside the message, every refusal carries the same facts as data, for a program
that places it (the static linter asks the runtime's validators about literal
declarations and reports what they refuse at the node concerned):

* ``path``: where the fault is, as the caller spelled it: dict keys as given (a
  ``str``, or whatever non-string key the dict held) and list indexes as ``int``,
  e.g. ``("coverage", "cannotCover", 0, "why")``. For a missing field the path
  names the field that is missing (``("provenance", "measuredAt")``); ``()`` is the
  call as a whole;
* ``field``: the path as text, ``coverage.cannotCover[0].why`` (``""`` for the call);
* ``kind``: which kind of fault, one of :data:`REFUSAL_KINDS`;
* ``meant``: for an unknown key, the field it most likely meant (or None);
* ``argument``: for a fault of a positional argument itself (a declaration that is
  not a dict, the result ``coverage()`` wraps), its index; otherwise None.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from semantics_lint.vocabulary import SNAKE_TO_CAMEL

__all__ = [
    "ARGUMENTS",
    "BAD_VALUE",
    "COUNTER_UNSTATED",
    "DERIVED_KEY",
    "EMPTY",
    "MISSING",
    "REFUSAL_KINDS",
    "SAYS_NOTHING",
    "SNAKE_CASE_KEY",
    "UNKNOWN_KEY",
    "UNSPECIFIED",
    "WRAPPED",
    "WRONG_TYPE",
    "FieldPath",
    "Refusal",
    "field_text",
    "key_text",
    "meant_key",
    "refuse_unknown_keys",
    "text_fault",
    "unknown_key_message",
    "unknown_key_refusal",
]

FieldPath = tuple[object, ...]
"""Dict keys as given and list indexes (``int``), outermost first; ``()`` is the call."""

# The kinds of refusal. Each says what is wrong with the value at ``path``.
ARGUMENTS: Final = "arguments"
"""The call's arguments are not one declaration: a dict and keywords both, a positional
declaration that is not a dict, no declaration, or ``coverage()`` given no result."""
UNKNOWN_KEY: Final = "unknown-key"
"""A key the part does not have (``meant`` names a close field when there is one)."""
SNAKE_CASE_KEY: Final = "snake-case-key"
"""The snake_case spelling of a camelCase field (``meant`` names it)."""
DERIVED_KEY: Final = "derived-key"
"""A field the mint derives itself, declared by hand (``notCovered``, ``note``, the marker)."""
MISSING: Final = "missing"
"""A required field is not there; ``path`` names it."""
EMPTY: Final = "empty"
"""A string blank after JavaScript's trim, or an empty list, where content is required."""
WRONG_TYPE: Final = "wrong-type"
"""A value of the wrong type (``None`` where a list goes, a number where a string goes)."""
BAD_VALUE: Final = "bad-value"
"""A value of the right type that is not allowed: a negative or infinite ``ageSeconds``, a
``count`` below 1, an instant without a zone, a span that runs backwards."""
SAYS_NOTHING: Final = "says-nothing"
"""A declaration or part that declares nothing at all (no data, no ground, an empty grain)."""
COUNTER_UNSTATED: Final = "counter-unstated"
"""A counter-looking aggregation with ``isCounter`` unstated."""
WRAPPED: Final = "wrapped"
"""``coverage()`` given a described result, which carries its own coverage."""

UNSPECIFIED: Final = "unspecified"
"""The kind of a refusal built without one (by code outside the runtime); never raised
by the mints, whose every refusal names its kind."""

REFUSAL_KINDS: Final = frozenset(
    {
        ARGUMENTS,
        UNKNOWN_KEY,
        SNAKE_CASE_KEY,
        DERIVED_KEY,
        MISSING,
        EMPTY,
        WRONG_TYPE,
        BAD_VALUE,
        SAYS_NOTHING,
        COUNTER_UNSTATED,
        WRAPPED,
    }
)


def key_text(key: object) -> str:
    """A dict key as ``str`` shows it; total (Python will not write an integer of more
    than 4,300 digits in decimal, so one is named by its size)."""
    if isinstance(key, str):
        return key
    try:
        return str(key)
    except ValueError:
        assert isinstance(key, int)
        return f"<an integer of about {int(key.bit_length() * 0.30103) + 1} digits>"


def field_text(path: FieldPath) -> str:
    """``("coverage", "cannotCover", 0, "why")`` as ``coverage.cannotCover[0].why``.

    A list index is an ``int`` segment; any other segment is a dict key, shown as
    ``str`` shows it (so a non-string key ``1`` of a dict reads ``provenance.1``).
    """
    text = ""
    for index, segment in enumerate(path):
        if _is_index(segment):
            text += f"[{segment}]"
        else:
            text += f"{'.' if index else ''}{key_text(segment)}"
    return text


def _is_index(segment: object) -> bool:
    return isinstance(segment, int) and not isinstance(segment, bool)


class Refusal(ValueError):
    """A declaration the vocabulary cannot honour. The message starts ``refused:``.

    ``path``, ``field``, ``kind``, ``meant`` and ``argument`` say the same as the
    message, as data (see the module docstring).
    """

    path: FieldPath
    kind: str
    meant: str | None
    argument: int | None

    def __init__(
        self,
        message: str,
        *,
        path: FieldPath = (),
        kind: str = UNSPECIFIED,
        meant: str | None = None,
        argument: int | None = None,
        field: str | None = None,
    ) -> None:
        if not message.startswith("refused:"):
            message = f"refused: {message}"
        super().__init__(message)
        self.path = tuple(path)
        self.kind = kind
        self.meant = meant
        self.argument = argument
        self._field = field

    @property
    def field(self) -> str:
        """The path as text: ``provenance.sourceExportDate``; ``""`` for the call."""
        return field_text(self.path) if self._field is None else self._field

    @property
    def message(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Refusal({str(self)!r}, kind={self.kind!r}, field={self.field!r})"

    def __reduce__(self) -> tuple[object, ...]:
        # Keyword-only data survives pickling (a refusal crossing a process pool).
        return (
            _rebuild,
            (str(self), self.path, self.kind, self.meant, self.argument, self._field),
        )


def _rebuild(
    message: str,
    path: FieldPath,
    kind: str,
    meant: str | None,
    argument: int | None,
    field: str | None,
) -> Refusal:
    return Refusal(message, path=path, kind=kind, meant=meant, argument=argument, field=field)


def text_fault(value: object, *, present: bool = True) -> str:
    """The kind of fault of a value that should have been a non-empty string."""
    if not present:
        return MISSING
    return EMPTY if isinstance(value, str) else WRONG_TYPE


def meant_key(key: str, known: Iterable[str]) -> str | None:
    """The field a misspelled ``key`` most likely meant, or None.

    A snake_case spelling of a camelCase field names that field; otherwise a unique
    close match (a typo such as ``measuerdAt``) is offered.
    """
    known = tuple(known)
    camel = SNAKE_TO_CAMEL.get(key)
    if camel is not None and camel in known:
        return camel
    import difflib  # only for a key that is not a field: the linter starts without it

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


def unknown_key_refusal(at: FieldPath, key: object, known: Iterable[str]) -> Refusal:
    """The refusal of ``key``, a key the part at ``at`` does not have."""
    known = tuple(known)
    spelled = key_text(key)
    meant = meant_key(spelled, known)
    snake = meant is not None and SNAKE_TO_CAMEL.get(spelled) == meant
    where = field_text(at)
    return Refusal(
        unknown_key_message(where, spelled, known),
        path=(*at, key),
        kind=SNAKE_CASE_KEY if snake else UNKNOWN_KEY,
        meant=meant,
        # A key that is not a string is still a key: ``provenance.1``, never ``[1]``.
        field=None if isinstance(key, str) else f"{where}.{spelled}" if where else spelled,
    )


def refuse_unknown_keys(at: FieldPath, decl: Mapping[Any, object], known: Iterable[str]) -> None:
    """Raise a :class:`Refusal` for the first key of ``decl`` that is not in ``known``.

    ``at`` is the path of ``decl`` (``()`` for the declaration itself). Keys are never
    dropped silently: a list declared under a misspelled key would otherwise vanish
    without a word.
    """
    known = tuple(known)
    for key in decl:
        if key not in known:
            raise unknown_key_refusal(at, key, known)
