"""The results cache on its own: keys, storage, damage, merging, fingerprints."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from semantics_lint.lint.core.model import Applicability, Edit, Finding, Fix, Position, Severity
from semantics_lint.lint.engine import LintSettings
from semantics_lint.lint.run.cache import ResultCache, build_fingerprint, settings_key

SOURCE = b"from semantics_lint.runtime import described_result\n"


def _finding(display: str, *, fixed: bool = True) -> Finding:
    fix = (
        Fix(
            Applicability.SAFE,
            "rename `measured_at` to `measuredAt`",
            (Edit("'measuredAt'", Position(3, 8), Position(3, 21)),),
        )
        if fixed
        else None
    )
    return Finding(
        code="SEM102",
        message="snake_case key `measured_at` — \u00e9crit en camelCase",
        severity=Severity.ERROR,
        filename=display,
        start=Position(3, 8),
        end=Position(3, 21),
        fix=fix,
        url="https://example.invalid/SEM102",
    )


@pytest.fixture
def tool(tmp_path: Path) -> Path:
    path = tmp_path / "tool.py"
    path.write_bytes(SOURCE)
    return path


def test_findings_round_trip_through_the_file(tmp_path: Path, tool: Path) -> None:
    settings = LintSettings()
    findings = [_finding("tool.py"), _finding("tool.py", fixed=False)]
    cache = ResultCache(tmp_path / "cache", "f1")
    cache.put(tool, "tool.py", SOURCE, settings, findings)
    cache.save()
    again = ResultCache(tmp_path / "cache", "f1")
    assert again.get(tool, "tool.py", SOURCE, settings) == findings
    assert again.hits == 1


def test_an_empty_result_is_stored_too(tmp_path: Path, tool: Path) -> None:
    cache = ResultCache(tmp_path / "cache", "f1")
    cache.put(tool, "tool.py", SOURCE, LintSettings(), [])
    cache.save()
    assert ResultCache(tmp_path / "cache", "f1").get(tool, "tool.py", SOURCE, LintSettings()) == []


@pytest.mark.parametrize(
    "change",
    ["source", "display", "enabled", "api_modules", "call_names", "fingerprint"],
)
def test_any_change_in_the_key_is_a_miss(tmp_path: Path, tool: Path, change: str) -> None:
    settings = LintSettings()
    cache = ResultCache(tmp_path / "cache", "f1")
    cache.put(tool, "tool.py", SOURCE, settings, [_finding("tool.py")])
    cache.save()
    source, display, fingerprint = SOURCE, "tool.py", "f1"
    if change == "source":
        source = SOURCE + b"\n"
    elif change == "display":
        display = "./tool.py"
    elif change == "enabled":
        settings = LintSettings(enabled=frozenset({"SEM101"}))
    elif change == "api_modules":
        settings = LintSettings(api_modules=("fleet.api",))
    elif change == "call_names":
        settings = LintSettings(call_names=("described",))
    else:
        fingerprint = "f2"
    assert ResultCache(tmp_path / "cache", fingerprint).get(tool, display, source, settings) is None


def test_settings_key_does_not_depend_on_set_order() -> None:
    one = LintSettings(enabled=frozenset(["SEM101", "SEM202", "SEM301"]))
    two = LintSettings(enabled=frozenset(["SEM301", "SEM101", "SEM202"]))
    assert settings_key(one) == settings_key(two)
    assert settings_key(one) != settings_key(LintSettings())


@pytest.mark.parametrize(
    "content",
    [
        "not json at all",
        json.dumps({"format": 999, "entries": {}}),
        json.dumps(["a", "list"]),
        json.dumps({"format": 2, "entries": ["a", "list"]}),
    ],
)
def test_a_damaged_or_foreign_cache_file_counts_as_empty(tmp_path: Path, tool: Path, content: str) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / "results-f1.json").write_text(content, encoding="utf-8")
    cache = ResultCache(folder, "f1")
    assert cache.get(tool, "tool.py", SOURCE, LintSettings()) is None
    cache.put(tool, "tool.py", SOURCE, LintSettings(), [])
    cache.save()
    assert ResultCache(folder, "f1").get(tool, "tool.py", SOURCE, LintSettings()) == []


def test_a_damaged_entry_is_a_miss(tmp_path: Path, tool: Path) -> None:
    cache = ResultCache(tmp_path / "cache", "f1")
    cache.put(tool, "tool.py", SOURCE, LintSettings(), [_finding("tool.py")])
    cache.save()
    document = json.loads(cache.path.read_text(encoding="utf-8"))
    (entry,) = document["entries"].values()
    entry["findings"][0][2] = "not a severity"
    cache.path.write_text(json.dumps(document), encoding="utf-8")
    assert ResultCache(tmp_path / "cache", "f1").get(tool, "tool.py", SOURCE, LintSettings()) is None


def test_saving_merges_with_what_another_run_wrote(tmp_path: Path) -> None:
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_bytes(SOURCE)
    second.write_bytes(SOURCE)
    one = ResultCache(tmp_path / "cache", "f1")
    two = ResultCache(tmp_path / "cache", "f1")  # opened before ``one`` saved
    one.put(first, "a.py", SOURCE, LintSettings(), [])
    one.save()
    two.put(second, "b.py", SOURCE, LintSettings(), [_finding("b.py")])
    two.save()
    merged = ResultCache(tmp_path / "cache", "f1")
    assert merged.get(first, "a.py", SOURCE, LintSettings()) == []
    assert merged.get(second, "b.py", SOURCE, LintSettings()) == [_finding("b.py")]


def test_the_folder_is_ignored_by_git_and_other_builds_are_dropped(tmp_path: Path, tool: Path) -> None:
    folder = tmp_path / "cache"
    old = ResultCache(folder, "old")
    old.put(tool, "tool.py", SOURCE, LintSettings(), [])
    old.save()
    new = ResultCache(folder, "new")
    new.put(tool, "tool.py", SOURCE, LintSettings(), [])
    new.save()
    assert sorted(p.name for p in folder.iterdir()) == [".semantics-lint-cache"]
    own = folder / ".semantics-lint-cache"
    assert sorted(p.name for p in own.iterdir()) == [
        ".gitignore",
        "CACHEDIR.TAG",
        "results-new.json",
    ]
    assert (own / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"


def test_entries_of_deleted_files_are_dropped(tmp_path: Path, tool: Path) -> None:
    gone = tmp_path / "gone.py"
    gone.write_bytes(SOURCE)
    cache = ResultCache(tmp_path / "cache", "f1")
    cache.put(gone, "gone.py", SOURCE, LintSettings(), [])
    cache.save()
    gone.unlink()
    later = ResultCache(tmp_path / "cache", "f1")
    later.put(tool, "tool.py", SOURCE, LintSettings(), [])
    later.save()
    entries = json.loads(later.path.read_text(encoding="utf-8"))["entries"]
    assert list(entries) == [os.path.abspath(tool)]


def test_saving_nothing_writes_nothing(tmp_path: Path) -> None:
    ResultCache(tmp_path / "cache", "f1").save()
    assert not (tmp_path / "cache").exists()


def test_a_folder_that_cannot_be_written_only_means_no_cache(tmp_path: Path, tool: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    cache = ResultCache(blocker, "f1")
    cache.put(tool, "tool.py", SOURCE, LintSettings(), [])
    cache.save()  # does not raise
    assert blocker.read_text(encoding="utf-8") == "a file where the folder should be"


def test_the_fingerprint_follows_the_package_files(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    module = package / "rules.py"
    module.write_text("A = 1\n", encoding="utf-8")
    before = build_fingerprint(package)
    assert build_fingerprint(package) == before
    module.write_text("A = 12\n", encoding="utf-8")
    assert build_fingerprint(package) != before
    assert build_fingerprint() != before  # the installed package is another build


def test_a_lint_says_whether_it_asked_about_other_modules(tmp_path: Path) -> None:
    from semantics_lint.lint import engine

    (tmp_path / "consts.py").write_text('WHEN = "2024-05-01"\n', encoding="utf-8")
    local = tmp_path / "local.py"
    local.write_text(
        "from semantics_lint.runtime import described_result\nWHEN = '2024-05-01'\n"
        "described_result(facts=rows, provenance={'measuredAt': WHEN, 'source': 's'})\n",
        encoding="utf-8",
    )
    imported = tmp_path / "imported.py"
    imported.write_text(
        "from semantics_lint.runtime import described_result\nfrom consts import WHEN\n"
        "described_result(facts=rows, provenance={'measuredAt': WHEN, 'source': 's'})\n",
        encoding="utf-8",
    )
    alone = engine.lint(local.read_bytes(), str(local))
    assert [f.code for f in alone.findings] == ["SEM203"]
    assert not alone.other_files  # its names are its own
    following = engine.lint(imported.read_bytes(), str(imported))
    assert [f.code for f in following.findings] == ["SEM203"]
    assert following.other_files
