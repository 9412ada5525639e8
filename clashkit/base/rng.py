"""The game's one seeded generator (R10.2): SplitMix64, specified here and shared by both engines.

Every random number of a game — the shuffles of R2.2 and R8.1, the coin of
R2.3, the draft's reveals (R7.2), the random policy, the loops greedy
leaves, search's rollouts — comes from one :class:`Rng`.  The reference
engine uses this class; the fast engine (:mod:`clashkit.fast.rng`) runs the
same algorithm compiled, over a one-word state, and ``tests/fast`` checks the
two bit for bit.  The algorithm, exactly:

**State.**  One unsigned 64-bit word ``s``.  ``seed(x)`` sets ``s = x mod 2**64``
(a game's seed is used as it is: ``simulate``'s per-game seeds are already
64-bit words).

**Next word** (Steele, Lea and Flood's SplitMix64), all arithmetic mod ``2**64``::

    s = s + 0x9E3779B97F4A7C15
    z = s
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    return z ^ (z >> 31)

**An integer in [0, n)** (``randrange(n)``, ``n >= 1``), unbiased by rejection:
``t = 2**64 mod n``; draw words ``w`` until ``w >= t``; return ``w mod n``.
Every call draws at least one word, also for ``n == 1``.

**Shuffle** (Fisher–Yates from the end, as Python's ``random.shuffle``)::

    for i from len(x) - 1 down to 1:
        j = randrange(i + 1); swap x[i], x[j]

**Sample** ``k`` of a population of ``n`` (partial Fisher–Yates from the front)::

    pool = list(population)
    for i from 0 to k - 1:
        j = i + randrange(n - i); swap pool[i], pool[j]
    return pool[:k]

**Float** in [0, 1) (``random()``): ``(next word >> 11) * 2**-53``.

**Bits** (``getrandbits(k)``): ``k <= 64`` takes the top ``k`` bits of one
word (``k == 0`` draws nothing and gives 0); a wider ``k`` joins words, the
first word lowest.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def split_mix(s: int) -> tuple[int, int]:
    """One SplitMix64 step: (new state, output word)."""
    s = (s + GOLDEN) & MASK64
    z = s
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return s, z ^ (z >> 31)


class Rng:
    """SplitMix64 with the methods the engine calls (those of ``random.Random`` it uses)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = 0
        self.seed(seed)

    def seed(self, seed: int = 0) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            seed = int(seed)
        self.state = seed & MASK64

    def getstate(self) -> int:
        return self.state

    def setstate(self, state: int) -> None:
        self.state = state & MASK64

    def copy(self) -> Rng:
        other = Rng.__new__(Rng)
        other.state = self.state
        return other

    def next64(self) -> int:
        """The next 64-bit word."""
        s = (self.state + GOLDEN) & MASK64
        self.state = s
        z = ((s ^ (s >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """An integer in ``[0, n)``, ``n >= 1`` (rejection; see the module docstring)."""
        if n < 1:
            raise ValueError(f"empty range for randrange({n})")
        threshold = (1 << 64) % n
        while True:
            word = self.next64()
            if word >= threshold:
                return word % n

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        if k <= 64:
            return self.next64() >> (64 - k)
        out = 0
        shift = 0
        while k > 0:
            take = min(k, 64)
            out |= (self.next64() >> (64 - take)) << shift
            shift += take
            k -= take
        return out

    def shuffle(self, x: MutableSequence[Any]) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.randrange(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population: Sequence[Any], k: int) -> list[Any]:
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError("sample larger than population or is negative")
        for i in range(k):
            j = i + self.randrange(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[self.randrange(len(seq))]

    def __repr__(self) -> str:
        return f"<Rng SplitMix64 state {self.state:#018x}>"


__all__ = ["Rng", "split_mix"]
