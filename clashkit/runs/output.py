"""A run's output folder as one unit: parts as they finish, then three files and a manifest.

A run writes ``games.parquet``, ``turns.parquet`` and (with events)
``events.parquet`` into its folder, and ``manifest.json`` **last**: the run's
parameters (seed, n, engine, options, versions) and every file with its row
count and SHA-256.  Readers (:mod:`clashkit.runs.run_folder`: ``read_manifest``,
``open_run``; ``Trace.read_parquet``) refuse a folder whose files do not match it, so a folder is either one
complete run or refused — never two runs mixed.

While it runs, a :class:`RunWriter` holds ``.clashkit.lock`` (an ``fcntl``
lock: a second writer is refused; a lock left by a dead process is taken
over) and keeps its work in ``.clashkit-run/``: ``run.json`` (what it plays)
and one Parquet part per finished chunk of games.  Any engine hands it
frames chunk by chunk (:meth:`RunWriter.write_part`); an interrupted run
keeps its finished parts, and ``resume=True`` continues it without replaying
them.  :meth:`RunWriter.commit` assembles the parts (streaming, so memory
stays bounded) into ``.clashkit-run/``, syncs them to disk, and then makes
the run visible by **one rename**: the new manifest, written and synced as
``.clashkit-run/manifest.json.tmp``, becomes ``.clashkit-run/commit.json``.
From that moment the new run is the folder's run: its files are moved into
place, run files it does not write (an old ``events.parquet`` after a
``--no-events`` run) are removed and ``commit.json`` becomes
``manifest.json`` (:func:`_roll_forward`).  A kill at any step leaves the old
run (before the rename) or the new one (after it, its files in the folder or
still in ``.clashkit-run/``), which readers find either way and the next
writer finishes moving.  Readers open each file once, hash what they opened
and read that; a commit between a reader's steps makes it start again, so it
gets one run, never two mixed.  Signals wait until the commit is done.

A full disk (``ENOSPC``) removes the run's parts (the space is given back)
and says how much space the run needed; other write errors keep the finished
parts for ``resume``.

Nothing in a folder is trusted, since it may come from anyone (a shared data
set, an unzipped archive).  Every name read from a manifest or a decided
commit passes ``run_folder.run_file_name`` (readers and writer alike), so none leads
out of the folder; the lock, the records and the run files are opened only as
regular files, never through a link (``run_folder.open_regular`` and ``read_record``:
a FIFO, a device or a link loop is one line, never a hang); a file of a run's
name that no manifest lists with its size is not clashkit's, and a writer
refuses the folder unless ``force`` (:meth:`RunWriter._check_foreign`).  A
write that fails before the run starts leaves no lock, and no folder the
writer created.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import stat
import uuid
from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from ..base.errors import OutputError, RunFolderError
from ..base.limits import check_path
from ..base.rules import FRAMES_VERSION
from .run_folder import (
    COMMIT,
    FORMAT,
    LOCK,
    MANIFEST,
    RUN_FILES,
    STAGING,
    file_kind,
    not_regular,
    parse_manifest,
    read_record,
    run_file_name,
    staging_of,
)

_PART = re.compile(r"part-(\d{8})\.(events|turns|games)\.parquet")
#: Temporary files of earlier clashkit versions' writes (``.games.parquet.PID.xxxx.tmp``).
_OLD_TMP = re.compile(r"\.(events|turns|games)\.parquet\.\d+\.[0-9a-f]+\.tmp")
#: How every file of a run is written.  zstd at level 1 makes files within a few percent of
#: polars' default (level 3) at less of its time; column statistics are left out: they cost
#: as much as the encoding of the columns themselves (a run's files are read whole, and a
#: filter on them still works, it only cannot skip row groups by their statistics).  Row
#: groups of a fixed number of rows make a file's bytes depend on its rows only, not on how
#: they were cut: parts of any size assembled, or a frame of any chunks written at once, give
#: the same file (so the two engines' parts of 500 and of 8,192 games do too).  The assembly
#: holds one row group at a time, so the number is each frame's: 2**20 rows of events or
#: turns (some 30 bytes a row), 2**16 of games, whose two deck lists make a row some 450 bytes
#: (at 2**20 a million games' file took about 0.9 GB to write, at 2**16 under 0.2 GB; smaller
#: groups of events and turns would cost a fifth more bytes on disk).
ROW_GROUP_ROWS = {"games": 1 << 16}
ROW_GROUP_ROWS_DEFAULT = 1 << 20
PARQUET = {"compression": "zstd", "compression_level": 1, "statistics": False}


def parquet_options(name: str) -> dict:
    """How frame ``name`` (``games``, ``turns``, ``events``) is written: :data:`PARQUET` and its row groups."""
    return {**PARQUET, "row_group_size": ROW_GROUP_ROWS.get(name, ROW_GROUP_ROWS_DEFAULT)}


def versions() -> dict[str, str]:
    """The versions a manifest records: clashkit, its rules, polars, numpy, Python."""
    from importlib.metadata import PackageNotFoundError, version

    import numpy
    import polars

    from ..base.rules import RULES_VERSION

    try:
        clashkit = version("clashkit")
    except PackageNotFoundError:  # a source checkout that is not installed
        clashkit = "unknown"
    return {
        "clashkit": clashkit,
        "rules": str(RULES_VERSION),
        "polars": polars.__version__,
        "numpy": numpy.__version__,
        "python": platform.python_version(),
    }


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _rows(path: Path) -> int:
    import polars as pl

    return pl.scan_parquet(path).select(pl.len()).collect().item()


def _cannot(path: Path, error: OSError, tail: str = "") -> OutputError:
    reason = error.strerror or str(error)
    return OutputError(f"{path}: cannot write ({reason}){tail}")


def _as_os_error(error: BaseException) -> OSError | None:
    """The ``OSError`` behind a failed write: itself, or polars' ``ComputeError`` that wraps one
    (``sink_parquet`` reports a full disk as ``ComputeError: … No space left on device``)."""
    if isinstance(error, OSError):
        return error
    try:
        from polars.exceptions import PolarsError
    except ImportError:  # pragma: no cover
        return None
    if isinstance(error, PolarsError):
        text = str(error)
        for code in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EIO, errno.EFBIG):
            reason = os.strerror(code)
            if reason in text:
                return OSError(code, reason)
        return OSError(errno.EIO, text.splitlines()[0] if text else "polars could not write")
    return None


def _megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    """Sync a folder's entries (the renames in it) to disk."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # a file system that cannot sync folders
        pass
    finally:
        os.close(fd)


