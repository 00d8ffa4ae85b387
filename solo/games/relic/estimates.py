"""What the Relic automaton knows how to estimate, from a seat's view: exact exploding-dice odds for battles and
tests, distances on the board graph (ring steps, crossings, jumps and the Webway Portal; kept with the card data),
the goal of the moment, and the value of a landing space or of an effect list."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from functools import lru_cache

from wizprint.cards.model import Effect, effect_words

from .data import AI, ATTRS, COLOURS, Card, RelicData, Space
from .effectvalues import EffectValue, list_value, value_of
from .seatview import RelicView

MAXV = 60
CROSS_COST = 3.5
LIST_CACHE = 20_000  # compiled effect lists kept per data (cleared when full)
NEAREST_CACHE = 50_000  # nearest spaces kept per data (cleared when full)


def _explode_pmf(n: int) -> tuple[float, ...]:
    """The distribution of n exploding d6 summed (each 6 adds another die), up to MAXV."""
    one = [0.0] * (MAXV + 1)

    # one exploding die: 1-5 with 1/6, 6 + another exploding die
    def fill(base: int, p: float, depth: int) -> None:
        if depth > 6 or p < 1e-7:
            return
        for f in range(1, 6):
            if base + f <= MAXV:
                one[base + f] += p / 6
        fill(base + 6, p / 6, depth + 1)

    fill(0, 1.0, 0)
    dist = [1.0] + [0.0] * MAXV
    for _ in range(n):
        nxt = [0.0] * (MAXV + 1)
        for a, pa in enumerate(dist):
            if pa == 0.0:
                continue
            for b, pb in enumerate(one):
                if pb and a + b <= MAXV:
                    nxt[a + b] += pa * pb
        dist = nxt
    return tuple(dist)


PMF = [_explode_pmf(n) for n in range(5)]


@lru_cache(maxsize=4096)
def p_beat(delta: int, mine: int = 1, theirs: int = 1) -> float:
    """P(my dice + delta > their dice): a battle whose fixed scores differ by ``delta`` (mine - theirs)."""
    a, b = PMF[min(mine, 4)], PMF[min(theirs, 4)]
    total = 0.0
    # P(X + delta > Y) = sum_y P(Y=y) P(X > y - delta)
    tail = [0.0] * (MAXV + 2)
    for v in range(MAXV, -1, -1):
        tail[v] = tail[v + 1] + a[v]
    for y, py in enumerate(b):
        if py == 0.0:
            continue
        need = y - delta + 1
        total += py * (tail[max(0, need)] if need <= MAXV else 0.0)
    return total


@lru_cache(maxsize=4096)
def p_pass(need: int, dice: int = 1) -> float:
    """P(a skill roll of ``dice`` dice reaches ``need`` and is not all ones)."""
    a = PMF[min(dice, 4)]
    ones = (1 / 6) ** dice
    ok = sum(p for v, p in enumerate(a) if v >= need)
    if need <= dice:  # an all-ones roll would reach it but fails
        ok -= ones
    return max(0.0, ok)


# -- the board graph (derived from the data once, kept with it) -------------------------------------------------------
def _edges(D: RelicData) -> dict[str, list[tuple[str, float]]]:
    out: dict[str, list[tuple[str, float]]] = {}
    for sid, sp in D.spaces.items():
        es: list[tuple[str, float]] = []
        if sp.tier in ("outer", "middle"):
            ring = D.rings[sp.tier]
            i = D.ring_index[sid]
            es += [(ring[(i + 1) % len(ring)], 1.0), (ring[(i - 1) % len(ring)], 1.0)]
        if sp.next:
            es.append((sp.next, 3.5))
        if sp.jump:
            es.append((sp.jump, 1.0))
        for b in sp.boxes:
            for e in D.effects(b):
                if e.word == "cross":
                    es.append((str(e["to"]), CROSS_COST))
                elif e.word == "move_any":
                    es += [(x, CROSS_COST + 0.5) for x in D.rings[str(e["tier"])] if x != sid]
        out[sid] = es
    return out


def dist_to(D: RelicData, goal: str, rift: bool = False) -> dict[str, float]:
    """Distances (in movement points, a crossing counting as several) from every space to ``goal``."""
    cache = D.distances
    key = (goal, rift)
    got = cache.get(key)
    if got is not None:
        return got
    edges = D.cached("relic.automaton.edges", lambda: _edges(D))
    rev: dict[str, list[tuple[str, float]]] = {s: [] for s in D.spaces}
    for a, outs in edges.items():
        for b, c in outs:
            rev[b].append((a, c))
    if rift:
        for sid, sp in D.spaces.items():
            if sp.inner:
                rev[sp.inner].append((sid, 1.0))
    dist = {goal: 0.0}
    pq = [(0.0, goal)]
    while pq:
        d, x = heapq.heappop(pq)
        if d > dist.get(x, 1e9):
            continue
        for y, c in rev[x]:
            nd = d + c
            if nd < dist.get(y, 1e9):
                dist[y] = nd
                heapq.heappush(pq, (nd, y))
    cache[key] = dist
    return dist


def _trait_colour(D: RelicData) -> dict[str, str]:
    """The Threat deck where most enemies of each trait are (from the card data)."""
    counts: dict[str, dict[str, int]] = {}
    for c in D.cards.values():
        if c.category == "enemy" and c.trait:
            counts.setdefault(c.trait, {}).setdefault(c.deck, 0)
            counts[c.trait][c.deck] += 1
    return {t: max(sorted(v), key=lambda d: v[d]) for t, v in counts.items()}


def _spaces_where(D: RelicData, test: Callable[[Space, list[Effect]], bool]) -> list[str]:
    """The board spaces (sorted) whose text boxes' effects pass ``test``."""
    return sorted(sid for sid, sp in D.spaces.items() if test(sp, [e for b in sp.boxes for e in D.effects(b)]))


