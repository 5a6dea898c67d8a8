"""The tools of a file, linked to the results they return: what the tool rules read.

A tool is a ``define_tool(...)`` call, read as a declaration of one part
(``lint.calls.declaration``): its ``name``, ``resultClass`` and ``execute`` are fields
of that part, found by the name they mean (``result_class=`` is read as
``resultClass``, and the key rules report its spelling). A part that may hide keys
(``**spread``, a computed key, a positional that is no dict) hides the class too; a
value given as a name is followed through the file's resolver. A tool is also a
function served through an adapter with a result class (``served(fn,
result_class=...)``, ``@served(result_class=...)``; ``lint.calls.locate``): those calls
declare nothing, and are read here, in :func:`_adapter_tool`, alone.

A tool's ``execute`` is linked to a function only when the link is provable: a
``lambda`` written in the call, the ``def`` a decorator is written on, or a name bound
exactly once in the module, by a ``def`` visible from the call. The described results
that function returns directly (calls whose innermost enclosing function it is, not
the content of a ``coverage(...)``) are the tool's results. Made once per file, on the
first question (:func:`file_tools`), and gone with the file.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, NamedTuple

from semantics_lint import vocabulary
from semantics_lint.lint.calls.declaration import Declaration, declaration_of
from semantics_lint.lint.calls.locate import LocatedCall, locate_adapter_calls
from semantics_lint.lint.core.syntax import UNKNOWN

if TYPE_CHECKING:
    from semantics_lint.lint.calls.context import CallSite, FileContext, FunctionNode
    from semantics_lint.lint.resolve import Resolved

__all__ = ["FileTools", "Tool", "file_tools"]


class Tool(NamedTuple):
    """One tool of the file, with what of it is provable.

    ``spelled`` is the callee as written; ``name`` the tool's name when written as a
    string (an adapter's: its function's name); ``class_node`` the result class's value
    as written (None when none is written), ``class_key`` its key as spelled
    (``resultClass``, ``result_class``); ``result_class`` the class when the value is a
    literal, or the literal a name provably holds (``class_resolved`` says how it was
    followed), else ``syntax.UNKNOWN``; ``execute`` the function the tool runs, when
    provable."""

    spelled: str
    name: str | None
    class_node: ast.expr | None
    class_key: str
    result_class: object
    class_resolved: Resolved | None
    execute: FunctionNode | None


class FileTools:
    """The tools of one file, and the described results each returns."""

    __slots__ = ("_results", "_wrapped", "tools")

    def __init__(self, tools: list[Tool], results: dict[int, list[CallSite]], wrapped: set[int]) -> None:
        self.tools = tools
        self._results = results
        """described_result call sites by the id of their innermost enclosing function."""
        self._wrapped = wrapped
        """ids of described_result calls written as the content of a ``coverage(...)``."""

    def results_of(self, tool: Tool) -> list[Declaration]:
        """The declarations of the described results ``tool``'s execute returns directly
        (one written as the content of ``coverage(...)`` is judged there, not here)."""
        if tool.execute is None:
            return []
        wrapped = self._wrapped
        return [
            declaration_of(site)
            for site in self._results.get(id(tool.execute), ())
            if id(site.node) not in wrapped
        ]


def file_tools(context: FileContext) -> FileTools:
    """The tools of ``context``'s file, read on the first question and kept for the file."""
    known = context.memo.get(FileTools)
    if known is None:
        known = context.memo[FileTools] = _read_tools(context)
    return known  # type: ignore[return-value]


def _read_tools(context: FileContext) -> FileTools:
    results: dict[int, list[CallSite]] = {}
    wrapped: set[int] = set()
    tools: list[Tool] = []
    for site in context.calls:
        if site.kind == "described_result" and site.function is not None:
            results.setdefault(id(site.function), []).append(site)
        elif site.kind == "coverage" and site.node.args:
            wrapped.add(id(site.node.args[0]))
        elif site.kind == "define_tool":
            tools.append(_defined_tool(context, site))
    adapters = locate_adapter_calls(context.index)
    if adapters:
        decorated = _decorated(context)
        for located in adapters:
            tool = _adapter_tool(context, located, decorated)
            if tool is not None:
                tools.append(tool)
    return FileTools(tools, results, wrapped)


