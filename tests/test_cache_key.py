"""A checkout cannot forge the results cache: every entry is signed with the user's key.

A repository can ship a ``.semantics-lint-cache/`` folder, tagged as ours, holding a
results file for the very build the victim runs, whose entries say that its files are
clean. Such entries (written from scratch as the linter once wrote them, signed with
a key of the attacker's own, or a real entry with its findings emptied) are misses:
the files are linted afresh and every finding is reported. The key itself lives in
the user's cache home, ``0600``, and one that is not the user's own is not trusted.
"""

from __future__ import annotations

import hashlib
import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from checkout import SNAKE, run_check

from semantics_lint.lint.engine import LintSettings
from semantics_lint.lint.run import user_key
from semantics_lint.lint.run.cache import CACHE_FOLDER, ResultCache, build_fingerprint, settings_key
from semantics_lint.lint.run.config import ConfigResolver
from semantics_lint.lint.run.runner import RunOptions
from semantics_lint.lint.run.selection import codes_for_file, settings_for

TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by semantics-lint (its results cache).\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


def _check(*args: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return run_check(*args, cwd=cwd, cache=True, **extra)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.semantics-lint]\n", encoding="utf-8")
    (root / "tool.py").write_text(SNAKE, encoding="utf-8")
    return root


def _results_file(project: Path) -> Path:
    (results,) = (project / CACHE_FOLDER).glob("results-*.json")
    return results


def _ship(project: Path, entries: dict[str, object], fmt: int = 2) -> None:
    """The cache folder a hostile checkout commits: tagged as ours, for this very build."""
    folder = project / CACHE_FOLDER
    folder.mkdir(exist_ok=True)
    (folder / "CACHEDIR.TAG").write_text(TAG, encoding="utf-8")
    fingerprint = build_fingerprint()
    path = folder / f"results-{fingerprint}.json"
    path.write_text(json.dumps({"format": fmt, "entries": entries}), encoding="utf-8")


def _settings(project: Path) -> LintSettings:
    """The settings a run of ``check tool.py`` in ``project`` lints the file with."""
    path = project / "tool.py"
    config = ConfigResolver().for_file(path)
    return settings_for(config, codes_for_file(config, RunOptions(), path))


def _forged_mac(key: bytes, project: Path) -> str:
    """An entry saying tool.py is clean, signed as the linter signs, with ``key``."""
    forger = ResultCache(project / "elsewhere", build_fingerprint(), key=key)
    return forger._mac(str(project / "tool.py"), "tool.py", SNAKE.encode(), _settings(project), [])


def test_a_real_entry_with_its_findings_emptied_hides_nothing(project: Path) -> None:
    first = _check("tool.py", cwd=project)
    assert first.returncode == 1 and "SEM102" in first.stdout
    results = _results_file(project)
    document = json.loads(results.read_text(encoding="utf-8"))
    assert document["entries"], "the first run stored the file's findings"
    for entry in document["entries"].values():
        entry["findings"] = []
    results.write_text(json.dumps(document), encoding="utf-8")
    again = _check("tool.py", cwd=project)
    assert again.returncode == 1, again.stderr
    assert again.stdout == first.stdout


def test_a_cache_shipped_by_the_checkout_hides_nothing(project: Path) -> None:
    fresh = _check("--no-cache", "tool.py", cwd=project)
    assert fresh.returncode == 1 and "SEM102" in fresh.stdout
    name = str(project / "tool.py")
    # The entry as the linter wrote it before entries were signed: a digest of the
    # file's bytes, name and settings that anyone can compute.
    digest = hashlib.sha256(SNAKE.encode())
    digest.update(b"\0tool.py")
    digest.update(b"\0" + settings_key(_settings(project)).encode())
    shapes: dict[str, dict[str, object]] = {
        "unsigned": {"key": digest.hexdigest(), "findings": []},
        "signed with the checkout's key": {"mac": _forged_mac(b"k" * 32, project), "findings": []},
    }
    for shape, entry in shapes.items():
        for fmt in (1, 2):
            _ship(project, {name: entry}, fmt)
            done = _check("tool.py", cwd=project)
            assert done.returncode == 1, (shape, fmt, done.stderr)
            assert done.stdout == fresh.stdout, (shape, fmt)


