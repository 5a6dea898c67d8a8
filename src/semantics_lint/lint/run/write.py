"""What becomes of a fixed file: written back in place, or shown as a diff.

:func:`write_atomic` replaces a file so that nothing is lost and nothing that is not
ours is touched:

* **atomically**: the new bytes go to a temporary file in the file's own folder
  (flushed and fsynced), which then ``os.replace``-s the file: a reader sees all old
  or all new, and a failure leaves the file as it was;
* **never over an edit**: given the bytes the fix was computed from (``expected``),
  the file is read again just before the replace; if it holds anything else (an
  editor saved it meanwhile) nothing is written (:class:`NotWritten`), so the edit
  stays. The window left is the few microseconds between that read and the rename;
* **as it was owned**: the new file gets the old one's owner, group, permission bits
  and extended attributes (ACLs), or nothing is written; a file the user may not
  write (read-only to them) is not replaced either, though its folder would allow it;
* **never through to another file**: a file with several hard links is not replaced
  (the other names would keep the old text) and not rewritten in place either (that
  cannot be atomic, and the other name is often a backup snapshot that must not
  change): it is refused with a message. A file whose real path lies outside the
  trees the command line gave (a symbolic link out of the tree) is refused too;
* **no temporary file left behind for good**: on Linux the temporary file is made
  without a name (``O_TMPFILE``) and named only once complete, just before the
  rename. Its name, ``.<file>.<salt><digest>.semantics-lint.tmp``, carries a digest
  of the salt and the content signed with the user's key (``user_key.py``: a secret
  no checkout can read), so a later run can prove that a leftover (from a ``kill -9``
  in that instant) is a complete file this linter wrote for this user: it removes
  such a file, owned by the same user and older than a minute, from the folders it
  writes to. A file a checkout ships under such a name fails the proof and stays, as
  does everything when there is no key. Where unnamed files are not available the
  temporary file is named from the start; one cut off mid-write then fails the proof
  and is left alone.

The folder is held open and every step names the file relative to it (``dir_fd``),
so a folder renamed or swapped for a link meanwhile cannot redirect a write. On a
platform without those calls (``os.supports_dir_fd``), the same steps, the same
checks and the same read-again-before-rename go by path instead (:class:`_Folder`).
"""

from __future__ import annotations

import difflib
import errno
import hmac
import os
import re
import secrets
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from semantics_lint.lint.run import user_key
from semantics_lint.lint.run.suppress import physical_lines
from semantics_lint.reading import MAX_SOURCE_BYTES, read_regular

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.engine import LintSettings
    from semantics_lint.lint.run import fix

__all__ = [
    "TEMP_SUFFIX",
    "FixScope",
    "NotWritten",
    "Written",
    "fix_file",
    "unified_diff",
    "write_atomic",
]

TEMP_SUFFIX = ".semantics-lint.tmp"
_TEMP_NAME = re.compile(
    r"\.(?P<base>.*)\.(?P<salt>[0-9a-f]{16})(?P<digest>[0-9a-f]{32})" + re.escape(TEMP_SUFFIX),
    re.DOTALL,
)
LEFTOVER_MAX_BYTES = 64 * 1024 * 1024
"""A file named like a leftover but larger than this is left alone unread: proving it
ours means reading it, and a checkout can ship a file of any size under any name."""
STALE_AFTER = 60.0
"""Seconds after which a provably ours temporary file is a leftover: a live run names
its temporary file only just before renaming it."""

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


class NotWritten(Exception):
    """The fixed text was not written and the file is unchanged; the message says why.

    ``error`` is True when something went wrong (the file changed meanwhile, its owner
    could not be kept); False when the linter declined on purpose (a symbolic link out
    of the given paths, several hard links).
    """

    def __init__(self, reason: str, *, error: bool) -> None:
        super().__init__(reason)
        self.error = error


@dataclass(frozen=True, slots=True)
class Written:
    """What :func:`write_atomic` did."""

    path: str
    """The file written: the real path (a symbolic link given is kept, its target written)."""
    unchanged: bool = False
    """True when the file already held the new bytes (a second name of the same file
    was fixed first): nothing was written."""
    removed: tuple[str, ...] = ()
    """Temporary files of an interrupted earlier fix, proven ours, removed from the folder."""


