"""Regenerate the checked-in files derived from code: ``python -m semantics_lint.gen``.

Derived files: ``canonical-notes.json`` (from the vocabulary), the rule reference
shipped in the package, ``rules.md`` (from the rule classes: the ``url`` of a JSON
finding points into it when the project's metadata names no ``Rules`` URL), in a
source checkout the same reference as ``docs/rules.md``, and the list of rule codes in
``vocabulary.py`` (from the rule registry). Tests fail when a checked-in copy drifts
and print this command.
"""

from __future__ import annotations

import json
import re
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


VOCABULARY = PACKAGE_DIR / "vocabulary.py"
_CODES_BLOCK = re.compile(r"(# begin rule codes\n).*?(# end rule codes\n)", re.S)


def render_vocabulary(text: str) -> str:
    """``vocabulary.py``'s text with its rule codes those of the rule registry."""
    from semantics_lint.lint.rules import ALL_RULES

    codes = "".join(f'    "{rule.code}",\n' for rule in ALL_RULES)
    return _CODES_BLOCK.sub(lambda m: f"{m.group(1)}RULE_CODES: Final = (\n{codes})\n{m.group(2)}", text, count=1)


def main() -> None:
    CANONICAL_NOTES.write_text(render_canonical_notes(), encoding="utf-8")
    print(f"wrote {CANONICAL_NOTES}")
    vocabulary_text = VOCABULARY.read_text(encoding="utf-8")
    rendered = render_vocabulary(vocabulary_text)
    if rendered != vocabulary_text:
        VOCABULARY.write_text(rendered, encoding="utf-8")
        print(f"wrote {VOCABULARY}")
    reference = render_rules_doc()
    SHIPPED_RULES_DOC.write_text(reference, encoding="utf-8")
    print(f"wrote {SHIPPED_RULES_DOC}")
    if RULES_DOC.parent.is_dir():
        RULES_DOC.write_text(reference, encoding="utf-8")
        print(f"wrote {RULES_DOC}")


def render_rules_doc() -> str:
    # Imported here: the rule modules import LibCST, which the notes do not need.
    from semantics_lint.lint.rule_docs import render_all

    return render_all()


if __name__ == "__main__":
    main()
