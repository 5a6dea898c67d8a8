"""Exclude and per-file-ignores globs, compiled once, matched as gitignore matches.

A glob that is a plain name is a set look-up; the rest are pathspec's
``GitIgnoreSpec`` (imported on first use), anchored to the configuration's root.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

# A glob that is a plain name (no glob syntax, no slash, nothing gitignore reads
# specially) matches exactly the files and folders of that name: a set look-up.
_LITERAL_NAME = re.compile(r"[^*?\[\]\\/!#\s](?:[^*?\[\]\\/]*[^*?\[\]\\/\s])?")


def _is_anchored(pattern: str) -> bool:
    """gitignore's rule: a slash anywhere but at the end ties a pattern to its folder."""
    return "/" in pattern.rstrip("/")


def _gitignore_spec(lines: Iterable[str]) -> Any:
    """pathspec's ``GitIgnoreSpec`` of ``lines`` (pathspec is imported here, on first use)."""
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(list(lines))


def glob_error(pattern: str) -> str | None:
    """Why ``pattern`` cannot be read as a gitignore line (``!`` alone, a trailing
    ``\\``, a range such as ``[z-a]``), or None when it can."""
    text = pattern.strip()
    if not text or _LITERAL_NAME.fullmatch(text):
        return None
    try:
        _gitignore_spec([text])
    except (ValueError, re.error) as error:  # pathspec's GitIgnorePatternError is a ValueError
        return str(error)
    return None


class GlobSet:
    """Exclude or per-file-ignores globs, compiled once, relative to ``root``.

    Plain names (``build``, ``.venv``: the default list) are a set look-up; every
    other glob goes to a pathspec ``GitIgnoreSpec``: one for the globs without
    ``/`` (matched on names, so they also apply outside ``root``), one for those
    tied to ``root``, one for absolute ones.
    """

    __slots__ = ("root", "_names", "_floating", "_anchored", "_absolute", "_walks")

    def __init__(self, patterns: Iterable[str], root: str | None) -> None:
        self.root = root
        names: set[str] = set()
        floating: list[str] = []
        anchored: list[str] = []
        absolute: list[str] = []
        for pattern in patterns:
            text = pattern.strip().replace(os.sep, "/")
            if not text:
                continue
            if os.path.isabs(pattern.strip()):
                # Matched against the absolute path without its leading "/".
                absolute.append("/" + text.lstrip("/"))
                continue
            text = text.removeprefix("./")
            if _LITERAL_NAME.fullmatch(text):
                names.add(text)
            elif _is_anchored(text):
                anchored.append(text)
            else:
                floating.append(text)
        self._names = frozenset(names)
        self._floating = _gitignore_spec(floating) if floating else None
        self._anchored = tuple(anchored)
        self._absolute = tuple(absolute)
        self._walks: dict[str, tuple[Any, Any]] = {}

    def matches(self, path: str, is_dir: bool = False, *, outside: str | None = None) -> bool:
        """True when a glob matches the absolute ``path`` or a folder above it.

        Inside ``root`` every glob applies to the path relative to it. Outside it
        (or with no root) only globs without ``/`` can match, on the names of
        ``outside`` (the path as the user gave it) when given, else of ``path``
        below the file system root.
        """
        relative = _relative(path, self.root)
        inside = relative is not None
        if relative is None:
            relative = (outside if outside is not None else path).replace(os.sep, "/")
            relative = "/".join(part for part in relative.split("/") if part not in ("", ".", ".."))
        if self._names and not self._names.isdisjoint(relative.split("/")):
            return True
        candidate = relative + "/" if is_dir else relative
        if self._floating is not None and self._floating.match_file(candidate):
            return True
        return self._tied(path, relative if inside else None, is_dir, "")

    def matches_entry(self, path: str, name: str, is_dir: bool, top: str) -> bool:
        """True when a glob matches the entry ``path`` (named ``name``) of a walk of ``top``.

        Only the entry itself counts, not the folders above it: the walk tested each
        of those as it entered them, and skips nothing inside a folder the user
        named even when a glob matches that folder (as a file named on the command
        line is linted even when excluded).
        """
        if name in self._names:
            return True
        if self._floating is not None and self._floating.match_file(name + "/" if is_dir else name):
            return True
        return self._tied(path, _relative(path, self.root), is_dir, top)

    def _tied(self, path: str, relative: str | None, is_dir: bool, top: str) -> bool:
        """The globs tied to ``root`` (on ``relative``, None outside it) or absolute."""
        anchored, absolute = self._specs(top)
        if anchored is not None and relative:
            if anchored.match_file(relative + "/" if is_dir else relative):
                return True
        if absolute is not None:
            whole = path.replace(os.sep, "/").lstrip("/")
            if absolute.match_file(whole + "/" if is_dir else whole):
                return True
        return False

    def _specs(self, top: str) -> tuple[Any, Any]:
        """The anchored and absolute globs as compiled specs, without those that match
        ``top`` or a folder above it ("" keeps them all)."""
        known = self._walks.get(top)
        if known is not None:
            return known
        anchored, absolute = self._anchored, self._absolute
        if top:
            relative = _relative(top, self.root)
            if relative:
                anchored = tuple(p for p in anchored if not _gitignore_spec([p]).match_file(relative + "/"))
            whole = top.replace(os.sep, "/").lstrip("/") + "/"
            absolute = tuple(p for p in absolute if not _gitignore_spec([p]).match_file(whole))
        specs = (
            _gitignore_spec(anchored) if anchored else None,
            _gitignore_spec(absolute) if absolute else None,
        )
        self._walks[top] = specs
        return specs


def _relative(path: str, root: str | None) -> str | None:
    """``path`` relative to ``root`` (both absolute, normalized), posix; None outside it."""
    if root is None:
        return None
    if path == root:
        return ""
    prefix = root if root.endswith(os.sep) else root + os.sep
    if not path.startswith(prefix):
        return None
    return path[len(prefix) :].replace(os.sep, "/")


@lru_cache(maxsize=1024)
def compile_globs(patterns: tuple[str, ...], root: str | None) -> GlobSet:
    """The compiled :class:`GlobSet` of ``patterns`` relative to ``root`` (cached)."""
    return GlobSet(patterns, root)


def matches_any(
    path: Path | str, root: Path | str | None, globs: Iterable[str], *, whole: bool = True
) -> bool:
    """True when one of ``globs`` (relative to ``root``) matches ``path`` or a folder above it.

    ``whole`` is kept for callers that ask for it; a glob that matches a folder
    always matches what the folder holds, so the answer is the same.
    """
    del whole
    root_text = None if root is None else os.fspath(root)
    return compile_globs(tuple(globs), root_text).matches(os.fspath(path))
