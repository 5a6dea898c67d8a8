"""Which files ``semantics-lint check PATHS`` lints.

Explicit file paths are taken as given (whatever their name, even when a
configuration or ``.gitignore`` would exclude them), as ruff and flake8 do, so
that pre-commit, editors and scripts that name one file get that file linted;
``--force-exclude`` applies the configuration's excludes to them too.
Folders are walked for ``*.py`` and ``*.pyi`` files, skipping:

* ``.git`` and every virtual environment (any folder holding ``pyvenv.cfg``),
  always;
* the configuration's ``exclude`` globs (default :data:`DEFAULT_EXCLUDE`) plus its
  ``extend-exclude`` globs, from the configuration that governs each folder;
* what ``.gitignore`` files ignore.

Symbolic links to folders are not followed (so a walk cannot loop); a link to a
file is linted as the file it points to. What is listed is only named: the runner
reads only regular files (a FIFO, socket or device is its SEM001, never opened).

``.gitignore`` files are weighed as git weighs them (``ignore_files.py``) rather
than by running ``git check-ignore``: the walk then needs no ``git`` executable, gives
the same answer inside and outside a work tree, and costs no process per run. A
folder git ignores is not entered (git cannot re-include a file below it), whatever
a later ``!`` line says of the files it holds; ``!*/`` re-includes folders. The
``.gitignore`` files read are those in the walked folders, plus those between a
walked folder and the top of its git work tree (the nearest ancestor with a
``.git``) and that work tree's ``info/exclude`` (in the folder a ``.git`` file names,
for a linked work tree or a submodule); a walked folder that git ignores, or that is
inside one, gives no file. Outside a work tree no ancestor's ``.gitignore`` is read,
so a stray file higher up changes nothing. A deeper ``.gitignore`` overrides a
shallower one, as in git. Each is read through ``reading.py`` (a regular file, not a
symbolic link, as git reads an in-tree ``.gitignore``, never a blocking open, at most
``MAX_SETTINGS_BYTES``); one that is there but cannot be read is a warning, and the
walk goes on as if it were absent (it then lints more, never less).

Globs (``exclude``, ``extend-exclude``, ``per-file-ignores``) read like
``.gitignore`` lines (they are compiled by the same library): a glob without
``/`` matches the name of a file or folder at any depth (``generated``,
``*_pb2.py``); a glob with ``/`` matches the path relative to the folder of the
configuration file (``legacy/*.py``, ``tools/**/fixtures``); an absolute glob
(``/srv/tools/generated``) matches the absolute path. A glob that matches a
folder matches all it holds.

The walk never recurses (an explicit stack: a tree thousands of folders deep is
walked like any other) and works on strings from ``os.scandir``; a ``Path`` is made
once per folder and once per file found. A folder that cannot be listed (no
permission, a path too long for the system) and a name that is not valid UTF-8
(linted, and shown with ``\\x`` escapes) are each a :class:`PathProblem` naming the
path; the walk goes on with the rest. A file that exists but cannot be read (no
permission, a link that loops or points nowhere, a FIFO) is listed like any other:
reading it gives that file's SEM001 finding.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from semantics_lint.lint.output.printable import printable
from semantics_lint.lint.run.globs import GlobSet, compile_globs
from semantics_lint.lint.run.ignore_files import (
    IgnoreFile,
    find_git_root,
    info_exclude_path,
    is_gitignored,
    parse_gitignore,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.run.config import Config, ConfigResolver

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
    """A path given on the command line that does not exist: a usage error."""


class SourceFile(NamedTuple):
    """A file to lint: ``path`` absolute, ``display`` the name findings carry.

    ``raw`` is the name before :func:`display_name` escaped it, when it had to (a name
    that is not UTF-8 or holds a control character); None when ``display`` is the name.
    """

    path: Path
    display: str
    raw: str | None = None


class PathProblem(NamedTuple):
    """A path that could not be walked or linted as asked: ``path`` as displayed.

    ``level`` ``error`` makes the run exit 2; ``warning`` (a ``.gitignore`` that could
    not be read: the walk then lints more, never less) is only said.
    """

    path: str
    message: str
    level: str = "error"

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


# ---------------------------------------------------------------------------
# Names as displayed
# ---------------------------------------------------------------------------


def display_name(text: str) -> str:
    """``text`` with every character that cannot be printed safely escaped.

    A name that is not valid UTF-8 reaches Python with surrogate escapes, which no
    output can encode; a name holding a newline would split a line of output in
    two. Such characters become backslash escapes (``caf\\xe9.py``); every other
    name is returned unchanged (``output/printable.py`` says what is escaped).
    """
    return printable(text)


def is_undecodable(text: str) -> bool:
    """True when ``text`` holds bytes that were not valid in the file system's encoding."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


# ---------------------------------------------------------------------------
# Globs
# ---------------------------------------------------------------------------


