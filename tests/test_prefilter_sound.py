"""The textual prefilter never drops a file that holds a call of ours.

The prefilter asks for an API function name (``absent``, ``coverage``,
``define_tool``) only beside the first component of an API module's name, which the
import that makes such a call ours must spell, and for an adapter's name (``served``...)
beside the first component of the adapters' modules. These tests check it against the
call locator on every Python file of the repository and on hand-written imports.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from semantics_lint.lint.calls.locate import locate_adapter_calls
from semantics_lint.lint.engine import LintSettings, file_context, might_contain_calls

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for folder in ("src", "tests", "testdata") for p in (ROOT / folder).rglob("*.py"))

SNIPPETS = [
    "from semantics_lint.runtime import absent\nabsent(what='x', checked=['y'])\n",
    "from semantics_lint . runtime import coverage as c\nc(1, checked=['y'])\n",
    "import semantics_lint.runtime as rt\nrt.absent(what='x', checked=['y'])\n",
    "import semantics_lint\nsemantics_lint.runtime.absent(what='x', checked=['y'])\n",
    "from agentfootprint import define_tool\ndefine_tool(name='t', resultClass='x')\n",
    "from mytools.api import absent\nabsent(what='x', checked=['y'])\n",
    "from semantics_lint import runtime as r\nr.described_result(facts=[1])\n",
    "describedResult(facts=[])\n",
    "from semantics_lint.frameworks.mcp import served\n@served(result_class='x')\ndef f(): ...\n",
    "from semantics_lint.frameworks import langchain\nt = langchain.tool(f, result_class='x')\n",
    "import semantics_lint.frameworks.openai_agents as oa\nt = oa.function_tool(f, result_class='x')\n",
]
SETTINGS = [
    LintSettings(),
    LintSettings(api_modules=("mytools.api",)),
    LintSettings(call_names=("make_result",), api_modules=("semantics_lint.runtime", "mytools.api")),
]


def _cases() -> list[tuple[str, str, LintSettings]]:
    """Every (file, settings) in which the engine finds a call of ours: only those can
    tell whether the prefilter would have dropped a file that holds one."""
    texts = [(f"snippet-{i}", text) for i, text in enumerate(SNIPPETS)]
    texts.extend((str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in FILES)
    cases = []
    for label, text in texts:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for number, settings in enumerate(SETTINGS):
            context = file_context(text, tree, label, settings)
            if context.calls or locate_adapter_calls(context.index):
                cases.append((f"{label}-settings{number}", text, settings))
    return cases


CASES = _cases()


def test_the_cases_are_many() -> None:
    assert len(CASES) > 100


@pytest.mark.parametrize(("label", "text", "settings"), CASES, ids=[label for label, _, _ in CASES])
def test_a_file_with_a_call_passes_the_prefilter(label: str, text: str, settings: LintSettings) -> None:
    assert might_contain_calls(text, settings)
    assert might_contain_calls(text.encode("utf-8"), settings)


def test_snippets_hold_calls() -> None:
    # The snippets are only worth checking if the locator finds their calls.
    found = 0
    for text in SNIPPETS:
        tree = ast.parse(text)
        contexts = [file_context(text, tree, "snippet.py", s) for s in SETTINGS]
        found += any(c.calls or locate_adapter_calls(c.index) for c in contexts)
    assert found == len(SNIPPETS)


def test_api_function_names_alone_are_not_enough() -> None:
    assert not might_contain_calls("the absent coverage of define_tool\n")
    assert might_contain_calls("import semantics_lint\n# absent\n")
    assert not might_contain_calls("import semantics_lint\n")
    assert might_contain_calls("from mytools.api import absent\n", LintSettings(api_modules=("mytools.api",)))


def test_an_adapter_name_needs_the_adapters_package() -> None:
    assert not might_contain_calls("@served(result_class='triage')\ndef f(): ...\n")
    # Whatever the API modules are, the adapters live in semantics_lint.frameworks.
    only_mine = LintSettings(api_modules=("mytools.api",))
    assert might_contain_calls("from semantics_lint.frameworks.mcp import served\n", only_mine)
