"""Tests for ``semantics_lint.lint.run.fix``: applying edits, the fixpoint loop, atomic writes.

Most cases drive ``apply_fixes`` and ``fix_source`` with hand-made findings (a tiny
stand-in linter below) so that every edge the real rules never produce (overlaps,
fixes that break the syntax, fixes that never converge) is exercised; the cases at the
end go through the real engine.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from semantics_lint.lint.core.model import Applicability, Edit, Finding, Fix, Position, Severity
from semantics_lint.lint.run.fix import FixError, FixResult, apply_fixes, fix_source
from semantics_lint.lint.run.write import fix_file, write_atomic
from semantics_lint.vocabulary import SNAKE_TO_CAMEL


def _finding(
    line: int,
    column: int,
    end_line: int,
    end_column: int,
    content: str,
    *,
    code: str = "SEM102",
    applicability: Applicability = Applicability.SAFE,
    extra: tuple[Edit, ...] = (),
) -> Finding:
    start, end = Position(line, column), Position(end_line, end_column)
    edit = Edit(content, start, end)
    return Finding(
        code=code,
        message="test finding",
        severity=Severity.ERROR,
        filename="t.py",
        start=start,
        end=end,
        fix=Fix(applicability, "rename", (edit, *extra)),
    )


def _rename(line: int, column: int, old: str, new: str, **kwargs: object) -> Finding:
    return _finding(line, column, line, column + len(old), new, **kwargs)  # type: ignore[arg-type]


# A stand-in linter: every quoted snake_case spelling of a camelCase field is a SEM102
# with a safe fix replacing the text between the quotes. Positions are computed on the
# decoded text the way the engine reports them (characters, 0-based columns).
_QUOTED_SNAKE = re.compile(r"(['\"])(" + "|".join(SNAKE_TO_CAMEL) + r")\1")


def _toy_lint(text: str, filename: str, settings: object) -> list[Finding]:
    findings = []
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        for match in _QUOTED_SNAKE.finditer(line):
            findings.append(_rename(number, match.start(2), match.group(2), SNAKE_TO_CAMEL[match.group(2)]))
    return findings


# ---------------------------------------------------------------------------
# apply_fixes
# ---------------------------------------------------------------------------


def test_rename_keeps_everything_else() -> None:
    text = 'p = {  # why\n    "measured_at" :  t,   # when\n}\n'
    new, applied = apply_fixes(text, [_rename(2, 5, "measured_at", "measuredAt")], unsafe=False)
    assert new == 'p = {  # why\n    "measuredAt" :  t,   # when\n}\n'
    assert applied == 1


def test_several_edits_on_one_line_use_original_offsets() -> None:
    text = "{'is_counter': 1, 'read_at': 2, 'age_seconds': 3}\n"
    findings = [
        _rename(1, 2, "is_counter", "isCounter"),
        _rename(1, 19, "read_at", "readAt"),
        _rename(1, 33, "age_seconds", "ageSeconds"),
    ]
    new, applied = apply_fixes(text, findings, unsafe=False)
    assert new == "{'isCounter': 1, 'readAt': 2, 'ageSeconds': 3}\n"
    assert applied == 3


def test_crlf_line_endings_are_kept() -> None:
    text = "x = {\r\n    'measured_at': t,\r\n}\r\n"
    new, applied = apply_fixes(text, [_rename(2, 5, "measured_at", "measuredAt")], unsafe=False)
    assert new == "x = {\r\n    'measuredAt': t,\r\n}\r\n"
    assert applied == 1


def test_new_lines_in_an_edit_take_the_file_line_ending() -> None:
    text = "a = 1\r\nb = 2\r\n"
    finding = _finding(1, 5, 1, 5, "\n# added")
    new, _ = apply_fixes(text, [finding], unsafe=False)
    assert new == "a = 1\r\n# added\r\nb = 2\r\n"


def test_lone_carriage_returns_count_as_line_breaks() -> None:
    text = "a = 1\rb = {'read_at': 1}\r"
    new, _ = apply_fixes(text, [_rename(2, 6, "read_at", "readAt")], unsafe=False)
    assert new == "a = 1\rb = {'readAt': 1}\r"


def test_form_feed_is_not_a_line_break() -> None:
    # str.splitlines() would split here; Python's tokenizer does not.
    text = "\x0cb = {'read_at': 1}\n"
    new, _ = apply_fixes(text, [_rename(1, 7, "read_at", "readAt")], unsafe=False)
    assert new == "\x0cb = {'readAt': 1}\n"


def test_tabs_count_as_one_column() -> None:
    text = "if x:\n\t\td = {'is_counter': 1}\n"
    new, _ = apply_fixes(text, [_rename(2, 8, "is_counter", "isCounter")], unsafe=False)
    assert new == "if x:\n\t\td = {'isCounter': 1}\n"


def test_columns_are_code_points() -> None:
    text = "d = {'\U0001f600': 1, 'chart_hint': 2}\n"
    column = text.index("chart_hint")
    new, _ = apply_fixes(text, [_rename(1, column, "chart_hint", "chartHint")], unsafe=False)
    assert new == "d = {'\U0001f600': 1, 'chartHint': 2}\n"


def test_unsafe_fixes_need_permission() -> None:
    text = "{'sorce': s}\n"
    finding = _rename(1, 2, "sorce", "source", code="SEM101", applicability=Applicability.UNSAFE)
    assert apply_fixes(text, [finding], unsafe=False) == (text, 0)
    assert apply_fixes(text, [finding], unsafe=True) == ("{'source': s}\n", 1)


def test_findings_without_fix_are_ignored() -> None:
    plain = Finding("SEM105", "m", Severity.ERROR, "t.py", Position(1, 0), Position(1, 1))
    assert apply_fixes("x = 1\n", [plain], unsafe=True) == ("x = 1\n", 0)


def test_overlapping_fixes_outer_wins_inner_waits() -> None:
    text = "{'a': {'read_at': 1}}\n"
    outer = _finding(1, 0, 1, 21, "{'b': {'read_at': 1}}")
    inner = _rename(1, 8, "read_at", "readAt")
    new, applied = apply_fixes(text, [inner, outer], unsafe=False)
    assert new == "{'b': {'read_at': 1}}\n"
    assert applied == 1


def test_two_insertions_at_one_point_are_not_both_applied() -> None:
    text = "x\n"
    first = _finding(1, 0, 1, 0, "a")
    second = _finding(1, 0, 1, 0, "b")
    new, applied = apply_fixes(text, [first, second], unsafe=False)
    assert applied == 1
    assert new in ("ax\n", "bx\n")


def test_adjacent_edits_both_apply() -> None:
    text = "ab\n"
    new, applied = apply_fixes(text, [_finding(1, 0, 1, 1, "A"), _finding(1, 1, 1, 2, "B")], unsafe=False)
    assert (new, applied) == ("AB\n", 2)


def test_the_same_fix_twice_is_made_once_and_counted_twice() -> None:
    text = "{'read_at': 1}\n"
    one = _rename(1, 2, "read_at", "readAt")
    two = _rename(1, 2, "read_at", "readAt", code="SEM101")
    new, applied = apply_fixes(text, [one, two], unsafe=False)
    assert (new, applied) == ("{'readAt': 1}\n", 2)


def test_multi_edit_fix_is_all_or_nothing() -> None:
    text = "abc def\n"
    both = _finding(1, 0, 1, 1, "A", extra=(Edit("D", Position(1, 4), Position(1, 5)),))
    blocked = _finding(1, 4, 1, 7, "XYZ")
    new, applied = apply_fixes(text, [both, blocked], unsafe=False)
    assert (new, applied) == ("Abc Def\n", 1)


def test_multi_line_edit() -> None:
    text = "a = [\n    1,\n]\n"
    new, _ = apply_fixes(text, [_finding(1, 4, 3, 1, "[1]")], unsafe=False)
    assert new == "a = [1]\n"


@pytest.mark.parametrize(
    ("line", "column"),
    [(0, 0), (5, 0), (1, 6), (1, -1)],
)
def test_positions_outside_the_text_are_refused(line: int, column: int) -> None:
    with pytest.raises(FixError, match="line"):
        apply_fixes("x = 1\n", [_finding(line, column, line, column, "y")], unsafe=False)


def test_end_before_start_is_refused() -> None:
    with pytest.raises(FixError, match="ends before it starts"):
        apply_fixes("x = 1\n", [_finding(1, 3, 1, 1, "y")], unsafe=False)


# ---------------------------------------------------------------------------
# fix_source, with the stand-in linter
# ---------------------------------------------------------------------------


def test_fix_source_fixes_and_reports_what_remains() -> None:
    source = b"p = {'measured_at': t, 'source': s}  # keep me\n"
    result = fix_source(source, "t.py", unsafe=False, lint=_toy_lint)
    assert result == FixResult(
        b"p = {'measuredAt': t, 'source': s}  # keep me\n",
        True,
        1,
        [],
        "p = {'measuredAt': t, 'source': s}  # keep me\n",
    )


def test_fix_source_is_idempotent() -> None:
    source = b"p = {'measured_at': t, 'is_counter': False}\n"
    first = fix_source(source, "t.py", unsafe=False, lint=_toy_lint)
    second = fix_source(first.source, "t.py", unsafe=False, lint=_toy_lint)
    assert first.changed and first.applied == 2
    assert second.source == first.source
    assert not second.changed and second.applied == 0


def test_fix_source_keeps_bom_and_crlf() -> None:
    source = "\ufeffp = {\r\n    'measured_at': t,  # \u00e9t\u00e9\r\n}\r\n".encode()
    result = fix_source(source, "t.py", unsafe=False, lint=_toy_lint)
    assert result.source == "\ufeffp = {\r\n    'measuredAt': t,  # \u00e9t\u00e9\r\n}\r\n".encode()


def test_fix_source_keeps_a_declared_encoding() -> None:
    source = "# -*- coding: latin-1 -*-\np = {'read_at': '\u00e9'}\n".encode("latin-1")

    def lint(text: str, filename: str, settings: object) -> list[Finding]:
        return [] if "read_at" not in text else [_rename(2, 6, "read_at", "readAt")]

    result = fix_source(source, "t.py", unsafe=False, lint=lint)
    assert result.source == "# -*- coding: latin-1 -*-\np = {'readAt': '\u00e9'}\n".encode("latin-1")


def test_fix_source_unchanged_when_nothing_to_fix() -> None:
    source = b"p = {'measuredAt': t}\n"
    result = fix_source(source, "t.py", unsafe=False, lint=_toy_lint)
    assert result == FixResult(source, False, 0, [])


def test_overlapping_fixes_are_finished_in_a_later_pass() -> None:
    source = b"x = {'a': {'read_at': 1}}\n"

    def lint(data: str, filename: str, settings: object) -> list[Finding]:
        found = _toy_lint(data, filename, settings)
        if "'a'" in data:
            found.append(_finding(1, 4, 1, 25, "{'b': {'read_at': 1}}"))
        return found

    result = fix_source(source, "t.py", unsafe=False, lint=lint)
    assert result.source == b"x = {'b': {'readAt': 1}}\n"
    assert result.applied == 2


def test_a_fix_that_breaks_the_syntax_raises() -> None:
    def lint(data: str, filename: str, settings: object) -> list[Finding]:
        return [_finding(1, 0, 1, 1, "(")] if data.startswith("x") else []

    with pytest.raises(FixError, match="does not parse"):
        fix_source(b"x = 1\n", "t.py", unsafe=False, lint=lint)


def test_fixes_that_never_converge_raise() -> None:
    def lint(data: str, filename: str, settings: object) -> list[Finding]:
        # Always proposes one more line: the loop can never settle.
        return [_finding(1, 0, 1, 0, "pass\n")]

    with pytest.raises(FixError, match="did not converge after 3 passes"):
        fix_source(b"x = 1\n", "t.py", unsafe=False, max_passes=3, lint=lint)


def test_converging_on_the_last_allowed_pass_is_fine() -> None:
    source = b"{'read_at': 1}\n"
    result = fix_source(source, "t.py", unsafe=False, max_passes=1, lint=_toy_lint)
    assert result.source == b"{'readAt': 1}\n"


def test_fix_that_changes_nothing_is_not_a_loop() -> None:
    def lint(data: str, filename: str, settings: object) -> list[Finding]:
        return [_finding(1, 0, 1, 1, "x")]

    result = fix_source(b"x = 1\n", "t.py", unsafe=False, lint=lint)
    assert not result.changed and result.applied == 0


def test_unencodable_fix_raises() -> None:
    source = "# coding: latin-1\nx = 1\n".encode("latin-1")

    def lint(data: str, filename: str, settings: object) -> list[Finding]:
        return [_finding(2, 0, 2, 1, "\u4e00")] if data.endswith("x = 1\n") else []

    with pytest.raises(FixError, match="encoding"):
        fix_source(source, "t.py", unsafe=False, lint=lint)


def test_undecodable_source_is_returned_untouched() -> None:
    source = b"x = '\xff'  # 'read_at'\n"

    def lint(data: str, filename: str, settings: object) -> list[Finding]:
        return [_rename(1, 13, "read_at", "readAt")]

    result = fix_source(source, "t.py", unsafe=False, lint=lint)
    assert result.source == source and not result.changed


_TYPOS = re.compile(r"(['\"])(mesuredAt|measuerdAt)\1")


def _typo_lint(text: str, filename: str, settings: object) -> list[Finding]:
    """SEM102 as the stand-in above, plus SEM101 typos of measuredAt with an unsafe fix.

    Like the real rules, each judges its key alone: a typo is offered the rename
    unless ``measuredAt`` itself is already a key, whatever the other keys are.
    """
    findings = _toy_lint(text, filename, settings)
    for number, line in enumerate(text.splitlines(), start=1):
        if "'measuredAt'" in line:
            continue
        for match in _TYPOS.finditer(line):
            findings.append(
                _rename(
                    number, match.start(2), match.group(2), "measuredAt",
                    code="SEM101", applicability=Applicability.UNSAFE,
                )
            )  # fmt: skip
    return findings


def test_unsafe_fixes_wait_for_the_safe_ones() -> None:
    source = b"p = {'mesuredAt': t, 'measured_at': t}\n"
    result = fix_source(source, "t.py", unsafe=True, lint=_typo_lint)
    # The safe rename went first; the typo's rename was then no longer offered.
    assert result.source == b"p = {'mesuredAt': t, 'measuredAt': t}\n"
    assert [f.code for f in result.remaining] == []  # the stand-in reports no plain SEM101


def test_fixes_that_would_repeat_a_key_are_spread_over_passes() -> None:
    source = b"p = {'mesuredAt': t, 'measuerdAt': u}\nq = {'mesuredAt': v}\n"
    result = fix_source(source, "t.py", unsafe=True, lint=_typo_lint)
    assert result.source == b"p = {'measuredAt': t, 'measuerdAt': u}\nq = {'measuredAt': v}\n"
    assert result.applied == 2


def test_repeated_keys_already_there_do_not_block_fixes() -> None:
    source = b"p = {'a': 1, 'a': 2, 'read_at': 3, 'age_seconds': 4}\n"
    result = fix_source(source, "t.py", unsafe=False, lint=_toy_lint)
    assert result.source == b"p = {'a': 1, 'a': 2, 'readAt': 3, 'ageSeconds': 4}\n"
    assert result.applied == 2


# ---------------------------------------------------------------------------
# fix_file and write_atomic
# ---------------------------------------------------------------------------


def test_fix_file_writes_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    path.write_bytes(b"p = {'measured_at': t}\n")
    result = fix_file(path, unsafe=False, lint=_toy_lint)
    assert result.changed
    assert path.read_bytes() == b"p = {'measuredAt': t}\n"


def test_fix_file_without_write_leaves_the_file(tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    path.write_bytes(b"p = {'measured_at': t}\n")
    result = fix_file(path, unsafe=False, write=False, lint=_toy_lint)
    assert result.source == b"p = {'measuredAt': t}\n"
    assert path.read_bytes() == b"p = {'measured_at': t}\n"


def test_a_file_that_would_not_parse_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    original = b"p = {'measured_at': t}\n"
    path.write_bytes(original)

    def lint(data: str, filename: str, settings: object) -> list[Finding]:
        return [_rename(1, 5, "'measured_at'", "'measuredAt")]

    with pytest.raises(FixError):
        fix_file(path, unsafe=False, lint=lint)
    assert path.read_bytes() == original
    assert sorted(os.listdir(tmp_path)) == ["tool.py"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
@pytest.mark.parametrize("mode", [0o600, 0o640, 0o755])
def test_write_atomic_keeps_the_mode(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "tool.py"
    path.write_bytes(b"old\n")
    path.chmod(mode)
    write_atomic(path, b"new\n")
    assert path.read_bytes() == b"new\n"
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert sorted(os.listdir(tmp_path)) == ["tool.py"]


def test_write_atomic_leaves_the_file_untouched_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tool.py"
    path.write_bytes(b"old\n")

    def refuse(src: str, dst: str, **where: object) -> None:
        raise OSError("disk said no")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk said no"):
        write_atomic(path, b"new\n")
    assert path.read_bytes() == b"old\n"
    assert sorted(os.listdir(tmp_path)) == ["tool.py"]


def test_write_atomic_failing_mid_write_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tool.py"
    path.write_bytes(b"old\n")

    def refuse(fd: int) -> None:
        raise OSError("fsync failed")

    monkeypatch.setattr(os, "fsync", refuse)
    with pytest.raises(OSError, match="fsync failed"):
        write_atomic(path, b"new\n")
    assert path.read_bytes() == b"old\n"
    assert sorted(os.listdir(tmp_path)) == ["tool.py"]


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges")
def test_write_atomic_follows_a_symlink_and_keeps_it(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_bytes(b"old\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    write_atomic(link, b"new\n")
    assert link.is_symlink()
    assert target.read_bytes() == b"new\n"


def test_write_atomic_creates_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "new.py"
    write_atomic(path, b"x = 1\n")
    assert path.read_bytes() == b"x = 1\n"


# ---------------------------------------------------------------------------
# Through the real engine
# ---------------------------------------------------------------------------

REAL_TOOL = """\
from semantics_lint.runtime import described_result


