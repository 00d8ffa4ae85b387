"""The value of an effect for the Relic automaton, compiled once per effect into a function of the estimates and
the seat's view (:meth:`Estimates.eff_value_of`'s words with their numbers read once)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from wizprint.cards.model import Effect

from .data import AI, COLOURS
from .seatview import RelicView


class Estimator(Protocol):
    """What a compiled effect value asks of the automaton's estimates (``estimates.Estimates``, its base class)."""

    def attr_weight(self, v: RelicView, a: int) -> float: ...

    def p_fight(self, v: RelicView, attr: int, value: int, traits: tuple[str, ...] = (), edice: int = 0) -> float:
        ...

    def p_test(self, v: RelicView, a: int, target: int) -> float: ...

    def colour_bonus(self, v: RelicView, col: str) -> float: ...

    def effs_value(self, v: RelicView, effs: Iterable[Effect]) -> float: ...

    def eff_value_of(self, v: RelicView, e: Effect) -> float: ...


# -- effect values, compiled --------------------------------------------------------------------------------------
EffectValue = Callable[[Estimator, RelicView], float]


def value_of(e: Effect) -> EffectValue | None:
    """``Estimates.eff_value_of`` for one effect, as a function with the effect's words and numbers read once (the
    automaton values the same printed effects again and again); None for an effect it leaves to ``eff_value_of``
    (moves, which read the goal, and anything unusual). Each function computes exactly what ``eff_value_of`` does,
    in the same order, so the values are the same to the last bit."""
    try:
        return _compile(e)
    except (KeyError, ValueError, TypeError, ZeroDivisionError):
        return None  # left to eff_value_of, which raises as it always did


def list_value(effs: Sequence[Effect]) -> EffectValue:
    """``sum(eff_value(v, e) for e in effs)`` as one function: the effects' values added in the same order (so the
    sum is the same to the last bit; only a zero's sign may differ, which no comparison of values sees)."""
    fns = tuple(value_of(e) or _read_word(e) for e in effs)
    if not fns:
        def nothing(a: Estimator, v: RelicView) -> float:
            return 0
        return nothing
    if len(fns) == 1:
        return fns[0]
    if len(fns) == 2:
        f0, f1 = fns

        def two(a: Estimator, v: RelicView) -> float:
            return f0(a, v) + f1(a, v)
        return two

    def many(a: Estimator, v: RelicView) -> float:
        total: float = 0
        for f in fns:
            total += f(a, v)
        return total
    return many


def _sub(effs: Any) -> EffectValue:
    """A nested effect list's ``Estimates.effs_value``, compiled with the effect that holds it."""
    if isinstance(effs, (tuple, list)):
        return list_value(effs)

    def value(a: Estimator, v: RelicView) -> float:
        return a.effs_value(v, effs)
    return value


def _read_word(e: Effect) -> EffectValue:
    def read(a: Estimator, v: RelicView) -> float:
        return a.eff_value_of(v, e)
    return read


def _constant(x: float) -> EffectValue:
    def value(a: Estimator, v: RelicView) -> float:
        return x

    return value


