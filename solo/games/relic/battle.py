"""The Engagement phase and battles (relic.txt, Engagement, Battles, Multiple Enemies, Evading): the window before
it (objectives, abilities), then the Inner tier's boxes or the scenario's confrontation, or the Threat cards here
(events, then battles, then encounters, then assets), or the space's text boxes. A battle: abilities at its start,
Prepare for Battle (weapon, armour, abilities), the enemy's roll (made by the player on the left), the player's
roll, then the scores: the winner takes the enemies as trophies, the loser loses 1 Life and suffers the enemies'
penalties; a tie ends the Engagement phase.

Action keys: ``pass`` (go on), ``objective`` (attempt the active mission's test or influence objective),
``box N`` / ``end`` (text boxes), ``event X``, ``encounter X``, ``ignore X``, ``evade X``,
``fight strength|willpower|cunning``, ``weapon X`` / ``armour X`` (the Wargear whose bonuses this battle uses).
"""

from __future__ import annotations

from wizprint.solo.kernel import Action

from .data import AI, ATTRS
from .dice import roll_for
from .effects import resolve_space
from .heroes import complete_mission, defeated, lose, objective
from .pending import (
    BATTLE_COMPARE,
    BATTLE_ENEMY_ROLL,
    BATTLE_PLAYER_ROLL,
    BATTLE_PREPARE,
    BATTLE_START,
    END,
    ENGAGEMENT_CHOOSE_BOX,
    ENGAGEMENT_DONE,
    ENGAGEMENT_RESOLVE,
    ENGAGEMENT_START,
    ENGAGEMENT_WINDOW,
    PASS,
    ROLL_BATTLE,
    THREAT_ASSETS,
    THREAT_BATTLES,
    THREAT_ENCOUNTERS,
    THREAT_EVENTS,
    Battle,
    BattleResult,
    DiscardAfter,
    EndEngagement,
    Engagement,
    LoseLife,
    SkillTest,
    TakeTrophies,
    Threats,
)
from .plays import evadable, evade_abilities, evade_source, may_play, play, plays
from .state import RULES, RelicState
from .texts import battle_cause, enemy_parts, player_parts, sum_words

_NEXT_THREAT_STEP = (THREAT_EVENTS, THREAT_BATTLES, THREAT_ENCOUNTERS, THREAT_ASSETS)  # by the step's value
_FIGHT = tuple(Action("fight", a) for a in ATTRS)  # by the attribute's index (a move is a value: made once)


# -- the Engagement phase ----------------------------------------------------------------------------------------
def objective_option(s: RelicState, seat: int) -> bool:
    """The seat may attempt its mission's objective instead of resolving its space's text box (a test on the tier,
    or influence spent on the space). Only where no Threat card lies: relic.txt, Engagement Phase, "If at least one
    Threat card is on their space when the Engagement phase begins, they must resolve step A" (the Threat cards)."""
    obj = objective(s, seat)
    if obj is None or s.threats_here(seat):
        return False
    sp = s.space_of(seat)
    if obj.word == "objective_test":
        return bool(sp.tier == obj["tier"])
    if obj.word == "objective_influence":
        return bool(sp.id == obj["space"]) and s.influence[seat] >= int(obj["n"])
    return False


def _box_ok(s: RelicState, seat: int, lid: int) -> bool:
    effs = s.data.lists.lists[lid]
    if len(effs) == 1 and effs[0].word == "cross":
        return s.influence[seat] >= int(effs[0].get("influence", 0) or 0)
    return True


