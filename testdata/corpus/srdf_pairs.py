"""srdf_pair_state: a verdict with its boundary attached (clean)."""

from __future__ import annotations

from semantics_lint.runtime import coverage

from .exports import load_rows


def srdf_pair_state(array_ids: list[str]) -> dict[str, object]:
    pairs = load_rows("srdf_pairs")
    verdict = {"split": [p for p in pairs if p["state"] == "Split"], "arrays": array_ids}
    return coverage(
        verdict,
        checked=[f"SRDF pair state on all {len(array_ids)} arrays"],
        notChecked=[{"what": "NDM sessions", "why": "the API timed out"}],
        period={
            "queried": {"from": pairs[0]["window_start"], "to": pairs[0]["window_end"]},
            "held": "unknown",
            "readAt": pairs[0]["read_at"],
        },
    )
