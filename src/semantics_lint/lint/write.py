"""What becomes of a fixed file: written back in place, or shown as a diff.

:func:`write_atomic` writes through a temporary file in the same folder and
``os.replace``, so a reader never sees half a file and a failure leaves it untouched.
"""

from __future__ import annotations

import difflib
import os
import stat
import tempfile
from typing import TYPE_CHECKING

from semantics_lint.lint.jobs import decode_for_noqa
from semantics_lint.lint.suppress import physical_lines

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint import fix
    from semantics_lint.lint.engine import LintSettings

__all__ = ["fix_file", "unified_diff", "write_atomic"]


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file at ``path`` with ``data`` so it is either all old or all new.

    The bytes go to a temporary file in the same folder (same file system, so the rename
    is atomic), are flushed and fsynced, get the original file's permission bits, and
    then ``os.replace`` the original. A symbolic link is followed: its target is
    replaced and the link kept. On any failure the temporary file is removed, the
    original is untouched, and the exception propagates.
    """
    target = os.path.realpath(os.fspath(path))
    folder = os.path.dirname(target) or "."
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    fd, temp = tempfile.mkstemp(
        dir=folder, prefix=f".{os.path.basename(target)}.", suffix=".semantics-lint.tmp"
    )
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None:
            # A new file gets what open() would have given it under the umask.
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
    # Make the rename itself durable where the platform allows opening a folder.
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def fix_file(
    path: str | os.PathLike[str],
    settings: LintSettings | None = None,
    *,
    unsafe: bool,
    write: bool = True,
    max_passes: int = 10,
    lint: fix.Linter | None = None,
) -> fix.FixResult:
    """Read ``path``, fix it with :func:`fix.fix_source`, and write it back atomically if changed.

    With ``write=False`` (``--diff``) nothing is written. A :class:`fix.FixError` or an
    ``OSError`` propagates and the file is left as it was.
    """
    from semantics_lint.lint import fix

    with open(path, "rb") as handle:
        source = handle.read()
    result = fix.fix_source(
        source, os.fspath(path), settings, unsafe=unsafe, max_passes=max_passes, lint=lint
    )
    if write and result.changed:
        write_atomic(path, result.source)
    return result


def unified_diff(display: str, before: bytes, after: bytes) -> str:
    """A unified diff of one file's fix, in the file's own text."""
    old = physical_lines(decode_for_noqa(before))
    new = physical_lines(decode_for_noqa(after))
    lines = list(difflib.unified_diff(old, new, fromfile=display, tofile=display))
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)
    return text
