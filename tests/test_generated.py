"""Generated files are generated whole and never stale.

Each file ``python -m semantics_lint.gen`` writes is compared, byte for byte, with what
the generator renders now; each says at its top that it is generated and by which
command; and none is written into a hand-written module.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from semantics_lint import gen

FILES = gen.generated_files()


def _name(path: Path) -> str:
    return path.name if path.parent == gen.PACKAGE_DIR else f"docs/{path.name}"


def test_every_generated_file_is_listed() -> None:
    names = {_name(path) for path, _ in FILES}
    assert {"canonical-notes.json", "vocabulary_codes.py", "rules.md"} <= names
    assert {"docs/rules.md", "docs/declaration-keys.md"} <= names  # a source checkout


@pytest.mark.parametrize(("path", "render"), FILES, ids=[_name(path) for path, _ in FILES])
def test_a_generated_file_is_what_the_generator_writes(path: Path, render: object) -> None:
    assert callable(render)
    assert path.is_file(), f"{_name(path)} is missing; run: {gen.COMMAND}"
    assert path.read_text(encoding="utf-8") == render(), f"{_name(path)} is stale; run: {gen.COMMAND}"


@pytest.mark.parametrize(("path", "render"), FILES, ids=[_name(path) for path, _ in FILES])
def test_a_generated_file_says_so_and_names_its_command(path: Path, render: object) -> None:
    head = "\n".join(path.read_text(encoding="utf-8").splitlines()[:3])
    assert "enerated" in head and gen.COMMAND in head


def test_a_stale_file_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the check above reads, with one code more in the registry than on disk.
    from types import SimpleNamespace

    from semantics_lint.lint import rules

    monkeypatch.setattr(rules, "ALL_RULES", (*rules.ALL_RULES, SimpleNamespace(code="SEM699")))
    assert gen.VOCABULARY_CODES.read_text(encoding="utf-8") != gen.render_vocabulary_codes()


def test_the_vocabulary_is_written_by_hand() -> None:
    text = (gen.PACKAGE_DIR / "vocabulary.py").read_text(encoding="utf-8")
    assert "enerated" not in text.split("\n", 1)[0]
    assert "RULE_CODES: Final = (" not in text  # the codes live in vocabulary_codes.py
