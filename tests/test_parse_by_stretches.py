"""A long text parsed a stretch of top-level statements at a time is ``ast.parse``'s tree.

``source.parse_module`` parses a text of ``PARSED_WHOLE_BELOW`` characters or more in
stretches, to hold one stretch's C tree at a time instead of the whole file's. Here the
threshold is lowered to 0 and the stretches made as short as they go, so every line
that may start a statement starts a stretch; the tree (every node and position) or the
exception must be the one ``ast.parse`` gives for the whole text.
"""

from __future__ import annotations

import ast
import os
import tracemalloc
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.lint.core import source
from semantics_lint.lint.core.source import parse_module
from semantics_lint.lint.engine import lint_source


def _outcome(parse: object, text: str) -> str:
    try:
        tree = parse(text, "<stretches>")  # type: ignore[operator]
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return f"{type(exc).__name__}: {exc.args!r}"
    return ast.dump(tree, include_attributes=True)


def _by_stretches(text: str, name: str) -> ast.Module:
    return parse_module(text, name, stretch=1)


def _whole(text: str, name: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text, filename=name)


@pytest.fixture(autouse=True)
def _always_by_stretches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "PARSED_WHOLE_BELOW", 0)


# Lines that start at column 0 without starting a statement of their own, and texts
# whose parse is not local.
CASES = {
    "clauses": "if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\nafter = 1\n",
    "try": "try:\n    f()\nexcept* E:\n    pass\nelse:\n    pass\nfinally:\n    g()\n",
    "try-except": "try:\n    f()\nexcept E:\n    pass\nx = 1\n",
    "loop-else": "for i in x:\n    pass\nelse:\n    done = 1\nwhile y:\n    pass\nelse: pass\n",
    "names-like-clauses": "elsewhere = 1\nexceptional = 2\nfinally_ = 3\nelifant = 4\n",
    "string": 'x = """\ny = 1\nelse:\n"""\nz = 2\n',
    "string-statement": "'''\ndef f(): pass\n'''\nq = 1\n",
    "brackets": "X = [\n1,\n2,\n]\nd = {\n'a': 1,\n}\ncall(\narg)\n",
    "backslash": "x = 1 + \\\n2\ny = 3\n",
    "decorators": "@dec\n@other(1)\ndef f():\n    pass\n@dec\nclass C:\n    pass\n",
    "comments": "# one\nx = 1\n# two\n\n\ny = 2  # three\n#four\n",
    "crlf": "x = 1\r\ny = [\r\n2]\r\nif a:\r\n    pass\r\nelse:\r\n    pass\r\n",
    "bare-cr": "x = 1\ry = 2\rz = (\r3)\n",
    "form-feed": "x = 1\n\x0c\ny = 2\n\x0cz = 3\n",
    "tabs": "if a:\n\tx = 1\nelse:\n\tx = 2\n",
    "non-ascii": "s = 'é€'\nt = '😀'; u = s\nv = 1\n",
    "match": "match x:\n    case 1:\n        pass\n    case _:\n        pass\ny = 2\n",
    "async": "async def f():\n    await g()\nasync_ = 1\n",
    "barry-not-equal": "from __future__ import barry_as_FLUFL\nx = 1\ny = 1 <> 2\n",
    "barry-refuses-bang": "from __future__ import barry_as_FLUFL\nx = 1\ny = 1 != 2\n",
    "future-late": "x = 1\nfrom __future__ import annotations\n",
    "error-last": "x = 1\ny = 2\nz = (\n",
    "error-middle": "x = 1\ny = = 2\nz = 3\n",
    "error-first": "def f(:\n    pass\nx = 1\n",
    "indentation-error": "x = 1\nif a:\npass\ny = 2\n",
    "unexpected-indent": "x = 1\n  y = 2\nz = 3\n",
    "unclosed-string": "x = 1\ny = '''\nz = 3\n",
    "null-byte": "x = 1\ny = 2\x00\nz = 3\n",
    "no-final-newline": "x = 1\ny = 2",
    "only-comments": "# a\n# b\n",
    "empty-lines": "\n\n\nx = 1\n\n\n",
    "nested": "x = " + "(" * 50 + "1" + ")" * 50 + "\ny = 2\n",
    "too-nested": "x = " + "(" * 300 + "1" + ")" * 300 + "\ny = 2\n",
}


