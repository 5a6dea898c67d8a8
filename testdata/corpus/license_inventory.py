"""license_inventory: seats per product (defective spellings)."""

from __future__ import annotations

from semantics_lint.runtime import absent, described_result

from .exports import load_rows


def license_inventory(product: str) -> dict[str, object]:
    export = load_rows("licenses")
    seats = [row for row in export if row["product"] == product]
    if not seats:
        return absent(what=f"licenses of {product}", checked=["the license server export"])
    return described_result(
        series=[{"t": s["day"], "entity": product, "metric": "seats", "value": s["used"]} for s in seats],
        grain={"interval": "daily", "aggregation": "max", "is_counter": False},  # expect: SEM102
        provenance={
            "measuredAt": seats[-1]["exported_at"],
            "source": "flexlm",
            "age_seconds": 60,  # expect: SEM102
        },
        render={"default": "chart", "chart_hint": "line"},  # expect: SEM102
    )
