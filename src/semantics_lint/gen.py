"""Regenerate the checked-in files derived from code: ``python -m semantics_lint.gen``.

Derived files: ``canonical-notes.json`` (from the vocabulary). Tests fail when a
checked-in copy drifts and print this command.
"""

from __future__ import annotations

import json
from pathlib import Path

from semantics_lint import vocabulary

PACKAGE_DIR = Path(__file__).resolve().parent
CANONICAL_NOTES = PACKAGE_DIR / "canonical-notes.json"


def render_canonical_notes() -> str:
    return json.dumps(vocabulary.canonical_notes(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    CANONICAL_NOTES.write_text(render_canonical_notes(), encoding="utf-8")
    print(f"wrote {CANONICAL_NOTES}")


if __name__ == "__main__":
    main()
