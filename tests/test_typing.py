"""The declaration types, checked by real type checkers and by the runtime.

``tests/typed/`` holds typed example tool code. A line marked ``# type-error`` must
draw an error from mypy and from pyright (basedpyright); ``# type-error: mypy`` or
``# type-error: pyright`` from that checker only. Both report a wrong key at the part
that holds it, and mypy's message names the key (``Extra key "measured_at" for
TypedDict "Provenance"``): the mints have one signature each. Every other line must
be clean, so the right examples are clean whole.

One mypy run (``--strict``, its cache in a temporary folder) checks the examples and
the ``semantics_lint.runtime`` package together (``.ci/run`` holds all of ``src/`` to
``mypy --strict``); one basedpyright run checks the examples. basedpyright's wheel bundles node, so it runs offline; where it cannot start
at all its tests are skipped, with the reason, never failed.

The same examples are run: ``right_*`` and ``stricter_*`` (what the types, as the
reference's TypeScript types, refuse and the runtime accepts) return, ``wrong_*``
raise :class:`Refusal`, ``misread_*`` raise ``KeyError``. So the types and the
runtime are held to describing the same declarations.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from typing_extensions import Unpack

import semantics_lint.runtime
from semantics_lint import vocabulary
from semantics_lint.runtime import Refusal
from semantics_lint.runtime.envelope import types

EXAMPLES = Path(__file__).parent / "typed"
FILES = sorted(path for path in EXAMPLES.glob("*.py") if not path.name.startswith("_"))
WRONG = [path for path in FILES if path.stem.endswith("_wrong")]
CHECKERS = ("mypy", "pyright")
MARKER = re.compile(r"#\s*type-error(?::\s*(?P<only>mypy|pyright))?\s*$")
PACKAGE = Path(semantics_lint.runtime.__file__).parent
# Held to mypy --strict here: the runtime, which the examples import (so mypy reads it
# anyway). All of src/ is held to it by .ci/run (``mypy --strict src/semantics_lint``);
# adding the language server and the pytest plugin here made mypy read pygls',
# lsprotocol's and pytest's types on every run, from a cold cache: five times the work.
STRICT = (PACKAGE,)
# What a checker may take: the first run fills its cache on two cores.
TIMEOUT = 600

# What calling an example must do, by the prefix of its name.
OUTCOMES: dict[str, type[BaseException] | None] = {
    "right_": None,
    "stricter_": None,
    "wrong_": Refusal,
    "misread_": KeyError,
}


def marked_lines(path: Path, checker: str) -> set[int]:
    lines = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = MARKER.search(line)
        if match and match.group("only") in (None, checker):
            lines.add(number)
    return lines


def examples(path: Path) -> list[ast.FunctionDef]:
    """The example functions of a file (``_helpers`` are not examples)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in tree.body if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")]


def _errors_by_file(found: list[tuple[str, int]]) -> dict[Path, set[int]]:
    errors: dict[Path, set[int]] = {}
    for filename, line in found:
        errors.setdefault(Path(filename).resolve(), set()).add(line)
    return errors


# Each type checker runs once, on one worker: every test that reads its report is in
# the xdist group "type-checkers".
@pytest.fixture(scope="module")
def mypy_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[Path, set[int]], str]:
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    work = tmp_path_factory.mktemp("mypy")
    config = work / "mypy.ini"
    config.write_text("[mypy]\n", encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--config-file",
        str(config),
        "--cache-dir",
        str(work / "cache"),
        "--show-absolute-path",
        "--no-error-summary",
        "--no-pretty",
        *map(str, FILES),
    ]
    if "site-packages" not in PACKAGE.parts:
        command.extend(map(str, STRICT))
    # Run from outside the checkout, as a project that installed the package would.
    result = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    output = result.stdout + result.stderr
    assert result.returncode in (0, 1), f"mypy did not run:\n{output}"
    output = "\n".join(line for line in output.splitlines() if ": note: " not in line)
    found = [
        (match.group(1), int(match.group(2)))
        for match in re.finditer(r"^(.+?):(\d+): error: ", result.stdout, re.MULTILINE)
    ]
    return _errors_by_file(found), output


def _basedpyright() -> list[str] | None:
    script = Path(sys.executable).with_name("basedpyright")
    if script.exists():
        return [str(script)]
    found = shutil.which("basedpyright")
    return [found] if found else None


