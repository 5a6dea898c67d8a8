"""The same defects through names bound once in this module or in the function."""

from __future__ import annotations

from datetime import datetime

from semantics_lint.runtime import absent, define_tool, described_result

from .exports import load_rows

DAY = "2024-05-01"
STAMP = datetime(2024, 5, 1)
AGE = -5
EMPTY: list[dict[str, object]] = []
TRIAGE = "triage"
INVENTORY = "inventory"
ODD_CLASS = "report"


def backup_day(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm, "backed_up": runs[-1]["ok"] == 1}],
        provenance={
            "measuredAt": DAY,  # expect: SEM203
            "source": "backup export",
        },
    )


def backup_stamp(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm, "backed_up": runs[-1]["ok"] == 1}],
        provenance={
            "measuredAt": STAMP,  # expect: SEM203
            "source": "backup export",
        },
    )


def backup_clock(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    now = datetime.now()
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm, "backed_up": runs[-1]["ok"] == 1}],
        provenance={
            "measuredAt": now,  # expect: SEM204
            "source": "backup export",
            "ageSeconds": AGE,  # expect: SEM205
        },
    )


def backup_none(vm: str) -> dict[str, object]:
    export = load_rows("export_meta")[0]
    return described_result(
        facts=EMPTY,  # expect: SEM105
        provenance={"measuredAt": export["exported_at"], "source": "backup export"},
    )


def backup_part(vm: str) -> dict[str, object]:
    runs = load_rows(f"runs_{vm}")
    if not runs:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    prov = {"measuredAt": "2024-05-01", "source": "backup export"}
    return described_result(
        facts=[{"entity": vm, "backed_up": runs[-1]["ok"] == 1}],
        provenance=prov,  # expect: SEM203
    )


def vm_health(vm: str) -> dict[str, object]:
    checks = load_rows(f"health_{vm}")
    if not checks:
        return absent(what=f"health checks of {vm}", checked=["the monitoring export"])
    return described_result(  # expect: SEM602
        facts=[{"entity": vm, "failing": sum(1 for c in checks if not c["ok"])}],
        provenance={"measuredAt": checks[0]["polled_at"], "source": "monitoring"},
    )


def vm_list(site: str) -> dict[str, object]:
    vms = load_rows(f"vms_{site}")
    if not vms:
        return absent(what=f"VMs at {site}", checked=["the CMDB export"])
    return described_result(  # expect: SEM603
        facts=[{"entity": v["name"]} for v in vms],
        provenance={"measuredAt": vms[0]["exported_at"], "source": "cmdb"},
        coverage={"checked": [f"every VM of {site} in the CMDB export"]},
    )


def unguarded(site: str) -> dict[str, object]:
    rows = load_rows(f"vms_{site}")
    return described_result(
        facts=rows,  # expect: SEM604
        provenance={"measuredAt": "exported", "source": "cmdb"},
    )


HEALTH = define_tool(name="vm_health", resultClass=TRIAGE, execute=vm_health)
LIST = define_tool(name="vm_list", resultClass=INVENTORY, execute=vm_list)
ODD = define_tool(name="vm_odd", resultClass=ODD_CLASS, execute=backup_day)  # expect: SEM601