def _defined_tool(context: FileContext, site: CallSite) -> Tool:
    """The tool a ``define_tool(...)`` call defines, read from its declaration."""
    top = declaration_of(site).top
    name_field = top.get("name")
    name = name_field.literal() if name_field is not None else None
    class_field = top.get("resultClass")
    class_node = class_key = None
    result_class: object = UNKNOWN
    class_resolved: Resolved | None = None
    if class_field is not None:
        class_node, class_key = class_field.value_ast, class_field.spelled
        result_class, class_resolved = _class_value(context, class_node)
    execute_field = top.get("execute")
    execute = _execute_function(context, site.function, execute_field.value_ast) if execute_field else None
    return Tool(
        site.spelled,
        name if isinstance(name, str) else None,
        class_node,
        class_key or "resultClass",
        result_class,
        class_resolved,
        execute,
    )


def _adapter_tool(
    context: FileContext, located: LocatedCall, decorated: dict[int, FunctionNode]
) -> Tool | None:
    """The tool an adapter call serves, when it names a result class: the function
    given first (``served(run, result_class=...)``), or the one the call decorates
    (``@served(result_class=...)``). None without ``result_class`` (a ``**spread``
    may hide one: nothing is said then either)."""
    call = located.node
    keyword = vocabulary.ADAPTER_CLASS_KEYWORD
    class_node = next((item.value for item in call.keywords if item.arg == keyword), None)
    if class_node is None:
        return None
    result_class, class_resolved = _class_value(context, class_node)
    execute: FunctionNode | None
    if call.args:
        first = call.args[0]
        execute = (
            None if isinstance(first, ast.Starred) else _execute_function(context, located.function, first)
        )
    else:
        execute = decorated.get(id(call))
    name = execute.name if isinstance(execute, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    return Tool(located.spelled, name, class_node, keyword, result_class, class_resolved, execute)


def _class_value(context: FileContext, node: ast.expr) -> tuple[object, Resolved | None]:
    """The class ``node`` provably is (a literal written, or one a name is bound to),
    else UNKNOWN; and how a name was followed."""
    resolved = context.resolver.value_of(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    value = resolved.value if resolved is not None else node
    if isinstance(value, ast.Constant) and not isinstance(value.value, complex) and value.value is not ...:
        return value.value, resolved
    return UNKNOWN, resolved


def _decorated(context: FileContext) -> dict[int, FunctionNode]:
    """The ``def`` each decorator of the file decorates, by the decorator's id."""
    decorated: dict[int, FunctionNode] = {}
    for scope in context.index.scopes.values():
        node = scope.node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                decorated[id(decorator)] = node
    return decorated


def _execute_function(
    context: FileContext, function: FunctionNode | None, node: ast.expr
) -> FunctionNode | None:
    """The function ``execute=`` provably is: an inline lambda, or a name bound once in
    the module, by a ``def`` written in the module's body or in the body of the
    function that makes the call."""
    if isinstance(node, ast.Lambda):
        return node
    if not isinstance(node, ast.Name):
        return None  # ``tools.run``, a call result...: not followed
    bindings = context.index.bindings_anywhere(node.id)
    if len(bindings) != 1:
        return None
    binding = bindings[0].node
    if not isinstance(binding, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if id(binding) in _body_ids(context, context.tree):
        return binding
    if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and id(binding) in _body_ids(
        context, function
    ):
        return binding
    return None


def _body_ids(
    context: FileContext, holder: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef
) -> frozenset[int]:
    """The ids of the statements written directly in the body of the module or of a
    ``def``, made once per body and kept for the file."""
    key = (_body_ids, id(holder))
    known = context.memo.get(key)
    if known is None:
        known = context.memo[key] = frozenset(map(id, holder.body))
    return known  # type: ignore[return-value]
