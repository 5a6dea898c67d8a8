"""The SEM rule catalog, one module per family.

``ALL_RULES`` lists every rule class in code order; ``get_rule(code)`` finds one.
A new rule is a class in its family's module, added to the family's tuple at the end
of that module (``KEY_RULES``, ``PROVENANCE_RULES``...), which ``ALL_RULES`` below
gathers; the example tests and ``docs/rules.md`` pick it up from here.
``specific_code`` says which rule claims a refusal of the runtime (every family is
loaded here, so every claim is known).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from semantics_lint.lint.rules.base import Invalid, Rule, Valid, specific_code
from semantics_lint.lint.rules.sem0xx_noqa import UnusedNoqa
from semantics_lint.lint.rules.sem0xx_syntax import UnparsableFile
from semantics_lint.lint.rules.sem1xx_data import DATA_RULES
from semantics_lint.lint.rules.sem1xx_keys import KEY_RULES
from semantics_lint.lint.rules.sem1xx_refusals import REFUSAL_RULES
from semantics_lint.lint.rules.sem1xx_rows import ROW_RULES
from semantics_lint.lint.rules.sem2xx_clock import CLOCK_RULES
from semantics_lint.lint.rules.sem2xx_provenance import PROVENANCE_RULES
from semantics_lint.lint.rules.sem3xx_grain import GRAIN_RULES
from semantics_lint.lint.rules.sem4xx_coverage import COVERAGE_RULES
from semantics_lint.lint.rules.sem4xx_items import ITEM_RULES
from semantics_lint.lint.rules.sem4xx_period import PERIOD_RULES
from semantics_lint.lint.rules.sem5xx_clarify_render import CLARIFY_RENDER_RULES
from semantics_lint.lint.rules.sem6xx_data_variable import DATA_VARIABLE_RULES
from semantics_lint.lint.rules.sem6xx_tools import TOOL_RULES
from semantics_lint.lint.rules.sem7xx_claims import CLAIMS_RULES

if TYPE_CHECKING:
    from semantics_lint.lint.core.settings import LintSettings

__all__ = ["ALL_RULES", "Invalid", "Rule", "Valid", "get_rule", "rules_for", "specific_code"]

ALL_RULES: tuple[type[Rule], ...] = tuple(
    sorted(
        (
            UnparsableFile,
            UnusedNoqa,
            *REFUSAL_RULES,
            *KEY_RULES,
            *DATA_RULES,
            *ROW_RULES,
            *PROVENANCE_RULES,
            *CLOCK_RULES,
            *GRAIN_RULES,
            *COVERAGE_RULES,
            *ITEM_RULES,
            *PERIOD_RULES,
            *CLARIFY_RENDER_RULES,
            *TOOL_RULES,
            *DATA_VARIABLE_RULES,
            *CLAIMS_RULES,
        ),
        key=lambda rule: rule.code,
    )
)

_BY_CODE: dict[str, type[Rule]] = {rule.code: rule for rule in ALL_RULES}
if len(_BY_CODE) != len(ALL_RULES):
    raise RuntimeError("two rules share a code")


def get_rule(code: str) -> type[Rule]:
    """The rule class for ``code`` (case-insensitive); KeyError when there is none."""
    return _BY_CODE[code.upper()]


def rules_for(settings: LintSettings) -> tuple[list[Rule], list[Rule]]:
    """The enabled rules: (call rules, module rules). A rule keeps nothing about a file
    (its hooks get a ``Check``), so one instance of each serves every file."""
    call_rules, module_rules = _enabled(settings)
    return list(call_rules), list(module_rules)


@lru_cache(maxsize=16)
def _enabled(settings: LintSettings) -> tuple[tuple[Rule, ...], tuple[Rule, ...]]:
    # The enabled rules and which hooks each defines, worked out once per settings
    # (a run has one or a few), not once per file.
    enabled = [
        _instance(rule)  # type: ignore[arg-type]  # a class is hashable; mypy asks its instances
        for rule in ALL_RULES
        if settings.is_enabled(rule.code)
    ]
    return (
        tuple(rule for rule in enabled if rule.visits_calls()),
        tuple(rule for rule in enabled if rule.has_hook("visit_module")),
    )


@lru_cache(maxsize=None)
def _instance(rule: type[Rule]) -> Rule:
    return rule()
