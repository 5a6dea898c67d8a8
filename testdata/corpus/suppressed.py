"""legacy_quota: known findings, suppressed on their line with flake8's noqa."""

from __future__ import annotations

from semantics_lint.runtime import described_result

from .exports import load_rows


def legacy_quota(tenant: str) -> dict[str, object]:
    rows = load_rows(f"quota_{tenant}")
    return described_result(
        facts=[{"entity": tenant, "quota_gib": rows[0]["quota"]}],
        provenance={
            "measured_at": rows[0]["read_at"],  # noqa: SEM102
            "source": "netapp",
            "source_export_date": rows[0]["day"],  # NOQA
        },
    )