# --- The lock ------------------------------------------------------------------------------


class RunLock:
    """``DIRECTORY/.clashkit.lock`` held with ``fcntl.flock`` for as long as a run writes.

    The kernel drops the lock when its process dies, so a lock file left by a
    killed run is taken over, never mistaken for a live writer.  The lock is
    opened only as a regular file of one name (never through a link, ``O_NOFOLLOW``;
    never a FIFO, a device or a file hard-linked elsewhere), since taking it
    rewrites its contents.  A lock that cannot be written (a full disk, a file
    size limit) is removed again: nothing is left behind.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK
        self.fd: int | None = None

    def acquire(self) -> None:
        while True:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                holder = _read_small(fd)
                os.close(fd)
                if e.errno in (errno.EAGAIN, errno.EACCES):
                    raise OutputError(
                        f"{self.path.parent}: another run is writing there ({holder or 'a live process'}); "
                        "wait for it or choose another --out"
                    ) from None
                raise _cannot(self.path, e) from None
            # The file we locked must still be the one at the path (a finishing run unlinks it).
            try:
                here = os.lstat(self.path)
                opened = os.fstat(fd)
                same = (here.st_dev, here.st_ino) == (opened.st_dev, opened.st_ino)
            except FileNotFoundError:
                same = False
            if same:
                self._claim(fd)
                self.fd = fd
                return
            os.close(fd)

    def _open(self) -> int:
        """The lock file, created or opened as a plain file of its own (see the class docstring)."""
        try:
            info = os.lstat(self.path)
        except FileNotFoundError:
            info = None
        except OSError as e:
            raise _cannot(self.path, e) from None
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise self._refused(info.st_mode)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
        except OSError as e:
            if e.errno == errno.ELOOP:  # a link put there since the lstat
                raise self._refused(stat.S_IFLNK) from None
            raise _cannot(self.path, e) from None
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode) or opened.st_nlink != 1:
            os.close(fd)
            raise self._refused(opened.st_mode, linked=opened.st_nlink)
        return fd

    def _refused(self, mode: int, linked: int = 1) -> OutputError:
        what = file_kind(mode) if not stat.S_ISREG(mode) else f"a file with {linked} names (a hard link)"
        return OutputError(
            f"{self.path}: {what}, where clashkit keeps its lock as a plain file of its own; "
            "clashkit writes no lock through it: remove it"
        )

    def _claim(self, fd: int) -> None:
        """Write who holds the lock; on a write error (``ENOSPC``, ``EFBIG`` under ``ulimit -f``, …)
        the lock file is removed and one line says why."""
        text = f"pid {os.getpid()} on {platform.node()}\n".encode()
        try:
            os.ftruncate(fd, 0)
            if os.write(fd, text) != len(text):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        except OSError as e:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            os.close(fd)
            raise _cannot(self.path, e, "; nothing of the run was written") from None

    def release(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            os.close(self.fd)
            self.fd = None


def _read_small(fd: int) -> str:
    """The lock's first line (who holds it), printable characters only, cut short."""
    try:
        text = os.pread(fd, 200, 0).decode(errors="replace").strip()
    except OSError:
        return ""
    line = text.splitlines()[0] if text else ""
    return "".join(c if c.isprintable() else "?" for c in line)[:80]


