"""Python's random generator as an array of numbers: CPython's Mersenne Twister (MT19937),
its `random()`, `getrandbits`, `_randbelow` and `shuffle`, over a state a compiled kernel can
hold.

    state = from_random(random.Random(7))    # or: state = blank(); seed(state, 7)
    random(state), getrandbits(state, 5), randbelow(state, 52)
    shuffle(state, cards, len(cards))        # as effects.shuffled(rng, cards)
    to_random(state, rng)                    # rng goes on with the same stream

A state is 625 int64: the generator's 624 words, then the index of the next word to temper
(624: the words are spent, and are twisted afresh before the next). It is what
`random.Random.getstate()` holds, as numbers. The functions below draw from it exactly as
CPython's `random.Random` does (Modules/_randommodule.c and Lib/random.py), so that a game a
compiled kernel plays from the same seed is the engine's game: the same deal, the same
shuffles, the same choices of each random seat (benchmarks/jit_ceiling.py holds golf6 to
that). They are plain Python over plain integers, and numba's nopython mode compiles them as
they are (`compiled`); neither numba nor a compiled copy is needed to use them, only numpy.

Words are read with int() and masked to 32 bits after each step that may carry beyond, so
that the same text runs on Python's integers and on numba's int64 (no product overflows:
each multiplier is below 2**31 and each word below 2**32).
"""

from __future__ import annotations

import random as _random
import types
from collections.abc import Callable
from typing import Any

import numpy as np

N, M = 624, 397  # the words of a state; the distance of the word each is mixed with
MATRIX_A = 0x9908B0DF
UPPER, LOWER = 0x80000000, 0x7FFFFFFF
MASK = 0xFFFFFFFF
SIZE = N + 1  # a state's numbers: the words and the index


def blank() -> np.ndarray:
    """A state to seed (`seed`) or to fill: 625 zeros."""
    return np.zeros(SIZE, dtype=np.int64)


def from_random(rng: _random.Random) -> np.ndarray:
    """The state of Python's generator `rng`, as an array (rng itself is left as it is)."""
    _version, internal, _gauss = rng.getstate()
    return np.array(internal, dtype=np.int64)


def to_random(state: np.ndarray, rng: _random.Random) -> None:
    """Give Python's generator `rng` this state: its random() and getrandbits go on from
    here. (The pending second normal deviate of `gauss()`, which no state here keeps, is
    cleared.)"""
    rng.setstate((3, tuple(int(w) for w in state), None))


def seed(state: np.ndarray, n: int) -> None:
    """Seed as `random.Random(n)` does, for 0 <= n < 2**63: CPython splits the number into
    32-bit words, least significant first (one word for 0), and mixes them into a state
    made from 19650218 (init_by_array). Any other number is refused (ValueError): Python
    seeds a negative one by its size and a larger one with more words, which this does not."""
    if n < 0 or n > 0x7FFFFFFFFFFFFFFF:
        raise ValueError("twister.seed takes a number from 0 to 2**63 - 1")
    length = 1 if n <= MASK else 2
    prev = 19650218  # (each step reads the word written by the one before: kept here)
    state[0] = prev
    for i in range(1, N):  # init_genrand(19650218)
        prev = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK
        state[i] = prev
    i, j, prev = 1, 0, 19650218
    for _ in range(max(N, length)):
        word = (n >> (32 * j)) & MASK
        prev = ((int(state[i]) ^ ((prev ^ (prev >> 30)) * 1664525)) + word + j) & MASK
        state[i] = prev
        i += 1
        j += 1
        if i >= N:
            state[0] = prev
            i = 1
        if j >= length:
            j = 0
    for _ in range(N - 1):
        prev = ((int(state[i]) ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK
        state[i] = prev
        i += 1
        if i >= N:
            state[0] = prev
            i = 1
    state[0] = UPPER  # the first word's top bit set: a state is never all zeros
    state[N] = N


def twist(state: np.ndarray) -> None:
    """The next 624 words from the last: each is the top bit of its own word and the low 31
    of the next, shifted, mixed with the word M places on (already new past the end, as
    CPython's three loops do it) and with MATRIX_A where the low bit is set."""
    for k in range(N):
        y = (int(state[k]) & UPPER) | (int(state[(k + 1) % N]) & LOWER)
        word = int(state[(k + M) % N]) ^ (y >> 1)
        if y & 1:
            word ^= MATRIX_A
        state[k] = word
    state[N] = 0


def genrand_uint32(state: np.ndarray) -> int:
    """The next 32-bit output: the next word, tempered."""
    if state[N] >= N:
        twist(state)
    i = int(state[N])
    state[N] = i + 1
    y = int(state[i])
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK


def getrandbits(state: np.ndarray, k: int) -> int:
    """`random.Random.getrandbits(k)` for 0 <= k <= 63: up to 32 bits, the top k bits of one
    output; beyond, CPython fills 32-bit words from the least significant up, the last
    output's top bits the most significant. 0 draws nothing."""
    if k <= 0:
        return 0
    if k <= 32:
        return genrand_uint32(state) >> (32 - k)
    low = genrand_uint32(state)
    return low | (genrand_uint32(state) >> (64 - k)) << 32


def random(state: np.ndarray) -> float:
    """`random.Random.random()`: a float in [0, 1) with 53 random bits, the top 27 of one
    output and the top 26 of the next."""
    a = genrand_uint32(state) >> 5
    b = genrand_uint32(state) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


def randbelow(state: np.ndarray, n: int) -> int:
    """A number in [0, n), 1 <= n < 2**63, as `random.Random._randbelow` (randrange(n)) draws
    it: getrandbits(n.bit_length()) until one is below n (so n = 1 draws too)."""
    k = 0
    rest = n
    while rest:
        k += 1
        rest >>= 1
    r = getrandbits(state, k)
    while r >= n:
        r = getrandbits(state, k)
    return r


def shuffle(state: np.ndarray, cards: np.ndarray, length: int) -> None:
    """Shuffle the first `length` items of `cards` in place as `random.Random.shuffle` and
    effects.shuffled do a list of them: from the last place down, each swapped with one
    drawn from those up to it."""
    for i in range(length - 1, 0, -1):
        j = randbelow(state, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


# The functions above, callers after what they call.
FUNCTIONS = (seed, twist, genrand_uint32, getrandbits, random, randbelow, shuffle)


def compiled(njit: Callable[[Any], Any]) -> types.SimpleNamespace:
    """The functions above compiled by `njit` (numba.njit, or one with options), each
    calling the others' compiled forms: `compiled(numba.njit).random(state)`. They are
    compiled at their first call."""
    space: dict[str, Any] = dict(globals())
    out: dict[str, Any] = {}
    for f in FUNCTIONS:
        copy = types.FunctionType(f.__code__, space, f.__name__, f.__defaults__, f.__closure__)
        out[f.__name__] = space[f.__name__] = njit(copy)
    return types.SimpleNamespace(**out)
