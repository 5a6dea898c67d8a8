"""The gate as CI runs it: several catalogs, one report, strict verdicts, a bounded report,
and a streamed reader that reaches the same verdict as a whole parse."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conformance_data import cases
from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.runtime.gate.catalog import parse_catalog_text
from semantics_lint.runtime.gate.check import (
    SHOWN_IN_ALL,
    SHOWN_PER_CODE,
    SemanticsCatalogError,
    check_semantics,
    coerce_semantics_catalog,
    format_semantics_report,
    judge_catalog,
)
from semantics_lint.runtime.gate.command import SemanticsCliIO, run_check_semantics_cli

FACT = {
    "af_semantics": True,
    "facts": [{"entity": "vm-01"}],
    "provenance": {"measured_at": "2026-08-19T10:20:00Z", "source": "export"},
}
COVERED = {**FACT, "coverage": {"checked": [{"what": "every VM"}]}}


def _run(argv: list[str], files: dict[str, str] | None = None) -> tuple[int, str, str]:
    out: list[str] = []
    err: list[str] = []

    def read_file(path: str) -> str:
        if files is None or path not in files:
            raise FileNotFoundError(2, "No such file or directory", path)
        return files[path]

    io = SemanticsCliIO(stdout=out.append, stderr=err.append, read_file=read_file)
    return run_check_semantics_cli(argv, io), "\n".join(out), "\n".join(err)


def _whole(text: str) -> dict[str, Any] | None:
    """The reference's path: parse whole (strict JSON), coerce, check (None when it refuses)."""
    try:
        return check_semantics(coerce_semantics_catalog(parse_catalog_text(text)))
    except SemanticsCatalogError:
        return None


def _streamed(text: str) -> dict[str, Any] | None:
    try:
        report = judge_catalog(text, all_findings=True)
    except SemanticsCatalogError:
        return None
    return {
        "ok": report.ok,
        "findings": report.findings,
        "checkedTools": report.tools,
        "checkedResults": report.results,
    }


# ---------------------------------------------------------------------------
# The streamed reader agrees with a whole parse
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("catalog"))
def test_the_streamed_reader_agrees_on_every_catalog_case(case: dict[str, Any]) -> None:
    text = json.dumps(case["input"])
    expected = _whole(text)
    assert (expected is None) == (case["expected"]["coerce"]["throws"] or case["expected"]["check"]["throws"])
    assert _streamed(text) == expected


_value = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", " ", "x", "vm"]),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(["a", "entity"]), inner, max_size=2)
    ),
    max_leaves=6,
)
_result = st.sampled_from([FACT, COVERED, {"af_absent": True, "checked": ["x"]}, "text"]) | _value
_row_keys = st.fixed_dictionaries(
    {},
    optional={
        "name": st.sampled_from(["t", "", " ", 3, None]),
        "resultClass": st.sampled_from(["triage", "inventory", "Triage", None]),
        "results": st.lists(_result, max_size=3) | _value,
        "result": _result,
        "extra": _value,
    },
)


def _dump_row(row: Any, rng: random.Random) -> str:
    """A row written with its keys in any order, sometimes a key twice."""
    if not isinstance(row, dict):
        return json.dumps(row)
    items = list(row.items())
    rng.shuffle(items)
    if items and rng.random() < 0.15:
        items.append((items[0][0], rng.choice([None, [], "t", [FACT]])))
    return "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in items) + "}"


@settings(max_examples=400, deadline=None)
@given(
    rows=st.lists(_row_keys | _value, max_size=4),
    shape=st.sampled_from(["array", "tools", "tools-first-extra", "tools-twice"]),
    seed=st.integers(0, 2**16),
    space=st.sampled_from(["", " ", "\n\t ", "\r\n"]),
)
def test_the_streamed_reader_agrees_with_a_whole_parse(
    rows: list[Any], shape: str, seed: int, space: str
) -> None:
    rng = random.Random(seed)
    body = "[" + ("," + space).join(_dump_row(row, rng) for row in rows) + "]"
    text = {
        "array": body,
        "tools": '{"tools": ' + body + "}",
        "tools-first-extra": '{"x": [1, {"tools": 2}], "tools": ' + body + ', "y": null}',
        "tools-twice": '{"tools": [{"name": 5}], "tools": ' + body + "}",
    }[shape]
    assert _streamed(space + text + space) == _whole(text)


