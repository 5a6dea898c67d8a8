"""semantics-lint: keep the caveats of agent tool results honest, statically and at run time."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("semantics-lint")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = ["__version__"]
