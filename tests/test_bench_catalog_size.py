"""``bench/catalog_size.py`` works (its figures are measured there, never here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "catalog_size.py"


def test_the_three_ways_agree_and_the_bounded_report_is_smaller(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH), "--results", "300", "--work-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "verdicts agree" in result.stdout
    data = json.loads(result.stdout.splitlines()[-1])
    runs = {way: samples[0] for way, samples in data["samples"].items()}
    assert {run["verdict"] for run in runs.values()} == {"FAILED: 300 errors, 0 warnings"}
    assert runs["gate"]["report_mb"] < runs["gate-all"]["report_mb"] == runs["whole"]["report_mb"]
    assert list(tmp_path.iterdir()) == []  # the scratch catalog is gone
