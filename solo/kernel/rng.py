"""A small seeded random generator whose whole state is one integer, so a game state clones and serialises
cheaply. SplitMix64 (Steele, Lea and Flood 2014): fast, and good enough for shuffles and dice."""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
MASK = (1 << 64) - 1


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = seed & MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        # Lemire's multiply-shift; the bias is below 2**-50 for the n this project uses. next64 written out: this
        # is the call every die and shuffle makes
        z = self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def randint(self, a: int, b: int) -> int:
        return a + self.below(b - a + 1)

    def random(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        # Fisher-Yates with below(i + 1) written out (the same draws, without a call per card)
        z0 = self.state
        for i in range(len(seq) - 1, 0, -1):
            z = z0 = (z0 + 0x9E3779B97F4A7C15) & MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            seq[i], seq[j] = seq[j], seq[i]
        self.state = z0

    def fork(self, salt: int) -> Rng:
        """An independent generator derived from this one's state and ``salt`` (this one is unchanged)."""
        r = Rng(self.state ^ ((salt * 0xD1B54A32D192ED03) & MASK))
        r.next64()
        return r

    def copy(self) -> Rng:
        return Rng(self.state)


def below_once(seed: int, n: int) -> int:
    """``Rng(seed).below(n)`` without making the generator (a random player's every move)."""
    z = ((seed & MASK) + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return ((z ^ (z >> 31)) * n) >> 64


def derive(*parts: int | str) -> int:
    """A 64-bit seed from several parts (a base seed, a game number, a name): the same on every run and machine."""
    import hashlib

    h = hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=8)
    return int.from_bytes(h.digest(), "little")
