"""Rolls (relic.txt, Dice, Exploding Dice, Skill Tests): the player's dice for a movement, a battle or a skill test;
a Power card's number may replace the roll (or an exploding die), a die may be rerolled, several movement dice keep
one, and in battles and tests every 6 adds another die. Skill tests compare attribute, skill bonuses and the roll
with the target; a natural 1 fails.

Action keys: ``roll``, ``number PW05``, ``rift`` (the Guardian of the Rift before the movement roll), ``pass`` /
``reroll SOURCE DIE`` (after a roll; DIE counts from 0), ``move N`` (the die kept, with several movement dice).
"""

from __future__ import annotations

from wizprint.solo.kernel import Action, one_per_design

from .data import ATTRS, TIMING_WINDOWS
from .heroes import complete_mission
from .pending import (
    DICE_BEFORE,
    DICE_CHOOSE_DIE,
    DICE_EXPLODE,
    DICE_KEEP,
    DICE_ROLLED,
    PASS,
    RIFT,
    ROLL,
    ROLL_BATTLE,
    ROLL_MOVE,
    ROLL_TEST,
    TEST_RESOLVE,
    TEST_START,
    Dice,
    Movement,
    Rolling,
    RollKind,
    SkillTest,
    SkillTestResult,
)
from .plays import numbers, play, play_number, plays
from .state import RULES, RelicState
from .texts import dice_words, sum_words, test_cause, test_name, test_parts, test_where


def _extras(s: RelicState, f: Dice) -> list[Action]:
    """What else the seat may do before a roll: abilities of the window, the Warp Rift before moving."""
    if f.context == ROLL_BATTLE:
        return []
    out = plays(s, f.seat, f.context)
    if f.context == ROLL_MOVE and s.can_enter_rift(f.seat):
        out.append(RIFT)
    return out


def reroll_charges(s: RelicState, f: Dice) -> list[str]:
    """The assets whose unspent charge rerolls a die in this roll's window."""
    return _reroll_charges(s, f.seat, f.context)


def _reroll_charges(s: RelicState, seat: int, context: RollKind) -> list[str]:
    out: list[str] = []
    assets = s.assets[seat]
    if not assets:
        return out
    D = s.data
    counts = D.reroll_charges
    for a in sorted(assets):
        k = counts.get((a, context))
        if k is None:  # how many of the card's charge abilities reroll in this window (by what it is)
            k = counts[(a, context)] = sum(
                1 for moment, lid in D.cards[a].passives.charge
                if TIMING_WINDOWS[moment] in ("*", context) and D.purpose(lid) == "reroll")
        if k and s.charges.get(a, 0) > 0 and a not in s.spent:
            out.extend([a] * k)
    return out


def _can_reroll(s: RelicState, f: Dice) -> bool:
    # the cards and charges first: most often there are none, and the kit need not be asked
    return (bool(s.hands[f.seat]) or bool(reroll_charges(s, f))) and s.can(f.seat, "reroll")


def _reroll_actions(s: RelicState, f: Dice) -> list[Action]:
    C = s.data.cards
    srcs = []
    for x in one_per_design(s.hands[f.seat]):
        c = C[x]
        tw = TIMING_WINDOWS.get(c.timing, "")
        if (tw == "*" or tw == f.context) and s.data.purpose(c.effects) == "reroll":
            srcs.append(x)
    srcs += reroll_charges(s, f)
    return [Action("reroll", x, str(i)) for x in srcs for i in range(len(f.values))]


@RULES.run(Dice)
def run_dice(s: RelicState, f: Dice) -> bool:
    seat = f.seat
    while True:
        st = f.step
        if st == DICE_BEFORE:
            if f.context == ROLL_BATTLE:
                need = s.numbers_ok(seat)
            else:
                need = bool(s.hands[seat]) or bool(_extras(s, f))
            if need:
                return True
            _do_roll(s, f, "")
        elif st == DICE_ROLLED:
            if _can_reroll(s, f):
                return True
            f.step = DICE_KEEP
        elif st == DICE_KEEP:
            vals = f.values
            if f.context == ROLL_MOVE:
                if f.count > 1 and not f.number_card and len(set(vals)) > 1:
                    f.step = DICE_CHOOSE_DIE
                    return True
                _dice_done(s, f, vals[0] if len(set(vals)) == 1 or f.number_card else max(vals))
                return False
            f.explosions = sum(1 for v in vals if v == 6)
            f.step = DICE_EXPLODE
        elif st == DICE_CHOOSE_DIE:
            return True
        else:
            while f.explosions > 0:
                if s.numbers_ok(seat):
                    return True
                _explode(s, f, s.roll(), "")
            _dice_done(s, f, sum(f.values) + sum(f.exploded))
            return False
        if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
            return False  # anything else runs next (what ``advance`` would run; see ``run_turn``)