# --- Writing ----------------------------------------------------------------------------


class RunWriter:
    """Writes one run into ``directory``; use as a context manager (it holds the lock).

    ``run`` is what the run plays (seed, n, decks, policies, options, engine):
    it goes into the manifest, and ``resume`` continues only a run with the
    same ``run``.  ``events``: whether the run writes ``events.parquet``.

    A folder whose files of a run's names were not written by clashkit (no
    manifest lists them with their size) is refused before anything is touched;
    ``force=True`` writes over them (``--force``).  A folder it had to create is
    removed again if the run leaves nothing in it.
    """

    def __init__(
        self,
        directory: str | os.PathLike,
        run: Mapping[str, Any],
        *,
        events: bool = True,
        resume: bool = False,
        files: Sequence[str] | None = None,
        force: bool = False,
    ) -> None:
        self.directory = Path(directory)
        self.run = json.loads(json.dumps(dict(run), default=str))  # plain JSON values, as run.json holds them
        if files is None:
            self.names = [name for name in RUN_FILES if events or name != "events"]
        else:  # a study's own frames (``clashkit balance --out`` and the like)
            self.names = list(files)
        #: Every file name this folder's runs write: those of this run not written are removed.
        self.known = tuple(dict.fromkeys((*RUN_FILES, *self.names)))
        for name in self.known:
            run_file_name(f"{name}.parquet", self.directory)
        self.resume = resume
        self.force = force
        #: The folders :meth:`__enter__` created, deepest first (removed again if left empty).
        self.created: list[Path] = []
        self.staging = self.directory / STAGING
        self.lock = RunLock(self.directory)
        self.committed = False

    # -- Opening: everything that can go wrong with the folder, before any game is played.

    def __enter__(self) -> RunWriter:
        where = check_path(self.directory, str(self.directory), OutputError)
        self._make_folder(where)
        try:
            self.lock.acquire()
            try:
                self.staging = staging_of(self.directory)
                decided = _decided_commit(self.directory)
                self._check_foreign(decided)
                if decided is not None:
                    _roll_forward(self.directory, decided)  # a commit decided by a run killed while it moved files
                self._open_staging()
            except BaseException:
                self.lock.release()
                raise
        except BaseException:
            self._remove_created()
            raise
        return self

    def _make_folder(self, where: Path) -> None:
        """Create ``where`` (noting which folders were made), or one line on what it is instead."""
        try:
            info = os.stat(where)
        except FileNotFoundError:
            info = None
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise OutputError(f"{where}: a symbolic link that loops ({e.strerror}); give a folder") from None
            raise OutputError(f"{where}: cannot use the folder ({e.strerror or e})") from None
        if info is not None:
            if not stat.S_ISDIR(info.st_mode):
                raise OutputError(f"{where}: exists and is not a directory")
            return
        if os.path.lexists(where):
            raise OutputError(f"{where}: a symbolic link to nothing ({os.readlink(where)}); give a folder")
        missing = where
        while not os.path.lexists(missing) and missing != missing.parent:
            self.created.append(missing)
            missing = missing.parent
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            self._remove_created()
            reason = e.strerror or e
            if e.errno == errno.ELOOP:
                reason = f"a symbolic link in it loops: {reason}"
            raise OutputError(f"{where}: cannot create the folder ({reason})") from None

    def _remove_created(self) -> None:
        """Remove the folders :meth:`_make_folder` created, if they are empty (deepest first)."""
        for folder in self.created:
            try:
                folder.rmdir()
            except OSError:
                break
        self.created = []

    def _check_foreign(self, decided: Mapping[str, Any] | None) -> None:
        """Refuse to write over or remove a file that no clashkit run wrote (unless ``force``).

        The names looked at are those this run writes or removes and, when a commit
        is decided, those it moves or removes.  A file is clashkit's when it is a
        regular file that the folder's manifest or the decided commit lists with
        its exact size; a ``manifest.json`` that is not a clashkit manifest is not.
        A directory in a file's place is refused even with ``force``.
        """
        directory = self.directory
        names = {f"{name}.parquet" for name in self.known}
        sizes: dict[str, set[int]] = {}
        foreign = []
        try:
            old = parse_manifest(directory / MANIFEST, read_record(directory / MANIFEST))
        except FileNotFoundError:
            old = None
        except (OSError, RunFolderError):
            old = None
            foreign.append(MANIFEST)
        for record in (old, decided):
            if record is not None:
                for name, entry in record["files"].items():
                    sizes.setdefault(name, set()).add(entry["bytes"])
        if decided is not None:
            names.update(decided["files"], decided.get("removes", ()))
        for name in sorted(names):
            path = directory / name
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                continue
            except OSError as e:
                raise _cannot(path, e) from None
            if stat.S_ISDIR(info.st_mode):
                raise OutputError(f"{path}: is a directory, where the run writes a file; remove it")
            if not (stat.S_ISREG(info.st_mode) and info.st_size in sizes.get(name, ())):
                foreign.append(name)
        if foreign and not self.force:
            them = "it" if len(foreign) == 1 else "them"
            raise OutputError(
                f"{directory}: holds {', '.join(foreign)} that no clashkit run wrote; "
                f"choose another --out or remove {them} (--force writes over {them})"
            )

    def _open_staging(self) -> None:
        record = self.staging / "run.json"
        if self.staging.exists():
            try:
                earlier = json.loads(read_record(record).decode("utf-8"))
            except (OSError, ValueError):  # RunFolderError and UnicodeDecodeError are ValueErrors
                earlier = None
            if not self.resume:
                done = len(self.done_parts()) if earlier is not None else 0
                raise OutputError(
                    f"{self.directory}: holds an interrupted run ({done} finished parts); "
                    f"add --resume to continue it, or remove {self.staging} to start over"
                )
            if earlier != self.run:
                raise OutputError(
                    f"{self.directory}: the interrupted run there plays something else "
                    f"({_difference(earlier, self.run)}); --resume continues only the same run"
                )
        else:
            self.resume = False
        try:
            self.staging.mkdir(exist_ok=True)
            for path in self.staging.iterdir():  # temporary files of an interrupted write
                if path.name.endswith(".tmp"):
                    path.unlink()
            for path in self.directory.iterdir():
                if _OLD_TMP.fullmatch(path.name):
                    path.unlink()
            self._atomic_write(record, json.dumps(self.run, sort_keys=True, indent=1).encode())
        except OSError as e:
            raise _cannot(self.staging, e) from None

    def __exit__(self, kind, error, trace) -> None:
        try:
            if not self.committed and (kind is None or not self.resumable):
                shutil.rmtree(self.staging, ignore_errors=True)
        finally:
            self.lock.release()
            if not self.committed:
                self._remove_created()

    @property
    def resumable(self) -> bool:
        """Whether an interrupted run leaves its parts for ``resume`` (only if it has any)."""
        return bool(self.done_parts())

    # -- Parts.

    def _part(self, index: int, name: str) -> Path:
        return self.staging / f"part-{index:08d}.{name}.parquet"

    def done_parts(self) -> set[int]:
        """The chunks whose parts are complete (their games part is written last)."""
        if not self.staging.is_dir():
            return set()
        done = set()
        for path in self.staging.iterdir():
            match = _PART.fullmatch(path.name)
            if match and match[2] == "games":
                index = int(match[1])
                if all(self._part(index, name).exists() for name in self.names):
                    done.add(index)
        return done

    def write_part(self, index: int, frames: Mapping[str, Any]) -> None:
        """Write chunk ``index``'s frames (``games``, ``turns``, and ``events`` if the run has them)."""
        for name in self.names:
            path = self._part(index, name)
            try:
                self._atomic(path, partial(frames[name].write_parquet, **parquet_options(name)))
            except Exception as e:
                error = _as_os_error(e)
                if error is None:
                    raise
                if error.errno in (errno.ENOSPC, errno.EDQUOT):
                    raise self._full(path, error, part=frames) from None
                raise _cannot(path, error, "; the finished parts are kept and --resume continues the run") from None

    def _full(self, path: Path, error: OSError, *, committing: bool = False, part=None) -> OutputError:
        """The disk is full: remove the run's parts and say how much space the run needs."""
        written = sum(p.stat().st_size for p in self.staging.glob("part-*.parquet")) if self.staging.is_dir() else 0
        games = sum(self._part_games(i) for i in self.done_parts())
        total = self.run.get("n") if isinstance(self.run.get("n"), int) else None
        if committing:
            # The parts and the files assembled from them are on disk together until the swap.
            needed = 2 * written
        elif games and total:
            needed = 2 * written * total // games
        elif part is not None and total and part["games"].height:
            # No part finished: the frames' size in memory bounds their files' from above.
            size = sum(part[name].estimated_size() for name in self.names)
            needed = 2 * size * total // part["games"].height
        else:
            needed = 0
        shutil.rmtree(self.staging, ignore_errors=True)
        try:
            free = shutil.disk_usage(self.directory).free
        except OSError:
            free = None
        need = f"the run needs up to {_megabytes(needed)}" if needed else "the run needs more space"
        have = f" and {_megabytes(free)} are free" if free is not None else ""
        return OutputError(
            f"{path}: cannot write ({error.strerror or error}); {need} (its parts and the files assembled "
            f"from them){have}; its parts are removed and the folder keeps the run before"
        )

    def _part_games(self, index: int) -> int:
        try:
            return _rows(self._part(index, "games"))
        except Exception:
            return 0

    def _atomic(self, path: Path, write) -> None:
        """Write ``path`` under a temporary name, sync it to disk, then rename it into place."""
        tmp = path.with_name(f"{path.name}.{uuid.uuid4().hex[:8]}.tmp")
        try:
            write(tmp)
            _fsync_file(tmp)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)

    def _atomic_write(self, path: Path, data: bytes) -> None:
        self._atomic(path, lambda tmp: Path(tmp).write_bytes(data))

    # -- Committing.

    def commit(self, frames: Mapping[str, Any] | None = None, *, empty: Mapping[str, Any] | None = None) -> list[Path]:
        """Assemble the parts (or write ``frames``), then swap the run into place.

        ``empty``: a zero-row frame per name, written when there are no parts.
        Returns the data files written.
        """
        import polars as pl

        staged = {}
        try:
            for name in self.names:
                final = self.staging / f"{name}.parquet"
                if frames is not None:
                    self._atomic(final, partial(frames[name].write_parquet, **parquet_options(name)))
                else:
                    parts = [self._part(i, name) for i in sorted(self.done_parts())]
                    if parts:
                        lazy = pl.concat([pl.scan_parquet(p) for p in parts])
                        options = parquet_options(name)
                        self._atomic(final, lambda tmp, lazy=lazy, options=options: lazy.sink_parquet(tmp, **options))
                    else:
                        assert empty is not None, "a run with no parts is committed with its empty frames"
                        self._atomic(final, partial(empty[name].write_parquet, **parquet_options(name)))
                staged[name] = final
            files = {
                f"{name}.parquet": {"rows": _rows(path), "bytes": path.stat().st_size, "sha256": _sha256(path)}
                for name, path in staged.items()
            }
            manifest = {
                "format": FORMAT,
                "frames_version": FRAMES_VERSION,
                "run": self.run,
                "versions": versions(),
                "files": files,
                "removes": [f"{name}.parquet" for name in self.known if name not in staged],
            }
            manifest_tmp = self.staging / f"{MANIFEST}.tmp"
            self._atomic_write(manifest_tmp, (json.dumps(manifest, indent=1) + "\n").encode())
            _fsync_dir(self.staging)
        except Exception as e:
            error = _as_os_error(e)
            if error is None:
                raise
            if error.errno in (errno.ENOSPC, errno.EDQUOT):
                raise self._full(self.directory, error, committing=frames is None) from None
            raise _cannot(self.directory, error, "; nothing of the run was moved into place") from None
        with _signals_held():
            # The one rename that makes the new run the folder's run (old before it, new after).
            os.replace(manifest_tmp, self.staging / COMMIT)
            _fsync_dir(self.staging)
            self.committed = True
            _roll_forward(self.directory, manifest)
        return [self.directory / f"{name}.parquet" for name in self.known if name in staged]


