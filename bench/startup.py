"""What a pre-commit run or an editor save pays: start-up, beside ``python -c pass`` and ruff.

pre-commit hands the linter the few files a commit touches, and an editor lints one
buffer, so there the whole cost is start-up. Each row is a whole process, timed from
the outside, median of ``--runs`` samples (default 11), samples interleaved across
rows (round 1 of every row, then round 2...), bytecode compiled first as an installed
package has it; semantics-lint runs with ``--no-cache`` unless the row says otherwise.

Rows (the files are written into ``--work-dir``, by default ``semantics-lint-startup`` in
the system's temporary folder: outside this repository, whose ``pyproject.toml``
configures semantics-lint and would be found and parsed by every row, as no real
project above a user's files is):

* ``python -c pass``: the interpreter alone, the floor of any Python tool;
* one clean file (five lines, no call of ours), one tool module with one SEM102, and
  ten files (seven plain modules, three tool modules, one finding), each beside
  ``ruff check --no-cache`` on the same files;
* the clean file with the results cache on, as pre-commit runs it by default;
* the tool module again in a project that configures semantics-lint (its
  ``pyproject.toml`` has ``[tool.semantics-lint]``, so TOML is parsed), and with the
  results cache warm;
* the standard library as the main benchmark's corpus has it, and the same without
  its tests (folders ``test``, ``tests``, ``idle_test`` and ``test_*.py``), beside
  ``ruff check --no-cache --select F401``.

* ``semantics-lint --help`` and ``semantics-lint check --help``.

Run::

    .venv/bin/python bench/startup.py [--runs 11] [--only KEY,...] [--baseline SRC] [--instructions]

It prints a Markdown table (wall and CPU medians, and ratios to ruff) and writes it
to ``bench/out/startup.md``. ``--baseline SRC`` (the ``src`` folder of another
checkout, say of main before a change) adds, beside each semantics-lint row, the
same command run with that code first on ``PYTHONPATH``, sampled in the same rounds,
and the ratio of the two. ``--instructions`` counts, instead of timing, the
instructions of one run of each row under ``valgrind --tool=callgrind``: a figure
that does not move with the machine's load. Targets (issue 17): a file without calls <= 60 ms, a tool
module with a finding <= 120 ms, the stdlib copy without tests no slower than ruff
F401 (goal 0.7x).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import make_corpus  # noqa: E402 - the benchmark's own helper, beside this file

PYTHON = Path(sys.executable)
BIN = PYTHON.parent
TEST_FOLDERS = frozenset({"test", "tests", "idle_test"})

CLEAN = "import os\n\n\ndef helper(path):\n    return os.path.join(path, 'x')\n"
TOOL = """\
from semantics_lint.runtime import absent, described_result


def vm_backup_status(export, vm):
    runs = [r for r in export.runs if r.vm == vm]
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every backup job in the export"])
    return described_result(
        series=[{"t": r.day, "entity": vm, "metric": "backup_runs_ok", "value": r.ok} for r in runs],
        grain={"interval": "daily", "aggregation": "count", "isCounter": False},
        provenance={"measured_at": export.exported_at, "source": export.source},
    )
"""
PLAIN_PYPROJECT = """\
# Written by bench/startup.py: a project root that does not configure semantics-lint.
[tool.ruff]
respect-gitignore = false
"""
CONFIGURED_PYPROJECT = PLAIN_PYPROJECT + '\n[tool.semantics-lint]\nignore = ["SEM604"]\n'


@dataclass
class Row:
    key: str
    label: str
    argv: list[str]
    cwd: Path
    against: str | None = None
    """The key of the row this one is compared with (ruff on the same files)."""
    target: str = ""
    warm_up: bool = False
    env: dict[str, str] | None = None
    """The environment of the command (None: this process's)."""
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    error: str | None = None


def _prepare(work: Path) -> dict[str, Path]:
    """The files of the small rows and the two stdlib copies; their folders by name."""
    if work.exists():
        shutil.rmtree(work)
    folders = {name: work / name for name in ("plain", "configured", "ten")}
    for name, folder in folders.items():
        folder.mkdir(parents=True)
        config = CONFIGURED_PYPROJECT if name == "configured" else PLAIN_PYPROJECT
        (folder / "pyproject.toml").write_text(config, encoding="utf-8")
    (folders["plain"] / "clean.py").write_text(CLEAN, encoding="utf-8")
    (folders["plain"] / "tool.py").write_text(TOOL, encoding="utf-8")
    (folders["configured"] / "tool.py").write_text(TOOL, encoding="utf-8")
    for index in range(7):
        (folders["ten"] / f"helper{index}.py").write_text(
            CLEAN.replace("'x'", f"'x{index}'"), encoding="utf-8"
        )
    (folders["ten"] / "tool0.py").write_text(TOOL, encoding="utf-8")
    for index in (1, 2):
        (folders["ten"] / f"tool{index}.py").write_text(
            TOOL.replace("measured_at", "measuredAt"), encoding="utf-8"
        )
    stdlib = BENCH / "corpus" / "stdlib"
    make_corpus.ensure_stdlib(stdlib)
    folders["stdlib"] = stdlib
    without_tests = work / "stdlib-without-tests"
    for path in sorted(stdlib.rglob("*.py")):
        relative = path.relative_to(stdlib)
        if TEST_FOLDERS.intersection(relative.parts[:-1]) or relative.name.startswith("test_"):
            continue
        destination = without_tests / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, destination)
    (without_tests / "pyproject.toml").write_text(make_corpus.CORPUS_PYPROJECT, encoding="utf-8")
    folders["stdlib-without-tests"] = without_tests
    return folders


