"""Property tests of the safe fix: generated declarations, fixed by the real engine.

Each example is a module of tool functions whose declarations mix camelCase and
snake_case keys at every level: keyword arguments, dict literals (both quote styles,
string prefixes, parenthesized keys, comments after items, one-line and multi-line
layouts), ``dict(...)`` calls and nested parts, in every call spelling the engine
recognizes. The generator renders every module twice: as written, and as it must read
after fixing (each snake_case key in its camelCase spelling, every other character the
same). Decoys that must never change sit beside them: wire envelopes built by hand,
snake_case keywords of other calls, attribute names and comments that contain
snake_case field names.

The properties: the fixed module is exactly the expected text (so its ``ast`` differs
from the original only in the renamed keys), it parses, no SEM102 remains, every
snake_case key was reported, and fixing again changes nothing.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Sequence
from typing import Union

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from semantics_lint import vocabulary
from semantics_lint.lint.engine import LintSettings, lint_source
from semantics_lint.lint.run.fix import fix_source

# A piece of generated source: the same text before and after fixing, or a pair
# (as written, as fixed).
Piece = Union[str, "tuple[str, str]"]
Draw = Callable[[st.SearchStrategy], object]

SETTINGS = LintSettings()
COMMENTS = (
    "# why",
    "# measured_at stays in comments",
    "# is_counter: see the docs",
    "#",
    "# a form feed \x0c and a line separator \u2028 are not line breaks",
    "# \U0001f600 wide \u4e00 characters",
)
PREFIXES = ("", "u", "r", "U", "R")
QUOTES = ("'", '"')


def render(pieces: Sequence[Piece], fixed: bool) -> str:
    out = []
    for piece in pieces:
        if isinstance(piece, tuple):
            out.append(piece[1] if fixed else piece[0])
        else:
            out.append(piece)
    return "".join(out)


def snake_count(pieces: Sequence[Piece]) -> int:
    return sum(1 for piece in pieces if isinstance(piece, tuple))


def spelled(draw: Draw, field: str) -> Piece:
    """The field as the author wrote it: camelCase, or its snake_case slip."""
    snake = vocabulary.CAMEL_TO_SNAKE.get(field)
    if snake is not None and draw(st.booleans()):
        return (snake, field)
    return field


def string(draw: Draw, text: str) -> str:
    quote = draw(st.sampled_from(QUOTES))
    return f"{draw(st.sampled_from(PREFIXES))}{quote}{text}{quote}"


def items(draw: Draw, entries: list[list[Piece]], open_: str, close: str, indent: str) -> list[Piece]:
    """Join rendered entries, on one line or one per line with optional comments."""
    if not entries:
        return [open_, close]
    if draw(st.booleans()):
        out: list[Piece] = [open_]
        for index, entry in enumerate(entries):
            if index:
                out.append(", ")
            out.extend(entry)
        return [*out, close]
    inner = indent + "    "
    out = [open_, "\n"]
    for entry in entries:
        out.append(inner)
        out.extend(entry)
        out.append(",")
        if draw(st.booleans()):
            out.append("  " + draw(st.sampled_from(COMMENTS)))
        out.append("\n")
    return [*out, indent, close]


def part(
    draw: Draw, fields: Sequence[str], value: Callable[[str, str], list[Piece]], indent: str
) -> list[Piece]:
    """A nested part: a dict literal or a ``dict(...)`` call over some of ``fields``."""
    chosen = draw(st.lists(st.sampled_from(fields), min_size=1, max_size=len(fields), unique=True))
    inner = indent + "    "
    if draw(st.integers(0, 3)) == 0:
        entries = [[spelled(draw, f), "=", *value(f, inner)] for f in chosen]
        return items(draw, entries, "dict(", ")", indent)
    entries = []
    for f in chosen:
        quote = draw(st.sampled_from(QUOTES))
        prefix = draw(st.sampled_from(PREFIXES))
        separator = draw(st.sampled_from((": ", ":", " : ")))
        key: list[Piece] = [prefix, quote, spelled(draw, f), quote]
        if draw(st.integers(0, 5)) == 0:
            key = ["(", *key, ")"]  # a parenthesized key is still the key
        entries.append([*key, separator, *value(f, inner)])
    return items(draw, entries, "{", "}", indent)


def coverage_items(draw: Draw, indent: str) -> list[Piece]:
    entries: list[list[Piece]] = []
    for _ in range(draw(st.integers(1, 2))):
        what, why = string(draw, "PPDM"), string(draw, "not collected here")
        entries.append(["{", string(draw, "what"), ": ", what, ", ", string(draw, "why"), ": ", why, "}"])
    return items(draw, entries, "[", "]", indent)


def value_of(draw: Draw) -> Callable[[str, str], list[Piece]]:
    def value(field: str, indent: str) -> list[Piece]:
        if field in ("notChecked", "cannotCover"):
            return coverage_items(draw, indent)
        if field in ("checked", "candidates", "columns", "tryInstead", "inProgress"):
            return ["[", string(draw, "every job"), "]"]
        if field == "facts":
            return ["[{", string(draw, "entity"), ": vm}]"]
        if field == "series":
            keys = ("t", "entity", "metric", "value")
            return ["[{", ", ".join(f"{string(draw, k)}: {k}_" for k in keys), "}]"]
        if field == "edges":
            return ["[{'from': a, 'to': b, 'kind': 'uses'}]"]
        if field == "grain":
            return part(draw, vocabulary.GRAIN_FIELDS, value, indent)
        if field == "provenance":
            return part(draw, vocabulary.PROVENANCE_FIELDS, value, indent)
        if field == "coverage":
            return part(draw, vocabulary.COVERAGE_FIELDS, value, indent)
        if field == "clarify":
            return part(draw, vocabulary.CLARIFY_FIELDS, value, indent)
        if field == "render":
            return part(draw, vocabulary.RENDER_FIELDS, value, indent)
        if field == "period":
            return part(draw, vocabulary.PERIOD_FIELDS, value, indent)
        if field == "measuredAt":
            # An attribute with a snake_case field name: never touched.
            return [draw(st.sampled_from(("export.measured_at", "export.exported_at", "t")))]
        if field in ("isCounter",):
            return [draw(st.sampled_from(("False", "True")))]
        if field == "ageSeconds":
            return ["5"]
        # Wide characters before a key on the same line: columns count code points.
        return [string(draw, draw(st.sampled_from(("daily", "\U0001f600 daily", "\u00e9t\u00e9"))))]

    return value


@st.composite
def call(draw: Draw) -> list[Piece]:
    value = value_of(draw)
    indent = "    "
    kind = draw(st.sampled_from(("described_result", "described_result_dict", "absent", "coverage")))
    # Every way the engine recognizes a call of ours: by name, by alias, through the
    # module, from either API module.
    names = {
        "described_result": ("described_result", "describedResult", "sl.described_result"),
        "described_result_dict": ("described_result", "sl.describedResult"),
        "absent": ("absent", "nothing_found", "sl.absent", "agentfootprint.absent"),
        "coverage": ("coverage", "sl.coverage", "agentfootprint.coverage"),
    }
    name = draw(st.sampled_from(names[kind]))
    if kind == "described_result_dict":
        body = part(draw, vocabulary.DESCRIBED_RESULT_FIELDS, value, indent)
        return [f"{name}(", *body, ")"]
    fields = {
        "described_result": vocabulary.DESCRIBED_RESULT_FIELDS,
        "absent": vocabulary.ABSENT_FIELDS,
        "coverage": vocabulary.LEDGER_FIELDS,
    }[kind]
    chosen = draw(st.lists(st.sampled_from(fields), min_size=1, max_size=len(fields), unique=True))
    entries = [[spelled(draw, f), "=", *value(f, indent + "    ")] for f in chosen]
    if kind == "coverage":
        entries.insert(0, ["verdict"])
    return items(draw, entries, f"{name}(", ")", indent)


@st.composite
def module(draw: Draw) -> list[Piece]:
    pieces: list[Piece] = [
        "import agentfootprint\n",
        "import semantics_lint.runtime as sl\n",
        "from semantics_lint.runtime import absent, coverage, described_result\n",
        "from semantics_lint.runtime import absent as nothing_found\n",
    ]
    for number in range(draw(st.integers(1, 3))):
        pieces.append(f"\n\ndef tool_{number}(vm, export, verdict, a, b):\n")
        if draw(st.booleans()):
            # A hand-built wire envelope: snake_case is right here and must stay.
            pieces.append("    record = {'af_semantics': True, 'measured_at': export.day}\n")
        if draw(st.booleans()):
            # Snake_case keywords in calls that are not ours: never touched.
            pieces.append("    options = dict(measured_at=export.day, is_counter=False)\n")
            pieces.append("    cov.coverage(not_checked=[], read_at=export.day)\n")
        pieces.append("    return ")
        pieces.extend(draw(call()))
        pieces.append("\n")
    return pieces


EXAMPLES = 1000 if os.environ.get("CI") else 200


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(module())
def test_fixing_renames_only_the_snake_case_keys(pieces: list[Piece]) -> None:
    original, expected = render(pieces, fixed=False), render(pieces, fixed=True)
    event(f"snake_case keys: {min(snake_count(pieces), 5)}{'+' if snake_count(pieces) > 5 else ''}")
    before = lint_source(original.encode(), "tool.py", SETTINGS)
    reported = [f for f in before if f.code == "SEM102"]
    assert len(reported) == snake_count(pieces), (original, before)

    result = fix_source(original.encode(), "tool.py", SETTINGS, unsafe=False)
    fixed = result.source.decode()
    assert ast.dump(ast.parse(fixed)) == ast.dump(ast.parse(expected))
    assert fixed == expected
    assert result.changed == (snake_count(pieces) > 0)
    assert result.applied == snake_count(pieces)
    assert not [f for f in result.remaining if f.code == "SEM102"]
    assert not [f for f in lint_source(result.source, "tool.py", SETTINGS) if f.code == "SEM102"]

    again = fix_source(result.source, "tool.py", SETTINGS, unsafe=False)
    assert again.source == result.source
    assert not again.changed and again.applied == 0


@settings(max_examples=EXAMPLES // 10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(module(), st.sampled_from(("\n", "\r\n")), st.booleans())
def test_line_endings_and_bom_survive_the_fix(pieces: list[Piece], newline: str, bom: bool) -> None:
    def encode(text: str) -> bytes:
        data = text.replace("\n", newline).encode()
        return b"\xef\xbb\xbf" + data if bom else data

    original, expected = render(pieces, fixed=False), render(pieces, fixed=True)
    result = fix_source(encode(original), "tool.py", SETTINGS, unsafe=False)
    assert result.source == encode(expected)
