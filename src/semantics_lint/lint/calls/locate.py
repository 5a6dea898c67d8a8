"""Which calls in a module are calls of the declaration API: recognition from the index.

``described_result`` / ``describedResult`` (and any configured call name) are ours by
name alone. ``absent``, ``coverage`` and ``define_tool`` are common words (coverage.py
exists), so they are ours only when the name at the call is bound by an import from
an API module, and by nothing else in the scope that binds it::

    from semantics_lint.runtime import absent          # absent(...) is ours
    from agentfootprint import coverage as cov          # cov(...) is ours
    import agentfootprint as af                         # af.coverage(...) is ours
    import coverage                                     # coverage(...) is NOT ours
    def f(absent): absent(...)                          # a parameter: NOT ours

When in doubt, a call is not ours: an unrecognized call is only a missed finding, a
wrongly recognized one is a false finding. The index (``lint.index``) has every call
whose callee is a name or a dotted name, with its scope, and every binding the way
Python scopes it; recognition is a look-up per candidate call.

The adapters that serve a function as a framework's tool (``served``, ``function_tool``,
``tool`` of ``semantics_lint.frameworks.*``; ``vocabulary.ADAPTERS``) are located the
same way, by :func:`locate_adapter_calls`: only when the name at the call is bound by
imports of one adapter of those modules, or is a dotted name of such a module.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from semantics_lint import vocabulary
from semantics_lint.lint.core.index import IMPORT, IMPORT_FROM, Binding, FileIndex, Scope
from semantics_lint.lint.core.syntax import dotted_name

__all__ = ["ADAPTER", "LocatedCall", "is_api_module", "locate_adapter_calls", "locate_calls"]

# The API names a binding may stand for, mapped to the call kind they make.
_KIND_OF_NAME: dict[str, str] = {name: "described_result" for name in vocabulary.DESCRIBED_RESULT_NAMES}
_KIND_OF_NAME.update(vocabulary.API_FUNCTION_KINDS)

ADAPTER = "adapter"
"""The kind of a located adapter call (never one of the declaration call kinds)."""
_ADAPTER_NAMES = frozenset(name for names in vocabulary.ADAPTERS.values() for name in names)


@dataclass(frozen=True, slots=True)
class LocatedCall:
    """A call recognized as ours: its kind, the callee as written, where it sits.

    ``function`` is the innermost enclosing function or lambda (None at module level);
    ``scope`` the scope the call is written in.
    """

    node: ast.Call
    kind: str
    spelled: str
    function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None
    scope: Scope


def is_api_module(module: str, api_modules: Sequence[str]) -> bool:
    """True for an API module or a submodule of one."""
    return any(module == api or module.startswith(api + ".") for api in api_modules)


def locate_calls(
    index: FileIndex, call_names: Sequence[str], api_modules: Sequence[str]
) -> list[LocatedCall]:
    """Every call of ours in the indexed module, in source order.

    ``call_names`` are recognized as ``described_result`` by name alone;
    ``absent``/``coverage``/``define_tool`` (and a configured name called through an
    attribute) only through an import from one of ``api_modules``.
    """
    names = frozenset(call_names)
    imported = _names_imported_from_api(index, api_modules)
    found: list[LocatedCall] = []
    for callee in sorted(names | imported | _KIND_OF_NAME.keys()):
        for call, scope in index.calls.get(callee, ()):
            located = _judge(index, call, scope, names, imported, api_modules)
            if located is not None:
                found.append(located)
    for call, scope in index.calls.get("partial", ()):
        made = _partial_call(index, call, scope)
        if made is not None:
            located = _judge(index, made, scope, names, imported, api_modules)
            if located is not None:
                found.append(located)
    found.sort(key=lambda c: (c.node.lineno, c.node.col_offset))
    return found


PARTIAL_REST = "..."
"""The name of the ``**`` spread a partial's call stands for: the arguments given when
the partial is called, which the source does not show (never followed: it is bound
nowhere)."""


def _partial_call(index: FileIndex, call: ast.Call, scope: Scope) -> ast.Call | None:
    """``functools.partial(described_result, provenance={...})`` read as the call it will
    make: ``described_result(provenance={...}, **...)``, its keys and values those
    written, the rest unknown (a ``**`` spread, so that no field is missing). None
    unless the callee is provably ``functools.partial`` and its first argument a name."""
    func = call.func
    if not call.args or not isinstance(call.args[0], (ast.Name, ast.Attribute)):
        return None
    if isinstance(func, ast.Name):
        looked_up = index.lookup(func.id, scope)
        if looked_up is None or _module_path(looked_up[1]) != "functools.partial":
            return None
    else:
        dotted = dotted_name(func)
        looked_up = index.lookup(dotted.partition(".")[0], scope) if dotted is not None else None
        if dotted != "functools.partial" or looked_up is None or _module_path(looked_up[1]) != "functools":
            return None
    rest = ast.keyword(arg=None, value=ast.Name(id=PARTIAL_REST, ctx=ast.Load()))
    made = ast.Call(func=call.args[0], args=list(call.args[1:]), keywords=[*call.keywords, rest])
    for node in (rest, rest.value):
        ast.copy_location(node, call)
    return ast.copy_location(made, call)


def _judge(
    index: FileIndex,
    call: ast.Call,
    scope: Scope,
    names: frozenset[str],
    imported: frozenset[str],
    api_modules: Sequence[str],
) -> LocatedCall | None:
    func = call.func
    if type(func) is ast.Name:
        if func.id in names:
            return LocatedCall(call, "described_result", func.id, _function_of(scope), scope)
        if func.id in imported:
            kind = _kind_of_imported(index, func.id, scope, api_modules)
            if kind is not None:
                return LocatedCall(call, kind, func.id, _function_of(scope), scope)
        return None
    attr = func.attr  # type: ignore[attr-defined]
    kind = _KIND_OF_NAME.get(attr)
    if kind is None and attr in names:
        kind = "described_result"
    if kind is None:
        return None
    found = _module_of(index, func, scope)
    if found is None or not is_api_module(found[1], api_modules):
        return None
    return LocatedCall(call, kind, found[0], _function_of(scope), scope)


def _module_of(index: FileIndex, func: ast.expr, scope: Scope) -> tuple[str, str] | None:
    """The dotted callee as written and the module its attribute is read from, when
    the callee's base is provably a module (``rt.absent``: ``semantics_lint.runtime``)."""
    dotted = dotted_name(func)
    if dotted is None:
        return None
    head, _, middle = dotted.rpartition(".")[0].partition(".")
    looked_up = index.lookup(head, scope)
    base = _module_path(looked_up[1]) if looked_up is not None else None
    if base is None:
        return None
    return dotted, f"{base}.{middle}" if middle else base


