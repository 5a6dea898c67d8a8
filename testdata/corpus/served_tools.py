"""Host tools served through the framework adapters: the class rules read result_class (defective)."""

from __future__ import annotations

from semantics_lint.frameworks import openai_agents
from semantics_lint.frameworks.langchain import tool
from semantics_lint.frameworks.mcp import served
from semantics_lint.runtime import absent, described_result

from .exports import load_rows


@served(result_class="triage")
def patch_status(fqdn: str) -> dict[str, object]:
    patches = load_rows(f"patches_{fqdn}")
    if not patches:
        return absent(what=f"patches of {fqdn}", checked=["the patch export"])
    return described_result(  # expect: SEM602
        facts=[{"entity": fqdn, "missing": len(patches)}],
        provenance={"measuredAt": patches[0]["exported_at"], "source": "patch-export"},
    )


def disk_inventory(site: str) -> dict[str, object]:
    disks = load_rows(f"disks_{site}")
    if not disks:
        return absent(what=f"disks at {site}", checked=["the storage export"])
    return described_result(  # expect: SEM603
        facts=[{"entity": d["serial"], "size_gb": d["size_gb"]} for d in disks],
        provenance={"measuredAt": disks[0]["exported_at"], "source": "storage-export"},
        coverage={"checked": [f"every disk of {site} in the storage export"]},
    )


def uptime_report(fqdn: str) -> dict[str, object]:
    boots = load_rows(f"boots_{fqdn}")
    return described_result(
        facts=boots,  # expect: SEM604
        provenance={"measuredAt": "now", "source": "boot-log"},
        coverage={"checked": ["the boot log"]},
    )


DISKS = openai_agents.function_tool(disk_inventory, result_class="inventory")
UPTIME = tool(uptime_report, result_class="report")  # expect: SEM601
