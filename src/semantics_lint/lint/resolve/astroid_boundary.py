"""The one place the linter reaches past astroid's public API, and why it must.

astroid finds every module its inference needs through the process-wide manager:
``Module.import_module`` calls ``AstroidManager().ast_from_module_name``, which (for a
name not already in the shared ``astroid_cache``) searches ``sys.path``, may call
``importlib.util.find_spec`` (importing parent packages), may load a C extension, and
runs the failed-import hooks brains registered. astroid offers no supported way to
answer those look-ups from elsewhere: ``register_failed_import_hook`` is asked only
after that search, ``module_denylist`` and ``astroid_cache`` are shared by every user of
astroid in the process, and a manager instance of one's own is not the one inference
asks. So, for the time of one question and nothing longer, :func:`answering`:

* replaces ``AstroidManager.ast_from_module_name`` with a function that asks the
  linter's own ``lookup`` (the project's source files, read by the linter, and nothing
  else) in the thread that asks, and astroid's original in every other thread; the
  original is put back when the question is answered, whatever happens;
* lets the modules built for the question live in the ``modules`` dict the caller
  owns (a manager of our own, :func:`project_manager`, whose module cache,
  transforms and import hooks are per instance), never in astroid's shared cache.

After the last question of a run, :func:`forget_inferences` drops astroid's memo of
inferences about the run's modules (astroid keeps that memo process-wide and without
bound, in ``astroid.context``; a run's modules would otherwise live as long as the
process).

``tests/test_resolve_boundary.py`` holds this module to that: astroid's method is its
own again after every question, its shared cache and memo hold nothing of a project.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["answering", "forget_inferences", "project_manager"]

_QUESTIONS = threading.RLock()
"""One question at a time in a process: the method replaced is astroid's class's."""
_ACTIVE = threading.local()


@functools.cache
def project_manager() -> Any:
    """The astroid manager whose module cache, transforms and import hooks are its own.

    astroid's ``AstroidManager`` is a borg: every instance shares one state. This one
    reads the shared settings (through the class) but keeps the parts that hold
    modules and brains per instance, so building a project's modules with it changes
    nothing shared. One per process, and it holds no module between questions: its
    module cache is the asking run's own dict while :func:`answering` lets it answer,
    an empty one otherwise. (Made anew for each run, it would be left to the cyclic
    collector with the astroid trees that refer to it.)
    """
    from astroid.manager import AstroidManager
    from astroid.transforms import TransformVisitor

    class ProjectManager(AstroidManager):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.astroid_cache: dict[str, Any] = {}
            self._mod_file_cache: dict[Any, Any] = {}
            self._failed_import_hooks: list[Any] = []
            self._transform = TransformVisitor()

    return ProjectManager()


@contextlib.contextmanager
def answering(manager: Any, modules: dict[str, Any], lookup: Callable[[str], Any]) -> Iterator[None]:
    """While inside, every module astroid looks up in this thread is ``lookup(name)``,
    and ``manager`` (made by :func:`project_manager`) keeps what it builds in
    ``modules``. Nested questions (a lookup that asks again) are allowed."""
    from astroid.manager import AstroidManager

    with _QUESTIONS:
        previous = getattr(_ACTIVE, "lookup", None)
        original = AstroidManager.__dict__["ast_from_module_name"]
        if previous is None:

            def ast_from_module_name(
                self: Any, modname: str | None, context_file: str | None = None, use_cache: bool = True
            ) -> Any:
                active = getattr(_ACTIVE, "lookup", None)
                if active is None:
                    return original(self, modname, context_file, use_cache)
                if modname is None:
                    from astroid.exceptions import AstroidBuildingError

                    raise AstroidBuildingError("No module name given.")
                return active(modname)

            AstroidManager.ast_from_module_name = ast_from_module_name
        outer = manager.astroid_cache if previous is not None else {}
        _ACTIVE.lookup = lookup
        manager.astroid_cache = modules
        try:
            yield
        finally:
            _ACTIVE.lookup = previous
            manager.astroid_cache = outer
            if previous is None:
                AstroidManager.ast_from_module_name = original


def forget_inferences(modules: Iterator[Any] | list[Any]) -> None:
    """Drop astroid's memo of inferences about ``modules`` (and only those)."""
    from astroid import context

    memo = getattr(context, "_INFERENCE_CACHE", None)  # private to astroid: if it exists
    ids = {id(module) for module in modules}
    if not isinstance(memo, dict) or not ids:
        return
    for key in list(memo):
        node = key[0] if isinstance(key, tuple) and key else None
        root = getattr(node, "root", None)
        if root is not None and id(root()) in ids:
            del memo[key]
