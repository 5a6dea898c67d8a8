from semantics_lint.runtime import absent, described_result


class Inventory:
    PROVENANCE = {"measuredAt": "2024-01-31", "source": "snipe-it"}

    def laptops(self, assets):
        found = [{"entity": a.tag} for a in assets if a.kind == "laptop"]
        if not found:
            return absent(what="laptops", checked=["Snipe-IT"])
        return described_result(facts=found, provenance=self.PROVENANCE)  # expect: SEM203