def _compile(e: Effect) -> EffectValue | None:
    w = e.word
    p = e.params
    if w == "gain":
        st, n = str(p["stat"]), int(p["n"])
        if st == "influence":
            return _constant(0.45 * n)
        if st == "life":
            def gain_life(a: Estimator, v: RelicView) -> float:
                life = v.life
                return min(n, 12 - life) * (1.2 if life <= 3 else 0.6 if life < 6 else 0.25)
            return gain_life
        if st == "attribute":
            return _constant(1.6 * n)
        ai, k = AI[st], 1.2 * n

        def gain_attribute(a: Estimator, v: RelicView) -> float:
            return k * a.attr_weight(v, ai)
        return gain_attribute
    if w == "lose":
        st, n = str(p["stat"]), int(p["n"])
        if st == "influence":
            def lose_influence(a: Estimator, v: RelicView) -> float:
                return -0.4 * min(n, v.influence)
            return lose_influence
        if st == "life":
            def lose_life(a: Estimator, v: RelicView) -> float:
                return -n * (2.5 if v.life <= n + 1 else 1.0)
            return lose_life
        return _constant(-1.1 * n)
    if w == "draw":
        d, n = str(p["deck"]), int(p["n"])
        if d == "power":
            def draw_power(a: Estimator, v: RelicView) -> float:
                return n * (1.0 if v.hand_size < v.power_limit() else 0.4)
            return draw_power
        if d == "corruption":
            def draw_corruption(a: Estimator, v: RelicView) -> float:
                return n * (-1.6 - 0.5 * v.corruption())
            return draw_corruption
        return _constant(n * {"wargear": 2.0, "mission": 0.3, "relic": 5.0}[d])
    if w == "draw_threat":
        col = str(p["colour"])
        ci, n = COLOURS.index(col), int(p["n"])

        def draw_threat(a: Estimator, v: RelicView) -> float:
            q = a.p_fight(v, ci, 3)
            return n * (q * (1.0 + a.colour_bonus(v, col)) - (1 - q) * 1.4)
        return draw_threat
    if w == "test":
        ai, target, passed, failed = AI[str(p["attribute"])], int(p["target"]), p["then_pass"], p["then_fail"]

        fp, ff = _sub(passed), _sub(failed)

        def test(a: Estimator, v: RelicView) -> float:
            q = a.p_test(v, ai, target)
            return q * fp(a, v) + (1 - q) * ff(a, v)
        return test
    if w == "battle":
        ai, value, won, lost = AI[str(p["attribute"])], int(p["value"]), p["then_win"], p["then_lose"]

        fw, fl = _sub(won), _sub(lost)

        def battle(a: Estimator, v: RelicView) -> float:
            q = a.p_fight(v, ai, value)
            return q * (0.5 + fw(a, v)) + (1 - q) * (-1.2 + fl(a, v))
        return battle
    if w == "roll":
        results = [(len(r["faces"]) / 6, _sub(r["then"])) for r in p["results"]]

        def roll(a: Estimator, v: RelicView) -> float:
            return sum([q * then(a, v) for q, then in results])
        return roll
    if w == "may":
        then = _sub(p["then"])

        def may(a: Estimator, v: RelicView) -> float:
            return max(0.0, then(a, v))
        return may
    if w == "pay":
        cost, then = int(p["influence"]), _sub(p["then"])
        k = 0.45 * cost

        def pay(a: Estimator, v: RelicView) -> float:
            if v.influence < cost:
                return 0.0
            return max(0.0, then(a, v) - k)
        return pay
    if w == "choose":
        options = [_sub(o["then"]) for o in p["options"]]

        def choose(a: Estimator, v: RelicView) -> float:
            return max([then(a, v) for then in options])
        return choose
    if w == "buy_power":
        price = int(p["price"])
        if price == 0:
            return None

        def buy_power(a: Estimator, v: RelicView) -> float:
            room = v.power_limit() - v.hand_size
            return 0.6 * min(room, v.influence // price) if room > 0 else 0.0
        return buy_power
    if w == "buy_wargear":
        def buy_wargear(a: Estimator, v: RelicView) -> float:
            return 1.5 if v.influence >= 4 and v.can("buy") else 0.0
        return buy_wargear
    if w == "remove_corruption":
        n = int(p["n"])

        def remove_corruption(a: Estimator, v: RelicView) -> float:
            return min(n, v.corruption()) * (0.8 + 0.4 * v.corruption())
        return remove_corruption
    if w == "complete_mission":
        return _constant(3.5 * int(p["n"]))
    if w == "gain_level":
        return _constant(4.0 * int(p["n"]))
    if w == "miss_turn":
        return _constant(-3.0)
    if w == "discard":
        return _constant(-1.0 * int(p["n"]))
    if w == "each_player":
        if p.get("others"):
            return _constant(0.2)
        then = _sub(p["then"])

        def each_player(a: Estimator, v: RelicView) -> float:
            return 0.3 * then(a, v)
        return each_player
    if w == "win_game":
        return _constant(100.0)
    if w == "scenario_token":
        need = int(p["need"])

        def scenario_token(a: Estimator, v: RelicView) -> float:
            return 5.0 if v.scenario_tokens + 1 >= need else 2.0
        return scenario_token
    return None  # gain_charge, cross, move_any, move_to and any other word: eff_value_of