def exclude_globs(config: Config) -> GlobSet:
    """``config``'s ``exclude`` (or the default list) and ``extend-exclude``, compiled."""
    exclude = DEFAULT_EXCLUDE if config.exclude is None else config.exclude
    root = None if config.root is None else os.fspath(config.root)
    return compile_globs((*exclude, *config.extend_exclude), root)


def excluded_by_config(
    path: Path | str,
    config: Config,
    *,
    is_dir: bool = False,
    display: str | None = None,
    whole: bool = True,
) -> bool:
    """True when ``config``'s ``exclude``/``extend-exclude`` exclude ``path`` (absolute)
    or a folder above it (``whole`` is accepted for callers that say so)."""
    del whole
    return exclude_globs(config).matches(os.fspath(path), is_dir, outside=display)


# ---------------------------------------------------------------------------
# .gitignore
# ---------------------------------------------------------------------------


def _read_ignore_file(
    base: str, path: str, problems: list[PathProblem], shown: str | None = None
) -> IgnoreFile | None:
    """The rules of the ignore file ``path`` (relative to ``base``); None without any.

    Read as git reads it, and never in a way that can block or cost more than
    :data:`~semantics_lint.reading.MAX_SETTINGS_BYTES`: a ``.gitignore`` must be a
    regular file, not a symbolic link (git does not follow one either); ``info/exclude``
    may be a link to one. One that is there but cannot be read is a warning naming it
    (``shown``, else the path) in ``problems``, and the walk goes on as if it were
    absent: it then lints what that file would have ignored, never less.
    """
    from semantics_lint.reading import MAX_SETTINGS_BYTES, Unreadable, read_regular

    in_tree = os.path.basename(path) == ".gitignore"
    try:
        data = read_regular(path, MAX_SETTINGS_BYTES, follow_symlinks=not in_tree)
    except Unreadable as error:
        if not error.missing:
            why = error.reason
            if in_tree and os.path.islink(path):
                why = "a symbolic link, which git does not follow either"
            problem = PathProblem(
                shown if shown is not None else display_name(path),
                f"not read ({why}); the walk goes on as if it were absent, "
                "so the files it would ignore are linted",
                "warning",
            )
            if problem not in problems:
                problems.append(problem)
        return None
    return parse_gitignore(base, data)


def _ancestor_ignore_files(folder: str, problems: list[PathProblem]) -> list[IgnoreFile] | None:
    """The ignore files that apply to ``folder``'s entries before its own ``.gitignore``
    (``info/exclude``, then the ``.gitignore`` of each folder from the top of its work
    tree down), outermost first; None when git ignores ``folder`` or a folder between
    it and the top, and so everything it holds."""
    root = find_git_root(folder)
    if root is None:
        return []
    found: list[IgnoreFile] = []
    exclude = info_exclude_path(root)
    info = None if exclude is None else _read_ignore_file(root, exclude, problems)
    if info is not None:
        found.append(info)
    chain: list[str] = []
    current = folder
    while current != root:
        chain.append(current)
        current = os.path.dirname(current)
    parent = root
    for below in reversed(chain):
        ignore_file = _read_ignore_file(parent, os.path.join(parent, ".gitignore"), problems)
        if ignore_file is not None:
            found.append(ignore_file)
        if found and is_gitignored(below, True, found):
            return None
        parent = below
    return found


# ---------------------------------------------------------------------------
# The walk
# ---------------------------------------------------------------------------


def is_python_file(name: str) -> bool:
    return name.endswith(PYTHON_SUFFIXES)


def _os_message(error: OSError) -> str:
    if error.errno == errno.ENAMETOOLONG:
        return "path too long for the system (folders nested too deeply); not walked"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied; not walked"
    if error.errno == errno.ELOOP:
        return "symbolic link loop; not walked"
    return f"cannot be listed ({error.strerror or error}); not walked"


