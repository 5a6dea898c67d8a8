"""What the runtime's own checks say about values the linter reads: the linter's one door
into ``semantics_lint.runtime``.

The rule logic that both doors need lives once, in the runtime: which field a
misspelled key meant (the mint's refusal names it; SEM101 offers it as a fix), whether a
text is an ISO 8601 instant with a zone (the mint refuses a period that is not; SEM406
reports it). The rules ask here, and only here does the linter import the runtime: the
dependency runs one way, from the static door to the runtime's pure functions, never the
other way (the runtime imports the vocabulary and nothing of the linter). A test holds
both directions (``tests/test_layers.py``). SEM100 asks here what the mint refuses in a
declaration's literal values (:func:`refusals`: the mint itself judges them, through
``runtime.mints.judge``); each rule claims the refusals it reports itself
(``rules.base.Claim``), SEM100 the rest, so the two doors agree on every literal
declaration.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from typing import Final

from semantics_lint.lint.core.syntax import UNKNOWN, is_dict_form, iter_dict_items, last_wins, literal_of
from semantics_lint.lint.resolve import FOLLOWED, may_follow
from semantics_lint.runtime.envelope.json_text import NotJSON, json_copy
from semantics_lint.runtime.envelope.refusal import (
    ARGUMENTS,
    BAD_VALUE,
    COUNTER_UNSTATED,
    DERIVED_KEY,
    EMPTY,
    MISSING,
    REFUSAL_KINDS,
    SAYS_NOTHING,
    SNAKE_CASE_KEY,
    UNKNOWN_KEY,
    UNSPECIFIED,
    WRAPPED,
    WRONG_TYPE,
    Refusal,
    meant_key,
)
from semantics_lint.runtime.mints.absent_coverage import instant_of
from semantics_lint.runtime.mints.judge import DOOR_PARTS, definition_refusal, part_refusal, refusal_of
from semantics_lint.vocabulary import SEMANTICS_MARKER

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
    "VALUE_FAULTS",
    "WRAPPED",
    "WRONG_TYPE",
    "Refusal",
    "claims_refusal",
    "closest_field",
    "followable",
    "instant",
    "json_problem",
    "refusals",
    "wraps_described_result",
]


def claims_refusal(contract: object) -> Refusal | None:
    """The runtime's refusal of a claim contract (``run_record(claims=...)``), or None."""
    from semantics_lint.runtime.claims.check import claim_contract

    try:
        claim_contract(contract)
    except Refusal as refusal:
        # Without its traceback it holds no frame: a caller that keeps it makes no cycle.
        return refusal.with_traceback(None)
    return None


def closest_field(key: str, fields: Iterable[str]) -> str | None:
    """The field a misspelled ``key`` most likely meant, as the mint's refusal names it
    (the camelCase field of a snake_case spelling, or the one close match), or None."""
    return meant_key(key, fields)


def json_problem(value: object, path: str) -> str | None:
    """What JSON cannot carry in ``value`` (a literal the linter read), as the mint's
    refusal words it (``facts[0].price is a set; ...``), or None."""
    try:
        json_copy(value, path)
    except NotJSON as error:
        return str(error)
    return None


def instant(text: str) -> tuple[int, int] | None:
    """``(seconds since the epoch, nanoseconds)`` of an ISO 8601 instant with a zone, as
    the mint reads one, or None when the mint would refuse it."""
    return instant_of(text)


# -- the mint's verdict on a declaration's literal values (SEM100) ----------------------

_KEY_KINDS = frozenset({UNKNOWN_KEY, SNAKE_CASE_KEY, DERIVED_KEY})
VALUE_FAULTS: Final = REFUSAL_KINDS - _KEY_KINDS - {WRAPPED, ARGUMENTS}
"""The kinds of refusal about a value (not about a key, the call's arguments, or a
described result wrapped in ``coverage()``)."""


def followable(kind: str, call: ast.Call) -> list[ast.expr]:
    """The values of ``call``'s top-level fields that :func:`refusals` judges when they are
    given as a name (``facts=ROWS``, ``execute=tools.RUN``): the caller follows each
    through the file's resolver and hands back the literals they are provably bound to."""
    if kind == "define_tool":
        fields: Iterable[tuple[str, ast.expr]] = _definition_fields(call) or ()
    else:
        judged = _JUDGED_ALONE[kind]
        fields = [
            (name, node)
            for name, node in (
                *(_positional_fields(kind, call.args) if call.args else ()),
                *((keyword.arg, keyword.value) for keyword in call.keywords if keyword.arg is not None),
            )
            if name in judged
        ]
    return [node for _, node in fields if isinstance(node, FOLLOWED) and may_follow(node)]


