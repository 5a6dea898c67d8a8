"""SEM7xx: the claim contract of a run's final answer, ``run_record(claims=...)``.

The runtime refuses a contract nobody could have meant where it is declared
(``refused: claims: ...``, ``runtime.claims.check.claim_contract``); SEM701 reports the same
refusal, asked of the runtime itself through ``lint.calls.verdicts``, on the literal
contract written in the source, so the two doors agree. What is not written with
literals is never guessed: a value read from a name or a call is taken as valid.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from semantics_lint import vocabulary
from semantics_lint.lint.calls.verdicts import WRONG_TYPE, Refusal, claims_refusal
from semantics_lint.lint.core.index import IMPORT, IMPORT_FROM, FileIndex, Scope
from semantics_lint.lint.core.syntax import (
    UNKNOWN,
    dotted_name,
    is_dict_form,
    iter_dict_items,
    last_wins,
    literal_of,
)
from semantics_lint.lint.rules.base import Check, Invalid, Rule, Valid

_NAMES = frozenset(name for names in vocabulary.CLAIMS_CALLS.values() for name in names)
_STAND_IN = "x"
"""What an entity or field not written as a literal is taken to be: a valid text."""


def _claims_calls(index: FileIndex) -> Iterator[ast.Call]:
    """The ``run_record(...)`` calls of the module, where the name is provably the
    runtime's (imported from its module, or an attribute of the module imported)."""
    for name in sorted(_NAMES):
        for call, scope in index.calls.get(name, ()):
            if _is_ours(index, call.func, scope):
                yield call


def _is_ours(index: FileIndex, func: ast.expr, scope: Scope) -> bool:
    if isinstance(func, ast.Name):
        looked_up = index.lookup(func.id, scope)
        if looked_up is None:
            return False
        return all(
            binding.kind == IMPORT_FROM
            and isinstance(binding.statement, ast.ImportFrom)
            and not binding.statement.level
            and isinstance(binding.node, ast.alias)
            and binding.node.name in vocabulary.CLAIMS_CALLS.get(binding.statement.module or "", ())
            for binding in looked_up[1]
        )
    dotted = dotted_name(func)
    if dotted is None:
        return False
    head, _, rest = dotted.partition(".")
    module_rest, _, name = rest.rpartition(".")
    looked_up = index.lookup(head, scope)
    if looked_up is None or not looked_up[1]:
        return False
    modules = set()
    for binding in looked_up[1]:
        alias, statement = binding.node, binding.statement
        if binding.kind == IMPORT and isinstance(alias, ast.alias):
            modules.add(alias.name if alias.asname else head)
        elif (
            binding.kind == IMPORT_FROM
            and isinstance(alias, ast.alias)
            and isinstance(statement, ast.ImportFrom)
            and not statement.level
        ):
            modules.add(f"{statement.module}.{alias.name}")
        else:
            return False
    if len(modules) != 1:
        return False
    module = modules.pop() + (f".{module_rest}" if module_rest else "")
    return name in vocabulary.CLAIMS_CALLS.get(module, ())


def _contract_node(call: ast.Call) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == vocabulary.CLAIMS_KEYWORD:
            return keyword.value
    return None


