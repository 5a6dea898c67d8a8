"""The optional extras: what to install for one, and the error an adapter raises without it.

semantics-lint is installed from a checkout, not from a package index, so ``pip install
'semantics-lint[mcp]'`` would look for it where it is not: the hint names the extra's
requirements as the installed package declares them (``pip install 'mcp>=1.30'``), or,
run from a checkout with no package metadata, the checkout's editable install.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["MissingExtra", "framework_import", "install_hint"]


def install_hint(extra: str) -> str:
    """The pip command that installs the requirements of ``extra``."""
    import shlex
    from importlib.metadata import PackageNotFoundError, requires

    try:
        declared = requires("semantics-lint") or []
    except PackageNotFoundError:
        declared = []
    marker = f'extra == "{extra}"'
    wanted = [
        requirement.split(";", 1)[0].strip()
        for requirement in declared
        if "extra ==" in requirement and requirement.replace("'", '"').endswith(marker)
    ]
    if not wanted:  # not installed as a distribution: run from a checkout
        return f"pip install -e '.[{extra}]'   (in the checkout)"
    return "pip install " + " ".join(shlex.quote(requirement) for requirement in wanted)


class MissingExtra(ImportError):
    """An adapter's framework cannot be imported: names the extra and what to install.

    Raised by importing ``semantics_lint.frameworks.<adapter>`` without its framework
    (as one error: the import that failed is its message, not a chained traceback).
    ``extra`` is the extra's name, ``hint`` the command that installs it, and ``name``
    (as for any ``ImportError``) the module that could not be imported.
    """

    def __init__(self, adapter: str, extra: str, error: ImportError) -> None:
        self.extra = extra
        self.hint = install_hint(extra)
        super().__init__(
            f"{adapter} needs the optional dependencies of the {extra!r} extra, and "
            f"importing them failed ({error}). Install them with:\n    {self.hint}",
            name=error.name,
        )


@contextmanager
def framework_import(adapter: str, extra: str) -> Iterator[None]:
    """Turn an ``ImportError`` raised in the block into one :class:`MissingExtra`::

    with framework_import(__name__, "mcp"):
        from mcp.types import CallToolResult
    """
    try:
        yield
    except ImportError as error:
        raise MissingExtra(adapter, extra, error) from None
