"""Tests for ``semantics_lint.hooks``: the check-semantics hook entry, called as ``main(argv)``.

pre-commit passes every matching catalog at once; the gate judges one. The entry runs
the gate per catalog and returns the worst exit code. Catalogs come from the
reference's CLI verdicts in ``testdata/conformance/cli.json``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conformance_data import CONFORMANCE_DIR

from semantics_lint.hooks import check_semantics_main


def _catalog(case_id: str) -> Any:
    cases = json.loads((CONFORMANCE_DIR / "cli.json").read_text(encoding="utf-8"))
    for case in cases:
        if case["id"] == case_id:
            return case["input"]["catalog"]
    raise AssertionError(f"no conformance case {case_id}")


@pytest.fixture
def catalogs(tmp_path: Path) -> dict[str, str]:
    good = tmp_path / "semantics-catalog.json"
    good.write_text(json.dumps(_catalog("cli/single-shape/001")), encoding="utf-8")
    bad = tmp_path / "semantics-catalog-bad.json"
    bad.write_text(json.dumps(_catalog("cli/catalog-sample/001")), encoding="utf-8")
    warn = tmp_path / "semantics-catalog-warn.json"
    warn.write_text(json.dumps(_catalog("cli/warnings/002")), encoding="utf-8")
    broken = tmp_path / "semantics-catalog-broken.json"
    broken.write_text("{not json", encoding="utf-8")
    return {"good": str(good), "bad": str(bad), "warn": str(warn), "broken": str(broken)}


def test_one_good_catalog_passes(
    catalogs: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert check_semantics_main([catalogs["good"]]) == 0
    assert "==" not in capsys.readouterr().out  # one catalog: no header


def test_one_bad_catalog_among_good_ones_fails(
    catalogs: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert check_semantics_main([catalogs["good"], catalogs["bad"], catalogs["good"]]) == 1
    out = capsys.readouterr().out
    assert f"== {catalogs['bad']}" in out
    assert "inventory-without-coverage" in out


def test_an_input_error_outranks_findings(catalogs: dict[str, str]) -> None:
    assert check_semantics_main([catalogs["bad"], catalogs["broken"], catalogs["good"]]) == 2
    assert check_semantics_main([catalogs["broken"], catalogs["bad"]]) == 2


def test_options_apply_to_every_catalog(catalogs: dict[str, str]) -> None:
    assert check_semantics_main([catalogs["good"], catalogs["warn"]]) == 0
    # pre-commit puts the hook's args first and the file names after them.
    assert check_semantics_main(["--strict", catalogs["good"], catalogs["warn"]]) == 1


def test_json_reports_carry_no_headers(
    catalogs: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert check_semantics_main(["--json", catalogs["good"], catalogs["bad"]]) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert not any(line.startswith("==") for line in lines)
    decoder = json.JSONDecoder()
    text = "\n".join(lines)
    reports, index = [], 0
    while index < len(text):
        report, end = decoder.raw_decode(text, index)
        reports.append(report)
        index = end
        while index < len(text) and text[index].isspace():
            index += 1
    assert [report["ok"] for report in reports] == [True, False]


def test_a_path_starting_with_a_dash_stays_a_path(
    catalogs: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    os.rename(catalogs["bad"], tmp_path / "-semantics-catalog.json")
    assert check_semantics_main(["--", "-semantics-catalog.json"]) == 1


def test_no_catalog_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_semantics_main([]) == 2
    assert "no catalog" in capsys.readouterr().err


def test_an_unknown_option_is_the_gate_s_usage_error(catalogs: dict[str, str]) -> None:
    assert check_semantics_main(["--bogus", catalogs["good"]]) == 2


def test_a_missing_catalog_is_an_input_error(tmp_path: Path) -> None:
    assert check_semantics_main([str(tmp_path / "semantics-catalog.json")]) == 2
