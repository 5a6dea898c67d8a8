"""Reading a file neither door wrote: a regular file only, never blocking, never more
than a limit.

A checkout can put anything where a file is expected: a FIFO named ``.gitignore`` (an
``open`` waits forever for a writer), a link to ``/dev/zero`` named ``pyproject.toml``
or given as a catalog (a read never ends), a sparse ``.py`` file of gigabytes (it
costs its size in memory and minutes of work). Every file the linter reads on its own
account, and every catalog file the ``check-semantics`` gate reads, goes through
:func:`read_regular` (pure: the linter and the runtime both import it):

1. ``stat`` it: anything but a regular file is not opened at all;
2. larger than the limit (when there is one): not opened either;
3. open it with ``O_NONBLOCK`` (a FIFO put in its place since step 1 opens at once
   instead of waiting for a writer) and ``fstat`` the open file: it must still be a
   regular file within the limit (the file checked is the file read);
4. read at most the limit and one byte: a file that grows while it is read is still
   cut off, and then refused as too large.

What cannot be read raises :class:`Unreadable`, whose text says why in words (no
path: the caller names the file in its own message).

The limits: :data:`MAX_SOURCE_BYTES` for a source file (a file named on the command
line, found by the walk, or given on standard input or by an editor),
:data:`MAX_SETTINGS_BYTES` for the ``.gitignore`` and ``pyproject.toml`` files that
decide what is linted and how; none for a catalog (the gate streams its samples, and
a catalog of a million samples is a few hundred megabytes).
"""

from __future__ import annotations

import errno
import os
import stat
import sys

__all__ = [
    "MAX_SETTINGS_BYTES",
    "MAX_SOURCE_BYTES",
    "Unreadable",
    "not_regular",
    "read_regular",
    "size_text",
    "too_large",
]

MAX_SOURCE_BYTES = 64 * 1024 * 1024
"""A source file larger than this (64 MiB) is not read: it is one SEM001 finding naming
its size and this limit. Hand-written Python modules are kilobytes; generated ones
(protobuf ``_pb2.py``, data tables) run to a few megabytes; pyright and VS Code stop at
50 MB. Above this the file is not tool code anyone reviews, and reading it would cost
its size in memory (a 2 GiB sparse file held 2.1 GB and took 4.3 s of CPU) before any
lint."""

MAX_SETTINGS_BYTES = 1024 * 1024
"""A ``.gitignore``, ``.git/info/exclude`` or ``pyproject.toml`` larger than this (1 MiB)
is not read. Hand-written ones are a few kilobytes (GitHub's Python ``.gitignore``
template is 3.5 kB). git reads ignore files up to 100 MiB, but every line of one is a
pattern that is compiled and then tried on every path of the walk (100,000 short
patterns: about 6 s to compile, 20 ms per path), so a megabyte already bounds that work."""

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)
_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CHUNK = 1024 * 1024


class Unreadable(OSError):
    """A file that was not read; ``str()`` says why (``not a regular file (a FIFO)``).

    An ``OSError``, so code that already turns an ``OSError`` into a message keeps
    doing so. ``missing`` is true when nothing is there at all (no such file).
    """

    def __init__(self, reason: str, *, missing: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.missing = missing

    def __str__(self) -> str:
        return self.reason


def not_regular(mode: int) -> str | None:
    """Why a file of this mode is not read (it is not a regular file), or None."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in _KINDS:
        if test(mode):
            return f"not a regular file ({kind})"
    if stat.S_ISLNK(mode):
        return "not a regular file (a symbolic link)"
    return "not a regular file"


def size_text(count: int) -> str:
    """``count`` bytes for people: ``67,108,864 bytes (64 MiB)``."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            value = count / scale
            shown = f"{value:.0f}" if value == int(value) else f"{value:.1f}"
            return f"{count:,} bytes ({shown} {unit})"
    return f"{count:,} bytes"


def too_large(size: int | None, limit: int) -> str:
    """Why a file of ``size`` bytes (None: unknown, more than ``limit``) is not read."""
    if size is None:
        return f"too large: over the limit of {size_text(limit)}"
    return f"too large: {size_text(size)}, over the limit of {size_text(limit)}"


def _reason(error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "not a regular file (a symbolic link that loops, or one not followed here)"
    return error.strerror or type(error).__name__


def _check(status: os.stat_result, limit: int | None) -> None:
    reason = not_regular(status.st_mode)
    if reason is not None:
        raise Unreadable(reason)
    if limit is not None and status.st_size > limit:
        raise Unreadable(too_large(status.st_size, limit))


def read_regular(path: str | os.PathLike[str], limit: int | None, *, follow_symlinks: bool = True) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them (None: no
    limit, to the end of the file).

    Raises :class:`Unreadable` (why, in words) for anything else: no such file, not a
    regular file, larger than ``limit``, no permission. With ``follow_symlinks`` false
    a symbolic link is not followed and not read (as git treats an in-tree
    ``.gitignore``). Never blocks: see the module's docstring.
    """
    try:
        _check(os.stat(path, follow_symlinks=follow_symlinks), limit)
        fd = os.open(path, _FLAGS if follow_symlinks else _FLAGS | _NOFOLLOW)
    except Unreadable:
        raise
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the name
        missing = isinstance(error, FileNotFoundError)
        reason = _reason(error) if isinstance(error, OSError) else str(error)
        raise Unreadable(reason, missing=missing) from None
    try:
        status = os.fstat(fd)
        _check(status, limit)
        # The size fstat gives is read in one call (plus one byte to see the end); a
        # file that lies about its size (procfs) or grows meanwhile is read on in
        # chunks, up to the limit and one byte.
        chunks: list[bytes] = []
        total = 0
        most = limit if limit is not None else sys.maxsize - 1
        want = min(status.st_size, most) + 1
        while total <= most:
            chunk = os.read(fd, min(want, most + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            want = _CHUNK
    except Unreadable:
        raise
    except OSError as error:
        raise Unreadable(_reason(error)) from None
    finally:
        os.close(fd)
    if limit is not None and total > limit:
        raise Unreadable(too_large(None, limit))
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
