"""``greedy`` compiled with mypyc, and the check that the compiled build is current.

``python -m clashkit.compiled`` compiles the modules in :data:`MODULES` with
mypyc into extension modules beside their sources (``make`` does it when it
builds the environment, and again whenever a source changes).  Python then
imports the extension rather than the source: the same code, the same games
(the tests play both and compare every event), about half again as many
games a second.  Nothing else changes: the rules stay plain Python, and an
installed wheel, or a machine without a C compiler, runs the sources.

The build writes each source's digest beside it (``greedy.digest``).  If the
source changes afterwards — an edit without ``make`` — :func:`prefer_current`
imports the source instead, with a warning, so a stale build never plays.
With the environment variable ``CLASHKIT_PURE=1`` the sources are always
used (for a profiler that reads Python frames, say).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

#: The modules compiled: the greedy policy, whose decisions are most of a game's time.
MODULES = ("clashkit.policies.greedy",)

#: The directory that holds the ``clashkit`` package.
ROOT = Path(__file__).resolve().parent.parent


def source_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest_path(module: str) -> Path:
    return source_path(module).with_suffix(".digest")


def source_digest(module: str) -> str:
    return hashlib.sha256(source_path(module).read_bytes()).hexdigest()


def extensions(module: str) -> list[Path]:
    """The compiled builds of ``module`` beside its source (none, or one)."""
    source = source_path(module)
    return [p for p in (source.with_suffix(s) for s in importlib.machinery.EXTENSION_SUFFIXES) if p.exists()]


def is_current(module: str) -> bool:
    """Whether ``module`` has a compiled build made from its source as the source is now."""
    stamp = digest_path(module)
    if not extensions(module) or not stamp.exists():
        return False
    return stamp.read_text().strip() == source_digest(module)


def prefer_current(module: str) -> None:
    """Before ``module`` is first imported: if its compiled build is stale (or
    ``CLASHKIT_PURE`` is set), import it from its source instead."""
    if module in sys.modules or not extensions(module):
        return
    pure = bool(os.environ.get("CLASHKIT_PURE"))
    if not pure and is_current(module):
        return
    source = source_path(module)
    if not pure:
        warnings.warn(
            f"{source} changed since it was compiled: using the source (run `make` to compile it again)",
            stacklevel=2,
        )
    spec = importlib.util.spec_from_file_location(module, source)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[module] = loaded
    try:
        spec.loader.exec_module(loaded)
    except BaseException:
        del sys.modules[module]
        raise


def build(modules: tuple[str, ...] = MODULES) -> list[Path]:
    """Compile ``modules`` with mypyc beside their sources; returns the files written.

    The build runs in a temporary directory (its C sources, objects and mypy
    cache go there) and only the finished extension modules are copied back.
    Floating-point contraction is turned off so that C computes every score
    exactly as Python does.
    """
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    sources = [str(source_path(m).relative_to(ROOT)) for m in modules]
    digests = {m: source_digest(m) for m in modules}  # of the sources as compiled
    for module in modules:  # until the new build is in place, none counts as current
        digest_path(module).unlink(missing_ok=True)
    written: list[Path] = []
    cwd = os.getcwd()
    flags = os.environ.get("CFLAGS", "")
    with tempfile.TemporaryDirectory(prefix="clashkit-mypyc-") as work:
        # The whole package, for mypy to read the modules these import.
        shutil.copytree(
            ROOT / "clashkit", Path(work, "clashkit"), ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.digest")
        )
        os.chdir(work)
        os.environ["CFLAGS"] = f"{flags} -ffp-contract=off".strip()
        try:
            ext_modules = mypycify([*sources, "--follow-imports=silent"], opt_level="3")
            dist = Distribution({"name": "clashkit-compiled", "ext_modules": ext_modules})
            dist.script_args = ["build_ext", "--inplace", "--quiet"]
            dist.parse_command_line()
            dist.run_commands()
        finally:
            os.chdir(cwd)
            os.environ["CFLAGS"] = flags
        for built in Path(work, "clashkit").rglob("*"):
            if built.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
                destination = ROOT / built.relative_to(work)
                # A new file renamed into place: a process that has the old one loaded
                # keeps it intact.
                partial = destination.with_name(destination.name + ".partial")
                shutil.copy2(built, partial)
                os.replace(partial, destination)
                written.append(destination)
    for module in modules:
        digest_path(module).write_text(digests[module] + "\n")
        written.append(digest_path(module))
    return written


def main() -> None:
    try:
        written = build()
    except Exception as error:  # a compiler or mypy problem: say so in one line
        sys.exit(f"clashkit.compiled: could not compile {', '.join(MODULES)}: {error}")
    for path in written:
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