def discover(
    arguments: Sequence[str],
    resolver: ConfigResolver,
    *,
    respect_gitignore: bool = True,
    force_exclude: bool = False,
    problems: list[PathProblem] | None = None,
) -> list[SourceFile]:
    """The files to lint for the command-line ``arguments``, sorted by display name.

    Raises :class:`DiscoveryError` for an argument that does not exist. Each file
    appears once even when two arguments reach it. With ``force_exclude`` a file
    named explicitly is skipped when the configuration's excludes match it (as
    ruff's ``--force-exclude``: pre-commit names every file explicitly).

    Paths that cannot be walked or linted are appended to ``problems`` and the
    walk goes on; without a ``problems`` list the first error raises
    :class:`DiscoveryError` instead (a warning is then dropped).
    """
    found: dict[str, SourceFile] = {}
    report: list[PathProblem] = [] if problems is None else problems
    before = len(report)
    for argument in arguments:
        if argument == STDIN_PATH:
            raise DiscoveryError("'-' (standard input) cannot be combined with other paths")
        absolute = os.path.abspath(argument)
        shown = display_name(os.path.normpath(argument))
        try:
            mode = os.stat(absolute).st_mode
        except OSError as error:
            if error.errno in (errno.ENOENT, errno.ENOTDIR) and not os.path.islink(absolute):
                raise DiscoveryError(f"{shown}: no such file or directory") from None
            # A link that loops or points nowhere, a file behind a folder that cannot
            # be searched: taken as given, so reading it gives the file's SEM001.
            mode = stat.S_IFREG
        if stat.S_ISDIR(mode):
            _walk(argument, absolute, resolver, respect_gitignore, found, report)
            continue
        # Anything else (a FIFO too) is taken as given: the runner reads only regular
        # files, and reports the rest as their SEM001.
        if force_exclude and excluded_by_config(
            absolute, resolver.for_folder(Path(os.path.dirname(absolute))), display=argument
        ):
            continue
        if is_undecodable(argument):
            report.append(PathProblem(shown, "name is not valid UTF-8; shown with \\x escapes"))
        raw = os.path.normpath(argument)
        found.setdefault(absolute, SourceFile(Path(absolute), shown, raw if raw != shown else None))
    errors = [problem for problem in report[before:] if problem.level == "error"]
    if problems is None and errors:
        raise DiscoveryError(str(errors[0]))
    return sorted(found.values(), key=lambda source: source.display)


def _walk(
    argument: str,
    top: str,
    resolver: ConfigResolver,
    respect_gitignore: bool,
    found: dict[str, SourceFile],
    problems: list[PathProblem],
) -> None:
    """Add the Python files under the folder ``top`` (absolute) to ``found``.

    A stack of folders still to list, each with the ``.gitignore`` files that apply
    to it and its path relative to ``top``; nothing here recurses.
    """
    base: tuple[IgnoreFile, ...] = ()
    if respect_gitignore:
        above = _ancestor_ignore_files(top, problems)
        if above is None:
            return  # git ignores the folder, and so all it holds
        base = tuple(above)
    stack: list[tuple[str, str, tuple[IgnoreFile, ...]]] = [(top, "", base)]
    while stack:
        folder, relative, ignores = stack.pop()
        try:
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError as error:
            problems.append(PathProblem(_display_name(argument, relative), _os_message(error)))
            continue
        if respect_gitignore and any(entry.name == ".gitignore" for entry in entries):
            own = _read_ignore_file(
                folder,
                os.path.join(folder, ".gitignore"),
                problems,
                _display_name(argument, f"{relative}/.gitignore" if relative else ".gitignore"),
            )
            if own is not None:
                ignores = (*ignores, own)
        excludes = exclude_globs(resolver.for_folder(Path(folder)))
        folders: list[tuple[str, str, tuple[IgnoreFile, ...]]] = []
        for entry in entries:
            name = entry.name
            path = entry.path
            child = f"{relative}/{name}" if relative else name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError as error:
                problems.append(PathProblem(_display_name(argument, child), _os_message(error)))
                continue
            if is_dir:
                if name in ALWAYS_SKIPPED or os.path.exists(os.path.join(path, VENV_MARKER)):
                    continue
                if excludes.matches_entry(path, name, True, top):
                    continue
                if ignores and is_gitignored(path, True, ignores):
                    continue
                folders.append((path, child, ignores))
                continue
            if not name.endswith(PYTHON_SUFFIXES):
                continue
            if excludes.matches_entry(path, name, False, top):
                continue
            if ignores and is_gitignored(path, False, ignores):
                continue
            display = _display_name(argument, child)
            if _links_to_a_folder(entry):
                continue
            if is_undecodable(child):
                problems.append(PathProblem(display, "name is not valid UTF-8; shown with \\x escapes"))
            raw = _display_name(argument, child, escape=False)
            found.setdefault(path, SourceFile(Path(path), display, raw if raw != display else None))
        # Popped last-in first-out: pushed in reverse name order, walked in name order.
        folders.sort(key=lambda item: item[0], reverse=True)
        stack.extend(folders)


def _links_to_a_folder(entry: os.DirEntry[str]) -> bool:
    """True for a ``*.py`` entry that is a link to a folder (a walk does not follow it).

    Anything else is listed, whatever it is: a file that cannot be read (a link that
    loops or points nowhere, a FIFO) is its SEM001 when the runner reads it.
    """
    try:
        return entry.is_symlink() and entry.is_dir()
    except OSError:
        return False


def _display_name(argument: str, relative: str, *, escape: bool = True) -> str:
    """The name a file or folder ``relative`` to the walked ``argument`` is shown under:
    the argument as typed (normalized), joined with the path below it (escaped unless
    ``escape`` is false)."""
    shown = display_name if escape else str
    base = os.path.normpath(argument)
    if not relative:
        return shown(base)
    if base == os.curdir:
        return shown(relative)
    return shown(base + relative if base.endswith(os.sep) else f"{base}{os.sep}{relative}")
