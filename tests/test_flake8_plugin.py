"""The flake8 adapter: real flake8 must report the codes, lines and columns our CLI does.

As flake8-comprehensions tests itself, flake8 runs in a subprocess, through the
installed ``flake8.extension`` entry point, with no extra configuration. Its findings
are compared with ``semantics-lint check --output-format json`` on the same paths:
``testdata/`` as shipped, and a folder of awkward files made here (a BOM, CRLF, tabs,
a Latin-1 coding cookie, ``# noqa``, a syntax error, a file that never mentions the
API). flake8 prints 1-based columns, as our JSON does.

Two differences are by design and handled explicitly: flake8 reports a file it cannot
compile as E999 and runs no plugin on it (our CLI says SEM001 there), and the CLI's
folder walk skips files that its configuration or ``.gitignore`` excludes (flake8
knows neither), so those files are left out of the exact comparison.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from semantics_lint.flake8_plugin import SemanticsLintPlugin
from semantics_lint.lint import engine
from semantics_lint.lint.run.config import ConfigResolver
from semantics_lint.lint.run.discovery import discover

ROOT = Path(__file__).resolve().parent.parent
FLAKE8_FORMAT = "%(path)s\t%(row)d\t%(col)d\t%(code)s"

Row = tuple[str, int, int, str]


def _flake8(paths: list[str], cwd: Path, *extra: str) -> set[Row]:
    result = subprocess.run(
        [
            sys.executable, "-m", "flake8", "--isolated", "--select", "SEM,E999",
            f"--format={FLAKE8_FORMAT}", *extra, *paths,
        ],
        cwd=cwd, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stdout + result.stderr
    assert not result.stderr.strip(), result.stderr
    rows = set()
    for line in result.stdout.splitlines():
        path, row, col, code = line.split("\t")
        rows.add((os.path.normpath(path), int(row), int(col), code))
    return rows


def _cli(paths: list[str], cwd: Path) -> set[Row]:
    result = subprocess.run(
        [sys.executable, "-m", "semantics_lint", "check", "--output-format", "json", *paths],
        cwd=cwd, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stdout + result.stderr
    return {
        (
            os.path.normpath(finding["filename"]),
            finding["location"]["row"],
            finding["location"]["column"],
            finding["code"],
        )
        for finding in json.loads(result.stdout)
    }


def _linted_by_cli(paths: list[str], cwd: Path) -> set[str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return {os.path.normpath(source.display) for source in discover(paths, ConfigResolver())}
    finally:
        os.chdir(old)


def _compare(paths: list[str], cwd: Path) -> set[Row]:
    """Assert flake8 and the CLI agree on ``paths``; return the rows compared."""
    flake8_rows = _flake8(paths, cwd)
    cli_rows = _cli(paths, cwd)
    linted = _linted_by_cli(paths, cwd)
    uncompilable = {row[0] for row in flake8_rows if row[3] == "E999"}
    for path in uncompilable:
        # flake8 ran no plugin on it; the CLI must have said SEM001, and only that.
        assert [row[3] for row in cli_rows if row[0] == path] == ["SEM001"], path
    expected = {row for row in cli_rows if row[0] not in uncompilable}
    got = {row for row in flake8_rows if row[0] in linted and row[0] not in uncompilable}
    assert got == expected, {"only flake8": got - expected, "only the CLI": expected - got}
    return got


def test_flake8_reports_what_the_cli_reports_on_testdata() -> None:
    rows = _compare(["testdata"], ROOT)
    # The bundled examples are defective on purpose; an empty match proves nothing.
    codes = {row[3] for row in rows}
    assert "SEM102" in codes and len(codes) >= 3, rows


AWKWARD_FILES: dict[str, bytes] = {
    "bom_crlf.py": (
        "\ufefffrom semantics_lint.runtime import described_result\r\n"
        "r = described_result(facts=[{'entity': 'a'}], provenance={'measured_at': t, 'source': s})\r\n"
    ).encode(),
    "tabs.py": (
        b"from semantics_lint.runtime import described_result\n"
        b"def f(t, s):\n"
        b"\treturn described_result(\n"
        b"\t\tfacts=[{'entity': 'a'}],\n"
        b"\t\tprovenance={'measured_at': t, 'source': s}, grain={'is_counter': 1})\n"
    ),
    "latin1.py": (
        "# -*- coding: latin-1 -*-\n"
        "from semantics_lint.runtime import described_result\n"
        "r = described_result(facts=[{'entity': '\u00e9t\u00e9'}], provenance={'\u00e9': 1, 'read_at': 2, 'source': s, 'measuredAt': t})\n"
    ).encode("latin-1"),
    "wide.py": (
        "from semantics_lint.runtime import described_result\n"
        "r = described_result(facts=[{'entity': '\U0001f600\u4e00'}], provenance={'measured_at': t, 'source': s})\n"
    ).encode(),
    "noqa.py": (
        b"from semantics_lint.runtime import described_result\n"
        b"r = described_result(facts=[], provenance={'measured_at': t, 'source': s})  # noqa: SEM102\n"
        b"q = described_result(facts=[], provenance={'measured_at': t, 'source': s})  # noqa\n"
    ),
    "syntax_error.py": b"from semantics_lint.runtime import described_result\nr = described_result(\n",
    "not_ours.py": b"def coverage(x):\n    return {'measured_at': x}\n",
    "empty.py": b"",
}


def test_flake8_reports_what_the_cli_reports_on_awkward_files(tmp_path: Path) -> None:
    for name, data in AWKWARD_FILES.items():
        (tmp_path / name).write_bytes(data)
    rows = _compare(["."], tmp_path)
    files = {row[0] for row in rows}
    assert {"bom_crlf.py", "tabs.py", "latin1.py", "wide.py", "noqa.py"} <= files, rows
    assert not any(row[0] == "not_ours.py" for row in rows)


def test_options_reach_the_engine_from_the_command_line_and_config(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(
        textwrap.dedent(
            """\
            from house.api import absent, make_result


            def f(t, s):
                if not t:
                    return absent(what="runs", checked=["the export"], try_instead=["x"])
                return make_result(facts=[{"entity": "a"}], provenance={"measured_at": t, "source": s})
            """
        ),
        encoding="utf-8",
    )
    assert _flake8(["tool.py"], tmp_path) == set()
    on_command_line = _flake8(
        ["tool.py"], tmp_path, "--sem-call-names=make_result", "--sem-api-modules=house.api"
    )
    assert {(row[1], row[3]) for row in on_command_line} == {(6, "SEM102"), (7, "SEM102")}

    # With several files flake8 lints in worker processes; the options reach them too.
    (tmp_path / "tool2.py").write_bytes((tmp_path / "tool.py").read_bytes())
    in_workers = _flake8(
        ["tool.py", "tool2.py"], tmp_path, "-j", "2", "--sem-call-names=make_result",
        "--sem-api-modules=house.api",
    )  # fmt: skip
    assert {(row[0], row[1]) for row in in_workers} == {
        ("tool.py", 6), ("tool.py", 7), ("tool2.py", 6), ("tool2.py", 7),
    }  # fmt: skip

    (tmp_path / "setup.cfg").write_text(
        "[flake8]\nsem-call-names = make_result\nsem-api-modules = house.api, other.api\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [
            sys.executable, "-m", "flake8", "--select", "SEM", f"--format={FLAKE8_FORMAT}",
            "tool.py", "tool2.py",
        ],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert sorted(line.split("\t")[:2] for line in result.stdout.splitlines()) == [
        ["tool.py", "6"], ["tool.py", "7"], ["tool2.py", "6"], ["tool2.py", "7"],
    ]  # fmt: skip


# ---------------------------------------------------------------------------
# The adapter in-process
# ---------------------------------------------------------------------------

NOQA_AND_UNDECODABLE_FILES: dict[str, bytes] = {
    "unused_noqa.py": (
        b"from semantics_lint.runtime import described_result\n"
        b"def f(rows, export):\n"
        b"    return described_result(facts=rows, provenance=export.p)  # noqa: SEM102\n"
        b"r = described_result(facts=[], provenance={'measured_at': t, 'source': s})  # noqa: SEM1, SEM999\n"
        b"q = described_result(facts=[], provenance={'a': t})  # noqa: SEM002, SEM102\n"
        b"d = described_result(facts=[], text='''x\n"
        b"y''', provenance={'measured_at': t, 'source': s})  # noqa: SEM102\n"
    ),
    "noqa_without_the_api.py": b"x = 1  # noqa: SEM102\ny = 2  # noqa: E501, SEM4\nz = 3  # noqa\n",
    "undecodable_comment.py": (
        b"# caf\xe9: not UTF-8, and no coding cookie\n"
        b"from semantics_lint.runtime import described_result\n"
        b"r = described_result(facts=[], provenance={'measured_at': t, 'source': s})\n"
    ),
    "undecodable_crlf_noqa.py": (
        b"from semantics_lint.runtime import described_result\r\n"
        b"r = described_result(facts=[], provenance={'measured_at': t})  # noqa: SEM001, SEM3 \xff\r\n"
    ),
    "undecodable_after_a_bom.py": (
        b"\xef\xbb\xbffrom semantics_lint.runtime import described_result\n"
        b"r = described_result(facts=['\xe9'], provenance={'measured_at': t, 'source': s})\n"
    ),
    "undecodable_without_the_api.py": b"# caf\xe9\nx = 1\n",
}


def test_flake8_reports_unused_noqa_and_undecodable_files_as_the_cli_does(tmp_path: Path) -> None:
    for name, data in NOQA_AND_UNDECODABLE_FILES.items():
        (tmp_path / name).write_bytes(data)
    rows = _compare(["."], tmp_path)
    codes = {(row[0], row[3]) for row in rows}
    # The comparison covers each case: an unused code, one in a file without the API,
    # and a file Python cannot decode (SEM001 in both doors, its comments read alike).
    assert {
        ("unused_noqa.py", "SEM002"),
        ("noqa_without_the_api.py", "SEM002"),
        ("undecodable_comment.py", "SEM001"),
        ("undecodable_crlf_noqa.py", "SEM002"),
        ("undecodable_after_a_bom.py", "SEM001"),
    } <= codes, rows
    assert not any(row[0] == "undecodable_without_the_api.py" for row in rows)


DEFECT = (
    "from semantics_lint.runtime import described_result\n"
    "r = described_result(facts=[{'entity': 'a'}], provenance={'measured_at': t, 'source': s})\n"
)


def _run(text: str, filename: str = "tool.py") -> list[tuple[int, int, str, type]]:
    lines = text.splitlines(keepends=True)
    return list(SemanticsLintPlugin(None, lines, filename).run())


def test_run_yields_flake8_tuples_with_zero_based_columns() -> None:
    results = _run(DEFECT)
    findings = engine.lint_source(DEFECT.encode(), "tool.py")
    assert results == [
        (f.start.line, f.start.column, f"{f.code} {f.message}", SemanticsLintPlugin) for f in findings
    ]
    assert [r[2].split()[0] for r in results] == ["SEM102"]
    assert results[0][:2] == (2, DEFECT.splitlines()[1].index("'measured_at'"))


def test_a_file_without_the_api_never_reaches_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> list[object]:
        raise AssertionError("the prefilter should have stopped this file")

    monkeypatch.setattr(engine, "lint_source", fail)
    assert _run("record = {'measured_at': t}\n" * 200) == []


def test_a_file_without_the_api_imports_nothing_heavy() -> None:
    code = textwrap.dedent(
        """\
        import sys
        from semantics_lint.flake8_plugin import SemanticsLintPlugin
        lines = ["record = {'measured_at': t}\\n"] * 100
        assert list(SemanticsLintPlugin(None, lines, "x.py").run()) == []
        heavy = sorted(m for m in ("libcst", "astroid") if m in sys.modules)
        assert not heavy, heavy
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_an_engine_crash_names_the_file_and_the_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    from flake8.exceptions import PluginExecutionFailed

    def crash(*args: object, **kwargs: object) -> list[object]:
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "lint_source", crash)
    with pytest.raises(PluginExecutionFailed) as caught:
        _run(DEFECT, "tools/broken.py")
    assert "tools/broken.py" in str(caught.value)
    assert "semantics-lint" in str(caught.value)
    assert isinstance(caught.value.original_exception, RuntimeError)


def test_plugin_metadata() -> None:
    from semantics_lint import __version__

    assert SemanticsLintPlugin.name == "semantics-lint"
    assert SemanticsLintPlugin.version == __version__
