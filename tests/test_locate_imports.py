"""The locator's walk for import statements finds every import a full walk finds,
in every kind of statement that holds statements."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from semantics_lint.lint.locate import _imports

_NESTED = '''
import a
if x:
    import b
elif y:
    from c import d
else:
    import e
for i in z:
    import f
else:
    import g
while w:
    import h
else:
    import i2
with m:
    import j
try:
    import k
except E:
    import l
else:
    import m2
finally:
    import n
def fn():
    import o
    class C:
        from p import q
        async def g():
            async with r:
                import s
            async for t in u:
                import v
match subject:
    case 1:
        import w2
    case _:
        from . import x2
'''

_STAR = '''
try:
    import a
except* E:
    import b
'''


def _reference(tree: ast.AST) -> set[int]:
    return {id(node) for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))}


def _sources() -> list[str]:
    texts = [_NESTED]
    if sys.version_info >= (3, 11):
        texts.append(_STAR)
    root = Path(__file__).resolve().parents[1] / "src"
    texts.extend(path.read_text(encoding="utf-8") for path in sorted(root.rglob("*.py")))
    return texts


@pytest.mark.parametrize("text", _sources())
def test_imports_agree_with_a_full_walk(text: str) -> None:
    tree = ast.parse(text)
    found = [id(node) for node in _imports(tree)]
    assert len(found) == len(set(found))
    assert set(found) == _reference(tree)
    # Looking only at the statements on lines that hold "import" finds the same.
    found = [id(node) for node in _imports(tree, text)]
    assert len(found) == len(set(found))
    assert set(found) == _reference(tree)


def test_nested_imports_are_all_found() -> None:
    assert len(list(_imports(ast.parse(_NESTED)))) == 19
    assert len(list(_imports(ast.parse(_NESTED), _NESTED))) == 19


_SHARED_LINES = (
    "x = 1; import a; y = 2\n"
    "if x: import b\n"
    "else: from c import (\n    d,\n)\n"
    "try: pass\nexcept E: import e\n"
    "@deco\ndef f(): import g; return 1\n"
    "class C: from h import i\n"
    "z = 3\r\nimport j\rfrom \\\n k \\\n import l\n"
)


def test_imports_on_shared_and_continued_lines_are_found() -> None:
    tree = ast.parse(_SHARED_LINES)
    found = [id(node) for node in _imports(tree, _SHARED_LINES)]
    assert len(found) == len(set(found)) == 8
    assert set(found) == _reference(tree)
