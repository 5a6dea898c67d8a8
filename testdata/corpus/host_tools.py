"""Host tools declared with define_tool: the class rules, before anything runs (defective)."""

from __future__ import annotations

from semantics_lint.runtime import absent, define_tool, described_result

from .exports import load_rows


def list_hosts(site: str) -> dict[str, object]:
    hosts = load_rows(f"hosts_{site}")
    if not hosts:
        return absent(what=f"hosts at {site}", checked=["the CMDB export"])
    return described_result(  # expect: SEM603
        facts=[{"entity": h["fqdn"], "os": h["os"]} for h in hosts],
        provenance={"measuredAt": hosts[0]["exported_at"], "source": "cmdb"},
        coverage={"checked": [f"every host of {site} in the CMDB export"]},
    )


def host_health(fqdn: str) -> dict[str, object]:
    checks = load_rows(f"health_{fqdn}")
    if not checks:
        return absent(what=f"health checks of {fqdn}", checked=["the monitoring export"])
    return described_result(  # expect: SEM602
        facts=[{"entity": fqdn, "failing": sum(1 for c in checks if not c["ok"])}],
        provenance={"measuredAt": checks[0]["polled_at"], "source": "monitoring"},
    )


def host_report(fqdn: str) -> dict[str, object]:
    checks = load_rows(f"health_{fqdn}")
    if not checks:
        return absent(what=f"health checks of {fqdn}", checked=["the monitoring export"])
    return described_result(
        facts=[{"entity": fqdn, "checks": len(checks)}],
        provenance={"measuredAt": checks[0]["polled_at"], "source": "monitoring"},
    )


HOSTS = define_tool(name="list_hosts", resultClass="inventory", execute=list_hosts)
HEALTH = define_tool(name="host_health", resultClass="triage", execute=host_health)
REPORT = define_tool(name="host_report", resultClass="report", execute=host_report)  # expect: SEM601
