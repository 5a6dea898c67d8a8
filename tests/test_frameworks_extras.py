"""Importing an adapter without its framework raises one clear error naming what to install."""

from __future__ import annotations

import subprocess
import sys

import pytest

from semantics_lint.extras import MissingExtra, install_hint

ADAPTERS = [
    ("mcp", "mcp", "mcp"),
    ("openai_agents", "agents", "openai-agents"),
    ("langchain", "langchain_core", "langchain"),
    ("pydantic_ai", "pydantic_ai", "pydantic-ai"),
]

# The framework's import fails as it does when the package is not installed.
BLOCK = """
import sys
sys.modules[{module!r}] = None
try:
    import semantics_lint.frameworks.{adapter}
except ImportError as error:
    from semantics_lint.extras import MissingExtra
    print(type(error).__name__, isinstance(error, MissingExtra), error.extra, error.name)
    print(error)
    raise
"""


@pytest.mark.parametrize(("adapter", "module", "extra"), ADAPTERS)
def test_an_adapter_without_its_framework_says_what_to_install(adapter: str, module: str, extra: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", BLOCK.format(adapter=adapter, module=module)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    first, *message = done.stdout.splitlines()
    kind, is_missing_extra, named_extra, failed = first.split()
    assert (kind, is_missing_extra, named_extra) == ("MissingExtra", "True", extra)
    assert failed.split(".")[0] == module
    assert message[-1].strip() == install_hint(extra)
    assert message[-1].strip().startswith("pip install ")
    assert f"the optional dependencies of the {extra!r} extra" in message[0]
    # One error: the failed import is its message, not a chained traceback.
    assert done.stderr.count("Traceback") == 1, done.stderr
    assert "During handling" not in done.stderr
    assert "\nsemantics_lint.extras.MissingExtra: semantics_lint.frameworks." in done.stderr


def test_missing_extra_is_an_import_error_with_the_hint() -> None:
    error = MissingExtra("an adapter", "mcp", ModuleNotFoundError("No module named 'mcp'", name="mcp"))
    assert isinstance(error, ImportError)
    assert error.name == "mcp" and error.extra == "mcp"
    assert error.hint == install_hint("mcp") and str(error).endswith(error.hint)
