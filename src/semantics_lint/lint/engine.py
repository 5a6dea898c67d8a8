"""The linter engine: one file's bytes in, its raw findings out.

decode (cookie, BOM) -> textual prefilter -> parse (``source.parse_module``) -> one
index of the file's names (``index``) -> locate our calls (``locate``) -> per call: read
the declaration (``declaration``), one batched pass of every enabled rule -> module
rules -> findings, sorted.

The findings are raw: no ``noqa`` filtering and no select/ignore beyond
``LintSettings.enabled``; the runner does the rest. Bad input never raises: a file that
cannot be decoded or parsed is one SEM001 finding, an empty file has none.

The engine is the one module that imports the rules, and it imports them, the index and
the resolver when the first file passes the prefilter: a run over files that never call
the API never pays for them.
"""

from __future__ import annotations

import ast
import gc
import os
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from semantics_lint import vocabulary
from semantics_lint.lint.model import Finding, Position
from semantics_lint.lint.settings import DEFAULT_SETTINGS, LintSettings, might_contain_calls
from semantics_lint.lint.source import SYNTAX_CODE, decode_source, parse_module, split_lines, syntax_finding

if TYPE_CHECKING:
    from semantics_lint.lint.context import FileContext
    from semantics_lint.lint.declaration import Declaration
    from semantics_lint.lint.rules.base import Rule

__all__ = [
    "SYNTAX_CODE",
    "Batch",
    "LintSettings",
    "decode_source",
    "file_context",
    "lint_file",
    "lint_parsed",
    "lint_source",
    "might_contain_calls",
    "settle_imports",
    "sort_findings",
]


def lint_file(path: str | os.PathLike[str], settings: LintSettings = DEFAULT_SETTINGS) -> list[Finding]:
    """Lint the file at ``path``; an unreadable file (not a regular file, larger than
    ``reading.MAX_SOURCE_BYTES``, no permission) is one SEM001 finding."""
    from semantics_lint.lint.reading import MAX_SOURCE_BYTES, Unreadable, read_regular

    filename = os.fspath(path)
    try:
        source = read_regular(filename, MAX_SOURCE_BYTES)
    except OSError as exc:
        reason = str(exc) if isinstance(exc, Unreadable) else exc.strerror or exc.__class__.__name__
        return [syntax_finding(filename, f"cannot read the file: {reason}", Position(1, 0))]
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
    indexing the file and finding the calls) for the benchmark; it changes nothing else.
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


def file_context(text: str, tree: ast.Module, filename: str, settings: LintSettings = DEFAULT_SETTINGS) -> FileContext:
    """A parsed file, indexed, with its calls of ours located: what the rules read.

    Raises ``RecursionError`` for a tree nested too deeply to index.
    """
    # Imported here: a run over files the prefilter passes over never needs them.
    from semantics_lint.lint.context import CallSite, FileContext
    from semantics_lint.lint.index import build_index
    from semantics_lint.lint.locate import locate_calls

    index = build_index(tree, (*settings.call_names, *vocabulary.API_FUNCTIONS))
    context = FileContext(filename=filename, text=text, tree=tree, settings=settings, index=index)
    context.calls = [
        CallSite(context, found.kind, found.spelled, found.node, found.function, found.scope)  # type: ignore[arg-type]
        for found in locate_calls(index, settings.call_names, settings.api_modules)
    ]
    return context


_modules_settled = 0