def _explode(s: RelicState, f: Dice, v: int, pc: str) -> None:
    f.explosions -= 1
    f.exploded = (*f.exploded, v)
    if v == 6:
        f.explosions += 1
    s.say(f"{s.who(f.seat)}'s die explodes: " + (f"plays {s.label(pc)} for its number {v}" if pc else f"rolls {v}"))


_ROLL_FOR = {ROLL_MOVE: "for movement", ROLL_BATTLE: "for the battle", ROLL_TEST: "for the test"}


def roll_line(s: RelicState, seat: int, context: RollKind, vals: list[int], pc: str = "") -> str:
    """A roll in words: ``P3 rolls 2 and 6 for movement``, ``P1 rolls 4 for the battle``, ``P2 plays PW09 Forbidden
    Pact for its number 2 for movement``; with several dice in a battle or test, their total."""
    who, what = s.who(seat), _ROLL_FOR[context]
    if pc:
        line = f"{who} plays {s.label(pc)} for its number {vals[0]} {what}"
        rest = vals[1:]
        if rest:
            line += f", and rolls {dice_words(rest)}"
    else:
        line = f"{who} rolls {dice_words(vals)} {what}"
    if len(vals) > 1:
        line += " (keeps one)" if context == ROLL_MOVE else f" ({sum(vals)})"
    return line


def _do_roll(s: RelicState, f: Dice, pc: str) -> None:
    n = f.count
    if pc:
        num = s.data.cards[pc].number
        vals = [num] + [s.roll() for _ in range(n - 1)] if f.context != ROLL_MOVE else [num]
    else:
        vals = [s.roll()] if n == 1 else [s.roll() for _ in range(n)]
    f.values = tuple(vals)
    f.number_card = pc
    f.step = DICE_ROLLED
    s.say(roll_line(s, f.seat, f.context, vals, pc))


def can_roll_at_once(s: RelicState, seat: int, context: RollKind, count: int) -> bool:
    """A roll of ``count`` dice asks the seat nothing (what ``run_dice`` would find): the seat holds no Power card
    (no number to play, no card to reroll with), its assets offer nothing before the roll (no ability of the window,
    no relic for the Warp Rift) and no charge to reroll, and a movement roll has one die (several ask which to
    keep). ``roll_at_once`` then makes it without a :class:`Dice` on the stack."""
    if s.hands[seat] or (count > 1 and context == ROLL_MOVE):
        return False
    if not s.assets[seat]:
        return True
    if context != ROLL_BATTLE and plays(s, seat, context):  # ``_extras``
        return False
    if context == ROLL_MOVE and s.can_enter_rift(seat):
        return False
    return not _reroll_charges(s, seat, context)


def roll_at_once(s: RelicState, parent: Rolling, context: RollKind, count: int) -> None:
    """The roll a :class:`Dice` makes when it asks nothing (``can_roll_at_once``): the same dice, in the same order,
    the same log lines, and the total, the ones and the dice handed to ``parent`` as ``_dice_done`` does."""
    seat = parent.seat
    vals = [s.roll()] if count == 1 else [s.roll() for _ in range(count)]
    values = tuple(vals)
    s.say(roll_line(s, seat, context, vals))
    exploded: tuple[int, ...] = ()
    if context == ROLL_MOVE:
        total = vals[0]
    else:
        explosions = vals.count(6)
        if explosions:
            more = []
            while explosions > 0:  # ``_explode``: each 6 adds a die
                v = s.roll()
                explosions -= 1
                more.append(v)
                if v == 6:
                    explosions += 1
                s.say(f"{s.who(seat)}'s die explodes: rolls {v}")
            exploded = tuple(more)
        total = sum(values) + sum(exploded)
    parent.roll = total
    parent.ones = values.count(1) == len(values)  # every die showed 1
    parent.dice = values + exploded
    if exploded:
        s.say(f"{s.who(seat)}'s roll totals {total}")


def _dice_done(s: RelicState, f: Dice, total: int) -> None:
    """The roll goes to the kind beneath it: its total, whether every die showed 1, and the dice."""
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
    parent = s.stack[-1]
    assert isinstance(parent, Rolling)
    parent.roll = total
    parent.ones = f.values.count(1) == len(f.values)  # every die showed 1
    parent.dice = f.values + f.exploded
    if f.exploded:
        s.say(f"{s.who(f.seat)}'s roll totals {total}")


