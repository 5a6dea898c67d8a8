"""What git ignores: ``.gitignore`` files read and weighed as git weighs them.

git decides one path at a time, top down, and never looks below a folder it ignores
(``git help gitignore``: "It is not possible to re-include a file if a parent
directory of that file is excluded"). For one file or folder:

* the ignore files that apply are the ``.gitignore`` of every folder above it up to
  the top of the work tree, then ``.git/info/exclude``; the deepest file with a
  matching line decides, and within a file the last matching line (``!`` says "not
  ignored");
* a line without ``/`` but at its end (``*``, ``*.py``, ``build/``) is matched against
  the name alone, at any depth below its file's folder; any other line against the
  path relative to that folder (a leading ``/`` only anchors it);
* a line ending in ``/`` (``!*/``) is about folders only;
* the line is a ``wildmatch`` pattern: ``*`` and ``?`` never match ``/``, ``**``
  between slashes (or at either end) matches any number of folders, ``[...]`` is a
  set of bytes (``!`` or ``^`` negates it, ``[:alpha:]`` and its kind are ASCII
  classes), ``\\`` quotes the next byte; a line with a trailing ``\\``, an unclosed
  ``[`` or an unknown ``[:class:]`` matches nothing;
* lines are split at LF (a CR before it is dropped), a first UTF-8 BOM is skipped,
  empty lines and lines starting with ``#`` are skipped, and trailing spaces are
  dropped unless quoted with ``\\``.

Every line becomes one regular expression over the path's bytes (``os.fsencode``),
and the lines of a file one alternation, last line first: the first alternative that
matches is git's last matching line. So one file answers a path with one match, for
folders and for files.

The walk (``discovery.py``) asks :func:`is_gitignored` of each entry it meets and
does not enter a folder that is ignored; before it starts it weighs every folder
between the top of the work tree and the folder it walks the same way, since git
ignores all that an ignored folder holds. ``core.excludesFile`` (a user's global
ignore file) is not read: what is linted does not depend on the user's home.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import NamedTuple

__all__ = [
    "IgnoreFile",
    "find_git_root",
    "is_gitignored",
    "parse_gitignore",
    "pattern_regex",
]

_STAR, _QUESTION, _OPEN, _CLOSE, _BACKSLASH = (ord(c) for c in "*?[]\\")
_SLASH, _DASH, _COLON = ord("/"), ord("-"), ord(":")
_SLASH_CLASS = frozenset({_SLASH})
_NEVER = b"(?!)"
_SPECIAL = re.compile(rb"[*?\[\\]")

_ASCII = range(128)
_CLASSES: dict[bytes, frozenset[int]] = {
    b"alnum": frozenset(c for c in _ASCII if chr(c).isalnum()),
    b"alpha": frozenset(c for c in _ASCII if chr(c).isalpha()),
    b"blank": frozenset(b" \t"),
    b"cntrl": frozenset([*range(32), 127]),
    b"digit": frozenset(b"0123456789"),
    b"graph": frozenset(range(33, 127)),
    b"lower": frozenset(range(ord("a"), ord("z") + 1)),
    b"print": frozenset(range(32, 127)),
    b"punct": frozenset(c for c in range(33, 127) if not chr(c).isalnum()),
    b"space": frozenset(b" \t\n\r"),
    b"upper": frozenset(range(ord("A"), ord("Z") + 1)),
    b"xdigit": frozenset(b"0123456789abcdefABCDEF"),
}
"""git's wildmatch classes, on its own ASCII ctype (``space`` is tab, LF, CR, space)."""


def _bracket(pattern: bytes, start: int) -> tuple[frozenset[int], int] | None:
    """The bytes the ``[...]`` opening at ``start`` matches, and the index of its ``]``;
    None when git's wildmatch aborts on it (unclosed, an unknown class)."""
    end = len(pattern)
    p = start + 1
    if p >= end:
        return None
    negated = pattern[p] in b"!^"
    if negated:
        p += 1
    members: set[int] = set()
    previous = 0
    while True:
        if p >= end:
            return None
        char = pattern[p]
        if char == _BACKSLASH:
            p += 1
            if p >= end:
                return None
            char = pattern[p]
            members.add(char)
        elif char == _DASH and previous and p + 1 < end and pattern[p + 1] != _CLOSE:
            p += 1
            char = pattern[p]
            if char == _BACKSLASH:
                p += 1
                if p >= end:
                    return None
                char = pattern[p]
            members.update(range(previous, char + 1))
            char = 0
        elif char == _OPEN and p + 1 < end and pattern[p + 1] == _COLON:
            close = pattern.find(b"]", p + 2)
            if close < 0:
                return None
            name = pattern[p + 2 : close]
            if not name.endswith(b":"):
                members.add(_OPEN)  # no ":]": a plain "[", and the ":" comes next
            else:
                known = _CLASSES.get(name[:-1])
                if known is None:
                    return None
                members.update(known)
                char = 0
                p = close
        else:
            members.add(char)
        previous = char
        p += 1
        if p >= end:
            return None
        if pattern[p] == _CLOSE:
            break
    matched = (set(range(256)) - members) if negated else members
    return frozenset(matched) - _SLASH_CLASS, p


