"""The Relic automaton: a fast heuristic that plays to win (it is also the rollout policy of the MCTS bot).

It keeps one goal at a time: heal when Life is low, purge Corruption when it nears the threshold, work on the
active mission (its token spaces, the space or area to visit, the tier of its test, the space to spend influence,
or hunting the enemies it asks for), and once it holds a relic and is strong enough for the scenario's
confrontation, head for the Guardian of the Rift and the Inner tier. It moves by comparing every landing space
(both directions, movement boxes, the Power card numbers in hand) by its distance to the goal on the board graph
(ring steps, crossings, jumps and the Webway Portal) plus what the space offers now (enemies it can beat, shops
when it has influence, healing when hurt). Battles and tests use exact exploding-dice odds: it spends charges and
Power cards only when they turn a likely loss into a likely win, evades enemies it would probably lose to, takes
every level its trophies buy, a relic as soon as it can, and buys the Wargear that raises its best bonuses.

It reads only what its seat may see: its own Power cards and face-down cards, and the public table.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from wizprint.cards.model import effect_words

from ..core import Action, State
from ..games.relic import AI, ATTRS, COLOURS, Card, RelicState, Space, _purpose, data
from ..rng import Rng

MAXV = 60


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
    cum = 0.0
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
        cum += py
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


# -- the board graph ---------------------------------------------------------------------------------------------
_EDGES: dict[str, list[tuple[str, float]]] = {}
_DIST: dict[tuple[str, bool], dict[str, float]] = {}
CROSS_COST = 3.5


def _edges() -> dict[str, list[tuple[str, float]]]:
    if _EDGES:
        return _EDGES
    D = data()
    L = D.L
    for sid, sp in D.spaces.items():
        out: list[tuple[str, float]] = []
        if sp.tier in ("outer", "middle"):
            ring = D.rings[sp.tier]
            i = D.ring_index[sid]
            out += [(ring[(i + 1) % len(ring)], 1.0), (ring[(i - 1) % len(ring)], 1.0)]
        if sp.next:
            out.append((sp.next, 3.5))
        if sp.jump:
            out.append((sp.jump, 1.0))
        for b in sp.boxes:
            for e in L.lists[b]:
                if e.word == "cross":
                    out.append((str(e["to"]), CROSS_COST))
                elif e.word == "move_any":
                    out += [(x, CROSS_COST + 0.5) for x in D.rings[str(e["tier"])] if x != sid]
        _EDGES[sid] = out
    return _EDGES


def dist_to(goal: str, rift: bool = False) -> dict[str, float]:
    """Distances (in movement points, a crossing counting as several) from every space to ``goal``."""
    key = (goal, rift)
    got = _DIST.get(key)
    if got is not None:
        return got
    D = data()
    edges = _edges()
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
    _DIST[key] = dist
    return dist


@lru_cache(maxsize=1)
def _trait_colour() -> dict[str, str]:
    """The Threat deck where most enemies of each trait are (from the card data)."""
    counts: dict[str, dict[str, int]] = {}
    for c in data().cards.values():
        if c.cat == "enemy" and c.trait:
            counts.setdefault(c.trait, {}).setdefault(c.deck, 0)
            counts[c.trait][c.deck] += 1
    return {t: max(sorted(v), key=lambda d: v[d]) for t, v in counts.items()}


def _card_value(c: Card) -> float:
    """How much a Power card in hand is worth keeping (its ability and number)."""
    p = _purpose(c.act)
    base = {"add_score": 1.5, "complete_mission": 4.0, "gain": 1.2, "remove_corruption": 1.4, "evade": 1.3,
            "reroll": 1.0, "draw": 1.4, "move_any": 0.8, "move_extra": 0.5, "gain_charge": 0.9,
            "choose": 0.7, "each_player": 0.4}.get(p, 0.5)
    return base + 0.15 * c.number


class RelicAutomaton:
    name = "automaton"

    def __init__(self) -> None:
        self.rng = Rng(0)
        self._goal_key: tuple[int, int, int] = (-1, -1, -1)
        self._goal = ""

    def seed(self, seed: int) -> None:
        self.rng = Rng(seed)

    # -- estimates ----------------------------------------------------------------------------------------------
    def power(self, s: RelicState, me: int, a: int, traits: tuple[str, ...] = (), gear: bool = True) -> int:
        """My battle score without the roll in a battle of attribute a (with the best weapon and armour)."""
        form = ATTRS[a]
        total = s.attr[me][a]
        for p in s._srcs(me):
            total += s._bb(p, form, traits)
        if gear:
            C = data().cards
            for g in ("weapon", "armour"):
                best = 0
                for x in s._gear(me, g):
                    best = max(best, s._bb(C[x].pas, form, traits))
                total += best
        return total

    def charge_boost(self, s: RelicState, me: int) -> int:
        """What my unspent battle charges could add this turn."""
        C = data().cards
        total = 0
        L = data().L
        for x in s.assets[me]:
            for moment, lid in C[x].pas.charge:
                if moment == "battle" and s.charges.get(x, 0) > 0 and x not in s.spent:
                    for e in L.lists[lid]:
                        if e.word == "add_score":
                            total += int(e["n"])
        return total

    def p_fight(self, s: RelicState, me: int, attr: int, value: int, traits: tuple[str, ...] = (),
                edice: int = 0) -> float:
        mine = self.power(s, me, attr, traits) + min(self.charge_boost(s, me), 4)
        return p_beat(mine - value, 1 + s.xdice(me, "battle"), 1 + edice)

    def p_test(self, s: RelicState, me: int, a: int, target: int) -> float:
        return p_pass(target - s.attr[me][a] - s.skill(me, a), 1 + s.xdice(me, "test"))

    def conf_chance(self, s: RelicState, me: int) -> float:
        """The chance of winning one confrontation attempt (the best option)."""
        D = data()
        best = 0.0
        for e in self._conf_options(s):
            best = max(best, self._eff_chance(s, me, e))
        return best if D else 0.0

    def _conf_options(self, s: RelicState) -> list[Any]:
        D = data()
        effs = D.L.lists[D.scens[s.scen].conf]
        out: list[Any] = []
        for e in effs:
            if e.word == "choose":
                for o in e["options"]:
                    out.extend(o["then"])
            else:
                out.append(e)
        return out

    def _eff_chance(self, s: RelicState, me: int, e: Any) -> float:
        if e.word == "battle":
            return self.p_fight(s, me, AI[str(e["attribute"])], int(e["value"]))
        if e.word == "test":
            return self.p_test(s, me, AI[str(e["attribute"])], int(e["target"]))
        return 0.0

    def conf_attrs(self, s: RelicState) -> list[int]:
        out = []
        for e in self._conf_options(s):
            if e.word in ("battle", "test"):
                out.append(AI[str(e["attribute"])])
        return out or [0, 1, 2]

    def attr_weight(self, s: RelicState, me: int, a: int) -> float:
        w = 1.0
        ca = self.conf_attrs(s)
        if a in ca:
            w += 1.5 / len(ca) * 2
        # the attribute already best is worth growing for the confrontation
        if s.attr[me][a] == max(s.attr[me][i] for i in ca if i < 3):
            w += 0.5
        return w

    def ready(self, s: RelicState, me: int) -> bool:
        if s.relics(me) == 0:
            return False
        late = s.turn_no > 120 * s.players
        need = 0.3 if late else 0.42
        return (self.conf_chance(s, me) >= need and s.life[me] >= (3 if late else 5)
                and s.corruption(me) <= s.threshold(me) - (2 if late else 4))

    # -- goals ----------------------------------------------------------------------------------------------------
    def goal(self, s: RelicState, me: int) -> str:
        key = (s.turn_no, me, s.steps // 25)
        if key == self._goal_key:
            return self._goal
        self._goal_key = key
        self._goal = self._pick_goal(s, me)
        return self._goal

    def _pick_goal(self, s: RelicState, me: int) -> str:
        D = data()
        here = s.pos[me]
        guardian = next(sid for sid, sp in D.spaces.items() if sp.inner)
        if self.ready(s, me):
            return guardian
        if s.life[me] <= 2:
            return self._nearest(s, me, self._heal_spaces())
        if s.corruption(me) >= s.threshold(me) - 2:
            return self._nearest(s, me, self._purge_spaces())
        m = s.mission[me]
        if m:
            obj = D.cards[m].objective
            w = obj.word
            if w == "objective_tokens" and s.tokens[me]:
                return self._nearest(s, me, s.tokens[me])
            if w == "objective_visit":
                if obj.get("space"):
                    return str(obj["space"])
                cands = [sid for sid, sp in D.spaces.items() if (obj.get("area") and sp.area == obj["area"]) or
                         (obj.get("tier") and sp.tier == obj["tier"])]
                return self._nearest(s, me, cands)
            if w == "objective_influence" and s.infl[me] >= int(obj["n"]):
                return str(obj["space"])
            if w == "objective_test":
                a = AI[str(obj["attribute"])]
                if self.p_test(s, me, a, int(obj["target"])) >= 0.3 and D.spaces[here].tier != obj["tier"]:
                    cands = [sid for sid, sp in D.spaces.items() if sp.tier == obj["tier"]]
                    return self._nearest(s, me, cands)
        if s.relics(me) and s.life[me] < 5:
            return self._nearest(s, me, self._heal_spaces())
        if s.infl[me] >= 7 and len(s.assets[me]) < s.asset_limit(me):
            return self._nearest(s, me, self._shop_spaces())
        return ""

    def _nearest(self, s: RelicState, me: int, cands: list[str]) -> str:
        here = s.pos[me]
        best, bd = "", 1e9
        for c in cands:
            d = dist_to(c).get(here, 1e9)
            if d < bd:
                best, bd = c, d
        return best

    @staticmethod
    def _spaces_where(test: Callable[[Space, list[Any]], bool]) -> list[str]:
        """The board spaces (sorted) whose text boxes' effects pass ``test``."""
        D = data()
        return sorted(sid for sid, sp in D.spaces.items() if test(sp, [e for b in sp.boxes for e in D.L.lists[b]]))

    @staticmethod
    @lru_cache(maxsize=1)
    def _heal_spaces() -> list[str]:
        return RelicAutomaton._spaces_where(lambda sp, effs: sp.tier in ("outer", "middle") and any(
            e.word == "gain" and e["stat"] == "life" and int(e["n"]) >= 1 for e in effs))

    @staticmethod
    @lru_cache(maxsize=1)
    def _purge_spaces() -> list[str]:
        return RelicAutomaton._spaces_where(
            lambda sp, effs: sp.tier in ("outer", "middle") and "remove_corruption" in effect_words(effs))

    @staticmethod
    @lru_cache(maxsize=1)
    def _shop_spaces() -> list[str]:
        return RelicAutomaton._spaces_where(lambda sp, effs: any(e.word == "buy_wargear" for e in effs))

    # -- the value of a space ---------------------------------------------------------------------------------
    def space_value(self, s: RelicState, me: int, sid: str, goal: str) -> float:
        D = data()
        sp = D.spaces[sid]
        v = 0.0
        if goal:
            d = dist_to(goal, s.relics(me) > 0).get(sid, 60.0)
            v -= d / 3.0
            if sid == goal:
                v += 3.0
        if sp.tier in ("inner", "centre"):
            return v + (20.0 if self.ready(s, me) else -20.0)
        C = D.cards
        here = s.board.get(sid, ())
        strong = s.life[me] >= 3
        # enemies and cards already there
        for x in here:
            c = C[x]
            if c.cat == "enemy":
                p = self.p_fight(s, me, c.attr, c.value, (c.trait,) if c.trait else (), c.edice)
                v += p * (0.4 + c.value / 6.0 + self._mission_bonus(s, me, c)) - (1 - p) * (1.3 if strong else 3.0)
            elif c.cat == "asset":
                v += 1.0
        # threat icons to be drawn
        need = list(sp.icons)
        have = [0, 0, 0]
        for x in here:
            have[COLOURS.index(C[x].deck)] += 1
        for i, col in enumerate(COLOURS):
            k = max(0, need[i] - have[i])
            if k:
                a = i  # red decks are mostly Strength, blue Willpower, yellow Cunning
                p = self.p_fight(s, me, a, 3)
                tb = self._colour_bonus(s, me, col)
                v += k * (p * (0.9 + tb) - (1 - p) * (1.4 if strong else 3.0))
        if not here and sp.boxes:
            v += max(0.0, max(self.box_value(s, me, b) for b in sp.boxes)) * (0.6 if sp.choose_one else 0.5)
        if sid in s.tokens[me]:
            v += 2.0
        return v

    def _colour_bonus(self, s: RelicState, me: int, col: str) -> float:
        m = s.mission[me]
        if not m:
            return 0.0
        obj = data().cards[m].objective
        if obj.word == "objective_defeat":
            t = obj.get("trait", "")
            a = obj.get("attribute", "")
            if t and _trait_colour().get(str(t)) == col:
                return 1.5
            if a and ATTRS.index(str(a)) == COLOURS.index(col):
                return 1.2
            if not t and not a:
                return 0.6
        if obj.word in ("objective_trophies", "objective_level"):
            return 0.5
        return 0.0

    def _mission_bonus(self, s: RelicState, me: int, c: Card) -> float:
        m = s.mission[me]
        if not m:
            return 0.0
        obj = data().cards[m].objective
        if obj.word == "objective_defeat":
            if obj.get("trait") and c.trait != obj["trait"]:
                return 0.0
            if obj.get("attribute") and ATTRS[c.attr] != obj["attribute"]:
                return 0.0
            if c.value < int(obj.get("min_value", 0) or 0):
                return 0.0
            return 2.0
        return 0.0

    # -- the value of effects ---------------------------------------------------------------------------------
    def box_value(self, s: RelicState, me: int, lid: int) -> float:
        return sum(self.eff_value(s, me, e) for e in data().L.lists[lid])

    def effs_value(self, s: RelicState, me: int, effs: Any) -> float:
        return sum(self.eff_value(s, me, e) for e in effs)

    def eff_value(self, s: RelicState, me: int, e: Any) -> float:
        w = e.word
        D = data()
        if w == "gain":
            st, n = str(e["stat"]), int(e["n"])
            if st == "influence":
                return 0.45 * n
            if st == "life":
                room = 12 - s.life[me]
                return min(n, room) * (1.2 if s.life[me] <= 3 else 0.6 if s.life[me] < 6 else 0.25)
            if st == "attribute":
                return 1.6 * n
            return 1.2 * n * self.attr_weight(s, me, AI[st])
        if w == "lose":
            st, n = str(e["stat"]), int(e["n"])
            if st == "influence":
                return -0.4 * min(n, s.infl[me])
            if st == "life":
                return -n * (2.5 if s.life[me] <= n + 1 else 1.0)
            return -1.1 * n
        if w == "draw":
            d = str(e["deck"])
            n = int(e["n"])
            return n * {"power": 1.0 if len(s.hand[me]) < s.power_limit(me) else 0.4, "corruption": -1.6 -
                        0.5 * s.corruption(me), "wargear": 2.0, "mission": 0.3, "relic": 5.0}[d]
        if w == "draw_threat":
            a = COLOURS.index(str(e["colour"]))
            p = self.p_fight(s, me, a, 3)
            return int(e["n"]) * (p * (1.0 + self._colour_bonus(s, me, str(e["colour"]))) - (1 - p) * 1.4)
        if w == "test":
            p = self.p_test(s, me, AI[str(e["attribute"])], int(e["target"]))
            return p * self.effs_value(s, me, e["then_pass"]) + (1 - p) * self.effs_value(s, me, e["then_fail"])
        if w == "battle":
            p = self.p_fight(s, me, AI[str(e["attribute"])], int(e["value"]))
            return p * (0.5 + self.effs_value(s, me, e["then_win"])) + (1 - p) * (
                -1.2 + self.effs_value(s, me, e["then_lose"]))
        if w == "roll":
            return sum(len(r["faces"]) / 6 * self.effs_value(s, me, r["then"]) for r in e["results"])
        if w == "may":
            return max(0.0, self.effs_value(s, me, e["then"]))
        if w == "pay":
            if s.infl[me] < int(e["influence"]):
                return 0.0
            return max(0.0, self.effs_value(s, me, e["then"]) - 0.45 * int(e["influence"]))
        if w == "choose":
            return max(self.effs_value(s, me, o["then"]) for o in e["options"])
        if w == "buy_power":
            room = s.power_limit(me) - len(s.hand[me])
            return 0.6 * min(room, s.infl[me] // int(e["price"])) if room > 0 else 0.0
        if w == "buy_wargear":
            return 1.5 if s.infl[me] >= 4 and s.can(me, "buy") else 0.0
        if w == "cross":
            if s.infl[me] < int(e.get("influence", 0) or 0):
                return -5.0
            g = self.goal(s, me)
            to = str(e["to"])
            here = s.pos[me]
            if g:
                dd = dist_to(g, s.relics(me) > 0)
                return (dd.get(here, 60) - dd.get(to, 60)) / 3.0 - 0.5
            # without a goal: the Middle tier once strong enough
            tier = D.spaces[to].tier
            strong = min(self.power(s, me, a) for a in range(3)) >= 6 or s.level[me] >= 4
            return (1.0 if strong else -1.5) * (1 if tier == "middle" else -1)
        if w in ("move_any", "move_to"):
            g = self.goal(s, me)
            if not g:
                return 0.2 if w == "move_any" else -0.3
            dd = dist_to(g, s.relics(me) > 0)
            if w == "move_to":
                return (dd.get(s.pos[me], 60) - dd.get(str(e["space"]), 60)) / 3.0
            return (dd.get(s.pos[me], 60) - min(dd.get(x, 60) for x in D.rings[str(e["tier"])])) / 3.0 - 0.5
        if w == "remove_corruption":
            return min(int(e["n"]), s.corruption(me)) * (0.8 + 0.4 * s.corruption(me))
        if w == "complete_mission":
            return 3.5 * int(e["n"])
        if w == "gain_level":
            return 4.0 * int(e["n"])
        if w == "gain_charge":
            return 0.8 if any(data().cards[a].charges for a in s.assets[me]) else 0.0
        if w == "miss_turn":
            return -3.0
        if w == "discard":
            return -1.0 * int(e["n"])
        if w == "each_player":
            return 0.3 * self.effs_value(s, me, e["then"]) if not e.get("others") else 0.2
        if w == "win_game":
            return 100.0
        if w == "scenario_token":
            return 5.0 if s.stok[me] + 1 >= int(e["need"]) else 2.0
        return 0.0

    # -- choosing -----------------------------------------------------------------------------------------------
    def choose(self, state: State, seat: int) -> Action:
        assert isinstance(state, RelicState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        s = state
        if not s.stack:
            return self._pick_char(s, seat, legal)
        f = s.stack[-1]
        k = f["k"]
        fn = getattr(self, "_c_" + k, None)
        a: Action | None = fn(s, seat, f, legal) if fn is not None else None
        if a is None or a not in legal:
            return legal[0]
        return a

    def _pick_char(self, s: RelicState, me: int, legal: list[Action]) -> Action:
        D = data()
        ca = self.conf_attrs(s)

        def score(a: Action) -> float:
            c = D.chars[a.a]
            return sum(c.attrs) + c.life * 0.6 + sum(c.attrs[i] for i in ca) / len(ca) * 1.5 + \
                0.3 * len(c.pas.bb) + 0.3 * c.asset_limit
        return max(legal, key=lambda a: (score(a), a.key))

    # dice: the windows before a roll, rerolls, choosing a movement die, exploding dice
    def _c_dice(self, s: RelicState, me: int, f: Any, legal: list[Action]) -> Action | None:
        st = f["st"]
        ctx = f["ctx"]
        if st == 0:
            if ctx == "move":
                return self._move_window(s, me, f, legal)
            if ctx == "battle":
                return self._battle_roll(s, me, legal)
            return self._test_window(s, me, legal)
        if st == 1:
            return self._reroll(s, me, f, legal)
        if st == 3:
            return max(legal, key=lambda a: (self._move_value(s, me, int(a.a)), a.key))
        return Action("roll")

    def _move_value(self, s: RelicState, me: int, pts: int) -> float:
        best = -1e9
        for d in (1, -1):
            for end in self._landings(s, me, s.pos[me], d, pts):
                best = max(best, self._land(s, me, end))
        return best

    def _land(self, s: RelicState, me: int, sid: str) -> float:
        return self.space_value(s, me, sid, self.goal(s, me))

    def _landings(self, s: RelicState, me: int, start: str, d: int, pts: int) -> set[str]:
        D = data()
        can_rift = s.relics(me) > 0
        out: set[str] = set()

        def walk(here: str, d: int, pts: int, depth: int) -> None:
            while pts > 0:
                here = s._step(here, d)
                pts -= 1
                sp = D.spaces[here]
                if sp.inner and can_rift:
                    out.add(sp.inner)
                if sp.jump and pts >= 1 and depth < 2:
                    walk(sp.jump, 1, pts - 1, depth + 1)
                    walk(sp.jump, -1, pts - 1, depth + 1)
            out.add(here)

        walk(start, d, pts, 0)
        return out

    def _move_window(self, s: RelicState, me: int, f: Any, legal: list[Action]) -> Action | None:
        keys = {a.key: a for a in legal}
        if "rift" in keys and self.ready(s, me):
            return keys["rift"]
        heal = self._heal_play(s, me, legal)
        if heal is not None:
            return heal
        mv = s._nearest("mv", me)
        bonus = mv["bonus"] if mv else 0
        vals = {v: self._move_value(s, me, max(1, v + bonus)) for v in range(1, 7)}
        n = f["n"]
        # the value of rolling: with n dice, the best of them
        if n == 1:
            exp = sum(vals.values()) / 6
        else:
            order = sorted(vals.values())
            exp = sum(order[i] * (((i + 1) ** n - i ** n) / 6 ** n) for i in range(6))
        best_num, best_gain = None, 0.6
        C = data().cards
        for a in legal:
            if a.kind == "number":
                c = C[a.a]
                g = vals[c.number] - exp - 0.35 * _card_value(c)
                if g > best_gain:
                    best_num, best_gain = a, g
        return best_num or keys.get("roll")

    def _heal_play(self, s: RelicState, me: int, legal: list[Action]) -> Action | None:
        if s.life[me] > 2:
            return None
        D = data()
        for a in legal:
            if a.kind in ("play", "charge", "use"):
                c = D.cards[a.a]
                lid = c.act if a.kind == "play" else (c.pas.charge[0][1] if a.kind == "charge" else c.pas.use[0][1])
                effs = D.L.lists[lid]
                if effs and effs[0].word == "gain" and effs[0]["stat"] == "life":
                    return a
        return None

    def _battle_roll(self, s: RelicState, me: int, legal: list[Action]) -> Action | None:
        bat = s._nearest("bat", me)
        if bat is None:
            return Action("roll")
        need = s.enemy_bonus(bat) + bat["er"] - s.battle_bonus(bat) + 1  # the roll that wins
        xd = 1 + s.xdice(me, "battle")
        p_roll = p_pass(need, xd) + (1 / 6) ** xd if need <= xd else p_pass(need, xd)
        C = data().cards
        best, bv = None, 1e9
        for a in legal:
            if a.kind == "number":
                c = C[a.a]
                num = c.number
                if num + (xd - 1) * 1 >= need or (num == 6 and need <= 9):
                    v = _card_value(c)
                    if v < bv:
                        best, bv = a, v
        if best is not None and p_roll < 0.55:
            return best
        return Action("roll")

    def _test_window(self, s: RelicState, me: int, legal: list[Action]) -> Action | None:
        tst = s._nearest("tst", me)
        if tst is None:
            return Action("roll")
        heal = self._heal_play(s, me, legal)
        if heal is not None:
            return heal
        base = s.attr[me][tst["a"]] + s.skill(me, tst["a"]) + tst["bonus"]
        need = tst["t"] - base
        xd = 1 + s.xdice(me, "test")
        p = p_pass(need, xd)
        stakes = self._test_stakes(s, me, tst)
        if p >= 0.85 or stakes < 1.0:
            return Action("roll")
        C = data().cards
        L = data().L
        # add to the score with a cheap card or a charge
        best, bv = None, 1e9
        for a in legal:
            c = C.get(a.a)
            if c is None:
                continue
            if a.kind == "number" and c.number >= max(2, need):
                v = _card_value(c)
            elif a.kind in ("play", "use", "charge"):
                lid = c.act if a.kind == "play" else (c.pas.use[0][1] if a.kind == "use" else c.pas.charge[0][1])
                effs = L.lists[lid]
                if not effs or effs[0].word != "add_score":
                    continue
                if p_pass(need - int(effs[0]["n"]), xd) < p + 0.15:
                    continue
                v = _card_value(c) if a.kind == "play" else 0.8
            else:
                continue
            if v < bv:
                best, bv = a, v
        if best is not None and bv < stakes * 1.5:
            return best
        return Action("roll")

    def _test_stakes(self, s: RelicState, me: int, tst: Any) -> float:
        L = data().L
        if tst["obj"]:
            return 4.0
        if s.space(me).tier in ("inner", "centre"):
            return 4.0
        good = self.effs_value(s, me, L.lists[tst["ps"]])
        bad = self.effs_value(s, me, L.lists[tst["fl"]])
        return good - bad

    def _reroll(self, s: RelicState, me: int, f: Any, legal: list[Action]) -> Action | None:
        rerolls = [a for a in legal if a.kind == "reroll"]
        if not rerolls:
            return Action("pass")
        vals = f["vals"]
        ctx = f["ctx"]
        low = min(range(len(vals)), key=lambda i: vals[i])
        if ctx == "battle":
            bat = s._nearest("bat", me)
            if bat is None:
                return Action("pass")
            margin = s.battle_bonus(bat) + sum(vals) - (s.enemy_bonus(bat) + bat["er"])
            if margin > 0 or vals[low] >= 4:
                return Action("pass")
        elif ctx == "test":
            tst = s._nearest("tst", me)
            if tst is None:
                return Action("pass")
            base = s.attr[me][tst["a"]] + s.skill(me, tst["a"]) + tst["bonus"]
            if (base + sum(vals) >= tst["t"] and not all(v == 1 for v in vals)) or vals[low] >= 4:
                return Action("pass")
        else:
            return Action("pass")
        cands = [a for a in rerolls if a.b == str(low)]
        C = data().cards
        return min(cands, key=lambda a: (0.5 if a.a not in s.hand[me] else _card_value(C[a.a]), a.key))

    # movement decisions
    def _c_mv(self, s: RelicState, me: int, f: Any, legal: list[Action]) -> Action | None:
        st = f["st"]
        D = data()
        goal = self.goal(s, me)
        if st == 4:
            best, bv = None, -1e9
            for a in legal:
                d = 1 if a.kind == "cw" else -1
                v = max(self._land(s, me, e) for e in self._landings(s, me, s.pos[me], d, f["pts"]))
                if v > bv:
                    best, bv = a, v
            return best
        if f["box"]:
            sp = D.spaces[f["box"]]
            if sp.inner:
                return Action("rift") if self.ready(s, me) else Action("pass")
            # jump: compare the best landing with and without the jump
            stay = max(max(self._land(s, me, e) for e in self._landings(s, me, f["box"], d, f["pts"]))
                       for d in ((f["dir"],) if f["dir"] else (1, -1)))
            jump = max(max(self._land(s, me, e) for e in self._landings(s, me, sp.jump, d, f["pts"] - 1))
                       if f["pts"] > 1 else self._land(s, me, sp.jump) for d in (1, -1))
            return Action("jump") if jump > stay else Action("pass")
        if st == 3:
            return Action("pass")
        # extra spaces
        here = s.pos[me]
        nxt = s._step(here, f["dir"])
        return Action("more") if self._land(s, me, nxt) > self._land(s, me, here) + 0.1 and goal != here \
            else Action("stop")

    # engagement
    def _c_eng(self, s: RelicState, me: int, f: Any, legal: list[Action]) -> Action | None:
        keys = {a.key: a for a in legal}
        D = data()
        if f["st"] == 1:
            if "objective" in keys:
                obj = s._objective(me)
                if obj.word == "objective_influence" or self.p_test(
                        s, me, AI[str(obj["attribute"])], int(obj["target"])) >= 0.3:
                    return keys["objective"]
            heal = self._heal_play(s, me, legal)
            if heal is not None:
                return heal
            # a Power card to evade an enemy it would likely lose to
            for a in legal:
                if a.kind == "evade" and a.b:
                    c = D.cards[a.a]
                    if self.p_fight(s, me, c.attr, c.value, (c.trait,), c.edice) < 0.35:
                        return a
            return keys["pass"]
        best, bv = keys["end"], 0.05
        sp = s.space(me)
        for a in legal:
            if a.kind == "box":
                v = self.box_value(s, me, sp.boxes[int(a.a) - 1])
                if v > bv:
                    best, bv = a, v
        return best

    def _c_thr(self, s: RelicState, me: int, f: Any, legal: list[Action]) -> Action | None:
        D = data()
        C = D.cards
        st = f["st"]
        if st in (1, 3):
            for a in legal:
                if a.kind == "ignore" and self.effs_value(s, me, D.L.lists[C[a.a].act]) < 0:
                    return a
            return next(a for a in legal if a.kind in ("event", "encounter"))
        # battles: evade what it would lose to; fight the likeliest win first
        here = s._threats_here(me)
        for a in legal:
            if a.kind == "evade":
                c = C[a.a]
                p = self.p_fight(s, me, c.attr, c.value, (c.trait,), c.edice)
                if p < 0.45 and self._mission_bonus(s, me, c) == 0:
                    return a
        best, bv = None, -1.0
        for a in legal:
            if a.kind == "fight":
                ai = AI[a.a]
                foes = [C[x] for x in here if C[x].cat == "enemy" and C[x].attr == ai and x not in s.evaded]
                p = self.p_fight(s, me, ai, sum(c.value for c in foes), tuple(c.trait for c in foes),
                                 sum(c.edice for c in foes))
                if p > bv:
                    best, bv = a, p
        return best

    def _c_bat(self, s: RelicState, me: int, f: Any, legal: list[Action]) -> Action | None:
        D = data()
        C = D.cards
        L = D.L
        delta = s.battle_bonus(f) - s.enemy_bonus(f)
        xd = 1 + s.xdice(me, "battle")
        ed = 1 + sum(C[x].edice for x in f["foes"])
        p = p_beat(delta, xd, ed)
        stakes = 3.0 if not f["foes"] else 1.5 + sum(C[x].value for x in f["foes"]) / 4
        if s.space(me).tier in ("inner", "centre"):
            stakes = 6.0
        if s.life[me] <= 1:
            stakes += 3.0
        if p >= 0.93:
            return Action("pass")
        best, bgain = None, 0.0
        for a in legal:
            if a.kind not in ("charge", "use", "play"):
                continue
            c = C[a.a]
            lid = c.act if a.kind == "play" else (c.pas.charge[0][1] if a.kind == "charge" else c.pas.use[0][1])
            effs = L.lists[lid]
            add = sum(int(e["n"]) for e in effs if e.word == "add_score")
            if not add:
                continue
            extra = delta + add
            if a.kind == "charge" and c.gear in ("weapon", "armour"):
                cur = f["wpn"] if c.gear == "weapon" else f["arm"]
                if cur and cur != a.a:
                    extra -= s._bb(C[cur].pas, ATTRS[f["fa"]], s._traits(f))
                extra += s._bb(c.pas, ATTRS[f["fa"]], s._traits(f)) if cur != a.a else 0
            gain = (p_beat(extra, xd, ed) - p) * stakes
            cost = _card_value(c) * 0.5 if a.kind == "play" else (0.3 if a.kind == "charge" else 0.6)
            if any(e.word == "draw" and e["deck"] == "corruption" for e in effs):
                cost += 1.5
            if gain - cost > bgain:
                best, bgain = a, gain - cost
        return best or Action("pass")

    def _c_exp(self, s: RelicState, me: int, f: Any, legal: list[Action]) -> Action | None:
        keys = {a.key: a for a in legal}
        D = data()
        if f["st"] == 0:
            if "relic" in keys:
                return keys["relic"]
            levels = [a for a in legal if a.kind == "level"]
            if levels:
                return max(levels, key=lambda a: int(a.a))
            for a in legal:
                if a.kind in ("play", "charge", "use"):
                    c = D.cards[a.a]
                    lid = c.act if a.kind == "play" else (c.pas.charge[0][1] if a.kind == "charge" else
                                                          c.pas.use[0][1])
                    p = _purpose(lid)
                    if p == "complete_mission" or (p == "gain" and D.L.lists[lid][0]["stat"] == "attribute"):
                        return a
                    if p == "remove_corruption" and s.corruption(me) >= 2:
                        return a
                    if p == "draw" and len(s.hand[me]) < s.power_limit(me):
                        return a
            return keys["end"]
        # forced discards: the least valuable card
        return min(legal, key=lambda a: (self._keep_value(s, me, a.a), a.key))

    def _keep_value(self, s: RelicState, me: int, x: str) -> float:
        c = data().cards[x]
        if c.deck == "power":
            return _card_value(c)
        if c.deck == "relic":
            return 20.0
        v = 1.0 + sum(max(0, n) for _, n, _ in c.pas.bb) + sum(max(0, n) for _, n in c.pas.sb) * 0.6
        v += 0.8 * len(c.pas.evade) + 1.0 * (c.pas.xb + c.pas.xt) + 0.5 * s.charges.get(x, 0)
        return v

    def _c_dmis(self, s: RelicState, me: int, f: Any, legal: list[Action]) -> Action | None:
        return max(legal, key=lambda a: (self._mission_ease(s, me, a.a, a.a == s.mission[me]), a.key))

    def _mission_ease(self, s: RelicState, me: int, m: str, current: bool) -> float:
        D = data()
        obj = D.cards[m].objective
        w = obj.word
        here = s.pos[me]
        if w == "objective_tokens":
            spaces = s.tokens[me] if current else [str(x) for x in obj["spaces"]]
            return -sum(dist_to(x).get(here, 60) for x in spaces) / 6
        if w == "objective_visit":
            if obj.get("space"):
                return -dist_to(str(obj["space"])).get(here, 60) / 4
            return -2.0
        if w == "objective_defeat":
            left = int(obj["count"]) - (s.mprog[me] if current else 0)
            return -1.5 * left - (1.0 if obj.get("trait") else 0) - 0.2 * int(obj.get("min_value", 0) or 0)
        if w == "objective_level":
            return -(int(obj["level"]) - s.level[me]) * 1.5
        if w == "objective_trophies":
            return -(int(obj["points"]) - s.trophy_points(me)) / 2
        if w == "objective_test":
            return -6 * (1 - self.p_test(s, me, AI[str(obj["attribute"])], int(obj["target"])))
        if w == "objective_influence":
            return -max(0, int(obj["n"]) - s.infl[me]) / 2 - dist_to(str(obj["space"])).get(here, 60) / 6
        return -5.0

    def _c_ask(self, s: RelicState, me: int, f: Any, legal: list[Action]) -> Action | None:
        q = f["q"]
        D = data()
        L = D.L
        C = D.cards
        if q == "may":
            return Action("yes") if self.effs_value(s, me, L.lists[f["L"]]) > 0 else Action("no")
        if q == "pay":
            v = self.effs_value(s, me, L.lists[f["L"]]) - 0.45 * f["cost"]
            return Action("yes") if v > 0 else Action("no")
        if q == "choose":
            return max(legal, key=lambda a: (self.effs_value(s, me, L.lists[f["opts"][int(a.a) - 1]]), a.key))
        if q == "stat":
            w = {a: self.attr_weight(s, me, AI[a]) for a in ATTRS}
            if f["sign"] > 0:
                return max(legal, key=lambda a: (w[a.a] - 0.05 * s.attr[me][AI[a.a]], a.key))
            return min(legal, key=lambda a: (w[a.a], a.key))
        if q == "charge":
            return max(legal, key=lambda a: (self._keep_value(s, me, a.a), a.key))
        if q == "disc":
            return min(legal, key=lambda a: (self._keep_value(s, me, a.a), a.key))
        if q == "purge":
            def harm(x: str) -> float:
                c = C[x]
                if x in s.cup[me]:
                    return -self._keep_value(s, me, x) + 2.0 + (1.0 if c.pas.cannot else 0.0)
                return 1.0
            return max(legal, key=lambda a: (harm(a.a), a.key))
        if q == "to":
            g = self.goal(s, me)
            return max(legal, key=lambda a: (self.space_value(s, me, a.a, g), a.key))
        if q == "bpow":
            room = max(0, s.power_limit(me) - len(s.hand[me]))
            n = min(room, max(int(a.a) for a in legal))
            if s.mission[me] and C[s.mission[me]].objective.word == "objective_influence":
                n = 0
            return Action("buy", str(n)) if Action("buy", str(n)) in legal else legal[0]
        if q == "bwg":
            best, bv = Action("done"), 0.3
            for a in legal:
                if a.kind == "buy":
                    v = self._gear_gain(s, me, a.a) - 0.15 * C[a.a].cost
                    if v > bv:
                        best, bv = a, v
            return best
        if q == "relic":
            return max(legal, key=lambda a: (self._relic_value(s, me, a.a), a.key))
        if q == "warp":
            return Action("spend")
        return None

    def _gear_gain(self, s: RelicState, me: int, x: str) -> float:
        """How much a Wargear card improves on what this seat has."""
        C = data().cards
        c = C[x]
        if len(s.assets[me]) >= s.asset_limit(me) and c.gear in ("equipment",):
            return 0.0
        ca = self.conf_attrs(s)
        if c.gear in ("weapon", "armour"):
            def bonus(card: Card) -> float:
                return max(s._bb(card.pas, ATTRS[a], ()) for a in range(3)) * 0.6 + sum(
                    s._bb(card.pas, ATTRS[a], ()) for a in ca) / len(ca) * 0.6 + 0.7 * card.charges
            have = max([bonus(C[g]) for g in s._gear(me, c.gear)] + [0.0])
            return bonus(c) - have
        v = sum(max(0, n) * (1.2 if a in ca else 0.6) for a, n in c.pas.sb) + 2.5 * c.pas.xt + 1.5 * c.pas.xb
        v += 2.0 * len(c.pas.evade) + 1.2 * (c.pas.mdice > 1) + 0.4 * c.charges
        return v

    def _relic_value(self, s: RelicState, me: int, x: str) -> float:
        c = data().cards[x]
        ca = self.conf_attrs(s)
        v = sum(s._bb(c.pas, ATTRS[a], ()) for a in ca) / len(ca) * 2
        v += sum(n for a, n in c.pas.sb if a in ca) * 0.8 + 2.0 * (c.pas.xb + c.pas.xt)
        v += sum(n for w, n in c.pas.lim if w == "corruption") * 0.8 + c.charges * 0.5
        return v
