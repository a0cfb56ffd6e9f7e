"""Python's generator as an array (interpreter/twister.py): for any state, the same numbers
as random.Random, draw for draw, and the state handed back goes on with the same stream.
The functions run here as plain Python (benchmarks/jit_ceiling.py runs them under numba)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="the generator's state is a numpy array")

from cardrules.interpreter import twister  # noqa: E402
from cardrules.interpreter.effects import shuffled  # noqa: E402
from cardrules.interpreter.state import blank_rng  # noqa: E402

SEEDS = st.integers(0, 2**63 - 1)
# Any seed Python takes: big numbers and text are seeded by Python, then taken as they are.
ANY_SEED = st.one_of(SEEDS, st.integers(-(2**200), 2**200), st.text(max_size=20))
RUNS = settings(max_examples=25, deadline=None, database=None)


def pair(seed: object, skip: int = 0) -> tuple[random.Random, np.ndarray]:
    """A generator and its state as an array, both `skip` outputs on (so that a state is
    met at every index, not only just seeded)."""
    rng = random.Random(seed)
    for _ in range(skip):
        rng.getrandbits(32)
    return rng, twister.from_random(rng)


@RUNS
@given(seed=SEEDS)
def test_seeding_is_pythons(seed: int) -> None:
    state = twister.blank()
    twister.seed(state, seed)
    assert state.tolist() == list(random.Random(seed).getstate()[1])


@pytest.mark.parametrize("seed", [-1, 2**63, 2**64 + 5])
def test_a_seed_it_cannot_seed_as_python_does_is_refused(seed: int) -> None:
    with pytest.raises(ValueError, match="0 to 2"):
        twister.seed(twister.blank(), seed)


@RUNS
@given(seed=ANY_SEED, skip=st.integers(0, 700))
def test_random_is_pythons(seed: object, skip: int) -> None:
    rng, state = pair(seed, skip)
    assert [twister.random(state) for _ in range(400)] == [rng.random() for _ in range(400)]


@RUNS
@given(seed=ANY_SEED, skip=st.integers(0, 700),
       widths=st.lists(st.sampled_from([0, 1, 2, 5, 6, 16, 31, 32, 33, 40, 63]), min_size=1,
                       max_size=60))
def test_getrandbits_is_pythons(seed: object, skip: int, widths: list[int]) -> None:
    rng, state = pair(seed, skip)
    for k in widths:
        assert twister.getrandbits(state, k) == rng.getrandbits(k), k
    assert twister.genrand_uint32(state) == rng.getrandbits(32)


BOUNDS = [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 52, 54, 64, 108, 1000, 2**31, 2**32 - 1, 2**32,
          2**32 + 1, 3 * 2**40, 2**62, 2**63 - 1]


@RUNS
@given(seed=ANY_SEED, skip=st.integers(0, 700),
       bounds=st.lists(st.one_of(st.sampled_from(BOUNDS), st.integers(1, 2**63 - 1)),
                       min_size=1, max_size=60))
def test_randbelow_is_pythons(seed: object, skip: int, bounds: list[int]) -> None:
    """Powers of two and 1 included: 1 draws a bit too, until it is 0."""
    rng, state = pair(seed, skip)
    for n in bounds:
        assert twister.randbelow(state, n) == rng.randrange(n), n
    assert twister.random(state) == rng.random()


@RUNS
@given(seed=ANY_SEED, skip=st.integers(0, 700), length=st.integers(0, 120),
       spare=st.integers(0, 5))
def test_shuffle_is_the_engines(seed: object, skip: int, length: int, spare: int) -> None:
    """The first `length` items shuffled as effects.shuffled and random.Random.shuffle
    shuffle a list of them; the rest of the array untouched."""
    rng, state = pair(seed, skip)
    cards = np.arange(length + spare, dtype=np.int64)
    twister.shuffle(state, cards, length)
    engine = list(range(length))
    shuffled(rng, engine)
    assert cards[:length].tolist() == engine
    assert cards[length:].tolist() == list(range(length, length + spare))
    python = random.Random(seed)
    for _ in range(skip):
        python.getrandbits(32)
    plain = list(range(length))
    python.shuffle(plain)
    assert plain == engine
    assert twister.random(state) == rng.random()  # (the same draws made, no more)


@RUNS
@given(seed=ANY_SEED, skip=st.integers(0, 700), draws=st.integers(0, 1300))
def test_the_state_handed_back_goes_on(seed: object, skip: int, draws: int) -> None:
    rng, state = pair(seed, skip)
    for _ in range(draws):
        assert twister.getrandbits(state, 32) == rng.getrandbits(32)
    back = blank_rng()
    twister.to_random(state, back)
    assert back.getstate()[1] == rng.getstate()[1]
    assert [back.random() for _ in range(700)] == [rng.random() for _ in range(700)]
    assert twister.from_random(back).tolist() == twister.from_random(rng).tolist()


@RUNS
@given(seed=ANY_SEED, word=st.integers(1, twister.N - 1), flip=st.integers(1, 2**32 - 1))
def test_a_changed_word_changes_the_stream(seed: object, word: int, flip: int) -> None:
    """Not the same numbers by any other way: one word of a fresh state changed (any but
    the first), and the next 624 outputs are not Python's."""
    rng, state = pair(seed)
    state[word] ^= flip
    ours = [twister.genrand_uint32(state) for _ in range(twister.N)]
    assert ours != [rng.getrandbits(32) for _ in range(twister.N)]


@RUNS
@given(seed=ANY_SEED, flip=st.integers(1, 2**31 - 1))
def test_the_first_words_low_bits_are_never_read(seed: object, flip: int) -> None:
    """MT19937's state is 19,937 bits: of the first word only the top bit counts (so a
    change there, and only there, is not a different stream; its top bit is)."""
    rng, state = pair(seed)
    other = state.copy()
    state[0] ^= flip
    other[0] ^= twister.UPPER
    python = [rng.getrandbits(32) for _ in range(twister.N)]
    assert [twister.genrand_uint32(state) for _ in range(twister.N)] == python
    assert [twister.genrand_uint32(other) for _ in range(twister.N)] != python


def test_a_changed_index_changes_the_stream() -> None:
    rng, state = pair(5, 10)
    state[twister.N] += 1
    assert [twister.random(state) for _ in range(5)] != [rng.random() for _ in range(5)]


def test_compiled_copies_call_each_other() -> None:
    """`compiled` hands each copy the others' compiled forms (here an `njit` that counts
    what it is given and compiles nothing)."""
    given_to: list[str] = []

    def njit(f):  # type: ignore[no-untyped-def]
        given_to.append(f.__name__)
        return f

    fns = twister.compiled(njit)
    assert given_to == [f.__name__ for f in twister.FUNCTIONS]
    assert fns.shuffle.__globals__["randbelow"] is fns.randbelow
    assert fns.shuffle is not twister.shuffle
    state = twister.blank()
    fns.seed(state, 3)
    rng = random.Random(3)
    assert [fns.random(state) for _ in range(3)] == [rng.random() for _ in range(3)]
