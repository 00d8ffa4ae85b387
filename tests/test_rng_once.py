"""``below_once`` (a random player's move without making a generator) gives what ``Rng(seed).below(n)`` gives."""

from __future__ import annotations

import random

from wizprint.solo.kernel.rng import MASK, Rng, below_once


def test_below_once_is_a_fresh_generators_first_draw() -> None:
    pick = random.Random(17)
    seeds = [0, 1, MASK, MASK + 5, -1, 2**70 + 3] + [pick.getrandbits(80) - 2**79 for _ in range(2000)]
    for seed in seeds:
        for n in (1, 2, 3, 7, 52, 1000, 2**40 + 1):
            assert below_once(seed, n) == Rng(seed).below(n), (seed, n)
