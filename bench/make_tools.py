"""Build modules shaped like real tool collections: the **tools** corpus.

Each tool is written the way teams write them: a helper class with methods, an
``async def execute_N`` that binds its parts to names (``prov = {...}``, ``cov =
{...}``), defines a nested function, returns ``absent(...)`` on its empty branch, and a
``define_tool(name=..., resultClass=..., execute=execute_N)`` registration. Now and then
a tool has no ``absent()`` branch (SEM604), a classed tool declares no coverage
(SEM602), an inventory no render hint (SEM603), or a class that is not one (SEM601).

Shapes (each in a folder of its own, so each can be linted and parsed alone):

* ``one-per-module``: ``count`` modules of one tool each (a package of tool modules);
* ``tools-N``: one module of ``N`` tools (1,000 and 4,000: the cost per tool);
* ``tools-5mb``: one module of about 5 MB of tools.

The same seed gives byte-identical files; a ``MANIFEST.json`` lets ``ensure_tools`` skip
work when nothing changed. Nothing here imports or runs the modules (each is checked
with ``ast.parse``).

Usage::

    python bench/make_tools.py [--out bench/corpus/tools] [--seed N] [--sizes 1000,4000]
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import make_corpus
from make_corpus import DEFAULT_SEED, DOMAINS, Domain

GENERATOR_VERSION = 1
"""Bump when the generated text changes, so stale corpora are regenerated."""

SIZES = (1000, 4000)
FIVE_MB_TOOLS = 4800
"""Tools in the 5 MB module (about 850 bytes a tool)."""
ONE_PER_MODULE = 1000
"""Modules of the one-tool-per-module shape."""
API_MODULE = make_corpus.API_MODULE

# Defects planted per tool, with the code each should draw.
DEFECTS: tuple[tuple[str, str], ...] = (
    ("no_absent", "SEM604"),
    ("no_coverage", "SEM602"),
    ("no_render", "SEM603"),
    ("bad_class", "SEM601"),
)
DEFECT_RATE = 0.1


def _rng(seed: int, shape: str, index: int) -> random.Random:
    return random.Random(f"semantics-lint-bench-tools:{GENERATOR_VERSION}:{shape}:{seed}:{index}")


def header(dom: Domain, title: str) -> list[str]:
    """The imports and module constants every module of the shape starts with."""
    return [
        f'"""{title} (bench/make_tools.py; never run)."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Any",
        "",
        f"from {API_MODULE} import absent, define_tool, described_result",
        "",
        f'SOURCE = "{dom.source}"',
        f'RENDER = {{"default": "table", "columns": ["entity", "{dom.fact}"]}}',
    ]


def tool_lines(rng: random.Random, dom: Domain, n: int, codes: list[str]) -> list[str]:
    """One tool: helper class, async execute with nested function, registration."""
    defect = ""
    if rng.random() < DEFECT_RATE:
        defect, code = rng.choice(DEFECTS)
        codes.append(code)
    ent = dom.entity
    helper = f"{dom.topic.title()}Reader{n}"
    kind = "inventory" if n % 2 else "triage"
    if defect == "bad_class":
        kind = "report"
    elif defect == "no_render":
        kind = "inventory"
    elif defect == "no_coverage" and kind == "inventory":
        kind = "triage"
    lines = [
        "",
        "",
        f"class {helper}:",
        f'    """Reads the {dom.topic} rows of one export (tool {n})."""',
        "",
        "    def __init__(self, export: dict[str, Any]) -> None:",
        "        self.export = export",
        "",
        f"    def rows(self, {ent}: str) -> list[dict[str, Any]]:",
        f'        return [row for row in self.export["rows"] if row["entity"] == {ent}]',
        "",
        "",
        f'CHECKED_{n} = ["every {ent} in the {dom.source} export"]',
        "",
        "",
        f"async def execute_{n}(export: dict[str, Any], {ent}: str) -> Any:",
        f'    """The {dom.topic} state of one {ent} (tool {n})."""',
        f"    reader = {helper}(export)",
        f"    rows = reader.rows({ent})",
    ]
    if defect != "no_absent":
        lines += [
            "    if not rows:",
            f'        return absent(what=f"{dom.topic} of {{{ent}}}", checked=CHECKED_{n})',
        ]
    lines += [
        "",
        "    def order(row: dict[str, Any]) -> str:",
        f'        return str(row.get("{dom.fact}", ""))',
        "",
        "    rows.sort(key=order)",
        '    prov = {"measuredAt": export["at"], "source": SOURCE}',
        f'    cov = {{"checked": CHECKED_{n}}}',
    ]
    parts = ["facts=rows", "provenance=prov"]
    if defect != "no_coverage":
        parts.append("coverage=cov")
    if kind == "inventory" and defect != "no_render":
        parts.append("render=RENDER")
    lines += [
        f"    return described_result({', '.join(parts)})",
        "",
        "",
        f'tool_{n} = define_tool(name="{dom.topic}_{n}", resultClass="{kind}", execute=execute_{n})',
    ]
    return lines


