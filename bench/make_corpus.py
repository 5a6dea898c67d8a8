"""Build the benchmark's two corpora: seeded synthetic tool modules, and a stdlib copy.

* **synthetic**: ``count`` tool modules (80-150 lines each) that call the declaration
  API 2-6 times each (``described_result(...)``, ``absent(...)``, ``coverage(...)``,
  imported from ``semantics_lint.runtime``). Some calls carry a defect the linter
  should prove (a snake_case key, a hard-coded ``measuredAt``, ``facts=[]``...), and
  some hold names the linter has to follow (a module constant, a name bound once, a
  constant imported from a shared module of the same package). The corpus is a
  package, ``fleettools``, so cross-module imports are resolvable by source alone.
  Everything is a function of ``(seed, module index)``: the same seed gives
  byte-identical files, and module ``i`` is the same whatever ``count`` is.
* **stdlib**: a copy of the installed Python's standard library (``site-packages``
  left out): a large corpus that almost never calls the API, where the prefilter
  should make the linter cost little more than reading the files.

Each corpus directory gets a ``pyproject.toml`` that makes it a project root of its
own, so configuration and ``.gitignore`` files of the checkout around it (``bench/corpus/``
is git-ignored) do not change what the measured tools lint. A ``MANIFEST.json`` says
what was generated (and lets ``ensure_*`` skip work when nothing changed).

The generated modules are text only: nothing here imports or runs them.

Usage::

    python bench/make_corpus.py [--out bench/corpus] [--count 2000] [--seed N] [--stdlib]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
import sysconfig
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from semantics_lint import vocabulary as v

GENERATOR_VERSION = 1
"""Bump when the generated text changes, so stale corpora are regenerated."""

DEFAULT_SEED = 20261130
DEFAULT_COUNT = 2000
MIN_LINES = 80
MAX_LINES = 150
MIN_CALLS = 2
MAX_CALLS = 6
MODULES_PER_GROUP = 100
PACKAGE = "fleettools"
API_MODULE = v.DEFAULT_API_MODULES[0]
CALL_NAMES = ("described_result", "absent", "coverage")
MANIFEST = "MANIFEST.json"

# Marks a corpus directory as a project root for every measured tool: Fixit's file
# walker (trailrunner) and ruff both look upward for pyproject.toml. The ruff table
# turns off its default excludes (the stdlib has a ``venv`` package) and .gitignore;
# semantics-lint gets the same excludes here and ``--no-respect-gitignore`` from run.py.
CORPUS_PYPROJECT = """\
# Written by bench/make_corpus.py: makes this corpus a project root of its own, so the
# measured tools read no configuration or .gitignore from the checkout around it.
[tool.fixit]
root = true

[tool.ruff]
respect-gitignore = false
exclude = []

[tool.semantics-lint]
exclude = []
"""


# ---------------------------------------------------------------------------
# Domains: words that make modules differ from one another
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Domain:
    """The vocabulary of one kind of tool: what it measures and where from."""

    topic: str
    entity: str
    metric: str
    fact: str
    source: str
    interval: str
    aggregation: str
    blind_spot: str
    blind_reason: str


DOMAINS: tuple[Domain, ...] = (
    Domain(
        "backup",
        "vm",
        "backup_runs_ok",
        "backed_up",
        "cohesity-export",
        "daily",
        "count",
        "PPDM",
        "not collected on this install",
    ),
    Domain(
        "replication",
        "array",
        "pairs_in_sync",
        "in_sync",
        "unisphere-api",
        "hourly",
        "last",
        "NDM sessions",
        "the API does not list them",
    ),
    Domain(
        "capacity",
        "pool",
        "used_bytes",
        "full",
        "storage-inventory",
        "daily",
        "max",
        "thin-provisioned LUNs",
        "the inventory reports allocated size only",
    ),
    Domain(
        "tickets",
        "queue",
        "tickets_opened",
        "overloaded",
        "servicedesk-export",
        "weekly",
        "sum",
        "email-only requests",
        "they never reach the desk",
    ),
    Domain(
        "certificates",
        "host",
        "days_to_expiry",
        "expiring",
        "cert-scanner",
        "daily",
        "min",
        "internal CAs",
        "the scanner trusts public roots only",
    ),
    Domain(
        "latency",
        "service",
        "p95_ms",
        "slow",
        "tracing-store",
        "minute",
        "p95",
        "batch jobs",
        "they are not traced",
    ),
    Domain(
        "patching",
        "server",
        "missing_patches",
        "compliant",
        "wsus-report",
        "daily",
        "total",
        "air-gapped servers",
        "the agent cannot reach them",
    ),
    Domain(
        "licenses",
        "product",
        "seats_used",
        "over_limit",
        "license-portal",
        "monthly",
        "cumulative",
        "trial seats",
        "the portal hides them",
    ),
)

# Defects one call may carry, with the code the linter should report for each. Keys and
# words come from the vocabulary so a change there changes the corpus too.
DESCRIBED_DEFECTS: tuple[tuple[str, str], ...] = (
    ("snake_case_key", "SEM102"),
    ("hard_coded_date", "SEM203"),
    ("hard_coded_date_constant", "SEM203"),
    ("clock_measured_at", "SEM204"),
    ("empty_facts", "SEM105"),
    ("no_provenance", "SEM201"),
    ("series_without_grain", "SEM301"),
    ("counter_without_is_counter", "SEM302"),
    ("cannot_cover_without_why", "SEM401"),
    ("unknown_key", "SEM101"),
    ("derived_field", "SEM103"),
)
ABSENT_DEFECTS: tuple[tuple[str, str], ...] = (("absent_without_checked", "SEM404"),)
COVERAGE_DEFECTS: tuple[tuple[str, str], ...] = (
    ("coverage_snake_case_key", "SEM102"),
    ("coverage_wraps_described_result", "SEM403"),
)

DEFECT_RATE_DESCRIBED = 0.3
DEFECT_RATE_OTHER = 0.15
CROSS_MODULE_RATE = 0.15
"""Share of modules that take their ``source`` from the package's shared module."""