@pytest.mark.parametrize(
    "text",
    [
        '[{"name": "t", "results": [1,]}]',
        '[{"name": "t", "results": [1] "x": 1}]',
        '[{"name": "t" "results": []}]',
        '[{"name": "t", "results": []},]',
        '[{"name": "t", "results": []}] x',
        '[{"name": "t", "results": [NaN]}]',
        '[{"name": "t", "results": [Infinity]}]',
        '[{"name": "t", results: []}]',
        "",
        "   ",
        '[{"name": "t", "results": ["\\x"]}]',
        '[{"name": "t", "results": [' + "[" * 50 + "]" * 49 + "]}]",
    ],
)
def test_invalid_json_is_refused_by_both(text: str) -> None:
    assert _whole(text) is None
    with pytest.raises(SemanticsCatalogError, match="invalid JSON"):
        judge_catalog(text)


_F = json.dumps(FACT)


@pytest.mark.parametrize(
    "text",
    [
        '[{"name": "t", "resultClass": "triage", "results": [' + _F + '], "results": []}]',
        '[{"name": "t", "resultClass": "triage", "results": [], "results": [' + _F + "]}]",
        '[{"name": "t", "resultClass": "triage", "results": [' + _F + '], "name": "u"}]',
        '[{"name": "t", "resultClass": "triage", "results": [' + _F + '], "resultClass": "inventory"}]',
        '[{"name": "t", "results": 5, "result": ' + _F + ', "result": 1}]',
        '[{"name": "t", "resultClass": "triage", "results": [' + _F + '], "results": 5}]',
        '{"tools": [{"name": "t", "resultClass": "triage", "results": [' + _F + ']}], "tools": []}',
        '{"tools": [], "tools": [{"name": "t", "resultClass": "triage", "results": [' + _F + "]}]}",
        '{"tools": 1, "tools": [{"name": "t", "resultClass": "triage", "results": [' + _F + "]}]}",
    ],
    ids=[
        "results-twice-last-empty",
        "results-twice-last-full",
        "name-twice",
        "class-twice",
        "result-twice",
        "results-array-then-not",
        "tools-twice-last-empty",
        "tools-twice-last-full",
        "tools-not-array-first",
    ],
)
def test_a_repeated_key_means_what_json_parse_makes_of_it(text: str) -> None:
    assert _streamed(text) == _whole(text)


def test_a_row_naming_itself_after_its_results_is_judged_with_its_class() -> None:
    text = json.dumps([{"results": [FACT, FACT], "resultClass": "triage", "name": "late"}])
    report = judge_catalog(text)
    assert [(f["tool"], f["code"], f["resultIndex"]) for f in report.findings] == [
        ("late", "triage-without-coverage", 0),
        ("late", "triage-without-coverage", 1),
    ]
    # The class after the samples changes the judgement of samples already read.
    text = '[{"name": "t", "results": [' + json.dumps(FACT) + '], "resultClass": "triage"}]'
    assert judge_catalog(text).errors == 1


def test_errors_rank_as_the_reference_ranks_them() -> None:
    # A checker fault in row 0 (unknown class), a shape fault in row 1 (no name):
    # coercion runs over every row first, so the shape fault is the one named.
    text = json.dumps([{"name": "t", "resultClass": "report", "results": []}, {"results": []}])
    with pytest.raises(SemanticsCatalogError, match=r"tools\[1\]"):
        judge_catalog(text)
    # Invalid JSON anywhere outranks both.
    with pytest.raises(SemanticsCatalogError, match="invalid JSON"):
        judge_catalog(text[:-1] + ", }]")


# ---------------------------------------------------------------------------
# Several catalogs, one report
# ---------------------------------------------------------------------------

GOOD = json.dumps(
    [
        {
            "name": "inv",
            "resultClass": "inventory",
            "results": [{**COVERED, "render": {"default": "table"}}],
        }
    ]
)
BAD = json.dumps([{"name": "vm_backup_status", "resultClass": "triage", "results": [FACT]}])
WARN = json.dumps([{"name": "idle", "resultClass": "triage", "results": []}])


def test_several_catalogs_make_one_text_report_naming_each() -> None:
    code, out, err = _run(["good.json", "bad.json"], {"good.json": GOOD, "bad.json": BAD})
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[0] == "check-semantics: 2 catalogs, 2 tools, 2 sample results"
    assert lines[1] == "  good.json: 1 tool, 1 sample result: passed, 0 errors, 0 warnings"
    assert lines[2] == "  bad.json: 1 tool, 1 sample result: FAILED, 1 error, 0 warnings"
    assert lines[3] == (
        "  error: bad.json: vm_backup_status, result 1, field coverage [triage-without-coverage]"
    )
    assert lines[-1] == "FAILED: 1 error, 0 warnings"