def locate_adapter_calls(index: FileIndex) -> list[LocatedCall]:
    """Every call of an adapter in the indexed module (``served(fn, result_class=...)``,
    the decorator ``@served(result_class=...)``...), in source order, kind ``ADAPTER``.

    A name is an adapter where every binding Python finds for it is an absolute import
    of one adapter from its module (``from semantics_lint.frameworks.mcp import
    served``); a dotted callee, where its base is bound to that module
    (``from semantics_lint.frameworks import mcp`` then ``mcp.served``)."""
    aliases: set[str] = set()
    for name, binding in index.imports:
        if _adapter_of(binding) is not None:
            aliases.add(name)
    found: list[LocatedCall] = []
    for callee in sorted(_ADAPTER_NAMES | aliases):
        for call, scope in index.calls.get(callee, ()):
            located = _judge_adapter(index, call, scope, aliases)
            if located is not None:
                found.append(located)
    for call, scope in index.calls.get("partial", ()):
        # ``partial(served, result_class=...)``: the adapter call it will make.
        made = _partial_call(index, call, scope)
        located = _judge_adapter(index, made, scope, aliases) if made is not None else None
        if located is not None:
            found.append(located)
    found.sort(key=lambda c: (c.node.lineno, c.node.col_offset))
    return found


def _judge_adapter(index: FileIndex, call: ast.Call, scope: Scope, aliases: set[str]) -> LocatedCall | None:
    """``call`` as an adapter call, when its callee is provably one; else None."""
    func = call.func
    if type(func) is ast.Name:
        if func.id in aliases and _is_imported_adapter(index, func.id, scope):
            return LocatedCall(call, ADAPTER, func.id, _function_of(scope), scope)
        return None
    if not isinstance(func, ast.Attribute) or func.attr not in _ADAPTER_NAMES:
        return None
    found = _module_of(index, func, scope)
    if found is None or func.attr not in vocabulary.ADAPTERS.get(found[1], ()):
        return None
    return LocatedCall(call, ADAPTER, found[0], _function_of(scope), scope)


