"""Literal declarations written as Python source, for judging by both doors.

A generated example is one call of ``described_result``/``describedResult``,
``absent`` or ``coverage`` written with literals only, as a tool module would write it:
keyword arguments and/or one positional dict, nested parts as dict displays or
``dict(...)`` calls, and, after mutation, every shape a slip of the hand gives (see
``MUTATIONS``). The call is a tree of source nodes (:class:`Atom`, :class:`Seq`,
:class:`Map`, :class:`Call`) rendered to text, so a dict may hold a key twice, as
source can; the runtime's arguments are read back from the rendered module with
:func:`call_arguments` (``ast.literal_eval``, plus ``dict(k=v)``), never by running it.
"""

from __future__ import annotations

import ast
import keyword
from dataclasses import dataclass, field, replace
from typing import Any, Union

from hypothesis import strategies as st

from semantics_lint.vocabulary import CAMEL_TO_SNAKE, is_counter_looking_aggregation

# ---------------------------------------------------------------------------
# Source nodes
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Atom:
    """A scalar literal exactly as written: ``'x'``, ``-1e999``, ``None``, ``0xff``."""

    text: str

    def render(self) -> str:
        return self.text


@dataclass(frozen=True)
class Seq:
    """A list, tuple or set display."""

    items: tuple[Node, ...]
    kind: str = "list"

    def render(self) -> str:
        inner = ", ".join(item.render() for item in self.items)
        if self.kind == "tuple":
            return f"({inner},)" if len(self.items) == 1 else f"({inner})"
        if self.kind == "set" and self.items:
            return "{" + inner + "}"
        return f"[{inner}]"


@dataclass(frozen=True)
class Map:
    """A dict display (keys may repeat, as in source), or a ``dict(k=v)`` call."""

    items: tuple[tuple[Node, Node], ...]
    call: bool = False

    def callable_form(self) -> bool:
        keys = [key_text(key) for key, _ in self.items]
        return (
            self.call
            and all(k is not None and k.isidentifier() and not keyword.iskeyword(k) for k in keys)
            and len(set(keys)) == len(keys)
        )

    def render(self) -> str:
        if self.callable_form():
            inner = ", ".join(f"{key_text(k)}={v.render()}" for k, v in self.items)
            return f"dict({inner})"
        return "{" + ", ".join(f"{k.render()}: {v.render()}" for k, v in self.items) + "}"


Node = Union[Atom, Seq, Map]


@dataclass(frozen=True)
class Call:
    """One declaration call: ``door(*args, **keywords)``, written on one or many lines."""

    door: str
    args: tuple[Node, ...] = ()
    keywords: tuple[tuple[str, Node], ...] = ()
    mutations: tuple[str, ...] = field(default=(), compare=False)
    multiline: bool = False
    disguise: tuple[str, ...] = ()
    """``(shape, data field)``: the field reached through a name, a branch or a
    conditional arm (``doors.disguise``); empty: written in the call."""

    def render(self) -> str:
        parts = [a.render() for a in self.args] + [f"{k}={v.render()}" for k, v in self.keywords]
        if self.multiline and parts:
            return f"{self.door}(\n        " + ",\n        ".join(parts) + ",\n    )"
        return f"{self.door}({', '.join(parts)})"

    def module(self) -> str:
        if self.disguise:
            from doors.disguise import module_of

            return module_of(self)
        return (
            "from semantics_lint.runtime import absent, coverage, describedResult, "
            "described_result\n\n\n"
            f"def tool():\n    return {self.render()}\n"
        )


def s(text: str) -> Atom:
    """A string literal."""
    return Atom(repr(text))


def key_text(node: Node) -> str | None:
    """The text of a string-literal key, or None for any other key."""
    if isinstance(node, Atom):
        try:
            value = ast.literal_eval(node.text)
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None
    return None


def mapping(**items: Node) -> Map:
    return Map(tuple((s(k), v) for k, v in items.items()))


def strings(*texts: str) -> Seq:
    return Seq(tuple(s(t) for t in texts))


