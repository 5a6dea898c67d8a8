from semantics_lint.runtime import absent, described_result

from .constants import EXPORT


def prefixes(rows):
    if not rows:
        return absent(what="prefixes", checked=["NetBox"])
    return described_result(facts=[{"entity": r.prefix} for r in rows], provenance={"measuredAt": EXPORT["taken_at"], "source": EXPORT["source"]})  # expect: SEM203
