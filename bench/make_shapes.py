"""Build the benchmark's corpora of other shapes than ``make_corpus.py``'s synthetic one.

* **names**: ``count`` tool modules written the way many teams write them: most parts of
  a declaration are names, bound in the function (``prov = {...}``, ``facts = [...]``),
  at module level (``COVERAGE = {...}``), or imported from sibling modules of the same
  package (``from .constants import SOURCE, DAILY_GRAIN``, ``from . import defaults``
  then ``defaults.RENDER``). Some names are rebound, changed in place, bound in a loop or
  by a walrus, or used from a nested function, a method or a comprehension, so following
  them has to say "unknown" as often as it proves something. About one declaration in
  five carries a defect that only following a name proves (a hard-coded date imported
  from ``constants.py``, a snake_case key in a dict bound to a name, ``facts = []``...).
* **big**: single modules of ``N`` small tool functions each (1,000 to 20,000 calls, up
  to about 5 MB): ``return described_result(facts=[...], provenance=prov)`` with ``prov``
  bound in the function, an ``absent(...)`` branch now and then, module constants. Cost
  that grows faster than the file shows here first.

Everything is a function of the seed (and the module index or size): the same seed gives
byte-identical files. A ``MANIFEST.json`` says what was generated, with the codes planted
per module, and lets ``ensure_*`` skip work when nothing changed. The modules are text
only: nothing here imports or runs them (each is checked with ``ast.parse``).

Usage::

    python bench/make_shapes.py [--out bench/corpus] [--count 2000] [--seed N] [--big 1000,4000]
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import make_corpus
from make_corpus import DEFAULT_SEED, DOMAINS, Domain

GENERATOR_VERSION = 1
"""Bump when the generated text changes, so stale corpora are regenerated."""

NAMES_PACKAGE = "opsdesk"
NAMES_MODULES_PER_GROUP = 50
NAMES_DEFAULT_COUNT = 2000
BIG_DEFAULT_SIZES = (1000, 4000)
BIG_5MB_CALLS = 19000
"""About 5 MB of tool code: the size issue #10 and #11 measure a single module at."""
API_MODULE = make_corpus.API_MODULE

DEFECT_RATE = 0.2

# Defects planted through names, with the code each should draw.
NAMED_DEFECTS: tuple[tuple[str, str], ...] = (
    ("imported_date_constant", "SEM203"),  # measuredAt = REPORT_DAY from .constants
    ("local_date", "SEM203"),  # stamp = "2024-05-01" in the function
    ("local_clock", "SEM204"),  # stamp = datetime.now(timezone.utc)
    ("named_snake_key", "SEM102"),  # prov = {"measured_at": ...}
    ("named_unknown_key", "SEM101"),  # prov = {"sorce": ...}
    ("named_missing_source", "SEM202"),  # prov = {"measuredAt": ...}
    ("empty_facts_name", "SEM105"),  # facts = [] ... facts=facts
    ("module_counter_grain", "SEM302"),  # SUM_GRAIN = {"aggregation": "sum"} at module level
    ("named_series_without_grain", "SEM301"),
    ("named_blind_without_why", "SEM401"),  # BLIND_BARE = ["..."] in cannotCover
    ("absent_checked_empty_constant", "SEM404"),  # checked=NOTHING_CHECKED ([])
)


@dataclass(frozen=True)
class ShapeInfo:
    """One generated module: where it is, its size, its calls and its planted defects."""

    path: str
    lines: int
    bytes: int
    calls: int
    defects: tuple[str, ...]
    expected_codes: tuple[str, ...]


@dataclass
class _Writer:
    rng: random.Random
    dom: Domain
    lines: list[str] = field(default_factory=list)
    calls: int = 0
    defects: list[str] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def finish(self, path: str) -> tuple[str, ShapeInfo]:
        """The module's text, checked to be valid Python, and what it holds."""
        text = "\n".join(self.lines) + "\n"
        ast.parse(text)  # the generator's own check: every module is valid Python
        info = ShapeInfo(
            path=path,
            lines=text.count("\n"),
            bytes=len(text.encode()),
            calls=self.calls,
            defects=tuple(self.defects),
            expected_codes=tuple(self.codes),
        )
        return text, info

    def plant(self) -> str:
        """A defect for the next declaration (or ""), recorded."""
        if self.rng.random() >= DEFECT_RATE:
            return ""
        kind, code = self.rng.choice(NAMED_DEFECTS)
        self.defects.append(kind)
        self.codes.append(code)
        return kind