def heal_spaces(D: RelicData) -> list[str]:
    return D.cached("relic.automaton.heal", lambda: _spaces_where(D, lambda sp, effs: sp.tier in (
        "outer", "middle") and any(e.word == "gain" and e["stat"] == "life" and int(e["n"]) >= 1 for e in effs)))


def purge_spaces(D: RelicData) -> list[str]:
    return D.cached("relic.automaton.purge", lambda: _spaces_where(
        D, lambda sp, effs: sp.tier in ("outer", "middle") and "remove_corruption" in effect_words(effs)))


def shop_spaces(D: RelicData) -> list[str]:
    return D.cached("relic.automaton.shop", lambda: _spaces_where(
        D, lambda sp, effs: any(e.word == "buy_wargear" for e in effs)))


def card_value(D: RelicData, c: Card) -> float:
    """How much a Power card in hand is worth keeping (its ability and number)."""
    p = D.purpose(c.effects)
    base = {"add_score": 1.5, "complete_mission": 4.0, "gain": 1.2, "remove_corruption": 1.4, "evade": 1.3,
            "reroll": 1.0, "draw": 1.4, "move_any": 0.8, "move_extra": 0.5, "gain_charge": 0.9,
            "choose": 0.7, "each_player": 0.4}.get(p, 0.5)
    return base + 0.15 * c.number


