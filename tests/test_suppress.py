"""``# noqa`` parsing and filtering: flake8's grammar on the reported line."""

from __future__ import annotations

import pytest

from semantics_lint.lint.core.model import Finding, Position, Severity
from semantics_lint.lint.run.suppress import filter_noqa, noqa_lines, parse_noqa, physical_lines


def finding(code: str, line: int) -> Finding:
    return Finding(code, "m", Severity.ERROR, "t.py", Position(line, 4), Position(line, 8))


@pytest.mark.parametrize(
    ("line", "codes"),
    [
        ("x = 1  # noqa", None),
        ("x = 1  # NOQA", None),
        ("x = 1  # NoQA", None),
        ("x = 1  # noqa: SEM102", ("SEM102",)),
        ("x = 1  # noqa:SEM102,SEM203", ("SEM102", "SEM203")),
        ("x = 1  # noqa: SEM102, SEM203", ("SEM102", "SEM203")),
        ("x = 1  # noqa: SEM102 SEM203", ("SEM102", "SEM203")),
        ("x = 1  # noqa:SEM1", ("SEM1",)),
        # flake8 reads a colon without codes as a blanket noqa.
        ("x = 1  # noqa: please", None),
        ("x = 1  # noqa : SEM102", None),
    ],
)
def test_parse_noqa(line: str, codes: tuple[str, ...] | None) -> None:
    parsed = parse_noqa(line)
    assert parsed is not None
    assert parsed.codes == codes


@pytest.mark.parametrize("line", ["x = 1", "x = 1  # no qa", "x = 1  # noq", "# nosec"])
def test_no_noqa(line: str) -> None:
    assert parse_noqa(line) is None


def test_suppresses_exact_code_and_prefix_only() -> None:
    noqa = parse_noqa("# noqa: SEM102,SEM4")
    assert noqa is not None
    assert noqa.suppresses("SEM102")
    assert noqa.suppresses("SEM401")
    assert not noqa.suppresses("SEM203")
    # Codes compare case-sensitively, as in flake8.
    lower = parse_noqa("# noqa: sem102")
    assert lower is not None and not lower.suppresses("SEM102")


def test_filter_noqa_applies_to_the_reported_line_only() -> None:
    text = (
        "a = described_result(\n"
        "    provenance={'measured_at': t},  # noqa: SEM102\n"
        "    grain={'is_counter': False},\n"
        "    render={'chart_hint': 'x'},  # noqa\n"
        "    facts=[],  # noqa: SEM203\n"
        ")\n"
    )
    findings = [
        finding("SEM102", 2),
        finding("SEM102", 3),
        finding("SEM502", 4),
        finding("SEM105", 5),
    ]
    kept = filter_noqa(text, findings)
    assert [(f.code, f.start.line) for f in kept] == [("SEM102", 3), ("SEM105", 5)]


def test_filter_noqa_without_any_noqa_keeps_everything() -> None:
    findings = [finding("SEM102", 1)]
    assert filter_noqa("x = 1\n", findings) == findings


def test_multi_line_string_shares_its_comment_as_in_flake8() -> None:
    text = 'x = f("""\nline two\n""")  # noqa: SEM203\ny = 2\n'
    mapping = noqa_lines(text)
    assert "# noqa" in mapping[1] and "# noqa" in mapping[2]
    assert "noqa" not in mapping[4]
    kept = filter_noqa(text, [finding("SEM203", 2), finding("SEM203", 4)])
    assert [f.start.line for f in kept] == [4]


def test_untokenizable_text_falls_back_to_physical_lines() -> None:
    text = "x = (\n  1  # noqa\n"
    kept = filter_noqa(text, [finding("SEM001", 1), finding("SEM001", 2)])
    assert [f.start.line for f in kept] == [1]


def test_lines_are_counted_as_python_counts_them() -> None:
    # A form feed and U+2028 inside a string are not line breaks for the tokenizer.
    text = 'x = "a\x0cb\u2028c"\ny = 1  # noqa: SEM102\r\nz = 2\rw = 3'
    assert physical_lines(text) == [
        'x = "a\x0cb\u2028c"\n',
        "y = 1  # noqa: SEM102\r\n",
        "z = 2\r",
        "w = 3",
    ]
    kept = filter_noqa(text, [finding("SEM102", 2), finding("SEM102", 3)])
    assert [f.start.line for f in kept] == [3]
    mapping = noqa_lines('s = """a\rb"""  # noqa\rt = 1\r')
    assert "noqa" in mapping[1] and "noqa" in mapping[2] and "noqa" not in mapping[3]