def test_several_catalogs_make_one_json_document_naming_each() -> None:
    code, out, _ = _run(["--json", "good.json", "bad.json"], {"good.json": GOOD, "bad.json": BAD})
    assert code == 1
    report = json.loads(out)
    assert list(report)[:4] == ["ok", "findings", "checkedTools", "checkedResults"]
    assert (report["checkedTools"], report["checkedResults"]) == (2, 2)
    assert [(f["catalog"], f["tool"], f["code"]) for f in report["findings"]] == [
        ("bad.json", "vm_backup_status", "triage-without-coverage")
    ]
    assert [(c["catalog"], c["ok"], c["errors"]) for c in report["catalogs"]] == [
        ("good.json", True, 0),
        ("bad.json", False, 1),
    ]


def test_a_catalog_that_cannot_be_judged_stops_the_report() -> None:
    files = {"good.json": GOOD, "broken.json": "[1"}
    code, out, err = _run(["good.json", "missing.json", "broken.json"], files)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 2
    assert "missing.json" in err and "broken.json" in err


def test_a_catalog_named_twice_is_refused() -> None:
    code, out, err = _run(["good.json", "good.json"], {"good.json": GOOD})
    assert (code, out) == (2, "")
    assert "named twice" in err


def test_a_double_dash_ends_the_options() -> None:
    code, out, _ = _run(["--", "--strict"], {"--strict": WARN})
    assert code == 0
    assert "passed: 0 errors, 1 warning" in out


# ---------------------------------------------------------------------------
# --strict, BOM
# ---------------------------------------------------------------------------


def test_strict_with_warnings_says_failed_in_text_and_json() -> None:
    code, out, _ = _run(["--strict", "warn.json"], {"warn.json": WARN})
    assert code == 1
    assert out.splitlines()[-1] == "FAILED (--strict: warnings fail the gate): 0 errors, 1 warning"
    code, out, _ = _run(["--strict", "--json", "warn.json"], {"warn.json": WARN})
    report = json.loads(out)
    assert code == 1
    # ``ok`` keeps the reference's meaning (no error); ``passed`` is the verdict.
    assert (report["ok"], report["passed"], report["strict"], report["warnings"]) == (
        True,
        False,
        True,
        1,
    )
    code, out, _ = _run(["--json", "warn.json"], {"warn.json": WARN})
    assert code == 0 and json.loads(out)["passed"] is True


def test_a_catalog_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    catalog = tmp_path / "semantics-catalog.json"
    catalog.write_bytes(b"\xef\xbb\xbf" + BAD.encode("utf-8"))
    out: list[str] = []
    code = run_check_semantics_cli([str(catalog), "--json"], SemanticsCliIO(stdout=out.append))
    assert code == 1
    assert json.loads(out[0])["findings"][0]["tool"] == "vm_backup_status"


# ---------------------------------------------------------------------------
# A bounded report with exact counts
# ---------------------------------------------------------------------------


def _many(count: int) -> str:
    row = {"name": "vm_backup_status", "resultClass": "triage", "results": [FACT] * count}
    return json.dumps([row])


def test_repeated_findings_are_bounded_and_counted() -> None:
    count = SHOWN_PER_CODE + 250
    code, out, _ = _run(["--json", "big.json"], {"big.json": _many(count)})
    report = json.loads(out)
    assert code == 1
    assert (report["errors"], report["checkedResults"]) == (count, count)
    assert len(report["findings"]) == SHOWN_PER_CODE
    assert [f["resultIndex"] for f in report["findings"]] == list(range(SHOWN_PER_CODE))
    assert report["omittedFindings"] == [
        {
            "tool": "vm_backup_status",
            "code": "triage-without-coverage",
            "severity": "error",
            "count": 250,
            "catalog": "big.json",
        }
    ]
    code, text, _ = _run(["big.json"], {"big.json": _many(count)})
    assert "  ... 250 more errors [triage-without-coverage] for tool vm_backup_status" in text
    assert text.splitlines()[-1] == f"FAILED: {count} errors, 0 warnings"
    code, out, _ = _run(["--json", "--all-findings", "big.json"], {"big.json": _many(count)})
    assert len(json.loads(out)["findings"]) == count


def test_a_report_shows_at_most_a_bounded_number_of_findings() -> None:
    tools = SHOWN_IN_ALL + 30
    text = json.dumps([{"name": f"t{i}", "resultClass": "triage", "results": [FACT]} for i in range(tools)])
    report = judge_catalog(text)
    assert report.errors == tools and len(report.findings) == SHOWN_IN_ALL
    assert sum(o["count"] for o in report.omitted) == 30
    assert (
        format_semantics_report(
            {
                "ok": False,
                "findings": report.findings,
                "checkedTools": tools,
                "checkedResults": tools,
                "errors": report.errors,
                "warnings": 0,
                "omittedFindings": report.omitted,
                "passed": False,
            }
        ).splitlines()[-1]
        == f"FAILED: {tools} errors, 0 warnings"
    )
