"""How control reaches a node of a scope's code, from the ``ast`` tree alone.

* :func:`path_to`: the nodes from a scope's node down to one of its nodes, found by
  position (a statement list by a binary search);
* :func:`block_of`: the statement list a statement is written in, under its parent;
* :func:`leaves`: whether a statement list never runs to its end (every way through it
  returns, raises, continues or breaks);
* :func:`guards`: what the statement after an ``if`` proves of the ``if``'s tests,
  when a branch of it always leaves (``if rows: return ...``: past it, ``rows`` was
  false).

Nothing here knows about names: the callers judge whether a value may have changed on
the way (``lint.rules.emptiness``).
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from typing import NamedTuple

__all__ = ["Guard", "block_of", "end", "guards", "leaves", "path_to", "start"]


def start(node: ast.AST) -> tuple[int, int]:
    """Where ``node`` starts: its line and column."""
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def end(node: ast.AST) -> tuple[int, int]:
    """Where ``node`` ends: its last line and the column after it."""
    return node.end_lineno or 0, node.end_col_offset or 0  # type: ignore[attr-defined]


# -- the way down to a node ----------------------------------------------------------------


def path_to(root: ast.AST, target: ast.expr) -> list[ast.AST] | None:
    """The nodes from ``root`` down to ``target``, by position (statements found by a
    binary search of their list); None when ``target`` is not under ``root``."""
    begins, ends = start(target), end(target)
    path = [root]
    node = root
    while node is not target:
        child = _child_holding(node, target, begins, ends)
        if child is None:
            return None
        path.append(child)
        node = child
    return path


def parent_of(root: ast.AST, node: ast.expr) -> ast.AST | None:
    """The node ``node`` is a child of, found down from ``root`` by position (as
    :func:`path_to`: a binary search of each statement list on the way, never a walk
    of the tree); None for ``root`` itself or a node not under it."""
    path = path_to(root, node)
    return path[-2] if path is not None and len(path) > 1 else None


def _child_holding(
    node: ast.AST, target: ast.expr, begins: tuple[int, int], ends: tuple[int, int]
) -> ast.AST | None:
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            if value and isinstance(value[0], ast.stmt):
                at = bisect_right(value, begins, key=start) - 1
                if at >= 0 and _holds(value[at], target, begins, ends):
                    statement: ast.stmt = value[at]
                    return statement
                continue
            for item in value:
                if isinstance(item, ast.AST) and _holds(item, target, begins, ends):
                    return item
        elif isinstance(value, ast.AST) and _holds(value, target, begins, ends):
            return value
    return None


def _holds(node: ast.AST, target: ast.expr, begins: tuple[int, int], ends: tuple[int, int]) -> bool:
    if node is target:
        return True
    if not hasattr(node, "lineno"):
        # ``arguments``, ``comprehension``, ``withitem``, ``match_case``: no position of
        # their own; one holds the target when one of its children does.
        return _child_holding(node, target, begins, ends) is not None
    return start(node) <= begins and ends <= end(node)


_BLOCKS = ("body", "orelse", "finalbody")


def block_of(parent: ast.AST, child: ast.AST) -> tuple[list[ast.stmt], int] | None:
    """The statement list of ``parent`` (its body, ``else`` or ``finally``) that holds
    the statement ``child``, and where ``child`` is in it; None when ``child`` is no
    statement of such a list (an ``if``'s test, a call's argument)."""
    if not isinstance(child, ast.stmt):
        return None
    at_child = start(child)
    for field in _BLOCKS:
        block = getattr(parent, field, None)
        if type(block) is list and block:
            at = bisect_right(block, at_child, key=start) - 1
            if at >= 0 and block[at] is child:
                return block, at
    return None


# -- leaving a block -----------------------------------------------------------------------


def leaves(block: list[ast.stmt], *, raising: bool = True) -> bool:
    """Whether running ``block`` never reaches its end: some statement of it always
    returns, raises, continues or breaks (a ``continue`` or ``break`` of a loop written
    inside the block leaves only that loop, and is not one). ``raising=False`` when a
    ``raise`` may be caught and the code after it run (in a ``with`` body, whose context
    manager may swallow the exception). A ``try`` never counts (a handler or ``finally``
    may change where control goes), nor a ``match``, a loop, or a call that never returns.
    """
    for statement in block:
        kind = type(statement)
        if kind in _LEAVING or (kind is ast.Raise and raising):
            return True
        if kind is ast.If:
            branches = (statement.body, statement.orelse)  # type: ignore[attr-defined]
            if branches[1] and all(leaves(branch, raising=raising) for branch in branches):
                return True
        elif (kind is ast.With or kind is ast.AsyncWith) and leaves(statement.body, raising=False):  # type: ignore[attr-defined]
            return True
    return False


_LEAVING = (ast.Return, ast.Continue, ast.Break)


class Guard(NamedTuple):
    """What the statement after an ``if`` proves: ``test`` was ``holds`` (``if rows:
    return ...``: ``rows`` was false); ``off_the_way`` the branches of the ``if`` that
    always leave, as (start, end) positions: nothing in them ran on the way to the
    statement after."""

    test: ast.expr
    holds: bool
    off_the_way: tuple[tuple[tuple[int, int], tuple[int, int]], ...]


def guards(statement: ast.If) -> list[Guard]:
    """What reaching the statement after ``statement`` proves of its tests: when its body
    always leaves, its test was false (and so on down an ``elif`` chain whose bodies all
    leave); when its ``else`` always leaves and its body does not, its test was true.
    Each guard names the branches that always leave (``off_the_way``: nothing in them
    runs before the statement after). Empty when every branch may fall through, or none
    does (the statement after is never reached)."""
    found: list[Guard] = []
    skipped: list[tuple[tuple[int, int], tuple[int, int]]] = []
    node = statement
    while True:
        body_leaves = leaves(node.body)
        else_leaves = bool(node.orelse) and leaves(node.orelse)
        if body_leaves and else_leaves:
            return []  # nothing after it runs
        if body_leaves:
            skipped.append((start(node.body[0]), end(node.body[-1])))
            found.append(Guard(node.test, False, ()))
            orelse = node.orelse
            if len(orelse) == 1 and type(orelse[0]) is ast.If:
                node = orelse[0]  # ``elif``: reached only when it falls through too
                continue
        elif else_leaves:
            skipped.append((start(node.orelse[0]), end(node.orelse[-1])))
            found.append(Guard(node.test, True, ()))
        break
    whole = tuple(skipped)
    return [guard._replace(off_the_way=whole) for guard in found]