def _class_regex(members: frozenset[int]) -> bytes:
    """A regular expression's class of the bytes ``members``, as runs of bytes."""
    if not members:
        return _NEVER
    runs: list[bytes] = []
    ordered = sorted(members)
    first = last = ordered[0]
    for byte in [*ordered[1:], -1]:
        if byte == last + 1:
            last = byte
            continue
        runs.append(b"\\x%02x" % first if first == last else b"\\x%02x-\\x%02x" % (first, last))
        first = last = byte
    return b"[" + b"".join(runs) + b"]"


def pattern_regex(pattern: bytes, *, pathname: bool) -> bytes | None:
    """git's ``wildmatch`` of ``pattern`` as a regular expression over bytes, for a
    whole path (``pathname``: ``**`` crosses folders) or a name; None when the pattern
    can match nothing."""
    if not _SPECIAL.search(pattern):
        return re.escape(pattern)
    out: list[bytes] = []
    end = len(pattern)
    i = 0
    while i < end:
        char = pattern[i]
        if char == _STAR:
            j = i
            while j < end and pattern[j] == _STAR:
                j += 1
            at_boundary = pathname and j - i >= 2 and (i == 0 or pattern[i - 1] == _SLASH)
            if at_boundary and j == end:
                out.append(b".*")
            elif at_boundary and pattern[j] == _SLASH:
                out.append(b"(?:.*/)?")
                j += 1
            elif at_boundary and pattern[j : j + 2] == b"\\/":
                out.append(b".*")
            else:
                out.append(b"[^/]*")
            i = j
            continue
        if char == _QUESTION:
            out.append(b"[^/]")
        elif char == _BACKSLASH:
            i += 1
            if i >= end:
                return None
            out.append(re.escape(pattern[i : i + 1]))
        elif char == _OPEN:
            bracket = _bracket(pattern, i)
            if bracket is None:
                return None
            members, i = bracket
            out.append(_class_regex(members))
        else:
            out.append(re.escape(pattern[i : i + 1]))
        i += 1
    return b"".join(out)


def _trim_trailing_spaces(line: bytes) -> bytes:
    """git's ``trim_trailing_spaces``: spaces at the end go, unless quoted by ``\\``."""
    if not line.endswith(b" "):
        return line
    last_space = -1
    i = 0
    while i < len(line):
        char = line[i]
        if char == 0x20:
            if last_space < 0:
                last_space = i
        elif char == _BACKSLASH:
            i += 1
            if i >= len(line):
                return line
            last_space = -1
        else:
            last_space = -1
        i += 1
    return line[:last_space] if last_space >= 0 else line


class _Line(NamedTuple):
    regex: bytes | None
    negative: bool
    folders_only: bool


def _parse_line(line: bytes) -> _Line:
    """One pattern line as git's ``parse_path_pattern`` reads it."""
    negative = line.startswith(b"!")
    if negative:
        line = line[1:]
    folders_only = line.endswith(b"/")
    if folders_only:
        line = line[:-1]
    if b"/" not in line:
        body = pattern_regex(line, pathname=False)
        regex = None if body is None else b"(?:.*/)?" + body
    else:
        regex = pattern_regex(line.removeprefix(b"/"), pathname=True)
    return _Line(regex, negative, folders_only)