def _rng(kind: str, seed: int, index: int) -> random.Random:
    # A string seed is hashed with SHA-512 by ``random``: stable across processes.
    return random.Random(f"semantics-lint-bench-shapes:{GENERATOR_VERSION}:{kind}:{seed}:{index}")


# ---------------------------------------------------------------------------
# names: sibling modules of each group package
# ---------------------------------------------------------------------------


def constants_text(dom: Domain, group: int) -> str:
    """``constants.py`` of one group package: what its tool modules import by name."""
    return f'''"""Constants of the {dom.topic} tools, group {group} (bench/make_shapes.py)."""

SOURCE = "{dom.source}"
STAMP_FIELD = "exported_at"
REPORT_DAY = "2024-06-{10 + group % 18}"
DAILY_GRAIN = {{"interval": "{dom.interval}", "aggregation": "{dom.aggregation}", "isCounter": False}}
HOURLY_GRAIN = {{"interval": "hourly", "aggregation": "last", "isCounter": False}}
CHECKED_ALL = ["every {dom.entity} in the nightly export"]
NOT_CHECKED = [{{"what": "{dom.blind_spot}", "why": "{dom.blind_reason}"}}]
RENDER_TABLE = {{"default": "table", "columns": ["entity", "{dom.fact}"]}}
COLUMNS = ["entity", "{dom.fact}"]
LIMIT = {20 + group}
'''


def defaults_text(dom: Domain, group: int) -> str:
    """``defaults.py``: constants read as ``defaults.NAME`` after ``from . import defaults``."""
    return f'''"""Defaults of the {dom.topic} tools, group {group} (bench/make_shapes.py)."""

from .constants import CHECKED_ALL, NOT_CHECKED, SOURCE

PROVENANCE_SOURCE = SOURCE
COVERAGE = {{"checked": CHECKED_ALL, "notChecked": NOT_CHECKED}}
RENDER = {{"default": "table", "sort": "entity"}}
WINDOW = "last 24 hours"
'''


def _prov_lines(w: _Writer, defect: str, indent: str) -> tuple[list[str], str]:
    """Lines that bind the provenance, and the expression the call gives."""
    rng = w.rng
    measured = "export[STAMP_FIELD]"
    out: list[str] = []
    if defect == "imported_date_constant":
        measured = "REPORT_DAY"
    elif defect == "local_date":
        out.append(f'{indent}stamp = "2024-05-{rng.randint(10, 28)}T00:00:00Z"')
        measured = "stamp"
    elif defect == "local_clock":
        out.append(f"{indent}stamp = datetime.now(timezone.utc).isoformat()")
        measured = "stamp"
    elif rng.random() < 0.3:
        out.append(f"{indent}measured = export[STAMP_FIELD]")
        measured = "measured"
    source = rng.choice(("SOURCE", "defaults.PROVENANCE_SOURCE", "LOCAL_SOURCE", '"cmdb"'))
    measured_key = "measured_at" if defect == "named_snake_key" else "measuredAt"
    source_key = "sorce" if defect == "named_unknown_key" else "source"
    entries = [f'"{measured_key}": {measured}']
    if defect != "named_missing_source":
        entries.append(f'"{source_key}": {source}')
    if rng.random() < 0.2:
        entries.append('"ageSeconds": export.get("age", 0)')
    shape = rng.random()
    if shape < 0.7 or defect:
        out.append(f"{indent}prov = {{{', '.join(entries)}}}")
        if not defect and rng.random() < 0.1:
            # Changed in place: its keys are no longer provable.
            out.append(f'{indent}prov["ageSeconds"] = export.get("age", 0)')
        return out, "prov"
    if shape < 0.85:
        return out, "PROVENANCE"
    return out, "{" + ", ".join(entries) + "}"


