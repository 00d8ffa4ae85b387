"""The Covenant of Wizards automaton: a fast heuristic (it is also the rollout policy of the MCTS bot).

It summons wizards and resources first and attaches items where they help most, uses wizard actions with the
wizards a quest can spare, goes on a quest when the chance of completing it (both rounds, with the losses of
round one, from exact dice distributions) is worth the risk, duels when its wizard has the edge, casts its
steals, destroys and slays on the most valuable targets of the leading rivals, and answers: Dispell or Alter
Reality against what hurts it, Healing for its wizards, Probability Shift on a bad roll, bonus spells when they
turn a duel or a quest round, Tricks & Traps on rivals' quests, Guardian Beast to keep an item.

It reads only what its seat may see: its own hand, the table, hand sizes, and the rolls.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core import Action, State
from ..games.covenant import ACTIVE_WORDS, CovenantState, Info, cards
from ..rng import Rng


def _pmf(n: int) -> dict[int, float]:
    dist = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for v, p in dist.items():
            for f in range(1, 7):
                nxt[v + f] = nxt.get(v + f, 0.0) + p / 6
        dist = nxt
    return dist


D3 = _pmf(3)
D2 = _pmf(2)
# Z = 3d6 - 2d6: Danger minus the Quest Level roll
Z: dict[int, float] = {}
for _a, _pa in D3.items():
    for _b, _pb in D2.items():
        Z[_a - _b] = Z.get(_a - _b, 0.0) + _pa * _pb
# X = 3d6 - 3d6: the difference of two duel rolls
X: dict[int, float] = {}
for _a, _pa in D3.items():
    for _b, _pb in D3.items():
        X[_a - _b] = X.get(_a - _b, 0.0) + _pa * _pb


@lru_cache(maxsize=64)
def z_le(k: int) -> float:
    """P(3d6 - 2d6 <= k): a round with Quest bonus k succeeds (Quest Level >= Danger)."""
    return sum(p for v, p in Z.items() if v <= k)


@lru_cache(maxsize=64)
def duel_odds(delta: int) -> tuple[float, float]:
    """(P win, P lose) of a duel where my fixed bonus minus theirs is ``delta``."""
    win = sum(p for v, p in X.items() if v + delta > 0)
    lose = sum(p for v, p in X.items() if v + delta < 0)
    return win, lose


def hand_value(info: Info, s: CovenantState, seat: int) -> float:
    """How much a card in hand is worth keeping."""
    t = info.type
    if t == "wizard":
        return 3.2
    if t == "resource":
        return 1.6 + info.vp
    if t == "item":
        return 1.8 + info.vp + 0.3 * (info.duel_bonus + info.quest_bonus) + 0.4 * len(info.grants)
    if t == "follower":
        return 0.9 + 0.3 * info.duel_bonus + (0.4 if info.guard else 0.0)
    if t == "quest":
        return 0.6 * info.vp + 0.2 * info.quest_level
    if t == "duel":
        return 1.4 if s.wiz[seat] else 0.8
    best = 0.3
    for word, what, n in info.resolve:
        v = {"steal": 2.6, "slay": 2.6, "destroy": 1.8, "negate": 2.0, "prevent_slay": 1.9, "reroll": 1.4,
             "roll_bonus": 1.0 + 0.2 * n, "search": 1.4, "reanimate": 1.3, "vortex": 0.7, "danger": 0.9,
             "draw": 1.0 + 0.5 * n, "skip_turn": 1.5}.get(word, 0.3)
        if word == "steal" and what == "wizard":
            v = 3.0
        best = max(best, v)
    return best


_ODDS: dict[tuple[Any, ...], tuple[float, float]] = {}  # quest_odds by everything they depend on


class CovenantAutomaton:
    name = "automaton"

    def __init__(self) -> None:
        self.rng = Rng(0)
        self._memo: dict[tuple[Any, ...], Any] = {}  # quest odds and plans, valid during one choose()

    def seed(self, seed: int) -> None:
        self.rng = Rng(seed)

    # -- values -----------------------------------------------------------------------------------------------
    def value(self, s: CovenantState, x: str) -> float:
        """What a card in play is worth to its controller."""
        info = cards()[x]
        t = info.type
        if t == "wizard":
            ab = s.abilities(x)
            return 1.8 + 0.2 * len(ab) + sum(self.value(s, a) for a in s.att.get(x, ()))
        if t == "item":
            return info.vp + 0.3 + 0.4 * (info.duel_bonus + info.quest_bonus) + 0.5 * len(info.grants)
        if t == "follower":
            return 0.4 + 0.3 * info.duel_bonus + 0.2 * len(info.quest_bonus_on) + (0.5 if info.guard else 0.0)
        if t == "resource":
            return info.vp + 0.4 * len(info.grant_one)
        return 0.0

    def threat(self, s: CovenantState, seat: int, me: int) -> float:
        """How much hurting ``seat`` is worth to ``me`` (the leading rivals first)."""
        if seat == me:
            return -1.0
        top = max(s.vp(r) for r in range(s.players) if r != me)
        return 0.6 + s.vp(seat) / 20.0 + (0.3 if s.vp(seat) == top else 0.0)

    def quest_odds(self, s: CovenantState, quest: str, parts: list[str], extra: int = 0) -> tuple[float, float]:
        """(P complete, expected value lost) for a quest with these participants (no Tricks & Traps)."""
        # the odds depend only on the quest, the participants, what is attached to them and their abilities of this
        # turn: kept across choices (the search asks the same question in thousands of playouts)
        key = (quest, tuple(parts), extra, tuple(tuple(s.att.get(p, ())) for p in parts),
               tuple(s.tgrant.get(p, ()) for p in parts))
        hit = _ODDS.get(key)
        if hit is None:
            if len(_ODDS) >= 100_000:
                _ODDS.clear()
            hit = _ODDS[key] = self._quest_odds(s, quest, parts, extra)
        return hit

    def _quest_odds(self, s: CovenantState, quest: str, parts: list[str], extra: int) -> tuple[float, float]:
        if not any(cards()[p].type == "wizard" for p in parts):
            return 0.0, 0.0
        order = sorted(parts, key=lambda p: (self.value(s, p), p))  # the cheapest are lost first
        base = s.quest_bonus(quest, parts) + extra
        prob = 0.0
        loss = 0.0
        cache: dict[int, tuple[int, float, bool]] = {}
        for z, pz in Z.items():
            k = max(0, z - base)
            if k not in cache:
                gone = order[:k]
                dead = set(gone)
                for g in gone:
                    dead.update(s.att.get(g, ()))
                alive = [p for p in parts if p not in dead]
                lost = sum(self.value(s, g) for g in gone)
                cache[k] = (s.quest_bonus(quest, alive) + extra, lost, bool(alive))
            bonus2, lost, any_left = cache[k]
            loss += pz * lost
            if any_left:
                prob += pz * z_le(bonus2)
        return prob, loss

    def _quest_plan(self, s: CovenantState, seat: int) -> tuple[str, float]:
        """The best quest in hand with every eligible participant: (quest, expected gain)."""
        key = ("plan", seat)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._plan(s, seat)
        plan: tuple[str, float] = hit
        return plan

    def _plan(self, s: CovenantState, seat: int) -> tuple[str, float]:
        c = cards()
        quests = [x for x in s.hands[seat] if c[x].type == "quest"]
        if not quests:
            return "", 0.0
        parts = self._all_parts(s, seat)
        extra = self._bonus_in_hand(s, seat, "quest")
        best, gain = "", -9.0
        for q in quests:
            p, loss = self.quest_odds(s, q, parts, extra // 2)
            g = p * c[q].vp - loss
            if g > gain:
                best, gain = q, g
        return best, gain

    def _all_parts(self, s: CovenantState, seat: int, without: str = "") -> list[str]:
        c = cards()
        out: list[str] = []
        for x in s.quest_candidates(seat):
            if x == without:
                continue
            out.append(x)
            if c[x].type == "wizard":
                out.extend(a for a in s.att.get(x, ()) if c[a].type == "follower")
        return out

    def _bonus_in_hand(self, s: CovenantState, seat: int, ctx: str) -> int:
        c = cards()
        return sum(c[x].roll_bonus for x in s.hands[seat] if c[x].roll_bonus and c[x].roll_kind in (ctx, "either"))

    def _quest_cost(self, s: CovenantState, seat: int, wizard: str) -> float:
        """What the quest of this turn loses if ``wizard`` cannot go."""
        if s.phase not in ("event", "duel"):
            return 0.0
        q, gain = self._quest_plan(s, seat)
        if not q or gain <= 0:
            return 0.0
        c = cards()
        parts = self._all_parts(s, seat, without=wizard)
        p, loss = self.quest_odds(s, q, parts)
        return max(0.0, gain - (p * c[q].vp - loss))

    # -- choosing ---------------------------------------------------------------------------------------------
    def choose(self, state: State, seat: int) -> Action:
        assert isinstance(state, CovenantState)
        self._memo = {}
        s = state
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if s.stack:
            f = s.stack[-1]
            k = f["k"]
            handler = {"neg": self._neg, "roll": self._roll, "slay": self._slay, "bonus": self._bonus,
                       "traps": self._traps, "steal": self._steal, "pick": self._pick, "duel": self._answer,
                       "quest": self._quest_frame}[k]
            return handler(s, seat, f, legal)
        if s.phase == "discard":
            c = cards()
            return min(legal, key=lambda a: (hand_value(c[a.a], s, seat), a.a))
        scorer = {"event": self._score_event, "duel": self._score_duel, "summon": self._score_summon,
                  "adventure": self._score_adventure}[s.phase]
        best = max(legal, key=lambda a: (scorer(s, seat, a), a.key))
        return best

    def _by_key(self, legal: list[Action], kind: str) -> list[Action]:
        return [a for a in legal if a.kind == kind]

    def _pass(self, legal: list[Action]) -> Action:
        return next(a for a in legal if a.kind == "pass")

    # phases
    def _target_score(self, s: CovenantState, seat: int, word: str, what: str, tgt: str) -> float:
        c = cards()
        if word == "look_hand":
            return 0.05
        if word == "skip_turn":
            return self.threat(s, int(tgt), seat)
        if word == "reanimate":
            return 1.5
        owner = s.controller(tgt)
        v = self.value(s, tgt) * self.threat(s, owner, seat)
        if word == "steal":
            if c[tgt].type == "item" and any(c[x].guard for x in s.followers_of(owner)):
                v *= 0.5
            return 0.5 + 2.0 * v
        if word == "slay":
            return 0.6 + v
        return 0.3 + v  # destroy

    def _score_event(self, s: CovenantState, seat: int, a: Action) -> float:
        c = cards()
        k = a.kind
        if k == "end":
            return 0.0
        if k in ("cast", "play"):
            info = c[a.a]
            word, what, _ = next(e for e in info.resolve if e[0] in ACTIVE_WORDS)
            if word in ("steal", "slay", "destroy", "skip_turn", "look_hand", "reanimate"):
                return self._target_score(s, seat, word, what, a.b)
            if word == "search":
                has = any(c[x].type == what for x in s.hands[seat])
                return 0.3 if has else 1.6
            if word == "vortex":
                mine = len(s.hands[seat]) - 1
                theirs = sum(len(s.hands[r]) for r in s.rivals(seat)) / (s.players - 1)
                return 1.0 if mine <= 1 and theirs >= 4 else -1.0
            if word == "draw":
                return 1.0
            return 0.02 if len(s.hands[seat]) >= 6 else -0.1  # looking at cards: only to make room
        if k == "act":
            ab = a.b.partition(":")[0]
            gain = {"conjuror": 1.1, "maker": 0.5, "stealth": 0.45, "scry": 0.05}.get(ab, 0.0)
            return gain - self._quest_cost(s, seat, a.a)
        if k == "grant":
            w = a.b
            val = 0.0
            for g in c[a.a].grant_one:
                if g in ("conjuror", "maker", "stealth", "scry"):
                    if w in s.acted:
                        continue
                    val += {"conjuror": 0.6, "maker": 0.3, "stealth": 0.25, "scry": 0.05}[g]
                elif g == "adventurer":
                    val += 0.8 if w not in s.acted else 0.1
                elif g == "dueler":
                    val += 0.5 if any(c[x].duel for x in s.hands[seat]) else 0.05
                elif g == "nature":
                    val += 0.4
            return val
        return 0.0

    def _score_duel(self, s: CovenantState, seat: int, a: Action) -> float:
        if a.kind == "end":
            return 0.0
        w, r = a.a, int(a.b)
        mine = s.duel_strength(w) + self._bonus_in_hand(s, seat, "duel") // 2
        foe = max(s.wiz[r], key=lambda x: (s.duel_strength(x), -self.value(s, x)))
        win, lose = duel_odds(mine - s.duel_strength(foe))
        return (win * self.value(s, foe) * self.threat(s, r, seat) - lose * self.value(s, w)
                - self._quest_cost(s, seat, w) - 0.4)

    def _score_summon(self, s: CovenantState, seat: int, a: Action) -> float:
        c = cards()
        if a.kind == "end":
            return 0.0
        info = c[a.a]
        t = info.type
        if t == "wizard":
            return 3.0 + (2.0 if len(s.wiz[seat]) < 2 else 0.0)
        if t == "resource":
            return 2.0 + info.vp + 0.3 * len(info.grant_one)
        if t == "follower" and not info.attach:
            qs = {c[x].design for x in s.hands[seat] if c[x].type == "quest"}
            return 1.0 + (0.5 if any(q in qs for q, _ in info.quest_bonus_on) else 0.0) + (0.3 if info.guard else 0.0)
        w = a.b
        ab = s.abilities(w)
        score = 1.5 + info.vp * 1.2
        score += sum(0.9 if e[0] == "draw" else 0.4 for e in info.on_enter)
        if info.duel_bonus:
            score += 0.3 * info.duel_bonus + (0.5 if "dueler" in ab else 0.0)
        if info.quest_bonus:
            score += 0.3 * info.quest_bonus + (0.5 if "adventurer" in ab or "nature" in ab else 0.0)
        for g in info.grants:
            if g in ab:
                score -= 0.5
            elif g in ("conjuror", "maker", "stealth", "scry") and not any(x in ab for x in
                                                                           ("conjuror", "maker", "stealth", "scry")):
                score += 0.6
        score += 0.05 * len(s.att.get(w, ()))  # gather strength on one wizard a little
        return score

    def _score_adventure(self, s: CovenantState, seat: int, a: Action) -> float:
        if a.kind == "end":
            return 0.0
        c = cards()
        parts = self._all_parts(s, seat)
        p, loss = self.quest_odds(s, a.a, parts, self._bonus_in_hand(s, seat, "quest") // 2)
        gain = p * c[a.a].vp - loss
        need = 1.2 if len(s.hands[seat]) < s.hand_limit(seat) else 0.3
        if s.vp(seat) + c[a.a].vp >= 25:
            need = 0.5
        return gain - need

    # frames
    def _quest_frame(self, s: CovenantState, seat: int, f: dict[str, Any], legal: list[Action]) -> Action:
        if f["st"] == 6:
            return min(legal, key=lambda a: (self.value(s, a.a), a.a))
        joins = self._by_key(legal, "join")
        return joins[0] if joins else next(a for a in legal if a.kind == "go")

    def _answer(self, s: CovenantState, seat: int, f: dict[str, Any], legal: list[Action]) -> Action:
        return max(legal, key=lambda a: (s.duel_strength(a.a), -self.value(s, a.a), a.a))

    def _pick(self, s: CovenantState, seat: int, f: dict[str, Any], legal: list[Action]) -> Action:
        word, what, _ = f["eff"]
        c = cards()
        if word == "search":
            return max(legal, key=lambda a: (hand_value(c[a.a], s, seat) if a.a in c else 0.0, a.a))
        return max(legal, key=lambda a: (self._target_score(s, seat, word, what, a.a), a.a))

    def _steal(self, s: CovenantState, seat: int, f: dict[str, Any], legal: list[Action]) -> Action:
        c = cards()
        if f["st"] == 2:  # where the taken card goes
            info = c[f["tgt"]]

            def fit(w: str) -> float:
                ab = s.abilities(w)
                v = 0.0
                if info.duel_bonus:
                    v += 1.0 if "dueler" in ab else 0.0
                if info.quest_bonus:
                    v += 1.0 if ("adventurer" in ab or "nature" in ab) else 0.0
                for g in info.grants:
                    v += -1.0 if g in ab else 0.5
                return v + 0.01 * len(s.att.get(w, ()))

            return max(legal, key=lambda a: (fit(a.a), a.a))
        guards = self._by_key(legal, "guard")
        if guards and self.value(s, f["tgt"]) >= 0.7:
            return guards[0]
        return self._pass(legal)

    def _traps(self, s: CovenantState, seat: int, f: dict[str, Any], legal: list[Action]) -> Action:
        d = self._by_key(legal, "danger")
        return d[0] if d else self._pass(legal)

    def _slay(self, s: CovenantState, seat: int, f: dict[str, Any], legal: list[Action]) -> Action:
        heals = self._by_key(legal, "heal")
        if heals and (cards()[f["tgt"]].type == "wizard" or self.value(s, f["tgt"]) >= 1.0):
            return heals[0]
        return self._pass(legal)

    def _bonus(self, s: CovenantState, seat: int, f: dict[str, Any], legal: list[Action]) -> Action:
        spells = self._by_key(legal, "bonus")
        if not spells:
            return self._pass(legal)
        c = cards()
        below = s.stack[-2]
        n_of = {a.a: c[a.a].roll_bonus for a in spells}
        if below["k"] == "duel":
            me0 = seat == below["seat"]
            t0 = below["r0"] + s.duel_strength(below["w0"]) + below["b0"]
            t1 = below["r1"] + s.duel_strength(below["w1"]) + below["b1"]
            mine, theirs = (t0, t1) if me0 else (t1, t0)
            if mine > theirs:
                return self._pass(legal)
            need = theirs - mine + 1
            total = sum(n_of.values())
            if total + 1 < need:  # out of reach even for a tie
                return self._pass(legal)
            return max(spells, key=lambda a: (n_of[a.a], a.a))
        danger = below["d"] + below["dng"]
        level = below["q"] + s.quest_bonus(below["card"], below["parts"]) + below["b"]
        if level >= danger:
            return self._pass(legal)
        if below["rd"] == 1:
            # each point saves one participant; worth it for a wizard
            if any(c[p].type == "wizard" for p in below["parts"]) and danger - level >= len(below["parts"]):
                return max(spells, key=lambda a: (n_of[a.a], a.a))
            return self._pass(legal)
        if danger - level <= sum(n_of.values()):
            return max(spells, key=lambda a: (n_of[a.a], a.a))
        return self._pass(legal)

    def _roll(self, s: CovenantState, seat: int, f: dict[str, Any], legal: list[Action]) -> Action:
        rr = self._by_key(legal, "reroll")
        if not rr:
            return self._pass(legal)
        below = s.stack[-2]
        v = f["v"]
        roller = f["seat"]
        mine = roller == seat
        if below["k"] == "duel":
            if seat not in (below["seat"], below["rival"]):
                return self._pass(legal)
            # a duel roll: reroll my low roll or my opponent's high one
            if mine and v <= 8:
                return rr[0]
            if not mine and v >= 13:
                return rr[0]
            return self._pass(legal)
        if below["k"] == "quest":
            out = f["out"]
            if mine:
                if (out == "d" and v >= 13) or (out == "q" and v <= 4):
                    return rr[0]
                return self._pass(legal)
            quester = below["seat"]
            close = s.vp(quester) + cards()[below["card"]].vp >= 25
            if close and ((out == "d" and v <= 8) or (out == "q" and v >= 10)):
                return rr[0]
        return self._pass(legal)

    def _harm(self, s: CovenantState, seat: int, f: dict[str, Any]) -> float:
        """How much the thing a negate window is about hurts ``seat``."""
        c = cards()
        src = f["src"]
        what = f["what"]
        owner = f["owner"]
        if what == "action":
            return 0.0
        if what == "duel":
            d = next((x for x in reversed(s.stack) if x["k"] == "duel" and x["card"] == src), None)
            if d is None or d["rival"] != seat:
                return 0.0
            mine = max(s.duel_strength(x) for x in s.wiz[seat]) if s.wiz[seat] else 0
            win, lose = duel_odds(mine - s.duel_strength(d["w0"]))
            return 1.5 * lose - win
        play = next((x for x in reversed(s.stack) if x["k"] == "play" and x["card"] == src), None)
        if play is None:
            return 0.0
        tgt = play["tgt"]
        for word, _, _ in c[src].resolve:
            if word in ("steal", "destroy", "slay") and tgt and s.controller(tgt) == seat:
                return 1.0 + self.value(s, tgt)
            if word == "vortex":
                return len(s.hands[seat]) - 2.5
            if word == "negate":
                # a negate against something of mine (or something that helps me)
                p2 = next((x for x in reversed(s.stack) if x.get("card") == tgt and x["k"] in ("play", "duel")), None)
                if p2 is not None and p2.get("seat") == seat:
                    return 1.5
                return 0.0
            if word == "roll_bonus":
                d = next((x for x in reversed(s.stack) if x["k"] in ("duel", "quest")), None)
                if d is None:
                    return 0.0
                if d["k"] == "duel" and seat in (d["seat"], d["rival"]):
                    return 1.2
                if d["k"] == "quest" and s.vp(owner) + c[d["card"]].vp >= 25:
                    return 2.0
                return 0.0
            if word == "danger":
                q = next((x for x in reversed(s.stack) if x["k"] == "quest"), None)
                return 1.2 if q is not None and q["seat"] == seat else 0.0
            if word == "prevent_slay":
                d = next((x for x in reversed(s.stack) if x["k"] == "duel"), None)
                return 1.0 if d is not None and seat in (d["seat"], d["rival"]) else 0.0
            if word == "reroll":
                rf = next((x for x in reversed(s.stack) if x["k"] == "roll"), None)
                return 0.8 if rf is not None and rf["seat"] == seat else 0.0
        return 0.0

    def _neg(self, s: CovenantState, seat: int, f: dict[str, Any], legal: list[Action]) -> Action:
        ns = self._by_key(legal, "negate")
        if ns and self._harm(s, seat, f) >= 1.0:
            return ns[0]
        return self._pass(legal)
