# Generated from the rule registry (semantics_lint.lint.rules) by `python -m semantics_lint.gen`;
# do not edit.
"""Every static rule code, stable, in code order (docs/rules.md documents each).

Selection (``--select``, ``ignore``) and ``# noqa`` resolve against this list
without importing the rule modules; ``semantics_lint.vocabulary`` re-exports it."""

from __future__ import annotations

from typing import Final

RULE_CODES: Final = (
    "SEM001",
    "SEM002",
    "SEM100",
    "SEM101",
    "SEM102",
    "SEM103",
    "SEM104",
    "SEM105",
    "SEM106",
    "SEM201",
    "SEM202",
    "SEM203",
    "SEM204",
    "SEM205",
    "SEM301",
    "SEM302",
    "SEM303",
    "SEM401",
    "SEM402",
    "SEM403",
    "SEM404",
    "SEM405",
    "SEM406",
    "SEM501",
    "SEM502",
    "SEM601",
    "SEM602",
    "SEM603",
    "SEM604",
    "SEM701",
)
