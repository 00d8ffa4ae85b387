"""Response windows and the small pending kinds of Covenant: a card played and its negation window, a card's
effects, rolls and rerolls, slayings and Healing, thefts and guards, bonus spells, Tricks & Traps, wizard actions
and the choice of a target.

Windows ask players one at a time from the acting player's left: a spell is cast (Dispell), an event, a wizard
action or a Wizards Duel is played (Alter Reality), a roll is made (Probability Shift; the roller is asked last), a
wizard or follower would be slain (Healing, its controller), an item would be stolen (Guardian Beast, its
controller), a rival goes on a quest (Tricks & Traps). Spell windows ask only players who hold a card and control a
wizard; the Tricks & Traps window, players who hold a card.

Responses: ``pass``, ``negate S``, ``reroll S``, ``heal S``, ``bonus S``, ``danger E``, ``guard F``; choices while an
effect resolves: ``target X`` (a card or a seat), ``to W`` (the wizard a taken card joins).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from wizprint.errors import EngineBug
from wizprint.solo.kernel import Action, one_per_design

from .data import CardEffect
from .effects import do_effect, search_finds, start_effect
from .pending import (
    ActionStep,
    BonusWindow,
    Choice,
    CovenantPending,
    Duel,
    Effects,
    EffectSource,
    Lookup,
    Negatable,
    Negation,
    Play,
    PlayStep,
    Quest,
    Roll,
    RollFor,
    Slaying,
    SlayStep,
    Theft,
    TheftStep,
    TrapsWindow,
    Window,
    WizardAction,
)
from .state import RULES, CovenantState
from .view import Words, played, window_line

_PASS = re.compile(r"P\d+ passes")

PASS = Action("pass")


def ask_next(s: CovenantState, w: Window, may_answer: Callable[[int], bool]) -> bool:
    """Move a response window on from the player who just answered to the next one in its order who may answer;
    True when that player must choose now, False when the window is over."""
    if w.answered:
        w.answered = ""
        w.index += 1
    order = w.order
    while w.index < len(order):
        if may_answer(order[w.index]):
            w.who = order[w.index]
            tell(s, w)
            return True
        w.index += 1
    return False


def answer(s: CovenantState, w: Window, action: Action, target: str) -> None:
    """The player asked in window ``w`` passes (the window moves on) or answers with a card (cast on ``target``)."""
    if action.kind == "pass":
        passes(s, w)
        w.index += 1
    else:
        w.answered = action.a
        respond(s, w.who, action, target)


def tell(s: CovenantState, f: CovenantPending) -> None:
    """Before a window asks its first player, a line says what it asks (``Cancel P1's S17 Poison Potion?``), so that
    the passes after it read as answers to it; said again when the window asks after something else happened."""
    head = window_line(s, f)
    if not head:
        return
    for line in reversed(s.log):  # back over the passes just said (a pass is a line everybody reads)
        if not isinstance(line, str) or not _PASS.fullmatch(line):
            if line != head:
                s.say(head)
            return
    s.say(head)


def passes(s: CovenantState, f: CovenantPending) -> None:
    """``f.who`` passes in the window ``f`` (the line before the window's passes, said when it asked, says what it
    asks: :func:`tell`)."""
    s.say(f"P{f.who + 1} passes")


def respond(s: CovenantState, who: int, action: Action, target: str) -> None:
    """``who`` answers a window with the card ``action.a``: it is cast (or played) and resolves on top."""
    a = action.a
    s.to_limbo(who, a)
    info = s.data.cards[a]
    verb = "plays" if info.type == "event" else "casts"
    to = ""
    top = s.pending
    if action.kind == "reroll" and isinstance(top, Roll):
        to = f" on P{top.seat + 1}'s roll of {top.total} ({Words(s, -1).roll_what(top)})"
    elif action.kind == "negate":
        to = f" against {played(s, target) or s.label(target)}"
    elif action.kind == "heal":
        to = f" to save {s.label(target)}"
    s.say(f"P{who + 1} {verb} {s.label(a)}{to}")
    s.push_play(who, a, "event" if info.type == "event" else "spell", target)


# -- negation windows ------------------------------------------------------------------------------------------------
@RULES.run(Negation)
def _run_negation(s: CovenantState, w: Negation) -> bool:
    if not w.negated and ask_next(s, w, s.can_respond):
        return True
    s.stack.pop()
    if s.stack:
        parent = s.stack[-1]
        assert isinstance(parent, Negatable)
        parent.negated = w.negated
    return False


@RULES.legal(Negation)
def _legal_negation(s: CovenantState, w: Negation) -> list[Action]:
    c = s.data.cards  # (what a card answers is its design's: the copies are filtered with it)
    return [PASS] + [Action("negate", x) for x in one_per_design([x for x in s.hands[w.who] if w.what in c[x].negate])]


@RULES.apply(Negation)
def _apply_negation(s: CovenantState, w: Negation, action: Action) -> None:
    answer(s, w, action, w.source)


# -- rolls -----------------------------------------------------------------------------------------------------------
@RULES.run(Roll)
def _run_roll(s: CovenantState, r: Roll) -> bool:
    if r.total == 0:
        v = s.roll_dice(r)
        r.total = v
        s.stack[-2].take_roll(r.slot, v)
    if r.done:
        s.stack.pop()
        return False
    if ask_next(s, r, s.can_respond):
        return True
    s.stack.pop()
    return False


@RULES.legal(Roll)
def _legal_roll(s: CovenantState, r: Roll) -> list[Action]:
    c = s.data.cards  # (what a card answers is its design's: the copies are filtered with it)
    return [PASS] + [Action("reroll", x) for x in one_per_design([x for x in s.hands[r.who] if c[x].reroll])]


@RULES.apply(Roll)
def _apply_roll(s: CovenantState, r: Roll, action: Action) -> None:
    answer(s, r, action, "")


# -- a card played, and its effects ----------------------------------------------------------------------------------
@RULES.run(Play)
def _run_play(s: CovenantState, p: Play) -> bool:
    card = p.card
    if p.step is PlayStep.NEGATION:
        p.step = PlayStep.RESOLVE
        s.push_negation(p.what, card, p.seat)
        return False
    if p.step is PlayStep.RESOLVE:
        if p.negated:
            s.say(f"{s.label(card)} is negated: it has no effect")
            s.limbo_to_discard(card)
            s.stack.pop()
            return False
        p.step = PlayStep.DONE
        s.stack.append(Effects(seat=p.seat, card=card, source=EffectSource.RESOLVE, target=p.target))
        return False
    s.limbo_to_discard(card)
    s.stack.pop()
    return False


@RULES.run(Effects)
def _run_effects(s: CovenantState, f: Effects) -> bool:
    info = s.data.cards[f.card]
    effs = (info.resolve if f.source is EffectSource.RESOLVE else info.on_enter
            if f.source is EffectSource.ON_ENTER else info.on_complete)
    i = f.index
    if i >= len(effs):
        s.stack.pop()
        return False
    f.index = i + 1
    start_effect(s, f.seat, effs[i], f.target, f.card)
    return False


# -- slaying and Healing ---------------------------------------------------------------------------------------------
@RULES.run(Slaying)
def _run_slaying(s: CovenantState, f: Slaying) -> bool:
    tgt = f.target
    ctl = s.controller(tgt)
    if ctl < 0:
        s.stack.pop()
        return False
    if f.step is SlayStep.ASK:
        if s.can_respond(ctl):
            f.who = ctl
            tell(s, f)
            return True
        f.step = SlayStep.DECIDED
    s.stack.pop()
    if f.saved:
        s.say(f"{s.label(tgt)} is saved")
    else:
        s.remove(tgt, "slain", _slain_by(s))
    return False


def _slain_by(s: CovenantState) -> str:
    """Why the work on top of the stack slays (a duel, a quest, a card)."""
    top = s.pending
    if isinstance(top, Duel):
        return "it lost the duel"
    if isinstance(top, Quest):
        return f"lost on {s.label(top.card)}"
    if isinstance(top, Effects):
        return s.label(top.card)
    return ""


@RULES.legal(Slaying)
def _legal_slaying(s: CovenantState, f: Slaying) -> list[Action]:
    c = s.data.cards
    return [PASS] + [Action("heal", x) for x in one_per_design([x for x in s.hands[f.who] if c[x].prevent_slay])]


@RULES.apply(Slaying)
def _apply_slaying(s: CovenantState, f: Slaying, action: Action) -> None:
    f.step = SlayStep.DECIDED
    if action.kind == "pass":
        passes(s, f)
    else:
        respond(s, f.who, action, f.target)


# -- thefts and guards -----------------------------------------------------------------------------------------------
@RULES.run(Theft)
def _run_theft(s: CovenantState, f: Theft) -> bool:
    tgt = f.target
    thief = f.seat
    owner = s.controller(tgt)
    if owner < 0 or owner == thief:
        s.stack.pop()
        return False
    c = s.data.cards
    info = c[tgt]
    if f.step is TheftStep.GUARD:
        if info.type == "item" and any(c[x].guard for x in s.followers_of(owner)):
            f.who = owner
            tell(s, f)
            return True
        f.step = TheftStep.TAKE
    joins = info.type == "item" or (info.type == "follower" and info.attach)
    if info.type == "item" and not s.wizards[thief]:
        s.stack.pop()
        return False
    if joins and len(s.wizards[thief]) > 1:
        f.step = TheftStep.PLACE
        f.who = thief
        return True
    s.stack.pop()
    s.move_to(tgt, thief, s.wizards[thief][0] if joins and s.wizards[thief] else "", _taken_by(s))
    return False


def _taken_by(s: CovenantState) -> str:
    top = s.pending
    return s.label(top.card) if isinstance(top, Effects) else ""


@RULES.legal(Theft)
def _legal_theft(s: CovenantState, f: Theft) -> list[Action]:
    if f.step is not TheftStep.PLACE:
        c = s.data.cards
        return [PASS] + [Action("guard", x) for x in sorted(s.followers_of(f.who)) if c[x].guard]
    return [Action("to", w) for w in s.wizards[f.seat]]


@RULES.apply(Theft)
def _apply_theft(s: CovenantState, f: Theft, action: Action) -> None:
    if action.kind == "pass":
        f.step = TheftStep.TAKE
        passes(s, f)
    elif action.kind == "guard":
        s.stack.pop()
        s.remove(action.a, "discarded", f"P{f.who + 1} keeps {s.label(f.target)} from P{f.seat + 1}")
    else:
        s.stack.pop()
        s.move_to(f.target, f.seat, action.a, _taken_by(s))


# -- bonus spells ----------------------------------------------------------------------------------------------------
@RULES.run(BonusWindow)
def _run_bonus(s: CovenantState, f: BonusWindow) -> bool:
    casters = f.casters
    if f.answered:
        f.answered = ""
        f.passes = 0
        f.index = (f.index + 1) % len(casters)
    while f.passes < len(casters):
        seat = casters[f.index]
        if s.can_respond(seat):
            f.who = seat
            tell(s, f)
            return True
        f.passes += 1
        f.index = (f.index + 1) % len(casters)
    s.stack.pop()
    return False


@RULES.legal(BonusWindow)
def _legal_bonus(s: CovenantState, f: BonusWindow) -> list[Action]:
    c = s.data.cards
    ctx = f.context
    return [PASS] + [Action("bonus", x) for x in one_per_design(
        [x for x in s.hands[f.who] if c[x].roll_bonus and c[x].roll_kind in (ctx, "either")])]


@RULES.apply(BonusWindow)
def _apply_bonus(s: CovenantState, f: BonusWindow, action: Action) -> None:
    if action.kind == "pass":
        passes(s, f)
        f.passes += 1
        f.index = (f.index + 1) % len(f.casters)
    else:
        f.answered = action.a
        respond(s, f.who, action, "")


# -- Tricks & Traps --------------------------------------------------------------------------------------------------
@RULES.run(TrapsWindow)
def _run_traps(s: CovenantState, f: TrapsWindow) -> bool:
    if ask_next(s, f, lambda seat: bool(s.hands[seat])):
        return True
    s.stack.pop()
    return False


@RULES.legal(TrapsWindow)
def _legal_traps(s: CovenantState, f: TrapsWindow) -> list[Action]:
    c = s.data.cards
    return [PASS] + [Action("danger", x) for x in one_per_design([x for x in s.hands[f.who] if c[x].danger])]


@RULES.apply(TrapsWindow)
def _apply_traps(s: CovenantState, f: TrapsWindow, action: Action) -> None:
    answer(s, f, action, "")


# -- wizard actions --------------------------------------------------------------------------------------------------
@RULES.run(WizardAction)
def _run_action(s: CovenantState, f: WizardAction) -> bool:
    seat = f.seat
    w = f.wizard
    ab = f.ability
    if f.step is ActionStep.NEGATION:
        f.step = ActionStep.RESOLVE
        s.push_negation("action", w, seat)
        return False
    if f.step is ActionStep.RESOLVE:
        if f.negated:
            s.say(f"{s.label(w)}'s {ab.capitalize()} action is negated: it has no effect")
            s.stack.pop()
            return False
        if ab == "scry":
            s.stack.pop()
            if f.target == "deck":
                do_effect(s, seat, CardEffect("look_deck", "", 5), "", w)
            else:
                do_effect(s, seat, CardEffect("look_hand", "", 0), f.target, w)
            return False
        f.step = ActionStep.RESULT
        s.push_roll(seat, 1, RollFor.ACTION, f"for {ab}")
        return False
    v = f.roll
    s.stack.pop()
    what = f"{s.label(w)}'s {ab.capitalize()} roll of {v}"
    if ab == "conjuror":
        if v >= 4:
            s.draw(seat, 1, why=what)
        else:
            s.say(f"{what} draws no card (it needed 4 or more)")
    elif ab == "maker" or ab == "stealth":
        if v == 6:
            s.say(f"{what}: P{seat + 1} {'searches the deck for' if ab == 'maker' else 'takes'} an Item")
            start_effect(s, seat, CardEffect("search" if ab == "maker" else "steal", "item", 0), "", w)
        else:
            s.say(f"{what} does nothing (it needed a 6)")
    return False


# -- choosing a target -----------------------------------------------------------------------------------------------
@RULES.run(Choice)
def _run_choice(s: CovenantState, f: Choice) -> bool:
    f.who = f.seat
    return True


@RULES.legal(Choice)
def _legal_choice(s: CovenantState, f: Choice) -> list[Action]:
    if f.effect.word == "search" and not f.options:
        found = [Action("target", x) for x in search_finds(s, f.effect.what)]
        if f.seat == s.table_seat:  # on a real table the person may find none (the program does not know the deck)
            return [*found, Action("target", "none")]
        return found or [Action("target", "none")]
    return [Action("target", x) for x in f.options]


@RULES.apply(Choice)
def _apply_choice(s: CovenantState, f: Choice, action: Action) -> None:
    if action.kind != "target":
        raise EngineBug(f"cannot apply {action.key}")
    s.stack.pop()
    if f.effect.word == "search" and f.options:  # the cards a Lookup laid out go back; the search takes one
        _back_to_deck(s, f.options)
    do_effect(s, f.seat, f.effect, action.a, f.card)


# -- a search on a real table ----------------------------------------------------------------------------------------
@RULES.run(Lookup)
def _run_lookup(s: CovenantState, f: Lookup) -> bool:
    return True  # the person says what the deck holds: the program does not know it


@RULES.legal(Lookup)
def _legal_lookup(s: CovenantState, f: Lookup) -> list[Action]:
    c = s.data.cards
    return [*(Action("found", x) for x in one_per_design(x for x in s.deck if c[x].type == f.effect.what)),
            Action("done")]


@RULES.apply(Lookup)
def _apply_lookup(s: CovenantState, f: Lookup, action: Action) -> None:
    if action.kind == "found":
        x = action.a
        s.deck.remove(x)
        s.forget_deck()  # the places below it moved (and the deck is shuffled after the search)
        s.forget(x)
        s.limbo.append(x)
        f.found = (*f.found, x)
        s.say(f"P{f.who + 1} lays out {s.label(x)} from the deck for P{f.seat + 1}'s search")
        return
    if action.kind != "done":
        raise EngineBug(f"cannot apply {action.key}")
    s.stack.pop()
    found = f.found
    if len(found) > 1:
        s.stack.append(Choice(seat=f.seat, effect=f.effect, options=found, card=f.card, who=f.seat))
        return
    _back_to_deck(s, found)
    do_effect(s, f.seat, f.effect, found[0] if found else "none", f.card)


def _back_to_deck(s: CovenantState, cards: tuple[str, ...]) -> None:
    for x in cards:
        s.limbo.remove(x)
        s.deck.append(x)
