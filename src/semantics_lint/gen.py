"""Regenerate the checked-in files derived from code: ``python -m semantics_lint.gen``.

Derived files: ``canonical-notes.json`` (from the vocabulary), the rule reference
shipped in the package, ``rules.md`` (from the rule classes: the ``url`` of a JSON
finding points into it when the project's metadata names no ``Rules`` URL), and, in
a source checkout, the same reference as ``docs/rules.md``. Tests fail when a
checked-in copy drifts and print this command.
"""

from __future__ import annotations

import json
from pathlib import Path

from semantics_lint import vocabulary

PACKAGE_DIR = Path(__file__).resolve().parent
CANONICAL_NOTES = PACKAGE_DIR / "canonical-notes.json"
RULES_DOC = PACKAGE_DIR.parent.parent / "docs" / "rules.md"
"""The rule reference; it exists only in a source checkout (src/ layout), not in a wheel."""
SHIPPED_RULES_DOC = PACKAGE_DIR / "rules.md"
"""The same reference inside the package, shipped in the wheel."""


def render_canonical_notes() -> str:
    return json.dumps(vocabulary.canonical_notes(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    CANONICAL_NOTES.write_text(render_canonical_notes(), encoding="utf-8")
    print(f"wrote {CANONICAL_NOTES}")
    reference = render_rules_doc()
    SHIPPED_RULES_DOC.write_text(reference, encoding="utf-8")
    print(f"wrote {SHIPPED_RULES_DOC}")
    if RULES_DOC.parent.is_dir():
        RULES_DOC.write_text(reference, encoding="utf-8")
        print(f"wrote {RULES_DOC}")


def render_rules_doc() -> str:
    # Imported here: the rule modules import LibCST, which the notes do not need.
    from semantics_lint.lint.docs import render_all

    return render_all()


if __name__ == "__main__":
    main()