@dataclass(frozen=True, slots=True)
class FixScope:
    """The trees a ``--fix`` run may write in: what the command line named.

    A file named on the command line may be written (through a symbolic link too: the
    user named it); a file found by walking a folder only when its real path lies in
    the real path of a folder or file the command line gave.
    """

    named: frozenset[str]
    trees: tuple[str, ...]

    @classmethod
    def of(cls, arguments: Sequence[str]) -> FixScope:
        named: set[str] = set()
        trees: list[str] = []
        for argument in arguments:
            absolute = os.path.abspath(argument)
            if not os.path.isdir(absolute):
                named.add(absolute)
            trees.append(os.path.realpath(absolute))
        return cls(frozenset(named), tuple(trees))

    def trees_for(self, path: str | os.PathLike[str]) -> tuple[str, ...] | None:
        """The trees ``path`` must stay in, or None when it was named itself."""
        return None if os.path.abspath(path) in self.named else self.trees


def _within(path: str, trees: Sequence[str]) -> bool:
    return any(path == tree or path.startswith(tree.rstrip(os.sep) + os.sep) for tree in trees)


def write_atomic(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    expected: bytes | None = None,
    trees: Sequence[str] | None = None,
) -> Written:
    """Replace the file at ``path`` with ``data``, as the module docstring describes.

    ``expected`` is what the file held when it was read (None: write whatever it holds
    now, creating it if missing); ``trees`` the real paths it must lie in (None: any).
    Raises :class:`NotWritten` when the linter declines or the file changed, and
    ``OSError`` when the file system fails; either way the file is as it was and no
    temporary file is left.
    """
    real = os.path.realpath(os.fspath(path))
    folder_path, name = os.path.split(real)
    folder = _Folder(folder_path or ".")
    try:
        target = os.path.join(folder.path, name)
        if trees is not None and not _within(target, trees):
            raise NotWritten(
                f"it leads through a symbolic link to {target}, outside the paths given",
                error=False,
            )
        original = _open_existing(folder, name)
        if original is None and expected is not None:
            raise NotWritten("it was deleted after it was read", error=True)
        key = user_key.load()
        try:
            before = os.fstat(original) if original is not None else None
            if before is not None:
                _check_replaceable(before)
                if not folder.writable(name):
                    raise NotWritten(
                        "it is read-only to the user running the linter (its mode "
                        f"{stat.filemode(before.st_mode)}); make it writable to fix it",
                        error=True,
                    )
            removed = _remove_stale(folder, key)
            temp = _write_temp(folder, name, data, original, key)
        finally:
            if original is not None:
                os.close(original)
        try:
            if expected is not None:
                now = _read_now(folder, name, max(len(data), len(expected)))
                if now == data:
                    folder.unlink(temp)
                    return Written(target, unchanged=True, removed=removed)
                if now != expected:
                    raise NotWritten(
                        "it changed after it was read (saved by an editor or another "
                        "program?); that change is kept: run --fix again",
                        error=True,
                    )
            folder.replace(temp, name)
        except BaseException:
            folder.unlink(temp)
            raise
        folder.sync()  # make the rename itself durable
        return Written(target, removed=removed)
    finally:
        folder.close()


def _by_handle() -> bool:
    """True when this platform names files relative to an open folder (``dir_fd``)."""
    return (
        {os.open, os.stat, os.unlink, os.rename, os.link, os.access} <= os.supports_dir_fd
        and os.listdir in os.supports_fd
        and bool(_DIRECTORY)
    )


