"""Which files ``semantics-lint check PATHS`` lints.

Explicit file paths are taken as given (whatever their name, even when a
configuration or ``.gitignore`` would exclude them), as ruff and flake8 do, so
that pre-commit, editors and scripts that name one file get that file linted.
Folders are walked for ``*.py`` and ``*.pyi`` files, skipping:

* ``.git`` and every virtual environment (any folder holding ``pyvenv.cfg``),
  always;
* the configuration's ``exclude`` globs (default :data:`DEFAULT_EXCLUDE`) plus its
  ``extend-exclude`` globs, from the configuration that governs each folder;
* what ``.gitignore`` files ignore.

``.gitignore`` is read with the small matcher in this module rather than by
running ``git check-ignore``: the walk then needs no ``git`` executable, gives the
same answer inside and outside a work tree, and costs no process per run. The
``.gitignore`` files read are those in the walked folders, plus those between a
walked folder and the top of its git work tree (the nearest ancestor with a
``.git``) and that work tree's ``.git/info/exclude``; outside a work tree no
ancestor's ``.gitignore`` is read, so a stray file higher up changes nothing.

Globs (``exclude``, ``extend-exclude``, ``per-file-ignores``) read like
``.gitignore`` lines: a glob without ``/`` matches the name of a file or folder at
any depth (``generated``, ``*_pb2.py``); a glob with ``/`` matches the path
relative to the folder of the configuration file (``legacy/*.py``,
``tools/**/fixtures``). A glob that matches a folder matches all it holds.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from semantics_lint.lint.config import Config, ConfigResolver

PYTHON_SUFFIXES = (".py", ".pyi")

DEFAULT_EXCLUDE: tuple[str, ...] = (
    ".bzr",
    ".eggs",
    ".hg",
    ".mypy_cache",
    ".nox",
    ".pytest_cache",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    "__pycache__",
    "build",
    "dist",
    "node_modules",
    "venv",
)
"""Folders skipped unless the configuration's ``exclude`` replaces this list."""

ALWAYS_SKIPPED = frozenset({".git"})
VENV_MARKER = "pyvenv.cfg"
STDIN_PATH = "-"


class DiscoveryError(Exception):
    """A path given on the command line that cannot be linted (e.g. it does not exist)."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to lint: ``path`` absolute, ``display`` the name findings carry."""

    path: Path
    display: str


# ---------------------------------------------------------------------------
# Globs
# ---------------------------------------------------------------------------


