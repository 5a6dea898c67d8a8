"""Suite-wide settings: every test lints afresh unless it asks for the results cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_results_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # A command run by a test must not read findings another test (or a developer's
    # run) stored, nor leave a cache folder in the checkout. Tests of the cache
    # remove this variable and give the cache a folder of their own.
    monkeypatch.setenv("SEMANTICS_LINT_NO_CACHE", "1")
