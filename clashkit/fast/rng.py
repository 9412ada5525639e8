"""The game's generator compiled (R10.2): :mod:`clashkit.base.rng`'s SplitMix64 over a one-word array.

``rng`` is a ``uint64`` array of one element, the generator's state word; each
function here is the :class:`clashkit.base.rng.Rng` method of the same name, step
for step (``tests/fast/test_rng.py`` checks them bit for bit).

Compiled, ``uint64`` sums and products wrap silently modulo ``2**64``.  In plain Python
(``NUMBA_DISABLE_JIT=1``, :data:`clashkit.fast.jit.JIT`) NumPy's scalars wrap the same
but warn on every word, so there the steps that wrap run with NumPy's overflow warning
off (:func:`_wrapping`).
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from .jit import JIT

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
U30 = np.uint64(30)
U27 = np.uint64(27)
U31 = np.uint64(31)
U11 = np.uint64(11)
U64 = np.uint64(64)


def _wrapping(f):
    """``f`` run with NumPy's overflow warning off: its ``uint64`` words wrap as compiled code's do."""

    @functools.wraps(f)
    def wrapped(*args):
        with np.errstate(over="ignore"):
            return f(*args)

    return wrapped


#: How a step that wraps ``uint64`` words is built: compiled, or in Python without warnings.
_wraps = njit(cache=True) if JIT else _wrapping


@_wraps
def next64(rng):
    """One SplitMix64 step: the state moves on, the mixed word comes out."""
    s = rng[0] + GOLDEN
    rng[0] = s
    z = (s ^ (s >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@_wraps
def randrange(rng, n):
    """An integer in ``[0, n)``: words below ``2**64 mod n`` are drawn again."""
    un = np.uint64(n)
    while True:
        word = next64(rng)
        # 2**64 mod n is below n, so a word of at least n is kept without computing it (one
        # division saved nearly always); else 2**64 mod n, in 64 bits: (2**64 - n) mod n.
        if word >= un or word >= (np.uint64(0) - un) % un:
            return np.int64(word % un)


@njit(cache=True)
def random(rng):
    return np.float64(next64(rng) >> U11) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def getrandbits64(rng, k):
    """``getrandbits(k)`` for ``0 <= k <= 64``."""
    if k == 0:
        return np.uint64(0)
    return next64(rng) >> (U64 - np.uint64(k))


@njit(cache=True)
def shuffle(rng, x, n):
    """Fisher–Yates from the end over ``x[:n]``."""
    i = n - 1
    while i > 0:
        j = randrange(rng, i + 1)
        t = x[i]
        x[i] = x[j]
        x[j] = t
        i -= 1


@njit(cache=True)
def sample_into(rng, pool, n, k):
    """Partial Fisher–Yates from the front: ``pool[:k]`` becomes the sample of ``k`` of ``pool[:n]``."""
    for i in range(k):
        j = i + randrange(rng, n - i)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t


def new_rng(seed: int) -> np.ndarray:
    """A generator's state array from a game seed."""
    return np.array([int(seed) & ((1 << 64) - 1)], dtype=np.uint64)