@pytest.mark.parametrize("text", CASES.values(), ids=CASES.keys())
def test_a_text_by_stretches_is_the_whole_parse(text: str) -> None:
    assert _outcome(_by_stretches, text) == _outcome(_whole, text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(list(CASES.values())), min_size=1, max_size=6), st.integers(1, 40))
def test_any_sequence_of_cases_by_stretches_is_the_whole_parse(pieces: list[str], stretch: int) -> None:
    text = "".join(pieces)
    by_stretches = _outcome(lambda t, n: parse_module(t, n, stretch=stretch), text)
    assert by_stretches == _outcome(_whole, text)


def _standard_library_sample() -> list[Path]:
    folder = Path(os.__file__).parent
    files = sorted(folder.glob("*.py")) + sorted(folder.glob("json/*.py"))
    return files[::12]


@pytest.mark.parametrize("path", _standard_library_sample(), ids=lambda path: path.name)
def test_a_standard_library_module_by_stretches_is_the_whole_parse(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert _outcome(_by_stretches, text) == _outcome(_whole, text)


def test_a_short_text_is_parsed_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "PARSED_WHOLE_BELOW", 100)
    asked: list[str] = []
    real = ast.parse

    def counted(text: str, *args: object, **kwargs: object) -> ast.Module:
        asked.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(source.ast, "parse", counted)
    parse_module("x = 1\ny = 2\n", stretch=1)
    assert asked == ["x = 1\ny = 2\n"]
    long_text = "".join(f"name_{i} = {i}\n" for i in range(20))
    asked.clear()
    parse_module(long_text, stretch=1)
    assert len(asked) == 20


def test_a_long_text_is_parsed_in_a_bounded_number_of_stretches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each stretch is parsed after the line breaks before it, so a text cut into
    stretches of a fixed size would cost its lines times its stretches: the number of
    stretches is bounded, and the cost stays linear in the text."""
    parsed: list[int] = []
    real = ast.parse

    def counted(text: str, *args: object, **kwargs: object) -> ast.Module:
        parsed.append(len(text))
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(source.ast, "parse", counted)
    line = "'" + "x" * 998 + "'\n"  # one statement a line: a boundary on every line
    text = line * 8_000  # 8 MB
    tree = parse_module(text)
    assert len(tree.body) == 8_000
    assert 16 <= len(parsed) <= 40  # not one stretch, and not 8 MB / 64 KB = 123 of them
    short = line * 300  # 300 KB: stretches of the least size
    parsed.clear()
    parse_module(short)
    assert len(parsed) == -(-len(short) // source._STRETCH)


@pytest.mark.parametrize("threshold", [0, 1 << 20], ids=["by-stretches", "whole"])
def test_the_parsers_warnings_about_a_file_are_not_the_linters(
    monkeypatch: pytest.MonkeyPatch, threshold: int
) -> None:
    """``1if x else 2`` and ``"\\d"`` make CPython's parser warn; the linter's stderr
    is its own, so they are not written (and a stretch parsed twice cannot write one
    twice)."""
    monkeypatch.setattr(source, "PARSED_WHOLE_BELOW", threshold)
    text = b'from semantics_lint.runtime import described_result\nx = 1if y else 2\nz = "\\d"\nw = (\n1)\n'
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lint_source(text, "warned.py") == []


def test_parsing_by_stretches_holds_less_memory_at_once() -> None:
    """CPython holds a text's whole C tree while it builds the Python one; by stretches
    it holds one stretch's. The peak of Python's allocations (the C tree is allocated
    through them) must fall well below the one-piece parse's."""
    text = "".join(
        f"def tool_{i}(export):\n"
        f"    prov = {{'measuredAt': export['at'], 'source': 'src-{i}'}}\n"
        f"    return described_result(facts=[{{'entity': export['vm'], 'n': {i}}}], provenance=prov)\n\n"
        for i in range(2000)
    )
    assert len(text) > 200_000

    def peak(parse: object) -> int:
        tracemalloc.start()
        try:
            tree = parse(text, "<memory>")  # type: ignore[operator]
            _, highest = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        del tree
        return highest

    whole = peak(_whole)
    by_stretches = peak(lambda t, n: parse_module(t, n))
    assert by_stretches < 0.75 * whole, (by_stretches, whole)
