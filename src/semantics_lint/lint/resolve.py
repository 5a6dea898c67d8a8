"""Following values: what an expression inside a declaration provably is, or unknown.

Rules never look through a ``Name`` themselves; they ask a :class:`Resolver`. The
answer is a :class:`Resolved` (the LibCST node that holds the value, and where it was
bound when that is somewhere other than the call itself) or ``None``, which means
"unknown" and is never a finding (SPEC section 3, "Never guess").

This first version resolves only literal expressions, to themselves. Names, attributes
and call results are unknown. Following names through LibCST scope metadata and
astroid plugs in behind the same interface; a resolver is made per call site and
reaches the whole file through it (``call.context``: the source text, the ``ast``
module tree, the filename and the settings; ``call.function``: the enclosing
function).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from semantics_lint.lint.context import CallSite

_LITERAL_NAMES = frozenset({"True", "False", "None"})


@dataclass(frozen=True, slots=True)
class Resolved:
    """A provable value: ``node`` holds it; ``origin`` says where it was bound.

    ``origin`` is None when ``node`` is the expression itself (a literal written in
    the call); otherwise a short human description such as ``"line 12"`` that a rule
    puts in its message, since the finding is still reported at the use in the call.
    """

    node: cst.BaseExpression
    origin: str | None


def is_literal(expr: cst.BaseExpression) -> bool:
    """True when ``expr`` is written out in full in the source: no names, no calls.

    ``True``/``False``/``None``, numbers (with a sign), strings (f-strings only when
    every replacement field is itself literal) and containers of literals. ``list()``,
    ``tuple()`` and ``dict(...)`` with literal arguments count too: the declaration
    API treats ``dict(...)`` as a literal part.
    """
    if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return True
    if isinstance(expr, cst.Name):
        return expr.value in _LITERAL_NAMES
    if isinstance(expr, cst.ConcatenatedString):
        return is_literal(expr.left) and is_literal(expr.right)
    if isinstance(expr, cst.FormattedString):
        return all(
            not isinstance(part, cst.FormattedStringExpression) or is_literal(part.expression)
            for part in expr.parts
        )
    if isinstance(expr, cst.UnaryOperation):
        return isinstance(expr.operator, (cst.Minus, cst.Plus)) and isinstance(
            expr.expression, (cst.Integer, cst.Float, cst.Imaginary)
        )
    if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
        return all(
            isinstance(el, cst.Element) and is_literal(el.value) for el in expr.elements
        )
    if isinstance(expr, cst.Dict):
        return all(
            isinstance(el, cst.DictElement) and is_literal(el.key) and is_literal(el.value)
            for el in expr.elements
        )
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
        if expr.func.value in ("list", "tuple") and not expr.args:
            return True
        if expr.func.value == "dict":
            return all(arg.keyword is not None and is_literal(arg.value) for arg in expr.args)
    return False


class Resolver:
    """Answers "what is this expression's value?" for the expressions of one call."""

    def __init__(self, call: CallSite) -> None:
        self.call = call

    def resolve(self, expr: cst.BaseExpression) -> Resolved | None:
        """The provable value of ``expr``, or None when it cannot be proved.

        A literal resolves to itself (``origin`` None). Everything else is unknown in
        this version.
        """
        if is_literal(expr):
            return Resolved(expr, None)
        return None
