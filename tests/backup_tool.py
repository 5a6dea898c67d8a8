"""The tool every framework adapter's tests serve: one VM's backup posture.

Each framework's test module wraps :func:`backup_status` in a function of its own (the
same name, signature and docstring, so each framework builds the same input schema)
that adds the exception its framework treats specially.
"""

from __future__ import annotations

import asyncio
from typing import Any

from semantics_lint.runtime import absent, described_result

EXPORT = {"exported_at": "2026-05-01T06:00:00Z", "source": "backup export"}


def backup_status(vm: str, days: int = 7) -> dict[str, Any]:
    """A described result for ``vm``; an absence for ``vm-unknown``; a refusal (no
    provenance) for ``vm-no-source``; a ``KeyError`` for ``vm-broken``."""
    if vm == "vm-unknown":
        return absent(what=f"backup runs for {vm}", checked=["every backup job in the export"])
    if vm == "vm-no-source":
        return described_result(facts=[{"entity": vm, "backed_up": True}])
    if vm == "vm-broken":
        raise KeyError(vm)
    return described_result(
        facts=[{"entity": vm, "backed_up": True, "days": days, "site": "Zürich"}],
        provenance={"measuredAt": EXPORT["exported_at"], "source": EXPORT["source"]},
        coverage={
            "checked": [f"every backup job in the export of {EXPORT['exported_at']}"],
            "cannotCover": [{"what": "PPDM", "why": "not collected on this install"}],
        },
        render={"default": "table", "columns": ["entity", "backed_up"], "sort": "entity"},
    )


async def vm_backup_status_async(vm: str) -> dict[str, Any]:
    await asyncio.sleep(0)
    return backup_status(vm)
