"""semantics-lint: keep the caveats of agent tool results honest, statically and at run time."""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    # The version is read from the installed metadata on first use, not at import:
    # ``importlib.metadata`` costs every run of the linter tens of milliseconds.
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("semantics-lint")
    except PackageNotFoundError:  # running from a source tree that was never installed
        value = "0.0.0"
    globals()["__version__"] = value
    return value