def _names_tool(w: _Writer, n: int, indent: str = "", method: bool = False) -> None:
    """One tool function whose declaration is mostly names."""
    rng, dom = w.rng, w.dom
    ent = dom.entity
    defect = w.plant()
    body = indent + "    "
    params = f"self, export: dict[str, Any], {ent}: str" if method else f"export: dict[str, Any], {ent}: str"
    w.add(f"{indent}def {dom.topic}_answer_{n}({params}) -> Any:")
    w.add(f'{body}"""{dom.topic.capitalize()} answer {n} for one {ent}."""')
    style = rng.random()
    if style < 0.15:
        w.add(f"{body}if not (rows := [r for r in export['rows'] if r['entity'] == {ent}]):")
    else:
        w.add(f"{body}rows = [r for r in export['rows'] if r['entity'] == {ent}]")
        w.add(f"{body}if not rows:")
    with_absent = defect == "absent_checked_empty_constant" or rng.random() < 0.6
    if with_absent:
        checked = (
            "NOTHING_CHECKED"
            if defect == "absent_checked_empty_constant"
            else rng.choice(("CHECKED_ALL", "CHECKED_HERE", "defaults.COVERAGE['checked']"))
        )
        w.add(f'{body}    return absent(what=f"{dom.topic} rows for {{{ent}}}", checked={checked})')
        w.calls += 1
    else:
        w.add(f"{body}    raise LookupError({ent})")
    if rng.random() < 0.2:
        w.add(f"{body}total = 0", f"{body}for row in rows:", f"{body}    total += row['value']")
    prov_lines, prov = _prov_lines(w, defect, body)
    w.add(*prov_lines)
    if defect == "empty_facts_name":
        w.add(f"{body}facts = []")
    elif rng.random() < 0.5:
        w.add(f'{body}facts = [{{"entity": {ent}, "{dom.fact}": rows[-1]["value"] > 0}}]')
    else:
        w.add(f'{body}facts = [{{"entity": r["entity"], "{dom.fact}": r["value"] > 0}} for r in rows]')
    args = ["facts=facts"]
    if defect in ("module_counter_grain", "named_series_without_grain") or rng.random() < 0.5:
        w.add(
            f'{body}series = [{{"t": r["t"], "entity": {ent}, "metric": "{dom.metric}", '
            '"value": r["value"]} for r in rows]'
        )
        args.append("series=series")
        if defect == "module_counter_grain":
            args.append("grain=SUM_GRAIN")
        elif defect != "named_series_without_grain":
            grain = rng.choice(("DAILY_GRAIN", "HOURLY_GRAIN", "grain", "LOCAL_GRAIN"))
            if grain == "grain":
                w.add(f"{body}grain = DAILY_GRAIN if export.get('daily') else HOURLY_GRAIN")
            args.append(f"grain={grain}")
    args.append(f"provenance={prov}")
    if defect == "named_blind_without_why":
        args.append('coverage={"checked": CHECKED_ALL, "cannotCover": BLIND_BARE}')
    else:
        cov = rng.random()
        if cov < 0.3:
            args.append("coverage=COVERAGE")
        elif cov < 0.5:
            args.append("coverage=defaults.COVERAGE")
        elif cov < 0.7:
            w.add(f'{body}cov = {{"checked": CHECKED_ALL, "cannotCover": BLIND}}')
            args.append("coverage=cov")
    render = rng.random()
    if render < 0.3:
        args.append("render=TABLE")
    elif render < 0.5:
        args.append("render=defaults.RENDER")
    elif render < 0.6:
        args.append('render={"default": "table", "columns": COLUMNS}')
    w.add(f"{body}return described_result({', '.join(args)})")
    w.calls += 1


