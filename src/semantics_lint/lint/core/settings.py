"""What the engine recognizes and which rules it runs, and the textual prefilter.

The settings are plain data, made once per configuration (a run has one or a few); the
prefilter's byte strings are worked out once per set of names and modules.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from semantics_lint import vocabulary

__all__ = ["DEFAULT_SETTINGS", "LintSettings", "might_contain_calls"]


class LintSettings(NamedTuple):
    """What the engine recognizes and which rules it runs.

    ``api_modules``: modules whose ``absent``/``coverage``/``define_tool`` are ours.
    ``call_names``: names recognized as ``described_result`` by name alone.
    ``enabled``: codes to run; None runs every rule.
    """

    api_modules: tuple[str, ...] = vocabulary.DEFAULT_API_MODULES
    call_names: tuple[str, ...] = vocabulary.DESCRIBED_RESULT_NAMES
    enabled: frozenset[str] | None = None

    def is_enabled(self, code: str) -> bool:
        return self.enabled is None or code in self.enabled


@lru_cache(maxsize=64)
def _needles(
    call_names: tuple[str, ...], api_modules: tuple[str, ...]
) -> tuple[tuple[bytes, ...], tuple[bytes, ...], tuple[bytes, ...]]:
    """The prefilter's byte strings for these names and modules, worked out once.

    The names recognized alone; the API functions (and ``described_result`` when it
    is not among those names), recognized only through an import from an API module,
    so only beside the first component of such a module's name, which any such
    import spells.
    """
    names = tuple(w.encode("utf-8") for w in call_names)
    imported = (*vocabulary.DESCRIBED_RESULT_NAMES, *vocabulary.API_FUNCTIONS)
    functions = tuple(w.encode("utf-8") for w in imported if w not in call_names)
    modules = tuple(dict.fromkeys(m.split(".", 1)[0].strip().encode("utf-8") for m in api_modules))
    return names, functions, modules


_ADAPTER_MODULE: bytes = next(iter(vocabulary.ADAPTERS)).split(".", 1)[0].encode("utf-8")
"""The first component of the adapters' modules, which any import of one spells."""
_ADAPTER_NAMES: tuple[bytes, ...] = tuple(
    dict.fromkeys(name.encode("utf-8") for names in vocabulary.ADAPTERS.values() for name in names)
)
_CLAIMS_NAMES: tuple[bytes, ...] = tuple(
    dict.fromkeys(name.encode("utf-8") for names in vocabulary.CLAIMS_CALLS.values() for name in names)
)


DEFAULT_SETTINGS = LintSettings()


def might_contain_calls(text: str | bytes, settings: LintSettings = DEFAULT_SETTINGS) -> bool:
    """False when ``text`` provably holds no call of ours.

    True when a name recognized alone (``described_result``) occurs in it, or an API
    function name (``absent``...; ``described_result`` too when it is not a name
    recognized alone) together with the first component of an API module
    (``semantics_lint``): those are recognized only when imported from an API module,
    and that import spells the module; likewise an adapter's name (``served``...) with
    the first component of the adapters' modules, whatever the API modules are, and a
    claim contract's call (``run_record``) with the first component of its module. Plain
    substring searches: it may say True for a file without calls (a comment,
    ``coverage`` in a word), never False for a file with one.
    """
    data = text.encode("utf-8", errors="surrogatepass") if isinstance(text, str) else text
    names, functions, modules = _needles(settings.call_names, settings.api_modules)
    if any(name in data for name in names):
        return True
    if any(module in data for module in modules) and any(function in data for function in functions):
        return True
    return _ADAPTER_MODULE in data and (
        any(name in data for name in _ADAPTER_NAMES) or any(name in data for name in _CLAIMS_NAMES)
    )
