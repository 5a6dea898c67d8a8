"""The pytest plugin, run as users run it: real pytest in a subprocess on a fresh project.

The plugin is found through the package's ``pytest11`` entry point, exactly as in a
user's virtual environment; nothing here registers it by hand.
"""

from __future__ import annotations

import datetime
import enum
import json
import math
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from semantics_lint.pytest_plugin import sample_json
from semantics_lint.runtime import tool_message

pytest_plugins = ["pytester"]
# Each test runs pytest in a subprocess.
pytestmark = pytest.mark.slow

TOOLS = """
from semantics_lint.runtime import define_tool, described_result

EXPORT = {"exported_at": "2026-05-01T06:00:00Z", "source": "backup export"}


def run(vm):
    return described_result(
        facts=[{"entity": vm, "backed_up": vm == "vm-01"}],
        provenance={"measuredAt": EXPORT["exported_at"], "source": EXPORT["source"]},
        COVERAGE
    )


vm_backup_status = define_tool(
    name="vm_backup_status", description="Backup posture", resultClass="triage", execute=run
)
"""
BROKEN = TOOLS.replace("COVERAGE\n", "")
FIXED = TOOLS.replace(
    "COVERAGE",
    'coverage={"checked": [f"every backup job in the export of {EXPORT[\'exported_at\']}"]},',
)
TESTS = """
from tools import vm_backup_status


def test_backed_up():
    assert vm_backup_status("vm-01")["facts"][0]["backed_up"] is True


def test_not_backed_up():
    assert vm_backup_status("vm-02")["facts"][0]["backed_up"] is False
"""


def _project(pytester: pytest.Pytester, tools: str, tests: str = TESTS) -> None:
    pytester.makepyfile(tools=tools, test_tools=tests)
    pytester.syspathinsert()


def _gate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "semantics_lint", "check-semantics", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


# Only our plugin and pytest-xdist, each loaded through its entry point (``-p NAME``
# names an entry point when autoloading is off), as pytest autoloads them in a
# user's environment. The test extras install plugins that have nothing to do with
# the gate (langsmith's, hypothesis's, anyio's): autoloaded, pytest would import them
# and rewrite the asserts of every module of their distributions as each is imported
# (langsmith's 223 with langchain-core), most of each pytest run's cost.
OUR_PLUGINS = ["--disable-plugin-autoload", "-p", "semantics_lint", "-p", "xdist"]


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # -p no:cacheprovider keeps the project folder to what the test wrote.
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *OUR_PLUGINS, *args)


# ---------------------------------------------------------------------------
# Inert unless enabled
# ---------------------------------------------------------------------------


def test_inert_when_not_enabled_even_on_a_broken_tool(pytester: pytest.Pytester) -> None:
    _project(pytester, BROKEN)
    result = _run(pytester)
    assert result.ret == 0
    result.assert_outcomes(passed=2)
    assert "semantics gate" not in result.stdout.str()