class Estimates:
    """The automaton's estimates; it keeps the goal of the moment (recomputed every 25 steps or new turn)."""

    def __init__(self) -> None:
        super().__init__()
        self._goal_key: tuple[int, int, int] = (-1, -1, -1)
        self._goal = ""
        self._goal_view: RelicView | None = None  # the view the goal was last asked with

    # -- odds -----------------------------------------------------------------------------------------------------
    def power(self, v: RelicView, a: int, traits: tuple[str, ...] = (), gear: bool = True) -> int:
        """The seat's battle score without the roll in a battle of attribute a (with the best weapon and armour)."""
        key = ("power", a, traits, gear)
        got: int | None = v.features.get(key)
        if got is None:
            got = v.features[key] = self._power(v, a, traits, gear)
        return got

    def _power(self, v: RelicView, a: int, traits: tuple[str, ...], gear: bool) -> int:
        form = ATTRS[a]
        total = v.attribute(a) + v.sources_bonus(form, traits)
        if gear:
            C = v.data.cards
            for g in ("weapon", "armour"):
                best = 0
                for x in v.gear(g):
                    best = max(best, v.bonus_of(C[x].passives, form, traits))
                total += best
        return total

    def charge_boost(self, v: RelicView) -> int:
        """What the seat's unspent battle charges could add this turn."""
        got: int | None = v.features.get(("boost",))
        if got is None:
            got = v.features[("boost",)] = self._charge_boost(v)
        return got

    def _charge_boost(self, v: RelicView) -> int:
        D = v.data
        total = 0
        for x in v.assets:
            for moment, lid in D.cards[x].passives.charge:
                if moment == "battle" and v.charges(x) > 0 and not v.spent(x):
                    for e in D.effects(lid):
                        if e.word == "add_score":
                            total += int(e["n"])
        return total

    def p_fight(self, v: RelicView, attr: int, value: int, traits: tuple[str, ...] = (), edice: int = 0) -> float:
        key = ("fight", attr, value, traits, edice)
        got: float | None = v.features.get(key)
        if got is None:
            mine = self.power(v, attr, traits) + min(self.charge_boost(v), 4)
            got = v.features[key] = p_beat(mine - value, 1 + v.extra_dice("battle"), 1 + edice)
        return got

    def p_test(self, v: RelicView, a: int, target: int) -> float:
        key = ("test", a, target)
        got: float | None = v.features.get(key)
        if got is None:
            got = v.features[key] = p_pass(target - v.attribute(a) - v.skill(a), 1 + v.extra_dice("test"))
        return got

    def conf_options(self, v: RelicView) -> list[Effect]:
        """The confrontation's battles and tests (every option of a choice); kept with the data by scenario (the
        caller must not change the list)."""
        return v.data.cached(f"relic.automaton.conf:{v.scenario}", lambda: self._conf_options(v))

    def _conf_options(self, v: RelicView) -> list[Effect]:
        D = v.data
        out: list[Effect] = []
        for e in D.effects(D.scenarios[v.scenario].confrontation):
            if e.word == "choose":
                for o in e["options"]:
                    out.extend(o["then"])
            else:
                out.append(e)
        return out

    def conf_chance(self, v: RelicView) -> float:
        """The chance of winning one confrontation attempt (the best option)."""
        best = 0.0
        for e in self.conf_options(v):
            if e.word == "battle":
                best = max(best, self.p_fight(v, AI[str(e["attribute"])], int(e["value"])))
            elif e.word == "test":
                best = max(best, self.p_test(v, AI[str(e["attribute"])], int(e["target"])))
        return best

    def conf_attrs(self, v: RelicView) -> list[int]:
        return list(v.data.cached(f"relic.automaton.conf_attrs:{v.scenario}", lambda: tuple(
            [AI[str(e["attribute"])] for e in self.conf_options(v) if e.word in ("battle", "test")] or [0, 1, 2])))

    def attr_weight(self, v: RelicView, a: int) -> float:
        got: float | None = v.features.get(("attr", a))
        if got is None:
            got = v.features[("attr", a)] = self._attr_weight(v, a)
        return got

    def _attr_weight(self, v: RelicView, a: int) -> float:
        w = 1.0
        ca = self.conf_attrs(v)
        if a in ca:
            w += 1.5 / len(ca) * 2
        # the attribute already best is worth growing for the confrontation
        if v.attribute(a) == max(v.attribute(i) for i in ca if i < 3):
            w += 0.5
        return w

    def ready(self, v: RelicView) -> bool:
        """Strong enough, with a relic, to head for the Inner tier and the confrontation."""
        got: bool | None = v.memo.get(("ready",))
        if got is None:
            got = v.memo[("ready",)] = self._ready(v)
        return got

    def _ready(self, v: RelicView) -> bool:
        if v.relics() == 0:
            return False
        late = v.turn_number > 120 * v.players
        need = 0.3 if late else 0.42
        return (self.conf_chance(v) >= need and v.life >= (3 if late else 5)
                and v.corruption() <= v.threshold() - (2 if late else 4))

    # -- goals ----------------------------------------------------------------------------------------------------
    def goal(self, v: RelicView) -> str:
        if self._goal_view is v:  # asked again in the same decision: the key cannot have changed
            return self._goal
        key = v.goal_key()
        self._goal_view = v
        if key == self._goal_key:
            return self._goal
        self._goal_key = key
        self._goal = self._pick_goal(v)
        return self._goal

    def _pick_goal(self, v: RelicView) -> str:
        D = v.data
        guardian = D.cached("relic.automaton.guardian", lambda: next(sid for sid, sp in D.spaces.items() if sp.inner))
        if self.ready(v):
            return guardian
        if v.life <= 2:
            return self.nearest(v, heal_spaces(D))
        if v.corruption() >= v.threshold() - 2:
            return self.nearest(v, purge_spaces(D))
        obj = v.objective()
        if obj is not None:
            w = obj.word
            if w == "objective_tokens" and v.objective_tokens:
                return self.nearest(v, v.objective_tokens)
            if w == "objective_visit":
                if obj.get("space"):
                    return str(obj["space"])
                key = ("visit", obj.get("area"), obj.get("tier"))
                cands = D.space_lists.get(key)
                if cands is None:  # (by what the objective names: kept with the data)
                    cands = D.space_lists[key] = [
                        sid for sid, sp in D.spaces.items() if (obj.get("area") and sp.area == obj["area"]) or
                        (obj.get("tier") and sp.tier == obj["tier"])]
                return self.nearest(v, cands)
            if w == "objective_influence" and v.influence >= int(obj["n"]):
                return str(obj["space"])
            if w == "objective_test":
                a = AI[str(obj["attribute"])]
                if self.p_test(v, a, int(obj["target"])) >= 0.3 and v.space().tier != obj["tier"]:
                    tier_key = ("tier", obj["tier"])
                    cands = D.space_lists.get(tier_key)
                    if cands is None:
                        cands = D.space_lists[tier_key] = [sid for sid, sp in D.spaces.items()
                                                           if sp.tier == obj["tier"]]
                    return self.nearest(v, cands)
        if v.relics() and v.life < 5:
            return self.nearest(v, heal_spaces(D))
        if v.influence >= 7 and len(v.assets) < v.asset_limit():
            return self.nearest(v, shop_spaces(D))
        return ""

    @staticmethod
    def nearest(v: RelicView, cands: Iterable[str]) -> str:
        """The candidate nearest to the seat (the first of the nearest); kept with the data by the candidates and
        the seat's space."""
        here = v.position
        spaces = tuple(cands)
        kept = v.data.nearest
        key = (spaces, here)
        got = kept.get(key)
        if got is None:
            best, bd = "", 1e9
            for c in spaces:
                d = dist_to(v.data, c).get(here, 1e9)
                if d < bd:
                    best, bd = c, d
            if len(kept) >= NEAREST_CACHE:
                kept.clear()
            got = kept[key] = best
        return got

    # -- the value of a space -------------------------------------------------------------------------------------
    def space_value(self, v: RelicView, sid: str, goal: str) -> float:
        """What landing on space ``sid`` is worth now, heading for ``goal``."""
        key = ("space", sid, goal)
        got: float | None = v.memo.get(key)
        if got is None:
            got = v.memo[key] = self._space_value(v, sid, goal)
        return got

    def _space_value(self, v: RelicView, sid: str, goal: str) -> float:
        D = v.data
        sp = D.spaces[sid]
        val = 0.0
        if goal:
            dists = v.dists.get(goal)
            if dists is None:
                dists = v.dists[goal] = dist_to(D, goal, v.relics() > 0)
            d = dists.get(sid, 60.0)
            val -= d / 3.0
            if sid == goal:
                val += 3.0
        if sp.tier in ("inner", "centre"):
            return val + (20.0 if self.ready(v) else -20.0)
        here = v.board_at(sid)
        need = sp.icons
        if here:
            C = D.cards
            strong = v.life >= 3
            # enemies and cards already there
            for x in here:
                c = C[x]
                if c.category == "enemy":
                    p = self.p_fight(v, c.attribute, c.value, (c.trait,) if c.trait else (), c.enemy_dice)
                    val += p * (0.4 + c.value / 6.0 + self.mission_bonus(v, c)) - (1 - p) * (1.3 if strong else 3.0)
                elif c.category == "asset":
                    val += 1.0
            # threat icons to be drawn
            have = [0, 0, 0]
            for x in here:
                have[COLOURS.index(C[x].deck)] += 1
            for i in (0, 1, 2):
                k = need[i] - have[i]
                if k > 0:
                    val += k * self.icon_value(v, i)
        else:
            for i in (0, 1, 2):
                k = need[i]
                if k > 0:
                    val += k * self.icon_value(v, i)
            if sp.boxes:
                val += max(0.0, max([self.box_value(v, b) for b in sp.boxes])) * (0.6 if sp.choose_one else 0.5)
        if sid in v.tokens:
            val += 2.0
        return val

    def icon_value(self, v: RelicView, i: int) -> float:
        """What one threat icon of colour ``i`` still to be drawn on a landing space is worth (red decks are mostly
        Strength, blue Willpower, yellow Cunning); kept for the decision."""
        terms = v.icon_terms
        got = terms[i]
        if got is None:
            # kept with the seat's features by what else it reads: Life (3 or more) and the mission
            feats = v.features
            key = ("icon", i, v.life >= 3, v.mission)
            got = feats.get(key)
            if got is None:
                p = self.p_fight(v, i, 3)
                tb = self.colour_bonus(v, COLOURS[i])
                got = feats[key] = p * (0.9 + tb) - (1 - p) * (1.4 if v.life >= 3 else 3.0)
            terms[i] = got
        return got

    def colour_bonus(self, v: RelicView, col: str) -> float:
        key = ("colour", col)
        got: float | None = v.memo.get(key)
        if got is None:
            got = v.memo[key] = self._colour_bonus(v, col)
        return got

    def _colour_bonus(self, v: RelicView, col: str) -> float:
        obj = v.objective()
        if obj is None:
            return 0.0
        if obj.word == "objective_defeat":
            t = obj.get("trait", "")
            a = obj.get("attribute", "")
            if t and v.data.cached("relic.automaton.trait_colour", lambda: _trait_colour(v.data)).get(str(t)) == col:
                return 1.5
            if a and ATTRS.index(str(a)) == COLOURS.index(col):
                return 1.2
            if not t and not a:
                return 0.6
        if obj.word in ("objective_trophies", "objective_level"):
            return 0.5
        return 0.0

    def mission_bonus(self, v: RelicView, c: Card) -> float:
        obj = v.objective()
        if obj is None:
            return 0.0
        if obj.word == "objective_defeat":
            if obj.get("trait") and c.trait != obj["trait"]:
                return 0.0
            if obj.get("attribute") and ATTRS[c.attribute] != obj["attribute"]:
                return 0.0
            if c.value < int(obj.get("min_value", 0) or 0):
                return 0.0
            return 2.0
        return 0.0

    # -- the value of effects -------------------------------------------------------------------------------------
    def box_value(self, v: RelicView, lid: int) -> float:
        """What resolving effect list ``lid`` (a text box) is worth now (``list_value``, kept with the data by
        the list's number; not kept for the decision: a decision values a box once, nearly always)."""
        fns = v.data.box_values
        fn = fns.get(lid)
        if fn is None:
            fn = fns[lid] = list_value(v.data.effects(lid))
        return fn(self, v)

    def effs_value(self, v: RelicView, effs: Iterable[Effect]) -> float:
        """The sum of the effects' values (``list_value``: compiled once per printed list, kept with the data)."""
        if not isinstance(effs, (tuple, list)):
            return sum(self.eff_value(v, e) for e in effs)
        kept = v.data.list_values
        got = kept.get(id(effs))
        if got is None or got[0] is not effs:
            if len(kept) >= LIST_CACHE:
                kept.clear()
            got = kept[id(effs)] = (effs, list_value(effs))
        return got[1](self, v)

    def eff_value(self, v: RelicView, e: Effect) -> float:
        """What an effect is worth to the seat now (``value_of``: compiled once per effect, kept with the data)."""
        kept = v.data.effect_values
        got = kept.get(id(e))
        if got is None or got[0] is not e:
            got = kept[id(e)] = (e, value_of(e))
        fn: EffectValue | None = got[1]
        return fn(self, v) if fn is not None else self.eff_value_of(v, e)

    def eff_value_of(self, v: RelicView, e: Effect) -> float:
        """What an effect is worth to the seat now, read word by word (``value_of`` compiles the common cases of
        this into one function each; it must say the same)."""
        w = e.word
        D = v.data
        if w == "gain":
            st, n = str(e["stat"]), int(e["n"])
            if st == "influence":
                return 0.45 * n
            if st == "life":
                room = 12 - v.life
                return min(n, room) * (1.2 if v.life <= 3 else 0.6 if v.life < 6 else 0.25)
            if st == "attribute":
                return 1.6 * n
            return 1.2 * n * self.attr_weight(v, AI[st])
        if w == "lose":
            st, n = str(e["stat"]), int(e["n"])
            if st == "influence":
                return -0.4 * min(n, v.influence)
            if st == "life":
                return -n * (2.5 if v.life <= n + 1 else 1.0)
            return -1.1 * n
        if w == "draw":
            d = str(e["deck"])
            n = int(e["n"])
            return n * {"power": 1.0 if len(v.hand) < v.power_limit() else 0.4, "corruption": -1.6 -
                        0.5 * v.corruption(), "wargear": 2.0, "mission": 0.3, "relic": 5.0}[d]
        if w == "draw_threat":
            a = COLOURS.index(str(e["colour"]))
            p = self.p_fight(v, a, 3)
            return int(e["n"]) * (p * (1.0 + self.colour_bonus(v, str(e["colour"]))) - (1 - p) * 1.4)
        if w == "test":
            p = self.p_test(v, AI[str(e["attribute"])], int(e["target"]))
            return p * self.effs_value(v, e["then_pass"]) + (1 - p) * self.effs_value(v, e["then_fail"])
        if w == "battle":
            p = self.p_fight(v, AI[str(e["attribute"])], int(e["value"]))
            return p * (0.5 + self.effs_value(v, e["then_win"])) + (1 - p) * (
                -1.2 + self.effs_value(v, e["then_lose"]))
        if w == "roll":
            return sum(len(r["faces"]) / 6 * self.effs_value(v, r["then"]) for r in e["results"])
        if w == "may":
            return max(0.0, self.effs_value(v, e["then"]))
        if w == "pay":
            if v.influence < int(e["influence"]):
                return 0.0
            return max(0.0, self.effs_value(v, e["then"]) - 0.45 * int(e["influence"]))
        if w == "choose":
            return max(self.effs_value(v, o["then"]) for o in e["options"])
        if w == "buy_power":
            room = v.power_limit() - len(v.hand)
            return 0.6 * min(room, v.influence // int(e["price"])) if room > 0 else 0.0
        if w == "buy_wargear":
            return 1.5 if v.influence >= 4 and v.can("buy") else 0.0
        if w == "cross":
            if v.influence < int(e.get("influence", 0) or 0):
                return -5.0
            g = self.goal(v)
            to = str(e["to"])
            here = v.position
            if g:
                dd = dist_to(D, g, v.relics() > 0)
                return (dd.get(here, 60) - dd.get(to, 60)) / 3.0 - 0.5
            # without a goal: the Middle tier once strong enough
            tier = D.spaces[to].tier
            strong = min(self.power(v, a) for a in range(3)) >= 6 or v.level >= 4
            return (1.0 if strong else -1.5) * (1 if tier == "middle" else -1)
        if w in ("move_any", "move_to"):
            g = self.goal(v)
            if not g:
                return 0.2 if w == "move_any" else -0.3
            dd = dist_to(D, g, v.relics() > 0)
            if w == "move_to":
                return (dd.get(v.position, 60) - dd.get(str(e["space"]), 60)) / 3.0
            return (dd.get(v.position, 60) - min(dd.get(x, 60) for x in D.rings[str(e["tier"])])) / 3.0 - 0.5
        if w == "remove_corruption":
            return min(int(e["n"]), v.corruption()) * (0.8 + 0.4 * v.corruption())
        if w == "complete_mission":
            return 3.5 * int(e["n"])
        if w == "gain_level":
            return 4.0 * int(e["n"])
        if w == "gain_charge":
            return 0.8 if any(D.cards[a].charges for a in v.assets) else 0.0
        if w == "miss_turn":
            return -3.0
        if w == "discard":
            return -1.0 * int(e["n"])
        if w == "each_player":
            return 0.3 * self.effs_value(v, e["then"]) if not e.get("others") else 0.2
        if w == "win_game":
            return 100.0
        if w == "scenario_token":
            return 5.0 if v.scenario_tokens + 1 >= int(e["need"]) else 2.0
        return 0.0