def _rows(folders: dict[str, Path], work: Path) -> list[Row]:
    sl = str(BIN / "semantics-lint")
    ruff = str(BIN / "ruff")
    plain, configured, ten = folders["plain"], folders["configured"], folders["ten"]
    ten_files = sorted(p.name for p in ten.glob("*.py"))
    check = [sl, "check", "--no-cache"]
    ruff_check = [ruff, "check", "--no-cache", "--output-format", "concise"]
    cache = str(work / ".semantics-lint-cache")
    rows = [
        Row("python", "python -c pass", [str(PYTHON), "-c", "pass"], plain),
        Row(
            "sl-clean",
            "semantics-lint check clean.py (no call of ours)",
            [*check, "clean.py"],
            plain,
            "ruff-clean",
            "<= 60 ms",
        ),
        Row(
            "sl-clean-cache",
            "semantics-lint check clean.py, results cache on (the default)",
            [sl, "check", "--cache-dir", cache, "clean.py"],
            plain,
            "ruff-clean",
        ),
        Row("ruff-clean", "ruff check clean.py", [*ruff_check, "clean.py"], plain),
        Row(
            "sl-tool",
            "semantics-lint check tool.py (one SEM102)",
            [*check, "tool.py"],
            plain,
            "ruff-tool",
            "<= 120 ms",
        ),
        Row("ruff-tool", "ruff check tool.py", [*ruff_check, "tool.py"], plain),
        Row(
            "sl-tool-configured",
            "semantics-lint check tool.py, [tool.semantics-lint] in pyproject",
            [*check, "tool.py"],
            configured,
            "ruff-tool",
        ),
        Row(
            "sl-tool-cached",
            "semantics-lint check tool.py, results cache warm",
            [sl, "check", "--cache-dir", cache, "tool.py"],
            plain,
            "ruff-tool",
            warm_up=True,
        ),
        Row(
            "sl-ten",
            "semantics-lint check, ten files (3 tool modules)",
            [*check, *ten_files],
            ten,
            "ruff-ten",
        ),
        Row("ruff-ten", "ruff check, ten files", [*ruff_check, *ten_files], ten),
        Row("sl-help", "semantics-lint --help", [sl, "--help"], plain),
        Row("sl-check-help", "semantics-lint check --help", [sl, "check", "--help"], plain),
    ]
    for name in ("stdlib", "stdlib-without-tests"):
        folder = folders[name]
        count = sum(1 for _ in folder.rglob("*.py"))
        rows.append(
            Row(
                f"sl-{name}",
                f"semantics-lint check, {name} ({count} files)",
                [*check, "--no-respect-gitignore", "."],
                folder,
                f"ruff-{name}",
                "<= 1.0x ruff (goal 0.7x)" if name == "stdlib-without-tests" else "",
            )
        )
        rows.append(
            Row(
                f"ruff-{name}",
                f"ruff check --select F401, {name}",
                [*ruff_check, "--select", "F401", "."],
                folder,
            )
        )
    return rows


def _with_baseline(rows: list[Row], baseline: Path) -> list[Row]:
    """Each semantics-lint row, then the same with ``baseline`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(baseline.resolve())}
    out: list[Row] = []
    for row in rows:
        out.append(row)
        if row.key.startswith("sl-"):
            out.append(
                Row(
                    f"{row.key}@baseline",
                    f"{row.label} (baseline)",
                    row.argv,
                    row.cwd,
                    row.key,
                    warm_up=row.warm_up,
                    env=env,
                )
            )
            # The row itself is compared with its baseline (and still with ruff).
    return out


def _sample(row: Row) -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        row.argv,
        cwd=row.cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
        env=row.env,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1) or b"Traceback" in done.stderr:
        row.error = f"exit {done.returncode}: {done.stderr.decode(errors='replace')[-300:]}"
        return
    row.wall.append(wall)
    row.cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _instructions(row: Row) -> int | None:
    """The instructions of one run of ``row`` under callgrind (None: it failed)."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            "--trace-children=yes",
            *row.argv,
        ],
        cwd=row.cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        # One hash seed: with random ones, the count of a run moves by a few per cent.
        text=True,
        check=False,
        env={**(row.env or os.environ), "PYTHONHASHSEED": "0"},
    )
    counts = [int(found) for found in _COLLECTED.findall(done.stderr)]
    if done.returncode not in (0, 1) or not counts:
        row.error = f"exit {done.returncode}: {done.stderr[-300:]}"
        return None
    return sum(counts)


