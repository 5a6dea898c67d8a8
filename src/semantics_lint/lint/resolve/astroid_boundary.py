"""Where the linter meets astroid: the project's modules, built so that astroid finds
every module they import through the linter alone.

astroid's own way to find a module (``AstroidManager.ast_from_module_name``) searches
``sys.path``, may call ``importlib.util.find_spec``, loads C extensions named like
standard-library ones, and runs brains, some of which import the module they describe.
None of it may run for a linted project. astroid asks for a module in three places:
the inference of an ``import`` or ``from ... import``, a star import resolved while a
module is built, and an attribute read on a package. All three go through
``Module.import_module`` of the module the import or the package is in. So every
module built here is a :class:`ProjectModule`, a subclass of astroid's
``nodes.Module`` whose ``import_module`` asks the session's ``find`` (the project's
source files, read by the linter) and nothing else. Nothing of astroid is replaced or
written to: no method of its classes, no attribute of its manager, no entry of its
process-wide module cache.

Two things go past astroid's documented entry points, both here and nowhere else:

* :func:`build` makes the tree with a ``TreeRebuilder`` subclass (so the module is a
  :class:`ProjectModule` from the start: the star imports resolved while it is built
  already ask ``find``), then calls ``AstroidBuilder._post_build``, the step
  ``AstroidBuilder.string_build`` takes after parsing (``from __future__`` names, star
  imports, attribute assignments). It is a call, not a change: if astroid renames it,
  ``tests/test_resolve_boundary.py`` fails before any user sees it.
* :func:`forget_inferences` drops, through the public ``InferenceContext.inferred``,
  what astroid's process-wide memo of inferences holds about a session's modules.
  astroid keeps that memo without bound; without this, every module built for a lint
  would live as long as the process (a language server's worker, a library caller).

What astroid still looks up by itself, outside any module of the project: ``builtins``
(its introspection of the interpreter) and, rarely, the module a live object of
``builtins`` names. Those are modules of the running interpreter, not of the project.

astroid is not thread-safe (its memo and caches are process-wide), so questions are
asked one at a time in a process (:func:`one_question`).
"""

from __future__ import annotations

import ast
import os
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

from astroid import nodes
from astroid.builder import AstroidBuilder
from astroid.context import InferenceContext
from astroid.exceptions import AstroidBuildingError, AstroidSyntaxError
from astroid.manager import AstroidManager
from astroid.rebuilder import TreeRebuilder

__all__ = ["ProjectModule", "build", "forget_inferences", "namespace_module", "one_question"]

Find = Callable[[str], nodes.Module]
"""The session's lookup: the module of a dotted name, or ``AstroidImportError``."""

one_question = threading.RLock()
"""Held while astroid answers one question (nested questions of the same thread pass)."""


class ProjectModule(nodes.Module):  # type: ignore[misc]
    """A module of the linted project: the modules it imports are the session's.

    ``import_module`` is astroid's own, step for step, with ``find`` where astroid asks
    its manager. A module importing itself (astroid then skips its cache) gets itself,
    as the interpreter would give it.
    """

    def __init__(self, name: str, *, find: Find, **kwargs: Any) -> None:
        super().__init__(name, **kwargs)
        self.project_find = find

    def import_module(
        self,
        modname: str,
        relative_only: bool = False,
        level: int | None = None,
        use_cache: bool = True,
    ) -> nodes.Module:
        if relative_only and level is None:
            level = 0
        absolute = self.relative_to_absolute_name(modname, level)
        try:
            return self.project_find(absolute)
        except AstroidBuildingError:
            if relative_only or modname == absolute:
                raise
        return self.project_find(modname)


class _Rebuilder(TreeRebuilder):  # type: ignore[misc]
    """astroid's tree rebuilder, making a :class:`ProjectModule` for the module."""

    def __init__(self, data: str, find: Find) -> None:
        super().__init__(AstroidManager(), data=data)
        self.project_find = find

    def visit_module(self, node: ast.Module, modname: str, modpath: str, package: bool) -> nodes.Module:
        body, doc = _split_docstring(node.body)
        module = ProjectModule(modname, find=self.project_find, file=modpath, path=[modpath], package=package)
        module.postinit([self.visit(child, module) for child in body], doc_node=self.visit(doc, module))
        return module


class _Manager(AstroidManager):  # type: ignore[misc]
    """The manager the builder keeps a new module with: the session's modules (before
    its star imports are resolved, so a cycle of them ends), never astroid's cache."""

    def __init__(self, modules: dict[str, nodes.Module]) -> None:
        super().__init__()
        self.project_modules = modules

    def cache_module(self, module: nodes.Module) -> None:
        self.project_modules.setdefault(module.name, module)


def build(text: str, name: str, path: str, modules: dict[str, nodes.Module], find: Find) -> nodes.Module:
    """The module ``name`` built from ``text`` (read from ``path``), kept in ``modules``.

    Built as ``AstroidBuilder.string_build`` builds it, without transforms (so no brain
    runs on it), and as a :class:`ProjectModule` whose imports are ``find``'s.
    """
    tree = _parse(text, name, path)
    package = os.path.splitext(os.path.basename(path))[0] == "__init__"
    rebuilder = _Rebuilder(text, find)
    module = rebuilder.visit_module(tree, name, os.path.abspath(path), package)
    module.file_bytes = text.encode("utf-8")
    builder = AstroidBuilder(_Manager(modules), apply_transforms=False)
    return builder._post_build(module, rebuilder, "utf-8")  # the one private step: see the module docstring


def namespace_module(name: str, folder: str, find: Find) -> nodes.Module:
    """A package without ``__init__.py`` (``folder``), as astroid builds one."""
    module = ProjectModule(name, find=find, path=[folder], package=True)
    module.postinit(body=[], doc_node=None)
    return module


def forget_inferences(modules: Iterable[nodes.Module]) -> None:
    """Drop what astroid's memo of inferences holds about ``modules`` (and nothing else)."""
    ids = {id(module) for module in modules}
    memo = InferenceContext().inferred
    if not ids or not memo:
        return
    for key in list(memo):
        node = key[0]
        if isinstance(node, nodes.NodeNG) and id(node.root()) in ids:
            del memo[key]


_TYPE_COMMENT = re.compile(r"#\s+type:")


def _parse(text: str, name: str, path: str) -> ast.Module:
    """Parse as astroid's builder does: with type comments, and without them when a
    misplaced one is what stops the parse."""
    try:
        try:
            return ast.parse(text + "\n", filename=name or "<unknown>", type_comments=True)
        except SyntaxError as error:
            if not _TYPE_COMMENT.search(error.text or ""):
                raise
            return ast.parse(text + "\n", type_comments=False)
    except (TypeError, ValueError, SyntaxError, MemoryError) as error:
        raise AstroidSyntaxError(
            "Parsing Python code failed:\n{error}",
            source=text,
            modname=name,
            path=path,
            error=error,
        ) from error


def _split_docstring(body: list[ast.stmt]) -> tuple[list[ast.stmt], ast.Constant | None]:
    """The statements and the docstring, as astroid's rebuilder separates them."""
    if body and isinstance(body[0], ast.Expr):
        first = body[0].value
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return body[1:], first
    return body, None
