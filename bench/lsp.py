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

With ``--big-mb`` (3.4 for the figures in bench/README.md), the same module repeated to
that size is the "big buffer", and ``--runs`` times each (medians):

* threads against processes, in this process: the lint of the 1,000-line module alone,
  then while the big one lints on another thread, then while it lints in another process;
* the server: a change to the big buffer, then at once a change to the small one: from
  the small change to its diagnostics, then code actions under a finding and their
  answer (quick fixes only; then with fix-all, whose edit a client without
  ``resolveSupport`` gets at once: a ``--fix`` run); the big buffer's lint (change to diagnostics) alone; a burst of three changes
  to it (50 ms apart, the default ``lintDelay``) from the first change to the diagnostics
  of the last, and its ratio to the lint alone.

    .venv/bin/python bench/lsp.py [--changes 40] [--tools 50] [--big-mb 3.4 --runs 5]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import textwrap
import threading
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
    parser.add_argument("--big-mb", type=float, default=0.0, help="size of the big buffer (0: none)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs with the big buffer")
    arguments = parser.parse_args()
    if arguments.big_mb:
        _responsive(arguments.tools, arguments.big_mb, arguments.runs)
        return

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
            rows.append(
                (
                    f"server, lintDelay={'default' if delay is None else delay}",
                    _server(root, path, text, edited, arguments.changes, delay),
                )
            )

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


def _big(tools: int, megabytes: float) -> str:
    body = "".join(tool(index) for index in range(tools))
    copies = max(1, int(megabytes * 1_000_000 / len(body.encode())))
    return HEADER + "".join(
        body.replace("backup_status_", f"backup_status_{copy}_") for copy in range(copies)
    )


def _lint_in_process(text: str, path: str) -> None:
    from semantics_lint.lsp import lint_adapter

    lint_adapter.lint_text(text, path)


def _responsive(tools: int, megabytes: float, runs: int) -> None:
    from semantics_lint.lsp import lint_adapter

    small_text = module(tools)
    small_edited = small_text.replace('"tool": 1}', '"tool": 1, "note_x": 1}', 1)
    big_text = _big(tools, megabytes)
    rows: list[tuple[str, list[float]]] = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "pyproject.toml").write_text("[tool.semantics-lint]\n")
        small, big = root / "tools.py", root / "big_tools.py"
        small.write_text(small_text)
        print(f"big buffer: {len(big_text.encode()) / 1e6:.1f} MB, {len(big_text.splitlines())} lines")

        # Threads against processes, in this process.
        lint_adapter.lint_text(small_text, str(small))
        alone, threaded, beside = [], [], []
        context = multiprocessing.get_context("spawn")
        for _ in range(runs):
            started = time.perf_counter()
            lint_adapter.lint_text(small_text, str(small))
            alone.append(time.perf_counter() - started)

            thread = threading.Thread(target=lint_adapter.lint_text, args=(big_text, str(big)))
            thread.start()
            time.sleep(0.3)
            started = time.perf_counter()
            lint_adapter.lint_text(small_text, str(small))
            threaded.append(time.perf_counter() - started)
            thread.join()

            process = context.Process(target=_lint_in_process, args=(big_text, str(big)))
            process.start()
            time.sleep(1.5)  # past its start-up: linting
            started = time.perf_counter()
            lint_adapter.lint_text(small_text, str(small))
            beside.append(time.perf_counter() - started)
            process.join()
        rows += [
            ("small lint alone", alone),
            ("small lint, big on a thread", threaded),
            ("small lint, big in a process", beside),
        ]

        client = LspClient(root)
        try:
            client.initialize(root, options={})
            small_uri = client.open(small, small_text)
            big_uri = client.open(big, big_text)
            client.diagnostics(small_uri, version=1, timeout=300)
            client.diagnostics(big_uri, version=1, timeout=300)
            diagnostics, actions, with_fix_all, one, burst = [], [], [], [], []
            version = 1
            for run in range(runs):
                version += 1
                mark = client.mark()
                client.change(big_uri, big_text + f"\n# run {run}\n", version)
                started = time.perf_counter()
                client.change(small_uri, small_edited if version % 2 else small_text, version)
                found = client.diagnostics(small_uri, version=version, after=mark, timeout=300)
                diagnostics.append(time.perf_counter() - started)
                first = next(d for d in found if d["code"] == "SEM102")["range"]["start"]
                cursor = (first["line"], first["character"])
                started = time.perf_counter()
                client.code_actions(small_uri, cursor, cursor, only=["quickfix"])
                actions.append(time.perf_counter() - started)
                started = time.perf_counter()
                client.code_actions(small_uri, cursor, cursor)
                with_fix_all.append(time.perf_counter() - started)
                client.diagnostics(big_uri, version=version, after=mark, timeout=300)

                version += 1
                mark = client.mark()
                started = time.perf_counter()
                client.change(big_uri, big_text + f"\n# one {run}\n", version)
                client.diagnostics(big_uri, version=version, after=mark, timeout=300)
                one.append(time.perf_counter() - started)

                mark = client.mark()
                started = time.perf_counter()
                for step in range(3):
                    version += 1
                    client.change(big_uri, big_text + f"\n# burst {run} {step}\n", version)
                    if step < 2:
                        time.sleep(0.05)
                client.diagnostics(big_uri, version=version, after=mark, timeout=300)
                burst.append(time.perf_counter() - started)
            assert client.stop() == 0
        finally:
            client.kill()
        rows += [
            ("server: small diagnostics, big linting", diagnostics),
            ("server: quick fix then", actions),
            ("server: quick fix + fix-all then", with_fix_all),
            ("server: big lint (one change)", one),
            ("server: big, burst of 3 changes", burst),
        ]
    print(f"{'what':<42}{'median ms':>10}{'min ms':>10}{'max ms':>10}")
    for name, times in rows:
        print(
            f"{name:<42}{statistics.median(times) * 1000:>10.1f}{min(times) * 1000:>10.1f}{max(times) * 1000:>10.1f}"
        )
    print(f"burst / one lint (medians): {statistics.median(burst) / statistics.median(one):.2f}")


if __name__ == "__main__":
    main()