@pytest.fixture(scope="module")
def pyright_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[Path, set[int]], str]:
    program = _basedpyright()
    if program is None:
        pytest.skip("basedpyright is not installed (it is in the test extra)")
    work = tmp_path_factory.mktemp("pyright")
    config = work / "pyrightconfig.json"
    config.write_text(
        json.dumps({"typeCheckingMode": "standard", "extraPaths": [str(EXAMPLES)]}),
        encoding="utf-8",
    )
    command = [
        *program,
        "--project",
        str(config),
        "--pythonpath",
        sys.executable,
        "--outputjson",
        *map(str, FILES),
    ]
    try:
        result = subprocess.run(
            command, cwd=work, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"basedpyright could not run here: {exc}")
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        # Its bundled node could not start (or wanted to download something):
        # nothing was checked, which is not a verdict on the types.
        pytest.skip(
            f"basedpyright could not run here (exit {result.returncode}): "
            f"{(result.stderr or result.stdout).strip()[:500]}"
        )
    assert result.returncode in (0, 1), f"basedpyright failed:\n{result.stderr}"
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    found = [(d["file"], d["range"]["start"]["line"] + 1) for d in errors]
    shown = "\n".join(f"{file}:{line}: {d['message']}" for (file, line), d in zip(found, errors, strict=True))
    return _errors_by_file(found), shown


@pytest.fixture(params=CHECKERS)
def checker(request: pytest.FixtureRequest) -> tuple[str, dict[Path, set[int]], str]:
    name: str = request.param
    errors, output = request.getfixturevalue(f"{name}_run")
    return name, errors, output


# ---------------------------------------------------------------------------
# The examples themselves
# ---------------------------------------------------------------------------


def test_every_example_file_is_right_or_wrong_by_name() -> None:
    assert FILES
    for path in FILES:
        wrong = path.stem.endswith("_wrong")
        assert wrong or path.stem.endswith("_right"), path.name
        has_markers = bool(marked_lines(path, "mypy") | marked_lines(path, "pyright"))
        assert has_markers == wrong, f"{path.name}: markers belong in *_wrong.py only"


@pytest.mark.parametrize("path", WRONG, ids=lambda path: path.stem)
def test_every_wrong_example_is_marked_for_both_checkers(path: Path) -> None:
    for function in examples(path):
        span = set(range(function.lineno, (function.end_lineno or function.lineno) + 1))
        for name in CHECKERS:
            assert span & marked_lines(path, name), f"{function.name}: no line marked for {name}"


# ---------------------------------------------------------------------------
# The checkers
# ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.xdist_group("type-checkers")
@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_checker_reports_exactly_the_marked_lines(
    checker: tuple[str, dict[Path, set[int]], str], path: Path
) -> None:
    name, errors, output = checker
    reported = errors.get(path.resolve(), set())
    expected = marked_lines(path, name)
    assert not expected - reported, (
        f"{name} is silent on marked lines {sorted(expected - reported)} of {path.name}\n{output}"
    )
    assert not reported - expected, (
        f"{name} reports unmarked lines {sorted(reported - expected)} of {path.name}\n{output}"
    )


@pytest.mark.slow
@pytest.mark.xdist_group("type-checkers")
def test_the_runtime_passes_mypy_strict(
    mypy_run: tuple[dict[Path, set[int]], str],
) -> None:
    if "site-packages" in PACKAGE.parts:
        pytest.skip("the package is installed, not a checkout: its source is not ours to check")
    errors, output = mypy_run
    ours = {
        path: lines
        for path, lines in errors.items()
        if any(path == root or root in path.parents for root in STRICT)
    }
    assert ours == {}, output


