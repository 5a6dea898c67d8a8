"""Load the reference's verdicts in testdata/conformance/ as pytest parameters."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

CONFORMANCE_DIR = Path(__file__).resolve().parent.parent / "testdata" / "conformance"


def cases(kind: str) -> list[Any]:
    """Every case of one kind as a ``pytest.param`` whose id is the case id."""
    data = json.loads((CONFORMANCE_DIR / f"{kind}.json").read_text(encoding="utf-8"))
    assert data, f"no conformance cases for {kind}"
    return [pytest.param(case, id=case["id"]) for case in data]


def strict_equal(a: Any, b: Any) -> bool:
    """JSON equality that keeps bools apart from numbers (``True != 1`` here)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b