def backup_status(export, vm):
\treturn described_result(
\t\tfacts=[{"entity": vm}],  # one row
\t\tprovenance={
\t\t\t# the export's own timestamp, never the clock
\t\t\tu'measured_at' : export.measured_at,
\t\t\t"source": export.source,
\t\t\t"age_seconds": 5,  # age_seconds stays in this comment
\t\t},
\t\tgrain=dict(interval="daily", aggregation="count", is_counter=False),
\t)


RECORD = {"af_semantics": True, "measured_at": "2024-05-01"}  # a wire envelope: kept
"""

REAL_FIXED = (
    REAL_TOOL.replace("u'measured_at' :", "u'measuredAt' :")
    .replace('"age_seconds": 5', '"ageSeconds": 5')
    .replace("is_counter=False", "isCounter=False")
)


def _codes(findings: list[Finding]) -> list[str]:
    return [finding.code for finding in findings]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", [False, True])
def test_real_engine_fix_keeps_comments_tabs_line_endings_and_bom(newline: str, bom: bool) -> None:
    def encode(text: str) -> bytes:
        data = text.replace("\n", newline).encode()
        return b"\xef\xbb\xbf" + data if bom else data

    result = fix_source(encode(REAL_TOOL), "tool.py", unsafe=False)
    assert result.source == encode(REAL_FIXED)
    assert result.applied == 3
    assert "SEM102" not in _codes(result.remaining)
    again = fix_source(result.source, "tool.py", unsafe=False)
    assert again.source == result.source and not again.changed


def test_real_engine_unsafe_fix_needs_permission() -> None:
    source = (
        b"from semantics_lint.runtime import described_result\n"
        b"r = described_result(facts=[{'entity': 'a'}],"
        b" provenance={'measuerdAt': t, 'source': s})\n"
    )
    safe_only = fix_source(source, "tool.py", unsafe=False)
    assert not safe_only.changed
    assert "SEM101" in _codes(safe_only.remaining)
    with_unsafe = fix_source(source, "tool.py", unsafe=True)
    assert with_unsafe.source == source.replace(b"'measuerdAt'", b"'measuredAt'")
    assert "SEM101" not in _codes(with_unsafe.remaining)


@pytest.mark.parametrize(
    ("keys", "fixed"),
    [
        ("'mesuredAt': t, 'measured_at': t", "'mesuredAt': t, 'measuredAt': t"),
        ("'mesuredAt': t, 'measuerdAt': t", "'measuredAt': t, 'measuerdAt': t"),
    ],
)
def test_real_engine_never_declares_a_field_twice(keys: str, fixed: str) -> None:
    template = (
        "from semantics_lint.runtime import described_result\n"
        "r = described_result(facts=[{{'entity': 'a'}}], provenance={{{keys}, 'source': s}})\n"
    )
    result = fix_source(template.format(keys=keys).encode(), "tool.py", unsafe=True)
    assert result.source.decode() == template.format(keys=fixed)


def test_real_engine_leaves_a_file_with_a_syntax_error_alone() -> None:
    source = b"from semantics_lint.runtime import described_result\nx = described_result(provenance={'measured_at': t}\n"
    result = fix_source(source, "tool.py", unsafe=True)
    assert result.source == source and not result.changed
    assert _codes(result.remaining) == ["SEM001"]


def test_real_engine_file_without_calls_is_untouched() -> None:
    source = b"RECORD = {'measured_at': t}  # no call of ours\n"
    assert fix_source(source, "tool.py", unsafe=True) == FixResult(source, False, 0, [])


def test_a_fix_that_only_the_compiler_refuses_raises() -> None:
    # ast.parse accepts a repeated parameter name; compiling does not.
    source = b"def f(a, b):\n    pass\n"

    def lint(data: str, filename: str, settings: object) -> list[Finding]:
        return [_finding(1, 9, 1, 10, "a")] if ", b" in data else []

    with pytest.raises(FixError, match="does not parse"):
        fix_source(source, "t.py", unsafe=False, lint=lint)


def test_a_file_the_compiler_already_refuses_is_held_to_ast_parse() -> None:
    # A module-level return compiles nowhere but parses; fixing it is still possible.
    source = b"return {'read_at': 1}\n"
    result = fix_source(source, "t.py", unsafe=False, lint=_toy_lint)
    assert result.source == b"return {'readAt': 1}\n"


def test_real_engine_never_repeats_a_keyword() -> None:
    source = (
        b"from semantics_lint.runtime import described_result\n"
        b"r = described_result(facts=[{'entity': 'a'}], provenance=dict(mesuredAt=t, measuerdAt=u, source=s))\n"
    )
    result = fix_source(source, "tool.py", unsafe=True)
    assert result.source == source.replace(b"mesuredAt=", b"measuredAt=")
    compile(result.source, "tool.py", "exec", dont_inherit=True)


def test_a_fix_that_would_repeat_a_key_is_never_applied() -> None:
    # A rule that offers a rename to a key already present: the fix layer refuses it.
    source = b"p = {'measuredAt': t, 'read_at': u}\n"

    def lint(data: str, filename: str, settings: object) -> list[Finding]:
        return [_rename(1, 23, "read_at", "measuredAt")] if "read_at" in data else []

    result = fix_source(source, "t.py", unsafe=False, lint=lint)
    assert result.source == source and not result.changed
    assert [f.code for f in result.remaining] == ["SEM102"]


def test_fixes_that_swap_keys_are_not_a_repeat() -> None:
    source = b"p = {'measuredAt': t, 'read_at': u}\n"

    def lint(data: str, filename: str, settings: object) -> list[Finding]:
        if "read_at" not in data:
            return []
        return [_rename(1, 6, "measuredAt", "readAt"), _rename(1, 23, "read_at", "measuredAt")]

    result = fix_source(source, "t.py", unsafe=False, lint=lint)
    assert result.source == b"p = {'readAt': t, 'measuredAt': u}\n"


# -- one decode and one prefilter per file ------------------------------------------------


@pytest.mark.parametrize("mode", ["fix", "diff", "lint"])
def test_a_run_decodes_and_prefilters_each_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """The engine, ``# noqa``, the fixpoint loop and the diff all read the one text
    ``source.decode`` gave; the prefilter runs once, when the file is read."""
    from semantics_lint.lint import engine
    from semantics_lint.lint.core import source
    from semantics_lint.lint.run import jobs, runner

    path = tmp_path / "tool.py"
    path.write_bytes(
        b"from semantics_lint.runtime import described_result\n"
        b"r = described_result(facts=[], provenance={'measured_at': t, 'source': s})  # noqa: SEM105, SEM203\n"
    )
    calls: list[str] = []

    def counted(name: str, function: Callable[..., object]) -> Callable[..., object]:
        def wrapper(*args: object, **kwargs: object) -> object:
            calls.append(name)
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(source, "decode", counted("decode", source.decode))
    monkeypatch.setattr(source, "readable_text", counted("decode", source.readable_text))
    monkeypatch.setattr(
        source.tokenize, "detect_encoding", counted("decode", source.tokenize.detect_encoding)
    )
    prefilter = counted("prefilter", engine.might_contain_calls)
    for module in (engine, jobs):
        monkeypatch.setattr(module, "might_contain_calls", prefilter)
    options = runner.RunOptions(fix=mode != "lint", diff=mode == "diff", jobs=1, cache_dir=None)
    result = runner.run([str(path)], options)
    fixed = mode != "lint"
    assert sorted(f.code for f in result.findings) == (["SEM002"] if fixed else ["SEM002", "SEM102"])
    assert result.fixed == fixed and (len(result.diffs) == 1) is (mode == "diff")
    assert calls.count("decode") == 1 and calls.count("prefilter") == 1, calls
