from semantics_lint.runtime import absent, described_result

STAMPS = ("2024-06-30T23:59:59Z", "2024-07-01T00:00:00Z")


def capacity(pools):
    if not pools:
        return absent(what="storage pools", checked=["array inventory"])
    facts = [{"entity": p.name, "free_gb": p.free} for p in pools]
    return described_result(facts=facts, provenance={"measuredAt": STAMPS[0], "source": "inventory"})  # expect: SEM203
