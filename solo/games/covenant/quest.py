"""Quests (the Adventure phase): ``quest Q`` plays a quest card; the quester chooses the participants in id order
(``join C``: a wizard brings its attached followers; ``go`` once a wizard has joined; with one candidate it goes
alone). The rivals may play Tricks & Traps; then two rounds: 3d6 Danger against 2d6 + the Quest Level bonuses
(each roll opens a Probability Shift window; the quester may add bonus spells, each to the Quest Level of the round
it is cast in). In round one every point of Danger above the Quest Level slays a participant of the quester's
choice (``slay C``); round two completes the quest if the Quest Level reaches the Danger. Either way the turn ends
with the quest.
"""

from __future__ import annotations

from wizprint.cards.markup import plural
from wizprint.solo.kernel import Action

from .pending import BonusWindow, Effects, EffectSource, Quest, QuestStep, RollFor, Slaying, TrapsWindow
from .state import RULES, CovenantState
from .texts import signed


def _victim(s: CovenantState, f: Quest, victim: str) -> None:
    f.losses -= 1
    f.spared = (*f.spared, victim)
    # an attached follower dies with its wizard; the participant list is brought up to date after the slaying
    s.stack.append(Slaying(target=victim))


@RULES.run(Quest)
def _run_quest(s: CovenantState, f: Quest) -> bool:
    st = f.step
    seat = f.seat
    if st is QuestStep.JOIN:
        f.who = seat
        return True
    if st is QuestStep.SET_OUT:
        f.step = QuestStep.ROUND
        s.say(f"P{seat + 1} goes on {s.label(f.card)} with {s.names(f.participants)}")
        s.stack.append(TrapsWindow(seat=seat, order=tuple(s.rivals(seat))))
        return False
    if st is QuestStep.ROUND:  # a round begins
        f.round += 1
        f.level_bonus = 0  # a bonus spell adds to one quest roll: the round's
        f.step = QuestStep.LEVEL_ROLL
        s.push_roll(seat, 3, RollFor.DANGER, "Danger")
        return False
    if st is QuestStep.LEVEL_ROLL:
        f.step = QuestStep.BONUS
        s.push_roll(seat, 2, RollFor.LEVEL, "Quest Level")
        return False
    if st is QuestStep.BONUS:
        f.step = QuestStep.COMPARE
        s.stack.append(BonusWindow(casters=(seat,), context="quest"))
        return False
    if st is QuestStep.COMPARE:
        danger = f.danger_roll + f.danger_bonus
        bonus = s.quest_bonus(f.card, f.participants)
        level = f.level_roll + bonus + f.level_bonus
        traps = f" ({f.danger_roll} rolled, +{f.danger_bonus} Tricks & Traps)" if f.danger_bonus else ""
        spells = f", +{f.level_bonus} spells" if f.level_bonus else ""
        said = (f"Round {f.round} of {s.label(f.card)}: Danger {danger}{traps}, Quest Level {level} "
                f"({f.level_roll} rolled, {signed(bonus)} bonuses{spells})")
        if f.round == 1:
            n = min(danger - level, len(f.participants))
            lost = f"{plural(n, 'participant')} to be slain" if danger > level else "nobody is lost"
            s.say(f"{said}: {lost}")
            if danger > level:
                f.losses = danger - level
                f.spared = ()
                f.step = QuestStep.LOSSES
            else:
                f.step = QuestStep.AFTER_LOSSES
            return False
        s.say(f"{said}: {'completed' if level >= danger else 'failed'}")
        f.step = QuestStep.COMPLETE if level >= danger else QuestStep.FAIL
        return False
    if st is QuestStep.LOSSES or st is QuestStep.AFTER_LOSSES:
        f.participants = tuple(p for p in f.participants if s.controller(p) == seat)
    if st is QuestStep.LOSSES:  # round-1 losses, one at a time
        cands = [p for p in f.participants if p not in f.spared]
        if f.losses <= 0 or not cands:
            f.step = QuestStep.AFTER_LOSSES
            return False
        if len(cands) <= f.losses:
            _victim(s, f, cands[0])
            return False
        f.who = seat
        return True
    if st is QuestStep.AFTER_LOSSES:
        if not f.participants:
            s.say("No participant is left: the quest fails")
            f.step = QuestStep.FAIL
            return False
        f.step = QuestStep.ROUND
        return False
    if st is QuestStep.COMPLETE:
        card = f.card
        s.limbo.remove(card)
        s.quests[seat].append(card)
        s.say(f"P{seat + 1} completes {s.label(card)}: {s.data.cards[card].vp} VP (P{seat + 1} has {s.vp(seat)} VP)")
        f.step = QuestStep.DONE
        if s.check_win():
            return False
        s.stack.append(Effects(seat=seat, card=card, source=EffectSource.ON_COMPLETE))
        return False
    if st is QuestStep.FAIL:
        s.say(f"P{seat + 1} fails {s.label(f.card)}; it is discarded")
        s.limbo_to_discard(f.card)
        f.step = QuestStep.DONE
        return False
    s.stack.pop()
    s.end_turn()
    return False


@RULES.legal(Quest)
def _legal_quest(s: CovenantState, f: Quest) -> list[Action]:
    if f.step is QuestStep.LOSSES:
        return [Action("slay", p) for p in f.participants if p not in f.spared]
    c = s.data.cards
    last = f.last_joined
    joined = f.participants
    out = [Action("join", x) for x in s.quest_candidates(f.seat) if x > last and x not in joined]
    if any(c[x].type == "wizard" for x in joined):
        out.append(Action("go"))
    return out


@RULES.apply(Quest)
def _apply_quest(s: CovenantState, f: Quest, action: Action) -> None:
    k, a = action.kind, action.a
    if k == "join":
        c = s.data.cards
        parts = [a]
        if c[a].type == "wizard":
            parts.extend(x for x in s.attached.get(a, ()) if c[x].type == "follower")
        f.participants = (*f.participants, *parts)
        f.last_joined = a
    elif k == "go":
        f.step = QuestStep.SET_OUT
    else:
        _victim(s, f, a)
