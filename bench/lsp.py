"""The language server's latency: from ``didChange`` to ``publishDiagnostics``.

Writes one tool module of about 1,000 lines (50 tools, each returning a
``described_result`` with facts, series, grain, provenance and coverage; every fifth
with a snake_case key, every seventh with a hard-coded date), starts
``semantics-lint server`` over stdio, opens the module, then sends ``--changes`` full-text
changes (each edits one line, alternating between two texts so the findings change)
and times each until the diagnostics of that version arrive. Beside it, in this process,
the same lint through the server's adapter (``lint_adapter.lint_text``), which is the
part of the latency that is the linter itself.

Not a test: a figure for docs/editors.md. Two settings of the server's pause before a
lint (``lintDelay``): 0 (the server's own cost) and the default (what a typing user
sees at most after the last keystroke).

    .venv/bin/python bench/lsp.py [--changes 40] [--tools 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from lsp_client import LspClient  # noqa: E402  (the tests' raw JSON-RPC client)

HEADER = '''\
"""Backup tools (generated for the language server benchmark)."""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result

'''


def tool(index: int) -> str:
    measured = '"measured_at"' if index % 5 == 0 else '"measuredAt"'
    when = '"2024-05-01"' if index % 7 == 0 else "export.exported_at"
    return textwrap.dedent(
        f'''\

        def backup_status_{index}(export, vm: str):
            """Backup runs of one VM, day by day (tool {index})."""
            runs = [r for r in export.runs if r.vm == vm]
            if not runs:
                return absent(what=f"backup runs for {{vm}}", checked=["every job in the export"])
            latest = runs[-1]
            return described_result(
                facts=[{{"entity": vm, "backedUp": latest.ok == 1, "tool": {index}}}],
                series=[
                    {{"t": r.day, "entity": vm, "metric": "backup_runs_ok", "value": r.ok}}
                    for r in runs
                ],
                grain={{"interval": "daily", "aggregation": "count", "isCounter": False}},
                provenance={{{measured}: {when}, "source": export.source}},
                coverage={{
                    "checked": [f"every backup job in the export of {{export.exported_at}}"],
                    "cannotCover": [{{"what": "PPDM", "why": "not collected on this install"}}],
                }},
            )
        '''
    )


def module(tools: int) -> str:
    return HEADER + "".join(tool(index) for index in range(tools))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=40, help="timed changes per setting")
    parser.add_argument("--tools", type=int, default=50, help="tools in the module (20 lines each)")
    arguments = parser.parse_args()

    text = module(arguments.tools)
    edited = text.replace('"tool": 1}', '"tool": 1, "note_x": 1}', 1)
    assert edited != text
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "pyproject.toml").write_text("[tool.semantics-lint]\n")
        path = root / "backup_tools.py"
        path.write_text(text)
        print(f"module: {len(text.splitlines())} lines, {len(text.encode())} bytes")

        from semantics_lint.lsp import lint_adapter

        lint_adapter.lint_text(text, str(path))  # imports and first parse paid once
        in_process = []
        for number in range(arguments.changes):
            started = time.perf_counter()
            linted = lint_adapter.lint_text(edited if number % 2 else text, str(path))
            in_process.append(time.perf_counter() - started)
        print(f"findings: {len(linted.findings)}")

        rows = [("lint_text in-process", in_process)]
        for delay in (0.0, None):
            rows.append((f"server, lintDelay={'default' if delay is None else delay}", _server(root, path, text, edited, arguments.changes, delay)))

    base = statistics.median(in_process)
    print(f"{'what':<32}{'median ms':>10}{'p90 ms':>10}{'ratio':>8}")
    for name, times in rows:
        ordered = sorted(times)
        median = statistics.median(ordered)
        p90 = ordered[int(0.9 * (len(ordered) - 1))]
        print(f"{name:<32}{median * 1000:>10.1f}{p90 * 1000:>10.1f}{median / base:>8.2f}")


def _server(root: Path, path: Path, text: str, edited: str, changes: int, delay: float | None) -> list[float]:
    client = LspClient(root)
    try:
        options = {} if delay is None else {"lintDelay": delay}
        client.initialize(root, options=options)
        uri = client.open(path, text)
        client.diagnostics(uri, version=1, timeout=120)
        times: list[float] = []
        for version in range(2, changes + 2):
            mark = client.mark()
            started = time.perf_counter()
            client.change(uri, edited if version % 2 else text, version)
            client.diagnostics(uri, version=version, after=mark, timeout=120)
            times.append(time.perf_counter() - started)
        assert client.stop() == 0
        return times
    finally:
        client.kill()


if __name__ == "__main__":
    main()
