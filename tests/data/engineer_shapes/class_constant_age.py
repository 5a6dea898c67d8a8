from semantics_lint.runtime import absent, described_result


class Freshness:
    MAX_AGE = -300

    def report(self, export):
        if not export.rows:
            return absent(what="rows", checked=["the export"])
        return described_result(facts=[{"entity": r} for r in export.rows], provenance={"measuredAt": export.at, "source": "s3", "ageSeconds": self.MAX_AGE})  # expect: SEM205
