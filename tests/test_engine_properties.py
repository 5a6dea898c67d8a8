"""Properties of the engine over generated input: it never raises, positions fit."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantics_lint import vocabulary
from semantics_lint.lint.core.source import split_lines
from semantics_lint.lint.engine import lint_source

_PREFIXES = [
    b"",
    b"from semantics_lint.runtime import absent, coverage\n",
    b"described_result(",
    b"# -*- coding: latin-1 -*-\n",
    b"\xef\xbb\xbf",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_PREFIXES), st.binary(max_size=200))
def test_arbitrary_bytes_never_raise(prefix: bytes, tail: bytes) -> None:
    findings = lint_source(prefix + tail, "fuzz.py")
    assert all(f.code.startswith("SEM") for f in findings)


_KEYS = sorted(
    {
        *vocabulary.DESCRIBED_RESULT_FIELDS,
        *vocabulary.PROVENANCE_FIELDS,
        *vocabulary.CAMEL_TO_SNAKE.values(),
        *vocabulary.DERIVED_FIELDS,
        "entity",
        "measuerdAt",
        "ünïcode",
    }
)
_VALUES = [
    "[]",
    "()",
    "rows",
    "'2024-05-01'",
    "None",
    "{}",
    "[{'entity': ''}]",
    "f'{x}'",
    "1",
    "-1",
]


@st.composite
def _dicts(draw: st.DrawFn, depth: int = 0) -> str:
    items = []
    for _ in range(draw(st.integers(0, 4))):
        key = draw(st.sampled_from(_KEYS))
        quote = draw(st.sampled_from(["'", '"']))
        if depth < 2 and draw(st.booleans()):
            value = draw(_dicts(depth + 1))
        else:
            value = draw(st.sampled_from(_VALUES))
        items.append(f"{quote}{key}{quote}: {value}")
    if draw(st.booleans()):
        items.append("**extra")
    separator = draw(st.sampled_from([", ", ",\n    ", " ,  "]))
    return "{" + separator.join(items) + "}"


@st.composite
def _calls(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(["described_result", "describedResult", "absent", "coverage"]))
    args = [] if name != "coverage" else ["verdict"]
    for _ in range(draw(st.integers(0, 5))):
        key = draw(st.sampled_from([k for k in _KEYS if k.isidentifier()]))
        value = draw(st.one_of(_dicts(), st.sampled_from(_VALUES)))
        args.append(f"{key}={value}")
    if draw(st.booleans()):
        args = [draw(_dicts())]
    indent = draw(st.sampled_from(["", "    "]))
    body = f"{name}(" + ", ".join(args) + ")"
    if indent:
        return f"def tool(rows, verdict, extra, x):\n    x = 'é'; return {body}\n"
    return f"x = 'é'; {body}\n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_calls(), st.sampled_from(["\n", "\r\n"]))
def test_generated_declarations_lint_with_positions_inside_the_file(call: str, newline: str) -> None:
    source = "from semantics_lint.runtime import absent, coverage\n" + call
    source = source.replace("\n", newline)
    findings = lint_source(source.encode("utf-8"), "gen.py")
    lines = split_lines(source)
    seen_keys = set()
    for finding in findings:
        assert finding.code != "SEM001", finding  # generated code is valid Python
        for position in (finding.start, finding.end):
            assert 1 <= position.line <= len(lines)
            assert 0 <= position.column <= len(lines[position.line - 1])
        if finding.code in ("SEM101", "SEM102", "SEM103"):
            # A key finding sits on a key: the text there is a quoted key or a keyword.
            text = lines[finding.start.line - 1][finding.start.column : finding.end.column]
            assert text.strip("'\"") in _KEYS, (finding, text)
            seen_keys.add((finding.start, finding.code))
    # One mistake, one finding: no key carries two key codes.
    positions = [start for start, _ in seen_keys]
    assert len(positions) == len(set(positions))