def _names_verdict(w: _Writer, n: int) -> None:
    """A verdict tool returning ``coverage(verdict, ...)`` with named lists."""
    rng, dom = w.rng, w.dom
    w.add(
        f"def {dom.topic}_verdict_{n}(export: dict[str, Any], timed_out: bool) -> Any:",
        f'    """Whether every {dom.entity} is healthy, with the ground it covers."""',
        "    healthy = all(r['value'] >= 0 for r in export['rows'])",
    )
    skipped = rng.choice(("NOT_CHECKED", "skipped"))
    if skipped == "skipped":
        w.add("    skipped = NOT_CHECKED if timed_out else []")
    w.add(f'    return coverage({{"healthy": healthy}}, checked=CHECKED_ALL, notChecked={skipped})')
    w.calls += 1


def _names_nested(w: _Writer, n: int) -> None:
    """A tool whose declaration is made in a nested function or a comprehension."""
    rng, dom = w.rng, w.dom
    ent = dom.entity
    if rng.random() < 0.5:
        w.add(
            f"def {dom.topic}_batch_{n}(export: dict[str, Any]) -> list[Any]:",
            f'    """One answer per {ent}, made by a nested function."""',
            '    prov = {"measuredAt": export[STAMP_FIELD], "source": SOURCE}',
            "",
            f"    def one({ent}: str) -> Any:",
            f'        return described_result(facts=[{{"entity": {ent}}}], provenance=prov)',
            "",
            "    return [one(r['entity']) for r in export['rows']]",
        )
    else:
        w.add(
            f"def {dom.topic}_batch_{n}(export: dict[str, Any]) -> list[Any]:",
            f'    """One answer per {ent}, made in a comprehension."""',
            '    prov = {"measuredAt": export[STAMP_FIELD], "source": SOURCE}',
            "    return [",
            '        described_result(facts=[{"entity": r["entity"]}], provenance=prov, coverage=COVERAGE)',
            "        for r in export['rows']",
            "    ]",
        )
    w.calls += 1


def render_names_module(seed: int, index: int) -> tuple[str, ShapeInfo]:
    """The text of name-heavy module ``index`` for ``seed``, and what it holds."""
    rng = _rng("names", seed, index)
    group = index // NAMES_MODULES_PER_GROUP
    dom = DOMAINS[group % len(DOMAINS)]
    w = _Writer(rng, dom)
    w.add(
        f'"""{dom.topic.capitalize()} tools {index:04d}: answers about each {dom.entity}.',
        "",
        f"Generated by bench/make_shapes.py (seed {seed}); benchmark input, never run.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from datetime import datetime, timezone",
        "from typing import Any",
        "",
        f"from {API_MODULE} import absent, coverage, described_result",
        "",
        "from . import defaults",
        "from .constants import CHECKED_ALL, COLUMNS, DAILY_GRAIN, HOURLY_GRAIN, NOT_CHECKED",
        "from .constants import REPORT_DAY, SOURCE, STAMP_FIELD",
        "from .constants import RENDER_TABLE as TABLE",
        "",
        f'LOCAL_SOURCE = "{dom.source}-mirror"',
        f'LOCAL_GRAIN = {{"interval": "{dom.interval}", "aggregation": "last", "isCounter": False}}',
        f'SUM_GRAIN = {{"interval": "{dom.interval}", "aggregation": "sum"}}',
        f'BLIND = [{{"what": "{dom.blind_spot}", "why": "{dom.blind_reason}"}}]',
        f'BLIND_BARE = ["{dom.blind_spot}"]',
        f'CHECKED_HERE = ["every {dom.entity} this module reads"]',
        "NOTHING_CHECKED = []",
        'COVERAGE = {"checked": CHECKED_ALL, "cannotCover": BLIND}',
        'PROVENANCE = {"measuredAt": REPORT_DAY, "source": SOURCE}'
        if rng.random() < 0.05
        else 'PROVENANCE = {"measuredAt": defaults.WINDOW, "source": SOURCE}',
        "CALLS = 0",
        "",
    )
    tools = rng.randint(4, 9)
    for n in range(1, tools + 1):
        w.add("", "")
        shape = rng.random()
        if shape < 0.12:
            _names_verdict(w, n)
        elif shape < 0.16:
            _names_nested(w, n)
        elif shape < 0.26:
            w.add(
                f"class {dom.topic.capitalize()}Tools{n}:",
                f'    """Tools of group {group} as methods."""',
                "",
            )
            _names_tool(w, n, indent="    ", method=True)
        else:
            _names_tool(w, n)
        if rng.random() < 0.15:
            w.add(
                "",
                "",
                f"def _count_{n}() -> int:",
                "    global CALLS",
                "    CALLS += 1",
                "    return CALLS",
            )
    return w.finish(f"{NAMES_PACKAGE}/group_{group:02d}/tools_{index:04d}.py")