SHARED_MODULE_TEXT = '''"""Constants shared by the generated tool modules (bench/make_corpus.py)."""

EXPORT_SOURCE = "fleet-export"
EXPORTED_AT_LITERAL = "2024-05-01T00:00:00Z"
LONG_GRAIN = {"interval": "daily", "aggregation": "last", "isCounter": False}
'''


# ---------------------------------------------------------------------------
# What was generated
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ModuleInfo:
    """One generated tool module: where it is, its size, its calls and its defects."""

    path: str
    lines: int
    calls: dict[str, int]
    defects: tuple[str, ...]
    expected_codes: tuple[str, ...]
    follows: tuple[str, ...]


@dataclass
class _Module:
    """A module being written: sections of lines, and what they hold."""

    header: list[str] = field(default_factory=list)
    helpers: list[list[str]] = field(default_factory=list)
    tools: list[list[str]] = field(default_factory=list)
    calls: dict[str, int] = field(default_factory=lambda: {name: 0 for name in CALL_NAMES})
    defects: list[str] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    follows: list[str] = field(default_factory=list)

    def text(self) -> str:
        blocks = [self.header, *self.helpers, *self.tools]
        out: list[str] = []
        for i, block in enumerate(blocks):
            if i:
                out.extend(["", ""])
            out.extend(block)
        return "\n".join(out) + "\n"

    def line_count(self) -> int:
        return self.text().count("\n")


def module_relpath(index: int) -> str:
    """Where module ``index`` lives inside the synthetic corpus directory."""
    return f"{PACKAGE}/group_{index // MODULES_PER_GROUP:02d}/tool_{index:04d}.py"


def _rng(seed: int, index: int) -> random.Random:
    # A string seed is hashed with SHA-512 by ``random``: stable across processes and
    # independent of PYTHONHASHSEED.
    return random.Random(f"semantics-lint-bench:{GENERATOR_VERSION}:{seed}:{index}")


