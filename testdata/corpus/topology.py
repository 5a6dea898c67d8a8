"""replication_topology: which array replicates to which (defective rows)."""

from __future__ import annotations

from semantics_lint.runtime import described_result

from .exports import load_rows


def replication_topology(site: str) -> dict[str, object]:
    links = load_rows(f"links_{site}")
    return described_result(
        edges=[
            {"from": "array-a", "to": "array-b", "kind": "srdf"},
            {"from": "array-b", "to": "array-c"},  # expect: SEM106
        ],
        facts=[{"entity": site, "links": len(links)}],
        provenance={"measuredAt": links[0]["read_at"], "source": "unisphere"},
    )


def isolated_arrays(site: str) -> dict[str, object]:
    links = load_rows(f"links_{site}")
    return described_result(
        edges=(),  # expect: SEM105
        facts=[{"entity": site, "links": len(links)}],
        provenance={"measuredAt": links[0]["read_at"], "source": "unisphere"},
    )


def array_links(site: str) -> dict[str, object]:
    links = load_rows(f"links_{site}")
    return described_result(
        facts=[{"entity": site, "links": len(links)}],
        edges={"from": "array-a", "to": "array-b", "kind": "srdf"},  # expect: SEM100
        provenance={"measuredAt": links[0]["read_at"], "source": "unisphere"},
        render={"default": "table", "sort": None},  # expect: SEM100
    )
