"""The language server's one door into the linter: lint and fix a buffer's text.

Every call the server makes into the linter goes through this module, so that the
server never depends on where the linter keeps its functions. What it uses:

* ``texts.run_text``: the runner's entry for a file held in memory, the command
  line's own path for ``semantics-lint check - --stdin-filename PATH`` (and
  flake8's) — the configuration found from PATH (the nearest
  ``pyproject.toml`` with ``[tool.semantics-lint]``), rule selection with
  per-file-ignores, ``# noqa``; with ``fix=True``, the ``--fix`` fixpoint loop on the
  text, which hands the fixed bytes back instead of writing them. Always with
  ``--force-exclude``: a buffer whose file the configuration's ``exclude``/
  ``extend-exclude`` exclude is not linted (pre-commit's and ruff's editor behaviour);
* ``fix.fix_source`` with a one-finding linter, to apply one finding's fix with the same
  edit application, collision guard and parse check as ``--fix``;
* ``RunResult.other_files``: whether a lint followed a name into another module.
  Each lint reads other modules afresh (a cache of its own, closed when it ends).

The buffer is handed over as the bytes the file would hold if saved: encoded as its
coding cookie says (UTF-8 without one), a BOM kept. Positions come back in the
buffer's own text: 0-based lines, code-point columns.
"""

from __future__ import annotations

import codecs
import functools
import io
import os
import tokenize
from dataclasses import dataclass
from pathlib import Path

from semantics_lint.lint.core.model import Applicability, Finding
from semantics_lint.lsp.positions import Point

__all__ = [
    "Located",
    "Linted",
    "fix_all",
    "fix_one",
    "is_configuration_file",
    "lint_text",
    "rule_url",
]

_BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class Located:
    """One finding, and where it is in the buffer's text (0-based, code points)."""

    finding: Finding
    start: Point
    end: Point

    @property
    def fixable(self) -> bool:
        return self.finding.fix is not None and bool(self.finding.fix.edits)

    @property
    def unsafe(self) -> bool:
        fix = self.finding.fix
        return fix is not None and fix.applicability is Applicability.UNSAFE


@dataclass(frozen=True, slots=True)
class Linted:
    """What a lint of one buffer found.

    ``error`` is a configuration mistake that stopped the lint (the command line
    exits 2 on it); ``excluded`` says the configuration excludes the file;
    ``uses_other_modules`` says the findings followed a name into another module of
    the project, so they may change when that module changes on disk.
    """

    findings: tuple[Located, ...] = ()
    uses_other_modules: bool = False
    excluded: bool = False
    error: str | None = None


@dataclass(frozen=True, slots=True)
class _Encoded:
    source: bytes
    encoding: str
    bom: bool


def _encode(text: str) -> _Encoded:
    """The bytes ``text`` would be saved as: its coding cookie's encoding, else UTF-8."""
    bom = text.startswith(_BOM)
    body = text[1:] if bom else text
    encoding = "utf-8"
    head = body.encode("utf-8", errors="surrogatepass")
    try:
        found, _ = tokenize.detect_encoding(io.BytesIO(head).readline)
        encoding = codecs.lookup(found).name
    except (SyntaxError, LookupError):
        pass  # an unknown cookie: the linter reports it (SEM001) from the bytes
    if encoding in ("utf-8-sig", "utf-8"):
        encoding = "utf-8"
        data = head
    else:
        # A character the declared encoding cannot hold could not be saved either;
        # "?" keeps every other position where it is.
        data = body.encode(encoding, errors="replace")
    return _Encoded(codecs.BOM_UTF8 + data if bom else data, encoding, bom)


def _decode(data: bytes, encoded: _Encoded) -> str:
    """Text the linter gave back as bytes, in the buffer's terms (its BOM kept)."""
    body = data[len(codecs.BOM_UTF8) :] if data.startswith(codecs.BOM_UTF8) else data
    text = body.decode(encoded.encoding, errors="surrogatepass" if encoded.encoding == "utf-8" else "strict")
    return _BOM + text if encoded.bom else text


