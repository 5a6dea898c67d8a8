"""Suite-wide settings: every test lints afresh unless it asks for the results cache,
nothing a test runs keeps a key in the developer's own cache home, and no test
depends on how fast the machine is."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis fails an example that takes over 200 ms (its deadline) and a search whose
# data is slow to generate (the too_slow health check): both are measures of the
# machine's load, not of the code. Every property test runs without them; a test's
# own settings override the rest of this profile.
settings.register_profile(
    "suite", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("suite")


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
