"""The linter engine: one file's bytes in, its raw findings out.

decode (cookie, BOM) -> textual prefilter -> parse (``source.parse_module``) -> one
index of the file's names (``index``) -> locate our calls (``locate``) -> per call: read
the declaration (``declaration``), one batched pass of every enabled rule -> module
rules -> findings, sorted.

The findings are raw: no ``noqa`` filtering and no select/ignore beyond
``LintSettings.enabled``; the runner does the rest. Bad input never raises: a file that
cannot be decoded or parsed is one SEM001 finding, an empty file has none.

The rules are data the caller may hand in (``rules=``, a :data:`RuleSource`; a rule's
hooks are called as its bound methods, never by name), as is the cache of other modules
the resolver asks (``project=``). Without them the engine takes the registry's rules and
a cache of the file's own, and it imports them, the index and the resolver when the
first file passes the prefilter: a run over files that never call the API never pays
for them.
"""

from __future__ import annotations

import ast
import gc
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from semantics_lint import vocabulary
from semantics_lint.lint.core.model import Finding, Position
from semantics_lint.lint.core.settings import DEFAULT_SETTINGS, LintSettings, might_contain_calls
from semantics_lint.lint.core.source import (
    SYNTAX_CODE,
    decode_source,
    parse_module,
    split_lines,
    syntax_finding,
)

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import FileContext
    from semantics_lint.lint.calls.declaration import Declaration, FieldStatus, Part
    from semantics_lint.lint.resolve import ProjectCache
    from semantics_lint.lint.rules.base import Check, Rule

RuleSource = Callable[[LintSettings], "tuple[list[Rule], list[Rule]]"]
"""What gives the engine its rules for some settings: the call rules and the module rules."""