def refusals(
    kind: str, call: ast.Call, followed: Mapping[int, object] | None = None
) -> list[tuple[Refusal, ast.AST | None]]:
    """What the mint ``kind`` refuses in ``call``, judged by the mint itself on the
    literal values the source spells, each with the smallest node of ``call`` it
    concerns (None: the call as a whole).

    When every argument is a literal, the mint judges the whole call (its first
    refusal; none when it accepts). Each top-level field written as a literal is also
    judged alone, with the function the mint runs on it (``part_refusal``): a keyword,
    or a key of the positional dict when no ``**spread`` may replace it; and
    ``coverage()``'s result when it is a literal. A part whose every refusal a specific
    code reports is not judged alone: ``described_result``'s grain, and a data field
    or coverage list written as a list display. A refusal is given once. Nothing here
    runs the linted code: the values are read from the ``ast`` (``literal_of``).

    ``followed`` maps the id of a value given as a name (one of :func:`followable`) to
    the literal value the name is provably bound to: such a field is judged alone as
    if written in place, and its refusal is given at the name.

    ``define_tool`` is judged by the runtime's ``define_tool`` on the fields whose
    values are known (:func:`_definition_refusals`).
    """
    followed = followed or {}
    if kind == "define_tool":
        return _definition_refusals(call, followed)
    found: list[tuple[Refusal, ast.AST | None]] = []
    positional = call.args
    keywords = call.keywords
    read, whole, refusal = _whole_call(kind, call)
    if whole:
        if refusal is None:
            return found  # the mint accepts the call, so it accepts every part of it
        found.append((refusal, _node_of(kind, call, refusal)))
    if not whole:
        both = _dict_and_keywords(kind, call)
        if both is not None:
            found.append((both, None))
    judged = _JUDGED_ALONE[kind]
    as_list = _SPECIFIC_AS_LIST.get(kind, _NOTHING)
    parts: list[tuple[str, object, ast.expr]] = []
    if positional:
        for name, node in _positional_fields(kind, positional):
            if name in judged and not (name in as_list and type(node) in _LIST_DISPLAYS):
                parts.append((name, literal_of(node), node))
    offset = len(positional)
    for index, keyword in enumerate(keywords, offset):
        given = keyword.arg
        if given is None or given not in judged:
            continue
        node = keyword.value
        if given in as_list and type(node) in _LIST_DISPLAYS:
            continue
        parts.append((given, read[index] if index < len(read) else literal_of(node), node))
    for name, value, node in parts:
        if value is UNKNOWN:
            value = followed.get(id(node), UNKNOWN)
            if value is UNKNOWN:
                continue
        refusal = part_refusal(kind, name, value)
        if refusal is not None and all(refusal.path != known.path for known, _ in found):
            found.append((refusal, _node_of(kind, call, refusal)))
    return found


def _whole_call(kind: str, call: ast.Call) -> tuple[list[object], bool, Refusal | None]:
    """The call's arguments read as literals, until the first that is not one (most calls
    stop at their first argument: ``facts=[... for r in rows]``); whether every one was;
    and, when so, the mint's refusal of the whole call (None: it accepts it)."""
    read: list[object] = []
    positional = call.args
    for node in positional:
        value = UNKNOWN if type(node) is ast.Starred else literal_of(node)
        read.append(value)
        if value is UNKNOWN:
            return read, False, None
    keywords = call.keywords
    for keyword in keywords:
        value = UNKNOWN if keyword.arg is None else literal_of(keyword.value)
        read.append(value)
        if value is UNKNOWN:
            return read, False, None
    args = tuple(read[: len(positional)])
    kwargs = {keyword.arg: value for keyword, value in zip(keywords, read[len(positional) :], strict=True)}
    return read, True, refusal_of(kind, args, kwargs)  # type: ignore[arg-type]