def _translate_segment_glob(pattern: str) -> str:
    """Regex for a glob where ``*``/``?`` stay inside one path segment, ``**`` crosses."""
    out: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        char = pattern[i]
        if char == "*":
            if pattern.startswith("**", i):
                # "**/" matches zero or more folders; a trailing "**" matches everything.
                if pattern.startswith("**/", i):
                    out.append("(?:.*/)?")
                    i += 3
                    continue
                out.append(".*")
                i += 2
                continue
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            # A "]" right after "[" or "[!" is a member of the class, not its end.
            search_from = i + 1
            if pattern.startswith("!", search_from):
                search_from += 1
            if pattern.startswith("]", search_from):
                search_from += 1
            end = pattern.find("]", search_from)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = pattern[i + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = end
        elif char == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


@dataclass(frozen=True, slots=True)
class PathGlob:
    """One exclude / per-file-ignores glob, as the module docstring describes."""

    pattern: str
    anchored: bool
    regex: re.Pattern[str]

    def matches(self, relative: str) -> bool:
        """True when the glob matches ``relative`` (posix, from the config folder) or a parent."""
        if self.anchored:
            candidates = _prefixes(relative)
        else:
            candidates = relative.split("/")
        return any(self.regex.fullmatch(candidate) for candidate in candidates)

    def matches_name(self, relative: str) -> bool:
        """True when the glob matches exactly ``relative`` (not a parent of it)."""
        if self.anchored:
            return self.regex.fullmatch(relative) is not None
        return self.regex.fullmatch(relative.rsplit("/", 1)[-1]) is not None


def _prefixes(relative: str) -> list[str]:
    parts = relative.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


@lru_cache(maxsize=1024)
def compile_glob(pattern: str) -> PathGlob:
    """Compile an exclude / per-file-ignores glob."""
    text = pattern.strip().replace(os.sep, "/")
    text = text.removeprefix("./")
    text = text.rstrip("/") or text
    anchored = "/" in text
    text = text.lstrip("/")
    return PathGlob(pattern, anchored, re.compile(_translate_segment_glob(text)))


def relative_to(path: Path, root: Path | None) -> str | None:
    """``path`` relative to ``root`` in posix form, or None when it is not inside it."""
    if root is None:
        return None
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def matches_any(path: Path, root: Path | None, globs: Iterable[str], *, whole: bool = True) -> bool:
    """True when one of ``globs`` (relative to ``root``) matches ``path``.

    With ``whole`` False only the path itself is tested, not its parents (the walk
    tests each folder as it enters it, so parents were already tested).
    Outside ``root`` only globs without ``/`` can match (on the names). An absolute
    glob (``/srv/tools/generated``) is matched against the absolute path.
    """
    relative = relative_to(path, root)
    for pattern in globs:
        compiled = compile_glob(pattern)
        if os.path.isabs(pattern.strip()):
            candidate = path.as_posix().lstrip("/")
        elif relative is None:
            if compiled.anchored:
                continue
            candidate = path.name if not whole else path.as_posix().lstrip("/")
        else:
            candidate = relative
        if whole:
            if compiled.matches(candidate):
                return True
        elif compiled.matches_name(candidate):
            return True
    return False


def excluded_by_config(path: Path, config: Config, *, whole: bool = False) -> bool:
    """True when ``config``'s ``exclude``/``extend-exclude`` exclude ``path``.

    With ``whole`` the folders above ``path`` (up to the configuration's folder)
    are tested too, which is what ``--force-exclude`` needs for a named file.
    """
    exclude = DEFAULT_EXCLUDE if config.exclude is None else config.exclude
    globs = (*exclude, *config.extend_exclude)
    return matches_any(path, config.root, globs, whole=whole)


# ---------------------------------------------------------------------------
# .gitignore
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IgnoreRule:
    """One line of a ``.gitignore``."""

    regex: re.Pattern[str]
    negated: bool
    directory_only: bool


def parse_gitignore(text: str) -> tuple[IgnoreRule, ...]:
    """The rules of one ``.gitignore`` file, in order (the last match wins)."""
    rules: list[IgnoreRule] = []
    for raw_line in text.splitlines():
        line = raw_line
        if not line or line.startswith("#"):
            continue
        # Trailing spaces are dropped unless escaped with a backslash.
        stripped = line.rstrip(" ")
        if stripped.endswith("\\") and len(stripped) < len(line):
            stripped += " "
        line = stripped
        if not line:
            continue
        negated = line.startswith("!")
        if negated:
            line = line[1:]
        elif line.startswith(("\\!", "\\#")):
            line = line[1:]
        directory_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        body = _translate_segment_glob(line)
        if not anchored:
            body = "(?:.*/)?" + body
        rules.append(IgnoreRule(re.compile(body), negated, directory_only))
    return tuple(rules)


@dataclass(frozen=True, slots=True)
class IgnoreFile:
    """The rules of one ``.gitignore`` and the folder they are relative to."""

    base: Path
    rules: tuple[IgnoreRule, ...]


def _read_ignore_file(base: Path, path: Path) -> IgnoreFile | None:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    rules = parse_gitignore(text)
    return IgnoreFile(base, rules) if rules else None


def is_gitignored(path: Path, is_dir: bool, stack: Sequence[IgnoreFile]) -> bool:
    """What the ``.gitignore`` files in ``stack`` (outermost first) say about ``path``."""
    ignored = False
    for ignore_file in stack:
        relative = relative_to(path, ignore_file.base)
        if relative is None or relative == ".":
            continue
        for rule in ignore_file.rules:
            if rule.directory_only and not is_dir:
                continue
            if rule.regex.fullmatch(relative):
                ignored = not rule.negated
    return ignored


def find_git_root(folder: Path) -> Path | None:
    """The top of the git work tree holding ``folder``, or None outside one."""
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def _ancestor_ignore_files(folder: Path) -> list[IgnoreFile]:
    """``.gitignore`` files above ``folder`` up to its work tree's top, outermost first."""
    root = find_git_root(folder)
    if root is None:
        return []
    found: list[IgnoreFile] = []
    info = _read_ignore_file(root, root / ".git" / "info" / "exclude")
    if info is not None:
        found.append(info)
    chain = [folder, *folder.parents]
    chain = chain[: chain.index(root) + 1]
    # The folder's own .gitignore is read by the walk itself.
    for ancestor in reversed(chain[1:]):
        ignore_file = _read_ignore_file(ancestor, ancestor / ".gitignore")
        if ignore_file is not None:
            found.append(ignore_file)
    return found


# ---------------------------------------------------------------------------
# The walk
# ---------------------------------------------------------------------------


def is_python_file(name: str) -> bool:
    return name.endswith(PYTHON_SUFFIXES)


def _display_name(argument: str, relative: str | None) -> str:
    if relative is None:
        return os.path.normpath(argument)
    return os.path.normpath(os.path.join(argument, relative))


def discover(
    arguments: Sequence[str],
    resolver: ConfigResolver,
    *,
    respect_gitignore: bool = True,
    force_exclude: bool = False,
) -> list[SourceFile]:
    """The files to lint for the command-line ``arguments``, sorted by display name.

    Raises :class:`DiscoveryError` for an argument that does not exist. Each file
    appears once even when two arguments reach it. With ``force_exclude`` a file
    named explicitly is skipped when the configuration's excludes match it (as
    ruff's ``--force-exclude``: pre-commit names every file explicitly).
    """
    found: dict[Path, SourceFile] = {}
    for argument in arguments:
        if argument == STDIN_PATH:
            raise DiscoveryError("'-' (standard input) cannot be combined with other paths")
        path = Path(argument)
        absolute = Path(os.path.abspath(path))
        if not os.path.lexists(absolute):
            raise DiscoveryError(f"{argument}: no such file or directory")
        if absolute.is_dir():
            for source in _walk(argument, absolute, resolver, respect_gitignore):
                found.setdefault(source.path, source)
        else:
            if force_exclude and excluded_by_config(
                absolute, resolver.for_file(absolute), whole=True
            ):
                continue
            found.setdefault(absolute, SourceFile(absolute, _display_name(argument, None)))
    return sorted(found.values(), key=lambda source: source.display)


def _walk(
    argument: str,
    top: Path,
    resolver: ConfigResolver,
    respect_gitignore: bool,
) -> Iterator[SourceFile]:
    base_stack: list[IgnoreFile] = _ancestor_ignore_files(top) if respect_gitignore else []
    yield from _walk_folder(argument, top, top, tuple(base_stack), resolver, respect_gitignore)


def _walk_folder(
    argument: str,
    top: Path,
    folder: Path,
    stack: tuple[IgnoreFile, ...],
    resolver: ConfigResolver,
    respect_gitignore: bool,
) -> Iterator[SourceFile]:
    if respect_gitignore:
        own = _read_ignore_file(folder, folder / ".gitignore")
        if own is not None:
            stack = (*stack, own)
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError:
        # An unreadable folder holds nothing we can lint; explicit paths are checked
        # for existence before the walk, so this is a folder found on the way.
        return
    config = resolver.for_folder(folder)
    for entry in entries:
        path = folder / entry.name
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if is_dir:
            if entry.name in ALWAYS_SKIPPED or (path / VENV_MARKER).exists():
                continue
            if excluded_by_config(path, config):
                continue
            if respect_gitignore and is_gitignored(path, True, stack):
                continue
            yield from _walk_folder(argument, top, path, stack, resolver, respect_gitignore)
            continue
        if not is_python_file(entry.name):
            continue
        try:
            if not entry.is_file():
                continue
        except OSError:
            continue
        if excluded_by_config(path, config):
            continue
        if respect_gitignore and is_gitignored(path, False, stack):
            continue
        relative = path.relative_to(top).as_posix()
        yield SourceFile(path, _display_name(argument, relative))
