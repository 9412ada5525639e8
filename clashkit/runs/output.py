"""A run's output folder as one unit: parts as they finish, then three files and a manifest.

A run writes ``games.parquet``, ``turns.parquet`` and (with events)
``events.parquet`` into its folder, and ``manifest.json`` **last**: the run's
parameters (seed, n, engine, options, versions) and every file with its row
count and SHA-256.  Readers (:func:`read_manifest`, ``Trace.read_parquet``)
refuse a folder whose files do not match it, so a folder is either one
complete run or refused — never two runs mixed.

While it runs, a :class:`RunWriter` holds ``.clashkit.lock`` (an ``fcntl``
lock: a second writer is refused; a lock left by a dead process is taken
over) and keeps its work in ``.clashkit-run/``: ``run.json`` (what it plays)
and one Parquet part per finished chunk of games.  Any engine hands it
frames chunk by chunk (:meth:`RunWriter.write_part`); an interrupted run
keeps its finished parts, and ``resume=True`` continues it without replaying
them.  :meth:`RunWriter.commit` assembles the parts (streaming, so memory
stays bounded), removes the old manifest, moves the files into place,
removes run files this run does not write (an old ``events.parquet`` after a
``--no-events`` run) and writes the manifest; signals wait until it is done.
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
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..base.errors import OutputError, RunFolderError

#: The frames of a run, in the order their parts are written (games last: a part is done
#: once its games file exists).
RUN_FILES = ("events", "turns", "games")
MANIFEST = "manifest.json"
STAGING = ".clashkit-run"
LOCK = ".clashkit.lock"
FORMAT = "clashkit-run/1"
_PART = re.compile(r"part-(\d{8})\.(events|turns|games)\.parquet")
#: Temporary files of earlier clashkit versions' writes (``.games.parquet.PID.xxxx.tmp``).
_OLD_TMP = re.compile(r"\.(events|turns|games)\.parquet\.\d+\.[0-9a-f]+\.tmp")


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


# --- The lock ------------------------------------------------------------------------------


class RunLock:
    """``DIRECTORY/.clashkit.lock`` held with ``fcntl.flock`` for as long as a run writes.

    The kernel drops the lock when its process dies, so a lock file left by a
    killed run is taken over, never mistaken for a live writer.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK
        self.fd: int | None = None

    def acquire(self) -> None:
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise _cannot(self.path, e) from None
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
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.write(fd, f"pid {os.getpid()} on {platform.node()}\n".encode())
                self.fd = fd
                return
            os.close(fd)

    def release(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            os.close(self.fd)
            self.fd = None


def _read_small(fd: int) -> str:
    try:
        return os.pread(fd, 200, 0).decode(errors="replace").strip()
    except OSError:
        return ""


# --- Writing ----------------------------------------------------------------------------


class RunWriter:
    """Writes one run into ``directory``; use as a context manager (it holds the lock).

    ``run`` is what the run plays (seed, n, decks, policies, options, engine):
    it goes into the manifest, and ``resume`` continues only a run with the
    same ``run``.  ``events``: whether the run writes ``events.parquet``.
    """

    def __init__(
        self,
        directory: str | os.PathLike,
        run: Mapping[str, Any],
        *,
        events: bool = True,
        resume: bool = False,
        files: Sequence[str] | None = None,
    ) -> None:
        self.directory = Path(directory)
        self.run = json.loads(json.dumps(dict(run), default=str))  # plain JSON values, as run.json holds them
        if files is None:
            self.names = [name for name in RUN_FILES if events or name != "events"]
        else:  # a study's own frames (``clashkit balance --out`` and the like)
            self.names = list(files)
        #: Every file name this folder's runs write: those of this run not written are removed.
        self.known = tuple(dict.fromkeys((*RUN_FILES, *self.names)))
        self.resume = resume
        self.staging = self.directory / STAGING
        self.lock = RunLock(self.directory)
        self.committed = False

    # -- Opening: everything that can go wrong with the folder, before any game is played.

    def __enter__(self) -> RunWriter:
        where = self.directory
        if where.exists() and not where.is_dir():
            raise OutputError(f"{where}: exists and is not a directory")
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise OutputError(f"{where}: cannot create the folder ({e.strerror or e})") from None
        for name in self.known:
            path = where / f"{name}.parquet"
            if path.is_dir() and not path.is_symlink():
                raise OutputError(f"{path}: is a directory, where the run writes a file; remove it")
        self.lock.acquire()
        try:
            self._open_staging()
        except BaseException:
            self.lock.release()
            raise
        return self

    def _open_staging(self) -> None:
        record = self.staging / "run.json"
        if self.staging.exists():
            try:
                earlier = json.loads(record.read_text(encoding="utf-8"))
            except (OSError, ValueError):
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
                self._atomic(path, frames[name].write_parquet)
            except OSError as e:
                raise _cannot(
                    path, e, "; the finished parts are kept and --resume continues the run"
                ) from None

    def _atomic(self, path: Path, write) -> None:
        tmp = path.with_name(f"{path.name}.{uuid.uuid4().hex[:8]}.tmp")
        try:
            write(tmp)
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
                    self._atomic(final, frames[name].write_parquet)
                else:
                    parts = [self._part(i, name) for i in sorted(self.done_parts())]
                    if parts:
                        lazy = pl.concat([pl.scan_parquet(p) for p in parts])
                        self._atomic(final, lambda tmp, lazy=lazy: lazy.sink_parquet(tmp))
                    else:
                        assert empty is not None, "a run with no parts is committed with its empty frames"
                        self._atomic(final, empty[name].write_parquet)
                staged[name] = final
            files = {
                f"{name}.parquet": {"rows": _rows(path), "bytes": path.stat().st_size, "sha256": _sha256(path)}
                for name, path in staged.items()
            }
            manifest = {"format": FORMAT, "run": self.run, "versions": versions(), "files": files}
            manifest_tmp = self.staging / MANIFEST
            self._atomic_write(manifest_tmp, (json.dumps(manifest, indent=1) + "\n").encode())
        except OSError as e:
            raise _cannot(self.directory, e, "; nothing of the run was moved into place") from None
        with _signals_held():
            # From here the old run is invalid (no manifest) until the new manifest is in place.
            (self.directory / MANIFEST).unlink(missing_ok=True)
            for name in self.known:
                target = self.directory / f"{name}.parquet"
                if name in staged:
                    os.replace(staged[name], target)
                elif target.exists() or target.is_symlink():
                    _remove(target)
            os.replace(manifest_tmp, self.directory / MANIFEST)
            self.committed = True
            shutil.rmtree(self.staging, ignore_errors=True)
        return [self.directory / f"{name}.parquet" for name in self.known if name in staged]


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
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


# --- Reading ------------------------------------------------------------------------------


def read_manifest(directory: str | os.PathLike, *, verify: bool = True) -> dict[str, Any]:
    """The manifest of a run folder, refusing a folder that is not one complete run.

    With ``verify`` every file's row count and SHA-256 are checked against it.
    A :class:`~clashkit.base.errors.RunFolderError` names what is wrong.
    """
    directory = Path(directory)
    path = directory / MANIFEST
    if not path.is_file():
        present = [f"{n}.parquet" for n in RUN_FILES if (directory / f"{n}.parquet").exists()]
        what = f"holds {', '.join(present)} but" if present else "is not a run folder: it has"
        raise RunFolderError(
            f"{directory}: {what} no {MANIFEST} (an unfinished or interrupted run, or one from an "
            "older clashkit); write the run again"
        )
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        files = manifest["files"]
    except (OSError, ValueError, KeyError, TypeError):
        raise RunFolderError(f"{path}: not a clashkit run manifest") from None
    if manifest.get("format") != FORMAT:
        raise RunFolderError(f"{path}: format {manifest.get('format')!r}, not {FORMAT!r}")
    listed_names = (Path(f).stem for f in files if isinstance(f, str) and f.endswith(".parquet"))
    for name in dict.fromkeys((*RUN_FILES, *listed_names)):
        file = directory / f"{name}.parquet"
        listed = files.get(file.name)
        if listed is None:
            if file.exists():
                raise RunFolderError(
                    f"{file}: not part of the run its {MANIFEST} describes (a file of another run)"
                )
            continue
        if not file.is_file():
            raise RunFolderError(f"{file}: missing, but listed in {MANIFEST}")
        if verify:
            if file.stat().st_size != listed["bytes"] or _sha256(file) != listed["sha256"]:
                raise RunFolderError(f"{file}: its contents differ from {MANIFEST} (changed or replaced)")
            if _rows(file) != listed["rows"]:
                raise RunFolderError(f"{file}: {_rows(file)} rows, {MANIFEST} says {listed['rows']}")
    return manifest


__all__ = ["LOCK", "MANIFEST", "RUN_FILES", "STAGING", "RunLock", "RunWriter", "read_manifest", "versions"]