def _definition_fields(call: ast.Call) -> list[tuple[str, ast.expr]] | None:
    """The top-level fields of a ``define_tool(...)`` call and their nodes: keywords, or
    the string keys of its one positional dict (the last of a key written twice). None
    when the call may pass fields the source does not show (a ``**spread``, a positional
    argument that is not a dict display), or passes a dict and keywords both."""
    positional = call.args
    if len(positional) > 1 or any(keyword.arg is None for keyword in call.keywords):
        return None
    if not positional:
        return [(keyword.arg, keyword.value) for keyword in call.keywords]  # type: ignore[misc]
    if call.keywords or not is_dict_form(positional[0]):
        return None
    fields: list[tuple[str, ast.expr]] = []
    for entry in last_wins(iter_dict_items(positional[0])):
        if entry is None or not isinstance(entry[0], str):
            return None  # a spread or a key that is not a string: SEM101 or the runtime's
        fields.append((entry[0], entry[2]))
    return fields


def _definition_refusals(
    call: ast.Call, followed: Mapping[int, object]
) -> list[tuple[Refusal, ast.AST | None]]:
    """What the runtime's ``define_tool`` refuses in ``call``: a dict and keywords both,
    or, judged on the fields as written with the literal values the source gives
    (written, or followed from a name), its first refusal when it concerns a key, the
    call's shape, a field whose value is known, or a field left out of a call that
    shows all its fields. A refusal of a field whose value is not known is not the
    source's fault, and hides what comes after it: nothing is said then."""
    fields = _definition_fields(call)
    if fields is None:
        both = _dict_and_keywords("define_tool", call)
        return [(both, None)] if both is not None else []
    known: dict[str, object] = {}
    for name, node in fields:
        value = literal_of(node)
        known[name] = followed.get(id(node), UNKNOWN) if value is UNKNOWN else value
    # A field whose value is not known stays, so the runtime meets the keys as written,
    # with None in its place: a refusal of that field is dropped below.
    unknown = {name for name, value in known.items() if value is UNKNOWN}
    for name in unknown:
        known[name] = None
    refusal = definition_refusal((known,) if call.args else (), {} if call.args else known)
    if refusal is None or (refusal.path and refusal.path[0] in unknown):
        return []
    return [(refusal, _node_of("define_tool", call, refusal))]


# Displays that are never None: given as the positional declaration beside keywords,
# the mint refuses the call whatever they hold (it checks "not both" first).
_NOT_NONE: Final = (
    ast.Dict,
    ast.List,
    ast.Tuple,
    ast.Set,
    ast.DictComp,
    ast.ListComp,
    ast.SetComp,
    ast.JoinedStr,
)


def _dict_and_keywords(kind: str, call: ast.Call) -> Refusal | None:
    """The mint's refusal of ``call`` for passing a declaration and keywords both, when
    the source proves it (a positional declaration that is a display, or a literal other
    than None, beside a named keyword), whatever the values: the mint refuses that
    before it reads any of them. Judged on stand-ins (the keywords' names are kept, as
    the refusal may quote them), so a call whose values are not literals is judged too."""
    offset = 1 if kind == "coverage" else 0
    positional = call.args
    if len(positional) != offset + 1 or any(type(arg) is ast.Starred for arg in positional):
        return None
    names = [keyword.arg for keyword in call.keywords if keyword.arg is not None]
    if not names:
        return None
    decl = positional[offset]
    if not (
        isinstance(decl, _NOT_NONE)
        or is_dict_form(decl)
        or (isinstance(decl, ast.Constant) and decl.value is not None)
    ):
        return None
    args: tuple[object, ...] = (0,) * offset + ({},)
    kwargs = dict.fromkeys(names)
    refusal = definition_refusal(args, kwargs) if kind == "define_tool" else refusal_of(kind, args, kwargs)
    return refusal if refusal is not None and refusal.kind == ARGUMENTS else None