def _lines(data: bytes) -> list[bytes]:
    """The pattern lines of an ignore file's bytes, as git's ``add_patterns_from_buffer``."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    found = []
    for raw in data.split(b"\n"):
        if not raw or raw.startswith(b"#"):
            continue
        found.append(_trim_trailing_spaces(raw.removesuffix(b"\r")))
    return found


_BLOCK = 32
"""Lines per alternation. Python's regular expressions slow down with the number of
groups in one pattern (a 100,000-line alternation: 15 s a path); in blocks of 32 a
path costs about 12 ms against 100,000 lines, and one match against a file of fewer."""


class _Block(NamedTuple):
    """One alternation of lines, last line first, and whether each alternative (by
    group number, from 1) is a ``!`` line."""

    regex: re.Pattern[bytes]
    negative: tuple[bool, ...]


def _blocks(lines: Sequence[_Line]) -> tuple[_Block, ...]:
    """``lines`` as alternations of at most :data:`_BLOCK` lines, the last lines first."""
    kept = [line for line in reversed(lines) if line.regex is not None]
    blocks = []
    for start in range(0, len(kept), _BLOCK):
        chunk = kept[start : start + _BLOCK]
        joined = b"|".join(b"(" + (line.regex or _NEVER) + b")" for line in chunk)
        blocks.append(_Block(re.compile(joined, re.DOTALL), tuple(line.negative for line in chunk)))
    return tuple(blocks)


class IgnoreFile(NamedTuple):
    """The lines of one ignore file, relative to the folder ``base`` (absolute):
    ``files`` those that apply to a file, ``folders`` to a folder."""

    base: str
    files: tuple[_Block, ...]
    folders: tuple[_Block, ...]

    def verdict(self, path: str, is_dir: bool) -> bool | None:
        """True: ignored; False: a ``!`` line re-includes it; None: no line matches."""
        blocks = self.folders if is_dir else self.files
        if not blocks:
            return None
        prefix = self.base if self.base.endswith(os.sep) else self.base + os.sep
        if not path.startswith(prefix) or len(path) == len(prefix):
            return None
        relative = path[len(prefix) :]
        if os.sep != "/":  # pragma: no cover - Windows
            relative = relative.replace(os.sep, "/")
        subject = os.fsencode(relative)
        for block in blocks:
            match = block.regex.fullmatch(subject)
            if match is not None:
                return not block.negative[(match.lastindex or 1) - 1]
        return None


def parse_gitignore(base: str, data: bytes | str) -> IgnoreFile | None:
    """The rules of one ignore file's ``data`` relative to ``base``; None when it has none."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    lines = [_parse_line(line) for line in _lines(data)]
    folders = _blocks(lines)
    if not folders:
        return None
    return IgnoreFile(base, _blocks([line for line in lines if not line.folders_only]), folders)


def is_gitignored(path: str, is_dir: bool, stack: Sequence[IgnoreFile]) -> bool:
    """What the ignore files in ``stack`` (outermost first) say about ``path`` itself:
    the deepest file with a matching line decides, as in git. The folders above
    ``path`` are not weighed here: a walk never enters an ignored one."""
    for ignore_file in reversed(stack):
        verdict = ignore_file.verdict(path, is_dir)
        if verdict is not None:
            return verdict
    return False


def find_git_root(folder: str) -> str | None:
    """The top of the git work tree holding ``folder`` (absolute), or None outside one."""
    current = folder
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def info_exclude_path(root: str) -> str | None:
    """Where the work tree at ``root`` keeps its ``info/exclude``: in its ``.git`` folder,
    or, when ``.git`` is a file (a linked work tree, a submodule), in the git folder it
    names (``gitdir: ...``), or the common one that folder names (``commondir``);
    None when ``.git`` cannot be read as either."""
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git):
        return os.path.join(dot_git, "info", "exclude")
    git_dir = _pointer(dot_git, b"gitdir:", root)
    if git_dir is None:
        return None
    common = _pointer(os.path.join(git_dir, "commondir"), b"", git_dir)
    return os.path.join(common if common is not None else git_dir, "info", "exclude")


def _pointer(path: str, key: bytes, relative_to: str) -> str | None:
    """The path a small git file (``.git``, ``commondir``) holds after ``key``, made
    absolute against ``relative_to``; None when it cannot be read so."""
    from semantics_lint.reading import Unreadable, read_regular

    try:
        data = read_regular(path, 4096)
    except Unreadable:
        return None
    line = data.split(b"\n", 1)[0].removesuffix(b"\r")
    if not line.startswith(key):
        return None
    target = os.fsdecode(line[len(key) :].strip())
    if not target:
        return None
    return os.path.normpath(os.path.join(relative_to, target))
