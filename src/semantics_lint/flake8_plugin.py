"""The flake8 adapter: ``flake8 --select SEM`` reports the codes ``semantics-lint check`` does.

A thin shell over ``semantics_lint.lint.engine``. flake8 hands us the physical lines of
the file (``lines``), its name, and the ``ast`` tree it parsed from the joined lines
(``tree``). The lines are written back to bytes (in the encoding their cookie names)
for the engine. When reading those bytes gives this very text, as it usually does, the
engine lints flake8's tree and the text without parsing again; otherwise (a cookie the
text cannot be written back in, say) it reads the bytes as ``semantics-lint check``
does. The findings are the same either way. flake8 applies ``# noqa`` and
``--select``/``--ignore`` itself, so nothing is filtered here.

Size: flake8 reads the file itself, whatever its size. A file larger than
``reading.MAX_SOURCE_BYTES`` is reported here as the same SEM001 ``semantics-lint
check`` gives it, before anything of ours copies its text: its lines are counted, not
joined, encoded or linted.

Messages quote the source; they are made printable (``output/printable.py``) before
flake8 prints them, so a key holding a newline cannot forge a line of flake8's output.

Cost: the engine's textual prefilter runs on the joined lines before anything heavy is
imported, so a file that never mentions our API costs one substring scan. The engine
module itself is light (it imports the rules, the resolver and astroid lazily); it is
imported on the first file. Each file is linted with a cache of other modules of its
own (``resolve.ProjectCache``), closed when its lint ends: nothing about a project is
kept between files. The rules and astroid, once imported, live as long as the process;
as in ``semantics-lint check``, everything alive after a file that imported something
is moved to the collector's permanent generation (``gc.freeze``), so that collections
stop walking those modules (on the benchmark's synthetic corpus they cost flake8 2.7 s
more CPU time than without the plugin, of the plugin's 9.6 s).

Options (command line or the ``[flake8]`` section of a config file):

* ``--sem-api-modules``: modules whose ``absent``/``coverage``/``define_tool`` are ours;
* ``--sem-call-names``: names recognized as ``described_result`` by name alone.
"""

from __future__ import annotations

import ast
import codecs
import re
from collections.abc import Iterator, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any, ClassVar

from semantics_lint import vocabulary

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.engine import LintSettings

try:
    _VERSION = version("semantics-lint")
except PackageNotFoundError:  # a source tree that was never installed
    _VERSION = "0.0.0"

# PEP 263: the encoding declaration may sit on the first or second line.
_CODING_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)


def _source_bytes(lines: Sequence[str]) -> bytes:
    """The file's text as bytes the engine decodes back to the same text.

    flake8 has already decoded the file (and dropped a BOM). The engine reads bytes and
    honours an encoding cookie, so the text is encoded with the declared encoding when
    there is one; otherwise UTF-8, the default the engine assumes.
    """
    text = "".join(lines)
    for line in lines[:2]:
        match = _CODING_COOKIE.match(line)
        if match is None:
            continue
        try:
            codecs.lookup(match.group(1))
            return text.encode(match.group(1))
        except (LookupError, UnicodeError):
            # An unknown codec or a character it cannot hold: the engine decides what
            # that file is worth (normally SEM001), exactly as it does for the CLI.
            break
    return text.encode("utf-8", errors="surrogatepass")


