"""``semantics-lint server``: the language server (see :mod:`semantics_lint.lsp.server`).

Importing this package costs nothing: pygls and lsprotocol (the ``lsp`` extra) are
imported only by :func:`run`, after checking that they are installed.
"""

from __future__ import annotations

import importlib
import logging
import sys

REQUIRED = ("pygls", "lsprotocol", "pygls.lsp.server")
"""What the server imports; ``pygls.lsp.server`` is where pygls 2 keeps its server."""


def missing_requirements() -> list[str]:
    """The modules of the ``lsp`` extra that cannot be imported here."""
    missing: list[str] = []
    for name in REQUIRED:
        if name.split(".", 1)[0] in missing:
            continue
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def run(log_level: str = "warning") -> int:
    """Serve LSP over stdin/stdout; the exit code.

    Exit code 2, with what to install, when the ``lsp`` extra is missing. Logs go to
    stderr (stdout carries the protocol).
    """
    missing = missing_requirements()
    if missing:
        version = _installed_version("pygls")
        found = (
            f" (pygls {version} is installed; the server needs pygls 2)"
            if version and not version.startswith("2.")
            else ""
        )
        print(
            f"error: `semantics-lint server` needs the optional dependencies of the 'lsp' extra"
            f" (cannot import: {', '.join(missing)}){found}. Install them with:\n"
            f"    {install_hint()}",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, log_level.upper(), logging.WARNING),
        format="semantics-lint server: %(levelname)s: %(name)s: %(message)s",
    )
    from semantics_lint.lsp.server import serve

    return serve()


def install_hint() -> str:
    """The pip command that installs the 'lsp' extra's requirements, as the installed
    package declares them (semantics-lint is installed from a checkout, not from a
    package index: ``pip install 'semantics-lint[lsp]'`` would look for it there)."""
    from semantics_lint.extras import install_hint as hint

    return hint("lsp")


def _installed_version(distribution: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None
