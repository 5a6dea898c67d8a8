"""The flake8 adapter: ``flake8 --select SEM`` reports the codes ``semantics-lint check`` does.

A thin shell over the runner's entry for a file held in memory
(``semantics_lint.lint.run.texts.run_text``, which the language server and
``semantics-lint check -`` call too). flake8 hands us the physical lines of the file
(``lines``), its name, and the ``ast`` tree it parsed from the joined lines
(``tree``); the runner writes the text back to bytes (in the encoding its cookie
names). When reading those bytes gives this very text, as it usually does, the
engine lints flake8's tree and the text without parsing again; otherwise (a cookie the
text cannot be written back in, say) it reads the bytes as ``semantics-lint check``
does. The findings are the same either way. The engine's settings are flake8's
options, not a ``pyproject.toml``; flake8 applies ``# noqa`` and
``--select``/``--ignore`` itself, so the runner filters nothing. Two things flake8
does not do, the plugin does, so that both doors report the same on a file: SEM002
for a ``# noqa`` code of ours that suppressed nothing (flake8 then filters it like any
code), and SEM001 for a file Python cannot decode, which flake8 reads as Latin-1
instead (``# caf\\xe9`` in a file without a cookie): its bytes are read again and
linted as ``semantics-lint check`` lints them.

Size: flake8 reads the file itself, whatever its size. A file larger than
``reading.MAX_SOURCE_BYTES`` is reported here as the same SEM001 ``semantics-lint
check`` gives it, before anything of ours copies its text: its lines are counted, not
joined, encoded or linted.

Messages quote the source; they are made printable (``output/printable.py``) before
flake8 prints them, so a key holding a newline cannot forge a line of flake8's output.

Cost: the engine's textual prefilter runs on the joined lines before anything heavy is
imported, so a file that never mentions our API costs one substring scan. The runner's
entry for a text (which imports the configuration, selection and ``# noqa`` machinery
only for callers without settings) and the engine modules are light (the engine imports the rules, the resolver and
astroid lazily); they are imported on the first file. Each file is linted with a cache of other modules of its
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
import functools
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


@functools.cache
def _linter() -> tuple[Any, Any, Any]:
    """The engine, the runner's entry for a text (``texts``) and ``printable``, imported
    on the first file (importing the plugin imports none), then kept: a file pays no
    import statement."""
    from semantics_lint.lint import engine
    from semantics_lint.lint.output.printable import printable
    from semantics_lint.lint.run import texts

    return engine, texts, printable


def _source_bytes(lines: Sequence[str]) -> bytes:
    """The bytes of the file flake8 read, as the runner writes its text back
    (``source.saved_bytes``)."""
    from semantics_lint.lint.core.source import saved_bytes

    return saved_bytes("".join(lines))


def _undecodable_on_disk(filename: str, text: str, engine: Any, settings: LintSettings) -> bytes | None:
    """The bytes of ``filename`` when flake8's ``text`` of it is its Latin-1 reading
    because Python cannot decode it (flake8 falls back to Latin-1 when the file's own
    encoding fails: ``# caf\\xe9`` in a UTF-8 file), and it mentions our API; else None.

    ``semantics-lint check`` reports such a file as its SEM001 (Python cannot import
    it), and so does the plugin, from these bytes. Only a text with a character past
    ASCII, all within Latin-1, is checked against the file: any other text is not
    flake8's fallback.
    """
    if text.isascii() or not engine.might_contain_calls(text, settings):
        return None
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return None
    from semantics_lint.reading import MAX_SOURCE_BYTES, Unreadable, read_regular

    try:
        data = read_regular(filename, MAX_SOURCE_BYTES)
    except (Unreadable, ValueError):
        return None
    # flake8 reads with universal newlines, and drops a BOM (as Latin-1 reads it).
    read = data.decode("latin-1").removeprefix("\xef\xbb\xbf")
    read = read.replace("\r\n", "\n").replace("\r", "\n")
    if read != text.replace("\r\n", "\n").replace("\r", "\n"):
        return None
    return data if not isinstance(engine.decode_source(data), str) else None


def _stale_noqa(text: str, data: bytes | None, findings: Sequence[Any], filename: str) -> list[Any]:
    """SEM002, as ``semantics-lint check`` reports it, for the ``# noqa`` comments of
    the file that ``findings`` (all of the file's, every rule having run) did not need.

    flake8 applies ``# noqa`` itself, with the grammar and the line mapping the runner
    copies (``lint/run/suppress.py``), and has no word for a comment that suppressed
    nothing: the plugin reports it, and flake8 then filters the SEM002 like any code
    (``--select``, ``--ignore``, a ``# noqa`` that lists SEM002). The comments of a
    file Python cannot decode are read as the command line reads them. A
    ``# semantics-lint: noqa`` line means nothing to flake8, here as for every code.
    """
    from semantics_lint.lint.core.source import readable_text
    from semantics_lint.lint.run.config import known_codes
    from semantics_lint.lint.run.suppress import unused_noqa

    shown = text if data is None else readable_text(data)
    return unused_noqa(shown, findings, known_codes(), filename)


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
        engine, texts, printable = _linter()
        settings = type(self)._get_settings()
        text: str | None = None
        data: bytes | None = None
        if sum(map(len, self._lines)) > texts.MAX_SOURCE_BYTES:
            # A character is at least one byte: more characters than the limit is too
            # large. Its text is not joined (a copy of its size), only sized.
            source = texts.InMemory(self._filename, complete=False, size=self._size_on_disk())
        else:
            text = "".join(self._lines)
            data = _undecodable_on_disk(self._filename, text, engine, settings)
            if data is not None:
                source = texts.InMemory(self._filename, data)
            else:
                tree = self._tree if isinstance(self._tree, ast.Module) else None
                source = texts.InMemory(self._filename, text=text, tree=tree)
        try:
            result = texts.run_text(source, texts.DEFAULT_OPTIONS, settings=settings)
        except Exception as exc:
            # The engine promises not to raise on bad input, so this is a bug in it. Say
            # which file and which plugin, as flake8 does for any plugin that fails,
            # instead of an anonymous traceback.
            from flake8.exceptions import PluginExecutionFailed

            raise PluginExecutionFailed(self._filename, self.name, exc) from exc
        if result.linted:
            engine.settle_imports()
        findings = result.findings
        if text is not None and "SEM" in text and "noqa" in text.lower():
            findings = [*findings, *_stale_noqa(text, data, findings, self._filename)]
        for finding in findings:
            yield (
                finding.start.line,
                finding.start.column,
                f"{finding.code} {printable(finding.message)}",
                type(self),
            )

    def _size_on_disk(self) -> int | None:
        """The size of the file flake8 read, as the command line would give it; None
        when the file on disk is not that file (standard input, say)."""
        import os

        from semantics_lint.reading import MAX_SOURCE_BYTES

        try:
            size = os.stat(self._filename).st_size
        except (OSError, ValueError):
            return None
        return size if size > MAX_SOURCE_BYTES else None
