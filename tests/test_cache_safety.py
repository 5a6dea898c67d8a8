"""The results cache owns a folder of its own and trusts nothing it reads.

It never deletes or writes a file it did not create (a user's folder given as
``--cache-dir``, a folder of the same name it did not make, a symbolic link), it
lives at the project root by default, and a damaged cache of any shape counts as
empty: the run goes on and says what a fresh run says.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from checkout import SNAKE, run_check, unprivileged

from semantics_lint.lint.core.model import Finding, Position, Severity
from semantics_lint.lint.engine import LintSettings
from semantics_lint.lint.run.cache import CACHE_FOLDER, MAX_CACHE_BYTES, ResultCache, default_cache_dir


def _check(*args: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return run_check(*args, cwd=cwd, cache=True, **extra)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "tool.py").write_text(SNAKE, encoding="utf-8")
    return tmp_path


# ---------------------------------------------------------------------------
# What is not ours stays as it is
# ---------------------------------------------------------------------------


def test_a_users_folder_given_as_cache_dir_keeps_every_file(project: Path) -> None:
    data = project / "data"
    data.mkdir()
    (data / "results-0123456789abcdef0123.json").write_text('{"mine": true}\n', encoding="utf-8")
    (data / "results-notes.json").write_text("[1, 2]\n", encoding="utf-8")
    (data / ".gitignore").write_text("*.csv\n", encoding="utf-8")
    (data / "CACHEDIR.TAG").write_text("not a tag\n", encoding="utf-8")
    before = _snapshot(data)
    first = _check("--cache-dir", "data", "tool.py", cwd=project)
    second = _check("--cache-dir", "data", "tool.py", cwd=project)
    assert first.returncode == second.returncode == 1
    assert first.stdout == second.stdout and "SEM102" in first.stdout
    assert _snapshot(data) == before
    own = data / CACHE_FOLDER
    assert (
        (own / "CACHEDIR.TAG")
        .read_text(encoding="utf-8")
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )
    assert (own / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    assert len(list(own.glob("results-*.json"))) == 1


def test_the_current_folder_as_cache_dir_keeps_the_repositorys_gitignore(project: Path) -> None:
    (project / ".gitignore").write_text("build/\n", encoding="utf-8")
    (project / "results-report.json").write_text("{}\n", encoding="utf-8")
    before = _snapshot(project)
    done = _check("tool.py", cwd=project, SEMANTICS_LINT_CACHE_DIR=".")
    assert done.returncode == 1, done.stderr
    assert _snapshot(project) == before
    assert (project / CACHE_FOLDER / "CACHEDIR.TAG").is_file()


def test_a_folder_of_that_name_it_did_not_make_is_left_alone(project: Path) -> None:
    theirs = project / "cache" / CACHE_FOLDER
    theirs.mkdir(parents=True)
    (theirs / "results-0123456789abcdef0123.json").write_text("{}\n", encoding="utf-8")
    (theirs / ".gitignore").write_text("# someone else's\n", encoding="utf-8")
    before = _snapshot(theirs)
    fresh = _check("--no-cache", "tool.py", cwd=project)
    done = _check("--cache-dir", "cache", "tool.py", cwd=project)
    assert done.stdout == fresh.stdout and done.returncode == 1
    assert f"warning: {Path('cache', CACHE_FOLDER)} was not made by semantics-lint" in done.stderr
    assert _snapshot(theirs) == before
    assert sorted(p.name for p in theirs.iterdir()) == sorted(before)


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges")
def test_a_cache_dir_that_is_a_symlink_keeps_what_it_leads_to(project: Path) -> None:
    elsewhere = project / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "results-0123456789abcdef0123.json").write_text("{}\n", encoding="utf-8")
    (elsewhere / ".gitignore").write_text("*.log\n", encoding="utf-8")
    before = _snapshot(elsewhere)
    (project / "link").symlink_to(elsewhere)
    done = _check("--cache-dir", "link", "tool.py", cwd=project)
    assert done.returncode == 1 and "SEM102" in done.stdout
    assert _snapshot(elsewhere) == before
    assert (elsewhere / CACHE_FOLDER / "CACHEDIR.TAG").is_file()  # the folder asked for


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges")
def test_a_cache_folder_that_is_a_symlink_is_not_followed(project: Path) -> None:
    elsewhere = project / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "results-0123456789abcdef0123.json").write_text("{}\n", encoding="utf-8")
    (project / "cache").mkdir()
    (project / "cache" / CACHE_FOLDER).symlink_to(elsewhere)
    done = _check("--cache-dir", "cache", "tool.py", cwd=project)
    assert done.returncode == 1 and "SEM102" in done.stdout
    assert sorted(p.name for p in elsewhere.iterdir()) == ["results-0123456789abcdef0123.json"]


def test_the_cache_lives_at_the_project_root_not_the_current_folder(tmp_path: Path) -> None:
    work = tmp_path / "work"
    project = work / "proj"
    (project / "tools").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.semantics-lint]\nignore = ["SEM2"]\n', encoding="utf-8")
    (project / "tools" / "tool.py").write_text(SNAKE, encoding="utf-8")
    done = _check("proj", cwd=work)
    assert done.returncode == 1, done.stderr
    assert not (work / CACHE_FOLDER).exists()
    assert (project / CACHE_FOLDER / "CACHEDIR.TAG").is_file()
    # Naming a file deep inside gives the same root.
    _check("proj/tools/tool.py", cwd=work)
    assert not (work / CACHE_FOLDER).exists()
    assert not (project / "tools" / CACHE_FOLDER).exists()


def test_a_cache_made_before_the_tag_is_still_ours(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(SNAKE, encoding="utf-8")
    old = tmp_path / "cache" / CACHE_FOLDER
    old.mkdir(parents=True)
    (old / ".gitignore").write_text("# Written by semantics-lint: its results cache.\n*\n", encoding="utf-8")
    (old / "results-0123456789abcdef0123.json").write_text("{}", encoding="utf-8")  # an older build's
    cache = ResultCache(tmp_path / "cache", "f1")
    assert cache.problem is None
    cache.put(tmp_path / "tool.py", "tool.py", SNAKE.encode(), LintSettings(), [])
    cache.save()
    assert sorted(p.name for p in old.iterdir()) == [
        ".gitignore",
        "CACHEDIR.TAG",
        "results-f1.json",
    ]


# ---------------------------------------------------------------------------
# A damaged cache counts as empty
# ---------------------------------------------------------------------------


def _row(**changes: Any) -> list[Any]:
    row: list[Any] = [
        "SEM102",
        "a message",
        Severity.ERROR.value,
        [3, 8, 3, 21],
        None,
        None,
        "a help",
    ]
    for index, value in changes.items():
        row[int(index[1:])] = value
    return row


DAMAGED_ROWS = {
    "code is a dict": _row(i0={"a": 1}),
    "message is a number": _row(i1=7),
    "unknown severity": _row(i2="fatal"),
    "line is text": _row(i3=["3", 8, 3, 21]),
    "line is a bool": _row(i3=[True, 8, 3, 21]),
    "line is a float": _row(i3=[3.5, 8, 3, 21]),
    "line 0": _row(i3=[0, 8, 3, 21]),
    "negative column": _row(i3=[3, -1, 3, 21]),
    "short span": _row(i3=[3, 8]),
    "fix is text": _row(i4="rename it"),
    "edit of the wrong shape": _row(i4=["safe", "rename", [["'x'", 3, 8]]]),
    "url is a list": _row(i5=["https://example.invalid"]),
    "help is a number": _row(i6=3),
    "row too long": [*_row(), "extra"],
    "row is a dict": {"code": "SEM102"},
}


@pytest.mark.parametrize("row", DAMAGED_ROWS.values(), ids=DAMAGED_ROWS.keys())
def test_a_damaged_entry_of_any_shape_is_a_miss(tmp_path: Path, row: Any) -> None:
    tool = tmp_path / "tool.py"
    tool.write_bytes(SNAKE.encode())
    finding = Finding(
        "SEM102",
        "a message",
        Severity.ERROR,
        "tool.py",
        Position(3, 8),
        Position(3, 21),
        help="a help",
    )
    cache = ResultCache(tmp_path, "f1")
    cache.put(tool, "tool.py", SNAKE.encode(), LintSettings(), [finding])
    cache.save()
    assert ResultCache(tmp_path, "f1").get(tool, "tool.py", SNAKE.encode(), LintSettings()) == [finding]
    document = json.loads(cache.path.read_text(encoding="utf-8"))
    (entry,) = document["entries"].values()
    assert entry["findings"] == [_row()]  # the shape the damage departs from
    entry["findings"] = [row]
    # Signed as the linter signs, so that what is judged is the row's shape, not the
    # signature (an unsigned change is a miss already: test_cache_key.py).
    entry["mac"] = cache._mac(str(tool), "tool.py", SNAKE.encode(), LintSettings(), [row])
    cache.path.write_text(json.dumps(document), encoding="utf-8")
    assert ResultCache(tmp_path, "f1").get(tool, "tool.py", SNAKE.encode(), LintSettings()) is None


def _damage(path: Path, shape: str) -> None:
    text = path.read_text(encoding="utf-8")
    if shape == "nested 1,000 deep":
        path.write_text('{"format": 2, "entries": ' + "[" * 1000 + "]" * 1000 + "}", encoding="utf-8")
    elif shape == "nested 100,000 deep":
        path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    elif shape == "truncated":
        path.write_text(text[: len(text) // 2], encoding="utf-8")
    elif shape == "entries of the wrong types":
        document = json.loads(text)
        document["entries"] = {name: {"mac": 5, "findings": "none"} for name in document["entries"]}
        document["entries"]["\0bad"] = {"mac": "k", "findings": []}
        path.write_text(json.dumps(document), encoding="utf-8")
    elif shape == "a huge number":
        path.write_text('{"format": 2, "entries": {"x": ' + "9" * 100_000 + "}}", encoding="utf-8")
    elif shape == "not UTF-8":
        path.write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
    elif shape == "huge":
        with path.open("ab") as handle:
            handle.truncate(MAX_CACHE_BYTES + 1)  # sparse: costs no disk
    elif shape == "a folder":
        path.unlink()
        path.mkdir()
    else:  # pragma: no cover - a shape without a recipe
        raise AssertionError(shape)


@pytest.mark.parametrize(
    "shape",
    [
        "nested 1,000 deep",
        "nested 100,000 deep",
        "truncated",
        "entries of the wrong types",
        "a huge number",
        "not UTF-8",
        "huge",
        "a folder",
    ],
)
def test_a_damaged_cache_file_counts_as_empty_and_the_run_goes_on(project: Path, shape: str) -> None:
    fresh = _check("--no-cache", "tool.py", cwd=project)
    assert _check("tool.py", cwd=project).stdout == fresh.stdout  # fills the cache
    (results,) = (project / CACHE_FOLDER).glob("results-*.json")
    _damage(results, shape)
    for _ in range(2):  # the damaged file, then what this run wrote in its place
        done = _check("tool.py", cwd=project)
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
        assert done.stdout == fresh.stdout


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX permissions")
def test_a_first_path_the_user_cannot_look_into_still_gives_the_project_root() -> None:
    # `check private/ tool.py` where private/ is unreadable to the user: the run says
    # so for that path; finding where the cache lives must not fail before it.
    base = Path(tempfile.mkdtemp(prefix="semantics-lint-test-"))
    try:
        base.chmod(0o755)
        (base / "pyproject.toml").write_text("[tool.semantics-lint]\n", encoding="utf-8")
        private = base / "private"
        private.mkdir()
        private.chmod(0o000)
        if os.geteuid() == 0:
            for path in (base, private, base / "pyproject.toml"):
                os.chown(path, 65534, 65534)
        answer = unprivileged(lambda: str(default_cache_dir([str(private), str(base / "tool.py")])), base)
        assert answer == str(base)
    finally:
        (base / "private").chmod(0o700)
        shutil.rmtree(base)
