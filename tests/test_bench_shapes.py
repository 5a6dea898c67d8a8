"""The benchmark's other corpora and the before/after findings check work.

Nothing here is timed. These tests pin what the corpora of other shapes rest on (seeded,
byte-identical for a seed, valid Python, the calls the manifest promises) and that
``bench/equivalence.py`` tells equal findings from different ones.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from semantics_lint.lint.engine import lint_source

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str) -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


make_shapes = _load("make_shapes")


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _api_calls(text: str) -> int:
    names = {"described_result", "absent", "coverage"}
    return sum(
        1
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names
    )


def test_names_corpus_is_seeded_and_its_manifest_true(tmp_path: Path) -> None:
    first = make_shapes.write_names(tmp_path / "a", count=60, seed=7)
    make_shapes.write_names(tmp_path / "b", count=60, seed=7)
    assert _files(tmp_path / "a") == _files(tmp_path / "b")
    other, _ = make_shapes.render_names_module(8, 3)
    assert other != make_shapes.render_names_module(7, 3)[0]
    modules = first["modules"]
    assert isinstance(modules, list) and len(modules) == 60
    for module in modules:
        text = (tmp_path / "a" / module["path"]).read_text(encoding="utf-8")
        assert _api_calls(text) == module["calls"]
    # Sibling modules hold the constants the tool modules import.
    assert (tmp_path / "a" / "opsdesk" / "group_00" / "constants.py").is_file()
    assert sum(len(m["defects"]) for m in modules) > 0


def test_a_name_imported_from_a_sibling_module_is_followed(tmp_path: Path) -> None:
    # The shape this corpus is about: the hard-coded date lives in constants.py.
    make_shapes.write_names(tmp_path, count=50, seed=7)
    planted = [
        m
        for m in json.loads((tmp_path / "MANIFEST.json").read_text())["modules"]
        if "imported_date_constant" in m["defects"]
    ]
    assert planted
    path = tmp_path / planted[0]["path"]
    findings = lint_source(path.read_bytes(), str(path))
    assert any(
        f.code == "SEM203" and "REPORT_DAY" in f.help and "constants.py" in f.help for f in findings if f.help
    )


def test_big_modules_have_the_calls_asked_for(tmp_path: Path) -> None:
    manifest = make_shapes.write_big(tmp_path, sizes=(50, 120), seed=7)
    for module in manifest["modules"]:  # type: ignore[union-attr]
        text = (tmp_path / module["path"]).read_text(encoding="utf-8")
        assert _api_calls(text) == module["calls"] == int(module["path"].split("_")[-1][:-3])
    again = make_shapes.render_big_module(7, 50)[0]
    assert again == (tmp_path / "calls_50" / "tools_50.py").read_text(encoding="utf-8")


def test_equivalence_check_tells_same_from_different_findings(tmp_path: Path) -> None:
    script = BENCH / "equivalence.py"
    saved = tmp_path / "saved"
    run = [sys.executable, str(script)]
    subprocess.run([*run, "save", str(saved), "--only", "examples", "--default-only"], check=True)
    same = subprocess.run(
        [*run, "check", str(saved), "--only", "examples", "--default-only"],
        capture_output=True,
        text=True,
    )
    assert same.returncode == 0, same.stdout
    assert "equivalent" in same.stdout
    lines = (saved / "examples.default.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["findings"] = [{"code": "SEM999"}]
    lines[0] = json.dumps(first)
    (saved / "examples.default.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    changed = subprocess.run(
        [*run, "check", str(saved), "--only", "examples", "--default-only"],
        capture_output=True,
        text=True,
    )
    assert changed.returncode == 1
    assert "1 files differ" in changed.stdout
