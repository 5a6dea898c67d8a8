"""Wrong ``define_tool`` definitions: each draws a type error on its marked line, and
``define_tool`` refuses each at definition."""

from __future__ import annotations

from semantics_lint.runtime import Tool, define_tool


def _run(vm: str) -> str:
    return vm


def wrong_snake_case_result_class() -> Tool:
    return define_tool(name="vm_backup_status", execute=_run, result_class="triage")  # type-error


def wrong_result_class_outside_the_classes() -> Tool:
    return define_tool(name="vm_backup_status", execute=_run, resultClass="audit")  # type-error


def wrong_execute_not_callable() -> Tool:
    return define_tool(name="vm_backup_status", execute="vm_backup_status")  # type-error


def wrong_snake_case_in_one_dict() -> Tool:
    return define_tool({"name": "vm_backup_status", "execute": _run, "input_schema": {}})  # type-error
