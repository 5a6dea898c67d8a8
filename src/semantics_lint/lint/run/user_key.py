"""A secret of the user running the linter, kept outside every project: what the
linter writes into a project it can later prove it wrote itself.

A checkout is hostile: it can ship a ``.semantics-lint-cache/`` with forged entries
that hide findings, or a file named like a leftover temporary file of ``--fix``. A
digest anyone can compute proves nothing, so what the linter must recognise as its
own is signed with this key (HMAC-SHA256): the results cache's entries, and the
names of ``--fix``'s temporary files.

The key is 32 random bytes in ``semantics-lint/key`` under the user's cache home
(``$XDG_CACHE_HOME``, else ``~/.cache``; ``~/Library/Caches`` on macOS,
``%LOCALAPPDATA%`` on Windows), made on first use: the folder ``0700``, the file
``0600``. A key file is trusted only when it is a regular file (not a link) of the
right size, owned by the user and readable by no one else (a checkout cannot ship
one: git keeps no ``0600`` mode). When no key can be kept (no home, a read-only one, a key that fails those
checks), there is none: the cache is off and no leftover is removed, and
:func:`problem` says why.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

__all__ = ["KEY_BYTES", "key_path", "load", "problem", "sign"]

KEY_BYTES = 32
_FOLDER = "semantics-lint"
_NAME = "key"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_POSIX = os.name == "posix"

_loaded: tuple[Path, bytes | None, str | None] | None = None
"""The key path last loaded, its key (None: no key) and why there is none."""


def key_path() -> Path | None:
    """Where the user's key lives, or None when there is no cache home to keep it in."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base and os.path.isabs(base):
        home = Path(base)
    elif sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        home = Path(os.environ["LOCALAPPDATA"])
    else:
        try:
            user_home = Path.home()
        except (RuntimeError, KeyError):
            return None
        if not user_home.is_absolute():
            return None
        home = user_home / ("Library/Caches" if sys.platform == "darwin" else ".cache")
    return home / _FOLDER / _NAME


def load() -> bytes | None:
    """The user's key, made on first use; None when none can be kept (see :func:`problem`).

    Loaded once per process for a given key path.
    """
    global _loaded
    path = key_path()
    if path is None:
        _loaded = (Path(), None, "there is no home folder to keep its key in")
        return None
    if _loaded is not None and _loaded[0] == path and _loaded[1] is not None:
        return _loaded[1]
    key, reason = _read(path)
    if key is None and reason is None:  # no key yet
        key, reason = _make(path)
    _loaded = (path, key, reason)
    return key


def problem() -> str | None:
    """Why :func:`load` gave no key, or None."""
    if _loaded is None:
        load()
    assert _loaded is not None
    return _loaded[2]


def sign(key: bytes, parts: Iterable[bytes]) -> str:
    """HMAC-SHA256 of ``parts`` (each length-prefixed, so no two lists sign alike), in hex."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for part in parts:
        mac.update(len(part).to_bytes(8, "big"))
        mac.update(part)
    return mac.hexdigest()


def _read(path: Path) -> tuple[bytes | None, str | None]:
    """The key at ``path``; (None, None) when there is none yet; (None, why) when untrusted."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None, None
    except OSError as error:
        return None, f"its key {path} cannot be read ({error.strerror or error})"
    try:  # the descriptor itself: a folder opens, but a file object refuses it
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            return None, f"its key {path} is not a file (a folder, a pipe...); it was left as it is"
        data = os.read(fd, KEY_BYTES + 1)
    except OSError as error:
        return None, f"its key {path} cannot be read ({error.strerror or error})"
    finally:
        os.close(fd)
    if _POSIX and (status.st_uid != os.geteuid() or status.st_mode & 0o077):
        return None, (
            f"its key {path} is not the user's own (it must be owned by the user and "
            "readable by no one else, mode 0600); it was left as it is"
        )
    if len(data) != KEY_BYTES:
        return None, f"its key {path} is not a key of semantics-lint; it was left as it is"
    return data, None


def _make(path: Path) -> tuple[bytes | None, str | None]:
    """Create the key at ``path`` (or read the one another process made meanwhile)."""
    folder = path.parent
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".key-")  # 0600
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(secrets.token_bytes(KEY_BYTES))
                out.flush()
                os.fsync(out.fileno())
            try:
                os.link(temporary, path)  # never over a key another process made
            except FileExistsError:
                pass
            except OSError:
                os.replace(temporary, path)  # a file system without hard links
        finally:
            try:
                os.unlink(temporary)
            except FileNotFoundError:
                pass
    except OSError as error:
        return None, f"its key cannot be kept in {folder} ({error.strerror or error})"
    key, reason = _read(path)
    if key is None and reason is None:
        reason = f"its key {path} vanished as it was made"
    return key, reason
