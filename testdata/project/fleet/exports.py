"""Where the tools read their data (stands in for a real export reader)."""

from __future__ import annotations


def load_rows(name: str) -> list[dict[str, object]]:
    raise NotImplementedError(name)