class ClaimsContractRefused(Rule):
    """
    ## What it does
    Reports a claim contract, `run_record(claims={...})`, that the runtime refuses
    where it is declared: a contract that is not a dict, or names no answer field; an
    answer field that is not text; an entry that is not a dict
    `{"entity": ..., "field": ...}`; an entity or field missing, not text, or blank.

    ## Why is this bad?
    The contract is the edge the unsupported-claim check joins the final answer on:
    each answer field is compared with the fact `field(entity)` the run settled. A blank
    half joins the wrong subjects, and an empty contract checks nothing while looking
    like it does. `run_record` raises `refused: claims: ...` before the run starts;
    this rule says so in the editor. Leave `claims` out to check no answer.

    ## Known problems
    Only literals are judged: an entity or field read from a variable, a contract
    built by a function, or an entry a later `**spread` or computed key of the dict
    may replace, is left to the runtime.
    """

    code = "SEM701"
    name = "claims-contract-refused"

    VALID = (
        Valid(
            """
            from semantics_lint.runtime import run_record

            with run_record(claims={"protected_jobs": {"entity": "fleet", "field": "jobs_local"}}) as run:
                run.check_claims(answer)
            """
        ),
        Valid(
            """
            from semantics_lint.runtime import run_record

            def check(answer, fleet):
                with run_record(claims={"jobs": {"entity": fleet, "field": "jobs_local"}}) as run:
                    return run.check_claims(answer)
            """
        ),
        Valid(
            """
            def run_record(claims):  # not the runtime's
                return claims

            run_record(claims={})
            """
        ),
    )
    INVALID = (
        Invalid(
            """
            from semantics_lint.runtime import run_record

            with run_record(claims={"protected_jobs": {"entity": "", "field": "jobs_local"}}) as run:
                run.check_claims(answer)
            """,
            line=3,
            column=53,
            field="protected_jobs",
        ),
        Invalid(
            """
            from semantics_lint import runtime

            with runtime.run_record(claims={}) as run:
                run.check_claims(answer)
            """,
            line=3,
            column=31,
            field="names no answer field",
        ),
        Invalid(
            """
            from semantics_lint.runtime import run_record

            CONTRACT = {"jobs": "fleet.jobs_local"}
            with run_record(claims={"jobs": {"field": "jobs_local"}}) as run:
                pass
            """,
            line=4,
            column=32,
            field="entity",
        ),
    )

    def visit_module(self, check: Check) -> None:
        for call in _claims_calls(check.file.index):
            node = _contract_node(call)
            if node is not None:
                self._judge(check, node)

    def _judge(self, check: Check, node: ast.expr) -> None:
        whole = literal_of(node)
        if whole is None:
            return  # claims=None declares no contract
        if whole is not UNKNOWN and not isinstance(whole, dict):
            self._report(check, node, claims_refusal(whole))
            return
        if not is_dict_form(node):
            return  # a name, a call: left to the runtime
        items = _kept(node)
        if not items:
            self._report(check, node, claims_refusal({}))
            return
        # Of keys written twice that are one key (1 and True), the dict keeps the first.
        first: dict[object, object] = {}
        for item in items:
            if item is not None:
                first.setdefault(item[0], item[0])
        for item in last_wins(items):
            if item is None:
                continue  # a spread, a computed key, or an entry they may replace
            key, key_node, value = item
            entry = _entry(value)
            if entry is UNKNOWN:
                continue
            refusal = claims_refusal({first[key]: entry})
            if refusal is not None:
                self._report(check, _where(refusal, key, key_node, value), refusal)

    def _report(self, check: Check, node: ast.AST, refusal: Refusal | None) -> None:
        if refusal is None:
            return
        check.report_ast(
            node,  # type: ignore[arg-type]
            str(refusal),
            help="run_record(...) raises this refusal before the run starts: the check "
            "joins each answer field of the contract on a non-empty entity and field",
        )


def _kept(node: ast.expr) -> list[tuple[object, ast.AST, ast.expr] | None]:
    """The items of a dict display or ``dict(...)`` call (:func:`iter_dict_items`), each
    that a later ``**spread`` or computed key of a display may replace made None (not
    known) too. A keyword of ``dict(...)`` stands: a spread holding it raises."""
    items = list(iter_dict_items(node))
    if isinstance(node, ast.Dict):
        hidden = False
        for position in reversed(range(len(items))):
            if items[position] is None:
                hidden = True
            elif hidden:
                items[position] = None
    return items


def _entry(value: ast.expr) -> object:
    """The literal entry, with a stand-in for each entity or field not written as a
    literal; UNKNOWN when the entry itself is not readable."""
    literal = literal_of(value)
    if literal is not UNKNOWN:
        return literal
    if not is_dict_form(value):
        return UNKNOWN
    entry: dict[object, object] = {}
    open_entry = False
    for item in _kept(value):
        if item is None:
            open_entry = True
            continue
        key, _, half = item
        found = literal_of(half)
        entry[key] = _STAND_IN if found is UNKNOWN else found
    if open_entry:  # a spread may give the halves not written
        for half_key in vocabulary.CLAIM_KEYS:
            entry.setdefault(half_key, _STAND_IN)
    return entry


def _where(refusal: Refusal, key: object, key_node: ast.AST, value: ast.expr) -> ast.AST:
    path = refusal.path
    if len(path) == 1:
        return key_node if not isinstance(key, str) and refusal.kind == WRONG_TYPE else value
    if len(path) == 2:
        written = [item[2] for item in _kept(value) if item is not None and item[0] == path[1]]
        if written:
            return written[-1]  # the value the dict keeps
    return value


CLAIMS_RULES: tuple[type[Rule], ...] = (ClaimsContractRefused,)
