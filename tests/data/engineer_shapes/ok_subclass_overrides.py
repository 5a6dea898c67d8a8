from semantics_lint.runtime import absent, described_result


class Base:
    SOURCE = ""

    def report(self, rows, export):
        if not rows:
            return absent(what="rows", checked=["the export"])
        return described_result(facts=[{"entity": r} for r in rows], provenance={"measuredAt": export.at, "source": self.SOURCE})


class Netbox(Base):
    SOURCE = "netbox"