def _instructions_table(rows: list[Row]) -> str:
    counts = {row.key: _instructions(row) for row in rows}
    lines = [
        f"Instructions of one run each (valgrind --tool=callgrind), {time.strftime('%Y-%m-%d %H:%M')}, "
        f"Python {sys.version.split()[0]}.",
        "",
        "| row | instructions (millions) | vs baseline (else ruff) |",
        "|---|---:|---:|",
    ]
    for row in rows:
        count = counts[row.key]
        if count is None:
            lines.append(f"| {row.label} | broken: {(row.error or '').splitlines()[-1:]} | |")
            continue
        other = counts.get(f"{row.key}@baseline") or (
            counts.get(row.against or "") if row.env is None else None
        )
        ratio = f"{count / other:.2f}x" if other else ""
        lines.append(f"| {row.label} | {count / 1e6:.1f} | {ratio} |")
    return "\n".join(lines) + "\n"


def _compile(baseline: Path | None = None) -> None:
    """Bytecode for the linter and every installed package, as an installed wheel has it."""
    import semantics_lint

    package = Path(semantics_lint.__file__).resolve().parent
    for folder in (package, BIN.parent / "lib", *([baseline] if baseline else [])):
        subprocess.run(
            [str(PYTHON), "-m", "compileall", "-q", str(folder)],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


def _table(rows: list[Row], runs: int) -> str:
    by_key = {row.key: row for row in rows}
    lines = [
        f"Median of {runs} whole processes each (wall and CPU = user + system), "
        f"{time.strftime('%Y-%m-%d %H:%M')}, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} cores.",
        f"1-minute load average at the end: {os.getloadavg()[0]:.2f}.",
        "",
        "| row | wall ms | CPU ms | vs ruff (wall) | vs baseline (wall, CPU) | target |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        if row.error is not None:
            lines.append(
                f"| {row.label} | broken: {row.error.splitlines()[-1] if row.error else ''} | | | | |"
            )
            continue
        if not row.wall:
            continue
        wall = statistics.median(row.wall) * 1000
        cpu = statistics.median(row.cpu) * 1000
        ratio = baseline = ""
        other = by_key.get(row.against or "")
        if other is not None and other.wall and row.env is None:
            ratio = f"{wall / (statistics.median(other.wall) * 1000):.2f}x"
        twin = by_key.get(f"{row.key}@baseline")
        if twin is not None and twin.wall:
            baseline = (
                f"{statistics.median(row.wall) / statistics.median(twin.wall):.2f}x, "
                f"{statistics.median(row.cpu) / statistics.median(twin.cpu):.2f}x"
            )
        lines.append(f"| {row.label} | {wall:.1f} | {cpu:.1f} | {ratio} | {baseline} | {row.target} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--only", default="", help="comma-separated row keys")
    parser.add_argument(
        "--work-dir", type=Path, default=Path(tempfile.gettempdir()) / "semantics-lint-startup"
    )
    parser.add_argument("--baseline", type=Path, help="the src folder of another checkout, run beside")
    parser.add_argument("--instructions", action="store_true", help="count instructions (callgrind)")
    args = parser.parse_args(argv)
    if not (BIN / "ruff").exists():
        print("ruff is not installed in this environment: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    folders = _prepare(args.work_dir)
    rows = _rows(folders, args.work_dir)
    if args.only:
        wanted = set(args.only.split(","))
        rows = [row for row in rows if row.key in wanted or row.key == "python"]
    if args.baseline is not None:
        rows = _with_baseline(rows, args.baseline)
    _compile(args.baseline)
    for row in rows:
        if row.warm_up:
            subprocess.run(row.argv, cwd=row.cwd, capture_output=True, check=False, env=row.env)
    if args.instructions:
        table = _instructions_table(rows)
    else:
        for _ in range(args.runs):
            for row in rows:
                if row.error is None:
                    _sample(row)
        table = _table(rows, args.runs)
    print(table)
    out = BENCH / "out"
    out.mkdir(exist_ok=True)
    (out / "startup.md").write_text(table, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
