"""The flake8 plugin lints flake8's tree without parsing again, and finds what it found
by reading the file's bytes as the CLI does.

The lines and the tree are made here as flake8 makes them (``tokenize.open``, Latin-1
when that fails, the BOM dropped; ``ast.parse`` of the joined lines). For every input,
the plugin's results equal those of the way it replaced: ``engine.lint_source`` on the
bytes the lines encode to. Inputs: ``testdata/``, a small synthetic corpus made by the
benchmark's generator, and files whose text the CLI would read differently (those take
the bytes).
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import tokenize
from pathlib import Path
from types import ModuleType

import pytest

from semantics_lint.flake8_plugin import SemanticsLintPlugin, _source_bytes
from semantics_lint.lint import engine

ROOT = Path(__file__).resolve().parent.parent


def _flake8_lines(path: Path) -> list[str]:
    """The lines flake8 hands a plugin (``FileProcessor.read_lines`` and its BOM strip)."""
    try:
        with tokenize.open(path) as handle:
            lines = handle.readlines()
    except (SyntaxError, UnicodeError):
        with open(path, encoding="latin-1") as handle:
            lines = handle.readlines()
    if lines:
        if lines[0][:1] == "\ufeff":
            lines[0] = lines[0][1:]
        elif lines[0][:3] == "\xef\xbb\xbf":
            lines[0] = lines[0][3:]
    return lines


def _before(lines: list[str], filename: str) -> list[tuple[int, int, str]]:
    """What the plugin yielded before it used the tree: the engine on the bytes."""
    text = "".join(lines)
    if not engine.might_contain_calls(text):
        return []
    findings = engine.lint_source(_source_bytes(lines), filename)
    return [(f.start.line, f.start.column, f"{f.code} {f.message}") for f in findings]


def _plugin(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[tuple[int, int, str]], list[str], bool]:
    """The plugin's results on ``path`` as flake8 runs it, its lines, and whether the
    engine was handed the tree (None when nothing reached the engine)."""
    lines = _flake8_lines(path)
    tree = ast.parse("".join(lines))
    used: list[str] = []
    parsed, source = engine.lint_parsed, engine.lint_source
    monkeypatch.setattr(engine, "lint_parsed", lambda *a, **k: used.append("tree") or parsed(*a, **k))
    monkeypatch.setattr(engine, "lint_source", lambda *a, **k: used.append("bytes") or source(*a, **k))
    results = [row[:3] for row in SemanticsLintPlugin(tree, lines, str(path)).run()]
    monkeypatch.undo()
    return results, lines, (used == ["tree"]) if used else None  # type: ignore[return-value]


def _load_make_corpus() -> ModuleType:
    bench = ROOT / "bench"
    if str(bench) not in sys.path:
        sys.path.insert(0, str(bench))
    if "make_corpus" in sys.modules:
        return sys.modules["make_corpus"]
    spec = importlib.util.spec_from_file_location("make_corpus", bench / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_corpus"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("synthetic")
    _load_make_corpus().write_synthetic(root, count=40, seed=11)
    return sorted(root.rglob("*.py"))


def _testdata() -> list[Path]:
    return sorted((ROOT / "testdata").rglob("*.py"))


def _parses(path: Path) -> bool:
    try:
        ast.parse("".join(_flake8_lines(path)))
    except (SyntaxError, ValueError):
        return False
    return True


def test_testdata_gives_what_the_bytes_gave(monkeypatch: pytest.MonkeyPatch) -> None:
    linted = 0
    for path in _testdata():
        if not _parses(path):
            continue  # flake8 reports E999 and runs no plugin
        results, lines, took_tree = _plugin(path, monkeypatch)
        assert results == _before(lines, str(path)), path
        linted += took_tree is True
    assert linted >= 10


def test_synthetic_corpus_gives_what_the_bytes_gave(
    synthetic: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    found = 0
    for path in synthetic:
        results, lines, took_tree = _plugin(path, monkeypatch)
        assert results == _before(lines, str(path)), path
        if results:
            assert took_tree is True, path
        found += len(results)
    assert found >= 20


AWKWARD: dict[str, bytes] = {
    # flake8's text is the one the bytes decode to: the tree is used.
    "bom_crlf.py": (
        "\ufefffrom semantics_lint.runtime import described_result\r\n"
        "r = described_result(facts=[{'entity': 'a'}], provenance={'measured_at': t, 'source': s})\r\n"
    ).encode(),
    "cr_only.py": (
        b"from semantics_lint.runtime import described_result\r"
        b"r = described_result(facts=[], provenance={'measured_at': t, 'source': s})\r"
    ),
    "latin1.py": (
        "# -*- coding: latin-1 -*-\n"
        "from semantics_lint.runtime import described_result\n"
        "r = described_result(facts=[{'entity': '\u00e9t\u00e9'}], provenance={'read_at': 2, 'source': s})\n"
    ).encode("latin-1"),
    # flake8 reads this as Latin-1 after tokenize fails: the plugin reads the file's
    # bytes again and reports what the CLI does (SEM001: Python cannot decode it).
    "not_utf8.py": (
        b"from semantics_lint.runtime import described_result\n"
        b"r = described_result(facts=['\xe9'], provenance={'measured_at': t, 'source': s})\n"
    ),
    # flake8 strips two BOMs where the CLI strips one; the plugin lints the text
    # flake8 read, as it always has.
    "two_boms.py": (
        "\ufeff\ufefffrom semantics_lint.runtime import described_result\n"
        "r = described_result(facts=[], provenance={'measured_at': t, 'source': s})\n"
    ).encode(),
    # A cookie the text cannot be written back in: the engine reads the bytes (SEM001).
    "unknown_codec.py": (
        b"# coding: no-such-codec\n"
        b"from semantics_lint.runtime import described_result\n"
        b"r = described_result(facts=[], provenance={'measured_at': t, 'source': s})\n"
    ),
    "ascii_cookie.py": (
        b"# coding: ascii\n"
        b"from semantics_lint.runtime import described_result\n"
        b"r = described_result(facts=['\xe9'], provenance={'measured_at': t, 'source': s})\n"
    ),
}
TAKES_THE_BYTES = {"unknown_codec.py", "ascii_cookie.py", "not_utf8.py"}
READS_THE_FILE = {"not_utf8.py"}


@pytest.mark.parametrize("name", sorted(AWKWARD))
def test_awkward_files_give_what_the_bytes_gave(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / name
    path.write_bytes(AWKWARD[name])
    if not _parses(path):
        pytest.skip("flake8 reports E999 and runs no plugin")
    results, lines, took_tree = _plugin(path, monkeypatch)
    if name in READS_THE_FILE:
        findings = engine.lint_source(path.read_bytes(), str(path))
        assert results == [(f.start.line, f.start.column, f"{f.code} {f.message}") for f in findings]
    else:
        assert results == _before(lines, str(path))
    assert took_tree is (name not in TAKES_THE_BYTES)
    assert results
    if name in TAKES_THE_BYTES:
        assert [row[2].split()[0] for row in results] == ["SEM001"]


def test_lint_parsed_equals_lint_source_on_the_text(synthetic: list[Path]) -> None:
    for path in [*_testdata(), *synthetic]:
        data = path.read_bytes()
        text = engine.decode_source(data)
        if not isinstance(text, str):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        assert engine.lint_parsed(tree, text, str(path)) == engine.lint_source(data, str(path)), path