def _line_of(path: Path, text: str, function: str) -> int:
    """The line, in ``function`` of ``path``, that holds ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    node = next(node for node in examples(path) if node.name == function)
    found = [
        number
        for number in range(node.lineno, (node.end_lineno or node.lineno) + 1)
        if text in lines[number - 1]
    ]
    assert len(found) == 1, (function, text, found)
    return found[0]


# (file, function, {checker: (the text on the line it reports, what it says)}): mypy
# reports at the part's dict, pyright at the key (a multi-line dict shows the two).
NAMED: list[tuple[str, str, dict[str, tuple[str, str]]]] = [
    (
        "described_result_wrong.py",
        "wrong_snake_case_provenance_key_on_its_own_line",
        {
            "mypy": ('"measured_at"', 'Extra key "measured_at" for TypedDict "Provenance"'),
            "pyright": ('"measured_at"', '"measured_at" is an undefined item in type "Provenance"'),
        },
    ),
    (
        "described_result_wrong.py",
        "wrong_cannot_cover_without_why",
        {
            "mypy": ('"cannotCover"', 'Missing key "why" for TypedDict "CannotCoverItem"'),
            "pyright": ('"cannotCover"', '"why" is required in "CannotCoverItem"'),
        },
    ),
    (
        "described_result_wrong.py",
        "wrong_snake_case_grain_key",
        {
            "mypy": ('"is_counter"', 'Extra key "is_counter" for TypedDict "Grain"'),
            "pyright": ('"is_counter"', '"is_counter" is an undefined item in type "Grain"'),
        },
    ),
    (
        "absent_coverage_wrong.py",
        "wrong_coverage_snake_case_period_key",
        {
            "mypy": ("period={", 'Extra key "read_at" for TypedDict "Period"'),
            "pyright": ('"read_at"', '"read_at" is an undefined item in type "Period"'),
        },
    ),
]


@pytest.mark.slow
@pytest.mark.xdist_group("type-checkers")
@pytest.mark.parametrize(("name", "function", "says"), NAMED, ids=lambda v: str(v)[:60])
def test_both_checkers_name_the_key_at_the_part(
    checker: tuple[str, dict[Path, set[int]], str],
    name: str,
    function: str,
    says: dict[str, tuple[str, str]],
) -> None:
    checker_name, _, output = checker
    path = EXAMPLES / name
    text, message = says[checker_name]
    line = _line_of(path, text, function)
    at_line = [
        entry for entry in re.split(r"\n(?=\S)", output) if entry.startswith(f"{path.resolve()}:{line}:")
    ]
    assert any(message in entry for entry in at_line), f"{checker_name} at {name}:{line}:\n{output}"
    assert "No overload variant" not in output


# ---------------------------------------------------------------------------
# The runtime agrees
# ---------------------------------------------------------------------------


def _load(path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    spec = importlib.util.spec_from_file_location(f"typed_example_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_the_runtime_does_what_each_example_says(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _load(path, monkeypatch)
    for function in examples(path):
        prefix = next((p for p in OUTCOMES if function.name.startswith(p)), None)
        assert prefix is not None, f"{function.name}: name it right_/stricter_/wrong_/misread_"
        call: Callable[[], object] = getattr(module, function.name)
        outcome = OUTCOMES[prefix]
        if outcome is None:
            call()
        else:
            with pytest.raises(outcome):
                call()


# ---------------------------------------------------------------------------
# The types and the vocabulary spell the same keys
# ---------------------------------------------------------------------------

COVERED_RESULT_KEYS = (vocabulary.COVERAGE_MARKER, "result")

# Each TypedDict and the vocabulary's key list it spells.
KEYS: list[tuple[object, tuple[str, ...]]] = [
    (types.Grain, vocabulary.GRAIN_FIELDS),
    (types.Provenance, vocabulary.PROVENANCE_FIELDS),
    (types.Coverage, vocabulary.COVERAGE_FIELDS),
    (types.CoverageItem, vocabulary.COVERAGE_ITEM_FIELDS),
    (types.CannotCoverItem, vocabulary.COVERAGE_ITEM_FIELDS),
    (types.Clarify, vocabulary.CLARIFY_FIELDS),
    (types.Render, vocabulary.RENDER_FIELDS),
    (types.Period, vocabulary.PERIOD_FIELDS),
    (types.PeriodSpan, vocabulary.PERIOD_SPAN_FIELDS),
    (types.InProgressItem, vocabulary.IN_PROGRESS_ITEM_FIELDS),
    (types.SeriesPoint, vocabulary.ROW_REQUIRED_FIELDS["series"]),
    (types.Fact, vocabulary.ROW_REQUIRED_FIELDS["facts"]),
    (types.Edge, vocabulary.ROW_REQUIRED_FIELDS["edges"]),
    (types.SeriesDeclaration, vocabulary.DESCRIBED_RESULT_FIELDS),
    (types.DescribedResultFields, vocabulary.DESCRIBED_RESULT_FIELDS),
    (types.AbsenceDeclaration, vocabulary.ABSENT_FIELDS),
    (types.AbsenceFields, vocabulary.ABSENT_FIELDS),
    (types.CoverageDeclaration, vocabulary.LEDGER_FIELDS),
    (types.ToolDefinition, vocabulary.TOOL_FIELDS),
    (types.ToolDefinitionFields, vocabulary.TOOL_FIELDS),
    (types.ToolSemantics, vocabulary.ENVELOPE_WIRE_KEYS),
    (types.SemanticGrain, vocabulary.GRAIN_WIRE_KEYS),
    (types.SemanticProvenance, vocabulary.PROVENANCE_WIRE_KEYS),
    (types.SemanticCoverage, vocabulary.COVERAGE_WIRE_KEYS),
    (types.SemanticClarify, vocabulary.CLARIFY_WIRE_KEYS),
    (types.SemanticRender, vocabulary.RENDER_WIRE_KEYS),
    (types.ToolAbsence, vocabulary.ABSENCE_WIRE_KEYS),
    (types.CoverageLedger, vocabulary.LEDGER_WIRE_KEYS),
    (types.PeriodOnWire, vocabulary.PERIOD_WIRE_KEYS),
    (types.CoveredResult, COVERED_RESULT_KEYS),
]


def _keys(typed_dict: object) -> frozenset[str]:
    required: frozenset[str] = typed_dict.__required_keys__
    optional: frozenset[str] = typed_dict.__optional_keys__
    return required | optional


@pytest.mark.parametrize(("typed_dict", "fields"), KEYS, ids=lambda value: getattr(value, "__name__", ""))
def test_typed_dict_keys_are_the_vocabulary_s(typed_dict: object, fields: tuple[str, ...]) -> None:
    assert _keys(typed_dict) == frozenset(fields)


def test_every_public_typed_dict_is_held_to_the_vocabulary() -> None:
    held = {typed_dict.__name__ for typed_dict, _ in KEYS}
    shapes = {"ClarifyDeclaration", "EdgesDeclaration", "FactsDeclaration"}
    typed_dicts = {name for name in types.__all__ if hasattr(getattr(types, name), "__required_keys__")}
    assert typed_dicts - held == shapes


def test_the_described_result_shapes_are_the_declaration_s_fields() -> None:
    shapes = typing.get_args(types.DescribedResultDeclaration)
    widest = _keys(types.SeriesDeclaration)
    assert all(_keys(shape) <= widest for shape in shapes)
    # Each shape requires the data field it is named for, and what that data needs.
    required = {shape.__name__: shape.__required_keys__ for shape in shapes}
    assert required == {
        "SeriesDeclaration": {"series", "grain", "provenance"},
        "FactsDeclaration": {"facts", "provenance"},
        "EdgesDeclaration": {"edges"},
        "ClarifyDeclaration": {"clarify"},
    }
    # A shape without series, facts or edges has no such key at all.
    assert "series" not in _keys(types.FactsDeclaration)
    assert not {"series", "facts"} & _keys(types.EdgesDeclaration)
    assert not set(vocabulary.DATA_FIELDS) & _keys(types.ClarifyDeclaration)


def test_the_result_class_literal_is_the_vocabulary_s() -> None:
    assert typing.get_args(types.ToolResultClass) == vocabulary.RESULT_CLASSES


def test_required_keys_follow_the_reference() -> None:
    assert types.Provenance.__required_keys__ == {"measuredAt", "source"}
    assert types.Render.__required_keys__ == {"default"}
    assert types.Grain.__required_keys__ == frozenset()
    assert types.Coverage.__required_keys__ == frozenset()
    assert types.CoverageItem.__required_keys__ == {"what"}
    assert types.CannotCoverItem.__required_keys__ == {"what", "why"}
    assert types.AbsenceDeclaration.__required_keys__ == {"what", "checked"}
    assert types.Period.__required_keys__ == {"queried", "held"}
    assert types.ToolSemantics.__required_keys__ == {vocabulary.SEMANTICS_MARKER, "note"}
    assert types.ToolDefinition.__required_keys__ == {"name", "execute"}
    # What the mints take as keywords: each key optional (the dict form passes none).
    assert types.DescribedResultFields.__required_keys__ == frozenset()
    assert types.AbsenceFields.__required_keys__ == frozenset()
    assert types.ToolDefinitionFields.__required_keys__ == frozenset()


@pytest.mark.parametrize(
    ("function", "parameter", "expected"),
    [
        (semantics_lint.runtime.described_result, "fields", types.DescribedResultFields),
        (semantics_lint.runtime.absent, "fields", types.AbsenceFields),
        (semantics_lint.runtime.coverage, "fields", types.CoverageDeclaration),
        (semantics_lint.runtime.define_tool, "fields", types.ToolDefinitionFields),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_each_door_has_one_signature_its_keywords_typed_by_the_parts(
    function: Callable[..., object], parameter: str, expected: object
) -> None:
    # A door overloaded by shapes makes mypy answer "No overload variant" for any
    # wrong key (test_both_checkers_name_the_key_at_the_part holds mypy to that).
    names = {**vars(sys.modules[function.__module__]), **vars(types), "Unpack": Unpack}
    hints = typing.get_type_hints(function, globalns=names, include_extras=True)
    assert typing.get_args(hints[parameter]) == (expected,)


def test_the_types_are_exported_and_loaded_only_when_asked_for() -> None:
    for name in types.__all__:
        assert name in semantics_lint.runtime.__all__, name
        assert getattr(semantics_lint.runtime, name) is getattr(types, name), name
    code = (
        "import sys, semantics_lint.runtime\n"
        "from semantics_lint.runtime import absent\n"
        "absent(what='w', checked=['c'])\n"
        "print('typing_extensions' in sys.modules)\n"
        "print('semantics_lint.runtime.envelope.types' in sys.modules)\n"
        "from semantics_lint.runtime import Provenance\n"
        "print(Provenance.__module__)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={**os.environ, "PYTHONWARNINGS": "error"},
    )
    assert result.stdout.split() == ["False", "False", "semantics_lint.runtime.envelope.types"]