@RULES.run(Engagement)
def run_engagement(s: RelicState, f: Engagement) -> bool:
    seat = f.seat
    while True:
        st = f.step
        if st == ENGAGEMENT_START:
            f.step = ENGAGEMENT_WINDOW
            here = s.board.get(s.positions[seat])
            items = [(lid, x) for x in here for m, lid in s.data.cards[x].special
                     if m == "engagement_start"] if here else []
            whens = s.whens(seat, "engagement_start")
            if not items and not whens:
                continue  # nothing pushed: the item is still on top and the game goes on
            s.push_timed(seat, items + whens, "engagement_start")
        elif st == ENGAGEMENT_WINDOW:
            if s.hands[seat] or objective_option(s, seat) or plays(s, seat, "eng"):
                return True
            f.step = ENGAGEMENT_RESOLVE
        elif st == ENGAGEMENT_RESOLVE:
            sp = s.space_of(seat)
            if sp.tier in ("inner", "centre"):
                f.step = ENGAGEMENT_DONE
                resolve_space(s, seat)
            elif s.threats_here(seat):
                f.step = ENGAGEMENT_DONE
                th = Threats(seat=seat)
                s.stack.append(th)
                if run_threats(s, th):  # what ``advance`` would run next (the same seat)
                    return True
            elif not sp.boxes:
                f.step = ENGAGEMENT_DONE
            elif sp.choose_one:
                f.step = ENGAGEMENT_CHOOSE_BOX
                return True
            else:
                f.step = ENGAGEMENT_DONE
                s.push_effect_lists(seat, [(b, sp.id) for b in sp.boxes])
        elif st == ENGAGEMENT_CHOOSE_BOX:
            return True
        else:
            if s.stack and s.stack[-1] is f:
                s.stack.pop()
            return False
        if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
            return False  # anything else runs next (what ``advance`` would run; see ``run_turn``)


@RULES.legal(Engagement)
def engagement_legal(s: RelicState, f: Engagement) -> list[Action]:
    seat = f.seat
    if f.step == ENGAGEMENT_WINDOW:
        out = [PASS]
        if objective_option(s, seat):
            out.append(Action("objective"))
        return out + plays(s, seat, "eng")
    sp = s.space_of(seat)
    return [Action("box", str(i + 1)) for i, b in enumerate(sp.boxes) if _box_ok(s, seat, b)] + [END]


@RULES.apply(Engagement)
def engagement_apply(s: RelicState, f: Engagement, a: Action) -> None:
    seat = f.seat
    k = a.kind
    if f.step == ENGAGEMENT_WINDOW:
        if k == "pass":
            f.step = ENGAGEMENT_RESOLVE
        elif k == "objective":
            obj = objective(s, seat)
            assert obj is not None
            f.step = ENGAGEMENT_DONE
            if obj.word == "objective_test":
                s.say(f"{s.who(seat)} attempts the objective of {s.label(s.missions[seat])}")
                s.push(SkillTest(seat=seat, attribute=AI[str(obj["attribute"])], target=int(obj["target"]),
                                 mission=s.missions[seat]))
            else:
                s.influence[seat] -= int(obj["n"])
                s.say(f"{s.who(seat)} spends {int(obj['n'])} influence (now {s.influence[seat]}) for the objective "
                      f"of {s.label(s.missions[seat])}")
                complete_mission(s, seat)
        else:
            play(s, seat, a)
    else:
        f.step = ENGAGEMENT_DONE
        if k == "box":
            sp = s.space_of(seat)
            s.say(f"{s.who(seat)} chooses text box {a.a} of {sp.name}: {s.data.box_text(sp.id, int(a.a))}")
            s.push_effects(seat, sp.boxes[int(a.a) - 1], sp.id)


@RULES.run(EndEngagement)
def run_end_engagement(s: RelicState, f: EndEngagement) -> bool:
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
    s.end_engagement()
    return False


# -- the Threat cards here ---------------------------------------------------------------------------------------
def _threat_options(s: RelicState, f: Threats) -> list[Action]:
    seat = f.seat
    C = s.data.cards
    here = s.board.get(s.positions[seat], [])
    st = f.step
    out: list[Action] = []
    if st in (THREAT_EVENTS, THREAT_ENCOUNTERS):
        cat = "event" if st == THREAT_EVENTS else "encounter"
        ignore: tuple[tuple[str, str], ...] | None = None
        for x in here:
            c = C[x]
            if c.category == cat and x not in f.resolved and x not in f.ignored:
                out.append(Action(cat, x))
                if ignore is None:
                    ignore = s.kit(seat).ignore
                if ignore and any(ct == c.category and (not col or col == c.deck) for ct, col in ignore):
                    out.append(Action("ignore", x))
    elif st == THREAT_BATTLES:
        evaded = s.evaded
        groups = sorted({c.attribute for c in [C[x] for x in here if x not in evaded] if c.category == "enemy"})
        out = [_FIGHT[a] for a in groups]
        if out and s.kit(seat).evade:  # (with no evading ability of its own, ``evadable`` offers nothing)
            out.extend(Action("evade", x) for x in evadable(s, seat, False))
    return out


