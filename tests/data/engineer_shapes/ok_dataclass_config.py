from dataclasses import dataclass

from semantics_lint.runtime import absent, described_result


@dataclass
class Config:
    exported_at: str = "2024-01-01T00:00:00Z"
    source: str = "cmdb"

    def report(self, rows):
        if not rows:
            return absent(what="rows", checked=[self.source])
        return described_result(facts=[{"entity": r} for r in rows], provenance={"measuredAt": self.exported_at, "source": self.source})


def run(rows, at):
    config = Config(exported_at=at)
    return config.report(rows)
