"""Output formats on hand-made findings, each checked the way its consumer reads it.

SARIF against the vendored SARIF 2.1.0 schema; JUnit parsed with ``xml.etree`` as CI
test-report readers do; GitLab code quality for the fields GitLab requires; JSON and
JSON lines as ruff's shape; the human formats line by line.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from semantics_lint.lint import output
from semantics_lint.lint.core.model import Applicability, Edit, Finding, Fix, Position, Severity
from semantics_lint.lint.output import human, overview, rule_metadata, sarif

SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"


class FakeRule:
    """What the outputs read from a registered rule."""

    def __init__(self, code: str, name: str, severity: Severity, doc: str, fix: str = "none") -> None:
        self.code = code
        self.name = name
        self.severity = severity
        self.fix = fix
        self.__doc__ = doc


@pytest.fixture(autouse=True)
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    fake: dict[str, Any] = {
        "SEM102": FakeRule(
            "SEM102",
            "snake-case-declaration-key",
            Severity.ERROR,
            """
            ## What it does
            Finds snake_case keys.

                an indented example

            ## Why is this bad?
            They are refused.
            """,
            "safe",
        ),
        "SEM204": FakeRule("SEM204", "clock-measured-at", Severity.WARNING, "Finds clock reads."),
    }
    monkeypatch.setattr(rule_metadata, "registry", lambda: fake)
    rule_metadata.rule_url.cache_clear()


def snake(
    filename: str = "tools/a.py", line: int = 3, fix: Applicability | None = Applicability.SAFE
) -> Finding:
    edits = (Edit('"measuredAt"', Position(line, 20), Position(line, 33)),)
    return Finding(
        "SEM102",
        "`provenance.measured_at` is the wire spelling, ok: 100%",
        Severity.ERROR,
        filename,
        Position(line, 20),
        Position(line, 33),
        Fix(fix, "Rename to `measuredAt`", edits) if fix is not None else None,
        help="rename it to `measuredAt`: declaration fields are camelCase",
    )


def clock(filename: str = "b.py") -> Finding:
    return Finding(
        "SEM204",
        "read from the clock\nsecond line",
        Severity.WARNING,
        filename,
        Position(1, 0),
        Position(1, 5),
    )


SOURCE = (
    "def tool(export):\n"
    "    return described_result(\n"
    '        provenance={"measured_at": export.at, "source": "x"},\n'
    "    )\n"
)


# ---------------------------------------------------------------------------
# Human formats
# ---------------------------------------------------------------------------


def test_concise_marks_what_the_flags_would_fix() -> None:
    assert output.format_findings([snake()], "concise") == (
        "tools/a.py:3:21: SEM102 [*] `provenance.measured_at` is the wire spelling, ok: 100%\n"
    )
    unsafe = snake(fix=Applicability.UNSAFE)
    assert "[*]" not in output.format_findings([unsafe], "concise")
    assert "[*]" in output.format_findings([unsafe], "concise", unsafe=True)
    assert "[*]" not in output.format_findings([clock()], "concise")
    # "text" is the old name of concise.
    assert output.format_findings([snake()], "text") == output.format_findings([snake()], "concise")


def test_colour_only_when_asked() -> None:
    plain = output.format_findings([snake(), clock()], "concise")
    coloured = output.format_findings([snake(), clock()], "concise", color=True)
    assert "\x1b[" not in plain
    assert "\x1b[31m" in coloured and "\x1b[33m" in coloured  # E red, W yellow
    stripped = coloured
    for code in ("\x1b[1m", "\x1b[31m", "\x1b[33m", "\x1b[36m", "\x1b[0m"):
        stripped = stripped.replace(code, "")
    assert stripped == plain


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("env", "tty", "expected"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"FORCE_COLOR": "1"}, False, True),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),
        ({"NO_COLOR": ""}, True, True),  # an empty value does not count (no-color.org)
        ({"TERM": "dumb"}, True, False),
    ],
)
def test_use_color(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], tty: bool, expected: bool) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert output.use_color(_Stream(tty)) is expected  # type: ignore[arg-type]


def test_full_shows_the_line_a_caret_and_the_fix() -> None:
    text = output.format_findings(
        [snake()], "full", read_source=lambda name: SOURCE if name == "tools/a.py" else None
    )
    lines = text.splitlines()
    assert lines[0].startswith("tools/a.py:3:21: SEM102 [*] ")
    numbered = [line for line in lines if line.lstrip().startswith("3 |")]
    assert numbered == ['3 |         provenance={"measured_at": export.at, "source": "x"},']
    caret = lines[lines.index(numbered[0]) + 1]
    assert caret == "  | " + " " * 20 + "^" * 13 + " SEM102"
    assert "  help: rename it to `measuredAt`: declaration fields are camelCase" in lines
    assert "  fix: Rename to `measuredAt` (safe fix, applied by --fix)" in lines
    assert lines.index("  help: rename it to `measuredAt`: declaration fields are camelCase") < lines.index(
        "  fix: Rename to `measuredAt` (safe fix, applied by --fix)"
    )
    assert '    -         provenance={"measured_at": export.at, "source": "x"},' in lines
    assert '    +         provenance={"measuredAt": export.at, "source": "x"},' in lines
    # Without the source, the finding line, its help and the fix remain.
    bare = output.format_findings([snake()], "full")
    assert bare.splitlines()[0] == lines[0] and "help:" in bare and "fix:" in bare and "|" not in bare


def test_full_caret_keeps_tabs_under_tabs() -> None:
    source = "x = 1\n\tprovenance = {'measured_at': 1}\n"
    finding = Finding("SEM102", "m", Severity.ERROR, "t.py", Position(2, 15), Position(2, 28))
    text = output.format_findings([finding], "full", read_source=lambda _: source)
    caret = next(line for line in text.splitlines() if "^" in line)
    assert caret.startswith("  | \t" + " " * 14 + "^")


def test_grouped_puts_findings_under_their_file() -> None:
    text = output.format_findings([snake(line=3), snake(line=12), clock()], "grouped")
    assert text == (
        "tools/a.py:\n"
        "  3:21  SEM102 [*] `provenance.measured_at` is the wire spelling, ok: 100%\n"
        "  12:21 SEM102 [*] `provenance.measured_at` is the wire spelling, ok: 100%\n"
        "\n"
        "b.py:\n"
        "  1:1 SEM204 read from the clock\\nsecond line\n"
        "\n"
    )


def test_pylint_layout() -> None:
    assert output.format_findings([snake()], "pylint") == (
        "tools/a.py:3: [SEM102] `provenance.measured_at` is the wire spelling, ok: 100%\n"
    )


# ---------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------


def test_json_is_a_list_of_ruff_shaped_findings_with_the_rule_url() -> None:
    data = json.loads(output.format_findings([snake()], "json"))
    assert len(data) == 1
    assert set(data[0]) == {
        "code",
        "message",
        "severity",
        "filename",
        "location",
        "end_location",
        "fix",
        "url",
        "help",
    }
    assert data[0]["location"] == {"row": 3, "column": 21}
    url = data[0]["url"]
    assert url.endswith("#sem102-snake-case-declaration-key")
    assert url == rule_metadata.rule_url("SEM102")


def test_the_shipped_rule_reference_has_not_drifted() -> None:
    from semantics_lint import gen

    assert rule_metadata.SHIPPED_RULES_DOC == gen.SHIPPED_RULES_DOC
    assert rule_metadata.SHIPPED_RULES_DOC.read_text(encoding="utf-8") == gen.render_rules_doc(), (
        "src/semantics_lint/rules.md drifted from the rule classes; run: python -m semantics_lint.gen"
    )


def test_the_rule_url_points_into_the_shipped_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rule_metadata, "project_urls", lambda: {})
    rule_metadata.rule_url.cache_clear()
    url = rule_metadata.rule_url("SEM102")
    assert url is not None
    parts = urlsplit(url)
    assert parts.scheme == "file"
    shipped = Path(unquote(parts.path))
    assert shipped == rule_metadata.SHIPPED_RULES_DOC and shipped.is_file()
    assert "# SEM102: snake-case-declaration-key" in shipped.read_text(encoding="utf-8")
    assert rule_metadata.rule_url("SEM999") is None
    monkeypatch.setattr(
        rule_metadata, "project_urls", lambda: {"rules": "https://example.test/docs/rules.md"}
    )
    rule_metadata.rule_url.cache_clear()
    assert (
        rule_metadata.rule_url("SEM102")
        == "https://example.test/docs/rules.md#sem102-snake-case-declaration-key"
    )


def test_json_lines_is_one_object_a_line() -> None:
    text = output.format_findings([snake(), clock()], "json-lines")
    lines = text.splitlines()
    assert len(lines) == 2
    assert [json.loads(line)["code"] for line in lines] == ["SEM102", "SEM204"]
    assert json.loads(lines[0]) == json.loads(output.format_findings([snake()], "json"))[0]
    assert output.format_findings([], "json-lines") == ""


# ---------------------------------------------------------------------------
# GitHub, GitLab, JUnit
# ---------------------------------------------------------------------------


def test_github_escapes_data_and_properties() -> None:
    text = output.format_findings([snake("a,b:c.py"), clock()], "github")
    first, second = text.splitlines()
    assert first == (
        "::error file=a%2Cb%3Ac.py,line=3,col=21,endLine=3,endColumn=34,title=SEM102::"
        "`provenance.measured_at` is the wire spelling, ok: 100%25"
    )
    assert second.startswith("::warning file=b.py,line=1,col=1,")
    # A newline of the message is shown escaped: a finding stays one line.
    assert second.endswith("::read from the clock\\nsecond line")


def test_gitlab_code_quality_has_the_required_fields(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CI_PROJECT_DIR", str(tmp_path))
    inside = str(tmp_path / "tools" / "a.py")
    report = json.loads(output.format_findings([snake(inside), snake(inside), clock()], "gitlab"))
    assert len(report) == 3
    for issue in report:
        assert isinstance(issue["description"], str) and issue["description"]
        assert isinstance(issue["check_name"], str) and issue["check_name"]
        assert isinstance(issue["fingerprint"], str) and issue["fingerprint"]
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert isinstance(issue["location"]["path"], str)
        assert isinstance(issue["location"]["positions"]["begin"]["line"], int)
    assert report[0]["location"]["path"] == "tools/a.py"  # relative to the project
    assert report[2]["severity"] == "minor"
    # Fingerprints are unique, and do not change when a line above moves the finding.
    assert len({issue["fingerprint"] for issue in report}) == 3
    moved = json.loads(output.format_findings([snake(inside, line=9)], "gitlab"))
    assert moved[0]["fingerprint"] == report[0]["fingerprint"]
    # The help is the issue's details; the description stays the short line.
    assert report[0]["content"] == {"body": snake().help}
    assert report[0]["description"] == f"SEM102: {snake().message}"
    assert "content" not in report[2]  # no help, no details


def test_the_one_line_formats_show_the_message_and_not_the_help() -> None:
    finding = snake()
    assert finding.help and finding.help not in finding.message
    for name in ("concise", "grouped", "pylint", "github"):
        text = output.format_findings([finding], name)
        assert finding.message in text and finding.help not in text, name
    json_row = json.loads(output.format_findings([finding], "json"))[0]
    assert (json_row["message"], json_row["help"]) == (finding.message, finding.help)
    line_row = json.loads(output.format_findings([finding], "json-lines"))
    assert line_row["help"] == finding.help


def test_junit_parses_as_ci_readers_parse_it() -> None:
    text = output.format_findings([snake(), snake(line=5), clock("odd <&> \x01.py")], "junit")
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites"
    assert root.get("tests") == "3" and root.get("failures") == "3"
    suites = root.findall("testsuite")
    assert [suite.get("name") for suite in suites] == ["tools/a.py", "odd <&> \\x01.py"]
    cases = suites[0].findall("testcase")
    assert [case.get("name") for case in cases] == ["SEM102 3:21", "SEM102 5:21"]
    failure = cases[0].find("failure")
    assert failure is not None and failure.get("message") == snake().message
    assert (failure.text or "").endswith(f"\nhelp: {snake().help}")
    assert failure is not None and failure.get("message", "").startswith("`provenance.measured_at`")
    assert suites[1].find("testcase/failure").get("type") == "warning"  # type: ignore[union-attr]


def test_junit_of_a_clean_run_is_one_passing_case() -> None:
    root = ET.fromstring(output.format_findings([], "junit").encode("utf-8"))
    cases = root.findall("testsuite/testcase")
    assert len(cases) == 1 and cases[0].find("failure") is None
    assert root.get("failures") == "0"


# ---------------------------------------------------------------------------
# SARIF
# ---------------------------------------------------------------------------


def _validate(log: dict[str, Any]) -> None:
    import jsonschema

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)


def _is_valid_uri_reference(text: str) -> bool:
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%")
    if not set(text) <= allowed:
        return False
    index = text.find("%")
    while index != -1:
        if len(text) < index + 3 or not all(
            c in "0123456789ABCDEFabcdef" for c in text[index + 1 : index + 3]
        ):
            return False
        index = text.find("%", index + 1)
    return True


def test_sarif_validates_against_the_schema_and_lists_rules_and_results() -> None:
    log = sarif.sarif_log([snake(), clock()], cwd="/work/proj")
    _validate(log)
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == ["SEM102", "SEM204"]
    assert driver["rules"][0]["shortDescription"]["text"] == "Finds snake_case keys."
    # Help is dedented: no line of it starts with the class body's indentation.
    help_text = driver["rules"][0]["help"]["text"]
    assert help_text.startswith("## What it does\nFinds snake_case keys.")
    assert "\n    an indented example" in help_text
    assert driver["rules"][1]["defaultConfiguration"]["level"] == "warning"
    first, second = run["results"]
    assert first["ruleIndex"] == 0 and second["ruleIndex"] == 1
    assert first["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 3,
        "startColumn": 21,
        "endLine": 3,
        "endColumn": 34,
    }
    replacement = first["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert replacement["insertedContent"]["text"] == '"measuredAt"'
    assert "fixes" not in second
    # The result's text is the finding's line; its Markdown adds the help below it.
    assert first["message"] == {
        "text": snake().message,
        "markdown": f"{snake().message}\n\n{snake().help}",
    }
    assert second["message"] == {"text": clock().message}  # no help: text alone


def test_sarif_information_uri_comes_from_the_metadata_or_is_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sarif, "information_uri", lambda: None)
    driver = sarif.sarif_log([])["runs"][0]["tool"]["driver"]
    assert "informationUri" not in driver
    monkeypatch.setattr(sarif, "information_uri", lambda: "https://example.test/sl")
    driver = sarif.sarif_log([])["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://example.test/sl"


@pytest.mark.parametrize(
    ("filename", "uri"),
    [
        ("tools/a.py", "tools/a.py"),
        ("my tools/inv é.py", "my%20tools/inv%20%C3%A9.py"),
        ("%0A.py", "%250A.py"),
        ("dir\\name.py", "dir%5Cname.py" if os.sep == "/" else "dir/name.py"),
        ("odd#?.py", "odd%23%3F.py"),
    ],
)
def test_sarif_relative_uris_are_percent_encoded_against_srcroot(filename: str, uri: str) -> None:
    log = sarif.sarif_log([snake(filename)], cwd="/work/my proj")
    _validate(log)
    run = log["runs"][0]
    location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": uri, "uriBaseId": "%SRCROOT%"}
    assert _is_valid_uri_reference(location["uri"])
    assert unquote(location["uri"]) == filename.replace(os.sep, "/")
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": "file:///work/my%20proj/"}}
    assert run["results"][0]["fixes"][0]["artifactChanges"][0]["artifactLocation"] == location


def test_sarif_absolute_paths_become_file_uris() -> None:
    log = sarif.sarif_log([snake("/srv/my tools/é.py")])
    _validate(log)
    run = log["runs"][0]
    location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "file:///srv/my%20tools/%C3%A9.py"}
    assert "originalUriBaseIds" not in run


def test_sarif_includes_a_code_the_registry_lacks() -> None:
    other = Finding("SEM999", "m", Severity.ERROR, "x.py", Position(1, 0), Position(1, 1))
    log = sarif.sarif_log([other])
    _validate(log)
    ids = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    assert "SEM999" in ids
    assert log["runs"][0]["results"][0]["ruleIndex"] == ids.index("SEM999")


# ---------------------------------------------------------------------------
# Statistics and the summary
# ---------------------------------------------------------------------------


def test_statistics_marks_safe_unsafe_and_no_fix() -> None:
    findings = [clock(), snake(line=1), snake(line=2), snake(line=4, fix=Applicability.UNSAFE)]
    assert output.format_statistics(findings, "concise", unsafe=False) == (
        "3\tSEM102\t[*] snake-case-declaration-key\n1\tSEM204\t[ ] clock-measured-at\n"
    )
    unsafe_only = [snake(line=1, fix=Applicability.UNSAFE), snake(line=2, fix=Applicability.UNSAFE)]
    # An unsafe fix is "[-]" (only --unsafe-fixes fixes it), and "[*]" once it is given.
    assert output.format_statistics(unsafe_only, "concise", unsafe=False) == (
        "2\tSEM102\t[-] snake-case-declaration-key\n"
    )
    assert output.format_statistics(unsafe_only, "concise", unsafe=True) == (
        "2\tSEM102\t[*] snake-case-declaration-key\n"
    )
    rows = json.loads(output.format_statistics(findings, "json", unsafe=False))
    assert rows[0]["fixable_count"] == 2
    assert json.loads(output.format_statistics(findings, "json", unsafe=True))[0]["fixable_count"] == 3


def test_summary_lines_and_their_grammar() -> None:
    assert output.summary([], unsafe=False) == "All checks passed!\n"
    assert output.summary([snake()], unsafe=False) == (
        "Found 1 error.\n[*] 1 fixable with the `--fix` option.\n"
    )
    unsafe_only = output.summary([snake(fix=Applicability.UNSAFE), clock()], unsafe=False)
    assert unsafe_only == (
        "Found 2 errors.\n"
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )
    two_hidden = output.summary(
        [snake(fix=Applicability.UNSAFE), snake(line=4, fix=Applicability.UNSAFE), snake(line=5)],
        unsafe=False,
    )
    assert two_hidden.splitlines()[1] == (
        "[*] 1 fixable with the `--fix` option "
        "(2 hidden fixes can be enabled with the `--unsafe-fixes` option)."
    )
    assert "3 fixed, 1 remaining" in output.summary([clock()], unsafe=False, fixed=3)


def test_fixes_made_are_listed_per_file() -> None:
    assert overview.format_fixes({}) == "No errors fixed.\n"
    assert overview.format_fixes({"b.py": 2, "a.py": 1, "c.py": 0}) == (
        "Fixed 3 errors:\n- a.py: 1 fix\n- b.py: 2 fixes\n"
    )


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError):
        output.format_findings([], "xml")


def test_is_fixable_follows_the_flags() -> None:
    assert human.is_fixable(snake(), unsafe=False)
    assert not human.is_fixable(snake(fix=Applicability.UNSAFE), unsafe=False)
    assert human.is_fixable(snake(fix=Applicability.UNSAFE), unsafe=True)
    assert not human.is_fixable(clock(), unsafe=True)


def test_sarif_encodes_the_real_bytes_of_an_escaped_name() -> None:
    real = os.fsdecode(b"caf\xe9\n.py")
    log = sarif.sarif_log([snake("caf\\xe9\\n.py")], raw_names={"caf\\xe9\\n.py": real})
    _validate(log)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location["uri"] == "caf%E9%0A.py"
