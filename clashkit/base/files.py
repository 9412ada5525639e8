"""Writing a small text file so that a failure leaves nothing half-written."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from .errors import ClashkitError, InputError
from .limits import check_path


def write_text_atomically(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8, newlines as given) under a temporary name beside ``path``, then
    rename it into place: ``path`` holds the old contents or the new, never part of them.
    Raises ``OSError`` (the caller names the place); the temporary file never stays."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def file_to_write(path: str | os.PathLike, where: str, error: type[ClashkitError] = InputError) -> Path:
    """``path`` if a file can be written there (:func:`write_text_atomically`), else one line naming
    ``where`` (an option).

    Checked before any work is done: a name the system allows (:func:`check_path`), not a
    directory or a special file, no symbolic link that loops on the way (``Path.resolve`` raises
    ``RuntimeError`` there), and a folder to hold it that takes a new file.  A link to a file is
    replaced by the file, never written through.
    """
    path = check_path(path, where, error)
    for place, what in ((path, "the file"), (path.parent, "its folder")):
        try:
            info = os.stat(place)
        except FileNotFoundError:
            if place is path:
                continue
            raise error(f"{where}: no directory for {path}") from None
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise error(f"{where}: {path}: a symbolic link that loops on the way to {what}") from None
            if e.errno == errno.ENOTDIR:  # a file where its folder should be
                raise error(f"{where}: no directory for {path}") from None
            raise error(f"{where}: {path}: cannot use {what} ({e.strerror or e})") from None
        if place is path and stat.S_ISDIR(info.st_mode):
            raise error(f"{where}: {path} is a directory; give a file name")
        if place is path and not stat.S_ISREG(info.st_mode):
            raise error(f"{where}: {path} is not a regular file")
        if place is not path and not stat.S_ISDIR(info.st_mode):
            raise error(f"{where}: no directory for {path}")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise error(f"{where}: {path}: cannot write there ({e.strerror or e})") from None
    return path


__all__ = ["file_to_write", "write_text_atomically"]
