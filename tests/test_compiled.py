"""The compiled ``greedy`` (clashkit/compiled.py) plays its source's games, and never runs stale."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings

import pytest
from helpers import game_outcome, varied_game

import clashkit.policies.greedy as loaded_greedy
from clashkit import compiled
from clashkit.game import play

GREEDY = "clashkit.policies.greedy"
COMPILED = loaded_greedy.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def source_greedy():
    """``greedy.py`` imported from its source under another name, beside whatever build is loaded."""
    name = "clashkit.policies._greedy_source"
    spec = importlib.util.spec_from_file_location(name, compiled.source_path(GREEDY))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_loaded_greedy_is_the_compiled_build_exactly_when_that_is_current():
    assert COMPILED == (compiled.is_current(GREEDY) and not os.environ.get("CLASHKIT_PURE"))


@pytest.mark.skipif(not COMPILED, reason="greedy is not compiled here (make compiles it)")
@pytest.mark.parametrize(("policy_a", "policy_b"), [("greedy", "greedy"), ("random", "greedy")])
def test_the_compiled_greedy_plays_the_same_games_as_its_source(policy_a, policy_b):
    source = source_greedy()
    assert not source.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))

    def player(name):
        return source.GreedyPolicy() if name == "greedy" else name

    for seed in range(300):
        built = play(varied_game(seed, policy_a, policy_b), policy_a, policy_b)
        plain = play(varied_game(seed, policy_a, policy_b), player(policy_a), player(policy_b))
        assert game_outcome(built) == game_outcome(plain), seed


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package ``fakepkg`` with a module ``mod`` whose 'build' is an empty file: only
    :func:`compiled.prefer_current` can import it, from its source."""
    (tmp_path / "fakepkg").mkdir()
    (tmp_path / "fakepkg/__init__.py").write_text("")
    (tmp_path / "fakepkg/mod.py").write_text("WHERE = 'source'\n")
    (tmp_path / "fakepkg" / f"mod{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("CLASHKIT_PURE", raising=False)
    yield "fakepkg.mod"
    for name in ("fakepkg.mod", "fakepkg"):
        sys.modules.pop(name, None)


def test_a_build_older_than_its_source_gives_way_to_the_source(package):
    compiled.digest_path(package).write_text("0" * 64 + "\n")  # made from another source
    assert not compiled.is_current(package)
    with pytest.warns(UserWarning, match=r"mod\.py changed since it was compiled"):
        compiled.prefer_current(package)
    assert sys.modules[package].WHERE == "source"


def test_a_current_build_is_left_for_python_to_import(package):
    compiled.digest_path(package).write_text(compiled.source_digest(package) + "\n")
    assert compiled.is_current(package)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled.prefer_current(package)
    assert package not in sys.modules


def test_clashkit_pure_always_imports_the_source(package, monkeypatch):
    compiled.digest_path(package).write_text(compiled.source_digest(package) + "\n")
    monkeypatch.setenv("CLASHKIT_PURE", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled.prefer_current(package)
    assert sys.modules[package].WHERE == "source"


def test_a_build_without_its_digest_is_not_current(package):
    assert not compiled.is_current(package)


def test_a_subclass_in_python_changes_the_weights_the_build_reads():
    """The weights are class variables: a designer's subclass is read by the compiled code."""
    from clashkit.formats import new_game
    from clashkit.policies.greedy import GreedyPolicy

    class Cautious(GreedyPolicy):
        stop = 1e9  # no play is worth it

    state, _ = new_game("1", "2", "greedy", "greedy", seed=3)
    assert GreedyPolicy().summon(state) == (3, 0)  # TROLL into the upper lane
    assert Cautious().summon(state) is None