class _Folder:
    """The folder a file is replaced in: held open and used by handle where the
    platform allows (``dir_fd``), else by path with the same steps.

    ``path`` is where the folder really is: by handle, what the open folder says
    (``/proc``), so a folder swapped after the real path was taken is seen.
    """

    def __init__(self, path: str) -> None:
        self.fd: int | None = None
        self.path = path
        if _by_handle():
            self.fd = os.open(path, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
            self.path = _opened_path(self.fd) or path

    def _at(self, name: str) -> str:
        return name if self.fd is not None else os.path.join(self.path, name)

    def open(self, name: str, flags: int, mode: int = 0o777) -> int:
        return os.open(self._at(name), flags, mode, dir_fd=self.fd)

    def stat(self, name: str) -> os.stat_result:
        return os.stat(self._at(name), dir_fd=self.fd, follow_symlinks=False)

    def writable(self, name: str) -> bool:
        """True when the user running the linter may write ``name`` in place, as an
        editor would (a read-only file is the user's word that it must not change)."""
        effective = os.access in os.supports_effective_ids
        return os.access(self._at(name), os.W_OK, dir_fd=self.fd, effective_ids=effective)

    def unlink(self, name: str) -> None:
        try:
            os.unlink(self._at(name), dir_fd=self.fd)
        except FileNotFoundError:
            pass

    def replace(self, source: str, target: str) -> None:
        if self.fd is None:
            os.replace(self._at(source), self._at(target))
        else:
            os.replace(source, target, src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def listdir(self) -> list[str]:
        return os.listdir(self.fd if self.fd is not None else self.path)

    def open_unnamed(self) -> int | None:
        """A file without a name in the folder (Linux ``O_TMPFILE``), or None."""
        flag = getattr(os, "O_TMPFILE", 0)
        if not flag or self.fd is None:
            return None
        try:
            return os.open(".", flag | os.O_WRONLY | _CLOEXEC, 0o600, dir_fd=self.fd)
        except OSError:
            return None  # a file system or kernel without it

    def name_unnamed(self, fd: int, name: str) -> bool:
        """Give the unnamed file ``fd`` the name ``name``; False when it cannot be named."""
        try:
            os.link(f"/proc/self/fd/{fd}", name, dst_dir_fd=self.fd, follow_symlinks=True)
        except OSError:
            return False  # no /proc to name it by: write a named one instead
        return True

    def sync(self) -> None:
        try:
            if self.fd is not None:
                os.fsync(self.fd)
            else:
                fd = os.open(self.path, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
        except OSError:
            pass  # a platform that cannot sync a folder

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _opened_path(folder_fd: int) -> str | None:
    """Where the folder opened as ``folder_fd`` really is (Linux), else None."""
    try:
        where = os.readlink(f"/proc/self/fd/{folder_fd}")
    except OSError:
        return None
    return where if os.path.isabs(where) and not where.endswith(" (deleted)") else None


def _open_existing(folder: _Folder, name: str) -> int | None:
    """``name`` opened for reading (never following a link, never blocking), or None if gone."""
    try:
        return folder.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:  # O_NOFOLLOW met a link
            raise NotWritten("it was replaced by a symbolic link after it was read", error=True) from None
        raise


def _check_replaceable(status: os.stat_result) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise NotWritten("it is no longer a regular file", error=True)
    if status.st_nlink > 1:
        raise NotWritten(
            f"it has {status.st_nlink} hard links: replacing it would leave the other "
            "names with the old text, and rewriting it in place cannot be atomic",
            error=False,
        )


def _read_now(folder: _Folder, name: str, limit: int) -> bytes:
    """What ``name`` holds now, read afresh, if it may still be replaced: its first
    ``limit`` bytes and one more (a file that grew past both texts compared with is
    neither, whatever it holds after that)."""
    fd = _open_existing(folder, name)
    if fd is None:
        raise NotWritten("it was deleted after it was read", error=True)
    with os.fdopen(fd, "rb") as handle:
        _check_replaceable(os.fstat(handle.fileno()))
        return handle.read(limit + 1)


def _digest(key: bytes | None, salt: str, data: bytes) -> str:
    """The digest a temporary file's name carries: its content signed with the user's key.

    Without a key it is random: such a file can be proven ours by no one.
    """
    if key is None:
        return secrets.token_hex(16)
    return user_key.sign(key, (salt.encode("ascii"), data))[:32]


def _temp_name(name: str, data: bytes, key: bytes | None) -> str:
    salt = secrets.token_hex(8)
    base = name if len(os.fsencode(name)) <= 128 else "file"
    return f".{base}.{salt}{_digest(key, salt, data)}{TEMP_SUFFIX}"


def _write_temp(folder: _Folder, name: str, data: bytes, original: int | None, key: bytes | None) -> str:
    """Write ``data`` to a temporary file beside ``name``, dressed as the original; its name."""
    temp = _temp_name(name, data, key)
    unnamed = folder.open_unnamed()
    if unnamed is not None:
        try:
            _fill(unnamed, data, original)
            if folder.name_unnamed(unnamed, temp):
                return temp
        finally:
            os.close(unnamed)
    fd = folder.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600)
    try:
        _fill(fd, data, original)
    except BaseException:
        os.close(fd)
        folder.unlink(temp)
        raise
    os.close(fd)
    return temp


def _fill(fd: int, data: bytes, original: int | None) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)
    _dress(fd, original)


def _dress(fd: int, original: int | None) -> None:
    """Give the new file the original's owner, group, mode and extended attributes."""
    if original is None:
        # A new file gets what open() would have given it under the umask.
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        return
    before = os.fstat(original)
    now = os.fstat(fd)
    if (now.st_uid, now.st_gid) != (before.st_uid, before.st_gid):
        try:
            os.fchown(fd, before.st_uid, before.st_gid)
        except PermissionError:
            raise NotWritten(
                f"its owner and group ({before.st_uid}:{before.st_gid}) cannot be given "
                "to a new file by the user running the linter",
                error=True,
            ) from None
    os.fchmod(fd, stat.S_IMODE(before.st_mode))  # after chown, which may clear set-id bits
    _copy_xattrs(original, fd)


def _copy_xattrs(original: int, fd: int) -> None:
    try:
        names = os.listxattr(original)
    except (OSError, AttributeError):
        return  # none, or a platform or file system without them
    for attribute in names:
        try:
            value = os.getxattr(original, attribute)
            try:
                if os.getxattr(fd, attribute) == value:
                    continue
            except OSError:
                pass
            os.setxattr(fd, attribute, value)
        except OSError as error:
            raise NotWritten(
                f"its extended attribute {attribute} cannot be kept ({error.strerror or error})",
                error=True,
            ) from None


def _remove_stale(folder: _Folder, key: bytes | None) -> tuple[str, ...]:
    """Remove the folder's leftover temporary files that are provably ours; their paths."""
    if key is None:
        return ()  # nothing can be proven ours
    removed: list[str] = []
    now = time.time()
    user = os.geteuid() if hasattr(os, "geteuid") else None
    try:
        names = folder.listdir()
    except OSError:
        return ()
    for entry in names:
        match = _TEMP_NAME.fullmatch(entry) if entry.endswith(TEMP_SUFFIX) else None
        if match is None:
            continue
        try:
            status = folder.stat(entry)
            if (
                not stat.S_ISREG(status.st_mode)
                or status.st_nlink != 1
                or (user is not None and status.st_uid != user)
                or now - status.st_mtime < STALE_AFTER
                or status.st_size > LEFTOVER_MAX_BYTES
            ):
                continue
            fd = folder.open(entry, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
            with os.fdopen(fd, "rb") as handle:
                content = handle.read(LEFTOVER_MAX_BYTES + 1)
            if not hmac.compare_digest(_digest(key, match["salt"], content), match["digest"]):
                continue  # not a complete file of ours: left alone
            folder.unlink(entry)
        except OSError:
            continue
        removed.append(os.path.join(folder.path, entry))
    return tuple(removed)


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

    With ``write=False`` (``--diff``) nothing is written. A :class:`fix.FixError`,
    :class:`NotWritten` or ``OSError`` propagates and the file is left as it was (a file
    that is not a regular one, or larger than ``reading.MAX_SOURCE_BYTES``, is the
    ``OSError`` :class:`~semantics_lint.reading.Unreadable`, and not read).
    """
    from semantics_lint.lint.run import fix

    source = read_regular(path, MAX_SOURCE_BYTES)
    result = fix.fix_source(
        source, os.fspath(path), settings, unsafe=unsafe, max_passes=max_passes, lint=lint
    )
    if write and result.changed:
        write_atomic(path, result.source, expected=source)
    return result


def unified_diff(display: str, before: str, after: str) -> str:
    """A unified diff of one file's fix, between its text and its fixed text."""
    old = physical_lines(before)
    new = physical_lines(after)
    lines = list(difflib.unified_diff(old, new, fromfile=display, tofile=display))
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)
    return text
