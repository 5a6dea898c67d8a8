"""What every rule of the envelope shares: the :class:`Judging` a rule records its
:class:`Fault` records on, the spellings, the codes, and the number rule.

A number is the double JavaScript would hold (:func:`js_number`); :func:`js_number_text`
and ``_js_string`` print values as a JavaScript template literal would. The rules
themselves are the table of :mod:`semantics_lint.runtime.envelope.parts` (and, for the
lists, :mod:`semantics_lint.runtime.envelope.data_parts`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple, TypedDict

from semantics_lint.runtime.envelope.refusal import FieldPath, text_fault
from semantics_lint.vocabulary import to_declaration


class SemanticIssue(TypedDict):
    """One fault of an envelope: its code, the dot-pathed field, and what to do."""

    code: str
    field: str
    message: str


Spelling = Callable[[str], str]
"""How a door names a wire field: takes the wire key, returns the key as its author spells it."""


def _wire_spelling(key: str) -> str:
    return key


WIRE_SPELLING: Final[Spelling] = _wire_spelling
"""The wire's own words: what recognition and the gate report (``grain.is_counter``)."""

DECLARATION_SPELLING: Final[Spelling] = to_declaration
"""The declaration's camelCase words: what the ``described_result`` mint reports."""

MALFORMED: Final = "malformed-semantics"
SERIES_WITHOUT_GRAIN: Final = "series-without-grain"
COUNTER_UNSTATED: Final = "counter-aggregation-unstated"
DATA_WITHOUT_PROVENANCE: Final = "data-without-provenance"

_MISSING: Final = object()
"""A key that is not there (JavaScript's ``undefined``); ``None`` is JSON ``null``."""


def js_number(value: object) -> float | None:
    """The double JavaScript holds for a Python number, or None for anything else.

    Total over ints and floats: an int too large for a double is +/-Infinity, as the
    reference's ``JSON.parse`` reads a number literal of 400 digits; any other int is
    the nearest double (Python rounds as JavaScript does). A bool is not a number.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float):
        return value
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def is_finite_number(value: object) -> bool:
    """``Number.isFinite`` of the value as JavaScript would hold it (a bool is not a number)."""
    number = js_number(value)
    return number is not None and math.isfinite(number)


def js_number_text(value: float) -> str:
    """A double as JavaScript's ``String(number)`` writes it (``1e-7``, ``1e+21``, ``0.5``)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # repr gives the shortest digits that read back as the same double, which is
    # what ECMAScript's Number::toString asks for; only the layout differs.
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + int(exponent or 0) - (len(whole + fraction) - len(digits))
    digits = digits.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = f"{digits[:n]}.{digits[n:]}"
    elif -6 < n <= 0:
        text = f"0.{'0' * -n}{digits}"
    else:
        e = n - 1
        head = digits if k == 1 else f"{digits[0]}.{digits[1:]}"
        text = f"{head}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + text


def _js_string(value: object) -> str:
    """``value`` as a JavaScript template literal would print it (JSON values only)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    number = js_number(value)
    if number is not None:
        return js_number_text(number)
    if isinstance(value, list):
        return ",".join("" if v is None else _js_string(v) for v in value)
    return "[object Object]"


class Fault(NamedTuple):
    """One issue with what the runtime's refusals carry beside it: its kind and path.

    ``path`` names the field in the judging spelling, list indexes as ``int``
    (``("coverage", "cannotCover", 0, "why")``); ``kind`` is one of
    :data:`semantics_lint.runtime.envelope.refusal.REFUSAL_KINDS`.
    """

    issue: SemanticIssue
    kind: str
    path: FieldPath


_NOTHING: Final[Mapping[str, Any]] = MappingProxyType({})


class Judging:
    """One judging of an envelope, or of one part alone: what every rule reads and writes.

    * ``spell``: how the faults name the fields (:data:`WIRE_SPELLING` or
      :data:`DECLARATION_SPELLING`);
    * ``envelope``: the whole envelope, which the rules between parts read (empty when
      a part is judged alone);
    * ``faults``: the faults found so far, in the order found (the grain's rule reads them);
    * ``rendered``: the coverage's well-formed lists once its rule has run, None when it
      has none (``not_covered`` must be what they derive).
    """

    __slots__ = ("envelope", "faults", "rendered", "spell")

    def __init__(self, spell: Spelling, envelope: Mapping[str, Any] = _NOTHING) -> None:
        self.spell = spell
        self.envelope = envelope
        self.faults: list[Fault] = []
        self.rendered: dict[str, Any] | None = None

    def fault(self, field: str, message: str, kind: str, path: FieldPath, code: str = MALFORMED) -> None:
        """Record one fault: its issue (``code``, ``field``, ``message``), kind and path."""
        self.faults.append(Fault({"code": code, "field": field, "message": message}, kind, path))


def text_kind(part: Mapping[Any, Any], key: str) -> str:
    """The kind of fault of ``part[key]``, which should have been a non-empty string."""
    return text_fault(part.get(key), present=key in part)