__all__ = [
    "SYNTAX_CODE",
    "RuleSource",
    "Batch",
    "LintSettings",
    "Linted",
    "decode_source",
    "file_context",
    "lint",
    "lint_decoded",
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
    from semantics_lint.reading import MAX_SOURCE_BYTES, Unreadable, read_regular

    filename = os.fspath(path)
    try:
        source = read_regular(filename, MAX_SOURCE_BYTES)
    except OSError as exc:
        reason = str(exc) if isinstance(exc, Unreadable) else exc.strerror or exc.__class__.__name__
        return [syntax_finding(filename, f"cannot read the file: {reason}", Position(1, 0))]
    return lint_source(source, filename, settings)


class Linted(NamedTuple):
    """One file's raw findings, and whether they depend on other files: ``other_files``
    is True when its lint asked about another module of the project (the results cache
    keeps only findings made from the file alone)."""

    findings: list[Finding]
    other_files: bool = False


def lint(
    source: bytes,
    filename: str,
    settings: LintSettings = DEFAULT_SETTINGS,
    *,
    project: ProjectCache | None = None,
    rules: RuleSource | None = None,
) -> Linted:
    """The raw findings of one file, sorted by position then code, and whether they
    depend on other files. Never raises on input.

    ``project`` is the run's cache of other modules (``resolve.ProjectCache``), what the
    file's resolver asks: one for every file of a run; without it, the file has a cache
    of its own, closed when its lint ends. ``rules`` gives the rules to run for the
    settings, as data (``(call rules, module rules)``); without it, the registry's
    (``lint.rules.rules_for``), imported when the first file passes the prefilter.
    """
    if not source.strip():
        return Linted([])
    decoded = decode_source(source)
    if isinstance(decoded, Finding):
        return lint_decoded(decoded, filename, settings, rules=rules)
    # Call names are ASCII, and every encoding Python source may use keeps ASCII as
    # is, so the raw bytes answer for the text.
    if not might_contain_calls(source, settings):
        return Linted([])
    return lint_decoded(decoded, filename, settings, project=project, rules=rules)


def lint_decoded(
    text: str | Finding,
    filename: str,
    settings: LintSettings = DEFAULT_SETTINGS,
    *,
    project: ProjectCache | None = None,
    rules: RuleSource | None = None,
) -> Linted:
    """:func:`lint` of a file its caller has decoded (``source.decode``: the text, or the
    SEM001 of bytes that cannot be decoded) and put through the prefilter: neither is
    done again. ``project`` and ``rules`` as for :func:`lint`."""
    if isinstance(text, Finding):
        return Linted([_rename(text, filename)] if settings.is_enabled(SYNTAX_CODE) else [])
    with _collector_paused():
        return _parse_and_lint(text, filename, settings, project, rules)


def lint_source(
    source: bytes,
    filename: str,
    settings: LintSettings = DEFAULT_SETTINGS,
    *,
    project: ProjectCache | None = None,
    rules: RuleSource | None = None,
) -> list[Finding]:
    """The raw findings of one file, sorted by position then code (:func:`lint`'s)."""
    return lint(source, filename, settings, project=project, rules=rules).findings


def lint_parsed(
    tree: ast.Module,
    text: str,
    filename: str,
    settings: LintSettings = DEFAULT_SETTINGS,
    *,
    project: ProjectCache | None = None,
    rules: RuleSource | None = None,
) -> list[Finding]:
    """The raw findings of a file that is already decoded and parsed, without parsing
    it again (flake8 hands a plugin both).

    ``text`` is the file's text as :func:`decode_source` gives it and ``tree`` is
    ``ast.parse(text)``. The findings are those :func:`lint_source` gives for the
    file's bytes when the prefilter passes the bytes as it passes the text (any
    encoding that keeps ASCII as is). ``project`` and ``rules`` as for :func:`lint`.
    """
    if not might_contain_calls(text, settings):
        return []
    with _collector_paused():
        return _lint_tree(text, tree, filename, settings, project, rules).findings


def file_context(
    text: str,
    tree: ast.Module,
    filename: str,
    settings: LintSettings = DEFAULT_SETTINGS,
    project: ProjectCache | None = None,
) -> FileContext:
    """A parsed file, indexed, with its calls of ours located: what the rules read
    (``project``: the run's cache of other modules, as for :func:`lint`).

    Raises ``RecursionError`` for a tree nested too deeply to index.
    """
    # Imported here: a run over files the prefilter passes over never needs them.
    from semantics_lint.lint.calls.context import CallSite, FileContext
    from semantics_lint.lint.calls.locate import locate_calls
    from semantics_lint.lint.core.index import build_index

    index = build_index(tree, (*settings.call_names, *vocabulary.API_FUNCTIONS))
    context = FileContext(
        filename=filename, text=text, tree=tree, settings=settings, index=index, project=project
    )
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
    decoded: str,
    filename: str,
    settings: LintSettings,
    project: ProjectCache | None,
    rules: RuleSource | None,
) -> Linted:
    try:
        tree = parse_module(decoded, filename)
    except SyntaxError as exc:
        return Linted(_only_if_enabled(settings, _syntax_error_finding(filename, exc, decoded)))
    except (RecursionError, MemoryError) as exc:
        reason = "too deeply nested" if isinstance(exc, RecursionError) else "too large"
        message = f"the file cannot be parsed: it is {reason} for the Python parser"
        return Linted(_only_if_enabled(settings, syntax_finding(filename, message, Position(1, 0))))
    except ValueError as exc:  # e.g. "source code string cannot contain null bytes"
        message = f"the file cannot be parsed: {exc}"
        return Linted(_only_if_enabled(settings, syntax_finding(filename, message, Position(1, 0))))
    return _lint_tree(decoded, tree, filename, settings, project, rules)


def _lint_tree(
    text: str,
    tree: ast.Module,
    filename: str,
    settings: LintSettings,
    project: ProjectCache | None,
    rules: RuleSource | None = None,
) -> Linted:
    own = project is None
    if project is None:
        from semantics_lint.lint.resolve import ProjectCache

        project = ProjectCache()
    asked = project.questions
    try:
        try:
            context = file_context(text, tree, filename, settings, project)
        except RecursionError:
            message = "the file cannot be analysed: it is nested too deeply"
            return Linted(_only_if_enabled(settings, syntax_finding(filename, message, Position(1, 0))))
        if not context.calls and not _serves_tools(context):
            return Linted([])
        from semantics_lint.lint.calls.declaration import release_declarations

        try:
            findings = _run_rules(context, rules)
        finally:
            release_declarations(context)
            context.release()
        return Linted(findings, project.questions != asked)
    finally:
        if own:
            project.close()


def _serves_tools(context: FileContext) -> bool:
    """Whether a file with no declaration call still serves a tool through an adapter
    (``@served(result_class=...)``), or calls ``run_record`` (a claim contract), which
    the module-level rules judge."""
    from semantics_lint.lint.calls.locate import locate_adapter_calls

    calls = context.index.calls
    if any(name in calls for names in vocabulary.CLAIMS_CALLS.values() for name in names):
        return True
    return bool(locate_adapter_calls(context.index))


