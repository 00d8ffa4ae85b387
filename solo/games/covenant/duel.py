"""The Wizards Duel (the Duel phase): ``duel W N`` plays a Wizards Duel card, W challenging seat N. The card can
be negated (Alter Reality); then the challenged player answers with a wizard (``answer W``), both roll 3d6 (each
roll opens a Probability Shift window), both may add bonus spells, and the wizard with the lower total is slain
(its controller may Heal it). A tie slays nobody. One duel a turn: the Duel phase ends with it.
"""

from __future__ import annotations

from wizprint.solo.kernel import Action

from .pending import BonusWindow, Duel, DuelStep, RollFor, Slaying
from .state import RULES, CovenantState
from .texts import signed


@RULES.run(Duel)
def _run_duel(s: CovenantState, f: Duel) -> bool:
    st = f.step
    seat = f.seat
    rival = f.rival
    if st is DuelStep.NEGATION:
        f.step = DuelStep.CHALLENGED
        s.push_negation("duel", f.card, seat)
        return False
    if st is DuelStep.CHALLENGED:
        if f.negated or not s.wizards[rival] or f.challenger not in s.wizards[seat]:
            if f.negated:
                s.say("The Wizards Duel is negated: no duel this turn")
            s.limbo_to_discard(f.card)
            s.stack.pop()
            s.end_phase()
            return False
        if len(s.wizards[rival]) > 1:
            f.step = DuelStep.ANSWER
            f.who = rival
            return True
        f.defender = s.wizards[rival][0]
        st = f.step = DuelStep.CHALLENGER_ROLL
    if st is DuelStep.ANSWER:
        f.who = rival
        return True
    if st is DuelStep.CHALLENGER_ROLL:
        w0, w1 = f.challenger, f.defender
        s.duelled.extend([w0, w1])
        s.say(f"Duel: {s.label(w0)} (P{seat + 1}) against {s.label(w1)} (P{rival + 1})")
        f.step = DuelStep.DEFENDER_ROLL
        s.push_roll(seat, 3, RollFor.CHALLENGER, "the duel")
        return False
    if st is DuelStep.DEFENDER_ROLL:
        f.step = DuelStep.BONUS
        s.push_roll(rival, 3, RollFor.DEFENDER, "the duel")
        return False
    if st is DuelStep.BONUS:
        f.step = DuelStep.COMPARE
        s.stack.append(BonusWindow(casters=(seat, rival), context="duel"))
        return False
    if st is DuelStep.COMPARE:
        w0, w1 = f.challenger, f.defender
        t0 = f.challenger_roll + s.duel_strength(w0) + f.challenger_bonus
        t1 = f.defender_roll + s.duel_strength(w1) + f.defender_bonus
        f.challenger_total, f.defender_total = t0, t1
        f.step = DuelStep.DONE
        sides = (f"{s.label(w0)} {_total(s, w0, f.challenger_roll, f.challenger_bonus)} against {s.label(w1)} "
                 f"{_total(s, w1, f.defender_roll, f.defender_bonus)}")
        if t0 == t1:
            s.say(f"The duel is a tie, {sides}: nobody is slain")
            return False
        loser = w1 if t0 > t1 else w0
        s.say(f"Duel: {sides}: {s.label(loser)} loses")
        s.stack.append(Slaying(target=loser))
        return False
    s.limbo_to_discard(f.card)
    s.stack.pop()
    s.end_phase()
    return False


def _total(s: CovenantState, wizard: str, roll: int, spells: int) -> str:
    """A duel total and what makes it: ``14 (9 rolled, +5 bonuses)``."""
    bonus = s.duel_strength(wizard)
    parts = [f"{roll} rolled"] + ([f"{signed(bonus)} bonuses"] if bonus else []) + (
        [f"{signed(spells)} spells"] if spells else [])
    return f"{roll + bonus + spells} ({', '.join(parts)})"


@RULES.legal(Duel)
def _legal_duel(s: CovenantState, f: Duel) -> list[Action]:
    return [Action("answer", w) for w in s.wizards[f.rival]]


@RULES.apply(Duel)
def _apply_duel(s: CovenantState, f: Duel, action: Action) -> None:
    f.defender = action.a
    f.step = DuelStep.CHALLENGER_ROLL