def render_collection(seed: int, shape: str, tools: int, first: int = 1) -> tuple[str, dict[str, object]]:
    """One module of ``tools`` tools numbered from ``first``, and what it holds."""
    rng = _rng(seed, shape, first)
    dom = DOMAINS[(tools + first) % len(DOMAINS)]
    lines = header(dom, f"{tools} {dom.topic} tools in one module")
    codes: list[str] = []
    for n in range(first, first + tools):
        lines += tool_lines(rng, dom, n, codes)
    text = "\n".join(lines) + "\n"
    ast.parse(text)  # the generator's own check: every module is valid Python
    return text, {
        "tools": tools,
        "lines": text.count("\n"),
        "bytes": len(text.encode()),
        "expected_codes": codes,
    }


def write_tools(out_dir: Path, sizes: Sequence[int] = SIZES, seed: int = DEFAULT_SEED) -> dict[str, object]:
    """Write every shape into ``out_dir`` (emptied first); return the manifest."""
    make_corpus._fresh_dir(out_dir)  # with the corpus's pyproject.toml
    shapes: list[dict[str, object]] = []
    plan = [(f"tools-{size}", size) for size in sizes] + [("tools-5mb", FIVE_MB_TOOLS)]
    for shape, tools in plan:
        text, info = render_collection(seed, shape, tools)
        folder = out_dir / shape
        folder.mkdir()
        (folder / "tools.py").write_text(text, encoding="utf-8")
        shapes.append({"shape": shape, "path": f"{shape}/tools.py", **info})
    folder = out_dir / "one-per-module"
    folder.mkdir()
    total = {"tools": 0, "lines": 0, "bytes": 0, "expected_codes": []}
    for n in range(1, ONE_PER_MODULE + 1):
        text, info = render_collection(seed, "one-per-module", 1, first=n)
        (folder / f"tool_{n:04d}.py").write_text(text, encoding="utf-8")
        for key in ("tools", "lines", "bytes"):
            total[key] += info[key]  # type: ignore[operator]
        total["expected_codes"] += info["expected_codes"]  # type: ignore[operator]
    shapes.append({"shape": "one-per-module", "path": "one-per-module", "modules": ONE_PER_MODULE, **total})
    params = {"sizes": list(sizes), "seed": seed}
    manifest = {"kind": "tools", "fingerprint": _fingerprint(params), **params, "shapes": shapes}
    text = json.dumps(manifest, indent=1) + "\n"
    (out_dir / make_corpus.MANIFEST).write_text(text, encoding="utf-8")
    loaded: dict[str, object] = json.loads(text)
    return loaded


def _fingerprint(params: dict[str, object]) -> str:
    return make_corpus._fingerprint(
        "tools",
        tools_version=GENERATOR_VERSION,
        five_mb=FIVE_MB_TOOLS,
        per_module=ONE_PER_MODULE,
        **params,
    )


def ensure_tools(out_dir: Path, sizes: Sequence[int] = SIZES, seed: int = DEFAULT_SEED) -> dict[str, object]:
    """The tools corpus in ``out_dir``, regenerated only when missing or stale."""
    params: dict[str, object] = {"sizes": list(sizes), "seed": seed}
    manifest = make_corpus._read_manifest(out_dir)
    if manifest and manifest.get("fingerprint") == _fingerprint(params):
        shapes = manifest.get("shapes")
        if isinstance(shapes, list) and all((out_dir / str(s["path"])).exists() for s in shapes):
            return manifest
    return write_tools(out_dir, sizes, seed)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "corpus" / "tools")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="tools per single module")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    manifest = ensure_tools(args.out, sizes, args.seed)
    for shape in manifest["shapes"]:  # type: ignore[union-attr]
        print(
            f"{shape['shape']}: {shape['path']}: {shape['tools']} tools, {shape['lines']} lines, "
            f"{shape['bytes'] / 1e6:.2f} MB, {len(shape['expected_codes'])} planted"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