class SemanticsLintPlugin:
    """flake8 checker for the SEM codes; yields ``(line, col, "SEMxxx message", type)``."""

    name: ClassVar[str] = "semantics-lint"
    version: ClassVar[str] = _VERSION

    # The option values flake8 parsed, kept on the class because flake8 builds one
    # checker per file. The engine's settings are built from them on first use, so
    # that loading the plugin does not import the engine.
    _api_modules: ClassVar[tuple[str, ...]] = vocabulary.DEFAULT_API_MODULES
    _call_names: ClassVar[tuple[str, ...]] = vocabulary.DESCRIBED_RESULT_NAMES
    _settings: ClassVar[LintSettings | None] = None

    __slots__ = ("_filename", "_lines", "_tree")

    def __init__(self, tree: object, lines: Sequence[str], filename: str) -> None:
        self._tree = tree
        self._lines = lines
        self._filename = filename

    @classmethod
    def add_options(cls, option_manager: Any) -> None:
        """Register ``--sem-api-modules`` and ``--sem-call-names`` (also read from config)."""
        option_manager.add_option(
            "--sem-api-modules",
            comma_separated_list=True,
            parse_from_config=True,
            default=list(vocabulary.DEFAULT_API_MODULES),
            help=(
                "Modules whose absent/coverage/define_tool calls semantics-lint checks; "
                "replaces the default (%(default)s)."
            ),
        )
        option_manager.add_option(
            "--sem-call-names",
            comma_separated_list=True,
            parse_from_config=True,
            default=list(vocabulary.DESCRIBED_RESULT_NAMES),
            help=(
                "Call names recognized as described_result wherever they are written; "
                "replaces the default (%(default)s)."
            ),
        )

    @classmethod
    def parse_options(cls, options: Any) -> None:
        """Turn flake8's parsed options into the engine's settings, once per run."""
        api_modules = tuple(getattr(options, "sem_api_modules", None) or ())
        call_names = tuple(getattr(options, "sem_call_names", None) or ())
        cls._api_modules = api_modules or vocabulary.DEFAULT_API_MODULES
        cls._call_names = call_names or vocabulary.DESCRIBED_RESULT_NAMES
        cls._settings = None

    @classmethod
    def _get_settings(cls) -> LintSettings:
        if cls._settings is None:
            from semantics_lint.lint.engine import LintSettings

            cls._settings = LintSettings(api_modules=cls._api_modules, call_names=cls._call_names)
        return cls._settings

    def run(self) -> Iterator[tuple[int, int, str, type[SemanticsLintPlugin]]]:
        """Lint the file; flake8 wants 1-based lines and 0-based columns, as we keep them."""
        from semantics_lint.lint import engine
        from semantics_lint.lint.output.printable import printable
        from semantics_lint.reading import MAX_SOURCE_BYTES

        # A character is at least one byte: more characters than the limit is too large.
        if sum(map(len, self._lines)) > MAX_SOURCE_BYTES:
            yield self._too_large(None)
            return
        settings = type(self)._get_settings()
        text = "".join(self._lines)
        if not engine.might_contain_calls(text, settings):
            return
        source = _source_bytes(self._lines)
        if len(source) > MAX_SOURCE_BYTES:
            yield self._too_large(len(source))
            return
        try:
            if (
                isinstance(self._tree, ast.Module)
                and engine.might_contain_calls(source, settings)
                and engine.decode_source(source) == text
            ):
                # The engine would parse this very text, as flake8 did: use its tree.
                findings = engine.lint_parsed(self._tree, text, self._filename, settings)
            else:
                findings = engine.lint_source(source, self._filename, settings)
        except Exception as exc:
            # The engine promises not to raise on bad input, so this is a bug in it. Say
            # which file and which plugin, as flake8 does for any plugin that fails,
            # instead of an anonymous traceback.
            from flake8.exceptions import PluginExecutionFailed

            raise PluginExecutionFailed(self._filename, self.name, exc) from exc
        engine.settle_imports()
        for finding in findings:
            yield (
                finding.start.line,
                finding.start.column,
                f"{finding.code} {printable(finding.message)}",
                type(self),
            )

    def _too_large(self, size: int | None) -> tuple[int, int, str, type[SemanticsLintPlugin]]:
        """The SEM001 ``semantics-lint check`` reports for a file over the size limit."""
        import os

        from semantics_lint.lint.run.jobs import unreadable_finding
        from semantics_lint.reading import MAX_SOURCE_BYTES, too_large

        if size is None:
            try:
                size = os.stat(self._filename).st_size  # what the command line would say
            except (OSError, ValueError):
                size = None
            if size is not None and size <= MAX_SOURCE_BYTES:
                size = None  # not the file flake8 read (standard input, say)
        finding = unreadable_finding(self._filename, too_large(size, MAX_SOURCE_BYTES))
        return (1, 0, f"{finding.code} {finding.message}", type(self))