@RULES.run(Threats)
def run_threats(s: RelicState, f: Threats) -> bool:
    seat = f.seat
    C = s.data.cards
    while f.step <= THREAT_ENCOUNTERS:
        opts = _threat_options(s, f)
        if not opts:
            f.step = _NEXT_THREAT_STEP[f.step]
            continue
        if len(opts) == 1:
            threats_apply(s, f, opts[0])
            return False
        s.next_legal = opts  # the decision's legal actions (nothing changes before it)
        return True
    # 4. Acquire Assets
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
    here = s.threats_here(seat)
    for x in [x for x in here if C[x].category == "asset"]:
        here.remove(x)
        s.gain_asset(seat, x)
        s.note_play(seat, x)
        s.say(f"{s.who(seat)} takes the asset {s.label(x)}")
    if not here:
        s.board.pop(s.positions[seat], None)
    return False


@RULES.legal(Threats)
def threats_legal(s: RelicState, f: Threats) -> list[Action]:
    return _threat_options(s, f)


@RULES.apply(Threats)
def threats_apply(s: RelicState, f: Threats, a: Action) -> None:
    seat = f.seat
    C = s.data.cards
    k, x = a.kind, a.a
    if k == "ignore":
        f.ignored = (*f.ignored, x)
        s.say(f"{s.who(seat)} ignores {s.label(x)}")
    elif k in ("event", "encounter"):
        f.resolved = (*f.resolved, x)
        s.note_play(seat, x)
        s.say(f"{s.who(seat)} resolves {s.label(x)}")
        c = C[x]
        if c.leaves == 1 or (c.leaves == -1 and c.category == "event"):
            if c.category == "event":  # an event is discarded as it resolves
                _off_board(s, s.positions[seat], x)
            else:
                s.push(DiscardAfter(seat=seat, card=x, space=s.positions[seat]))
        s.push_effects(seat, c.effects, x)
    elif k == "evade":
        src = evade_source(s, seat, x)
        assert src is not None
        if any(per for sx, _, _, per in evade_abilities(s, seat) if sx == src):
            s.evade_uses.append(src)
        s.evaded.append(x)
        s.say(f"{s.who(seat)} evades {s.label(x)}" + (f" ({s.label(src)})" if src in C else ""))
        if src in C:
            s.note_used(seat, [src])
    elif k == "fight":
        ai = AI[x]
        evaded = s.evaded
        cards = [(y, C[y]) for y in s.threats_here(seat)]
        foes = tuple([y for y, c in cards if c.category == "enemy" and c.attribute == ai and y not in evaded])
        if s.stats is not None:
            for y in foes:
                s.note_play(seat, y)
        s.push(Battle(seat=seat, foes=foes, attribute=ai, value=sum([C[y].value for y in foes]),
                      foe_name=", ".join([C[y].name for y in foes])))


@RULES.run(DiscardAfter)
def run_discard_after(s: RelicState, f: DiscardAfter) -> bool:
    """After an encounter that says 'stays leave = true' resolves, it is discarded."""
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
    _off_board(s, f.space, f.card)
    return False


def _off_board(s: RelicState, sp: str, x: str) -> None:
    here = s.board.get(sp, [])
    if x in here:
        here.remove(x)
        s.discard(x)
        if not here:
            s.board.pop(sp, None)


# -- battles -----------------------------------------------------------------------------------------------------
def best_gear(s: RelicState, f: Battle, gear: str) -> str:
    """The weapon (or armour) that counts by default: the best bonus in this battle, a charge breaking ties."""
    if not s.assets[f.seat]:
        return ""  # no Wargear
    form = ATTRS[f.attribute]
    traits = s.traits(f)
    C = s.data.cards
    best, val = "", -99.0
    for a in s.gear(f.seat, gear):
        v = s.bonus_of(C[a].passives, form, traits) + (0.5 if C[a].passives.charge and s.charges.get(a, 0) else 0.0)
        if v > val:
            best, val = a, v
    return best


