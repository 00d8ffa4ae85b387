"""The Relic automaton: a fast heuristic that plays to win (it is also the rollout policy of the search bot).

It keeps one goal at a time: heal when Life is low, purge Corruption when it nears the threshold, work on the
active mission (its token spaces, the space or area to visit, the tier of its test, the space to spend influence,
or hunting the enemies it asks for), and once it holds a relic and is strong enough for the scenario's
confrontation, head for the Guardian of the Rift and the Inner tier. It moves by comparing every landing space
(both directions, movement boxes, the Power card numbers in hand) by its distance to the goal on the board graph
(ring steps, crossings, jumps and the Webway Portal) plus what the space offers now (enemies it can beat, shops
when it has influence, healing when hurt). Battles and tests use exact exploding-dice odds: it spends charges and
Power cards only when they turn a likely loss into a likely win, evades enemies it would probably lose to, takes
every level its trophies buy, a relic as soon as it can, and buys the Wargear that raises its best bonuses.

It decides from a :class:`RelicView` (``seatview.py``): its own Power cards and face-down cards, and the public
table; the estimates are in ``estimates.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from wizprint.cards.model import Effect
from wizprint.solo.kernel import Action, Automaton

from .data import AI, ATTRS, Card
from .estimates import Estimates, card_value, dist_to, p_beat, p_pass
from .pending import (
    DICE_BEFORE,
    DICE_CHOOSE_DIE,
    DICE_ROLLED,
    END,
    ENGAGEMENT_WINDOW,
    EXPERIENCE_SPEND,
    MOVE_DIRECTION,
    MOVE_START_BOX,
    PASS,
    RIFT,
    ROLL,
    ROLL_BATTLE,
    ROLL_MOVE,
    ROLL_TEST,
    THREAT_ENCOUNTERS,
    THREAT_EVENTS,
    Battle,
    BuyPower,
    BuyWargear,
    ChargeTarget,
    Choose,
    ChooseAttribute,
    Dice,
    DiscardCards,
    DrawMission,
    Engagement,
    Experience,
    May,
    MoveAny,
    Movement,
    Pay,
    Purge,
    RelicPending,
    SkillTest,
    TakeRelic,
    Threats,
    WarpSkip,
)
from .seatview import RelicView


def _ability(c: Card, kind: str) -> int:
    """The effects of a card played (``play``), charged (``charge``) or used (``use``)."""
    return c.effects if kind == "play" else (c.passives.charge[0][1] if kind == "charge" else c.passives.use[0][1])


def _extra_spaces(effs: Sequence[Effect]) -> int:
    """The spaces an ability adds at the end of the move (``move_extra``, also behind a ``pay`` or ``may``)."""
    for e in effs:
        if e.word == "move_extra":
            return int(e.get("n", 0))
        if e.word in ("may", "pay"):
            return _extra_spaces(e["then"])
    return 0


OBJECTIVE, RELIC = Action("objective"), Action("relic")


class RelicAutomaton(Estimates, Automaton[RelicView]):
    View = RelicView

    def decide(self, v: RelicView) -> Action:
        legal = v.legal_actions()
        f = v.pending
        if f is None:
            return self._pick_char(v, legal)
        a = self._decide(v, f, legal)
        if a is None or a not in legal:
            return legal[0]
        return a

    def _decide(self, v: RelicView, f: RelicPending, legal: list[Action]) -> Action | None:
        match f:
            case Dice():
                return self._dice(v, f, legal)
            case Movement():
                return self._movement(v, f, legal)
            case Engagement():
                return self._engagement(v, f, legal)
            case Threats():
                return self._threats(v, f, legal)
            case Battle():
                return self._prepare(v, f, legal)
            case Experience():
                return self._experience(v, f, legal)
            case DrawMission():
                return max(legal, key=lambda a: (self._mission_ease(v, a.a, a.a == v.mission), a.key))
        return self._question(v, f, legal)

    def _pick_char(self, v: RelicView, legal: list[Action]) -> Action:
        D = v.data
        ca = self.conf_attrs(v)

        def score(a: Action) -> float:
            c = D.characters[a.a]
            return sum(c.attributes) + c.life * 0.6 + sum(c.attributes[i] for i in ca) / len(ca) * 1.5 + \
                0.3 * len(c.passives.battle_bonus) + 0.3 * c.asset_limit
        return max(legal, key=lambda a: (score(a), a.key))

    # -- dice: the windows before a roll, rerolls, choosing a movement die, exploding dice --------------------------
    def _dice(self, v: RelicView, f: Dice, legal: list[Action]) -> Action | None:
        if f.step == DICE_BEFORE:
            if f.context == ROLL_MOVE:
                return self._move_window(v, f, legal)
            if f.context == ROLL_BATTLE:
                return self._battle_roll(v, legal)
            return self._test_window(v, legal)
        if f.step == DICE_ROLLED:
            return self._reroll(v, f, legal)
        if f.step == DICE_CHOOSE_DIE:
            return max(legal, key=lambda a: (self._move_value(v, int(a.a)), a.key))
        return Action("roll")

    def _move_value(self, v: RelicView, pts: int) -> float:
        key = ("move", pts)
        got: float | None = v.memo.get(key)
        if got is None:
            best = -1e9
            goal = self.goal(v)  # (what ``_land`` reads: the same all through the decision)
            here = v.position
            for d in (1, -1):
                for end in self._landings(v, here, d, pts):
                    val = self.space_value(v, end, goal)
                    if val > best:  # max(best, val)
                        best = val
            got = v.memo[key] = best
        return got

    def _land(self, v: RelicView, sid: str) -> float:
        return self.space_value(v, sid, self.goal(v))

    def _landings(self, v: RelicView, start: str, d: int, pts: int) -> set[str]:
        """The spaces a move of ``pts`` from ``start`` in direction ``d`` may end on (the caller must not change
        the set: it is kept for the decision)."""
        kept = v.data.landings
        key = (start, d, pts, v.relics() > 0)
        got = kept.get(key)
        if got is None:  # the walk reads the board's graph and whether the seat holds a relic: kept with the data
            got = kept[key] = self._walk(v, start, d, pts)
        return got

    def _walk(self, v: RelicView, start: str, d: int, pts: int) -> set[str]:
        D = v.data
        can_rift = v.relics() > 0
        out: set[str] = set()

        def walk(here: str, d: int, pts: int, depth: int) -> None:
            while pts > 0:
                here = v.next_space(here, d)
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

    def _move_window(self, v: RelicView, f: Dice, legal: list[Action]) -> Action | None:
        # (the moves are named by their keys; one without a card is its kind alone: ``RIFT in legal``)
        if RIFT in legal and self.ready(v):
            return RIFT
        heal = self._heal_play(v, legal)
        if heal is not None:
            return heal
        mv = v.nearest(Movement)
        bonus = mv.bonus if mv else 0
        vals = {n: self._move_value(v, max(1, n + bonus)) for n in range(1, 7)}
        n = f.count
        # the value of rolling: with n dice, the best of them
        if n == 1:
            exp = sum(vals.values()) / 6
        else:
            order = sorted(vals.values())
            exp = sum(order[i] * (((i + 1) ** n - i ** n) / 6 ** n) for i in range(6))
        best_num, best_gain = None, 0.6
        C = v.data.cards
        for a in legal:
            if a.kind == "number":
                c = C[a.a]
                g = vals[c.number] - exp - 0.35 * card_value(v.data, c)
                if g > best_gain:
                    best_num, best_gain = a, g
        return best_num or (ROLL if ROLL in legal else None)

    def _heal_play(self, v: RelicView, legal: list[Action]) -> Action | None:
        if v.life > 2:
            return None
        D = v.data
        for a in legal:
            if a.kind in ("play", "charge", "use"):
                effs = D.effects(_ability(D.cards[a.a], a.kind))
                if effs and effs[0].word == "gain" and effs[0]["stat"] == "life":
                    return a
        return None

    def _battle_roll(self, v: RelicView, legal: list[Action]) -> Action | None:
        bat = v.nearest(Battle)
        if bat is None:
            return Action("roll")
        need = v.enemy_bonus(bat) + bat.enemy_roll - v.battle_bonus(bat) + 1  # the roll that wins
        xd = 1 + v.extra_dice("battle")
        p_roll = p_pass(need, xd) + (1 / 6) ** xd if need <= xd else p_pass(need, xd)
        C = v.data.cards
        best, bv = None, 1e9
        for a in legal:
            if a.kind == "number":
                c = C[a.a]
                num = c.number
                if num + (xd - 1) * 1 >= need or (num == 6 and need <= 9):
                    val = card_value(v.data, c)
                    if val < bv:
                        best, bv = a, val
        if best is not None and p_roll < 0.55:
            return best
        return Action("roll")

    def _test_window(self, v: RelicView, legal: list[Action]) -> Action | None:
        tst = v.nearest(SkillTest)
        if tst is None:
            return Action("roll")
        heal = self._heal_play(v, legal)
        if heal is not None:
            return heal
        base = v.attribute(tst.attribute) + v.skill(tst.attribute) + tst.bonus
        need = tst.target - base
        xd = 1 + v.extra_dice("test")
        p = p_pass(need, xd)
        stakes = self._test_stakes(v, tst)
        if p >= 0.85 or stakes < 1.0:
            return Action("roll")
        D = v.data
        # add to the score with a cheap card or a charge
        best, bv = None, 1e9
        for a in legal:
            c = D.cards.get(a.a)
            if c is None:
                continue
            if a.kind == "number" and c.number >= max(2, need):
                val = card_value(D, c)
            elif a.kind in ("play", "use", "charge"):
                effs = D.effects(_ability(c, a.kind))
                if not effs or effs[0].word != "add_score":
                    continue
                if p_pass(need - int(effs[0]["n"]), xd) < p + 0.15:
                    continue
                val = card_value(D, c) if a.kind == "play" else 0.8
            else:
                continue
            if val < bv:
                best, bv = a, val
        if best is not None and bv < stakes * 1.5:
            return best
        return Action("roll")

    def _test_stakes(self, v: RelicView, tst: SkillTest) -> float:
        if tst.mission:
            return 4.0
        if v.space().tier in ("inner", "centre"):
            return 4.0
        good = self.effs_value(v, v.data.effects(tst.on_pass))
        bad = self.effs_value(v, v.data.effects(tst.on_fail))
        return good - bad

    def _reroll(self, v: RelicView, f: Dice, legal: list[Action]) -> Action | None:
        rerolls = [a for a in legal if a.kind == "reroll"]
        if not rerolls:
            return Action("pass")
        vals = f.values
        low = min(range(len(vals)), key=lambda i: vals[i])
        if f.context == ROLL_BATTLE:
            bat = v.nearest(Battle)
            if bat is None:
                return Action("pass")
            margin = v.battle_bonus(bat) + sum(vals) - (v.enemy_bonus(bat) + bat.enemy_roll)
            if margin > 0 or vals[low] >= 4:
                return Action("pass")
        elif f.context == ROLL_TEST:
            tst = v.nearest(SkillTest)
            if tst is None:
                return Action("pass")
            base = v.attribute(tst.attribute) + v.skill(tst.attribute) + tst.bonus
            if (base + sum(vals) >= tst.target and not all(x == 1 for x in vals)) or vals[low] >= 4:
                return Action("pass")
        else:
            return Action("pass")
        cands = [a for a in rerolls if a.b == str(low)]
        C = v.data.cards
        hand = v.hand
        return min(cands, key=lambda a: (0.5 if a.a not in hand else card_value(v.data, C[a.a]), a.key))

    # -- movement decisions ---------------------------------------------------------------------------------------
    def _movement(self, v: RelicView, f: Movement, legal: list[Action]) -> Action | None:
        D = v.data
        goal = self.goal(v)
        if f.step == MOVE_DIRECTION:
            best, bv = None, -1e9
            here = v.position
            for a in legal:
                d = 1 if a.kind == "cw" else -1
                val = -math.inf
                for i, e in enumerate(self._landings(v, here, d, f.points)):
                    x = self.space_value(v, e, goal)  # (``_land``: the goal is the same all through the decision)
                    if i == 0 or x > val:  # max() of them
                        val = x
                if val > bv:
                    best, bv = a, val
            return best
        if f.box:
            sp = D.spaces[f.box]
            if sp.inner:
                return Action("rift") if self.ready(v) else Action("pass")
            # jump: compare the best landing with and without the jump
            stay = max(max(self._land(v, e) for e in self._landings(v, f.box, d, f.points))
                       for d in ((f.direction,) if f.direction else (1, -1)))
            jump = max(max(self._land(v, e) for e in self._landings(v, sp.jump, d, f.points - 1))
                       if f.points > 1 else self._land(v, sp.jump) for d in (1, -1))
            return Action("jump") if jump > stay else Action("pass")
        if f.step == MOVE_START_BOX:
            return Action("pass")
        if f.extra <= 0:  # the move is made: play an ability that adds spaces (Forced March) if it lands better
            here = v.position
            best, bv = Action("stop"), self._land(v, here) + 0.5
            for a in legal:
                if a.kind not in ("play", "charge", "use"):
                    continue
                pos = here
                for _ in range(_extra_spaces(D.effects(_ability(D.cards[a.a], a.kind)))):
                    pos = v.next_space(pos, f.direction)
                    if self._land(v, pos) > bv:
                        best, bv = a, self._land(v, pos)
            return best
        # extra spaces
        here = v.position
        nxt = v.next_space(here, f.direction)
        return Action("more") if self._land(v, nxt) > self._land(v, here) + 0.1 and goal != here \
            else Action("stop")

    # -- engagement -----------------------------------------------------------------------------------------------
    def _engagement(self, v: RelicView, f: Engagement, legal: list[Action]) -> Action | None:
        D = v.data
        if f.step == ENGAGEMENT_WINDOW:
            obj = v.objective()
            if OBJECTIVE in legal and obj is not None and (obj.word == "objective_influence" or self.p_test(
                    v, AI[str(obj["attribute"])], int(obj["target"])) >= 0.3):
                return OBJECTIVE
            heal = self._heal_play(v, legal)
            if heal is not None:
                return heal
            # a Power card to evade an enemy it would likely lose to
            for a in legal:
                if a.kind == "evade" and a.b:
                    c = D.cards[a.a]
                    if self.p_fight(v, c.attribute, c.value, (c.trait,), c.enemy_dice) < 0.35:
                        return a
            return PASS
        best, bv = END, 0.05
        sp = v.space()
        for a in legal:
            if a.kind == "box":
                val = self.box_value(v, sp.boxes[int(a.a) - 1])
                if val > bv:
                    best, bv = a, val
        return best

    def _threats(self, v: RelicView, f: Threats, legal: list[Action]) -> Action | None:
        D = v.data
        C = D.cards
        if f.step in (THREAT_EVENTS, THREAT_ENCOUNTERS):
            for a in legal:
                if a.kind == "ignore" and self.effs_value(v, D.effects(C[a.a].effects)) < 0:
                    return a
            return next(a for a in legal if a.kind in ("event", "encounter"))
        # battles: evade what it would lose to; fight the likeliest win first
        here = v.threats_here()
        for a in legal:
            if a.kind == "evade":
                c = C[a.a]
                p = self.p_fight(v, c.attribute, c.value, (c.trait,), c.enemy_dice)
                if p < 0.45 and self.mission_bonus(v, c) == 0:
                    return a
        best, bv = None, -1.0
        for a in legal:
            if a.kind == "fight":
                ai = AI[a.a]
                foes = [C[x] for x in here if C[x].category == "enemy" and C[x].attribute == ai and not v.evaded(x)]
                p = self.p_fight(v, ai, sum(c.value for c in foes), tuple(c.trait for c in foes),
                                 sum(c.enemy_dice for c in foes))
                if p > bv:
                    best, bv = a, p
        return best

    def _prepare(self, v: RelicView, f: Battle, legal: list[Action]) -> Action | None:
        D = v.data
        C = D.cards
        delta = v.battle_bonus(f) - v.enemy_bonus(f)
        xd = 1 + v.extra_dice("battle")
        ed = 1 + sum(C[x].enemy_dice for x in f.foes)
        p = p_beat(delta, xd, ed)
        stakes = 3.0 if not f.foes else 1.5 + sum(C[x].value for x in f.foes) / 4
        if v.space().tier in ("inner", "centre"):
            stakes = 6.0
        if v.life <= 1:
            stakes += 3.0
        if p >= 0.93:
            return Action("pass")
        best, bgain = None, 0.0
        form, traits = ATTRS[f.attribute], v.traits(f)
        for a in legal:
            if a.kind not in ("charge", "use", "play"):
                continue
            c = C[a.a]
            effs = D.effects(_ability(c, a.kind))
            add = sum(int(e["n"]) for e in effs if e.word == "add_score")
            if not add:
                continue
            extra = delta + add
            if a.kind == "charge" and c.gear in ("weapon", "armour"):
                cur = f.weapon if c.gear == "weapon" else f.armour
                if cur and cur != a.a:
                    extra -= v.bonus_of(C[cur].passives, form, traits)
                extra += v.bonus_of(c.passives, form, traits) if cur != a.a else 0
            gain = (p_beat(extra, xd, ed) - p) * stakes
            cost = card_value(D, c) * 0.5 if a.kind == "play" else (0.3 if a.kind == "charge" else 0.6)
            if any(e.word == "draw" and e["deck"] == "corruption" for e in effs):
                cost += 1.5
            hurt = sum(int(e["n"]) for e in effs if e.word == "lose" and e["stat"] == "life")
            if hurt >= v.life:
                continue  # never pay the last Life for a better battle score
            cost += 0.8 * hurt
            if gain - cost > bgain:
                best, bgain = a, gain - cost
        return best or Action("pass")

    # -- experience -----------------------------------------------------------------------------------------------
    def _experience(self, v: RelicView, f: Experience, legal: list[Action]) -> Action | None:
        D = v.data
        if f.step == EXPERIENCE_SPEND:
            if RELIC in legal:
                return RELIC
            levels = [a for a in legal if a.kind == "level"]
            if levels:
                return max(levels, key=lambda a: int(a.a))
            for a in legal:
                if a.kind in ("play", "charge", "use"):
                    lid = _ability(D.cards[a.a], a.kind)
                    p = D.purpose(lid)
                    if p == "complete_mission" or (p == "gain" and D.effects(lid)[0]["stat"] == "attribute"):
                        return a
                    if p == "remove_corruption" and v.corruption() >= 2:
                        return a
                    if p == "draw" and len(v.hand) < v.power_limit():
                        return a
            return END
        # forced discards: the least valuable card
        return min(legal, key=lambda a: (self._keep_value(v, a.a), a.key))

    def _keep_value(self, v: RelicView, x: str) -> float:
        c = v.data.cards[x]
        if c.deck == "power":
            return card_value(v.data, c)
        if c.deck == "relic":
            return 20.0
        p = c.passives
        val = 1.0 + sum(max(0, n) for _, n, _ in p.battle_bonus) + sum(max(0, n) for _, n in p.skill_bonus) * 0.6
        val += 0.8 * len(p.evade) + 1.0 * (p.extra_battle_dice + p.extra_test_dice) + 0.5 * v.charges(x)
        return val

    def _mission_ease(self, v: RelicView, m: str, current: bool) -> float:
        D = v.data
        obj = D.cards[m].objective
        assert obj is not None
        w = obj.word
        here = v.position
        if w == "objective_tokens":
            spaces = v.objective_tokens if current else [str(x) for x in obj["spaces"]]
            return -sum(dist_to(D, x).get(here, 60) for x in spaces) / 6
        if w == "objective_visit":
            if obj.get("space"):
                return -dist_to(D, str(obj["space"])).get(here, 60) / 4
            return -2.0
        if w == "objective_defeat":
            left = int(obj["count"]) - (v.mission_progress if current else 0)
            return -1.5 * left - (1.0 if obj.get("trait") else 0) - 0.2 * int(obj.get("min_value", 0) or 0)
        if w == "objective_level":
            return -(int(obj["level"]) - v.level) * 1.5
        if w == "objective_trophies":
            return -(int(obj["points"]) - v.trophy_points()) / 2
        if w == "objective_test":
            return -6 * (1 - self.p_test(v, AI[str(obj["attribute"])], int(obj["target"])))
        if w == "objective_influence":
            return -max(0, int(obj["n"]) - v.influence) / 2 - dist_to(D, str(obj["space"])).get(here, 60) / 6
        return -5.0

    # -- questions ------------------------------------------------------------------------------------------------
    def _question(self, v: RelicView, f: RelicPending, legal: list[Action]) -> Action | None:
        D = v.data
        C = D.cards
        match f:
            case May():
                return Action("yes") if self.effs_value(v, D.effects(f.effects)) > 0 else Action("no")
            case Pay():
                val = self.effs_value(v, D.effects(f.effects)) - 0.45 * f.cost
                return Action("yes") if val > 0 else Action("no")
            case Choose():
                opts = f.options
                return max(legal, key=lambda a: (self.effs_value(v, D.effects(opts[int(a.a) - 1])), a.key))
            case ChooseAttribute():
                w = {a: self.attr_weight(v, AI[a]) for a in ATTRS}
                if f.gain:
                    return max(legal, key=lambda a: (w[a.a] - 0.05 * v.attribute(AI[a.a]), a.key))
                return min(legal, key=lambda a: (w[a.a], a.key))
            case ChargeTarget():
                return max(legal, key=lambda a: (self._keep_value(v, a.a), a.key))
            case DiscardCards():
                return min(legal, key=lambda a: (self._keep_value(v, a.a), a.key))
            case Purge():
                up = v.corruption_face_up

                def harm(x: str) -> float:
                    if x in up:
                        return -self._keep_value(v, x) + 2.0 + (1.0 if C[x].passives.cannot else 0.0)
                    return 1.0
                return max(legal, key=lambda a: (harm(a.a), a.key))
            case MoveAny():
                g = self.goal(v)
                return max(legal, key=lambda a: (self.space_value(v, a.a, g), a.key))
            case BuyPower():
                room = max(0, v.power_limit() - len(v.hand))
                n = min(room, max(int(a.a) for a in legal))
                obj = v.objective()
                if obj is not None and obj.word == "objective_influence":
                    n = 0
                return Action("buy", str(n)) if Action("buy", str(n)) in legal else legal[0]
            case BuyWargear():
                best, bv = Action("done"), 0.3
                for a in legal:
                    if a.kind == "buy":
                        val = self._gear_gain(v, a.a) - 0.15 * C[a.a].cost
                        if val > bv:
                            best, bv = a, val
                return best
            case TakeRelic():
                return max(legal, key=lambda a: (self._relic_value(v, a.a), a.key))
            case WarpSkip():
                return Action("spend")
        return None

    def _gear_gain(self, v: RelicView, x: str) -> float:
        """How much a Wargear card improves on what this seat has."""
        C = v.data.cards
        c = C[x]
        if len(v.assets) >= v.asset_limit() and c.gear in ("equipment",):
            return 0.0
        ca = self.conf_attrs(v)
        if c.gear in ("weapon", "armour"):
            def bonus(card: Card) -> float:
                return max(self._expected_bonus(v, card, ATTRS[a]) for a in range(3)) * 0.6 + sum(
                    self._expected_bonus(v, card, ATTRS[a]) for a in ca) / len(ca) * 0.6 + 0.7 * card.charges
            have = max([bonus(C[g]) for g in v.gear(c.gear)] + [0.0])
            return bonus(c) - have
        p = c.passives
        val = sum(max(0, n) * (1.2 if a in ca else 0.6) for a, n in p.skill_bonus) + 2.5 * p.extra_test_dice + \
            1.5 * p.extra_battle_dice
        val += 2.0 * len(p.evade) + 1.2 * (p.movement_dice > 1) + 0.4 * c.charges
        return val

    @staticmethod
    def _expected_bonus(v: RelicView, card: Card, form: str) -> float:
        """A card's battle bonus in a battle of ``form``, a bonus against a trait counted at the share of the
        Threat decks' enemies that have it."""
        share = v.data.trait_share
        return sum(n * (share.get(vs, 0.0) if vs else 1.0) for fm, n, vs in card.passives.battle_bonus
                   if fm == "any" or fm == form)

    def _relic_value(self, v: RelicView, x: str) -> float:
        c = v.data.cards[x]
        p = c.passives
        ca = self.conf_attrs(v)
        val = sum(self._expected_bonus(v, c, ATTRS[a]) for a in ca) / len(ca) * 2
        val += sum(n for a, n in p.skill_bonus if a in ca) * 0.8 + 2.0 * (p.extra_battle_dice + p.extra_test_dice)
        val += sum(n for w, n in p.limits if w == "corruption") * 0.8 + c.charges * 0.5
        return val