def settle_imports() -> None:
    """Keep the cyclic garbage collector off what the imports made, once they are done.

    Call it between files. The rules and astroid are imported by the first file that
    needs them, and their modules, classes and functions then live as long as the
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
    the few cycles one file's declarations make are broken when its lint ends.
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
        tree = parse_module(decoded, filename)
    except SyntaxError as exc:
        return _only_if_enabled(settings, _syntax_error_finding(filename, exc, decoded))
    except (RecursionError, MemoryError) as exc:
        reason = "too deeply nested" if isinstance(exc, RecursionError) else "too large"
        message = f"the file cannot be parsed: it is {reason} for the Python parser"
        return _only_if_enabled(settings, syntax_finding(filename, message, Position(1, 0)))
    except ValueError as exc:  # e.g. "source code string cannot contain null bytes"
        message = f"the file cannot be parsed: {exc}"
        return _only_if_enabled(settings, syntax_finding(filename, message, Position(1, 0)))
    return _lint_tree(decoded, tree, filename, settings, timings)


def _lint_tree(
    text: str,
    tree: ast.Module,
    filename: str,
    settings: LintSettings,
    timings: dict[str, float] | None,
) -> list[Finding]:
    started = time.process_time() if timings is not None else 0.0
    try:
        context = file_context(text, tree, filename, settings)
    except RecursionError:
        message = "the file cannot be analysed: it is nested too deeply"
        return _only_if_enabled(settings, syntax_finding(filename, message, Position(1, 0)))
    if timings is not None:
        timings["locate"] = timings.get("locate", 0.0) + time.process_time() - started
    if not context.calls:
        return []
    declarations: list[Declaration] = []
    try:
        return _run_rules(context, declarations, timings)
    finally:
        for declaration in declarations:
            declaration.release()
        context.release()


def _run_rules(
    context: FileContext, declarations: list[Declaration], timings: dict[str, float] | None
) -> list[Finding]:
    # The rules are imported by the first file that passes the prefilter.
    from semantics_lint.lint.declaration import build_declaration
    from semantics_lint.lint.rules import rules_for

    settings = context.settings
    filename = context.filename
    call_rules, module_rules = rules_for(settings)
    findings: list[Finding] = []
    rule: Rule
    for rule in dict.fromkeys((*call_rules, *module_rules)):
        rule.begin_file(context, findings)
    batch = Batch(call_rules, timings)

    for call in context.calls:
        if call.kind == "define_tool" or not call_rules:
            continue  # tool-level rules read define_tool calls from the context
        try:
            started = time.process_time() if timings is not None else 0.0
            declaration = build_declaration(call)
            declarations.append(declaration)
            if timings is not None:
                timings["declarations"] = timings.get("declarations", 0.0) + time.process_time() - started
            problem = batch.run(declaration)
        except RecursionError:
            problem = "it is nested too deeply"
        if problem is not None and settings.is_enabled(SYNTAX_CODE):
            findings.append(
                syntax_finding(
                    filename,
                    f"this {call.spelled}(...) call was not fully checked: {problem}",
                    call.start,
                    call.end,
                )
            )
    for rule in module_rules:
        started = time.process_time() if timings is not None else 0.0
        try:
            rule.visit_module(context)
        except RecursionError as exc:
            if settings.is_enabled(SYNTAX_CODE):
                findings.append(
                    syntax_finding(filename, f"{rule.code} could not check this file: {exc}", Position(1, 0))
                )
        if timings is not None:
            timings[rule.code] = timings.get(rule.code, 0.0) + time.process_time() - started
    return sort_findings(findings)


# -- one batched pass of the rules over a declaration -------------------------------------

# What the batch does with one rule: the rule; whether it visits the declaration, its
# parts, its fields, its rows; the part kinds and field statuses it is handed (None:
# all); the kinds of part it also judges when given as a name.
_Plan = tuple["Rule", tuple[bool, bool, bool, bool], "frozenset[str] | None", "frozenset[str] | None", "frozenset[str]"]


class Batch:
    """Every enabled rule over one declaration: the model is built once and shared, and
    each rule's hooks run over it, on the parts and keys it declares it judges.

    What a rule declares becomes the cost gates here, worked out once per call kind: a
    rule is handed only the parts of its ``part_kinds`` and the keys of its ``fields`` and
    ``field_statuses``, and the parts a call gives as a name (``provenance=prov``) are
    read, through the resolver, only for the kinds some rule's ``named_parts`` holds.

    A rule that meets recursion too deep stops for that call only: the other rules still
    judge it, and :meth:`run` says what went wrong so the engine can report it once.
    With ``timings``, each rule's CPU time is added under its code, for the benchmark.
    """

    def __init__(self, rules: list[Rule], timings: dict[str, float] | None = None) -> None:
        self.rules = rules
        self.timings = timings
        self._plans: dict[str, tuple[list[_Plan], frozenset[str]]] = {}

    def _plans_for(self, kind: str) -> tuple[list[_Plan], frozenset[str]]:
        """The plans of the rules that visit calls of ``kind``, in the rules' order, and
        the kinds of named part any of them judges."""
        known = self._plans.get(kind)
        if known is None:
            plans: list[_Plan] = [
                (rule, rule._call_hooks, rule.part_kinds, rule.field_statuses, rule.named_parts)
                for rule in self.rules
                if kind in rule.calls
            ]
            named = frozenset(part for plan in plans for part in plan[4])
            known = self._plans[kind] = (plans, named)
        return known

    def run(self, declaration: Declaration) -> str | None:
        """Run every rule on ``declaration``; the first problem met, or None."""
        problem: str | None = None
        clock = time.process_time if self.timings is not None else None
        call = declaration.call
        parts = declaration.parts
        plans, named_kinds = self._plans_for(declaration.kind)
        started = clock() if clock is not None else 0.0
        named = (
            [part for part in declaration.named_parts() if part.kind in named_kinds]
            if named_kinds and any(kind in named_kinds for _, kind in declaration.parts_given_by_name())
            else []
        )
        if clock is not None and self.timings is not None:
            self.timings["named parts"] = self.timings.get("named parts", 0.0) + clock() - started
        for rule, (on_declaration, on_part, on_field, on_row), kinds, statuses, named_parts in plans:
            rule.call = call
            started = clock() if clock is not None else 0.0
            try:
                if on_declaration:
                    rule.visit_declaration(declaration)
                if named_parts:
                    for part in named:
                        if part.kind in named_parts:
                            rule.visit_named_part(part)
                if on_part or on_field:
                    for part in parts:
                        if kinds is not None and part.kind not in kinds:
                            continue
                        if on_part:
                            rule.visit_part(part)
                        if on_field:
                            names = rule.field_names(part.kind)
                            for item in part.fields:
                                if (statuses is None or item.status in statuses) and (
                                    names is None or item.name in names
                                ):
                                    rule.visit_field(item)
                if on_row:
                    for row in declaration.rows:
                        rule.visit_row(row)
            except RecursionError:
                problem = problem or "it is nested too deeply"
            if clock is not None and self.timings is not None:
                self.timings[rule.code] = self.timings.get(rule.code, 0.0) + clock() - started
        return problem



def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in a stable order: position, then code, then message and help; duplicates
    dropped."""
    unique: dict[tuple[object, ...], Finding] = {}
    for finding in findings:
        key = (finding.start, finding.end, finding.code, finding.message, finding.help)
        unique.setdefault(key, finding)
    return sorted(
        unique.values(), key=lambda f: (f.start.line, f.start.column, f.code, f.message, f.help or "")
    )


def _only_if_enabled(settings: LintSettings, finding: Finding) -> list[Finding]:
    return [finding] if settings.is_enabled(SYNTAX_CODE) else []


def _syntax_error_finding(filename: str, exc: SyntaxError, text: str) -> Finding:
    line = exc.lineno or 1
    offset = exc.offset or 1
    # SyntaxError.offset is 1-based, in characters for str input.
    column = max(offset - 1, 0)
    lines = split_lines(text)
    if 0 < line <= len(lines):
        column = min(column, len(lines[line - 1]))
    return syntax_finding(filename, f"the file cannot be parsed: {exc.msg}", Position(line, column))


def _rename(finding: Finding, filename: str) -> Finding:
    return finding._replace(filename=filename)