def _adapter_of(binding: Binding) -> tuple[str, str] | None:
    """(module, adapter) an absolute ``from`` import binds, when it imports an adapter."""
    statement = binding.statement
    alias = binding.node
    if (
        binding.kind == IMPORT_FROM
        and isinstance(statement, ast.ImportFrom)
        and not statement.level
        and isinstance(alias, ast.alias)
        and alias.name in vocabulary.ADAPTERS.get(statement.module or "", ())
    ):
        return statement.module or "", alias.name
    return None


def _is_imported_adapter(index: FileIndex, name: str, scope: Scope) -> bool:
    """True when every binding of ``name`` read in ``scope`` imports the same adapter."""
    looked_up = index.lookup(name, scope)
    if looked_up is None:
        return False
    meant = {_adapter_of(binding) for binding in looked_up[1]}
    return len(meant) == 1 and None not in meant


def _names_imported_from_api(index: FileIndex, api_modules: Sequence[str]) -> frozenset[str]:
    """Local names some ``from <API module> import <API name>`` binds, anywhere."""
    found: set[str] = set()
    for name, binding in index.imports:
        statement = binding.statement
        alias = binding.node
        if (
            binding.kind == IMPORT_FROM
            and isinstance(statement, ast.ImportFrom)
            and not statement.level
            and statement.module
            and isinstance(alias, ast.alias)
            and alias.name in _KIND_OF_NAME
            and is_api_module(statement.module, api_modules)
        ):
            found.add(name)
    return frozenset(found)


def _kind_of_imported(index: FileIndex, name: str, scope: Scope, api_modules: Sequence[str]) -> str | None:
    """The call kind a name read in ``scope`` makes, when every binding of it there is an
    import of one API function from an API module; else None."""
    looked_up = index.lookup(name, scope)
    if looked_up is None:
        return None
    meant: set[str] = set()
    for binding in looked_up[1]:
        statement = binding.statement
        if (
            binding.kind != IMPORT_FROM
            or not isinstance(statement, ast.ImportFrom)
            or statement.level
            or not is_api_module(statement.module or "", api_modules)
        ):
            return None
        meant.add(binding.node.name)  # type: ignore[attr-defined]
    if len(meant) != 1:
        return None
    return _KIND_OF_NAME.get(meant.pop())


def _module_path(bindings: list[Binding]) -> str | None:
    """The module every binding of a name refers to, when they agree; else None."""
    paths: set[str] = set()
    for binding in bindings:
        alias = binding.node
        statement = binding.statement
        if binding.kind == IMPORT and isinstance(alias, ast.alias):
            paths.add(alias.name if alias.asname else alias.name.split(".", 1)[0])
        elif (
            binding.kind == IMPORT_FROM
            and isinstance(alias, ast.alias)
            and isinstance(statement, ast.ImportFrom)
            and not statement.level
        ):
            # ``from semantics_lint import runtime`` binds a module (or an attribute;
            # the API-module check decides whether that matters).
            paths.add(f"{statement.module or ''}.{alias.name}")
        else:
            return None
    if len(paths) != 1:
        return None
    return paths.pop()


def _function_of(scope: Scope) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None:
    function = scope.function
    return function.node if function is not None else None  # type: ignore[return-value]
