"""The fitted evaluation of an unfinished Covenant game, which the search bot scores its shortened playouts by
(``rollout_depth`` in the ``[engine]`` table). ``scripts/fit_eval.py --game covenant`` fits ``WEIGHTS``."""

from __future__ import annotations

import math

from .data import ACTION_ABILITIES
from .state import CovenantState

FEATURES = ("vp", "vp over 15", "wizards", "items", "followers", "resources", "hand", "quest vp in hand",
            "best duel strength", "action abilities", "to move")


def eval_features(state: CovenantState, seat: int) -> tuple[float, ...]:
    """What the evaluation weighs for one seat (names in ``FEATURES``)."""
    c = state.data.cards
    s = state
    vp = s.vp(seat)
    wiz = s.wizards[seat]
    items = sum(1 for w in wiz for a in s.attached.get(w, ()) if c[a].type == "item")
    fol = len(s.followers[seat]) + sum(1 for w in wiz for a in s.attached.get(w, ()) if c[a].type == "follower")
    hand = s.hands[seat]
    qvp = sum(c[x].vp for x in hand if c[x].type == "quest")
    duel = max((s.duel_strength(w) for w in wiz), default=0)
    acts = sum(1 for w in wiz for ab in s.abilities(w) if ab in ACTION_ABILITIES)
    return (float(vp), float(max(0, vp - 15)), float(len(wiz)), float(items), float(fol),
            float(len(s.resources[seat])), float(len(hand)), float(qvp), float(duel), float(acts),
            1.0 if s.turn_player == seat else 0.0)


# Fitted by ``scripts/fit_eval.py --game covenant`` (a conditional logit on automaton self-play positions: the chance
# that a seat wins is softmax over the seats of weights · features).
WEIGHTS = (0.1046, 0.1355, 0.2489, -0.0193, 0.0265, 0.1417, 0.1249, 0.0299, 0.0312, 0.0697, 0.1361)


def win_chances(state: CovenantState) -> list[float]:
    """Each seat's estimated chance of winning from here (they sum to 1)."""
    f = [sum(w * x for w, x in zip(WEIGHTS, eval_features(state, k), strict=True)) for k in range(state.players)]
    top = max(f)
    e = [math.exp(v - top) for v in f]
    z = sum(e)
    return [v / z for v in e]


def evaluate(state: CovenantState) -> list[float]:
    """A quick estimate of the returns of an unfinished game, for truncated search playouts: the expected return
    (+1 for a win, -1 for a loss) under the fitted chances of ``win_chances``."""
    return [2.0 * p - 1.0 for p in win_chances(state)]
