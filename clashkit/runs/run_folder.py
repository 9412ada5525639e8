"""A run folder's names and how it is read: the files a run may hold (plain names, regular
files, a size limit on its records), its manifest, and :func:`open_run`, which every reader of a
run goes through.  The writer (:mod:`clashkit.runs.output`) checks every name it reads with the
same :func:`run_file_name`."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..base.errors import RunFolderError
from ..base.limits import shown
from ..base.rules import FRAMES_VERSION

#: The frames of a run, in the order their parts are written (games last: a part is done
#: once its games file exists).
RUN_FILES = ("events", "turns", "games")
MANIFEST = "manifest.json"
STAGING = ".clashkit-run"
#: The new manifest inside ``STAGING`` once a commit is decided (see the module docstring).
COMMIT = "commit.json"
LOCK = ".clashkit.lock"
FORMAT = "clashkit-run/1"
#: The names of a run's files: a frame's lower-case name and ``.parquet`` (``games.parquet``, a
#: study's ``pareto.parquet``).  No separator, no ``..``, nothing hidden or absolute: a name read
#: from a manifest can only name a file of the run folder itself (:func:`run_file_name`).
RUN_FILE = re.compile(r"[a-z][a-z0-9_]{0,63}\.parquet")
#: The largest ``manifest.json``, ``commit.json`` or ``run.json`` read (a run's record is a few
#: kilobytes; a bigger file is refused unread, so a link to a device is never read whole).
MAX_MANIFEST_BYTES = 1 << 20


# --- What may be opened: plain names, regular files ----------------------------------------


def run_file_name(name: object, where: object) -> str:
    """``name`` if it is the name of a run's file (:data:`RUN_FILE`), else one line naming ``where``.

    The one check of every name read from a folder (``manifest.json``, a decided
    ``commit.json``): the readers (:func:`open_run`) and the writer rolling a commit
    forward (:meth:`RunWriter.__enter__`) both call it, so no name leads out of the
    folder nor onto its manifest, its lock or its staging, and a refused folder is
    left exactly as it was.
    """
    if isinstance(name, str) and RUN_FILE.fullmatch(name):
        return name
    raise RunFolderError(
        f"{where}: {shown(name)} is not a run file name (a frame's name and .parquet, inside the folder); "
        "nothing was changed"
    )


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in a few words."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def not_regular(path: Path, mode: int, error: type[Exception] = RunFolderError) -> Exception:
    return error(f"{path}: {file_kind(mode)}, where a run has a regular file; clashkit opens no other kind")


def open_regular(path: Path) -> int:
    """A read-only descriptor of ``path`` if it is a regular file, opened without following a link.

    ``lstat`` first (a link, a FIFO or a device is refused unopened), then
    ``O_NOFOLLOW | O_NONBLOCK`` (a FIFO put there since cannot block the open) and
    ``fstat`` (the file opened is the one checked).  ``FileNotFoundError`` and other
    ``OSError`` reach the caller, which names the place.
    """
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise not_regular(path, info.st_mode)
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise not_regular(path, opened.st_mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_record(path: Path) -> bytes:
    """The bytes of a run's record (``manifest.json``, ``commit.json``, ``run.json``): a regular
    file (:func:`open_regular`) of at most :data:`MAX_MANIFEST_BYTES`."""
    fd = open_regular(path)
    blocks: list[bytes] = []
    try:
        size = os.fstat(fd).st_size
        read = 0
        while size <= MAX_MANIFEST_BYTES and read <= MAX_MANIFEST_BYTES:
            block = os.read(fd, MAX_MANIFEST_BYTES + 1 - read)
            if not block:
                break
            blocks.append(block)
            read += len(block)
    finally:
        os.close(fd)
    data = b"".join(blocks)
    if size > MAX_MANIFEST_BYTES or len(data) > MAX_MANIFEST_BYTES:
        raise RunFolderError(
            f"{path}: {max(size, len(data)):,} bytes, more than the {MAX_MANIFEST_BYTES:,} a run's record may hold"
        )
    return data


def staging_of(directory: Path) -> Path:
    """``directory/.clashkit-run`` (:data:`STAGING`), refused when it is anything but a plain
    folder: through a link the writer would move, write and delete files elsewhere."""
    staging = directory / STAGING
    try:
        info = os.lstat(staging)
    except FileNotFoundError:
        return staging
    except OSError as e:
        raise RunFolderError(f"{staging}: cannot read ({e.strerror or e})") from None
    if not stat.S_ISDIR(info.st_mode):
        raise RunFolderError(
            f"{staging}: {file_kind(info.st_mode)}, where clashkit keeps a run's work in a plain folder; remove it"
        )
    return staging


# --- Reading ------------------------------------------------------------------------------


def read_manifest(directory: str | os.PathLike, *, verify: bool = True) -> dict[str, Any]:
    """The manifest of a run folder, refusing a folder that is not one complete run.

    With ``verify`` every file's row count and SHA-256 are checked against it.
    A :class:`~clashkit.base.errors.RunFolderError` names what is wrong.
    """
    with open_run(directory, verify=verify) as (manifest, _):
        return manifest


#: How often a reader starts again when a commit changes the folder while it reads.
_READ_TRIES = 5


@contextlib.contextmanager
def open_run(directory: str | os.PathLike, *, verify: bool = True):
    """``(manifest, {file name: open binary file})`` of the folder's one run, checked.

    Each file is opened once: with ``verify`` its bytes are hashed through that
    open file, which is then rewound for the caller to read, so what is read
    is what was hashed.  A commit between the manifest and the files (the
    folder's run changed under the reader) makes it start again; a folder
    that does not match its manifest is refused.  Frames and rules versions
    newer than this clashkit's are refused (:func:`check_versions`).
    """
    directory = Path(directory)
    for attempt in range(_READ_TRIES):
        state = _run_state(directory)
        handles: dict[str, Any] = {}
        try:
            try:
                manifest = _checked_manifest(directory, state, handles, verify=verify)
            except RunFolderError:
                if attempt + 1 < _READ_TRIES and _run_state(directory) != state:
                    continue  # the run changed while we read: read the new one
                raise
            yield manifest, handles
            return
        finally:
            for handle in handles.values():
                handle.close()
    raise RunFolderError(f"{directory}: its run changed {_READ_TRIES} times while it was read; read it again")


def _run_state(directory: Path) -> tuple[Path, bytes] | None:
    """Where the folder's manifest is (a decided commit's or ``manifest.json``) and its bytes
    (:func:`read_record`: a regular file, not through a link, of a bounded size)."""
    for path in (staging_of(directory) / COMMIT, directory / MANIFEST):
        try:
            return path, read_record(path)
        except FileNotFoundError:
            continue
        except OSError as e:
            raise RunFolderError(f"{path}: cannot read ({e.strerror or e})") from None
    return None


def _checked_manifest(directory: Path, state, handles: dict, *, verify: bool) -> dict[str, Any]:
    if state is None:
        present = [f"{n}.parquet" for n in RUN_FILES if (directory / f"{n}.parquet").exists()]
        what = f"holds {', '.join(present)} but" if present else "is not a run folder: it has"
        raise RunFolderError(
            f"{directory}: {what} no {MANIFEST} (an unfinished or interrupted run, or one from an "
            "older clashkit); write the run again"
        )
    path, data = state
    manifest = parse_manifest(path, data)
    check_versions(manifest, path)
    files = manifest["files"]
    decided = path.parent != directory  # a commit still moving its files: some are in STAGING
    listed_names = (Path(f).stem for f in files if f.endswith(".parquet"))
    for name in dict.fromkeys((*RUN_FILES, *listed_names)):
        file = directory / f"{name}.parquet"
        listed = files.get(file.name)
        if listed is None:
            if os.path.lexists(file) and not (decided and file.name in manifest.get("removes", ())):
                raise RunFolderError(f"{file}: not part of the run its {MANIFEST} describes (a file of another run)")
            continue
        source = path.parent / file.name if decided and os.path.lexists(path.parent / file.name) else file
        try:
            handle = os.fdopen(open_regular(source), "rb")
        except FileNotFoundError:
            raise RunFolderError(f"{file}: missing, but listed in {MANIFEST}") from None
        except OSError as e:
            raise RunFolderError(f"{file}: cannot read ({e.strerror or e})") from None
        handles[file.name] = handle
        if verify:
            size, digest = _hash_open(handle)
            if size != listed["bytes"] or digest != listed["sha256"]:
                raise RunFolderError(f"{file}: its contents differ from {MANIFEST} (changed or replaced)")
            rows = _rows_open(handle, file)
            if rows != listed["rows"]:
                raise RunFolderError(f"{file}: {rows} rows, {MANIFEST} says {listed['rows']}")
    return manifest


def parse_manifest(path: Path, data: bytes) -> dict[str, Any]:
    """The manifest's JSON, every key it must have of the type it must have, or one line naming the key."""
    where = f"{path}: not a clashkit run manifest"
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise RunFolderError(f"{where} (not JSON)") from None
    if not isinstance(manifest, dict):
        raise RunFolderError(f"{where} (a JSON {type(manifest).__name__}, not an object)")
    if manifest.get("format") != FORMAT:
        raise RunFolderError(f"{path}: format {shown(manifest.get('format'))}, not {FORMAT!r}")
    kinds = {"files": dict, "run": dict, "versions": dict}
    for key, kind in kinds.items():
        if not isinstance(manifest.get(key), kind):
            raise RunFolderError(f"{where}: key {key!r} must be a JSON object, not {shown(manifest.get(key))}")
    for name, entry in manifest["files"].items():
        run_file_name(name, f"{where}: files")
        if not (
            isinstance(entry, dict)
            and all(isinstance(entry.get(k), int) and not isinstance(entry.get(k), bool) for k in ("rows", "bytes"))
            and isinstance(entry.get("sha256"), str)
        ):
            raise RunFolderError(f"{where}: files: {name}: must be an object with rows, bytes and sha256")
    removes = manifest.get("removes", [])
    if not isinstance(removes, list):
        raise RunFolderError(f"{where}: key 'removes' must be a list of file names")
    for name in removes:
        run_file_name(name, f"{where}: removes")
    return manifest


