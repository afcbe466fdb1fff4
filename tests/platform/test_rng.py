"""The game random source: SplitMix64 for new games (version 2), CPython's ``random`` kept as
version 1 for games stored before, and the JSON that says which one a game uses."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter

import pytest

from bot.games.base import RNG_VERSION, Rng, rng_version, splitmix64

MASK64 = (1 << 64) - 1


def test_splitmix64_matches_published_outputs() -> None:
    """Reference outputs of SplitMix64 (Vigna's splitmix64.c): seed 0 starts 0xe220a8397b1dcdaf,
    0x6e789e6aa1b965f4, 0x06c45d188009454f; seed 1234567 starts 6457827717110365317,
    3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821
    (the Rosetta Code task "Pseudo-random numbers/Splitmix64")."""
    assert [splitmix64(0, i) for i in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert [splitmix64(1234567, i) for i in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821]


def test_new_games_draw_from_splitmix64() -> None:
    """A version-2 Rng turns those words into draws as documented: ``random()`` is the top 53 bits
    over 2**53; ``randbelow(k)`` the top ``(k-1).bit_length()`` bits, redrawn while >= k."""
    rng = Rng(0)
    assert rng.version == RNG_VERSION == 2
    assert rng.random() == (0xE220A8397B1DCDAF >> 11) / 2**53
    # randbelow(3) looks at 2 bits: 0xe2... starts 0b11 (3: rejected), 0x6e... starts 0b01 -> 1
    rng = Rng(0)
    assert rng.randbelow(3) == 1 and rng.n == 2
    # 0x06c4... starts 0b0000_0110: randint(1, 6) = 1 + top 3 bits (0b000) = 1
    assert rng.randint(1, 6) == 1 and rng.n == 3
    rng = Rng(0)
    assert rng.randbelow(2**64) == 0xE220A8397B1DCDAF and rng.n == 1


def test_randbelow_keeps_every_value_equally_likely(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fed each 3-bit prefix once, randbelow(5) returns each of 0..4 exactly once and rejects 5..7
    (a modulo would map 5, 6, 7 onto 0, 1, 2 and make them twice as likely)."""
    words = iter([(prefix << 61) | 12345 for prefix in range(8)] * 2)
    monkeypatch.setattr(Rng, "_word", lambda self: next(words))
    rng = Rng(1)
    got = []
    for _ in range(5):
        got.append(rng.randbelow(5))
    assert got == [0, 1, 2, 3, 4]
    assert rng.randbelow(5) == 0  # 5, 6, 7 were skipped: the next accepted prefix is 0 again


def test_randbelow_is_unbiased_at_the_64_bit_boundary() -> None:
    """k = 3 * 2**62 uses whole words: a quarter of them (>= k) must be redrawn. Then a third of
    the draws fall below 2**62; with ``word % k`` half of them would (the rejected quarter
    folds onto the lowest third). 30,000 draws: expected 10,000, sd 82."""
    k = 3 << 62
    rng = Rng(2024)
    low = sum(rng.randbelow(k) < (1 << 62) for _ in range(30_000))
    assert abs(low - 10_000) < 500
    # about 4/3 words per draw (a quarter rejected)
    assert 38_000 < rng.n < 42_000
    rng = Rng(7)
    assert all(0 <= rng.randbelow(k) < k for _ in range(1000))
    with pytest.raises(ValueError):
        rng.randbelow(0)
    with pytest.raises(ValueError):
        rng.randbelow(2**64 + 1)


def test_dice_and_shuffles_are_uniform() -> None:
    """60,000 d6: each face 10,000 +- 500 (5 sd); 6,000 shuffles of 3 items: each of the 6
    orders 1,000 +- 150 (5 sd)."""
    rng = Rng(99)
    faces = Counter(rng.dice(60_000))
    assert set(faces) == set(range(1, 7))
    assert all(abs(n - 10_000) < 500 for n in faces.values()), faces
    orders: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        items = [1, 2, 3]
        rng.shuffle(items)
        orders[tuple(items)] += 1
    assert set(orders) == set(itertools.permutations([1, 2, 3]))
    assert all(abs(n - 1000) < 150 for n in orders.values()), orders
    picks = rng.sample(range(10), 4)
    assert len(set(picks)) == 4 and set(picks) <= set(range(10))
    assert rng.choice(["only"]) == "only"


def test_version_2_never_touches_cpython_random(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*_args: object) -> None:
        raise AssertionError("random.Random used by a version-2 Rng")

    monkeypatch.setattr(random, "Random", forbidden)
    rng = Rng(5)
    rng.shuffle(list(range(20)))
    rng.choice("abc")
    rng.sample("abcdef", 3)
    rng.dice(5)
    rng.random()
    rng.randint(-3, 3)


def v1_draw(seed: int, n: int) -> random.Random:
    """The version-1 algorithm as stored games were made with it: one ``random.Random`` per draw,
    seeded with an 8-byte BLAKE2b of ``"seed:n"``."""
    digest = hashlib.blake2b(f"{seed}:{n}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def test_version_1_draws_as_before() -> None:
    rng = Rng.from_json({"seed": 4103, "n": 10})
    assert rng.version == 1
    assert rng.randint(1, 6) == v1_draw(4103, 10).randint(1, 6)
    items, expected = list(range(30)), list(range(30))
    rng.shuffle(items)
    v1_draw(4103, 11).shuffle(expected)
    assert items == expected
    assert rng.choice("abcdefgh") == v1_draw(4103, 12).choice("abcdefgh")
    assert rng.dice(4) == [r.randint(1, 6) for r in [v1_draw(4103, 13)] for _ in range(4)]
    assert rng.to_json() == {"seed": 4103, "n": 14}  # the JSON earlier releases wrote, unchanged


def test_json_says_the_version_and_round_trips() -> None:
    rng = Rng(2**64 + 5)  # seeds are taken modulo 2**64
    assert rng.to_json() == {"v": 2, "seed": 5, "n": 0}
    rng.dice(7)
    again = Rng.from_json(rng.to_json())
    assert again.version == 2 and [again.random() for _ in range(5)] == [rng.random() for _ in range(5)]
    with rng_version(1):
        old = Rng(5)
        assert old.version == 1 and "v" not in old.to_json()
        assert Rng.from_json({"v": 2, "seed": 1, "n": 0}).version == 2  # the JSON wins over the block
    assert Rng(5).version == 2
    with pytest.raises(ValueError):
        Rng.from_json({"v": 3, "seed": 1, "n": 0})
    with pytest.raises(ValueError), rng_version(0):
        pass
    assert splitmix64(MASK64, 0) == splitmix64(-1, 0)
