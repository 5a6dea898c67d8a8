"""Right ``define_tool`` definitions: both checkers are silent, the door accepts each."""

from __future__ import annotations

from typing import Any

from semantics_lint.runtime import (
    Tool,
    ToolDefinition,
    ToolSemantics,
    define_tool,
    defineTool,
    described_result,
)


def _backup_status(vm: str) -> ToolSemantics:
    return described_result(
        facts=[{"entity": vm, "backed_up": True}],
        provenance={"measuredAt": "the export of 02:00", "source": "cohesity-export"},
        coverage={"checked": ["every backup job in the export"]},
    )


def right_every_field() -> object:
    tool = define_tool(
        name="vm_backup_status",
        description="Backup posture for one VM across the Cohesity clusters",
        resultClass="triage",
        inputSchema={"type": "object", "properties": {"vm": {"type": "string"}}},
        execute=_backup_status,
    )
    return tool("vm-01")


def right_name_and_execute_only() -> Tool:
    return define_tool(name="vm_backup_status", execute=_backup_status)


def right_one_dict_and_the_camel_case_alias() -> Tool:
    definition: ToolDefinition = {
        "name": "inventory",
        "resultClass": "inventory",
        "execute": _backup_status,
    }
    return defineTool(definition)


async def _lookup(**arguments: Any) -> dict[str, Any]:
    return {"found": sorted(arguments)}


def right_async_execute() -> Tool:
    return define_tool(name="lookup", execute=_lookup)