def _pick_defect(rng: random.Random, rate: float, menu: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    return rng.choice(menu) if rng.random() < rate else None


def _snake_of(camel: str) -> str:
    return v.CAMEL_TO_SNAKE[camel]


def _described_call(
    rng: random.Random, mod: _Module, dom: Domain, fn_index: int, use_shared: bool
) -> list[str]:
    """The body lines (indented 4) that end a tool function with ``described_result``."""
    defect = _pick_defect(rng, DEFECT_RATE_DESCRIBED, DESCRIBED_DEFECTS)
    kind = defect[0] if defect else ""
    if defect:
        mod.defects.append(kind)
        mod.codes.append(defect[1])
    ent, met = dom.entity, dom.metric
    body: list[str] = ["    latest = rows[-1]"]

    # measuredAt: from the data, unless the defect says otherwise.
    measured = 'export["exported_at"]'
    if kind == "hard_coded_date":
        measured = f'"2024-0{rng.randint(1, 9)}-{rng.randint(10, 28)}T00:00:00Z"'
    elif kind == "hard_coded_date_constant":
        measured = "EXPORTED_AT"
        mod.follows.append("EXPORTED_AT")
    elif kind == "clock_measured_at":
        measured = "datetime.datetime.now(datetime.timezone.utc).isoformat()"
    source = "EXPORT_SOURCE" if use_shared else "SOURCE"
    if use_shared and "EXPORT_SOURCE" not in mod.follows:
        mod.follows.append("EXPORT_SOURCE")
    measured_key = _snake_of("measuredAt") if kind == "snake_case_key" else "measuredAt"
    prov_extra = ', "note": "hand-written"' if kind == "derived_field" else ""
    source_key = "sorce" if kind == "unknown_key" else "source"

    # Half of the provenances go through a name bound once: a name to follow.
    prov_expr = f'{{"{measured_key}": {measured}, "{source_key}": {source}{prov_extra}}}'
    if rng.random() < 0.5:
        body.append(f"    prov = {prov_expr}")
        prov_expr = "prov"
        mod.follows.append("prov")

    facts = (
        "[]"
        if kind == "empty_facts"
        else f'[{{"entity": {ent}, "{dom.fact}": latest.value > 0, "seen": len(rows)}}]'
    )
    args = [f"facts={facts},"]
    with_series = kind in ("series_without_grain", "counter_without_is_counter") or (rng.random() < 0.6)
    if with_series:
        args.append(
            f'series=[{{"t": r.day, "entity": {ent}, "metric": "{met}", "value": r.value}} for r in rows],'
        )
        if kind == "counter_without_is_counter":
            word = rng.choice(v.COUNTER_AGGREGATION_WORDS)
            args.append(f'grain={{"interval": "{dom.interval}", "aggregation": "{word}"}},')
        elif kind != "series_without_grain":
            if rng.random() < 0.4:
                args.append("grain=GRAIN,")
                mod.follows.append("GRAIN")
            else:
                # One period's count or sum is not a counter (adding periods gives a
                # longer period's total), so every domain states isCounter: False.
                args.append(
                    f'grain={{"interval": "{dom.interval}", "aggregation": '
                    f'"{dom.aggregation}", "isCounter": False}},'
                )
    if kind != "no_provenance":
        args.append(f"provenance={prov_expr},")
    if kind == "cannot_cover_without_why":
        cannot = f'["{dom.blind_spot}"]'
    else:
        cannot = f'[{{"what": "{dom.blind_spot}", "why": "{dom.blind_reason}"}}]'
    if rng.random() < 0.7 or kind == "cannot_cover_without_why":
        args.append("coverage={")
        args.append(f'    "checked": [f"every {ent} in the export of {{export[\'exported_at\']}}"],')
        args.append(f'    "cannotCover": {cannot},')
        args.append("},")
    if rng.random() < 0.5:
        args.append(f'render={{"default": "table", "columns": ["entity", "{dom.fact}"], "sort": "entity"}},')
    body.append("    return described_result(")
    body.extend("        " + a for a in args)
    body.append("    )")
    mod.calls["described_result"] += 1
    return body


def _absent_call(rng: random.Random, mod: _Module, dom: Domain) -> list[str]:
    defect = _pick_defect(rng, DEFECT_RATE_OTHER, ABSENT_DEFECTS)
    mod.calls["absent"] += 1
    what = f'what=f"{dom.topic} rows for {{{dom.entity}}}"'
    if defect:
        mod.defects.append(defect[0])
        mod.codes.append(defect[1])
        return ["    if not rows:", f"        return absent({what})"]
    lines = [
        "    if not rows:",
        "        return absent(",
        f"            {what},",
        (f"            checked=[f\"every {dom.topic} row in the export of {{export['exported_at']}}\"],"),
    ]
    if rng.random() < 0.5:
        lines.append(
            f'            cannotCover=[{{"what": "{dom.blind_spot}", "why": "{dom.blind_reason}"}}],'
        )
    lines.append("        )")
    return lines


def _coverage_tool(rng: random.Random, mod: _Module, dom: Domain, n: int, may_wrap: bool) -> list[str]:
    """A verdict tool that returns ``coverage(verdict, ...)``.

    ``may_wrap``: whether the call budget has room for a wrapped ``described_result``.
    """
    defect = _pick_defect(rng, DEFECT_RATE_OTHER, COVERAGE_DEFECTS)
    if defect and defect[0] == "coverage_wraps_described_result" and not may_wrap:
        defect = None
    kind = defect[0] if defect else ""
    if defect:
        mod.defects.append(kind)
        mod.codes.append(defect[1])
    mod.calls["coverage"] += 1
    not_checked = _snake_of("notChecked") if kind == "coverage_snake_case_key" else "notChecked"
    lines = [
        f"def {dom.topic}_verdict_{n}(export: dict[str, Any], timed_out: bool) -> Any:",
        f'    """Whether every {dom.entity} is healthy, with the ground it covers."""',
        "    rows = _rows(export)",
        "    healthy = all(r.value >= 0 for r in rows)",
    ]
    if kind == "coverage_wraps_described_result":
        mod.calls["described_result"] += 1
        content = (
            'described_result(facts=[{"entity": "all", "healthy": healthy}], '
            'provenance={"measuredAt": export["exported_at"], "source": SOURCE})'
        )
    else:
        content = '{"healthy": healthy}'
    lines += [
        "    return coverage(",
        f"        {content},",
        f'        checked=["{dom.metric} of every {dom.entity} (live query)"],',
        f'        {not_checked}=[{{"what": "{dom.blind_spot}", "why": "the API timed out"}}]',
        "        if timed_out",
        "        else [],",
        "    )",
    ]
    return lines


def _tool_function(
    rng: random.Random, mod: _Module, dom: Domain, n: int, with_absent: bool, use_shared: bool
) -> list[str]:
    ent = dom.entity
    lines = [
        f"def {dom.topic}_status_{n}(export: dict[str, Any], {ent}: str) -> Any:",
        f'    """{dom.topic.capitalize()} posture for one {ent}, from the latest export."""',
        f"    rows = [r for r in _rows(export) if r.entity == {ent}]",
    ]
    if with_absent:
        lines += _absent_call(rng, mod, dom)
    lines += _described_call(rng, mod, dom, n, use_shared)
    return lines


# Filler: ordinary code a tool module also holds. Each takes the number of lines it may
# use at most (>= its minimum) and returns exactly that many or fewer lines.


def _filler_constants(rng: random.Random, dom: Domain, budget: int, n: int) -> list[str]:
    k = max(1, min(budget - 2, rng.randint(2, 8)))
    names = [f'    "{dom.entity}-{rng.randint(100, 999)}",' for _ in range(k)]
    return [f"KNOWN_{dom.entity.upper()}S_{n} = (", *names, ")"]


def _filler_helper(rng: random.Random, dom: Domain, budget: int, n: int) -> list[str]:
    lines = [
        f"def _summarize_{n}(rows: Iterable[Row]) -> dict[str, float]:",
        f'    """Per-{dom.entity} totals, for the text summary."""',
        "    totals: dict[str, float] = {}",
        "    for row in rows:",
        "        totals[row.entity] = totals.get(row.entity, 0.0) + row.value",
    ]
    extra = [
        "    if not totals:",
        "        return totals",
        "    top = max(totals.values())",
        "    for key in list(totals):",
        "        # keep the scale readable: share of the largest entity",
        "        totals[key] = round(totals[key] / top, 3) if top else 0.0",
    ]
    room = budget - len(lines) - 1
    # Cut only where the code stays whole: after the early return, after ``top``, or none.
    cuts = [cut for cut in (0, 2, 3, len(extra)) if cut <= room]
    lines += extra[: rng.choice(cuts)]
    lines.append("    return totals")
    return lines


def _filler_class(rng: random.Random, dom: Domain, budget: int, n: int) -> list[str]:
    fields = [
        "    name: str",
        "    weight: float = 1.0",
        "    tags: tuple[str, ...] = ()",
        "    enabled: bool = True",
        "    note: str = ''",
    ]
    k = max(1, min(budget - 3, rng.randint(1, len(fields))))
    return [
        "@dataclass(frozen=True)",
        f"class Option{n}:",
        f'    """A tuning knob of the {dom.topic} tool."""',
        *fields[:k],
    ]


FILLERS: tuple[tuple[int, Callable[[random.Random, Domain, int, int], list[str]]], ...] = (
    (3, _filler_constants),
    (6, _filler_helper),
    (4, _filler_class),
)


def render_module(seed: int, index: int) -> tuple[str, ModuleInfo]:
    """The text of synthetic module ``index`` for ``seed``, and what it holds."""
    rng = _rng(seed, index)
    dom = rng.choice(DOMAINS)
    mod = _Module()
    use_shared = rng.random() < CROSS_MODULE_RATE
    target_calls = rng.randint(MIN_CALLS, MAX_CALLS)
    target_lines = rng.randint(MIN_LINES, MAX_LINES)
    aliased_module = rng.random() < 0.1

    mod.header = [
        f'"""Tool module {index:04d}: {dom.topic} answers about each {dom.entity}.',
        "",
        f"Generated by bench/make_corpus.py (seed {seed}); benchmark input, never run.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "import datetime",
        "from dataclasses import dataclass",
        "from typing import Any, Iterable",
        "",
        f"from {API_MODULE} import absent, coverage, described_result",
    ]
    if use_shared:
        mod.header.append("from ..shared import EXPORT_SOURCE")
    if aliased_module:
        mod.header.append(f"import {API_MODULE} as api")
    mod.header += [
        "",
        f'SOURCE = "{dom.source}"',
        f'EXPORTED_AT = "2024-05-{rng.randint(10, 28)}T06:00:00Z"',
        f'GRAIN = {{"interval": "{dom.interval}", "aggregation": "last", "isCounter": False}}',
    ]
    mod.helpers.append(
        [
            "@dataclass(frozen=True)",
            "class Row:",
            "    entity: str",
            "    day: str",
            "    value: float",
            "",
            "",
            "def _rows(export: dict[str, Any]) -> list[Row]:",
            f'    """The export\'s {dom.topic} rows, oldest first."""',
            "    out = []",
            '    for raw in export.get("rows", []):',
            '        out.append(Row(str(raw["entity"]), str(raw["day"]), float(raw["value"])))',
            "    return out",
        ]
    )

    # Spend the call budget: tool functions (1-2 calls each) and verdict tools (1 call).
    n = 0
    remaining = target_calls - 1 if aliased_module else target_calls
    while remaining > 0:
        n += 1
        if remaining >= 2 and rng.random() < 0.6:
            mod.tools.append(_tool_function(rng, mod, dom, n, True, use_shared))
            remaining -= 2
        elif rng.random() < 0.5:
            mod.tools.append(_tool_function(rng, mod, dom, n, False, use_shared))
            remaining -= 1
        else:
            before = mod.calls["described_result"]
            mod.tools.append(_coverage_tool(rng, mod, dom, n, remaining >= 2))
            remaining -= 1 + (mod.calls["described_result"] - before)
    if aliased_module:
        # One more call through the module alias: ``api.absent(...)``, found by
        # resolving the attribute's base, not the bare name.
        last = mod.tools[-1]
        mod.tools[-1] = (
            last[:3]
            + [
                '    if export.get("stale"):',
                (f'        return api.absent(what="fresh {dom.topic} rows", checked=["the export header"])'),
            ]
            + last[3:]
        )
        mod.calls["absent"] += 1
    total_calls = sum(mod.calls.values())
    if total_calls != target_calls:
        raise AssertionError(f"module {index}: {total_calls} calls, meant {target_calls}")

    # Pad with ordinary code up to the target length (each filler costs 2 blank lines).
    k = 0
    while (missing := target_lines - mod.line_count()) > 0:
        room = missing - 2
        usable = [f for minimum, f in FILLERS if minimum <= room]
        if not usable:
            mod.header.extend(f"# {dom.topic} notes, {i + 1} of {missing}" for i in range(missing))
            break
        k += 1
        mod.helpers.insert(1, rng.choice(usable)(rng, dom, room, k))
    text = mod.text()
    lines = text.count("\n")
    if not MIN_LINES <= lines <= MAX_LINES:
        raise AssertionError(f"module {index}: {lines} lines")
    info = ModuleInfo(
        path=module_relpath(index),
        lines=lines,
        calls=dict(mod.calls),
        defects=tuple(mod.defects),
        expected_codes=tuple(mod.codes),
        follows=tuple(dict.fromkeys(mod.follows)),
    )
    return text, info


# ---------------------------------------------------------------------------
# Writing corpora
# ---------------------------------------------------------------------------


def _fingerprint(kind: str, **params: object) -> str:
    raw = json.dumps(
        {"kind": kind, "version": GENERATOR_VERSION, "pyproject": CORPUS_PYPROJECT, **params},
        sort_keys=True,
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def _read_manifest(out_dir: Path) -> dict[str, object] | None:
    try:
        data = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _fresh_dir(out_dir: Path) -> None:
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    (out_dir / "pyproject.toml").write_text(CORPUS_PYPROJECT, encoding="utf-8")


def write_synthetic(out_dir: Path, count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED) -> dict[str, object]:
    """Write the synthetic corpus into ``out_dir`` (emptied first); return its manifest."""
    _fresh_dir(out_dir)
    pkg = out_dir / PACKAGE
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Generated tool modules (benchmark input)."""\n')
    (pkg / "shared.py").write_text(SHARED_MODULE_TEXT)
    modules = []
    for index in range(count):
        text, info = render_module(seed, index)
        path = out_dir / info.path
        if not path.parent.exists():
            path.parent.mkdir()
            (path.parent / "__init__.py").write_text("")
        path.write_text(text, encoding="utf-8")
        modules.append(asdict(info))
    manifest: dict[str, object] = {
        "kind": "synthetic",
        "fingerprint": _fingerprint("synthetic", count=count, seed=seed),
        "seed": seed,
        "count": count,
        "generator_version": GENERATOR_VERSION,
        "modules": modules,
    }
    text = json.dumps(manifest, indent=1) + "\n"
    (out_dir / MANIFEST).write_text(text, encoding="utf-8")
    # Returned as read back, so a fresh and a reused corpus give equal manifests.
    loaded: dict[str, object] = json.loads(text)
    return loaded


def ensure_synthetic(
    out_dir: Path, count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED
) -> dict[str, object]:
    """The synthetic corpus in ``out_dir``, regenerated only when missing or stale."""
    manifest = _read_manifest(out_dir)
    if manifest and manifest.get("fingerprint") == _fingerprint("synthetic", count=count, seed=seed):
        modules = manifest.get("modules")
        if isinstance(modules, list) and all((out_dir / str(m["path"])).is_file() for m in modules):
            return manifest
    return write_synthetic(out_dir, count, seed)


def stdlib_dir() -> Path:
    """The installed Python's standard library directory."""
    return Path(sysconfig.get_paths()["stdlib"])


def stdlib_files(source: Path | None = None, limit: int | None = None) -> list[Path]:
    """The stdlib's ``.py`` files (relative, sorted), without site-packages or caches.

    With ``limit``, an evenly spread sample of that many files (for quick runs).
    """
    root = source or stdlib_dir()
    skip = {"site-packages", "dist-packages", "__pycache__"}
    found = sorted(
        p.relative_to(root)
        for p in root.rglob("*.py")
        if not skip.intersection(p.relative_to(root).parts) and p.is_file()
    )
    if limit is not None and limit < len(found):
        step = len(found) / limit
        found = [found[int(i * step)] for i in range(limit)]
    return found


def ensure_stdlib(out_dir: Path, limit: int | None = None, source: Path | None = None) -> dict[str, object]:
    """A copy of the stdlib's Python files in ``out_dir``, refreshed only when stale."""
    root = source or stdlib_dir()
    files = stdlib_files(root, limit)
    fingerprint = _fingerprint("stdlib", source=str(root), limit=limit, python=sys.version, files=len(files))
    manifest = _read_manifest(out_dir)
    if manifest and manifest.get("fingerprint") == fingerprint:
        return manifest
    _fresh_dir(out_dir)
    lines = 0
    for rel in files:
        dest = out_dir / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        data = (root / rel).read_bytes()
        lines += data.count(b"\n")
        dest.write_bytes(data)
    new: dict[str, object] = {
        "kind": "stdlib",
        "fingerprint": fingerprint,
        "source": str(root),
        "python": sys.version,
        "count": len(files),
        "lines": lines,
        "files": [str(p) for p in files],
    }
    (out_dir / MANIFEST).write_text(json.dumps(new, indent=1) + "\n", encoding="utf-8")
    return new


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).parent / "corpus",
        help="folder that receives synthetic/ (and stdlib/)",
    )
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--stdlib", action="store_true", help="also copy the standard library")
    args = parser.parse_args(argv)
    manifest = write_synthetic(args.out / "synthetic", args.count, args.seed)
    modules = manifest["modules"]
    assert isinstance(modules, list)
    print(f"synthetic: {len(modules)} modules in {args.out / 'synthetic'}")
    if args.stdlib:
        std = ensure_stdlib(args.out / "stdlib")
        print(f"stdlib: {std['count']} files in {args.out / 'stdlib'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
