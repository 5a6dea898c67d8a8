"""The semantics-lint benchmark: our linter beside the parse floors and the field's tools.

One command measures, side by side and on the same files, whole-process wall time and
peak memory (median of ``--runs`` samples, each a fresh process tree) of:

    (a) ``ast.parse`` of every file in one process: the floor;
    (b) a bare ``libcst.parse_module`` of every file;
    (c) ``semantics-lint check --jobs 1``;  (d) ``--jobs 2``;
    (e) Fixit with one local rule that reports every ``described_result`` call;
    (f) flake8 with our plugin (``--select SEM``) against flake8 alone, the latter from
        a separate environment without the plugin (flake8's ``--select`` only filters
        output: every installed plugin still runs);
    (g) ``ruff check --no-cache --select F401``, the field's speed reference;

on corpora of several shapes: 2,000 seeded synthetic tool modules that call the API
(``make_corpus.py``), 2,000 name-heavy tool modules whose parts are names bound in the
function or module and constants of sibling modules (``make_shapes.py``), single modules
of 1,000, 4,000 and 19,000 calls (5 MB; ``make_shapes.py``), and the installed Python's
standard library, which almost never calls the API. It prints every figure, every ratio
and whether each target holds, and writes them to ``OUT/results.json`` and
``OUT/table.md``.

Setup, once (needs the network; the benchmark itself never does)::

    .venv/bin/python bench/run.py --setup

Run::

    .venv/bin/python bench/run.py            # full: 5 runs per measurement
    .venv/bin/python bench/run.py --quick    # small smoke run (40 files a corpus, 1 run)

Samples are interleaved (round 1 of every measurement, then round 2...), so a slow
minute of the machine spreads over all tools instead of landing on one.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import make_corpus  # noqa: E402  (bench/ on sys.path, above)
import make_shapes  # noqa: E402

PYTHON = Path(sys.executable)
BIN = PYTHON.parent
FLAKE8_VENV = BENCH / ".venv-flake8"
FLAKE8_PACKAGES = ("flake8", "pyflakes", "pycodestyle", "mccabe")
FIXIT_RULE = ".fixit_described_result:DescribedResultCall"
README = BENCH / "README.md"
README_BEGIN = "<!-- bench-table:begin (written by bench/run.py --update-readme) -->"
README_END = "<!-- bench-table:end -->"
MB = 1_000_000
QUICK_FILES = 40
BIG_SIZES = (1000, 4000, 19000)
"""Calls in each single big module: 1,000 and 4,000 for the cost per call, 19,000 (5 MB)."""
CORPORA = ("synthetic", "names", "big", "stdlib")
# Exit codes that mean "ran and reported findings" rather than "broke".
FINDINGS_EXIT = frozenset({0, 1})


@dataclass(frozen=True)
class Measurement:
    """One command to time on one corpus."""

    key: str
    label: str
    argv: tuple[str, ...]
    cwd: Path
    ok_exit: frozenset[int] = FINDINGS_EXIT
    missing: str | None = None
    """Why this cannot run here (a tool not installed), or None."""
    crash_markers: tuple[str, ...] = ()
    """Output that means the tool broke even though its exit code looks normal."""
    expect_output: bool = False
    """The corpus holds findings for this tool: printing nothing means it linted nothing."""
    warm_up: bool = False
    """Run once, untimed, before the first round (to fill a cache the command reads)."""


@dataclass
class Sample:
    """One fresh-process run of a measurement."""

    wall: float
    cpu: float
    maxrss_kb: int
    returncode: int
    out_lines: int


@dataclass
class Result:
    """All samples of one measurement, and what they add up to."""

    corpus: str
    key: str
    label: str
    command: str
    samples: list[Sample] = field(default_factory=list)
    error: str | None = None
    stdout: str = field(default="", repr=False)
    """What the last sample printed, kept so that later files cannot change it."""

    @property
    def ok(self) -> bool:
        return self.error is None and bool(self.samples)

    @property
    def wall(self) -> float:
        return statistics.median(s.wall for s in self.samples)

    @property
    def cpu(self) -> float:
        return statistics.median(s.cpu for s in self.samples)

    @property
    def rss_mb(self) -> float:
        return statistics.median(s.maxrss_kb for s in self.samples) * 1024 / MB

    @property
    def max_rss_mb(self) -> float:
        return max(s.maxrss_kb for s in self.samples) * 1024 / MB

    @property
    def out_lines(self) -> int:
        return self.samples[-1].out_lines


# ---------------------------------------------------------------------------
# What to run
# ---------------------------------------------------------------------------


def _tool(name: str, bin_dir: Path = BIN) -> tuple[str, str | None]:
    path = bin_dir / name
    if path.exists():
        return str(path), None
    return str(path), f"{name} is not installed in {bin_dir}"


def _installed(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def measurements(corpus: str, root: Path, full: bool) -> list[Measurement]:
    """The commands for one corpus. ``full`` adds the slow ones on the stdlib corpus."""
    py = str(PYTHON)
    target = str(root)
    sl, sl_missing = _tool("semantics-lint")
    fixit, fixit_missing = _tool("fixit")
    ruff, ruff_missing = _tool("ruff")
    flake8, flake8_missing = _tool("flake8")
    alone, alone_missing = _tool("flake8", FLAKE8_VENV / "bin")
    if alone_missing:
        alone_missing += " (create it once with: .venv/bin/python bench/run.py --setup)"
    parse = str(BENCH / "parse_all.py")
    # semantics-lint exits 1 with findings, and also when an uncaught error escapes;
    # flake8 turns a plugin's exception into a one-line report. Neither is a result.
    crashes = ("Traceback (most recent call last)", "failed during execution")
    findings = corpus in ("synthetic", "names") or corpus.startswith("big-")
    everything = [
        Measurement(
            "read",
            "read every file, one process",
            (py, parse, "read", target),
            root,
            frozenset({0}),
        ),
        Measurement("ast", "(a) ast.parse, one process", (py, parse, "ast", target), root, frozenset({0})),
        Measurement(
            "libcst",
            "(b) libcst.parse_module, one process",
            (py, parse, "libcst", target),
            root,
            frozenset({0}),
        ),
        Measurement(
            "sl-jobs1",
            "(c) semantics-lint check --jobs 1",
            (sl, "check", "--no-cache", "--no-respect-gitignore", "--jobs", "1", target),
            root,
            missing=sl_missing,
            crash_markers=crashes,
            expect_output=findings,
        ),
        Measurement(
            "sl-jobs2",
            "(d) semantics-lint check --jobs 2",
            (sl, "check", "--no-cache", "--no-respect-gitignore", "--jobs", "2", target),
            root,
            missing=sl_missing,
            crash_markers=crashes,
            expect_output=findings,
        ),
        Measurement(
            "sl-default",
            "semantics-lint check (default --jobs)",
            (sl, "check", "--no-cache", "--no-respect-gitignore", target),
            root,
            missing=sl_missing,
            crash_markers=crashes,
            expect_output=findings,
        ),
        # The results cache, warm: every file unchanged since the untimed first run.
        Measurement(
            "sl-cached",
            "semantics-lint check --jobs 1, results cache warm",
            (
                sl,
                "check",
                "--cache-dir",
                str(root.parent / f".cache-{root.name}"),
                "--no-respect-gitignore",
                "--jobs",
                "1",
                target,
            ),
            root,
            missing=sl_missing,
            crash_markers=crashes,
            expect_output=findings,
            warm_up=True,
        ),
        # A local Fixit rule is found relative to the working folder (the leading dot).
        # Fixit adds 2 to its exit code for a file it cannot parse; the stdlib holds a
        # few on purpose (test data), which is no failure of the measurement.
        Measurement(
            "fixit",
            "(e) fixit lint, one rule (local, 2 processes)",
            (fixit, "--rules", FIXIT_RULE, "lint", target),
            BENCH,
            FINDINGS_EXIT if findings else frozenset({0, 1, 2, 3}),
            missing=fixit_missing,
            expect_output=findings,
        ),
        Measurement(
            "flake8-alone",
            "(f) flake8 alone (no plugin), --select SEM",
            (alone, "--isolated", "--select", "SEM", target),
            root,
            missing=alone_missing,
            crash_markers=crashes,
        ),
        Measurement(
            "flake8-plugin",
            "(f) flake8 + semantics-lint plugin, --select SEM",
            (flake8, "--isolated", "--select", "SEM", target),
            root,
            missing=flake8_missing,
            crash_markers=crashes,
            expect_output=findings,
        ),
        Measurement(
            "ruff",
            "(g) ruff check --no-cache --select F401",
            (ruff, "check", "--no-cache", "--select", "F401", "--output-format", "concise", target),
            root,
            missing=ruff_missing,
        ),
    ]
    if corpus == "stdlib" and not full:
        # LibCST, Fixit and pycodestyle over ~850k lines take minutes a sample; the
        # targets on this corpus are about the prefilter, so they run only with --full.
        slow = {"libcst", "fixit", "flake8-alone", "flake8-plugin"}
        everything = [m for m in everything if m.key not in slow]
    if corpus == "synthetic":
        everything = [m for m in everything if m.key not in ("sl-default", "read")]
    elif corpus == "names":
        # The shape of the tool code, for the linter against the parse floor.
        everything = [m for m in everything if m.key in ("ast", "sl-jobs1", "sl-jobs2", "ruff")]
    elif corpus.startswith("big-"):
        # One module: the cost per call and the memory of one process.
        everything = [m for m in everything if m.key in ("ast", "sl-jobs1")]
    else:
        everything = [m for m in everything if m.key != "sl-cached"]  # nothing to cache
    return everything


def _compile_linter() -> None:
    """Write the linter's bytecode first, as installing a package does.

    With ``PYTHONDONTWRITEBYTECODE`` set (or a read-only checkout) an editable install
    would compile every module of the linter in every timed process, which no
    installed copy does.
    """
    import semantics_lint

    package = Path(semantics_lint.__file__).resolve().parent
    subprocess.run([str(PYTHON), "-m", "compileall", "-q", str(package)], check=False)


def startup_measurements() -> list[Measurement]:
    """What any Python command pays before it reads a file: the context for small corpora."""
    py = str(PYTHON)
    return [
        Measurement("py-startup", "python -c pass", (py, "-c", "pass"), BENCH, frozenset({0})),
        Measurement(
            "sl-import",
            "python -c 'import semantics_lint.cli'",
            (py, "-c", "import semantics_lint.cli"),
            BENCH,
            frozenset({0}),
        ),
        Measurement(
            "sl-version",
            "semantics-lint --version",
            (_tool("semantics-lint")[0], "--version"),
            BENCH,
            frozenset({0}),
            missing=_tool("semantics-lint")[1],
        ),
    ]


# ---------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Ratio:
    """``numerator / denominator`` on one corpus, and the target it is held to."""

    corpus: str
    numerator: str
    denominator: str
    label: str
    limit: float | None = None
    at_least: bool = False

    def judge(self, value: float) -> bool | None:
        if self.limit is None:
            return None
        return value >= self.limit if self.at_least else value <= self.limit


RATIOS: tuple[Ratio, ...] = (
    Ratio("stdlib", "sl-default", "ruff", "stdlib: semantics-lint check / ruff (target <= 1)", 1.0),
    Ratio("stdlib", "sl-jobs1", "ruff", "stdlib: --jobs 1 / ruff"),
    Ratio("stdlib", "sl-jobs1", "ast", "stdlib: --jobs 1 / ast.parse"),
    Ratio("stdlib", "sl-jobs1", "read", "stdlib: --jobs 1 / reading the files"),
    Ratio("synthetic", "sl-jobs1", "ast", "synthetic: --jobs 1 / ast.parse (target <= 2)", 2.0),
    Ratio("names", "sl-jobs1", "ast", "names: --jobs 1 / ast.parse (target <= 2.5)", 2.5),
    Ratio("names", "sl-jobs1", "ruff", "names: --jobs 1 / ruff"),
    Ratio("big-1000", "sl-jobs1", "ast", "big, 1,000 calls: --jobs 1 / ast.parse"),
    Ratio("big-4000", "sl-jobs1", "ast", "big, 4,000 calls: --jobs 1 / ast.parse (target <= 5)", 5.0),
    Ratio(
        "big-19000",
        "sl-jobs1",
        "ast",
        "big, 19,000 calls (5 MB): --jobs 1 / ast.parse (target < 5)",
        5.0,
    ),
    Ratio("synthetic", "sl-jobs1", "libcst", "synthetic: --jobs 1 / bare LibCST parse"),
    Ratio("synthetic", "libcst", "ast", "synthetic: bare LibCST parse / ast.parse"),
    Ratio(
        "synthetic",
        "fixit",
        "sl-jobs1",
        "synthetic: Fixit / --jobs 1 (target >= 10)",
        10.0,
        at_least=True,
    ),
    Ratio(
        "synthetic",
        "sl-jobs1",
        "sl-jobs2",
        "synthetic: --jobs 1 / --jobs 2 (target >= 1.7)",
        1.7,
        at_least=True,
    ),
    Ratio(
        "synthetic",
        "flake8-plugin",
        "flake8-alone",
        "synthetic: flake8 + plugin / flake8 alone (target <= 1.5)",
        1.5,
    ),
    Ratio(
        "stdlib",
        "flake8-plugin",
        "flake8-alone",
        "stdlib: flake8 + plugin / flake8 alone (target <= 1.5)",
        1.5,
    ),
    Ratio("synthetic", "sl-jobs1", "ruff", "synthetic: --jobs 1 / ruff"),
    Ratio("synthetic", "sl-cached", "sl-jobs1", "synthetic: results cache warm / --jobs 1 afresh"),
)
MEMORY_KEYS = ("sl-jobs1", "sl-jobs2", "sl-default")
MEMORY_LIMIT_MB = 100.0
BIG_MEMORY_LIMIT_MB = 500.0
# Ratios between two corpora: (numerator corpus, key), (denominator corpus, key), label, limit.
CROSS_RATIOS: tuple[tuple[tuple[str, str], tuple[str, str], str, float], ...] = (
    (
        ("big-4000", "sl-jobs1"),
        ("big-1000", "sl-jobs1"),
        "big: --jobs 1 on 4,000 calls / on 1,000 calls (target <= 4.5: linear)",
        4.5,
    ),
)


def _by_key(results: Sequence[Result]) -> dict[tuple[str, str], Result]:
    return {(r.corpus, r.key): r for r in results}


def judge(results: Sequence[Result]) -> list[dict[str, object]]:
    """Every ratio and target, with what was measured or why it could not be."""
    found = _by_key(results)
    rows: list[dict[str, object]] = []
    for ratio in RATIOS:
        num = found.get((ratio.corpus, ratio.numerator))
        den = found.get((ratio.corpus, ratio.denominator))
        row: dict[str, object] = {"label": ratio.label, "target": ratio.limit is not None}
        if num is None or den is None:
            if ratio.limit is None:
                continue
            row.update(value=None, holds=None, why="not measured in this run")
        elif not (num.ok and den.ok):
            broken = num if not num.ok else den
            row.update(value=None, holds=None, why=f"{broken.key}: {broken.error}")
        else:
            value = num.wall / den.wall
            # The CPU ratio says the same without the machine's other load; it is
            # context only (targets are wall time, and parallel runs spend more CPU).
            row.update(value=value, holds=ratio.judge(value), cpu_value=num.cpu / den.cpu)
        rows.append(row)
    one, two = found.get(("synthetic", "sl-jobs1")), found.get(("synthetic", "sl-jobs2"))
    if one is not None and two is not None and one.ok and two.ok:
        # On a busy machine the second worker gets no core of its own, so the wall-time
        # speedup says little. The CPU the two runs spent bounds what an idle 2-core
        # machine could show: 2 workers sharing jobs1's work plus the pool's overhead.
        rows.append(
            {
                "label": "synthetic: --jobs 2 speedup an idle machine allows "
                "(2 x CPU jobs1 / CPU jobs2; estimate)",
                "target": False,
                "value": 2 * one.cpu / two.cpu,
            }
        )
    for (num_corpus, num_key), (den_corpus, den_key), label, limit in CROSS_RATIOS:
        num, den = found.get((num_corpus, num_key)), found.get((den_corpus, den_key))
        if num is None or den is None or not (num.ok and den.ok):
            rows.append(
                {
                    "label": label,
                    "target": True,
                    "value": None,
                    "holds": None,
                    "why": "not measured in this run",
                }
            )
            continue
        value = num.wall / den.wall
        rows.append(
            {
                "label": label,
                "target": True,
                "value": value,
                "holds": value <= limit,
                "cpu_value": num.cpu / den.cpu,
            }
        )
    big = found.get(("big-19000", "sl-jobs1"))
    if big is not None and big.ok:
        rows.append(
            {
                "label": f"big, 5 MB: semantics-lint peak RSS (target < {BIG_MEMORY_LIMIT_MB:g} MB)",
                "target": True,
                "value": big.max_rss_mb,
                "holds": big.max_rss_mb < BIG_MEMORY_LIMIT_MB,
                "unit": "MB",
            }
        )
    for corpus in ("synthetic", "names", "stdlib"):
        measured = [found[(corpus, k)] for k in MEMORY_KEYS if (corpus, k) in found]
        label = f"{corpus}: semantics-lint peak RSS per process (target <= {MEMORY_LIMIT_MB:g} MB)"
        good = [r for r in measured if r.ok]
        if not good:
            rows.append(
                {
                    "label": label,
                    "target": True,
                    "value": None,
                    "holds": None,
                    "why": "not measured in this run"
                    if not measured
                    else f"{measured[0].key}: {measured[0].error}",
                }
            )
            continue
        worst = max(r.max_rss_mb for r in good)
        rows.append(
            {
                "label": label,
                "target": True,
                "value": worst,
                "holds": worst <= MEMORY_LIMIT_MB,
                "unit": "MB",
            }
        )
    return rows


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


def _sample(m: Measurement, out_dir: Path, tag: str) -> Sample:
    out = out_dir / f"{tag}.out"
    proc = subprocess.run(
        [str(PYTHON), str(BENCH / "timed.py"), str(out), "--", *m.argv],
        cwd=m.cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(proc.stdout)
    with out.open("rb") as fh:
        lines = sum(1 for _ in fh)
    return Sample(data["wall"], data["cpu"], data["maxrss_kb"], data["returncode"], lines)


def _output(out_dir: Path, tag: str) -> tuple[str, str]:
    texts = []
    for name in (f"{tag}.out", f"{tag}.out.err"):
        try:
            texts.append((out_dir / name).read_text(encoding="utf-8", errors="replace"))
        except OSError:
            texts.append("")
    return texts[0], texts[1]


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1][:200] if lines else "no output"


def broken(m: Measurement, sample: Sample, out_dir: Path, tag: str) -> str | None:
    """Why ``sample`` is not a measurement of the tool working, or None when it is."""
    stdout, stderr = _output(out_dir, tag)
    if sample.returncode not in m.ok_exit:
        return f"exit {sample.returncode}: {_last_line(stderr or stdout)}"
    for text in (stdout, stderr):
        for marker in m.crash_markers:
            if marker not in text:
                continue
            # A traceback ends with the error itself; flake8's report is its own line.
            if marker.startswith("Traceback"):
                return f"crashed: {_last_line(text)}"
            line = next(line for line in text.splitlines() if marker in line)
            return f"crashed: {line[:200]}"
    if m.expect_output and not any(
        line.strip() and not line.startswith(_SUMMARY_LINES) for line in stdout.splitlines()
    ):
        return "printed no finding on a corpus with planted defects: it linted nothing"
    return None


_SUMMARY_LINES = ("Found ", "All checks passed!", "[*] ", "No fixes available")
"""How the summary lines that follow the findings on stdout begin (semantics-lint's, as
ruff's): a run that printed nothing else printed no finding."""


def run_all(
    plan: Sequence[tuple[str, Measurement]], runs: int, out_dir: Path, log: bool = True
) -> list[Result]:
    """``runs`` interleaved rounds over the plan; a broken command stops being sampled."""
    results = [Result(corpus, m.key, m.label, " ".join(m.argv), error=m.missing) for corpus, m in plan]
    for (corpus, m), result in zip(plan, results, strict=True):
        if m.warm_up and result.error is None:
            _sample(m, out_dir, f"{corpus}.{m.key}.warm-up")
    for round_no in range(runs):
        for (corpus, m), result in zip(plan, results, strict=True):
            if result.error is not None:
                continue
            tag = f"{corpus}.{m.key}"
            sample = _sample(m, out_dir, tag)
            why = broken(m, sample, out_dir, tag)
            if why is not None:
                result.error = why
                continue
            result.samples.append(sample)
            result.stdout = _output(out_dir, tag)[0]
            if log:
                print(
                    f"  run {round_no + 1}/{runs} {corpus:9} {m.key:13} "
                    f"{sample.wall:8.3f} s wall {sample.cpu:8.3f} s cpu "
                    f"{sample.maxrss_kb * 1024 / MB:7.1f} MB",
                    file=sys.stderr,
                    flush=True,
                )
    return results


# ---------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------


def _fmt_ratio(row: dict[str, object]) -> tuple[str, str]:
    value = row.get("value")
    if value is None:
        shown = "n/a"
    elif row.get("unit") == "MB":
        shown = f"{value:.1f} MB"
    else:
        shown = f"{value:.2f}x"
        cpu = row.get("cpu_value")
        if isinstance(cpu, float):
            shown += f" (CPU {cpu:.2f}x)"
    holds = row.get("holds")
    if not row.get("target"):
        verdict = ""
    elif holds is None:
        verdict = f"NOT MEASURED ({row.get('why')})"
    else:
        verdict = "HOLDS" if holds else "MISSED"
    return shown, verdict


_FINDING_LINE = re.compile(r"^.+?:\d+:\d+: (SEM\d{3}) ")


def planted_vs_found(manifest: dict[str, object], out_text: str) -> list[tuple[str, int, int]]:
    """Per code: defects the generator planted, findings semantics-lint printed.

    Not a target: it shows that the figures are those of a linter that finds things
    (and which planted defects it does not prove yet, e.g. behind a name to follow).
    """
    planted: Counter[str] = Counter()
    modules = manifest.get("modules")
    if isinstance(modules, list):
        for module in modules:
            planted.update(module["expected_codes"])
    found: Counter[str] = Counter()
    for line in out_text.splitlines():
        match = _FINDING_LINE.match(line)
        if match:
            found[match.group(1)] += 1
    return [(code, planted[code], found[code]) for code in sorted(planted.keys() | found.keys())]


def same_findings(results: Sequence[Result]) -> str:
    """A warning when ``--jobs 2`` or a warm cache printed other findings than ``--jobs 1``."""
    found = _by_key(results)
    problems = []
    for corpus in ("synthetic", "names", "stdlib"):
        one = found.get((corpus, "sl-jobs1"))
        for other in ("sl-jobs2", "sl-cached"):
            two = found.get((corpus, other))
            if one is None or two is None or not (one.ok and two.ok):
                continue
            if one.stdout != two.stdout:
                problems.append(f"{corpus} ({other})")
    if not problems:
        return ""
    return f"WARNING: printed other findings than --jobs 1 on: {', '.join(problems)}"


def render_markdown(
    results: Sequence[Result],
    rows: Sequence[dict[str, object]],
    context: dict[str, object],
    codes: Sequence[tuple[str, int, int]] = (),
) -> str:
    """The figures and targets as markdown (the table bench/README.md keeps)."""
    header = (
        f"Machine: {context['machine']}; {context['cpus']} CPUs; Python {context['python']}; "
        f"{context['runs']} runs per figure (median); {context['date']}; "
        f"load average {context['load_before']} before, {context['load_after']} after; "
        f"semantics-lint at {context['source']}."
    )
    out = [header, ""]
    for name, info in context["corpora"].items():  # type: ignore[union-attr]
        out.append(f"- **{name}**: {info}")
    if context.get("consistency"):
        out.append(f"- **{context['consistency']}**")
    columns = "| corpus | measurement | wall (s) | CPU (s) | peak RSS (MB) | output lines | note |"
    out += ["", columns, "|---|---|---:|---:|---:|---:|---|"]
    for r in results:
        if r.ok:
            out.append(
                f"| {r.corpus} | {r.label} | {r.wall:.3f} | {r.cpu:.3f} | {r.rss_mb:.1f} | {r.out_lines} | |"
            )
        else:
            out.append(f"| {r.corpus} | {r.label} | | | | | {r.error} |")
    out += ["", "| ratio | value | target |", "|---|---:|---|"]
    for row in rows:
        shown, verdict = _fmt_ratio(row)
        out.append(f"| {row['label']} | {shown} | {verdict} |")
    if codes:
        caption = "Synthetic corpus, `semantics-lint check --jobs 1`: planted defects and findings per code."
        out += ["", caption, "", "| code | planted | found |", "|---|---:|---:|"]
        out += [f"| {code} | {planted} | {found} |" for code, planted, found in codes]
    return "\n".join(out) + "\n"


def print_report(
    results: Sequence[Result],
    rows: Sequence[dict[str, object]],
    codes: Sequence[tuple[str, int, int]] = (),
) -> None:
    print()
    print(f"{'corpus':10} {'measurement':52} {'wall s':>9} {'CPU s':>9} {'RSS MB':>8} {'lines':>7}")
    for r in results:
        if r.ok:
            print(f"{r.corpus:10} {r.label:52} {r.wall:9.3f} {r.cpu:9.3f} {r.rss_mb:8.1f} {r.out_lines:7}")
        else:
            print(f"{r.corpus:10} {r.label:52} {'-':>9} {'-':>9} {'-':>8} {'-':>7}  ({r.error})")
    print()
    for row in rows:
        shown, verdict = _fmt_ratio(row)
        print(f"{row['label']:66} {shown:>22}  {verdict}")
    if codes:
        print("\nsynthetic corpus, --jobs 1: code, planted defects, findings")
        for code, planted, found in codes:
            print(f"  {code}  {planted:6} {found:6}")


def _source_state() -> str:
    """The commit semantics-lint was measured at, and whether src/ had local changes."""
    repo = BENCH.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src"],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return f"{head} with uncommitted changes in src/" if dirty else head


def _measured_source(before: str, after: str) -> str:
    # Teammates commit while a long run goes on; say so rather than name one commit.
    if before == after:
        return after
    return f"{before} at the start and {after} at the end (it changed during the run)"


def _load_average() -> str:
    # Other work on the machine slows every figure; the table says how busy it was.
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def update_readme(table: str, readme: Path = README) -> None:
    """Replace the table between the README's markers with ``table``."""
    text = readme.read_text(encoding="utf-8")
    start, end = text.index(README_BEGIN) + len(README_BEGIN), text.index(README_END)
    readme.write_text(text[:start] + "\n" + table + text[end:], encoding="utf-8")


# ---------------------------------------------------------------------------
# Setup: the flake8-only environment
# ---------------------------------------------------------------------------


def setup_flake8_venv(venv: Path = FLAKE8_VENV) -> None:
    """Create ``venv`` with exactly the flake8 (and its plugins') versions we run, no ours."""
    pins = []
    for dist in FLAKE8_PACKAGES:
        version = _installed(dist)
        if version is None:
            raise SystemExit(f"{dist} is not installed here; install the bench extras first")
        pins.append(f"{dist}=={version}")
    if not (venv / "bin" / "flake8").exists():
        print(f"creating {venv} with {' '.join(pins)} (needs the network once)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", *pins], check=True)
    check = subprocess.run(
        [str(venv / "bin" / "flake8"), "--version"], capture_output=True, text=True, check=True
    )
    if "semantics-lint" in check.stdout:
        raise SystemExit(f"{venv} has the semantics-lint plugin; it must be flake8 alone")
    print(f"{venv}: {check.stdout.strip()}", file=sys.stderr)


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark semantics-lint beside ast, LibCST, Fixit, flake8 and ruff."
    )
    parser.add_argument(
        "--runs", type=int, default=None, help="samples per measurement (default 5; 1 with --quick)"
    )
    parser.add_argument("--quick", action="store_true", help=f"small smoke run: {QUICK_FILES} files a corpus")
    parser.add_argument(
        "--full",
        action="store_true",
        help="also run LibCST, Fixit and flake8 over the stdlib (slow)",
    )
    parser.add_argument(
        "--only", default="", help="comma-separated measurement keys (e.g. ast,libcst,sl-jobs1)"
    )
    parser.add_argument(
        "--corpus", default=",".join(CORPORA), help=f"comma-separated corpora: {', '.join(CORPORA)}"
    )
    parser.add_argument(
        "--count",
        type=int,
        default=None,
        help=f"synthetic modules (default {make_corpus.DEFAULT_COUNT})",
    )
    parser.add_argument("--seed", type=int, default=make_corpus.DEFAULT_SEED)
    parser.add_argument(
        "--work-dir", type=Path, default=BENCH, help="where corpus/ and out/ go (default: bench/)"
    )
    parser.add_argument(
        "--setup", action="store_true", help="create bench/.venv-flake8 (flake8 alone) and exit"
    )
    parser.add_argument("--update-readme", action="store_true", help="write the table into bench/README.md")
    args = parser.parse_args(argv)

    if args.setup:
        setup_flake8_venv()
        return 0
    runs = args.runs if args.runs is not None else (1 if args.quick else 5)
    if runs < 1:
        parser.error("--runs must be at least 1")
    if not args.quick and not (FLAKE8_VENV / "bin" / "flake8").exists():
        # The full run promises measurement (f); make its environment now (network).
        setup_flake8_venv()
    count = (
        args.count if args.count is not None else (QUICK_FILES if args.quick else make_corpus.DEFAULT_COUNT)
    )
    only = {k for k in args.only.split(",") if k}
    corpora = [c for c in args.corpus.split(",") if c]
    unknown = set(corpora) - set(CORPORA)
    if unknown:
        parser.error(f"unknown corpus: {', '.join(sorted(unknown))}")

    prefix = "quick-" if args.quick else ""
    corpus_root = args.work_dir / "corpus"
    # A quick run never overwrites the outputs of a full one (they may run at once).
    out_dir = args.work_dir / "out" / "quick" if args.quick else args.work_dir / "out"
    out_dir.mkdir(parents=True, exist_ok=True)
    plan: list[tuple[str, Measurement]] = []
    described: dict[str, str] = {}
    synthetic_manifest: dict[str, object] = {}
    for corpus in corpora:
        root = (corpus_root / f"{prefix}{corpus}").resolve()
        if corpus == "synthetic":
            manifest = synthetic_manifest = make_corpus.ensure_synthetic(root, count, args.seed)
            modules = manifest["modules"]
            assert isinstance(modules, list)
            lines = sum(int(m["lines"]) for m in modules)
            calls = sum(sum(m["calls"].values()) for m in modules)
            defects = sum(len(m["expected_codes"]) for m in modules)
            described[corpus] = (
                f"{len(modules)} generated tool modules (seed {args.seed}), "
                f"{lines} lines, {calls} API calls, {defects} planted defects"
            )
        elif corpus == "names":
            manifest = make_shapes.ensure_names(
                root, QUICK_FILES if args.quick else make_shapes.NAMES_DEFAULT_COUNT, args.seed
            )
            modules = manifest["modules"]
            assert isinstance(modules, list)
            lines = sum(int(m["lines"]) for m in modules)
            calls = sum(int(m["calls"]) for m in modules)
            described[corpus] = (
                f"{len(modules)} name-heavy tool modules and their sibling constants "
                f"(seed {args.seed}), {lines} lines, {calls} API calls"
            )
        elif corpus == "big":
            sizes = BIG_SIZES[:1] if args.quick else BIG_SIZES
            manifest = make_shapes.ensure_big(root, sizes, args.seed)
            for module in manifest["modules"]:  # type: ignore[union-attr]
                name = f"big-{module['calls']}"
                described[name] = (
                    f"one module of {module['calls']} calls, {module['lines']} lines, "
                    f"{module['bytes'] / MB:.2f} MB (seed {args.seed})"
                )
                folder = (root / module["path"]).parent
                for m in measurements(name, folder, args.full):
                    if not only or m.key in only:
                        plan.append((name, m))
            continue
        else:
            manifest = make_corpus.ensure_stdlib(root, QUICK_FILES if args.quick else None)
            described[corpus] = (
                f"{manifest['count']} files, {manifest['lines']} lines "
                f"of the standard library of Python {platform.python_version()}"
            )
        for m in measurements(corpus, root, args.full):
            if not only or m.key in only:
                plan.append((corpus, m))
    for m in startup_measurements():
        if not only or m.key in only:
            plan.append(("startup", m))

    _compile_linter()
    for _corpus, m in plan:
        if m.warm_up and "--cache-dir" in m.argv:
            # A cache the previous benchmark (another build) left: start from nothing.
            shutil.rmtree(m.argv[m.argv.index("--cache-dir") + 1], ignore_errors=True)
    print(f"{len(plan)} measurements x {runs} runs", file=sys.stderr)
    load_before = _load_average()
    source_before = _source_state()
    results = run_all(plan, runs, out_dir)
    rows = judge(results)
    context: dict[str, object] = {
        "machine": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "runs": runs,
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "load_before": load_before,
        "source": _measured_source(source_before, _source_state()),
        "load_after": _load_average(),
        "corpora": described,
        "versions": {d: _installed(d) for d in ("semantics-lint", "libcst", "fixit", "flake8", "ruff")},
    }
    codes: list[tuple[str, int, int]] = []
    found = _by_key(results).get(("synthetic", "sl-jobs1"))
    if found is not None and found.ok:
        codes = planted_vs_found(synthetic_manifest, found.stdout)
    same = same_findings(results)
    if same:
        print(f"\n{same}", file=sys.stderr)
        context["consistency"] = same
    print_report(results, rows, codes)
    table = render_markdown(results, rows, context, codes)
    (out_dir / "table.md").write_text(table, encoding="utf-8")
    (out_dir / "results.json").write_text(
        json.dumps(
            {
                "context": context,
                "results": [
                    {
                        **{k: v for k, v in asdict(r).items() if k not in ("samples", "stdout")},
                        "samples": [asdict(s) for s in r.samples],
                        "median_wall": r.wall if r.ok else None,
                        "median_rss_mb": r.rss_mb if r.ok else None,
                    }
                    for r in results
                ],
                "ratios": rows,
                "planted_vs_found": codes,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    if args.update_readme:
        update_readme(table)
    print(f"\nwritten: {out_dir / 'table.md'}, {out_dir / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
