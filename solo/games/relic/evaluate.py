"""The fitted evaluation of an unfinished Relic game, which the search bot scores its shortened playouts by
(``rollout_depth`` in the ``[engine]`` table). ``scripts/fit_eval.py --game relic`` fits ``WEIGHTS``."""

from __future__ import annotations

import math

from .state import RelicState

FEATURES = ("relics", "relics past 1", "on the Middle tier", "on the Inner tier", "Inner tier steps",
            "at the centre", "scenario tokens", "missions completed", "level", "attributes", "life", "corruption",
            "influence", "Power cards", "assets", "trophy points", "to move", "out of the game")


def eval_features(state: RelicState, seat: int) -> tuple[float, ...]:
    """What the evaluation weighs for one seat (names in ``FEATURES``)."""
    s = state
    sp = s.data.spaces.get(s.positions[seat]) if s.positions else None
    tier = sp.tier if sp is not None else ""
    relics = s.relics(seat)
    return (float(relics), float(max(0, relics - 1)), 1.0 if tier == "middle" else 0.0,
            1.0 if tier == "inner" else 0.0, float(sp.position + 1) if sp is not None and tier == "inner" else 0.0,
            1.0 if tier == "centre" else 0.0, float(s.scenario_tokens[seat]) if s.scenario_tokens else 0.0,
            float(s.completed_count(seat)), float(s.level[seat]) if s.level else 0.0,
            float(sum(s.attributes[seat])) if s.attributes else 0.0, float(s.life[seat]) if s.life else 0.0,
            float(s.corruption(seat)), float(s.influence[seat]) if s.influence else 0.0, float(len(s.hands[seat])),
            float(len(s.assets[seat])), float(s.trophy_points(seat)), 1.0 if s.turn_player == seat else 0.0,
            1.0 if s.eliminated and s.eliminated[seat] else 0.0)


# Fitted by ``scripts/fit_eval.py --game relic`` (a conditional logit on automaton self-play positions: the chance
# that a seat wins is softmax over the seats of weights · features).
WEIGHTS = (0.3437, -0.2636, 0.3179, 0.0864, 0.4229, 1.9432, 0.2484, 0.1640, 0.0627, 0.0398, 0.0729, -0.1371, 0.0292,
           0.0296, 0.1354, 0.0190, 0.0098, 0.0000)


def win_chances(state: RelicState) -> list[float]:
    """Each seat's estimated chance of winning from here (they sum to 1)."""
    f = [sum(w * x for w, x in zip(WEIGHTS, eval_features(state, k), strict=True)) for k in range(state.players)]
    top = max(f)
    e = [math.exp(v - top) for v in f]
    z = sum(e)
    return [v / z for v in e]


def evaluate(state: RelicState) -> list[float]:
    """A quick estimate of the returns of an unfinished game, for truncated search playouts: the expected return
    (+1 for a win, -1 for a loss) under the fitted chances of ``win_chances``."""
    return [2.0 * p - 1.0 for p in win_chances(state)]
