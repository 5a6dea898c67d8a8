"""The benchmark's machinery works: a seeded, faithful corpus and a runner that reports.

Speed is measured by ``bench/run.py``, never here: these tests time nothing and
assert no speed. They pin what the benchmark's figures rest on: the generator is
deterministic and writes modules that parse, with the calls and defects its manifest
promises; the runner runs its cheap measurements on a tiny corpus and judges ratios
as documented.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from semantics_lint import vocabulary as v

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str, as_name: str) -> ModuleType:
    # bench/ is a folder of scripts, not a package: load each by path. run.py imports
    # its sibling as ``make_corpus``, so that one keeps its own name (one copy only).
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(as_name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[as_name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


make_corpus = _load("make_corpus", "make_corpus")
run = _load("run", "_bench_run")


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _api_calls(tree: ast.AST) -> dict[str, int]:
    counts = {name: 0 for name in make_corpus.CALL_NAMES}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in counts:
            counts[name] += 1
    return counts


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    root = tmp_path_factory.mktemp("synthetic")
    return root, make_corpus.write_synthetic(root, count=60, seed=7)


def test_same_seed_gives_identical_files(tmp_path: Path, corpus: tuple[Path, dict[str, object]]) -> None:
    root, _ = corpus
    again = tmp_path / "again"
    make_corpus.write_synthetic(again, count=60, seed=7)
    first, second = _tree(root), _tree(again)
    assert len(first) > 60
    assert first == second


def test_another_seed_gives_other_modules(tmp_path: Path) -> None:
    a, _ = make_corpus.render_module(7, 3)
    b, _ = make_corpus.render_module(8, 3)
    assert a != b


def test_a_module_does_not_depend_on_the_corpus_size(tmp_path: Path) -> None:
    make_corpus.write_synthetic(tmp_path, count=5, seed=7)
    text, info = make_corpus.render_module(7, 4)
    assert (tmp_path / info.path).read_text(encoding="utf-8") == text


def test_modules_parse_and_hold_the_promised_calls(corpus: tuple[Path, dict[str, object]]) -> None:
    root, manifest = corpus
    modules = manifest["modules"]
    assert isinstance(modules, list) and len(modules) == 60
    for info in modules:
        text = (root / info["path"]).read_text(encoding="utf-8")
        tree = ast.parse(text)
        assert make_corpus.MIN_LINES <= text.count("\n") == info["lines"] <= make_corpus.MAX_LINES
        calls = _api_calls(tree)
        assert calls == info["calls"], info["path"]
        assert make_corpus.MIN_CALLS <= sum(calls.values()) <= make_corpus.MAX_CALLS
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == v.DEFAULT_API_MODULES[0]
            for alias in node.names
        }
        assert imported == set(make_corpus.CALL_NAMES)


def test_corpus_plants_defects_and_names_to_follow(corpus: tuple[Path, dict[str, object]]) -> None:
    root, manifest = corpus
    modules = manifest["modules"]
    assert isinstance(modules, list)
    codes = {code for m in modules for code in m["expected_codes"]}
    follows = {name for m in modules for name in m["follows"]}
    # 60 modules hold ~170 calls: every common defect and every kind of name shows up.
    assert {"SEM102", "SEM203", "SEM404"} <= codes
    assert {"prov", "GRAIN", "EXPORT_SOURCE"} <= follows
    for m in modules:
        text = (root / m["path"]).read_text(encoding="utf-8")
        if "snake_case_key" in m["defects"]:
            assert f'"{v.CAMEL_TO_SNAKE["measuredAt"]}"' in text
        if "EXPORT_SOURCE" in m["follows"]:
            assert "from ..shared import EXPORT_SOURCE" in text
    shared = ast.parse((root / make_corpus.PACKAGE / "shared.py").read_text(encoding="utf-8"))
    assigned = {
        t.id for n in shared.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)
    }
    assert "EXPORT_SOURCE" in assigned


def test_ensure_synthetic_reuses_a_current_corpus(tmp_path: Path) -> None:
    first = make_corpus.ensure_synthetic(tmp_path, count=3, seed=1)
    marker = tmp_path / "untouched"
    marker.write_text("")
    assert make_corpus.ensure_synthetic(tmp_path, count=3, seed=1) == first
    assert marker.exists()
    make_corpus.ensure_synthetic(tmp_path, count=4, seed=1)
    assert not marker.exists(), "a different corpus must be regenerated from scratch"


def test_stdlib_copy_skips_site_packages(tmp_path: Path) -> None:
    fake = tmp_path / "lib"
    (fake / "pkg").mkdir(parents=True)
    (fake / "site-packages" / "thirdparty").mkdir(parents=True)
    (fake / "top.py").write_text("x = 1\n")
    (fake / "pkg" / "mod.py").write_text("y = 2\n")
    (fake / "site-packages" / "thirdparty" / "t.py").write_text("z = 3\n")
    manifest = make_corpus.ensure_stdlib(tmp_path / "copy", source=fake)
    assert manifest["files"] == ["pkg/mod.py", "top.py"]
    assert (tmp_path / "copy" / "pkg" / "mod.py").read_text() == "y = 2\n"
    assert (tmp_path / "copy" / "pyproject.toml").is_file()


def test_timed_reports_exit_code_output_and_memory(tmp_path: Path) -> None:
    out = tmp_path / "o.txt"
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH / "timed.py"),
            str(out),
            "--",
            sys.executable,
            "-c",
            "print('hello'); raise SystemExit(3)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(proc.stdout)
    assert data["returncode"] == 3
    assert data["maxrss_kb"] > 0
    assert out.read_text() == "hello\n"


def _result(corpus: str, key: str, wall: float, rss_kb: int = 20_000) -> object:
    result = run.Result(corpus, key, key, key)
    result.samples.append(run.Sample(wall, wall, rss_kb, 0, 1))
    return result


def test_judge_computes_ratios_and_verdicts() -> None:
    results = [
        _result("synthetic", "ast", 1.0),
        _result("synthetic", "sl-jobs1", 2.5),
        _result("synthetic", "sl-jobs2", 2.0),
        _result("synthetic", "fixit", 50.0),
        _result("stdlib", "ruff", 0.5),
        _result("stdlib", "sl-default", 0.4, rss_kb=200_000),
    ]
    rows = {row["label"]: row for row in run.judge(results)}
    jobs = rows["synthetic: --jobs 1 / --jobs 2 (target >= 1.7)"]
    assert jobs["value"] == pytest.approx(1.25) and jobs["holds"] is False
    bound = next(row for label, row in rows.items() if label.startswith("synthetic: --jobs 2 speedup"))
    assert bound["value"] == pytest.approx(2 * 2.5 / 2.0) and bound["target"] is False
    assert rows["synthetic: Fixit / --jobs 1 (target >= 10)"]["holds"] is True
    assert rows["synthetic: --jobs 1 / ast.parse (target <= 2)"]["holds"] is False
    assert rows["stdlib: semantics-lint check / ruff (target <= 1)"]["holds"] is True
    memory = rows["stdlib: semantics-lint peak RSS per process (target <= 100 MB)"]
    assert memory["holds"] is False and memory["value"] == pytest.approx(204.8)
    flake8 = rows["synthetic: flake8 + plugin / flake8 alone (target <= 1.5)"]
    assert flake8["holds"] is None and flake8["why"]


def test_a_broken_tool_is_reported_not_timed(tmp_path: Path) -> None:
    m = run.Measurement(
        "x",
        "x",
        ("x",),
        tmp_path,
        crash_markers=("Traceback (most recent call last)",),
        expect_output=True,
    )
    (tmp_path / "t.out").write_text("")
    (tmp_path / "t.out.err").write_text("Traceback (most recent call last):\nValueError: boom\n")
    assert run.broken(m, run.Sample(1.0, 1.0, 1, 1, 0), tmp_path, "t") == "crashed: ValueError: boom"
    (tmp_path / "t.out.err").write_text("")
    assert "linted nothing" in str(run.broken(m, run.Sample(1.0, 1.0, 1, 0, 0), tmp_path, "t"))
    (tmp_path / "t.out").write_text("All checks passed!\n")  # the summary alone is no finding
    assert "linted nothing" in str(run.broken(m, run.Sample(1.0, 1.0, 1, 0, 1), tmp_path, "t"))
    assert run.broken(m, run.Sample(1.0, 1.0, 1, 2, 3), tmp_path, "t").startswith("exit 2")
    (tmp_path / "t.out").write_text("a.py:1:1: SEM105 x\nFound 1 error.\n")
    assert run.broken(m, run.Sample(1.0, 1.0, 1, 1, 3), tmp_path, "t") is None


def test_update_readme_replaces_only_the_marked_table(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{run.README_BEGIN}\nold\n{run.README_END}\nafter\n")
    run.update_readme("| new |\n", readme)
    assert readme.read_text() == f"intro\n{run.README_BEGIN}\n| new |\n{run.README_END}\nafter\n"


def test_quick_run_measures_the_cheap_floors(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH / "run.py"),
            "--quick",
            "--count",
            "6",
            "--only",
            "ast,libcst,py-startup",
            "--work-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "out" / "quick" / "results.json").read_text())
    got = {(r["corpus"], r["key"]): r for r in data["results"]}
    # LibCST over the stdlib runs only with --full; the name-heavy corpus and the big
    # module are measured against the parse floor alone.
    assert set(got) == {
        ("synthetic", "ast"),
        ("synthetic", "libcst"),
        ("stdlib", "ast"),
        ("names", "ast"),
        ("big-1000", "ast"),
        ("startup", "py-startup"),
    }
    for result in got.values():
        assert result["error"] is None
        assert len(result["samples"]) == 1
    parse_line = (tmp_path / "out" / "quick" / "synthetic.ast.out").read_text()
    # 6 tool modules + the package's shared module and __init__ files.
    assert parse_line.startswith("ast: parsed=") and "failed=0" in parse_line
    assert int(parse_line.split("parsed=")[1].split()[0]) >= 6
    table = (tmp_path / "out" / "quick" / "table.md").read_text()
    assert "(a) ast.parse, one process" in table and "| ratio |" in table


def test_fixit_baseline_rule_reports_each_described_result_call(tmp_path: Path) -> None:
    pytest.importorskip("fixit")
    fixit = Path(sys.executable).parent / "fixit"
    if not fixit.exists():
        pytest.skip("the fixit command is not installed")
    (tmp_path / "pyproject.toml").write_text("[tool.fixit]\nroot = true\n")
    (tmp_path / "tool.py").write_text(
        "from semantics_lint.runtime import described_result\n"
        "described_result(facts=rows)\n"
        "api.describedResult(facts=rows)\n"
        "described_result_of(rows)\n"
    )
    proc = subprocess.run(
        [str(fixit), "--rules", run.FIXIT_RULE, "lint", str(tmp_path / "tool.py")],
        cwd=BENCH,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    reported = [line for line in proc.stdout.splitlines() if "DescribedResultCall" in line]
    assert [line.split("@")[1].split()[0] for line in reported] == ["2:0", "3:0"], proc.stdout + proc.stderr


def test_planted_defects_are_counted_beside_findings() -> None:
    manifest = {"modules": [{"expected_codes": ["SEM102", "SEM203"]}, {"expected_codes": ["SEM102"]}]}
    out = (
        "a/b.py:3:9: SEM102 `measured_at` is the wire spelling\n"
        "a/c.py:10:1: SEM105 `facts` is empty\n"
        "Found 2 errors.\n"
    )
    assert run.planted_vs_found(manifest, out) == [
        ("SEM102", 2, 1),
        ("SEM105", 0, 1),
        ("SEM203", 1, 0),
    ]


def test_rules_instructions_leaves_out_one_rule_at_a_time(tmp_path: Path) -> None:
    # The script each callgrind process runs, run here without callgrind: leaving a
    # code out loses exactly that code's findings, and "rules" leaves every rule out.
    rules_instructions = _load("rules_instructions", "_bench_rules_instructions")
    (tmp_path / "tool.py").write_text(
        "from semantics_lint.runtime import described_result\n\n"
        "def tool(export):\n"
        "    return described_result(facts=export.rows, provenance={'measured_at': export.at, 'source': 'cmdb'})\n"
    )

    def findings(left_out: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-c", rules_instructions._SCRIPT, str(tmp_path), "1", left_out],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()

    assert findings("every-rule") == "1"  # SEM102: measured_at
    assert findings("SEM102") == "0"
    assert findings("SEM202") == "1"
    assert findings("rules") == "0"
    assert findings("start") == ""


def test_the_projects_corpus_reaches_across_modules_through_astroid(tmp_path: Path) -> None:
    """``bench/projects.py`` on a few of ``make_projects.py``'s packages: the same files
    for the same seed, and a lint that builds modules with astroid and finds dates
    imported from other modules (the shape the other corpora hardly reach)."""
    make_projects = _load("make_projects", "make_projects")
    first, again = tmp_path / "one", tmp_path / "two"
    make_projects.ensure_projects(first, 12)
    make_projects.ensure_projects(again, 12)
    files = sorted(p.relative_to(first) for p in first.rglob("*.py"))
    assert files == sorted(p.relative_to(again) for p in again.rglob("*.py"))
    assert all((first / f).read_bytes() == (again / f).read_bytes() for f in files)
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "projects.py"),
            "--runs",
            "1",
            "--count",
            "12",
            "--corpus",
            str(first),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    counts = re.match(r"12 projects, \d+ files: (\d+) findings, (\d+) modules built by astroid", done.stdout)
    assert counts is not None, done.stdout
    assert int(counts[1]) > 0 and int(counts[2]) > 0, done.stdout
    # Every part of every call in a tools.py is a name imported from another module:
    # dates written in those modules are found across the import.
    from semantics_lint.lint import engine
    from semantics_lint.lint.resolve import ProjectCache

    across = 0
    for tools in sorted(first.glob("p*/pkg/tools.py")):
        with ProjectCache() as run:
            across += sum(
                f.code == "SEM203" for f in engine.lint(tools.read_bytes(), str(tools), project=run).findings
            )
    assert across > 0