def test_inert_imports_nothing_of_the_runtime(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        import json, sys

        def pytest_sessionfinish(session):
            names = sorted(m for m in sys.modules if m.startswith("semantics_lint"))
            open("modules.json", "w").write(json.dumps(names))
        """
    )
    pytester.makepyfile(test_nothing="def test_nothing():\n    pass\n")
    result = _run(pytester)
    assert result.ret == 0
    loaded = json.loads((pytester.path / "modules.json").read_text())
    assert loaded == ["semantics_lint", "semantics_lint.pytest_plugin"]
    result = _run(pytester, "--semantics")
    # Enabled, it watches the tools (and judges what they returned with the gate).
    assert "semantics_lint.runtime.mints.tools" in json.loads((pytester.path / "modules.json").read_text())


# ---------------------------------------------------------------------------
# Enabled: the gate over the session's samples
# ---------------------------------------------------------------------------


def test_a_broken_triage_tool_fails_the_session_while_its_tests_pass(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester, BROKEN)
    result = _run(pytester, "--semantics")
    assert result.ret == 1
    result.assert_outcomes(passed=2)
    out = result.stdout.str()
    assert "semantics gate" in out
    findings = [line for line in result.outlines if "[triage-without-coverage]" in line]
    assert findings == [
        "  error: vm_backup_status, result 1 (from test_tools.py::test_backed_up), "
        "field coverage [triage-without-coverage]",
        "  error: vm_backup_status, result 2 (from test_tools.py::test_not_backed_up), "
        "field coverage [triage-without-coverage]",
    ]
    assert "FAILED: 2 errors, 0 warnings" in out


def test_the_fixed_tool_passes(pytester: pytest.Pytester) -> None:
    _project(pytester, FIXED)
    result = _run(pytester, "--semantics")
    assert result.ret == 0
    result.assert_outcomes(passed=2)
    assert "passed: 0 errors, 0 warnings" in result.stdout.str()


def test_failing_tests_keep_their_exit_status(pytester: pytest.Pytester) -> None:
    _project(pytester, BROKEN, TESTS + "\n\ndef test_fails():\n    assert False\n")
    result = _run(pytester, "--semantics")
    assert result.ret == 1
    result.assert_outcomes(passed=2, failed=1)


@pytest.mark.parametrize(("tools", "code"), [(BROKEN, 1), (FIXED, 0)], ids=["broken", "fixed"])
def test_the_catalog_round_trips_through_check_semantics(
    pytester: pytest.Pytester, tools: str, code: int
) -> None:
    _project(pytester, tools)
    result = _run(pytester, "--semantics", "--semantics-catalog", "ci/semantics-catalog.json")
    assert result.ret == code
    catalog = pytester.path / "ci" / "semantics-catalog.json"
    rows = json.loads(catalog.read_text(encoding="utf-8"))
    assert [(row["name"], row["resultClass"], len(row["results"])) for row in rows] == [
        ("vm_backup_status", "triage", 2)
    ]
    assert rows[0]["tests"] == [
        "test_tools.py::test_backed_up",
        "test_tools.py::test_not_backed_up",
    ]
    gated = _gate(str(catalog), "--json")
    assert gated.returncode == code, gated.stderr
    report = json.loads(gated.stdout)
    assert report["errors"] == (2 if code else 0)
    assert [f["resultIndex"] for f in report["findings"]] == ([0, 1] if code else [])


def test_an_ini_option_enables_it(pytester: pytest.Pytester) -> None:
    _project(pytester, BROKEN)
    pytester.makepyprojecttoml("[tool.pytest.ini_options]\nsemantics = true\n")
    result = _run(pytester)
    assert result.ret == 1
    assert "[triage-without-coverage]" in result.stdout.str()


def test_async_tools_are_recorded(pytester: pytest.Pytester) -> None:
    tools = BROKEN.replace("def run(vm):", "async def run(vm):")
    tests = TESTS.replace(
        "from tools import vm_backup_status",
        "import asyncio\nfrom tools import vm_backup_status as _tool\n\n"
        "def vm_backup_status(vm):\n    return asyncio.run(_tool(vm))\n",
    )
    _project(pytester, tools, tests)
    result = _run(pytester, "--semantics")
    assert result.ret == 1
    result.assert_outcomes(passed=2)
    assert result.stdout.str().count("[triage-without-coverage]") == 2


def test_a_tool_never_called_is_a_warning(pytester: pytest.Pytester) -> None:
    tools = FIXED + textwrap.dedent(
        """
        listing = define_tool(name="vm_list", execute=run)
        audit = define_tool(name="vm_audit", resultClass="inventory", execute=run)
        """
    )
    _project(pytester, tools)
    result = _run(pytester, "--semantics")
    assert result.ret == 0
    out = result.stdout.str()
    assert "warning: vm_list, the tool as a whole, field results [uncalled-tool]" in out
    assert "warning: vm_audit, the tool as a whole, field results [unsampled-tool-class]" in out
    assert "passed: 0 errors, 2 warnings" in out
    assert "check-semantics: 3 tools defined, 1 called; 2 sample results" in result.outlines
    strict = _run(pytester, "--semantics-strict")
    assert strict.ret == 1
    assert "FAILED (--semantics-strict: warnings fail the gate): 0 errors, 2 warnings" in strict.stdout.str()


def test_xdist_workers_samples_are_merged(pytester: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    tests = TESTS + "".join(
        f"\n\ndef test_more_{i}():\n    vm_backup_status('vm-{i:02d}')\n" for i in range(6)
    )
    _project(pytester, BROKEN, tests)
    serial = _run(pytester, "--semantics", "--semantics-catalog", "serial.json")
    parallel = _run(pytester, "-n", "2", "--semantics", "--semantics-catalog", "parallel.json")
    assert (serial.ret, parallel.ret) == (1, 1)
    parallel.assert_outcomes(passed=8)
    assert "FAILED: 8 errors, 0 warnings" in parallel.stdout.str()
    serial_text = (pytester.path / "serial.json").read_text()
    assert serial_text == (pytester.path / "parallel.json").read_text()
    assert "(from test_tools.py::test_more_5)" in parallel.stdout.str()


# ---------------------------------------------------------------------------
# Samples as JSON
# ---------------------------------------------------------------------------


class _Colour(enum.Enum):
    RED = "red"


def test_a_sample_is_written_as_the_json_a_model_reads() -> None:
    value = {
        "when": datetime.datetime(2026, 5, 1, 6, 0, tzinfo=datetime.timezone.utc),
        "nan": math.nan,
        "inf": -math.inf,
        "whole": 100.0,
        "pair": (1, 2),
        1: "int key",
        "text": "\ud800",
    }
    text = sample_json(value)
    assert text == (
        '{"1":"int key","when":"2026-05-01T06:00:00+00:00","nan":null,"inf":null,'
        '"whole":100,"pair":[1,2],"text":"\\ud800"}'
    )
    assert text == tool_message(value).text  # the one encoder: what the model reads


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ({"big": 10**5000}, "big is an int"),
        ({"colour": _Colour.RED}, "colour is a _Colour"),
        (Path("x"), "Path"),
    ],
)
def test_a_sample_json_cannot_carry_is_recorded_as_a_text_saying_why(value: object, where: str) -> None:
    cyclic: list[object] = []
    cyclic.append(cyclic)
    said = json.loads(sample_json(cyclic))
    assert isinstance(said, str) and said.startswith("<not JSON data: ")
    recorded = json.loads(sample_json(value))
    # In a dict only the part JSON cannot carry is a text: the rest stays for the gate.
    for part in recorded.values() if isinstance(recorded, dict) else [recorded]:
        assert part.startswith("<not JSON data: ") and where in part


def test_a_catalog_with_an_age_the_gate_refuses_is_written_as_valid_json(tmp_path: Path) -> None:
    envelope = {
        "af_semantics": True,
        "facts": [{"entity": "vm"}],
        "provenance": {"measured_at": "t", "source": "s", "age_seconds": math.inf},
    }
    catalog = tmp_path / "semantics-catalog.json"
    catalog.write_text(f'[{{"name": "t", "results": [{sample_json(envelope)}]}}]')
    gated = _gate(str(catalog), "--json")
    assert gated.returncode == 1, gated.stderr
    assert json.loads(gated.stdout)["findings"][0]["field"] == "provenance.age_seconds"


def test_a_value_that_cannot_be_shown_never_fails_the_test_that_produced_it(
    pytester: pytest.Pytester,
) -> None:
    # Recording runs inside the tool's call: a value whose str() and repr() raise, a
    # key that cannot be shown, or a container whose iteration raises must not turn
    # a passing test into a failing one.
    tools = textwrap.dedent(
        """
        from semantics_lint.runtime import define_tool

        class Opaque:
            def __str__(self):
                raise RuntimeError("no str")
            __repr__ = __str__

        class Unlistable(list):
            def __iter__(self):
                raise RuntimeError("no iteration")

        def run(kind):
            if kind == "value":
                return {"af_semantics": True, "facts": [{"entity": Opaque()}]}
            if kind == "key":
                return {"af_semantics": True, Opaque(): 1}
            return {"af_semantics": True, "facts": Unlistable([1])}

        tool = define_tool(name="opaque", execute=run)
        """
    )
    tests = textwrap.dedent(
        """
        import pytest
        from tools import tool

        @pytest.mark.parametrize("kind", ["value", "key", "container"])
        def test_the_tool_returns(kind):
            assert tool(kind)["af_semantics"] is True
        """
    )
    _project(pytester, tools, tests)
    result = _run(pytester, "--semantics", "--semantics-catalog", "catalog.json")
    result.assert_outcomes(passed=3)
    assert result.ret == 1  # the samples are malformed results: the gate says so
    assert "Traceback" not in result.stdout.str()
    catalog = json.loads((pytester.path / "catalog.json").read_text(encoding="utf-8"))
    samples = catalog[0]["results"]
    assert {
        "af_semantics": True,
        "facts": "<not JSON data: facts[0].entity is an Opaque; JSON data is a str, int, float, "
        "bool, None, list, tuple, dict or a date>",
    } in samples
    assert {"af_semantics": True, "<Opaque object that cannot be shown>": 1} in samples
    # A container whose own iteration fails is not JSON data either, named where it is.
    assert {
        "af_semantics": True,
        "facts": "<not JSON data: facts is an Unlistable whose own methods failed while it was "
        "read (RuntimeError); JSON data is a str, int, float, bool, None, list, tuple, dict or a date>",
    } in samples


# ---------------------------------------------------------------------------
# What happened: refusals, bare declaration words, subsets, the last line
# ---------------------------------------------------------------------------

HEALTH_TOOLS = FIXED + textwrap.dedent(
    """
    from semantics_lint.runtime import Refusal


    def free_disk(host):
        if host == "unknown":
            raise Refusal("refused: no export names host 'unknown'")
        return {"free": 3, "measured_at": "2026-05-01T06:00:00Z"}


    def health(host):
        return described_result(
            facts=[{"entity": host, "healthy": True}],
            provenance={"measuredAt": "2026-05-01T06:00:00Z", "source": "health probe"},
        )


    def quota(user):
        raise ValueError("refused: quota export missing for " + user)


    disk = define_tool(name="free_disk", execute=free_disk)
    health_check = define_tool(name="health_check", execute=health)
    quota_tool = define_tool(name="quota", execute=quota)
    """
)
HEALTH_TESTS = TESTS.replace(
    "from tools import vm_backup_status",
    "import pytest\nfrom tools import vm_backup_status, disk, health_check, quota_tool",
) + textwrap.dedent(
    """

    def test_health():
        assert health_check("db-1")["facts"][0]["healthy"] is True


    def test_free_disk():
        assert disk("db-1")["free"] == 3


    def test_quota_refuses():
        with pytest.raises(ValueError, match="refused:"):
            quota_tool("ann")
    """
)


def _health(pytester: pytest.Pytester) -> None:
    _project(pytester, HEALTH_TOOLS, HEALTH_TESTS)


def test_a_refusing_tool_is_reported_as_refusing_with_its_test(pytester: pytest.Pytester) -> None:
    _health(pytester)
    result = _run(pytester, "--semantics")
    out = result.stdout.str()
    assert "[uncalled-tool]" not in out
    assert (
        "  warning: quota, the tool as a whole (from test_tools.py::test_quota_refuses), "
        "field results [refusing-tool]"
    ) in result.outlines
    assert "it refused with: refused: quota export missing for ann" in out
    # Four tools called, one of which gave no sample result: the heading says both.
    assert (
        "check-semantics: 4 tools called, 3 with sample results (refused every call: quota); 4 sample results"
    ) in result.outlines


def test_a_dict_with_bare_declaration_words_is_named(pytester: pytest.Pytester) -> None:
    _health(pytester)
    result = _run(pytester, "--semantics")
    assert result.ret == 0  # warnings only
    assert (
        "  warning: free_disk, result 1 (from test_tools.py::test_free_disk), "
        "field measured_at [undeclared-result]"
    ) in result.outlines
    # One such sample: no "(and 0 others)".
    assert "tool 'free_disk', sample result 1 carries measured_at without the af_semantics marker" in (
        result.stdout.str()
    )
    assert "passed: 0 errors, 2 warnings" in result.stdout.str()
    assert _run(pytester, "--semantics-strict").ret == 1


def test_the_last_line_says_the_gate_failed(pytester: pytest.Pytester) -> None:
    _project(pytester, BROKEN)
    result = _run(pytester, "--semantics")
    assert result.ret == 1
    assert "2 passed, 2 semantics errors (gate failed)" in result.outlines[-1]
    _project(pytester, FIXED)
    assert "semantics" not in _run(pytester, "--semantics").outlines[-1]


def test_the_strict_last_line_names_the_option(pytester: pytest.Pytester) -> None:
    _health(pytester)
    result = _run(pytester, "--semantics-strict")
    assert result.ret == 1
    assert "FAILED (--semantics-strict: warnings fail the gate)" in result.stdout.str()
    assert "semantics warnings (--semantics-strict gate failed)" in result.outlines[-1]


def test_no_semantics_turns_off_an_ini_enabled_gate(pytester: pytest.Pytester) -> None:
    _project(pytester, BROKEN)
    pytester.makepyprojecttoml("[tool.pytest.ini_options]\nsemantics = true\nsemantics_strict = true\n")
    assert _run(pytester).ret == 1
    result = _run(pytester, "--no-semantics")
    assert result.ret == 0
    result.assert_outcomes(passed=2)
    assert "semantics gate" not in result.stdout.str()


@pytest.mark.parametrize(
    "selection",
    [("-k", "health"), ("test_tools.py::test_health",), ("--deselect", "test_tools.py::test_quota_refuses", "-k", "health or backed")],
    ids=["-k", "node-id", "deselect"],
)  # fmt: skip
def test_a_subset_run_never_fails_for_tools_it_did_not_select(
    pytester: pytest.Pytester, selection: tuple[str, ...]
) -> None:
    _health(pytester)
    pytester.makepyfile(test_other="def test_nothing():\n    pass\n")
    result = _run(pytester, "--semantics-strict", *selection)
    assert result.ret == 0, result.stdout.str()
    out = result.stdout.str()
    assert "[uncalled-tool]" not in out and "[unsampled-tool-class]" not in out
    unjudged = [line for line in result.outlines if line.startswith("not judged in this run")]
    assert len(unjudged) == 1
    assert unjudged[0].endswith("free_disk, quota") or unjudged[0].endswith(
        "free_disk, quota, vm_backup_status"
    )
    assert "health_check" not in unjudged[0]


def test_the_whole_suite_named_as_a_folder_is_judged_whole(pytester: pytest.Pytester) -> None:
    tools = FIXED + '\nlisting = define_tool(name="vm_list", execute=run)\n'
    _project(pytester, tools)
    result = _run(pytester, "--semantics", str(pytester.path))
    assert "[uncalled-tool]" in result.stdout.str()
    assert "not judged" not in result.stdout.str()


def test_a_project_without_tools_says_what_was_looked_for_and_why_none_was_seen(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_plain="def test_plain():\n    assert 1 + 1 == 2\n")
    result = _run(pytester, "--semantics")
    assert result.ret == 0
    out = result.stdout.str()
    assert "no tool was seen in this session: the gate had nothing to judge." in result.outlines
    assert "tools made with semantics_lint.runtime.define_tool and the tools given to an adapter" in out
    assert "  - no test that ran imports a module that defines a tool (or calls one);" in result.outlines
    assert "another process (a server started over stdio, a subprocess)" in out
    assert "failed to import" not in out
    assert "check-semantics:" not in out
    assert "passed: 0 errors" not in out


ADAPTER_TOOLS = textwrap.dedent(
    """
    from semantics_lint.frameworks.langchain import tool
    from semantics_lint.runtime import described_result

    def vm_list(site: str) -> dict:
        \"\"\"The VMs of one site.\"\"\"
        return described_result(
            facts=[{"entity": "vm-01", "site": site}],
            provenance={"measuredAt": "2026-05-01T06:00:00Z", "source": "inventory export"},
            coverage={"checked": ["every VM in the export"]},
            render={"default": "table"},
        )

    listing = tool(vm_list, result_class="inventory")
    """
)
ADAPTER_TESTS = "from tools import listing\n\n\ndef test_list():\n    assert listing.invoke({'site': 'a'})\n"


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_a_module_of_adapter_tools_that_failed_to_import_is_named(
    pytester: pytest.Pytester, workers: tuple[str, ...]
) -> None:
    pytest.importorskip("langchain_core")
    if workers:
        pytest.importorskip("xdist")
    _project(pytester, ADAPTER_TOOLS, ADAPTER_TESTS)
    seen = _run(pytester, "--semantics", *workers)
    assert seen.ret == 0, seen.stdout.str()
    assert "check-semantics: 1 tool called; 1 sample result" in seen.outlines
    _project(
        pytester,
        ADAPTER_TOOLS.replace("def vm_list(site: str)", "def vm_list(site: Site)"),
        ADAPTER_TESTS,
    )
    broken = _run(pytester, "--semantics", *workers)
    assert broken.ret != 0  # the collection error (2; 1 under pytest-xdist)
    assert "no tool was seen in this session: the gate had nothing to judge." in broken.outlines
    assert (
        "  - test_tools.py failed to import (the errors are above): a tool that only it imports "
        "was never defined;"
    ) in broken.outlines


def test_check_semantics_on_the_written_catalog_names_the_test(pytester: pytest.Pytester) -> None:
    _project(pytester, BROKEN)
    _run(pytester, "--semantics", "--semantics-catalog", "catalog.json")
    catalog = str(pytester.path / "catalog.json")
    text = _gate(catalog)
    assert text.returncode == 1
    assert (
        "  error: vm_backup_status, result 2 (from test_tools.py::test_not_backed_up), "
        "field coverage [triage-without-coverage]"
    ) in text.stdout.splitlines()
    report = json.loads(_gate(catalog, "--json").stdout)
    assert [f["test"] for f in report["findings"]] == [
        "test_tools.py::test_backed_up",
        "test_tools.py::test_not_backed_up",
    ]


def test_xdist_workers_hand_over_refusals_words_and_selection(pytester: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    _health(pytester)
    whole = _run(pytester, "-n", "2", "--semantics")
    assert "[refusing-tool]" in whole.stdout.str()
    assert (
        "check-semantics: 4 tools called, 3 with sample results (refused every call: quota); 4 sample results"
    ) in whole.outlines
    assert "[undeclared-result]" in whole.stdout.str()
    subset = _run(pytester, "-n", "2", "--semantics-strict", "-k", "health")
    assert subset.ret == 0, subset.stdout.str()
    assert "not judged in this run (tests were deselected" in subset.stdout.str()


def test_a_tool_given_a_class_by_an_adapter_is_not_also_uncalled(pytester: pytest.Pytester) -> None:
    # define_tool without a class, then served with one: the adapter defines the tool
    # again with its class, and only that definition is called.
    tools = textwrap.dedent(
        """
        from semantics_lint.frameworks._common import prepare
        from semantics_lint.runtime import define_tool, described_result

        def run(vm):
            return described_result(
                facts=[{"entity": vm, "free": 3}],
                provenance={"measuredAt": "2024-05-01T00:00:00Z", "source": "export"},
                coverage={"checked": ["every VM in the export"]},
                render={"default": "table"},
            )

        plain = define_tool(name="vm_free", execute=run)
        served = prepare(plain, result_class="inventory").tool
        """
    )
    tests = "from tools import served\n\ndef test_free():\n    served('vm1')\n"
    _project(pytester, tools, tests)
    result = _run(pytester, "--semantics", "--semantics-strict")
    out = result.stdout.str()
    assert "[uncalled-tool]" not in out
    assert result.ret == 0, out


# ---------------------------------------------------------------------------
# The README's example, as written
# ---------------------------------------------------------------------------

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_example_runs_as_written(pytester: pytest.Pytester) -> None:
    section = README.read_text(encoding="utf-8").split("## In your tests", 1)[1].split("\n## ", 1)[0]
    tools, tests = (block.split("```", 1)[0] for block in section.split("```python\n")[1:3])
    shown = section.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    assert tools.startswith("# tools.py\n") and tests.startswith("# tests/test_tools.py\n")
    pytester.makepyfile(tools=tools)
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_tools.py").write_text(tests, encoding="utf-8")
    assert shown[0] == "$ python -m pytest --semantics -q"
    result = _run(pytester, "--semantics", "-q")  # python -m pytest, from the project's folder
    assert result.ret == 1

    # Every line the README shows (its words: the rules of "=" and the progress bar's
    # spaces follow the terminal's width), but a message it cuts short ("...") and
    # the time.
    def words(line: str) -> str:
        return " ".join(line.strip(" =").split())

    printed = [words(line) for line in result.outlines]
    for line in shown[1:-3]:
        if line.endswith("..."):
            assert any(out.startswith(words(line[:-3])) for out in printed), line
        else:
            assert words(line) in printed, line
    last = words(shown[-3])
    assert printed[-1].startswith(last[: last.rindex(" in ")]), printed[-1]
    # "Add coverage={...} to the declaration and the same command ends passed".
    addition = section.split("Add `", 1)[1].split("`", 1)[0]
    assert addition.startswith("coverage=")
    fixed = tools.replace('"source": export.source},\n', f'"source": export.source}},\n        {addition},\n')
    assert fixed != tools
    pytester.makepyfile(tools=fixed)
    again = _run(pytester, "--semantics", "-q")
    assert again.ret == 0
    assert "passed: 0 errors, 0 warnings" in again.outlines
