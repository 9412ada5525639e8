"""The rules tests in both engines.

Each test that plays through ``helpers`` (``siege``, ``siege_text``, ``siege_with``,
``siege_state``; ``play_step``, ``turn_starts`` and ``run_turn_out`` to go on) runs as
``test_x[reference]`` and ``test_x[fast]``, the fast one playing in the fast engine
(``helpers.FastPlay``), so that a rule the fast engine gets wrong is named by its rule test; a
``[fast]`` run that played nothing there fails.  A test that reads only the reference engine (a
rule function called directly, a setup or an option checked) runs as ``test_x[reference]`` alone.
A test that takes ``engine`` as its own parameter names its engines itself.
"""

from __future__ import annotations

import inspect

import helpers
import pytest

#: The parameter that names the engine of each rules test (its id: ``reference`` or ``fast``).
ARG = "siege_engine"
#: The helpers that play a scenario in the engine ``helpers.ENGINE`` names.
PLAYS = frozenset({"siege", "siege_text", "siege_with", "siege_state", "play_step", "turn_starts", "run_turn_out"})


def _plays(function, module, seen: set) -> bool:
    """Whether ``function`` calls one of :data:`PLAYS`, itself or through a function of its module."""
    function = inspect.unwrap(getattr(function, "hypothesis", None) and function.hypothesis.inner_test or function)
    code = getattr(function, "__code__", None)
    if code is None or code in seen:
        return False
    seen.add(code)
    names = set(code.co_names)
    for const in code.co_consts:  # nested functions and lambdas
        if inspect.iscode(const):
            names |= set(const.co_names)
    if names & PLAYS:
        return True
    return any(
        _plays(getattr(module, name), module, seen)
        for name in names
        if inspect.isfunction(getattr(module, name, None)) and getattr(module, name).__module__ == module.__name__
    )


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "reference_only(why): a rules test that plays, run on the reference engine alone, and why"
    )


def pytest_generate_tests(metafunc):
    if "engine" in metafunc.fixturenames:  # a test that names its engines itself
        return
    both = _plays(metafunc.function, metafunc.module, set())
    both = both and not metafunc.definition.get_closest_marker("reference_only")
    engines = ["reference", "fast"] if both else ["reference"]
    metafunc.fixturenames.append(ARG)
    metafunc.parametrize(ARG, engines)


@pytest.fixture(autouse=True)
def _siege_engine(request):
    """The engine the siege helpers play in for this test (its :data:`ARG` parameter)."""
    callspec = getattr(request.node, "callspec", None)
    engine = callspec.params.get(ARG, "reference") if callspec is not None else "reference"
    helpers.ENGINE = engine
    played = helpers.FAST_PLAYS
    yield engine
    helpers.ENGINE = "reference"
    if engine == "fast":
        assert helpers.FAST_PLAYS > played, "a [fast] rules test that played nothing in the fast engine"