# Parts whose every refusal a specific code reports (the rules claim them): never judged
# alone for SEM100. A grain's refusals are SEM101-SEM103, SEM302 or SEM303.
_ALL_SPECIFIC: Final = {"described_result": frozenset({"grain"})}
# Fields that, written as a list display, can only be refused for their items (rows:
# SEM106; coverage items: SEM401, SEM405) or for being empty (SEM105, SEM402, SEM404).
_SPECIFIC_AS_LIST: Final = {
    "described_result": frozenset({"series", "facts", "edges"}),
    "absent": frozenset({"checked", "notChecked", "cannotCover"}),
    "coverage": frozenset({"checked", "notChecked", "cannotCover"}),
}
_LIST_DISPLAYS: Final = (ast.List, ast.Tuple)
_JUDGED_ALONE: Final = {
    door: frozenset(parts) - _ALL_SPECIFIC.get(door, frozenset()) for door, parts in DOOR_PARTS.items()
}


_NOTHING: Final = frozenset[str]()


def _positional_fields(kind: str, positional: list[ast.expr]) -> Iterator[tuple[str, ast.expr]]:
    """The top-level fields the positional arguments provably pass, and their nodes:
    ``coverage()``'s result, and the keys of a dict display no later ``**spread`` may
    replace."""
    if any(type(arg) is ast.Starred for arg in positional):
        return  # the indexes of the positional arguments are unknown
    rest = list(positional)
    if kind == "coverage":
        yield "content", rest.pop(0)
    if len(rest) == 1 and is_dict_form(rest[0]):
        entries = last_wins(iter_dict_items(rest[0]))
        spread_after = False
        for entry in reversed(entries):  # a ``**spread`` may replace the keys before it
            if entry is None:
                spread_after = True
            elif not spread_after and isinstance(entry[0], str):
                yield entry[0], entry[2]


def _node_of(kind: str, call: ast.Call, refusal: Refusal) -> ast.AST | None:
    """The smallest node of ``call`` that ``refusal`` concerns: the longest prefix of its
    path found in the source (for a key written twice, the last), the key itself for a
    refused key; the positional argument at fault; else None (the call)."""
    path = refusal.path
    if not path:
        argument = refusal.argument
        if argument is not None and 0 <= argument < len(call.args):
            return call.args[argument]
        return None
    head = path[0]
    node: ast.AST | None = None
    key_node: ast.AST | None = None
    for keyword in call.keywords:
        if keyword.arg == head:
            node, key_node = keyword.value, keyword
    positional = call.args
    declaration_at = 1 if kind == "coverage" else 0  # coverage(result, declaration)
    if node is None and len(positional) == declaration_at + 1:
        holder = positional[declaration_at]
        if is_dict_form(holder):
            node, key_node = _entry(holder, head)
    if node is None:
        return None
    for segment in path[1:]:
        if is_dict_form(node):  # type: ignore[arg-type]
            value, key = _entry(node, segment)  # type: ignore[arg-type]
            if value is None:
                break
            node, key_node = value, key
        elif (
            isinstance(node, (ast.List, ast.Tuple))
            and isinstance(segment, int)
            and not isinstance(segment, bool)
        ):
            elements = node.elts
            if any(isinstance(element, ast.Starred) for element in elements) or not 0 <= segment < len(
                elements
            ):
                break
            node, key_node = elements[segment], None
        else:
            break
    else:
        if refusal.kind in _KEY_KINDS and key_node is not None:
            return key_node
    return node


def _entry(holder: ast.expr, key: object) -> tuple[ast.expr | None, ast.AST | None]:
    found: tuple[ast.expr | None, ast.AST | None] = (None, None)
    for entry in iter_dict_items(holder):
        if entry is not None:
            try:
                if entry[0] == key and type(entry[0]) is type(key):
                    found = (entry[2], entry[1])
            except (TypeError, ValueError):
                continue
    return found


def wraps_described_result(content: ast.expr) -> bool:
    """True when ``content``, the result a ``coverage()`` call wraps, is a dict written in
    the source that the mint takes for a described result (a wire envelope with its
    marker), whatever its other values: its marker key (the last, when written twice,
    and no ``**spread`` after it) is judged by the mint on its literal value."""
    if not is_dict_form(content):
        return False
    for entry in reversed(list(iter_dict_items(content))):
        if entry is None:
            return False  # a spread may replace the marker
        if entry[0] == SEMANTICS_MARKER and isinstance(entry[0], str):
            value = literal_of(entry[2])
            if value is UNKNOWN:
                return False
            refusal = part_refusal("coverage", "content", {SEMANTICS_MARKER: value})
            return refusal is not None and refusal.kind == WRAPPED
    return False