def _located(finding: Finding, bom: bool) -> Located:
    # The linter counts columns after a BOM; the buffer holds it as a character.
    def point(line: int, column: int) -> Point:
        return Point(line - 1, column + 1 if bom and line == 1 else column)

    return Located(
        finding,
        point(finding.start.line, finding.start.column),
        point(finding.end.line, finding.end.column),
    )


def _options(fix: bool = False):  # type: ignore[no-untyped-def]
    from semantics_lint.lint.run import texts

    return texts.RunOptions(fix=fix, jobs=1, force_exclude=True)


def lint_text(text: str, path: str) -> Linted:
    """Lint ``text`` as the content of the file at ``path`` (which need not exist).

    Exactly what ``semantics-lint check - --stdin-filename PATH`` reports for it, once
    the configuration's excludes have been applied as ``--force-exclude`` does.
    """
    from semantics_lint.lint import engine
    from semantics_lint.lint.run import texts
    from semantics_lint.lint.run.config import ConfigError

    absolute = Path(os.path.abspath(path))
    try:
        encoded = _encode(text)
        result = texts.run_text(texts.InMemory(os.fspath(absolute), encoded.source), _options())
    except ConfigError as error:
        return Linted(error=str(error))
    finally:
        # The server is a long run: keep the collector off what the imports made.
        engine.settle_imports()
    if result.excluded:
        return Linted(excluded=True)
    return Linted(
        tuple(_located(finding, encoded.bom) for finding in result.findings),
        result.other_files,
    )


class FixFailed(Exception):
    """The fixes could not be applied; the message says why (as ``--fix`` says it)."""


def fix_all(text: str, path: str) -> str:
    """``text`` with every safe fix applied, as ``semantics-lint check --fix`` leaves it.

    Raises :class:`FixFailed` when ``--fix`` would write nothing because of an error
    (the fixed code would not parse, fixes would not converge).
    """
    from semantics_lint.lint.run import texts
    from semantics_lint.lint.run.config import ConfigError

    absolute = Path(os.path.abspath(path))
    encoded = _encode(text)
    try:
        result = texts.run_text(texts.InMemory(os.fspath(absolute), encoded.source), _options(fix=True))
    except ConfigError as error:
        raise FixFailed(str(error)) from None
    errors = [message.removeprefix("error: ") for message in result.messages]
    if errors:
        raise FixFailed("; ".join(errors))
    if result.fixed_stdin is None:
        return text
    return _decode(result.fixed_stdin, encoded)


def fix_one(text: str, path: str, located: Located) -> str:
    """``text`` with the fix of one finding (found in this very text) applied.

    The same edit application and checks as ``--fix`` (the result must still parse
    and must not declare a key twice), for this one fix and nothing else.
    """
    from semantics_lint.lint.run import fix

    finding = located.finding
    if finding.fix is None:
        return text
    encoded = _encode(text)
    calls = 0

    def one_finding(_text: object, _filename: str, _settings: object) -> list[Finding]:
        nonlocal calls
        calls += 1
        return [finding] if calls == 1 else []

    try:
        result = fix.fix_source(
            encoded.source,
            os.path.abspath(path),
            unsafe=finding.fix.applicability is Applicability.UNSAFE,
            lint=one_finding,
        )
    except fix.FixError as error:
        raise FixFailed(str(error)) from None
    if not result.changed:
        return text
    return _decode(result.source, encoded)


@functools.lru_cache(maxsize=None)
def rule_url(code: str) -> str | None:
    """Where the rule ``code`` is documented: the ``url`` of the command line's JSON."""
    from semantics_lint.lint.output.rule_metadata import rule_url as documented

    return documented(code)


def is_configuration_file(path: str) -> bool:
    """True for a file whose change may change any buffer's configuration."""
    from semantics_lint.lint.run.config import PYPROJECT

    return os.path.basename(path) == PYPROJECT