def write_names(
    out_dir: Path, count: int = NAMES_DEFAULT_COUNT, seed: int = DEFAULT_SEED
) -> dict[str, object]:
    """Write the name-heavy corpus into ``out_dir`` (emptied first); return its manifest."""
    make_corpus._fresh_dir(out_dir)
    pkg = out_dir / NAMES_PACKAGE
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Generated tool modules (benchmark input)."""\n')
    modules = []
    for index in range(count):
        text, info = render_names_module(seed, index)
        path = out_dir / info.path
        if not path.parent.exists():
            path.parent.mkdir()
            group = index // NAMES_MODULES_PER_GROUP
            dom = DOMAINS[group % len(DOMAINS)]
            (path.parent / "__init__.py").write_text("")
            (path.parent / "constants.py").write_text(constants_text(dom, group))
            (path.parent / "defaults.py").write_text(defaults_text(dom, group))
        path.write_text(text, encoding="utf-8")
        modules.append(asdict(info))
    return _write_manifest(out_dir, "names", {"count": count, "seed": seed}, modules)


def ensure_names(
    out_dir: Path, count: int = NAMES_DEFAULT_COUNT, seed: int = DEFAULT_SEED
) -> dict[str, object]:
    """The name-heavy corpus in ``out_dir``, regenerated only when missing or stale."""
    params: dict[str, object] = {"count": count, "seed": seed}
    manifest = _fresh_manifest(out_dir, "names", params)
    return manifest if manifest is not None else write_names(out_dir, count, seed)


# ---------------------------------------------------------------------------
# big: one module of many small tools
# ---------------------------------------------------------------------------


def big_module_path(calls: int) -> str:
    """Where the module of ``calls`` calls lives: a folder of its own, so each size can
    be linted (and parsed) alone."""
    return f"calls_{calls}/tools_{calls}.py"


def render_big_module(seed: int, calls: int) -> tuple[str, ShapeInfo]:
    """One module of about ``calls`` declaration calls (small tool functions)."""
    rng = _rng("big", seed, calls)
    dom = DOMAINS[calls % len(DOMAINS)]
    w = _Writer(rng, dom)
    ent = dom.entity
    w.add(
        f'"""{calls} {dom.topic} tools in one module (bench/make_shapes.py, seed {seed}; never run)."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Any",
        "",
        f"from {API_MODULE} import absent, described_result",
        "",
        f'SOURCE = "{dom.source}"',
        f'GRAIN = {{"interval": "{dom.interval}", "aggregation": "last", "isCounter": False}}',
    )
    n = 0
    while w.calls < calls:
        n += 1
        defect = ""
        if rng.random() < 0.05:
            defect = rng.choice(("snake", "date", "empty"))
            w.defects.append(defect)
            w.codes.append({"snake": "SEM102", "date": "SEM203", "empty": "SEM105"}[defect])
        key = "measured_at" if defect == "snake" else "measuredAt"
        measured = '"2024-05-01"' if defect == "date" else 'export["at"]'
        facts = (
            "[]"
            if defect == "empty"
            else f'[{{"entity": {ent}, "{dom.fact}": export["{dom.fact}"], "seen": export["seen"]}}]'
        )
        w.add(
            "",
            "",
            f"def {dom.topic}_{n}(export: dict[str, Any], {ent}: str) -> Any:",
            f'    """The {dom.topic} state of one {ent}, as of the latest export (tool {n})."""',
            f'    prov = {{"{key}": {measured}, "source": SOURCE}}',
        )
        if w.calls + 1 < calls and rng.random() < 0.25:
            w.add(
                "    if not export:",
                f'        return absent(what=f"{dom.topic} of {{{ent}}}", checked=["export"])',
            )
            w.calls += 1
        if rng.random() < 0.2:
            w.add(
                f"    return described_result(facts={facts}, series=export['rows'], grain=GRAIN, provenance=prov)"
            )
        else:
            w.add(f"    return described_result(facts={facts}, provenance=prov)")
        w.calls += 1
    return w.finish(big_module_path(calls))


