"""The linter engine: one file's bytes in, its raw findings out.

read -> decode (cookie, BOM) -> textual prefilter -> ``ast.parse`` -> locate our calls
-> per call: parse its segment with LibCST, build the declaration, one batched pass of
every enabled rule -> module rules -> findings, sorted.

The findings are raw: no ``noqa`` filtering and no select/ignore beyond
``LintSettings.enabled``; the runner does the rest. Bad input never raises: a file that
cannot be decoded or parsed is one SEM001 finding, an empty file has none.

Importing this module is cheap: LibCST and the rule modules are imported only when a
file passes the prefilter, so a run over files that never call the API never pays
for them.
"""

from __future__ import annotations

import ast
import codecs
import gc
import io
import os
import sys
import time
import tokenize
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from semantics_lint import vocabulary
from semantics_lint.lint.model import Finding, Position, Severity

if TYPE_CHECKING:
    from semantics_lint.lint.context import FileContext
    from semantics_lint.lint.declaration import Declaration

__all__ = [
    "SYNTAX_CODE",
    "LintSettings",
    "lint_file",
    "lint_parsed",
    "lint_source",
    "might_contain_calls",
    "settle_imports",
]

SYNTAX_CODE = "SEM001"


@dataclass(frozen=True, slots=True)
class LintSettings:
    """What the engine recognizes and which rules it runs.

    ``api_modules``: modules whose ``absent``/``coverage``/``define_tool`` are ours.
    ``call_names``: names recognized as ``described_result`` by name alone.
    ``enabled``: codes to run; None runs every rule.
    """

    api_modules: tuple[str, ...] = vocabulary.DEFAULT_API_MODULES
    call_names: tuple[str, ...] = vocabulary.DESCRIBED_RESULT_NAMES
    enabled: frozenset[str] | None = None
    _needles: tuple[tuple[bytes, ...], tuple[bytes, ...], tuple[bytes, ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        # The prefilter's byte strings: the names recognized alone; the API functions
        # (and ``described_result`` when it is not among those names), recognized only
        # through an import from an API module, so only beside the first component of
        # such a module's name, which any such import spells.
        names = tuple(w.encode("utf-8") for w in self.call_names)
        imported = (*vocabulary.DESCRIBED_RESULT_NAMES, *vocabulary.API_FUNCTIONS)
        functions = tuple(w.encode("utf-8") for w in imported if w not in self.call_names)
        modules = tuple(dict.fromkeys(m.split(".", 1)[0].strip().encode("utf-8") for m in self.api_modules))
        object.__setattr__(self, "_needles", (names, functions, modules))

    def is_enabled(self, code: str) -> bool:
        return self.enabled is None or code in self.enabled


DEFAULT_SETTINGS = LintSettings()


def might_contain_calls(text: str | bytes, settings: LintSettings = DEFAULT_SETTINGS) -> bool:
    """False when ``text`` provably holds no call of ours.

    True when a name recognized alone (``described_result``) occurs in it, or an API
    function name (``absent``...; ``described_result`` too when it is not a name
    recognized alone) together with the first component of an API module
    (``semantics_lint``): those are recognized only when imported from an API module,
    and that import spells the module. Plain substring searches: it may say True for
    a file without calls (a comment, ``coverage`` in a word), never False for a file
    with one.
    """
    data = text.encode("utf-8", errors="surrogatepass") if isinstance(text, str) else text
    names, functions, modules = settings._needles
    if any(name in data for name in names):
        return True
    return any(module in data for module in modules) and any(function in data for function in functions)


def lint_file(path: str | os.PathLike[str], settings: LintSettings = DEFAULT_SETTINGS) -> list[Finding]:
    """Lint the file at ``path``; an unreadable file is one SEM001 finding."""
    filename = os.fspath(path)
    try:
        with open(filename, "rb") as handle:
            source = handle.read()
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        return [_syntax_finding(filename, f"cannot read the file: {reason}", Position(1, 0))]
    return lint_source(source, filename, settings)


def lint_source(
    source: bytes,
    filename: str,
    settings: LintSettings = DEFAULT_SETTINGS,
    *,
    timings: dict[str, float] | None = None,
) -> list[Finding]:
    """The raw findings of one file, sorted by position then code. Never raises on input.

    ``timings``, when given, collects CPU seconds per rule code (and ``"locate"`` for
    finding the calls) for the benchmark; it changes nothing else.
    """
    if not source.strip():
        return []
    decoded = decode_source(source)
    if isinstance(decoded, Finding):
        return [_rename(decoded, filename)] if settings.is_enabled(SYNTAX_CODE) else []
    # Call names are ASCII, and every encoding Python source may use keeps ASCII as
    # is, so the raw bytes answer for the text.
    if not might_contain_calls(source, settings):
        return []
    with _collector_paused():
        return _parse_and_lint(decoded, filename, settings, timings)


def lint_parsed(
    tree: ast.Module,
    text: str,
    filename: str,
    settings: LintSettings = DEFAULT_SETTINGS,
    *,
    timings: dict[str, float] | None = None,
) -> list[Finding]:
    """The raw findings of a file that is already decoded and parsed, without parsing
    it again (flake8 hands a plugin both).

    ``text`` is the file's text as :func:`decode_source` gives it and ``tree`` is
    ``ast.parse(text)``. The findings are those :func:`lint_source` gives for the
    file's bytes when the prefilter passes the bytes as it passes the text (any
    encoding that keeps ASCII as is). ``timings`` as for :func:`lint_source`.
    """
    if not might_contain_calls(text, settings):
        return []
    with _collector_paused():
        return _lint_tree(text, tree, filename, settings, timings)


_modules_settled = 0


def settle_imports() -> None:
    """Keep the cyclic garbage collector off what the imports made, once they are done.

    Call it between files. The rules, LibCST and astroid are imported by the first file
    that needs them, and their modules, classes and functions then live as long as the
    process. Each collection walked them all again (about a tenth of a run's time on
    the benchmark's corpus): after a file that imported something, everything alive is
    moved to the collector's permanent generation (``gc.freeze``). Reference counting
    still frees those objects; what the lint of a file allocates is collected as
    before. For long runs (the CLI's runner, the flake8 plugin), not for a library
    call, since it touches the whole process.
    """
    global _modules_settled
    loaded = len(sys.modules)
    if loaded != _modules_settled:
        _modules_settled = loaded
        gc.freeze()


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for one file, then restore its state.

    ``ast.parse`` allocates tens of thousands of nodes, and each batch of allocations
    triggers a collection that walks every live object: profiled, that costs more than
    the linting itself. Trees hold no reference cycles (reference counting frees them);
    the few cycles one file's declarations make are collected once it is enabled again.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _parse_and_lint(
    decoded: str, filename: str, settings: LintSettings, timings: dict[str, float] | None
) -> list[Finding]:
    try:
        tree = ast.parse(decoded, filename=filename)
    except SyntaxError as exc:
        return _only_if_enabled(settings, _syntax_error_finding(filename, exc, decoded))
    except (RecursionError, MemoryError) as exc:
        reason = "too deeply nested" if isinstance(exc, RecursionError) else "too large"
        message = f"the file cannot be parsed: it is {reason} for the Python parser"
        return _only_if_enabled(settings, _syntax_finding(filename, message, Position(1, 0)))
    except ValueError as exc:  # e.g. "source code string cannot contain null bytes"
        message = f"the file cannot be parsed: {exc}"
        return _only_if_enabled(settings, _syntax_finding(filename, message, Position(1, 0)))
    return _lint_tree(decoded, tree, filename, settings, timings)


def decode_source(source: bytes) -> str | Finding:
    """The text of ``source`` as Python reads it (BOM, coding cookie), or a SEM001.

    A file without a cookie must be UTF-8. The BOM is dropped from the text, so
    columns on the first line count from the first real character. Line endings are
    kept as they are.
    """
    if not source.startswith(codecs.BOM_UTF8):
        # Without a BOM, and without "coding" on the two lines a cookie may sit on
        # (as tokenize reads them: up to b"\n"), Python reads the file as UTF-8;
        # tokenize's search for a cookie would say so too, slower. A file that is
        # not UTF-8 takes the search, which also words the error.
        end = source.find(b"\n")
        if end != -1:
            end = source.find(b"\n", end + 1)
        if b"coding" not in (source if end == -1 else source[:end]):
            try:
                return source.decode("utf-8")
            except UnicodeDecodeError:
                pass
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError as exc:
        return _syntax_finding("", f"the file cannot be decoded: {exc.msg}", Position(1, 0))
    if encoding == "utf-8-sig" or source.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    try:
        return source.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        line = 1
        column = 0
        if isinstance(exc, UnicodeDecodeError):
            before = source[: exc.start]
            line = before.count(b"\n") + 1
            column = len(before) - (before.rfind(b"\n") + 1)
        return _syntax_finding(
            "",
            f"the file cannot be decoded as {encoding}: {exc.reason if isinstance(exc, UnicodeDecodeError) else exc}"
            " (declare its encoding with a coding comment, or save it as UTF-8)",
            Position(line, column),
        )


def _lint_tree(
    text: str,
    tree: ast.Module,
    filename: str,
    settings: LintSettings,
    timings: dict[str, float] | None,
) -> list[Finding]:
    # Imported here: only files that pass the prefilter need the rules; LibCST itself
    # is imported later still, by the first rule or resolver that asks for a node.
    from semantics_lint.lint.context import CallSite, FileContext
    from semantics_lint.lint.locate import locate_calls

    started = time.process_time()
    try:
        located = locate_calls(tree, settings.call_names, settings.api_modules, text)
    except RecursionError:
        message = "the file cannot be analysed: it is nested too deeply"
        return _only_if_enabled(settings, _syntax_finding(filename, message, Position(1, 0)))
    if timings is not None:
        timings["locate"] = timings.get("locate", 0.0) + time.process_time() - started
    if not located:
        return []
    context = FileContext(filename=filename, text=text, tree=tree, settings=settings)
    context.calls = [
        CallSite(context, found.kind, found.spelled, found.node, found.function)  # type: ignore[arg-type]
        for found in located
    ]
    declarations: list[Declaration] = []
    try:
        return _run_rules(context, declarations, filename, settings, timings)
    finally:
        _release(context, declarations)


def _run_rules(
    context: FileContext,
    declarations: list[Declaration],
    filename: str,
    settings: LintSettings,
    timings: dict[str, float] | None,
) -> list[Finding]:
    from semantics_lint.lint.context import CallParseError
    from semantics_lint.lint.declaration import build_declaration
    from semantics_lint.lint.rules import Batch, rules_for

    call_rules, module_rules = rules_for(settings)
    findings: list[Finding] = []
    for rule in dict.fromkeys((*call_rules, *module_rules)):
        rule.begin_file(context, findings)
    batch = Batch(call_rules, timings)

    for call in context.calls:
        if call.kind == "define_tool" or not call_rules:
            continue  # tool-level rules read define_tool calls from the context
        try:
            declaration = build_declaration(call)
            declarations.append(declaration)
            problem = batch.run(declaration)
        except RecursionError:
            problem = "it is nested too deeply"
        if problem is not None and settings.is_enabled(SYNTAX_CODE):
            findings.append(
                _syntax_finding(
                    filename,
                    f"this {call.spelled}(...) call was not fully checked: {problem}",
                    call.start,
                    call.end,
                )
            )
    for rule in module_rules:
        started = time.process_time()
        try:
            rule.visit_module(context)
        except (CallParseError, RecursionError) as exc:
            if settings.is_enabled(SYNTAX_CODE):
                findings.append(
                    _syntax_finding(filename, f"{rule.code} could not check this file: {exc}", Position(1, 0))
                )
        if timings is not None:
            timings[rule.code] = timings.get(rule.code, 0.0) + time.process_time() - started
    return sort_findings(findings)


def _release(context: FileContext, declarations: list[Declaration]) -> None:
    """Break the file's reference cycles (declarations and their parts and fields,
    context and call sites, call sites and their parses and resolver) once its
    findings are made.

    Reference counting then frees the file's trees at once; left to the cyclic
    garbage collector, they survived into older generations and their collections
    cost a sixth of the run.
    """
    for declaration in declarations:
        declaration.release()
    for call in context.calls:
        call.release()
    context.calls = []
    context.scope_assignments.clear()


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in a stable order: position, then code, then message; duplicates dropped."""
    unique: dict[tuple[object, ...], Finding] = {}
    for finding in findings:
        key = (finding.start, finding.end, finding.code, finding.message)
        unique.setdefault(key, finding)
    return sorted(unique.values(), key=lambda f: (f.start.line, f.start.column, f.code, f.message))


def _only_if_enabled(settings: LintSettings, finding: Finding) -> list[Finding]:
    return [finding] if settings.is_enabled(SYNTAX_CODE) else []


def _syntax_error_finding(filename: str, exc: SyntaxError, text: str) -> Finding:
    line = exc.lineno or 1
    offset = exc.offset or 1
    # SyntaxError.offset is 1-based, in characters for str input.
    column = max(offset - 1, 0)
    from semantics_lint.lint.context import split_lines

    lines = split_lines(text)
    if 0 < line <= len(lines):
        column = min(column, len(lines[line - 1]))
    return _syntax_finding(filename, f"the file cannot be parsed: {exc.msg}", Position(line, column))


def _syntax_finding(
    filename: str, message: str, start: Position, end: Position | None = None
) -> Finding:
    return Finding(
        code=SYNTAX_CODE,
        message=message,
        severity=Severity.ERROR,
        filename=filename,
        start=start,
        end=end if end is not None else start,
    )


def _rename(finding: Finding, filename: str) -> Finding:
    return Finding(
        code=finding.code,
        message=finding.message,
        severity=finding.severity,
        filename=filename,
        start=finding.start,
        end=finding.end,
        fix=finding.fix,
        url=finding.url,
    )