def test_the_key_is_the_users_alone(tmp_path: Path, project: Path) -> None:
    home = tmp_path / "cache-home"
    done = _check("tool.py", cwd=project, XDG_CACHE_HOME=str(home))
    assert done.returncode == 1 and "warning" not in done.stderr
    key = home / "semantics-lint" / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert len(key.read_bytes()) == user_key.KEY_BYTES
    # An entry this key signed is a hit: the second run stores nothing new.
    results = _results_file(project)
    before = results.read_bytes()
    assert _check("tool.py", cwd=project, XDG_CACHE_HOME=str(home)).stdout == done.stdout
    assert results.read_bytes() == before


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_a_key_others_can_read_is_not_trusted_and_left_alone(tmp_path: Path, project: Path) -> None:
    home = tmp_path / "cache-home"
    (home / "semantics-lint").mkdir(parents=True)
    key = home / "semantics-lint" / "key"
    key.write_bytes(b"k" * 32)  # the checkout's key, as a checkout of a home could hold
    key.chmod(0o644)
    _ship(
        project,
        {str(project / "tool.py"): {"mac": _forged_mac(b"k" * 32, project), "findings": []}},
    )
    done = _check("tool.py", cwd=project, XDG_CACHE_HOME=str(home))
    assert done.returncode == 1 and "SEM102" in done.stdout
    assert "warning: the results cache is off for this run" in done.stderr
    assert "readable by no one else" in done.stderr
    assert key.read_bytes() == b"k" * 32 and stat.S_IMODE(key.stat().st_mode) == 0o644


def test_with_no_key_there_is_no_cache_and_the_run_goes_on(tmp_path: Path, project: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    done = _check("tool.py", cwd=project, XDG_CACHE_HOME=str(blocker))
    assert done.returncode == 1 and "SEM102" in done.stdout
    assert "warning: the results cache is off for this run: its key" in done.stderr
    assert not (project / CACHE_FOLDER).exists()


def test_an_entry_is_bound_to_its_file(tmp_path: Path) -> None:
    # A signed entry of a clean file, copied under the name of a dirty one, is a miss.
    clean, dirty = tmp_path / "clean.py", tmp_path / "dirty.py"
    clean.write_text("x = 1\n", encoding="utf-8")
    dirty.write_text(SNAKE, encoding="utf-8")
    cache = ResultCache(tmp_path, "f1", key=b"s" * 32)
    cache.put(clean, "clean.py", b"x = 1\n", LintSettings(), [])
    cache.save()
    document = json.loads(cache.path.read_text(encoding="utf-8"))
    document["entries"][str(dirty)] = document["entries"][str(clean)]
    cache.path.write_text(json.dumps(document), encoding="utf-8")
    again = ResultCache(tmp_path, "f1", key=b"s" * 32)
    assert again.get(clean, "clean.py", b"x = 1\n", LintSettings()) == []
    assert again.get(dirty, "dirty.py", SNAKE.encode(), LintSettings()) is None
    assert (
        ResultCache(tmp_path, "f1", key=b"t" * 32).get(clean, "clean.py", b"x = 1\n", LintSettings()) is None
    )


def test_a_key_that_is_a_folder_turns_the_cache_off_and_the_run_goes_on(
    tmp_path: Path, project: Path
) -> None:
    home = tmp_path / "cache-home"
    (home / "semantics-lint" / "key").mkdir(parents=True)
    done = _check("tool.py", cwd=project, XDG_CACHE_HOME=str(home))
    assert done.returncode == 1 and "SEM102" in done.stdout, done.stderr
    assert "internal error" not in done.stderr
    assert "warning: the results cache is off for this run: its key" in done.stderr
    assert "is not a file" in done.stderr
    assert (home / "semantics-lint" / "key").is_dir()  # left as it is
