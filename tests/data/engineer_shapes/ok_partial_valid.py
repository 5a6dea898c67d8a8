from functools import partial

from semantics_lint.runtime import described_result


def format_row(row, measured_at):
    return {"entity": row.name, "measured_at": measured_at}


def make_reply(export):
    as_row = partial(format_row, measured_at=export.at)
    reply = partial(described_result, provenance={"source": "vcenter", "measuredAt": export.at})
    return reply, as_row