def _run_rules(context: FileContext, rules: RuleSource | None = None) -> list[Finding]:
    from semantics_lint.lint.calls.declaration import declaration_of
    from semantics_lint.lint.rules.base import Check

    if rules is None:
        # The registry is imported by the first file that passes the prefilter.
        from semantics_lint.lint.rules import rules_for

        rules = rules_for
    settings = context.settings
    filename = context.filename
    call_rules, module_rules = rules(settings)
    findings: list[Finding] = []
    batch = Batch(call_rules, [Check(rule, context, findings) for rule in call_rules])

    for call in context.calls:
        if not call_rules:
            continue  # the tool rules read the declarations they need themselves (lint.calls.tools)
        try:
            declaration = declaration_of(call)
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
        try:
            rule.visit_module(Check(rule, context, findings))
        except RecursionError as exc:
            if settings.is_enabled(SYNTAX_CODE):
                findings.append(
                    syntax_finding(filename, f"{rule.code} could not check this file: {exc}", Position(1, 0))
                )
    return sort_findings(findings)


# -- one batched pass of the rules over a declaration -------------------------------------


class Batch:
    """Every enabled rule over one declaration: the model is built once and shared, and
    each part and key of it goes straight to the rules that judge it.

    What each rule judges (its ``judges`` selector) becomes the dispatch tables of a
    :class:`_Plan`, worked out once per list of rule classes and kind of call. Each
    rule's hooks get its :class:`~semantics_lint.lint.rules.base.Check` (``checks``, in
    the order of ``rules``), whose ``call`` the batch sets before a call's hooks. The
    parts a call gives as a name (``provenance=prov``) are read, through the resolver,
    only for the kinds some rule's ``judges.named`` holds; a rule judges such a part
    through its check's :meth:`~semantics_lint.lint.rules.base.Check.at_name`, which
    reports at the name in the call.

    Each rule sees its hooks in the order of the declaration: ``visit_declaration``,
    then the parts given as a name, then each part (``visit_part``, then its keys'
    ``visit_field``), then the rows. A rule that meets recursion too deep stops for that
    call only: the other rules still judge it, and :meth:`run` says what went wrong so
    the engine can report it once.
    """

    def __init__(self, rules: list[Rule], checks: list[Check]) -> None:
        self.rules = rules
        self.checks = checks
        self._classes = tuple(type(rule) for rule in rules)
        self._stopped: set[int] = set()

    def run(self, declaration: Declaration) -> str | None:
        """Run every rule on ``declaration``; the first problem met, or None."""
        plan = _plan(self._classes, declaration.kind)
        checks = self.checks
        rules = self.rules
        self._stopped = set()
        call = declaration.call
        for position in plan.visiting:
            checks[position].call = call
        visit = self._visit
        for position in plan.on_declaration:
            visit(position, rules[position].visit_declaration, checks[position], declaration)
        if plan.named_kinds and any(
            kind in plan.named_kinds for _, kind in declaration.parts_given_by_name()
        ):
            named = [part for part in declaration.named_parts() if part.kind in plan.named_kinds]
            for part in named:
                self._visit_named_part(plan, part)
        for part in declaration.parts:
            part_kind = part.kind
            for position in plan.on_part(part_kind):
                visit(position, rules[position].visit_part, checks[position], part)
            for item in part.fields:
                for position in plan.on_key(part_kind, item.status, item.name):
                    visit(position, rules[position].visit_field, checks[position], item)
            for item in part.replaced:
                for position in plan.on_key(part_kind, item.status, item.name, spelling=True):
                    visit(position, rules[position].visit_field, checks[position], item)
        if declaration.rows:
            for position in plan.on_row:
                check = checks[position]
                for row in declaration.rows:
                    visit(position, rules[position].visit_row, check, row)
        return "it is nested too deeply" if self._stopped else None

    def _visit_named_part(self, plan: _Plan, part: Part) -> None:
        """The rules whose ``judges.named`` hold ``part.kind`` judge a part given as a
        name as a literal one, through checks that report at the name."""
        if part.anchor is None:
            return
        checks = self.checks
        rules = self.rules
        named = {position: checks[position].at_name(part) for position in plan.on_named(part.kind)}
        visit = self._visit
        for position in plan.on_part(part.kind, named=True):
            visit(position, rules[position].visit_part, named[position], part)
        for item in part.fields:
            for position in plan.on_key(part.kind, item.status, item.name, named=True):
                visit(position, rules[position].visit_field, named[position], item)
        for item in part.replaced:
            for position in plan.on_key(part.kind, item.status, item.name, named=True, spelling=True):
                visit(position, rules[position].visit_field, named[position], item)

    def _visit(
        self, position: int, hook: Callable[[Check, Any], None], check: Check, argument: object
    ) -> None:
        """Call one rule's hook (a bound method), unless the rule already stopped on this call."""
        stopped = self._stopped
        if stopped and position in stopped:
            return
        try:
            hook(check, argument)
        except RecursionError:
            stopped.add(position)