def _prepare_options(s: RelicState, f: Battle) -> list[Action]:
    seat = f.seat
    out = [PASS]
    for gear, current, locked in (("weapon", f.weapon, f.weapon_locked), ("armour", f.armour, f.armour_locked)):
        if not locked:
            out.extend(Action(gear, g) for g in s.gear(seat, gear) if g != current)
    out.extend(plays(s, seat, "battle", f))
    return out


def _can_prepare(s: RelicState, f: Battle) -> bool:
    """``_prepare_options`` offers more than ``pass``."""
    seat = f.seat
    C = s.data.cards
    assets = s.assets[seat]
    if not assets:
        return bool(s.hands[seat]) and may_play(s, seat, "battle", f)  # (``plays`` offers nothing without cards)
    for gear, current, locked in (("weapon", f.weapon, f.weapon_locked), ("armour", f.armour, f.armour_locked)):
        if not locked and any(C[a].gear == gear and a != current for a in assets):
            return True
    return may_play(s, seat, "battle", f)


def left_of(s: RelicState, seat: int) -> int:
    """The next player still in the game to the left (who rolls for the enemy)."""
    n = s.players
    for i in range(1, n):
        t = (seat + i) % n
        if not s.eliminated[t]:
            return t
    return seat


@RULES.run(Battle)
def run_battle(s: RelicState, f: Battle) -> bool:
    seat = f.seat
    C = s.data.cards
    while True:
        st = f.step
        if st == BATTLE_START:
            f.step = BATTLE_PREPARE
            f.weapon = best_gear(s, f, "weapon")
            f.armour = best_gear(s, f, "armour")
            foes = f.foes
            s.say(f"{s.who(seat)} battles {f.foe_name} ({ATTRS[f.attribute].capitalize()} "
                  f"{sum([C[x].value for x in foes]) if foes else f.value})")
            items = [(C[x].at_battle_start, x) for x in foes if C[x].at_battle_start] if foes else []
            whens = s.whens(seat, "battle_start", s.traits(f))
            if not items and not whens:
                continue  # nothing pushed: the item is still on top and the game goes on
            s.push_timed(seat, items + whens, "battle_start")
        elif st == BATTLE_PREPARE:
            if s.hands[seat] or _can_prepare(s, f):
                return True
            f.step = BATTLE_ENEMY_ROLL
        elif st == BATTLE_ENEMY_ROLL:
            n = 1 + sum([C[x].enemy_dice for x in f.foes])
            what = f"the enemy's battle roll, made by {s.who(left_of(s, seat))}"
            dice = [s.roll(6, what)] if n == 1 else [s.roll(6, what) for _ in range(n)]
            extra = []
            pend = dice.count(6)
            while pend:
                v = s.roll(6, what)
                extra.append(v)
                pend += (v == 6) - 1
            f.enemy_roll = sum(dice) + sum(extra)
            shown = [f"{v} (explodes)" if v == 6 else str(v) for v in dice + extra]
            s.say(f"The enemy's battle roll (made by {s.who(left_of(s, seat))}): " + " + ".join(shown) +
                  (f" = {f.enemy_roll}" if len(shown) > 1 else ""))
            f.step = BATTLE_PLAYER_ROLL
        elif st == BATTLE_PLAYER_ROLL:
            f.step = BATTLE_COMPARE
            if roll_for(s, f, ROLL_BATTLE, 1 + s.extra_dice(seat, "battle")):
                return True
        else:
            if s.stack and s.stack[-1] is f:
                s.stack.pop()
            _compare(s, f)
            return False
        if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
            return False  # anything else runs next (what ``advance`` would run; see ``run_turn``)


