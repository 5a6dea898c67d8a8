"""Small projects whose tools take their dates and sources from other modules.

The other corpora hardly reach across modules through astroid (re-exports, modules
bound by an import, names bound in branches): their names are local or plain
constants the resolver reads directly. Each project here is a package ``pkg`` with up
to five modules and a subpackage of as many, each module a few statements drawn from
the shapes below (re-exports, star imports, imports of the package's own submodules,
names bound in branches or rebound through ``global``, attributes set on an imported
module, a module importing itself, imports from outside the project), and a
``tools.py`` whose declarations read six names from those modules. Deterministic for a
count and a seed.

Usage::

    python bench/make_projects.py [--out bench/corpus/projects] [--count 600] [--seed 0]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
from pathlib import Path

DEFAULT_COUNT = 600
DEFAULT_SEED = 0

STATEMENTS = (
    "WHEN = '2024-05-01'",
    "WHEN = 20240501",
    "if FLAG:\n    WHEN = '2024-05-01'\nelse:\n    WHEN = '2024-06-01'",
    "if FLAG:\n    WHEN = '2024-05-01'",
    "try:\n    WHEN = '2024-05-01'\nexcept Exception:\n    WHEN = None",
    "from .{m} import WHEN",
    "from .{m} import *",
    "from . import {m}",
    "from .{m} import WHEN as OTHER\nWHEN = OTHER",
    "import pkg.{m}\nWHEN = pkg.{m}.WHEN",
    "import pkg.{m} as alias\nWHEN = alias.WHEN",
    "from pkg import {m}\nWHEN = {m}.WHEN",
    "{m}_mod = None",
    "from . import {m}\n{m}.WHEN = '2025-01-01'",
    "import json\nWHEN = json.dumps('x')",
    "from datetime import datetime\nWHEN = datetime(2024, 5, 1)",
    "def f():\n    global WHEN\n    WHEN = 'x'",
    "SOURCE = {{'source': 'db', 'measuredAt': '2024-05-01'}}",
    "from .{m} import SOURCE",
    "from pkg.{m} import SOURCE as SOURCE",
    "from .sub.{m} import WHEN",
    "from ..{m} import WHEN",
    "from pkg import {m} as itself",
    "from . import sub",
    "del WHEN",
    "WHEN: str = '2024-05-01'",
)
MODULES = ("a", "b", "c", "constants", "base")
USES = 6
"""Names each project's ``tools.py`` reads from the other modules."""
READS = (
    ("from .{m} import WHEN as W{i}", "provenance={{'measuredAt': W{i}, 'source': 's'}}"),
    ("from . import {m} as M{i}", "provenance={{'measuredAt': M{i}.WHEN, 'source': 's'}}"),
    ("import pkg.{m} as P{i}", "provenance={{'measuredAt': P{i}.WHEN, 'source': 's'}}"),
    ("from .sub.{m} import WHEN as S{i}", "provenance={{'measuredAt': S{i}, 'source': 's'}}"),
    ("from .{m} import SOURCE as R{i}", "provenance=R{i}"),
)
"""How ``tools.py`` imports a name and the part that reads it."""


def project(rng: random.Random) -> dict[str, str]:
    """One project: its files (path under the project's folder -> text)."""

    def statements(count: int) -> str:
        return "".join(rng.choice(STATEMENTS).format(m=rng.choice(MODULES)) + "\n" for _ in range(count))

    files: dict[str, str] = {}
    for folder in ("pkg/", "pkg/sub/"):
        for name in MODULES:
            if rng.random() < 0.75:
                files[f"{folder}{name}.py"] = statements(rng.randint(1, 4))
    files["pkg/__init__.py"] = statements(rng.randint(0, 2))
    if rng.random() < 0.7:  # otherwise pkg/sub is a namespace package
        files["pkg/sub/__init__.py"] = ""
    imports = ["from semantics_lint.runtime import described_result"]
    calls = []
    for index in range(USES):
        module = rng.choice(MODULES)
        imported, part = READS[rng.randrange(len(READS))]
        imports.append(imported.format(m=module, i=index))
        calls.append(part.format(i=index))
    files["pkg/tools.py"] = (
        "\n".join(imports + [f"described_result(facts=rows, {call})" for call in calls]) + "\n"
    )
    return files


def ensure_projects(out_dir: Path, count: int = DEFAULT_COUNT, seed: int = DEFAULT_SEED) -> Path:
    """``out_dir`` holding ``count`` projects (``p0`` ...), written unless already there."""
    # The shapes themselves are part of the key: a corpus written before they changed is stale.
    shapes = hashlib.sha256(json.dumps([STATEMENTS, READS, MODULES, USES]).encode()).hexdigest()[:16]
    params = {"count": count, "seed": seed, "shapes": shapes}
    manifest = out_dir / "manifest.json"
    if manifest.exists() and json.loads(manifest.read_text(encoding="utf-8")) == params:
        return out_dir
    shutil.rmtree(out_dir, ignore_errors=True)
    for index in range(count):
        rng = random.Random(f"projects-{seed}-{index}")
        for name, text in project(rng).items():
            path = out_dir / f"p{index}" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    manifest.write_text(json.dumps(params), encoding="utf-8")
    return out_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "corpus" / "projects")
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args()
    ensure_projects(args.out, args.count, args.seed)
    print(f"{args.count} projects in {args.out}")


if __name__ == "__main__":
    main()
