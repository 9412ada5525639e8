"""Writing a small text file so that a failure leaves nothing half-written."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import ClashkitError


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


def check_writable(path: str | os.PathLike, where: str, error: type[ClashkitError]) -> Path:
    """``path`` if :func:`write_text_atomically` can write it, checked before any long work: the
    name is one the system can open, its folder exists and takes a new file, and ``path`` is not a
    folder or a special file.  Otherwise ``error`` naming ``where``."""
    from .limits import check_path

    path = check_path(path, where, error)
    try:
        if path.is_dir():
            raise error(f"{where} {path}: a folder (give a file name)")
        if path.exists() and not path.is_file():
            raise error(f"{where} {path}: not a regular file")
        if not path.parent.is_dir():
            raise error(f"{where}: no directory for {path}")
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise error(f"{where} {path}: cannot write there ({e.strerror})") from None
    return path


__all__ = ["check_writable", "write_text_atomically"]