def _decided_commit(directory: Path) -> dict[str, Any] | None:
    """The commit a writer decided (``STAGING/commit.json``), its names checked, or ``None``."""
    path = directory / STAGING / COMMIT
    try:
        data = read_record(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise RunFolderError(f"{path}: cannot read ({e.strerror or e})") from None
    return parse_manifest(path, data)


def _roll_forward(directory: Path, manifest: Mapping[str, Any]) -> None:
    """Finish a decided commit (``manifest``, read from ``STAGING/commit.json`` and checked by
    :func:`parse_manifest`): move its files into place, remove the run files it does not
    write, then make ``commit.json`` the manifest.

    Each step can be repeated, so a run killed in the middle is finished by the next writer.
    Only regular files are moved and removed, each named by :func:`run_file_name`.
    """
    staging = directory / STAGING
    for name in manifest["files"]:
        source = staging / name
        try:
            info = os.lstat(source)
        except FileNotFoundError:
            continue  # moved already
        if not stat.S_ISREG(info.st_mode):
            raise not_regular(source, info.st_mode)
        os.replace(source, directory / name)
    for name in manifest.get("removes", []):
        target = directory / name
        if os.path.lexists(target):
            _remove(target)
    _fsync_dir(directory)
    os.replace(staging / COMMIT, directory / MANIFEST)
    _fsync_dir(directory)
    shutil.rmtree(staging, ignore_errors=True)


def _remove(path: Path) -> None:
    """Remove a run's file (a directory in its place is refused before, by the writer)."""
    path.unlink()


def _difference(earlier: Mapping | None, now: Mapping) -> str:
    if not isinstance(earlier, Mapping):
        return "its run.json is unreadable"
    keys = sorted(set(earlier) | set(now))
    changed = [k for k in keys if earlier.get(k) != now.get(k)]
    return ", ".join(f"{k}: {earlier.get(k)!r} then, {now.get(k)!r} now" for k in changed[:2])


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done (the swap of a run is never cut).

    Their handlers are swapped for one that notes the signal; once the block
    is done the old handlers are back and a noted signal is raised again.
    """
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    held: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)
    previous = {signum: signal.signal(signum, lambda signum, frame: noted.append(signum)) for signum in held}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(noted):
            signal.raise_signal(signum)


__all__ = ["RunLock", "RunWriter", "versions"]