@RULES.legal(Dice)
def dice_legal(s: RelicState, f: Dice) -> list[Action]:
    st = f.step
    if st == DICE_BEFORE:
        return [ROLL, *numbers(s, f.seat), *_extras(s, f)]
    if st == DICE_ROLLED:
        return [PASS, *_reroll_actions(s, f)]
    if st == DICE_CHOOSE_DIE:
        return [Action("move", str(v)) for v in sorted(set(f.values))]
    return [ROLL, *numbers(s, f.seat)]


@RULES.apply(Dice)
def dice_apply(s: RelicState, f: Dice, a: Action) -> None:
    seat = f.seat
    k = a.kind
    st = f.step
    if st == DICE_BEFORE:
        if k == "roll":
            _do_roll(s, f, "")
        elif k == "number":
            play_number(s, seat, a.a)
            _do_roll(s, f, a.a)
        elif k == "rift":
            if s.stack and s.stack[-1] is f:
                s.stack.pop()
            mv = s.stack[-1]
            assert isinstance(mv, Movement)
            mv.rift = True
        else:
            play(s, seat, a)
    elif st == DICE_ROLLED:
        if k == "pass":
            f.step = DICE_KEEP
        else:
            x, i = a.a, int(a.b)
            if x in s.hands[seat]:
                s.hands[seat].remove(x)
                s.discard(x)
                s.note_play(seat, x)
            else:
                s.spend_charge(seat, x)
            vals = list(f.values)
            old = vals[i]
            vals[i] = s.roll()
            f.values = tuple(vals)
            s.say(f"{s.who(seat)} rerolls the {old} with {s.label(x)}: it shows {vals[i]}")
    elif st == DICE_CHOOSE_DIE:
        _dice_done(s, f, int(a.a))
    elif k == "roll":
        _explode(s, f, s.roll(), "")
    else:
        play_number(s, seat, a.a)
        _explode(s, f, s.data.cards[a.a].number, a.a)


def roll_for(s: RelicState, parent: Rolling, context: RollKind, count: int) -> bool:
    """Roll ``count`` dice for ``parent``: at once when the roll asks nothing, else with a :class:`Dice` on the stack
    run straight away (what ``advance`` would run next: the same seat). True when that roll now waits for a
    decision."""
    if can_roll_at_once(s, parent.seat, context, count):
        roll_at_once(s, parent, context, count)
        return False
    d = Dice(seat=parent.seat, context=context, count=count)
    s.stack.append(d)
    return run_dice(s, d)


# -- skill tests -------------------------------------------------------------------------------------------------
@RULES.run(SkillTest)
def run_test(s: RelicState, f: SkillTest) -> bool:
    seat = f.seat
    if f.step == TEST_START:
        f.step = TEST_RESOLVE
        s.say(f"{s.who(seat)} tests {ATTRS[f.attribute].capitalize()} {f.target}{test_where(s.data, f)}")
        n = 1 + s.extra_dice(seat, "test")
        if can_roll_at_once(s, seat, ROLL_TEST, n):
            roll_at_once(s, f, ROLL_TEST, n)  # and the test resolves when ``advance`` runs it again
        else:
            s.push(Dice(seat=seat, context=ROLL_TEST, count=n))
        return False
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
    score = s.attributes[seat][f.attribute] + s.skill(seat, f.attribute) + f.bonus + f.roll
    if s.stats is not None:
        C = s.data.cards
        s.note_used(seat, [a for a in s.assets[seat] if C[a].gear not in ("weapon", "armour") and (
            any(ai == f.attribute for ai, _ in C[a].passives.skill_bonus) or C[a].passives.extra_test_dice)])
    ok = score >= f.target and not f.ones
    s.last = SkillTestResult(result=1 if ok else -1, roll=f.roll, score=score, target=f.target, seat=seat,
                             attribute=f.attribute, what=test_name(s.data, f))
    s.say(f"{s.who(seat)} {'passes' if ok else 'fails'} the test with {score} ({sum_words(test_parts(s, f), f.roll)}) "
          f"against {f.target}" + (": a natural 1 always fails" if f.ones else ""))
    s.push_whens(seat, "test_pass" if ok else "test_fail")
    if ok and f.mission and s.missions[seat] == f.mission:
        complete_mission(s, seat)
    s.push_effects(seat, f.on_pass if ok else f.on_fail, "test", test_cause(s.data, f, ok))
    return False
