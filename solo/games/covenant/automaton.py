"""The Covenant of Wizards automaton: a fast heuristic (it is also the rollout policy of the search bot).

It summons wizards and resources first and attaches items where they help most, uses wizard actions with the
wizards a quest can spare, goes on a quest when the chance of completing it (both rounds, with the losses of
round one, from exact dice distributions) is worth the risk, duels when its wizard has the edge, casts its
steals, destroys and slays on the most valuable targets of the leading rivals, and answers: Dispell or Alter
Reality against what hurts it, Healing for its wizards, Probability Shift on a bad roll, bonus spells when they
turn a duel or a quest round, Tricks & Traps on rivals' quests, Guardian Beast to keep an item.

It decides from a :class:`CovenantView`: its own hand, the table, hand sizes, the rolls and the work under way.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from wizprint.solo.kernel import Action, Automaton, SeatView

from .data import Info
from .pending import (
    BonusWindow,
    Choice,
    CovenantPending,
    Duel,
    Negation,
    Play,
    Quest,
    QuestStep,
    Roll,
    RollFor,
    Slaying,
    Theft,
    TheftStep,
    TrapsWindow,
    WizardAct,
)
from .state import CovenantState, Phase


class CovenantView(SeatView[CovenantState]):
    """What one Covenant seat may know: its own hand; of the others, hand sizes and everything on the table."""

    @property
    def cards(self) -> dict[str, Info]:
        """The printed card data."""
        return self._state().data.cards

    @property
    def odds_cache(self) -> dict[tuple[object, ...], tuple[float, float]]:
        """Quest odds kept across choices (on the game's data: they depend only on it and the key)."""
        return self._state().data.quest_odds

    @property
    def phase(self) -> Phase:
        return self._state().phase

    @property
    def hand(self) -> list[str]:
        """This seat's hand, in the order it was taken up."""
        return list(self._state().hands[self.seat])

    def hand_size(self, seat: int) -> int:
        return len(self._state().hands[seat])

    @property
    def acted(self) -> list[str]:
        return list(self._state().acted)

    @property
    def stack(self) -> tuple[CovenantPending, ...]:
        """The work under way, innermost last (all of it public)."""
        return tuple(self._state().stack)

    def wizards(self, seat: int) -> list[str]:
        return list(self._state().wizards[seat])

    def attached(self, wizard: str) -> tuple[str, ...]:
        return tuple(self._state().attached.get(wizard, ()))

    def granted(self, wizard: str) -> tuple[str, ...]:
        """Abilities a resource gave the wizard for this turn."""
        return self._state().granted.get(wizard, ())

    def abilities(self, wizard: str) -> frozenset[str]:
        return self._state().abilities(wizard)

    def vp(self, seat: int) -> int:
        return self._state().vp(seat)

    def rivals(self, seat: int) -> list[int]:
        return self._state().rivals(seat)

    def controller(self, card: str) -> int:
        return self._state().controller(card)

    def followers_of(self, seat: int) -> list[str]:
        return self._state().followers_of(seat)

    def hand_limit(self, seat: int) -> int:
        return self._state().hand_limit(seat)

    def duel_strength(self, wizard: str) -> int:
        return self._state().duel_strength(wizard)

    def quest_bonus(self, quest: str, parts: list[str] | tuple[str, ...]) -> int:
        return self._state().quest_bonus(quest, parts)

    def quest_candidates(self, seat: int) -> list[str]:
        return self._state().quest_candidates(seat)


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


def hand_value(info: Info, v: CovenantView, seat: int) -> float:
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
        return 1.4 if v.wizards(seat) else 0.8
    best = 0.3
    for e in info.resolve:
        word, what, n = e.word, e.what, e.n
        x = {"steal": 2.6, "slay": 2.6, "destroy": 1.8, "negate": 2.0, "prevent_slay": 1.9, "reroll": 1.4,
             "roll_bonus": 1.0 + 0.2 * n, "search": 1.4, "reanimate": 1.3, "vortex": 0.7, "danger": 0.9,
             "draw": 1.0 + 0.5 * n, "skip_turn": 1.5}.get(word, 0.3)
        if word == "steal" and what == "wizard":
            x = 3.0
        best = max(best, x)
    return best


ACTION_GAIN = {"conjuror": 1.1, "maker": 0.5, "stealth": 0.45, "scry": 0.05}
GRANTED_ACTION_GAIN = {"conjuror": 0.6, "maker": 0.3, "stealth": 0.25, "scry": 0.05}


class CovenantAutomaton(Automaton[CovenantView]):
    View = CovenantView

    def __init__(self) -> None:
        super().__init__()
        self.memo: dict[tuple[Any, ...], Any] = {}  # quest plans, valid during one decision

    # -- values -----------------------------------------------------------------------------------------------
    def value(self, v: CovenantView, x: str) -> float:
        """What a card in play is worth to its controller."""
        info = v.cards[x]
        t = info.type
        if t == "wizard":
            ab = v.abilities(x)
            return 1.8 + 0.2 * len(ab) + sum(self.value(v, a) for a in v.attached(x))
        if t == "item":
            return info.vp + 0.3 + 0.4 * (info.duel_bonus + info.quest_bonus) + 0.5 * len(info.grants)
        if t == "follower":
            return 0.4 + 0.3 * info.duel_bonus + 0.2 * len(info.quest_bonus_on) + (0.5 if info.guard else 0.0)
        if t == "resource":
            return info.vp + 0.4 * len(info.grant_one)
        return 0.0

    def threat(self, v: CovenantView, seat: int, me: int) -> float:
        """How much hurting ``seat`` is worth to ``me`` (the leading rivals first)."""
        if seat == me:
            return -1.0
        top = max(v.vp(r) for r in range(v.players) if r != me)
        return 0.6 + v.vp(seat) / 20.0 + (0.3 if v.vp(seat) == top else 0.0)

    def quest_odds(self, v: CovenantView, quest: str, parts: list[str], extra: int = 0) -> tuple[float, float]:
        """(P complete, expected value lost) for a quest with these participants (no Tricks & Traps)."""
        # the odds depend only on the quest, the participants, what is attached to them and their abilities of this
        # turn: kept across choices (the search asks the same question in thousands of playouts)
        key = (quest, tuple(parts), extra, tuple(v.attached(p) for p in parts), tuple(v.granted(p) for p in parts))
        cache = v.odds_cache
        hit = cache.get(key)
        if hit is None:
            if len(cache) >= 100_000:
                cache.clear()
            hit = cache[key] = self.fresh_quest_odds(v, quest, parts, extra)
        return hit

    def fresh_quest_odds(self, v: CovenantView, quest: str, parts: list[str], extra: int) -> tuple[float, float]:
        """:meth:`quest_odds` worked out anew."""
        c = v.cards
        if not any(c[p].type == "wizard" for p in parts):
            return 0.0, 0.0
        order = sorted(parts, key=lambda p: (self.value(v, p), p))  # the cheapest are lost first
        base = v.quest_bonus(quest, parts) + extra
        prob = 0.0
        loss = 0.0
        cache: dict[int, tuple[int, float, bool]] = {}
        for z, pz in Z.items():
            k = max(0, z - base)
            if k not in cache:
                gone = order[:k]
                dead = set(gone)
                for g in gone:
                    dead.update(v.attached(g))
                alive = [p for p in parts if p not in dead]
                lost = sum(self.value(v, g) for g in gone)
                cache[k] = (v.quest_bonus(quest, alive) + extra, lost, bool(alive))
            bonus2, lost, any_left = cache[k]
            loss += pz * lost
            if any_left:
                prob += pz * z_le(bonus2)
        return prob, loss

    def _quest_plan(self, v: CovenantView, seat: int) -> tuple[str, float]:
        """The best quest in hand with every eligible participant: (quest, expected gain)."""
        key = ("plan", seat)
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = self._plan(v, seat)
        plan: tuple[str, float] = hit
        return plan

    def _plan(self, v: CovenantView, seat: int) -> tuple[str, float]:
        c = v.cards
        quests = [x for x in v.hand if c[x].type == "quest"]
        if not quests:
            return "", 0.0
        parts = self.all_parts(v, seat)
        extra = self._bonus_in_hand(v, "quest")
        best, gain = "", -9.0
        for q in quests:
            p, loss = self.quest_odds(v, q, parts, extra // 2)
            g = p * c[q].vp - loss
            if g > gain:
                best, gain = q, g
        return best, gain

    def all_parts(self, v: CovenantView, seat: int, without: str = "") -> list[str]:
        """Every participant ``seat`` could send on a quest now (wizards bring their followers)."""
        c = v.cards
        out: list[str] = []
        for x in v.quest_candidates(seat):
            if x == without:
                continue
            out.append(x)
            if c[x].type == "wizard":
                out.extend(a for a in v.attached(x) if c[a].type == "follower")
        return out

    def _bonus_in_hand(self, v: CovenantView, ctx: str) -> int:
        c = v.cards
        return sum(c[x].roll_bonus for x in v.hand if c[x].roll_bonus and c[x].roll_kind in (ctx, "either"))

    def _quest_cost(self, v: CovenantView, seat: int, wizard: str) -> float:
        """What the quest of this turn loses if ``wizard`` cannot go."""
        if v.phase not in (Phase.EVENT, Phase.DUEL):
            return 0.0
        q, gain = self._quest_plan(v, seat)
        if not q or gain <= 0:
            return 0.0
        parts = self.all_parts(v, seat, without=wizard)
        p, loss = self.quest_odds(v, q, parts)
        return max(0.0, gain - (p * v.cards[q].vp - loss))

    # -- choosing ---------------------------------------------------------------------------------------------
    def decide(self, v: CovenantView) -> Action:
        self.memo = {}
        seat = v.seat
        legal = v.legal_actions()
        stack = v.stack
        if stack:
            top = stack[-1]
            if isinstance(top, Negation):
                return self._negation(v, seat, top, legal)
            if isinstance(top, Roll):
                return self._roll(v, seat, top, legal)
            if isinstance(top, Slaying):
                return self._slaying(v, top, legal)
            if isinstance(top, BonusWindow):
                return self._bonus(v, seat, legal)
            if isinstance(top, TrapsWindow):
                d = self._by_kind(legal, "danger")
                return d[0] if d else self._pass(legal)
            if isinstance(top, Theft):
                return self._theft(v, top, legal)
            if isinstance(top, Choice):
                return self._choice(v, seat, top, legal)
            if isinstance(top, Duel):  # which wizard answers the challenge
                return max(legal, key=lambda a: (v.duel_strength(a.a), -self.value(v, a.a), a.a))
            if isinstance(top, Quest):
                return self._quest(v, top, legal)
            return legal[0]
        if v.phase is Phase.DISCARD:
            c = v.cards
            return min(legal, key=lambda a: (hand_value(c[a.a], v, seat), a.a))
        if v.phase is Phase.EVENT:
            return max(legal, key=lambda a: (self._score_event(v, seat, a), a.key))
        if v.phase is Phase.DUEL:
            return max(legal, key=lambda a: (self._score_duel(v, seat, a), a.key))
        if v.phase is Phase.SUMMON:
            return max(legal, key=lambda a: (self._score_summon(v, seat, a), a.key))
        return max(legal, key=lambda a: (self._score_adventure(v, seat, a), a.key))

    @staticmethod
    def _by_kind(legal: list[Action], kind: str) -> list[Action]:
        return [a for a in legal if a.kind == kind]

    @staticmethod
    def _pass(legal: list[Action]) -> Action:
        return next(a for a in legal if a.kind == "pass")

    # phases
    def _target_score(self, v: CovenantView, seat: int, word: str, what: str, tgt: str) -> float:
        c = v.cards
        if word == "look_hand":
            return 0.05
        if word == "skip_turn":
            return self.threat(v, int(tgt), seat)
        if word == "reanimate":
            return 1.5
        owner = v.controller(tgt)
        x = self.value(v, tgt) * self.threat(v, owner, seat)
        if word == "steal":
            if c[tgt].type == "item" and any(c[f].guard for f in v.followers_of(owner)):
                x *= 0.5
            return 0.5 + 2.0 * x
        if word == "slay":
            return 0.6 + x
        return 0.3 + x  # destroy

    def _score_event(self, v: CovenantView, seat: int, a: Action) -> float:
        c = v.cards
        k = a.kind
        if k == "end":
            return 0.0
        if k in ("cast", "play"):
            eff = c[a.a].first_active
            word, what = eff.word, eff.what
            if word in ("steal", "slay", "destroy", "skip_turn", "look_hand", "reanimate"):
                return self._target_score(v, seat, word, what, a.b)
            if word == "search":
                has = any(c[x].type == what for x in v.hand)
                return 0.3 if has else 1.6
            if word == "vortex":
                mine = v.hand_size(seat) - 1
                theirs = sum(v.hand_size(r) for r in v.rivals(seat)) / (v.players - 1)
                return 1.0 if mine <= 1 and theirs >= 4 else -1.0
            if word == "draw":
                return 1.0
            return 0.02 if v.hand_size(seat) >= 6 else -0.1  # looking at cards: only to make room
        if k == "act":
            ab = WizardAct.of(a.b).ability
            return ACTION_GAIN.get(ab, 0.0) - self._quest_cost(v, seat, a.a)
        if k == "grant":
            w = a.b
            val = 0.0
            for g in c[a.a].grant_one:
                if g in GRANTED_ACTION_GAIN:
                    if w in v.acted:
                        continue
                    val += GRANTED_ACTION_GAIN[g]
                elif g == "adventurer":
                    val += 0.8 if w not in v.acted else 0.1
                elif g == "dueler":
                    val += 0.5 if any(c[x].duel for x in v.hand) else 0.05
                elif g == "nature":
                    val += 0.4
            return val
        return 0.0

    def _score_duel(self, v: CovenantView, seat: int, a: Action) -> float:
        if a.kind == "end":
            return 0.0
        w, r = a.a, int(a.b)
        mine = v.duel_strength(w) + self._bonus_in_hand(v, "duel") // 2
        foe = max(v.wizards(r), key=lambda x: (v.duel_strength(x), -self.value(v, x)))
        win, lose = duel_odds(mine - v.duel_strength(foe))
        return (win * self.value(v, foe) * self.threat(v, r, seat) - lose * self.value(v, w)
                - self._quest_cost(v, seat, w) - 0.4)

    def _score_summon(self, v: CovenantView, seat: int, a: Action) -> float:
        c = v.cards
        if a.kind == "end":
            return 0.0
        info = c[a.a]
        t = info.type
        if t == "wizard":
            return 3.0 + (2.0 if len(v.wizards(seat)) < 2 else 0.0)
        if t == "resource":
            return 2.0 + info.vp + 0.3 * len(info.grant_one)
        if t == "follower" and not info.attach:
            qs = {c[x].design for x in v.hand if c[x].type == "quest"}
            return 1.0 + (0.5 if any(q in qs for q, _ in info.quest_bonus_on) else 0.0) + (0.3 if info.guard else 0.0)
        w = a.b
        ab = v.abilities(w)
        score = 1.5 + info.vp * 1.2
        score += sum(0.9 if e.word == "draw" else 0.4 for e in info.on_enter)
        if info.duel_bonus:
            score += 0.3 * info.duel_bonus + (0.5 if "dueler" in ab else 0.0)
        if info.quest_bonus:
            score += 0.3 * info.quest_bonus + (0.5 if "adventurer" in ab or "nature" in ab else 0.0)
        for g in info.grants:
            if g in ab:
                score -= 0.5
            elif g in ACTION_GAIN and not any(x in ab for x in ACTION_GAIN):
                score += 0.6
        score += 0.05 * len(v.attached(w))  # gather strength on one wizard a little
        return score

    def _score_adventure(self, v: CovenantView, seat: int, a: Action) -> float:
        if a.kind == "end":
            return 0.0
        c = v.cards
        parts = self.all_parts(v, seat)
        p, loss = self.quest_odds(v, a.a, parts, self._bonus_in_hand(v, "quest") // 2)
        gain = p * c[a.a].vp - loss
        need = 1.2 if v.hand_size(seat) < v.hand_limit(seat) else 0.3
        if v.vp(seat) + c[a.a].vp >= 25:
            need = 0.5
        return gain - need

    # pending work
    def _quest(self, v: CovenantView, f: Quest, legal: list[Action]) -> Action:
        if f.step is QuestStep.LOSSES:
            return min(legal, key=lambda a: (self.value(v, a.a), a.a))
        joins = self._by_kind(legal, "join")
        return joins[0] if joins else next(a for a in legal if a.kind == "go")

    def _choice(self, v: CovenantView, seat: int, f: Choice, legal: list[Action]) -> Action:
        word, what = f.effect.word, f.effect.what
        c = v.cards
        if word == "search":
            return max(legal, key=lambda a: (hand_value(c[a.a], v, seat) if a.a in c else 0.0, a.a))
        return max(legal, key=lambda a: (self._target_score(v, seat, word, what, a.a), a.a))

    def _theft(self, v: CovenantView, f: Theft, legal: list[Action]) -> Action:
        if f.step is TheftStep.PLACE:  # where the taken card goes
            info = v.cards[f.target]

            def fit(w: str) -> float:
                ab = v.abilities(w)
                x = 0.0
                if info.duel_bonus:
                    x += 1.0 if "dueler" in ab else 0.0
                if info.quest_bonus:
                    x += 1.0 if ("adventurer" in ab or "nature" in ab) else 0.0
                for g in info.grants:
                    x += -1.0 if g in ab else 0.5
                return x + 0.01 * len(v.attached(w))

            return max(legal, key=lambda a: (fit(a.a), a.a))
        guards = self._by_kind(legal, "guard")
        if guards and self.value(v, f.target) >= 0.7:
            return guards[0]
        return self._pass(legal)

    def _slaying(self, v: CovenantView, f: Slaying, legal: list[Action]) -> Action:
        heals = self._by_kind(legal, "heal")
        if heals and (v.cards[f.target].type == "wizard" or self.value(v, f.target) >= 1.0):
            return heals[0]
        return self._pass(legal)

    def _bonus(self, v: CovenantView, seat: int, legal: list[Action]) -> Action:
        spells = self._by_kind(legal, "bonus")
        if not spells:
            return self._pass(legal)
        c = v.cards
        below = v.stack[-2]
        n_of = {a.a: c[a.a].roll_bonus for a in spells}
        if isinstance(below, Duel):
            me0 = seat == below.seat
            t0 = below.challenger_roll + v.duel_strength(below.challenger) + below.challenger_bonus
            t1 = below.defender_roll + v.duel_strength(below.defender) + below.defender_bonus
            mine, theirs = (t0, t1) if me0 else (t1, t0)
            if mine > theirs:
                return self._pass(legal)
            need = theirs - mine + 1
            total = sum(n_of.values())
            if total + 1 < need:  # out of reach even for a tie
                return self._pass(legal)
            return max(spells, key=lambda a: (n_of[a.a], a.a))
        assert isinstance(below, Quest)
        danger = below.danger_roll + below.danger_bonus
        level = below.level_roll + v.quest_bonus(below.card, below.participants) + below.level_bonus
        if level >= danger:
            return self._pass(legal)
        if below.round == 1:
            # each point saves one participant; worth it for a wizard
            if any(c[p].type == "wizard" for p in below.participants) and danger - level >= len(below.participants):
                return max(spells, key=lambda a: (n_of[a.a], a.a))
            return self._pass(legal)
        if danger - level <= sum(n_of.values()):
            return max(spells, key=lambda a: (n_of[a.a], a.a))
        return self._pass(legal)

    def _roll(self, v: CovenantView, seat: int, f: Roll, legal: list[Action]) -> Action:
        rr = self._by_kind(legal, "reroll")
        if not rr:
            return self._pass(legal)
        below = v.stack[-2]
        x = f.total
        mine = f.seat == seat
        if isinstance(below, Duel):
            if seat not in (below.seat, below.rival):
                return self._pass(legal)
            # a duel roll: reroll my low roll or my opponent's high one
            if mine and x <= 8:
                return rr[0]
            if not mine and x >= 13:
                return rr[0]
            return self._pass(legal)
        if isinstance(below, Quest):
            danger = f.slot is RollFor.DANGER
            level = f.slot is RollFor.LEVEL
            if mine:
                if (danger and x >= 13) or (level and x <= 4):
                    return rr[0]
                return self._pass(legal)
            close = v.vp(below.seat) + v.cards[below.card].vp >= 25
            if close and ((danger and x <= 8) or (level and x >= 10)):
                return rr[0]
        return self._pass(legal)

    def _harm(self, v: CovenantView, seat: int, f: Negation) -> float:
        """How much the thing a negation window is about hurts ``seat``."""
        c = v.cards
        src = f.source
        what = f.what
        owner = f.owner
        stack = v.stack
        if what == "action":
            return 0.0
        if what == "duel":
            d = next((x for x in reversed(stack) if isinstance(x, Duel) and x.card == src), None)
            if d is None or d.rival != seat:
                return 0.0
            wiz = v.wizards(seat)
            mine = max(v.duel_strength(x) for x in wiz) if wiz else 0
            win, lose = duel_odds(mine - v.duel_strength(d.challenger))
            return 1.5 * lose - win
        play = next((x for x in reversed(stack) if isinstance(x, Play) and x.card == src), None)
        if play is None:
            return 0.0
        tgt = play.target
        for e in c[src].resolve:
            word = e.word
            if word in ("steal", "destroy", "slay") and tgt and v.controller(tgt) == seat:
                return 1.0 + self.value(v, tgt)
            if word == "vortex":
                return v.hand_size(seat) - 2.5
            if word == "negate":
                # a negate against something of mine (or something that helps me)
                p2 = next((x for x in reversed(stack) if isinstance(x, (Play, Duel)) and x.card == tgt), None)
                if p2 is not None and p2.seat == seat:
                    return 1.5
                return 0.0
            if word == "roll_bonus":
                d2 = next((x for x in reversed(stack) if isinstance(x, (Duel, Quest))), None)
                if d2 is None:
                    return 0.0
                if isinstance(d2, Duel) and seat in (d2.seat, d2.rival):
                    return 1.2
                if isinstance(d2, Quest) and v.vp(owner) + c[d2.card].vp >= 25:
                    return 2.0
                return 0.0
            if word == "danger":
                q = next((x for x in reversed(stack) if isinstance(x, Quest)), None)
                return 1.2 if q is not None and q.seat == seat else 0.0
            if word == "prevent_slay":
                d3 = next((x for x in reversed(stack) if isinstance(x, Duel)), None)
                return 1.0 if d3 is not None and seat in (d3.seat, d3.rival) else 0.0
            if word == "reroll":
                rf = next((x for x in reversed(stack) if isinstance(x, Roll)), None)
                return 0.8 if rf is not None and rf.seat == seat else 0.0
        return 0.0

    def _negation(self, v: CovenantView, seat: int, f: Negation, legal: list[Action]) -> Action:
        ns = self._by_kind(legal, "negate")
        if ns and self._harm(v, seat, f) >= 1.0:
            return ns[0]
        return self._pass(legal)
