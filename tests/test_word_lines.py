"""``word_lines`` (the search that tells the locator and the resolver which lines
spell a name) finds the lines a single regex with a look-behind in front finds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.lint.context import word_lines


def _reference(text: str, names: list[str]) -> list[int]:
    """The search as it was: one regex, a look-behind and a look-ahead."""
    wanted = sorted(set(names))
    if not wanted:
        return []
    pattern = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, wanted)) + r")(?![\w])")
    found: list[int] = []
    line = 1
    position = 0
    for match in pattern.finditer(text):
        # Counted from one match to the next, as the search always has (an empty
        # name can match between \r and \n, and then both count).
        chunk = text[position : match.start()]
        line += chunk.count("\n") + chunk.count("\r") - chunk.count("\r\n")
        position = match.start()
        if not found or found[-1] != line:
            found.append(line)
    return found


def test_whole_words_only() -> None:
    text = "absent(x)\nxabsent = 1\nabsent_ = 2\ny = cov.absent\n\u00e9absent\n"
    assert word_lines(text, ["absent"]) == [1, 4]


def test_a_refused_match_hides_no_later_one() -> None:
    # "xa.b" refuses "a.b" (a word character before it) but "b" after the dot counts.
    assert word_lines("xa.b\n", ["a.b", "b"]) == [1]
    assert word_lines("za.b\nq\n", ["a.b"]) == []


def test_line_breaks_as_cpython_counts_them() -> None:
    assert word_lines("a\r\nb\ra\n\x0ca\n", ["a"]) == [1, 3, 4]


_TEXT = st.text(alphabet=st.sampled_from(list("ab_.x \n\r\u00e9\u0660(")), max_size=40)
_NAME = st.text(alphabet=st.sampled_from(list("ab_.x\u00e9")), max_size=3)


@settings(max_examples=400, deadline=None)
@given(text=_TEXT, names=st.lists(_NAME, max_size=3))
def test_agrees_with_a_look_behind_regex(text: str, names: list[str]) -> None:
    assert word_lines(text, names) == _reference(text, names)


_ANY_TEXT = st.text(alphabet=st.sampled_from(list("ab_.x \n\r\t\u00e9\u00bd\u0660(=")), max_size=80)
_ANY_NAME = st.text(alphabet=st.sampled_from(list("ab_.x\n\r\u00e9")), max_size=4)


@settings(max_examples=600, deadline=None)
@given(text=_ANY_TEXT, names=st.lists(_ANY_NAME, max_size=5))
def test_agrees_with_a_look_behind_regex_whatever_the_names(text: str, names: list[str]) -> None:
    # Names with line breaks or empty take the regex searches, the others str.find.
    assert word_lines(text, names) == _reference(text, names)


def test_overlapping_names_and_repeats() -> None:
    text = "absent absentee absent\nab.absent\r\nabsent_ = absent\rx"
    for names in (["absent", "absentee"], ["ab", "absent"], ["ab.absent", "absent"], ["x"]):
        assert word_lines(text, names) == _reference(text, names)
