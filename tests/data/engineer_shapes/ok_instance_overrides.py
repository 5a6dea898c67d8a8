from semantics_lint.runtime import absent, described_result


class PatchAudit:
    EXPORTED_AT = "2024-02-14T08:00:00Z"

    def __init__(self, export):
        self.EXPORTED_AT = export.exported_at

    def run(self, hosts):
        if not hosts:
            return absent(what="unpatched hosts", checked=["WSUS"])
        return described_result(facts=[{"entity": h} for h in hosts], provenance={"measuredAt": self.EXPORTED_AT, "source": "wsus"})
