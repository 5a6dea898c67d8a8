"""Regenerate the checked-in files derived from code: ``python -m semantics_lint.gen``.

Every derived file is written whole, begins by saying it is generated and by which
command, and is never edited by hand (``tests/test_generated.py`` fails when one is
stale, and names this command):

* ``canonical-notes.json``, from the vocabulary;
* ``vocabulary_codes.py``, the rule codes, from the rule registry (the vocabulary
  imports it, so selection reads the codes without importing the rules);
* ``rules.md``, the rule reference shipped in the package (the ``url`` of a JSON
  finding points into it when the project's metadata names no ``Rules`` URL), and in a
  source checkout the same reference as ``docs/rules.md``, from the rule classes;
* in a source checkout, ``docs/declaration-keys.md``, the keys of each declaration
  type, from ``semantics_lint.runtime.types``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from semantics_lint import vocabulary

PACKAGE_DIR = Path(__file__).resolve().parent
DOCS_DIR = PACKAGE_DIR.parent.parent / "docs"
"""The documentation; it exists only in a source checkout (src/ layout), not in a wheel."""
CANONICAL_NOTES = PACKAGE_DIR / "canonical-notes.json"
VOCABULARY_CODES = PACKAGE_DIR / "vocabulary_codes.py"
SHIPPED_RULES_DOC = PACKAGE_DIR / "rules.md"
"""The rule reference inside the package, shipped in the wheel."""
RULES_DOC = DOCS_DIR / "rules.md"
"""The same reference in the documentation."""
DECLARATION_KEYS_DOC = DOCS_DIR / "declaration-keys.md"

COMMAND = "python -m semantics_lint.gen"


def render_canonical_notes() -> str:
    return json.dumps(vocabulary.canonical_notes(), indent=2, ensure_ascii=False) + "\n"


def render_vocabulary_codes() -> str:
    """``vocabulary_codes.py``: every rule code of the registry, in code order."""
    from semantics_lint.lint.rules import ALL_RULES

    codes = "".join(f'    "{rule.code}",\n' for rule in ALL_RULES)
    return (
        f"# Generated from the rule registry (semantics_lint.lint.rules) by `{COMMAND}`;\n"
        "# do not edit.\n"
        '"""Every static rule code, stable, in code order (docs/rules.md documents each).\n\n'
        "Selection (``--select``, ``ignore``) and ``# noqa`` resolve against this list\n"
        'without importing the rule modules; ``semantics_lint.vocabulary`` re-exports it."""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Final\n\n"
        f"RULE_CODES: Final = (\n{codes})\n"
    )


def render_rules_doc() -> str:
    # Imported here: the rule modules are not needed for the notes.
    from semantics_lint.lint.rule_docs import render_all

    return render_all()


DECLARATION_TYPES = (
    "Grain",
    "Provenance",
    "Coverage",
    "CoverageItem",
    "CannotCoverItem",
    "Clarify",
    "Render",
    "Period",
    "PeriodSpan",
    "InProgressItem",
    "SeriesPoint",
    "Fact",
    "Edge",
    "SeriesDeclaration",
    "FactsDeclaration",
    "EdgesDeclaration",
    "ClarifyDeclaration",
    "DescribedResultFields",
    "AbsenceDeclaration",
    "AbsenceFields",
    "CoverageDeclaration",
    "ToolDefinition",
    "ToolDefinitionFields",
)
"""The declaration types (camelCase) of ``semantics_lint.runtime.types``, in the table's order."""
_UNDOCUMENTED = {"PeriodSpan": "The span of a period's ``held``.", "Edge": "One edge of a graph."}


def _first_sentence(text: str) -> str:
    flat = " ".join(text.split())
    end = flat.find(". ")
    sentence = flat if end < 0 else flat[: end + 1]
    return re.sub(r":\w+:`", "`", sentence.replace("``", "`")).replace("|", "\\|")


def render_declaration_keys() -> str:
    """``docs/declaration-keys.md``: each declaration type's keys, required ones in bold."""
    from semantics_lint.runtime.envelope import types

    rows = []
    for name in DECLARATION_TYPES:
        declared = getattr(types, name)
        required = declared.__required_keys__
        keys = ", ".join(f"**{key}**" if key in required else key for key in declared.__annotations__)
        about = _first_sentence(declared.__doc__ or _UNDOCUMENTED[name])
        rows.append(f"| `{name}` | {keys} | {about} |\n")
    return (
        f"<!-- Generated from semantics_lint.runtime.types by `{COMMAND}`; do not edit. -->\n\n"
        "# Declaration types and their keys\n\n"
        "The keys of each declaration type (camelCase, what a tool author writes), as\n"
        "`semantics_lint.runtime.types` defines them; required keys in bold. See\n"
        "[types.md](types.md) for what the types catch and where they differ from the runtime.\n\n"
        "| type | keys (required in bold) | what it is |\n"
        "|---|---|---|\n" + "".join(rows)
    )


def generated_files() -> list[tuple[Path, Callable[[], str]]]:
    """Each generated file and what renders it (the documentation only in a checkout)."""
    files: list[tuple[Path, Callable[[], str]]] = [
        (CANONICAL_NOTES, render_canonical_notes),
        (VOCABULARY_CODES, render_vocabulary_codes),
        (SHIPPED_RULES_DOC, render_rules_doc),
    ]
    if DOCS_DIR.is_dir():
        files += [(RULES_DOC, render_rules_doc), (DECLARATION_KEYS_DOC, render_declaration_keys)]
    return files


def main() -> None:
    for path, render in generated_files():
        text = render()
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