def write_big(
    out_dir: Path, sizes: Sequence[int] = BIG_DEFAULT_SIZES, seed: int = DEFAULT_SEED
) -> dict[str, object]:
    """Write one module per size into ``out_dir`` (emptied first); return the manifest."""
    make_corpus._fresh_dir(out_dir)
    modules = []
    for calls in sizes:
        text, info = render_big_module(seed, calls)
        path = out_dir / info.path
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
        modules.append(asdict(info))
    return _write_manifest(out_dir, "big", {"sizes": list(sizes), "seed": seed}, modules)


def ensure_big(
    out_dir: Path, sizes: Sequence[int] = BIG_DEFAULT_SIZES, seed: int = DEFAULT_SEED
) -> dict[str, object]:
    """The big modules in ``out_dir``, regenerated only when missing or stale."""
    params: dict[str, object] = {"sizes": list(sizes), "seed": seed}
    manifest = _fresh_manifest(out_dir, "big", params)
    return manifest if manifest is not None else write_big(out_dir, sizes, seed)


# ---------------------------------------------------------------------------
# manifests
# ---------------------------------------------------------------------------


BIG_LAYOUT = 2
"""Bumped when the big corpus's layout changes (each module in a folder of its own)."""


def _fingerprint(kind: str, params: dict[str, object]) -> str:
    extra = {"layout": BIG_LAYOUT} if kind == "big" else {}
    return make_corpus._fingerprint(f"shapes-{kind}", shapes_version=GENERATOR_VERSION, **params, **extra)


def _write_manifest(
    out_dir: Path, kind: str, params: dict[str, object], modules: list[dict[str, object]]
) -> dict[str, object]:
    manifest: dict[str, object] = {
        "kind": kind,
        "fingerprint": _fingerprint(kind, params),
        **params,
        "generator_version": GENERATOR_VERSION,
        "modules": modules,
    }
    text = json.dumps(manifest, indent=1) + "\n"
    (out_dir / make_corpus.MANIFEST).write_text(text, encoding="utf-8")
    loaded: dict[str, object] = json.loads(text)
    return loaded


def _fresh_manifest(out_dir: Path, kind: str, params: dict[str, object]) -> dict[str, object] | None:
    manifest = make_corpus._read_manifest(out_dir)
    if not manifest or manifest.get("fingerprint") != _fingerprint(kind, params):
        return None
    modules = manifest.get("modules")
    if not isinstance(modules, list) or not all((out_dir / str(m["path"])).is_file() for m in modules):
        return None
    return manifest


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).parent / "corpus",
        help="folder that receives names/ and big/",
    )
    parser.add_argument("--count", type=int, default=NAMES_DEFAULT_COUNT)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--big",
        default=",".join(map(str, BIG_DEFAULT_SIZES)),
        help=f"calls per big module, comma-separated (5 MB: {BIG_5MB_CALLS})",
    )
    args = parser.parse_args(argv)
    names = ensure_names(args.out / "names", args.count, args.seed)
    print(f"names: {len(names['modules'])} modules in {args.out / 'names'}")  # type: ignore[arg-type]
    sizes = [int(s) for s in args.big.split(",") if s]
    big = ensure_big(args.out / "big", sizes, args.seed)
    for module in big["modules"]:  # type: ignore[union-attr]
        print(f"big: {module['path']}: {module['calls']} calls, {module['bytes'] / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
