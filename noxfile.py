"""The tested range of every framework extra, and the lock of the test environment.

Each framework's adapter, serving and tracing tests run twice, each time in a fresh
virtual environment (uv's): at the **lowest** releases the extras allow (uv's
``--resolution lowest-direct``: every requirement the project declares, the framework's
and the project's own, at its lower bound; what those need at its newest) and at the
**newest** releases of the day. The test runner itself (pytest, pytest-xdist,
hypothesis) is held at the versions of ``constraints.txt`` in both.

    nox -l                                  # the sessions
    nox -s "frameworks(mcp1, lowest)"       # one framework at one end of its range
    nox -t frameworks                       # the whole matrix (16 environments)
    nox -s lock                             # refresh constraints.txt (below)

A session prints the versions it installed, imports the framework's module (a test of
an adapter whose framework is missing is skipped, and a run that skipped them all
would prove nothing), then runs the tests. docs/frameworks.md states each framework's
tested range.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nox

nox.options.default_venv_backend = "uv"
nox.options.error_on_external_run = True

ROOT = Path(__file__).resolve().parent
LOCK = ROOT / "constraints.txt"
RUNNER = ("pytest", "pytest-xdist", "hypothesis")
BOUNDS = ("lowest", "newest")

# The modules that serve a tool to every framework (their tests of a framework that is
# not installed are skipped).
SHARED = (
    "tests/test_frameworks_hostile.py",
    "tests/test_frameworks_declared_schema.py",
    "tests/test_frameworks_docs.py",
    "tests/test_otel_frameworks.py",
    "tests/test_claims_frameworks.py",
)
# Tracing: the API is the extra; the tests read spans with the SDK and send them over
# OTLP/HTTP, held at the API's lower bound in the lowest run.
TRACING = ("opentelemetry-sdk>=1.30", "opentelemetry-exporter-otlp-proto-http>=1.30")

# name: (extras, requirements added to the extras', test files). The shared modules
# import the MCP SDK and are written for its 2.x (a few of their tests are skipped on
# 1.x), so every framework's run but mcp1's installs the mcp extra at 2.x too.
MCP2 = "mcp>=2"
FRAMEWORKS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "mcp1": ("mcp,otel", ("mcp<2", *TRACING), ("tests/test_frameworks_mcp.py", *SHARED)),
    "mcp2": (
        "mcp,otel",
        (MCP2, *TRACING),
        ("tests/test_frameworks_mcp.py", "tests/test_otel_otlp.py", *SHARED),
    ),
    "fastmcp": ("fastmcp,mcp,otel", (MCP2, *TRACING), ("tests/test_frameworks_mcp.py", *SHARED)),
    "openai-agents": (
        "openai-agents,mcp,otel",
        (MCP2, *TRACING),
        ("tests/test_frameworks_openai_agents.py", *SHARED),
    ),
    "langchain": (
        "langchain,mcp,otel",
        (MCP2, *TRACING),
        ("tests/test_frameworks_langchain.py", *SHARED),
    ),
    "pydantic-ai": (
        "pydantic-ai,mcp,otel",
        (MCP2, *TRACING),
        ("tests/test_frameworks_pydantic_ai.py", *SHARED),
    ),
    "otel": (
        "otel,mcp",
        (MCP2, *TRACING),
        ("tests/test_otel.py", "tests/test_otel_otlp.py", *SHARED),
    ),
}
# Every extra at once, as a user who installs them all gets them: the tests that serve
# one tool to several frameworks run too.
FRAMEWORKS["all"] = (
    "mcp,fastmcp,openai-agents,langchain,pydantic-ai,otel",
    TRACING,
    tuple(dict.fromkeys(test for _, _, tests in FRAMEWORKS.values() for test in tests)),
)
# The module each run must import from its framework (not skipped).
IMPORTS = {
    "mcp1": "mcp.server.fastmcp",
    "mcp2": "mcp.server.mcpserver",
    "fastmcp": "fastmcp",
    "openai-agents": "agents",
    "langchain": "langchain_core",
    "pydantic-ai": "pydantic_ai",
    "otel": "opentelemetry.trace",
}
IMPORTS["all"] = " ".join(IMPORTS[name] for name in FRAMEWORKS if name not in ("mcp1", "all"))


VERSIONS = """
import importlib, sys
from importlib.metadata import PackageNotFoundError, version
for name in ("mcp", "fastmcp", "openai-agents", "langchain-core", "pydantic-ai-slim",
             "opentelemetry-api", "opentelemetry-sdk", "libcst", "click", "astroid",
             "pathspec", "typing_extensions", "jsonschema", "pydantic"):
    try:
        print(f"{name}=={version(name)}")
    except PackageNotFoundError:
        pass
for module in sys.argv[1:]:
    importlib.import_module(module)
"""


def _runner_pins() -> list[str]:
    """pytest, pytest-xdist and hypothesis at the versions of the lock."""
    text = LOCK.read_text(encoding="utf-8")
    pins = []
    for name in RUNNER:
        found = re.search(rf"^{re.escape(name)}==(\S+)", text, re.MULTILINE)
        if found is None:
            raise RuntimeError(f"{name} is not pinned in {LOCK.name}: run nox -s lock")
        pins.append(f"{name}=={found.group(1)}")
    return pins


@nox.session(tags=["frameworks"])
@nox.parametrize("bound", BOUNDS)
@nox.parametrize("framework", list(FRAMEWORKS))
def frameworks(session: nox.Session, framework: str, bound: str) -> None:
    """One framework's adapter, serving and tracing tests at one end of its range."""
    extras, added, tests = FRAMEWORKS[framework]
    resolution = "lowest-direct" if bound == "lowest" else "highest"
    session.install("--resolution", resolution, "-e", f".[{extras}]", *added, *_runner_pins())
    # What was installed, and the framework imported: its tests cannot all be skipped
    # for want of it.
    session.run("python", "-c", VERSIONS, *IMPORTS[framework].split())
    session.run("python", "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs", *tests,
                *session.posargs)  # fmt: skip


@nox.session(python=False)
def lock(session: nox.Session) -> None:
    """Refresh constraints.txt: today's releases of the test and development extras."""
    # The uv installed beside nox (the dev extra), or the one on PATH.
    beside = Path(sys.executable).with_name("uv")
    session.run(
        str(beside) if beside.exists() else "uv", "pip", "compile", "--upgrade", "--universal", "--python-version", "3.11",
        "--extra", "dev", "--custom-compile-command", "nox -s lock",
        "pyproject.toml", "-o", str(LOCK), external=True,
    )  # fmt: skip
