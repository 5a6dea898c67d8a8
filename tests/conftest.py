"""Suite-wide settings: every test lints afresh unless it asks for the results cache,
nothing a test runs keeps a key in the developer's own cache home, and no test
depends on how fast the machine is."""

from __future__ import annotations

import compileall
import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis fails an example that takes over 200 ms (its deadline) and a search whose
# data is slow to generate (the too_slow health check): both are measures of the
# machine's load, not of the code. Every property test runs without them; a test's
# own settings override the rest of this profile.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


def pytest_configure(config: pytest.Config) -> None:
    # Most tests run the linter, the language server or pytest in processes of their
    # own. A checkout's modules are not compiled by pip (an installed copy's are): in a
    # fresh clone, the first processes, started together on every worker, would each
    # compile every module of the linter they import, and with PYTHONDONTWRITEBYTECODE
    # set every process would, on every run. Write their bytecode once, before the
    # first of them starts, as bench/run.py does (a module already compiled costs a
    # stat).
    if hasattr(config, "workerinput"):
        return  # a pytest-xdist worker: the process that started it did
    import semantics_lint

    package = Path(semantics_lint.__file__).resolve().parent
    if "site-packages" not in package.parts:
        compileall.compile_dir(package, quiet=1)


def pytest_collection_finish(session: pytest.Session) -> None:
    # Collecting the suite leaves every test module, its parameters and the framework
    # packages alive for the whole run, and each full collection of the cyclic garbage
    # collector walked them all again. Moved to its permanent generation (as the
    # linter's long runs do with what they import, lint/engine.py), they are left out
    # of the collections; what a test allocates is collected as before.
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _no_results_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # A command run by a test must not read findings another test (or a developer's
    # run) stored, nor leave a cache folder in the checkout. Tests of the cache
    # remove this variable and give the cache a folder of their own.
    monkeypatch.setenv("SEMANTICS_LINT_NO_CACHE", "1")


@pytest.fixture(autouse=True, scope="session")
def _user_cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # The user's key (lint/run/user_key.py) lives in the cache home: one for the
    # session, in its temporary folder, inherited by every command a test runs.
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache-home"))
    yield
    if before is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = before


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Tests that share an expensive module fixture carry an ``xdist_group`` mark, and
    # ``--dist loadgroup`` (pyproject) sends each group to one worker. pytest-xdist
    # groups by a ``@group`` suffix it writes to a worker's node ids, in an attribute
    # pytest 9.2 no longer reads: without this the groups are silently ignored, and a
    # group's fixture (the pre-commit environment, the doors' search, the type
    # checkers' runs) is built again on every worker that runs one of its tests.
    if not getattr(config.option, "loadgroup", False):
        return  # not a worker of a --dist loadgroup run
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # before pytest 9.2: pytest-xdist's own suffix is read
        return
    for item in items:
        names = {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
        suffix = "@" + "_".join(sorted(names))
        if names and not item.nodeid.endswith(suffix):
            item._id = NodeId.parse(item.nodeid + suffix)  # type: ignore[attr-defined]