def _compare(s: RelicState, f: Battle) -> None:
    """Step 5: the scores; the winner's and the loser's consequences."""
    seat = f.seat
    C = s.data.cards
    mine = s.battle_bonus(f) + f.roll
    theirs = s.enemy_bonus(f) + f.enemy_roll
    if s.stats is not None:
        form, tr = ATTRS[f.attribute], s.traits(f)
        s.note_used(seat, [a for a in s.assets[seat] if (C[a].gear not in ("weapon", "armour") or a in (
            f.weapon, f.armour)) and (s.bonus_of(C[a].passives, form, tr) or C[a].passives.extra_battle_dice)])
    traits = s.traits(f)
    if s.stats is not None and traits:
        note_trait_bonuses(s, f, traits)
    scores = f"({sum_words(player_parts(s, f), f.roll)}, against {sum_words(enemy_parts(s, f), f.enemy_roll)})"
    if mine > theirs:
        s.say(f"{s.who(seat)} wins the battle, {mine} to {theirs} {scores}")  # the line before names the foe
        result = 1
        why = battle_cause(f, True, mine, theirs)
        if f.foes:
            s.push(TakeTrophies(seat=seat, foes=f.foes))
            s.push_effect_lists(seat, [(C[x].on_defeat, x) for x in f.foes if C[x].on_defeat], why)
        else:
            s.push_effects(seat, f.on_win, "battle", why)
        s.push_whens(seat, "battle_win", traits)
    elif mine < theirs:
        s.say(f"{s.who(seat)} loses the battle, {mine} to {theirs} {scores}")
        result = -1
        why = battle_cause(f, False, mine, theirs)
        s.push(EndEngagement(seat=seat))
        if f.foes:
            s.push_effect_lists(seat, [(C[x].on_victory, x) for x in f.foes if C[x].on_victory], why)
        else:
            s.push_effects(seat, f.on_lose, "battle", why)
        s.push(LoseLife(seat=seat, why=why))
        s.push_whens(seat, "battle_lose", traits)
    else:
        s.say(f"{s.who(seat)}'s battle is a tie, {mine} to {theirs} {scores}: the Engagement phase ends")
        result = 0
        s.end_engagement()
    s.last = BattleResult(result=result, roll=f.roll, player=mine, enemy=theirs, enemy_roll=f.enemy_roll, seat=seat,
                          foe=f.foe_name, attribute=f.attribute)


def note_trait_bonuses(s: RelicState, f: Battle, traits: tuple[str, ...]) -> None:
    """Solo-check events: each battle bonus against a trait that counted in this battle's scores (a character's,
    an asset's, the weapon's or armour's, a face-up Corruption card's) and each scenario rule for enemies of a
    trait, named by what it is printed on."""
    D = s.data
    C = D.cards
    seat = f.seat
    srcs = [(s.characters[seat], D.characters[s.characters[seat]].passives)]
    srcs += [(a, C[a].passives) for a in s.assets[seat] if C[a].gear not in ("weapon", "armour") or a in (
        f.weapon, f.armour)]
    srcs += [(x, C[x].passives) for x in s.corruption_face_up[seat]]
    form = ATTRS[f.attribute]
    for src, p in srcs:
        name = C[src].name if src in C else D.characters[src].name
        for vs in sorted({vs for fm, _, vs in p.battle_bonus if vs in traits and fm in ("any", form)}):
            s.note_event(f"{name}'s bonus against {vs} enemies")
    for trait, _, n in D.scenarios[s.scenario].passives.scenario_enemy:
        if trait and trait in traits:
            s.note_event(f"{s.scenario}'s special rule: {trait} enemies +{n}")


@RULES.legal(Battle)
def battle_legal(s: RelicState, f: Battle) -> list[Action]:
    return _prepare_options(s, f)


@RULES.apply(Battle)
def battle_apply(s: RelicState, f: Battle, a: Action) -> None:
    k = a.kind
    if k == "pass":
        f.step = BATTLE_ENEMY_ROLL
    elif k == "weapon":
        f.weapon = a.a
    elif k == "armour":
        f.armour = a.a
    else:
        play(s, f.seat, a, f)


@RULES.run(TakeTrophies)
def run_trophies(s: RelicState, f: TakeTrophies) -> bool:
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
    seat = f.seat
    board = s.board
    for x in f.foes:
        sp = s.positions[seat]  # where the foe is, nearly always (a card lies on one space only)
        here = board.get(sp)
        if here is None or x not in here:
            found = next(((k, xs) for k, xs in board.items() if x in xs), None)
            if found is None:
                continue
            sp, here = found
        here.remove(x)
        if not here:
            del board[sp]
        s.trophies[seat].append(x)
        s.say(f"{s.who(seat)} takes {s.label(x)} as a trophy")
        defeated(s, seat, x)
    return False


@RULES.run(LoseLife)
def run_lose_life(s: RelicState, f: LoseLife) -> bool:
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
    lose(s, f.seat, "life", 1, f.why)
    return False