class _Plan:
    """Which rules of a batch (by position) take which hook, for one kind of call:
    the dispatch tables worked out from each rule class's selector (``judges``). A table is
    filled the first time it is asked; a key's table depends on its field only
    through the fields some rule names, so the tables stay few."""

    def __init__(self, classes: tuple[type[Rule], ...], kind: str) -> None:
        self._visiting = [
            (position, rule) for position, rule in enumerate(classes) if kind in rule.judges.calls
        ]
        self.visiting = tuple(position for position, _ in self._visiting)
        self.on_declaration = tuple(position for position, rule in self._visiting if rule._call_hooks[0])
        self.on_row = tuple(position for position, rule in self._visiting if rule._call_hooks[3])
        self.named_kinds = frozenset(part for _, rule in self._visiting for part in rule.judges.named)
        self._judged_fields = frozenset(
            name for _, rule in self._visiting for _, name in rule.judges.keys or ()
        )
        self._named: dict[str, tuple[int, ...]] = {}
        self._parts: dict[tuple[str, bool], tuple[int, ...]] = {}
        self._keys: dict[tuple[str, str, str | None, bool, bool], tuple[int, ...]] = {}

    def on_named(self, part_kind: str) -> tuple[int, ...]:
        """The rules that judge a ``part_kind`` part given as a name."""
        found = self._named.get(part_kind)
        if found is None:
            found = self._named[part_kind] = self._taking(lambda rule: part_kind in rule.judges.named)
        return found

    def on_part(self, part_kind: str, *, named: bool = False) -> tuple[int, ...]:
        """The rules whose ``visit_part`` takes a ``part_kind`` part (given as a name:
        the rules that judge it so)."""
        found = self._parts.get((part_kind, named))
        if found is None:
            found = self._parts[part_kind, named] = self._taking(
                lambda rule: rule.visits_part(part_kind) and (not named or part_kind in rule.judges.named)
            )
        return found

    def on_key(
        self,
        part_kind: str,
        status: FieldStatus,
        name: str,
        *,
        named: bool = False,
        spelling: bool = False,
    ) -> tuple[int, ...]:
        """The rules whose ``visit_field`` takes a key of a ``part_kind`` part, with
        ``status``, meaning the field ``name`` (in a part given as a name: the rules
        that judge it so; a key a spread may give another value: the rules that judge
        a key's spelling alone)."""
        key = (part_kind, status, name if name in self._judged_fields else None, named, spelling)
        found = self._keys.get(key)
        if found is None:
            found = self._keys[key] = self._taking(
                lambda rule: (
                    rule.judges_key(part_kind, status, name)
                    and (not named or part_kind in rule.judges.named)
                    and (not spelling or rule.judges.spelling)
                )
            )
        return found

    def _taking(self, takes: Callable[[type[Rule]], bool]) -> tuple[int, ...]:
        return tuple(position for position, rule in self._visiting if takes(rule))


@lru_cache(maxsize=64)
def _plan(classes: tuple[type[Rule], ...], kind: str) -> _Plan:
    return _Plan(classes, kind)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in a stable order: position, then code, then message and help; duplicates
    dropped."""
    unique: dict[tuple[object, ...], Finding] = {}
    for finding in findings:
        key = (finding.start, finding.end, finding.code, finding.message, finding.help)
        unique.setdefault(key, finding)
    return sorted(
        unique.values(),
        key=lambda f: (f.start.line, f.start.column, f.code, f.message, f.help or ""),
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