# ---------------------------------------------------------------------------
# Reading the arguments back, as Python would build them
# ---------------------------------------------------------------------------


class NotLiteral(Exception):
    """The call holds something ``ast.literal_eval`` does not read."""


class _DictCalls(ast.NodeTransformer):
    """``dict(k=v, ...)`` as the dict display ``{'k': v, ...}`` it builds."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (
            isinstance(node.func, ast.Name)
            and node.func.id == "dict"
            and not node.args
            and all(k.arg is not None for k in node.keywords)
        ):
            return ast.Dict(
                keys=[ast.Constant(k.arg) for k in node.keywords],
                values=[k.value for k in node.keywords],
            )
        return node


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(_DictCalls().visit(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise NotLiteral(type(exc).__name__) from exc


def call_arguments(module: str) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """The door, positional values and keyword values of the call ``tool()`` returns
    (through a disguise's name, branch or arm: ``doors.disguise.read_call``)."""
    from doors.disguise import read_call

    try:
        tree = ast.parse(module)
    except SyntaxError as exc:  # two deep values nested in one another: too deep for Python
        raise NotLiteral("SyntaxError") from exc
    return read_call(tree, _literal, NotLiteral)


# ---------------------------------------------------------------------------
# Words and values
# ---------------------------------------------------------------------------

WORDS = (
    "vm-01",
    "backup runs for vm-01",
    "every backup job in the export",
    "PPDM",
    "not collected on this install",
    "the archive",
    "fabric A",
    "SRDF pair state on all 4 arrays",
    "NDM sessions",
    "the API timed out",
    "table",
    "entity",
    "the export's own timestamp",
    "newest sample in the export",
    "backup-db",
    "x",
    " padded ",
    "ünïcode",
)
texts = st.sampled_from(WORDS)

# Strings a reader may take for empty: JavaScript's trim empties the first ones;
# U+0085 and U+180E are not JavaScript whitespace (Python's strip removes U+0085).
BLANKS = ("", " ", "\t\n", "\u3000", "\u2028", "\ufeff", "\xa0")
NOT_BLANK_TO_JS = ("\x85", "\u180e", "\u200b")

HUGE_INT = "1" + "0" * 400
HUGE_HEX = "0x" + "f" * 600
# Past the 4,300 digits Python writes in decimal: str() of it raises ValueError.
HUGEST_HEX = "0x" + "f" * 4000

ODD_ATOMS = (
    *(repr(b) for b in BLANKS),
    *(repr(b) for b in NOT_BLANK_TO_JS),
    "None",
    "True",
    "False",
    "0",
    "1",
    "-1",
    "1.5",
    "-0.0",
    "1e999",
    "-1e999",
    HUGE_INT,
    "-" + HUGE_INT,
    HUGE_HEX,
    HUGEST_HEX,
    "9007199254740992",
    "b'x'",
    "1j",
    "'x'",
    "'2024-05-01T00:00:00Z'",
    "'unknown'",
)


def deep(depth: int, kind: str) -> Node:
    """A list (or dict) nested ``depth`` deep, as literal source."""
    node: Node = s("x")
    for _ in range(depth):
        node = Seq((node,)) if kind == "list" else Map(((s("what"), node),))
    return node


@st.composite
def odd_values(draw: st.DrawFn) -> Node:
    """A value of the wrong type or an edge of the right one."""
    choice = draw(st.integers(0, 9))
    if choice <= 5:
        return Atom(draw(st.sampled_from(ODD_ATOMS)))
    if choice == 6:
        return draw(
            st.sampled_from(
                [
                    Seq(()),
                    Seq((), "tuple"),
                    Map(()),
                    strings(""),
                    Seq((Map(()),)),
                    strings("x"),
                    Seq((s("x"),), "set"),
                    Seq((Atom("None"),)),
                ]
            )
        )
    if choice == 7:
        return draw(
            st.sampled_from(
                [
                    mapping(what=s("x")),
                    mapping(what=s("x"), why=s("")),
                    mapping(what=s("x"), notes=s("x")),
                    mapping(**{"from": s("2026-09-26T09:00:00"), "to": s("2026-09-26T10:00:00Z")}),
                    mapping(af_semantics=Atom("True")),
                ]
            )
        )
    if choice == 8:
        return deep(draw(st.integers(20, 150)), draw(st.sampled_from(["list", "dict"])))
    return s(draw(texts))


# ---------------------------------------------------------------------------
# Valid declarations
# ---------------------------------------------------------------------------

INSTANTS = (
    "2026-09-26T08:00:00Z",
    "2026-09-26T09:00:00Z",
    "2026-09-26T10:00:00+02:00",
    "2026-09-26T10:00:00.123456789Z",
    "2026-09-27T00:00:00z",
)


@st.composite
def coverage_items(draw: st.DrawFn, why: bool, min_size: int = 0) -> Seq:
    items: list[Node] = []
    for _ in range(draw(st.integers(min_size, 3))):
        shape = draw(st.integers(0, 2))
        if shape == 0 and not why:
            items.append(s(draw(texts)))
        elif shape == 1 and not why:
            items.append(mapping(what=s(draw(texts))))
        else:
            items.append(mapping(what=s(draw(texts)), why=s(draw(texts))))
    return Seq(tuple(items), draw(st.sampled_from(["list", "list", "list", "tuple"])))


@st.composite
def coverage_lists(draw: st.DrawFn) -> dict[str, Node]:
    """checked/notChecked/cannotCover with at least one item in all."""
    while True:
        lists: dict[str, Node] = {}
        for name, why in (("checked", False), ("notChecked", False), ("cannotCover", True)):
            if draw(st.booleans()):
                lists[name] = draw(coverage_items(why))
        if any(isinstance(v, Seq) and v.items for v in lists.values()):
            return lists
        lists["checked"] = draw(coverage_items(False, 1))
        return lists


def _dict(draw: st.DrawFn, items: dict[str, Node]) -> Map:
    return Map(tuple((s(k), v) for k, v in items.items()), call=draw(st.integers(0, 5)) == 5)


@st.composite
def provenance_parts(draw: st.DrawFn) -> Map:
    dated = draw(st.integers(0, 9)) == 0
    measured = "2024-05-01T00:00:00Z" if dated else draw(st.sampled_from(WORDS[12:14]))
    items: dict[str, Node] = {"measuredAt": s(measured), "source": s(draw(texts))}
    if draw(st.booleans()):
        items["ageSeconds"] = Atom(draw(st.sampled_from(["0", "5", "1.5", "3600", "1" + "0" * 300])))
    if draw(st.integers(0, 3)) == 0:
        items["sourceExportDate"] = s(draw(texts))
    order = draw(st.permutations(list(items)))
    return _dict(draw, {k: items[k] for k in order})


@st.composite
def grain_parts(draw: st.DrawFn) -> Map:
    items: dict[str, Node] = {}
    if draw(st.booleans()):
        items["interval"] = s(draw(st.sampled_from(["daily", "hourly", "5m"])))
    aggregation = None
    if draw(st.booleans()):
        aggregation = draw(st.sampled_from(["count", "sum", "mean", "max", "Sum of deltas", "summary"]))
        items["aggregation"] = s(aggregation)
    counter = aggregation is not None and is_counter_looking_aggregation(aggregation)
    if counter or draw(st.booleans()):
        items["isCounter"] = Atom(draw(st.sampled_from(["True", "False"])))
    if not items or draw(st.integers(0, 4)) == 0:
        items["collapsed"] = s(draw(st.sampled_from(["per host", "all arrays"])))
    return _dict(draw, items)


@st.composite
def fact_rows(draw: st.DrawFn) -> Seq:
    rows = []
    for _ in range(draw(st.integers(1, 3))):
        row: dict[str, Node] = {"entity": s(draw(texts))}
        if draw(st.booleans()):
            row["backed_up"] = Atom(draw(st.sampled_from(["True", "False"])))
        if draw(st.booleans()):
            row["runs"] = Atom(draw(st.sampled_from(["0", "3", "None"])))
        rows.append(_dict(draw, row))
    return Seq(tuple(rows))


@st.composite
def series_points(draw: st.DrawFn) -> Seq:
    points = []
    for _ in range(draw(st.integers(1, 3))):
        t = draw(st.sampled_from([s("2026-09-26"), Atom("1714550400"), Atom("1.5")]))
        points.append(
            _dict(
                draw,
                {
                    "t": t,
                    "entity": s(draw(texts)),
                    "metric": s("backup_runs_ok"),
                    "value": Atom(draw(st.sampled_from(["1", "0.5", "None", "'ok'"]))),
                },
            )
        )
    return Seq(tuple(points))


@st.composite
def edge_rows(draw: st.DrawFn) -> Seq:
    return Seq(
        tuple(
            _dict(draw, {"from": s(draw(texts)), "to": s(draw(texts)), "kind": s("replicates")})
            for _ in range(draw(st.integers(1, 2)))
        )
    )


@st.composite
def described_declarations(draw: st.DrawFn) -> dict[str, Node]:
    fields: dict[str, Node] = {}
    data = draw(st.sets(st.sampled_from(["series", "facts", "edges", "clarify"]), min_size=1))
    if "series" in data:
        fields["series"] = draw(series_points())
    if "facts" in data:
        fields["facts"] = draw(fact_rows())
    if "edges" in data:
        fields["edges"] = draw(edge_rows())
    if "series" in data or draw(st.integers(0, 3)) == 0:
        fields["grain"] = draw(grain_parts())
    if "series" in data or "facts" in data or draw(st.integers(0, 3)) == 0:
        fields["provenance"] = draw(provenance_parts())
    if draw(st.booleans()):
        fields["coverage"] = _dict(draw, draw(coverage_lists()))
    if "clarify" in data:
        clarify: dict[str, Node] = {"question": s("which vm-01?")}
        if draw(st.booleans()):
            clarify["candidates"] = draw(st.sampled_from([strings("a", "b"), Seq(()), Atom("None")]))
        fields["clarify"] = _dict(draw, clarify)
    elif draw(st.integers(0, 4)) == 0:
        fields["clarify"] = Atom("None")
    if draw(st.integers(0, 2)) == 0:
        render: dict[str, Node] = {"default": s("table")}
        for hint, value in (
            ("columns", strings("entity", "backed_up")),
            ("sort", s("entity")),
            ("filterNote", s("only VMs with a policy")),
            ("chartHint", s("bar")),
        ):
            if draw(st.booleans()):
                render[hint] = value
        fields["render"] = _dict(draw, render)
    order = draw(st.permutations(list(fields)))
    return {k: fields[k] for k in order}


@st.composite
def absent_declarations(draw: st.DrawFn) -> dict[str, Node]:
    fields: dict[str, Node] = {"what": s(draw(texts)), "checked": draw(coverage_items(False, 1))}
    if draw(st.booleans()):
        fields["notChecked"] = draw(coverage_items(False))
    if draw(st.booleans()):
        fields["cannotCover"] = draw(coverage_items(True))
    if draw(st.integers(0, 2)) == 0:
        fields["tryInstead"] = draw(st.sampled_from([s("Ask about another VM."), Atom("None")]))
    return fields


@st.composite
def spans(draw: st.DrawFn) -> Map:
    from semantics_lint.runtime.mints.absent_coverage import instant_of

    start, end = sorted(draw(st.lists(st.sampled_from(INSTANTS[:3]), min_size=2, max_size=2)), key=instant_of)
    return _dict(draw, {"from": s(start), "to": s(end)})


@st.composite
def ledger_declarations(draw: st.DrawFn) -> dict[str, Node]:
    fields: dict[str, Node] = {}
    if draw(st.booleans()):
        fields.update(draw(coverage_lists()))
    if draw(st.integers(0, 2)) == 0:
        period: dict[str, Node] = {
            "queried": draw(spans()),
            "held": draw(st.one_of(spans(), st.just(s("unknown")))),
        }
        if draw(st.booleans()):
            period["readAt"] = s(draw(st.sampled_from(INSTANTS)))
        fields["period"] = _dict(draw, period)
    if draw(st.integers(0, 2)) == 0:
        items: list[Node] = []
        for _ in range(draw(st.integers(1, 3))):
            item: dict[str, Node] = {"what": s(draw(texts))}
            if draw(st.booleans()):
                item["why"] = s(draw(texts))
            if draw(st.booleans()):
                item["count"] = Atom(draw(st.sampled_from(["1", "7", "9007199254740991", "2.0"])))
            items.append(draw(st.sampled_from([s(draw(texts)), _dict(draw, item)])))
        fields["inProgress"] = Seq(tuple(items))
        if not (isinstance(fields.get("checked"), Seq) and fields["checked"].items):  # type: ignore[union-attr]
            fields["checked"] = draw(coverage_items(False, 1))
    if not fields:
        fields["checked"] = draw(coverage_items(False, 1))
    return fields


CONTENTS = (
    s("verdict: healthy"),
    Atom("0"),
    Atom("None"),
    strings("a", "b"),
    mapping(status=s("ok")),
    mapping(af_semantics=Atom("1")),
    mapping(af_absent=Atom("True"), checked=strings("x")),
)


@st.composite
def valid_calls(draw: st.DrawFn) -> Call:
    """A declaration every door should accept (but for SEM203: a date in measuredAt)."""
    door = draw(st.sampled_from(["described_result", "absent", "coverage"]))
    if door == "described_result":
        fields = draw(described_declarations())
        door = draw(st.sampled_from(["described_result", "described_result", "describedResult"]))
    elif door == "absent":
        fields = draw(absent_declarations())
    else:
        fields = draw(ledger_declarations())
    head: tuple[Node, ...] = (draw(st.sampled_from(CONTENTS)),) if door == "coverage" else ()
    multiline = draw(st.booleans())
    if draw(st.integers(0, 3)) == 0:
        return Call(door, (*head, _dict(draw, fields)), (), multiline=multiline)
    return Call(door, head, tuple(fields.items()), multiline=multiline)


# ---------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------

# A path to a node of a call: ("arg", i) | ("kw", i), then ("v", i) / ("k", i) for the
# value / key of a dict's i-th entry, ("i", j) for a sequence's j-th item.
Step = tuple[str, int]
NodePath = tuple[Step, ...]

UNKNOWN_KEYS = (
    "context",
    "notes",
    "extra",
    "kind",
    "type",
    "id",
    "note",
    "notCovered",
    "not_covered",
    "af_semantics",
    "entity",
    "what",
    "why",
    "count",
    "measuerdAt",
    "sorce",
    "MeasuredAt",
    "period",
    "coverage",
    "grainy",
    "",
    " what",
)
ODD_KEYS = ("1", "None", "True", "(1, 2)", "b'what'", "1.5", "-1", HUGEST_HEX)


def _get(call: Call, path: NodePath) -> Node:
    step, index = path[0]
    node: Node = call.args[index] if step == "arg" else call.keywords[index][1]
    for step, index in path[1:]:
        if step == "i":
            assert isinstance(node, Seq)
            node = node.items[index]
        else:
            assert isinstance(node, Map)
            node = node.items[index][0 if step == "k" else 1]
    return node


def _set(call: Call, path: NodePath, new: Node) -> Call:
    def rebuild(node: Node, rest: NodePath) -> Node:
        if not rest:
            return new
        (step, index), tail = rest[0], rest[1:]
        if step == "i":
            assert isinstance(node, Seq)
            items = list(node.items)
            items[index] = rebuild(items[index], tail)
            return replace(node, items=tuple(items))
        assert isinstance(node, Map)
        entries = list(node.items)
        key, value = entries[index]
        entries[index] = (rebuild(key, tail), value) if step == "k" else (key, rebuild(value, tail))
        return replace(node, items=tuple(entries))

    step, index = path[0]
    if step == "arg":
        args = list(call.args)
        args[index] = rebuild(args[index], path[1:])
        return replace(call, args=tuple(args))
    keywords = list(call.keywords)
    name, value = keywords[index]
    keywords[index] = (name, rebuild(value, path[1:]))
    return replace(call, keywords=tuple(keywords))


def _walk(call: Call) -> list[tuple[NodePath, Node]]:
    found: list[tuple[NodePath, Node]] = []

    def visit(path: NodePath, node: Node) -> None:
        found.append((path, node))
        if isinstance(node, Seq):
            for j, item in enumerate(node.items):
                visit((*path, ("i", j)), item)
        elif isinstance(node, Map):
            for j, (_, value) in enumerate(node.items):
                visit((*path, ("v", j)), value)

    for i, arg in enumerate(call.args):
        visit((("arg", i),), arg)
    for i, (_, value) in enumerate(call.keywords):
        visit((("kw", i),), value)
    return found


def _typo(key: str, draw: st.DrawFn) -> str:
    if len(key) < 3:
        return key + "s"
    i = draw(st.integers(0, len(key) - 2))
    how = draw(st.integers(0, 2))
    if how == 0:
        return key[:i] + key[i + 1] + key[i] + key[i + 2 :]
    if how == 1:
        return key[:i] + key[i + 1 :]
    return key[0].upper() + key[1:] if key[0].islower() else key.lower()


def _keyword_names(call: Call) -> set[str]:
    return {k for k, _ in call.keywords}


@st.composite
def mutate_once(draw: st.DrawFn, call: Call) -> Call:
    """``call`` with one mutation applied (or unchanged when none fits)."""
    nodes = _walk(call)
    maps = [(p, n) for p, n in nodes if isinstance(n, Map) and n.items]
    seqs = [(p, n) for p, n in nodes if isinstance(n, Seq)]
    how = draw(st.sampled_from(MUTATIONS))
    tag = how

    if how in ("snake_key", "typo_key", "unknown_key", "duplicate_key", "odd_key", "drop_key"):
        # The call's own keywords are a map too.
        use_keywords = bool(call.keywords) and draw(st.integers(0, 3)) == 0
        if use_keywords:
            names = list(_keyword_names(call))
            j = draw(st.integers(0, len(call.keywords) - 1))
            name, value = call.keywords[j]
            keywords = list(call.keywords)
            if how == "snake_key" and name in CAMEL_TO_SNAKE:
                keywords[j] = (CAMEL_TO_SNAKE[name], value)
            elif how == "typo_key":
                new = _typo(name, draw)
                if new.isidentifier() and not keyword.iskeyword(new) and new not in names:
                    keywords[j] = (new, value)
            elif how == "unknown_key":
                new = draw(st.sampled_from(UNKNOWN_KEYS))
                if new.isidentifier() and not keyword.iskeyword(new) and new not in names:
                    keywords.insert(draw(st.integers(0, len(keywords))), (new, draw(odd_values())))
            elif how == "drop_key":
                del keywords[j]
            else:
                return call
            return replace(call, keywords=tuple(keywords), mutations=(*call.mutations, f"{tag}@kw"))
        if not maps:
            return call
        path, node = maps[draw(st.integers(0, len(maps) - 1))]
        entries = list(node.items)
        j = draw(st.integers(0, len(entries) - 1))
        key, value = entries[j]
        text = key_text(key)
        if how == "snake_key":
            if text not in CAMEL_TO_SNAKE:
                return call
            entries[j] = (s(CAMEL_TO_SNAKE[text]), value)
        elif how == "typo_key":
            if text is None:
                return call
            entries[j] = (s(_typo(text, draw)), value)
        elif how == "unknown_key":
            entries.insert(
                draw(st.integers(0, len(entries))),
                (s(draw(st.sampled_from(UNKNOWN_KEYS))), draw(odd_values())),
            )
        elif how == "duplicate_key":
            again = draw(st.one_of(odd_values(), st.just(value)))
            entries.insert(draw(st.integers(0, len(entries))), (key, again))
        elif how == "odd_key":
            entries.insert(
                draw(st.integers(0, len(entries))),
                (
                    Atom(draw(st.sampled_from(ODD_KEYS))),
                    draw(st.one_of(odd_values(), st.just(value))),
                ),
            )
        else:
            del entries[j]
        mutated = _set(call, path, replace(node, items=tuple(entries)))
        return replace(mutated, mutations=(*call.mutations, tag))

    if how in ("empty_seq", "retype_seq", "odd_item", "drop_item"):
        if not seqs:
            return call
        path, node = seqs[draw(st.integers(0, len(seqs) - 1))]
        items = list(node.items)
        if how == "empty_seq":
            new: Node = replace(node, items=())
        elif how == "retype_seq":
            new = replace(node, kind=draw(st.sampled_from(["tuple", "set", "list"])))
        elif how == "odd_item":
            items.insert(draw(st.integers(0, len(items))), draw(odd_values()))
            new = replace(node, items=tuple(items))
        else:
            if not items:
                return call
            del items[draw(st.integers(0, len(items) - 1))]
            new = replace(node, items=tuple(items))
        return replace(_set(call, path, new), mutations=(*call.mutations, tag))

    if how == "odd_value":
        if not nodes:
            return call
        path, _ = nodes[draw(st.integers(0, len(nodes) - 1))]
        if path[0][0] == "arg" and len(path) == 1 and call.door == "coverage" and path[0][1] == 0:
            tag = "odd_content"
        return replace(_set(call, path, draw(odd_values())), mutations=(*call.mutations, tag))

    if how == "dict_and_keywords":
        positional = Map(((s(draw(st.sampled_from(["what", "facts", "checked"]))), strings("x")),))
        head = call.args[:1] if call.door == "coverage" else ()
        if call.door == "coverage" and not head:
            return call
        if len(call.args) > len(head):
            if not call.keywords:
                return replace(
                    call,
                    keywords=((draw(st.sampled_from(["cannotCover", "provenance", "checked"])), Seq(())),),
                    mutations=(*call.mutations, tag),
                )
            return call
        return replace(call, args=(*head, positional), mutations=(*call.mutations, tag))

    if how == "positional_not_dict":
        odd = draw(st.sampled_from([Seq(()), Atom("5"), s("x"), Atom("None"), strings("x"), Atom("True")]))
        head = call.args[:1] if call.door == "coverage" else ()
        if call.door == "coverage" and not head:
            head = (s("v"),)
        return replace(call, args=(*head, odd), mutations=(*call.mutations, tag))

    if how == "no_content":
        if call.door != "coverage" or not call.args:
            return call
        decl = call.args[1] if len(call.args) == 2 else None
        if isinstance(decl, Map):
            keywords = tuple(
                (k, v)
                for k, v in ((key_text(key), value) for key, value in decl.items)
                if k is not None and k.isidentifier() and not keyword.iskeyword(k)
            )
            unique = dict(keywords)
            return replace(call, args=(), keywords=tuple(unique.items()), mutations=(*call.mutations, tag))
        return replace(call, args=(), mutations=(*call.mutations, tag))

    if how == "wire_content":
        if call.door != "coverage":
            return call
        envelope = mapping(af_semantics=Atom("True"), facts=Seq((mapping(entity=s("x")),)))
        return replace(call, args=(envelope, *call.args[1:]), mutations=(*call.mutations, tag))

    if how == "derived_key":
        if call.door not in ("described_result", "describedResult"):
            return call
        name = draw(st.sampled_from(["notCovered", "not_covered", "note", "af_semantics"]))
        value = draw(st.sampled_from([strings("x"), s("x"), Atom("True")]))
        if len(call.args) == 1 and isinstance(call.args[0], Map):
            decl = call.args[0]
            return replace(
                call,
                args=(replace(decl, items=(*decl.items, (s(name), value))),),
                mutations=(*call.mutations, tag),
            )
        if name in _keyword_names(call):
            return call
        return replace(call, keywords=(*call.keywords, (name, value)), mutations=(*call.mutations, tag))

    if how == "bad_number":
        # A value of the right type that is not allowed, where one is judged.
        bad = {
            "ageSeconds": ["-1", "-0.5", "1e999", "-1e999", HUGE_INT],
            "count": ["0", "-3", "1.5", "9007199254740992", "1e999"],
            "from": ["'2026-09-26T09:00:00'", "'2026-02-30T00:00:00Z'", "'yesterday'"],
            "to": ["'2026-09-26'", "'2026-09-26T24:00:00Z'"],
            "readAt": ["'2026-09-26T09:00:00'", "''"],
            "held": ["'Unknown'", "'since 2020'"],
        }
        sites = [
            (path, j, bad[k])
            for path, node in nodes
            if isinstance(node, Map)
            for j, (key, _) in enumerate(node.items)
            if (k := key_text(key)) in bad
        ]
        if not sites:
            return call
        path, j, texts_ = sites[draw(st.integers(0, len(sites) - 1))]
        new_value = Atom(draw(st.sampled_from(texts_)))
        return replace(_set(call, (*path, ("v", j)), new_value), mutations=(*call.mutations, tag))

    if how == "unstate_counter":
        for path, node in nodes:
            if isinstance(node, Map):
                keys = [key_text(k) for k, _ in node.items]
                if {"interval", "aggregation", "isCounter", "collapsed"} & set(keys):
                    # A counter-looking aggregation, and isCounter left unstated.
                    entries = tuple(
                        e for e in node.items if key_text(e[0]) not in ("isCounter", "aggregation")
                    ) + ((s("aggregation"), s("sum")),)
                    return replace(
                        _set(call, path, replace(node, items=entries)),
                        mutations=(*call.mutations, tag),
                    )
        return call

    if how == "date_measured_at":
        for path, node in nodes:
            if isinstance(node, Map):
                for j, (key, _) in enumerate(node.items):
                    if key_text(key) == "measuredAt":
                        return replace(
                            _set(call, (*path, ("v", j)), s("2024-05-01")),
                            mutations=(*call.mutations, tag),
                        )
        return call

    raise AssertionError(how)


_WEIGHTS = {
    "snake_key": 3,
    "typo_key": 2,
    "unknown_key": 3,
    "duplicate_key": 3,
    "odd_key": 2,
    "drop_key": 3,
    "empty_seq": 2,
    "retype_seq": 1,
    "odd_item": 3,
    "drop_item": 1,
    "odd_value": 8,
    "dict_and_keywords": 1,
    "positional_not_dict": 1,
    "no_content": 1,
    "wire_content": 1,
    "date_measured_at": 1,
    "derived_key": 1,
    "unstate_counter": 2,
    "bad_number": 2,
}
MUTATIONS = tuple(name for name, weight in _WEIGHTS.items() for _ in range(weight))
"""Every mutation, as often as it is drawn."""


@st.composite
def calls(draw: st.DrawFn, max_mutations: int = 3) -> Call:
    """A valid call (about one in five) or one mutated up to ``max_mutations`` times;
    about one in four then has a data field disguised (``doors.disguise``)."""
    from doors.disguise import disguised

    call = draw(valid_calls())
    count = 0 if draw(st.integers(0, 4)) == 0 else draw(st.integers(1, max_mutations))
    for _ in range(count):
        call = draw(mutate_once(call))
    if draw(st.integers(0, 3)) == 0:
        call = draw(disguised(call))
    return call


@st.composite
def disguised_calls(draw: st.DrawFn, max_mutations: int = 2) -> Call:
    """A call as :func:`calls` makes it, always with a data field disguised."""
    from hypothesis import assume

    from doors.disguise import disguised

    call = draw(valid_calls())
    for _ in range(draw(st.integers(0, max_mutations))):
        call = draw(mutate_once(call))
    call = draw(disguised(call))
    assume(bool(call.disguise))
    return call


def sample(count: int, seed: int, strategy: st.SearchStrategy[Call] | None = None) -> list[Call]:
    """``count`` examples drawn by Hypothesis from ``strategy`` (default :func:`calls`),
    the same for the same seed."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as with_seed

    drawn: list[Call] = []

    @with_seed(seed)
    @settings(
        max_examples=count,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy if strategy is not None else calls())
    def collect(call: Call) -> None:
        drawn.append(call)

    collect()
    return drawn
