"""Tests for ``semantics_lint.cli.hooks``: the check-semantics hook entry, called as ``main(argv)``.

pre-commit passes every matching catalog at once; the entry hands them all to one run
of the gate, which judges them into one report naming each catalog. Catalogs come
from the reference's CLI verdicts in ``testdata/conformance/cli.json``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conformance_data import CONFORMANCE_DIR

from semantics_lint.cli.hooks import check_semantics_main


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


def test_one_good_catalog_passes(catalogs: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert check_semantics_main([catalogs["good"]]) == 0
    out = capsys.readouterr().out
    assert out.startswith("check-semantics: 1 tool,")  # one catalog: the reference's heading
    assert catalogs["good"] not in out


def test_one_bad_catalog_among_good_ones_fails_in_one_report(
    catalogs: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert check_semantics_main([catalogs["good"], catalogs["bad"], catalogs["warn"]]) == 1
    out = capsys.readouterr().out
    assert out.startswith("check-semantics: 3 catalogs,")
    assert out.count("check-semantics:") == 1
    assert f"  {catalogs['bad']}: " in out and ": FAILED, " in out
    finding = next(line for line in out.splitlines() if "inventory-without-coverage" in line)
    assert f"error: {catalogs['bad']}: " in finding


def test_an_input_error_outranks_findings_and_prints_no_report(
    catalogs: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert check_semantics_main([catalogs["bad"], catalogs["broken"], catalogs["good"]]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert catalogs["broken"] in captured.err and "Traceback" not in captured.err
    assert check_semantics_main([catalogs["broken"], catalogs["bad"]]) == 2


def test_options_apply_to_every_catalog(catalogs: dict[str, str]) -> None:
    assert check_semantics_main([catalogs["good"], catalogs["warn"]]) == 0
    # pre-commit puts the hook's args first and the file names after them.
    assert check_semantics_main(["--strict", catalogs["good"], catalogs["warn"]]) == 1


def test_json_is_one_document_naming_each_catalog(
    catalogs: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert check_semantics_main(["--json", catalogs["good"], catalogs["bad"]]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["passed"] is False
    assert [(c["catalog"], c["ok"]) for c in report["catalogs"]] == [
        (catalogs["good"], True),
        (catalogs["bad"], False),
    ]
    assert {finding["catalog"] for finding in report["findings"]} == {catalogs["bad"]}


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
