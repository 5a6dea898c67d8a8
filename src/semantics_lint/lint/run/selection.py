"""Which codes run for a file: select, extend-select, ignore and per-file-ignores.

Rule selection is resolved as ruff resolves it (see :func:`select_codes`): the
configuration's layer first, then the command line's. The result, with the file's
configuration (API modules, call names), becomes the engine's ``LintSettings``
(:func:`settings_for`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from semantics_lint.lint.run.config import (
    ALL_SELECTOR,
    Config,
    check_selectors,
    generated_list_answers,
    known_codes,
    registered_codes,
)
from semantics_lint.lint.run.globs import matches_any

if TYPE_CHECKING:  # pragma: no cover - typing only
    from pathlib import Path

    from semantics_lint.lint.core.settings import LintSettings


class CommandLineCodes(Protocol):
    """The selectors a command line gives (the runner's ``RunOptions`` has them);
    hashable, since the codes they enable are worked out once per selectors."""

    def __hash__(self) -> int: ...

    @property
    def select(self) -> tuple[str, ...] | None: ...

    @property
    def extend_select(self) -> tuple[str, ...]: ...

    @property
    def ignore(self) -> tuple[str, ...]: ...


class _Layer(NamedTuple):
    select: tuple[str, ...] | None
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]


def _specificity(code: str, selectors: Iterable[str]) -> int:
    """Length of the longest selector matching ``code`` (``ALL`` counts 0); -1 for none."""
    best = -1
    for selector in selectors:
        if selector == ALL_SELECTOR:
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def select_codes(universe: Iterable[str], layers: Sequence[_Layer]) -> frozenset[str]:
    """The codes that run, resolved as ruff resolves rule selection.

    Layers apply in order (configuration, then command line). A layer with a
    ``select`` starts over from it; ``extend-select`` adds; ``ignore`` removes.
    Within a layer, when a code is both selected and ignored, the more specific
    selector wins (``select=["SEM1"]`` with ``ignore=["SEM102"]`` runs every SEM1xx
    but SEM102), and on a tie ``ignore`` wins.
    """
    enabled: set[str] = set()
    for code in universe:
        state = False
        for layer in layers:
            selects = (*(layer.select or ()), *layer.extend_select)
            selected = _specificity(code, selects)
            ignored = _specificity(code, layer.ignore)
            if layer.select is not None:
                state = selected >= 0 and selected > ignored
            elif selected >= 0 and selected > ignored:
                state = True
            elif ignored >= 0:
                state = False
        if state:
            enabled.add(code)
    return frozenset(enabled)


def check_options(options: CommandLineCodes) -> None:
    """Raise :class:`ConfigError` for a command-line selector that names no rule."""
    if options.select is not None:
        check_selectors(options.select, "--select")
    check_selectors(options.extend_select, "--extend-select")
    check_selectors(options.ignore, "--ignore")


@lru_cache(maxsize=256)
def enabled_codes(config: Config, options: CommandLineCodes) -> frozenset[str]:
    """The codes that run for files governed by ``config`` (before per-file-ignores).

    The codes are those of the generated list (``vocabulary.RULE_CODES``: no rule is
    imported); when a selector names a code the list does not hold (a rule added to
    the registry since it was generated), those of the registry.
    """
    layers = [
        _Layer(
            config.select if config.select is not None else (ALL_SELECTOR,),
            config.extend_select,
            config.ignore,
        ),
        _Layer(options.select, options.extend_select, options.ignore),
    ]
    selectors = [selector for layer in layers for selector in (*(layer.select or ()), *layer.extend_select)]
    universe = known_codes() if generated_list_answers(selectors) else registered_codes()
    return select_codes(universe, layers)


def per_file_ignored(config: Config, path: Path) -> tuple[str, ...]:
    """The selectors ``config``'s ``per-file-ignores`` apply to the file at ``path``."""
    ignored: list[str] = []
    for glob, codes in config.per_file_ignores:
        if matches_any(path, config.root, (glob,)):
            ignored.extend(codes)
    return tuple(ignored)


def codes_for_file(config: Config, options: CommandLineCodes, path: Path) -> frozenset[str]:
    """The codes that run for the file at ``path``, per-file-ignores included."""
    codes = enabled_codes(config, options)
    ignored = per_file_ignored(config, path)
    if not ignored:
        return codes
    return frozenset(code for code in codes if _specificity(code, ignored) < 0)


def settings_for(config: Config, codes: frozenset[str]) -> LintSettings:
    """The engine's settings for a file: its configuration and its codes."""
    from semantics_lint.lint.core.settings import LintSettings

    values: dict[str, Any] = {"enabled": codes}
    if config.api_modules is not None:
        values["api_modules"] = config.api_modules
    if config.call_names is not None:
        values["call_names"] = config.call_names
    return LintSettings(**values)