def check_versions(manifest: Mapping[str, Any], where: object) -> None:
    """Refuse a run written by a newer clashkit: its frames or rules version above this one's.

    An older frames version is read when its frames have this version's
    schemas (``Trace.read_parquet`` checks them) and refused naming the version otherwise.
    """
    from ..base.rules import RULES_VERSION

    absent = object()  # an older run without the key; a null is refused like any non-number
    frames = manifest.get("frames_version", manifest["run"].get("frames_version", absent))
    rules = manifest["versions"].get("rules", manifest["run"].get("rules_version", absent))
    mine = FRAMES_VERSION
    for what, given, reader in (("frames", frames, mine), ("rules", rules, RULES_VERSION)):
        if given is absent:
            continue
        try:
            number = int(str(given)) if str(given).isascii() and str(given).isdigit() else None
        except ValueError:
            number = None
        if number is None:
            raise RunFolderError(f"{where}: {what} version {shown(given)} is not a version number")
        if number > reader:
            raise RunFolderError(
                f"{where}: {what} version {number}, newer than the {reader} this clashkit reads; "
                "read it with the clashkit that wrote it (or a newer one)"
            )


def _hash_open(handle) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    handle.seek(0)
    for block in iter(lambda: handle.read(1 << 20), b""):
        digest.update(block)
        size += len(block)
    handle.seek(0)
    return size, digest.hexdigest()


def _rows_open(handle, file: Path) -> int:
    import polars as pl

    try:
        handle.seek(0)
        count = pl.scan_parquet(handle).select(pl.len()).collect().item()
    except Exception:
        raise RunFolderError(f"{file}: not a Parquet file") from None
    finally:
        handle.seek(0)
    return count


__all__ = [
    "COMMIT",
    "FORMAT",
    "LOCK",
    "MANIFEST",
    "MAX_MANIFEST_BYTES",
    "RUN_FILE",
    "RUN_FILES",
    "STAGING",
    "check_versions",
    "file_kind",
    "not_regular",
    "open_regular",
    "open_run",
    "parse_manifest",
    "read_manifest",
    "read_record",
    "run_file_name",
    "staging_of",
]
