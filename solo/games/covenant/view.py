"""What a Covenant player reads: the terminal view of an observation, the work under way and the question of each
decision in words, and each action in words (with the rules text of any card it offers, on one line)."""

from __future__ import annotations

import textwrap

from wizprint.cards.markup import dice, plural
from wizprint.solo.kernel import Action
from wizprint.solo.kernel.screen import Group, TwoStep

from .data import NEEDS
from .pending import (
    ActionStep,
    BonusWindow,
    Choice,
    CovenantPending,
    Duel,
    Effects,
    EffectSource,
    Lookup,
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
    WizardAction,
)
from .phases import phase_actions
from .state import CovenantState, Phase
from .texts import (
    DOES,
    TYPE_NAMES,
    cap,
    cards,
    gist,
    listed,
    offer,
    signed,
)

PHASE_NAMES = {Phase.EVENT: "Event", Phase.DUEL: "Duel", Phase.SUMMON: "Summon", Phase.ADVENTURE: "Adventure",
               Phase.DISCARD: "Research", Phase.OVER: "game over"}
QUEST_ROUND = (QuestStep.LEVEL_ROLL, QuestStep.BONUS, QuestStep.COMPARE, QuestStep.LOSSES, QuestStep.AFTER_LOSSES)


class Words:
    """Words about a state as one seat reads them: ``you`` for that seat, ``P2`` for the others."""

    def __init__(self, s: CovenantState, me: int):
        self.s = s
        self.me = me

    def seat(self, seat: int) -> str:
        return "you" if seat == self.me else f"P{seat + 1}"

    def Seat(self, seat: int) -> str:
        return "You" if seat == self.me else f"P{seat + 1}"

    def whose(self, seat: int) -> str:
        return "your" if seat == self.me else f"P{seat + 1}'s"

    def label(self, card: str) -> str:
        return self.s.label(card) if card in self.s.data.cards else card

    def card(self, card: str) -> str:
        """A card with its controller: ``your W10 Mentalist``, ``P2's I05 Staff of Power``; a card out of play by
        its name."""
        ctl = self.s.controller(card) if card in self.s.data.cards else -1
        return f"{self.whose(ctl)} {self.label(card)}" if ctl >= 0 else self.label(card)

    def target(self, x: str) -> str:
        """A target: a seat (``1``) or a card."""
        return self.seat(int(x)) if x.isascii() and x.isdigit() and len(x) < 4 else self.card(x)

    def offer(self, card: str) -> str:
        """A card offered as an option: its label and its rules text on one line."""
        return offer(self.s.data, card)

    # -- rolls -----------------------------------------------------------------------------------------------
    def roll_for(self, r: Roll) -> str:
        """What a roll is for: ``for W15 Alchemist's Maker action (a 6 finds an Item in the deck)``."""
        parent = self.s.roll_parent(r)
        if r.slot is RollFor.ACTION and isinstance(parent, WizardAction):
            need = NEEDS.get(parent.ability, (0, ""))[1]
            return f"for {self.label(parent.wizard)}'s {parent.ability.capitalize()} action" + (
                f" ({need})" if need else "")
        if isinstance(parent, Duel):
            w = parent.challenger if r.slot is RollFor.CHALLENGER else parent.defender
            return f"for {self.label(w)} in the duel" if w else "in the duel"
        if isinstance(parent, Quest):
            what = "Danger" if r.slot is RollFor.DANGER else "Quest Level"
            return f"for the {what} of {self.label(parent.card)} in round {parent.round}"
        return f"for {r.label}"

    def roll_what(self, r: Roll) -> str:
        """What a roll is, for the log (:meth:`~.state.CovenantState.roll_what`)."""
        return self.s.roll_what(r)

    # -- the work under way ----------------------------------------------------------------------------------
    def play(self, p: Play) -> str:
        s = self.s
        info = s.data.cards[p.card]
        verb = "plays" if info.type == "event" else "casts"
        out = f"{self.Seat(p.seat)} {verb if p.seat != self.me else verb[:-1]} {self.label(p.card)}"
        t = p.target
        if t:
            word = info.resolve[0].word if info.resolve else ""
            if word == "negate":
                below = played(s, t)
                out += f" against {below}" if below else f" against {self.label(t)}"
            elif word == "prevent_slay":
                out += f" to save {self.card(t)}"
            else:
                out += f" on {self.target(t)}"
        return out

    def duel(self, d: Duel) -> str:
        s = self.s
        c = d.challenger
        if not d.defender:
            return (f"Wizards Duel: {self.whose(d.seat)} {self.label(c)} challenges {self.seat(d.rival)}" +
                    (" (cancelled)" if d.negated else ""))
        out = (f"Wizards Duel: {self.whose(d.seat)} {self.label(c)} against {self.whose(d.rival)} "
               f"{self.label(d.defender)}")
        sides = []
        for seat, w, roll, bonus in ((d.seat, c, d.challenger_roll, d.challenger_bonus),
                                     (d.rival, d.defender, d.defender_roll, d.defender_bonus)):
            if roll:
                add = s.duel_strength(w) + bonus
                sides.append(f"{self.seat(seat)} rolled {roll}" + (f" {signed(add)}: {roll + add}" if add else ""))
        return out + (f"; {', '.join(sides)}" if sides else "")

    def quest(self, q: Quest) -> str:
        s = self.s
        out = f"{cap(self.whose(q.seat))} quest {self.label(q.card)}"
        out += f", round {q.round} of 2," if q.round and q.step in QUEST_ROUND else ""
        if q.participants:
            out += f" with {listed(self.label(x) for x in q.participants)}"
        parts = []
        if q.round and q.step in QUEST_ROUND:
            parts.append(f"Danger {q.danger_roll + q.danger_bonus}" +
                         (f" ({q.danger_roll} rolled, +{q.danger_bonus} Tricks & Traps)" if q.danger_bonus else ""))
        elif q.danger_bonus:
            parts.append(f"Danger +{q.danger_bonus} (Tricks & Traps)")
        if q.participants:
            bonus = s.quest_bonus(q.card, q.participants) + q.level_bonus
            if q.round and q.step in QUEST_ROUND[1:]:
                parts.append(f"Quest Level {q.level_roll} rolled {signed(bonus)}: {q.level_roll + bonus}")
            else:
                parts.append(f"Quest Level bonus {signed(bonus)}")
        if q.step is QuestStep.LOSSES:
            parts.append(f"{plural(q.losses, 'more participant')} to be slain")
        return out + (f": {'; '.join(parts)}" if parts else "")

    def action(self, a: WizardAction) -> str:
        out = f"{cap(self.whose(a.seat))} {self.label(a.wizard)} uses its {a.ability.capitalize()} action"
        if a.ability == "scry":
            out += " on the top 5 cards of the deck" if a.target == "deck" else (
                f" on {self.whose(int(a.target))} hand" if a.target else "")
        elif a.ability in NEEDS:
            out += f" ({NEEDS[a.ability][1]})"
            if a.roll and a.step is ActionStep.RESULT:
                out += f": rolled {a.roll}"
        return out + (" (cancelled)" if a.negated else "")

    def frame(self, f: CovenantPending) -> str:
        """One item of the work under way in words, or "" for one the question says (a window, a choice)."""
        s = self.s
        if isinstance(f, Duel):
            return self.duel(f)
        if isinstance(f, Quest):
            return self.quest(f)
        if isinstance(f, WizardAction):
            return self.action(f)
        if isinstance(f, Play):
            return self.play(f) + (" (negated)" if f.negated else "")
        if isinstance(f, Slaying):
            return f"{self.card(f.target)} would be slain" + (" (saved)" if f.saved else "")
        if isinstance(f, Theft):
            return f"{self.Seat(f.seat)} {'take' if f.seat == self.me else 'takes'} {self.card(f.target)}"
        if isinstance(f, Lookup):
            what = TYPE_NAMES.get(f.effect.what, f.effect.what)
            laid = f": {listed(self.label(x) for x in f.found)} laid out" if f.found else ""
            return f"{self.Seat(f.seat)} {'search' if f.seat == self.me else 'searches'} the deck for {_a(what)}{laid}"
        if isinstance(f, Effects) and f.source is EffectSource.ON_ENTER:
            return f"{self.label(f.card)} comes into play ({gist(s.data, f.card)})"
        if isinstance(f, Effects) and f.source is EffectSource.ON_COMPLETE:
            return f"{self.label(f.card)} is completed ({gist(s.data, f.card)})"
        return ""


def played(s: CovenantState, card: str) -> str:
    """What a negation answers, in words (the card, or the wizard whose action it is)."""
    for f in reversed(s.stack):
        if isinstance(f, WizardAction) and f.wizard == card:
            return f"{s.label(card)}'s {f.ability.capitalize()} action"
        if isinstance(f, (Play, Duel)) and f.card == card:
            return s.label(card)
    return ""


def window_line(s: CovenantState, f: CovenantPending) -> str:
    """What a response window asks, as the log's line before its passes (``Cancel P1's S17 Poison Potion?``, then
    ``P2 and P3 pass``)."""
    w = Words(s, -1)
    st = s.stack
    j = len(st) - 1 if st and st[-1] is f else next((i for i in range(len(st) - 1, -1, -1) if st[i] is f), -1)
    below = st[j - 1] if j > 0 else None
    if isinstance(f, Negation):
        if isinstance(below, WizardAction):
            return f"Cancel P{below.seat + 1}'s {w.label(below.wizard)}'s {below.ability.capitalize()} action?"
        if isinstance(below, Duel):
            return f"Cancel P{below.seat + 1}'s {w.label(below.card)}?"
        return f"Cancel P{f.owner + 1}'s {w.label(f.source)}?"
    if isinstance(f, Roll):
        return f"Roll P{f.seat + 1}'s {f.total} again?"
    if isinstance(f, Slaying):
        return f"Save {w.card(f.target)}?"
    if isinstance(f, Theft):
        owner = s.controller(f.target)
        guards = [x for x in s.followers_of(owner) if s.data.cards[x].guard] if owner >= 0 else []
        return f"Discard {listed([w.label(x) for x in guards], 'or') or 'a guard'} to keep {w.card(f.target)}?"
    if isinstance(f, BonusWindow):
        d = next((x for x in reversed(s.stack) if isinstance(x, Duel)), None)
        if f.context == "duel" and d is not None:
            t0 = d.challenger_roll + s.duel_strength(d.challenger) + d.challenger_bonus
            t1 = d.defender_roll + s.duel_strength(d.defender) + d.defender_bonus
            return f"Add spells to the duel totals (P{d.seat + 1} {t0}, P{d.rival + 1} {t1})?"
        q = next((x for x in reversed(s.stack) if isinstance(x, Quest)), None)
        if q is not None:
            level = q.level_roll + s.quest_bonus(q.card, q.participants) + q.level_bonus
            return (f"Add a spell to P{q.seat + 1}'s Quest Level ({level} against Danger "
                    f"{q.danger_roll + q.danger_bonus})?")
        return "Add a spell to a roll?"
    if isinstance(f, TrapsWindow):
        q = below if isinstance(below, Quest) else None
        return f"Raise the Danger of P{f.seat + 1}'s quest{f' {w.label(q.card)}' if q else ''}?"
    return ""


def under_way(s: CovenantState, seat: int) -> list[str]:
    """The work being resolved, outermost first, as ``seat`` reads it (plain text)."""
    w = Words(s, seat)
    return [cap(t) for f in s.stack if (t := w.frame(f))]


# -- the question ----------------------------------------------------------------------------------------------------
def question(s: CovenantState) -> str:
    me = s.current_player
    if me < 0:
        return "The game is over"
    w = Words(s, me)
    legal = s.legal_actions()
    offered = [a.a for a in legal if a.kind not in ("pass", "to", "target", "answer", "slay", "join", "go")]
    names = listed(sorted({s.data.cards[x].name for x in offered if x in s.data.cards}), "or") or "a card"
    top = s.pending
    if top is None:
        return _phase_question(s, w, legal)
    below = s.stack[-2] if len(s.stack) > 1 else None
    if isinstance(top, Negation):
        return f"{_negated(w, top, below)}: cancel it with {names}, or let it resolve?"
    if isinstance(top, Roll):
        again = f"make {w.seat(top.seat)} roll again" if top.seat != me else "roll again"
        return (f"{w.Seat(top.seat)} rolled {top.total} on {dice(top.dice)} {w.roll_for(top)}{_roll_stands(s, top)}: "
                f"{again} with {names} (the new roll stands), or let it stand?")
    if isinstance(top, Slaying):
        return f"{cap(w.card(top.target))} would be slain{_slain_why(w, below)}: save it with {names}?"
    if isinstance(top, Theft):
        if top.step is TheftStep.PLACE:
            return f"You take {w.card(top.target)}: which of your wizards carries it?"
        return (f"{w.Seat(top.seat)} would take {w.card(top.target)}: discard {names} instead to keep it, or let "
                f"it go?")
    if isinstance(top, BonusWindow):
        return _bonus_question(s, w, top, names)
    if isinstance(top, TrapsWindow):
        q = below if isinstance(below, Quest) else None
        on = f" on {s.label(q.card)} with {listed(s.label(x) for x in q.participants)}" if q else " on a quest"
        return f"{w.Seat(top.seat)} {'go' if top.seat == me else 'goes'}{on}: raise its Danger with {names}, or pass?"
    if isinstance(top, Duel):
        return (f"{cap(w.whose(top.seat))} {s.label(top.challenger)} (duel roll "
                f"{signed(s.duel_strength(top.challenger))}) challenges you to a Wizards Duel: which of your wizards "
                f"answers?")
    if isinstance(top, Quest):
        return _quest_question(s, w, top)
    if isinstance(top, Choice):
        return _choice_question(s, w, top)
    if isinstance(top, Lookup):
        what = TYPE_NAMES.get(top.effect.what, top.effect.what)
        return (f"{_search_source(s, top.card)}: {w.seat(top.seat)} {'search' if top.seat == me else 'searches'} "
                f"the deck for {_a(what)}. Look through the deck and lay out each {what} it holds, face up, one at a "
                f"time; then say there are no more")
    return "Choose"


def _phase_question(s: CovenantState, w: Words, legal: list[Action]) -> str:
    kinds = {a.kind for a in legal}
    p = s.turn_player
    if s.phase is Phase.DISCARD:
        over = len(s.hands[p]) - s.hand_limit(p)
        return (f"Research: you hold {cards(len(s.hands[p]))} and your hand limit is {s.hand_limit(p)}: discard "
                f"{cards(over)}" + (", one at a time" if over > 1 else ""))
    if s.phase is Phase.EVENT:
        if p == s.table_seat:  # on a real table: what the hand could allow, not what the program's guess of it does
            kinds = {a.kind for a in phase_actions(s, s.data.every_design)}
        can = [t for k, t in (("cast", "cast a spell"), ("play", "play an event"), ("act", "use a wizard's action"),
                              ("grant", "use a resource")) if k in kinds]
        return f"Your Event phase: {listed(can, 'or') or 'nothing to do'}; or end the phase (the Duel phase comes next)"
    if s.phase is Phase.DUEL:
        return "Your Duel phase: challenge a rival to a Wizards Duel (one a turn), or go on to the Summon phase"
    if s.phase is Phase.SUMMON:
        return "Your Summon phase: put a card into play, or go on to the Adventure phase"
    if s.phase is Phase.ADVENTURE:
        return ("Your Adventure phase: go on a quest (Danger: three dice; Quest Level: two dice and the bonuses of "
                "those who go; two rounds; your turn ends with it), or end your turn")
    return "Choose"


def _negated(w: Words, n: Negation, below: CovenantPending | None) -> str:
    """What a negation window is about: ``P2 casts S05 Prophecy``."""
    if isinstance(below, Play):
        return w.play(below)
    if isinstance(below, WizardAction):
        return w.action(below)
    if isinstance(below, Duel):
        return (f"{w.Seat(below.seat)} {'plays' if below.seat != w.me else 'play'} a Wizards Duel: "
                f"{w.label(below.challenger)} challenges {w.seat(below.rival)}")
    return f"{w.Seat(n.owner)} {'plays' if n.owner != w.me else 'play'} {w.label(n.source)}"


def _roll_stands(s: CovenantState, r: Roll) -> str:
    """What a roll makes now: `` (13 with its +2, against 15)``."""
    j = next((i for i, f in enumerate(s.stack) if f is r), 0)
    parent = s.stack[j - 1] if j > 0 else None
    if isinstance(parent, Duel):
        if r.slot is RollFor.CHALLENGER:
            add = s.duel_strength(parent.challenger) + parent.challenger_bonus
            return f" ({r.total + add} with its {signed(add)})" if add else ""
        add = s.duel_strength(parent.defender) + parent.defender_bonus
        other = parent.challenger_roll + s.duel_strength(parent.challenger) + parent.challenger_bonus
        return f" ({r.total + add}{f' with its {signed(add)}' if add else ''}, against {other})"
    if isinstance(parent, Quest) and r.slot is RollFor.LEVEL:
        add = s.quest_bonus(parent.card, parent.participants) + parent.level_bonus
        danger = parent.danger_roll + parent.danger_bonus
        return f" ({r.total + add} with the bonuses, against Danger {danger})"
    if isinstance(parent, Quest) and parent.danger_bonus:
        return f" (Danger {r.total + parent.danger_bonus} with Tricks & Traps)"
    return ""


def _slain_why(w: Words, below: CovenantPending | None) -> str:
    if isinstance(below, Duel):
        return f" (it lost the duel, {below.challenger_total} to {below.defender_total})"
    if isinstance(below, Quest):
        return f" (the Danger beat the Quest Level on {w.label(below.card)})"
    if isinstance(below, Effects):
        return f" ({w.label(below.card)})"
    return ""


def _bonus_question(s: CovenantState, w: Words, b: BonusWindow, names: str) -> str:
    if b.context == "duel":
        d = next((f for f in reversed(s.stack) if isinstance(f, Duel)), None)
        if d is not None:
            mine = d.seat == w.me
            t0 = d.challenger_roll + s.duel_strength(d.challenger) + d.challenger_bonus
            t1 = d.defender_roll + s.duel_strength(d.defender) + d.defender_bonus
            you, them = (t0, t1) if mine else (t1, t0)
            return (f"The duel stands at {you} (you) to {them} ({w.seat(d.rival if mine else d.seat)}); the lower "
                    f"total is slain: add {names} to your total, or pass?")
    q = next((f for f in reversed(s.stack) if isinstance(f, Quest)), None)
    if q is not None:
        danger = q.danger_roll + q.danger_bonus
        level = q.level_roll + s.quest_bonus(q.card, q.participants) + q.level_bonus
        need = (" (lower: a participant is slain for each point)" if q.round == 1 else
                " (lower: the quest fails)")
        return (f"Round {q.round} of {s.label(q.card)}: Danger {danger} against your Quest Level {level}"
                f"{need if level < danger else ''}: add {names} to this round's Quest Level, or pass?")
    return f"Add {names} to your roll, or pass?"


def _quest_question(s: CovenantState, w: Words, q: Quest) -> str:
    if q.step is QuestStep.LOSSES:
        return (f"Round 1 of {s.label(q.card)}: the Danger beat the Quest Level: choose who is slain "
                f"({plural(q.losses, 'more participant')})")
    joined = f" So far: {listed(s.label(x) for x in q.participants)}." if q.participants else ""
    return (f"Who goes on {s.label(q.card)}? Add wizards and followers one at a time (in id order); a wizard "
            f"brings the followers attached to it. Set out once a wizard has joined.{joined}")


def _a(what: str) -> str:
    """``an Item``, ``a Wizard``."""
    return f"{'an' if what[:1] in 'AEIOU' else 'a'} {what}"


def _search_source(s: CovenantState, card: str, word: str = "search") -> str:
    """What an effect comes from: ``S07 Legend Lore``, ``W02 Artificer's Maker action``."""
    src = s.label(card)
    if card in s.data.cards and s.data.cards[card].type == "wizard":
        src = f"{src}'s {'Maker' if word == 'search' else 'Stealth'} action"
    return src


def _choice_question(s: CovenantState, w: Words, c: Choice) -> str:
    e = c.effect
    src = _search_source(s, c.card, e.word)
    what = TYPE_NAMES.get(e.what, e.what)
    if e.word == "search" and c.options:
        return (f"{src}: take which of the {what}s laid out into your hand? (the others go back, and the deck is "
                f"shuffled)")
    if e.word == "search":
        return f"{src}: take which {what} from the deck into your hand? (the deck is shuffled after)"
    if e.word == "look_hand":
        return f"{src}: whose hand do you see?"
    if e.word == "skip_turn":
        return f"{src}: which rival misses their next turn?"
    if e.word == "reanimate":
        return f"{src}: take which {what} from the discard pile into your hand?"
    return f"{src}: {DOES.get(e.word, e.word)} which rival's {what}?"


# -- each action in words --------------------------------------------------------------------------------------------
def describe(s: CovenantState, action: Action) -> str:
    k, a, b = action.kind, action.a, action.b
    w = Words(s, s.current_player)
    c = s.data.cards
    if k in ("cast", "play"):
        if not b:
            return f"{k} {w.offer(a)}"
        return f"{k} {s.label(a)}: {_on(s, w, a, b)}"
    if k in ("summon", "discard"):
        return f"{k} {w.offer(a)}"
    if k == "attach":
        return f"attach {w.offer(a)} to {s.label(b)}"
    if k == "act":
        return _act(s, w, a, b)
    if k == "grant":
        g = c[a].grant_one
        return f"{s.label(a)} gives {s.label(b)} {listed(x.capitalize() for x in g)} until the turn ends"
    if k == "duel":
        return (f"{s.label(a)} (duel roll {signed(s.duel_strength(a))}) challenges P{int(b) + 1} "
                f"({_duellists(s, int(b))})")
    if k == "quest":
        return f"go on {w.offer(a)}"
    if k == "end":
        return {Phase.EVENT: "end the Event phase", Phase.DUEL: "end the Duel phase (no duel this turn)",
                Phase.SUMMON: "end the Summon phase"}.get(s.phase, "end your turn")
    if k == "pass":
        return _pass(s)
    if k == "negate":
        return f"cancel it with {s.label(a)}"
    if k == "reroll":
        return f"roll again with {s.label(a)}"
    if k == "heal":
        return f"save it with {s.label(a)}"
    if k == "bonus":
        return f"cast {w.offer(a)}"
    if k == "danger":
        return f"play {w.offer(a)}"
    if k == "guard":
        top = s.pending
        kept = f" to keep {s.label(top.target)}" if isinstance(top, Theft) else ""
        return f"discard {s.label(a)}{kept}"
    if k == "to":
        return f"{s.label(a)} carries it"
    if k == "answer":
        return f"{s.label(a)} answers (duel roll {signed(s.duel_strength(a))})"
    if k == "join":
        return _join(s, a)
    if k == "go":
        q = s.pending
        if isinstance(q, Quest):
            bonus = s.quest_bonus(q.card, q.participants) + q.level_bonus
            return f"set out with {listed(s.label(x) for x in q.participants)} (Quest Level {signed(bonus)})"
        return "set out on the quest"
    if k == "slay":
        return f"{s.label(a)} is slain"
    if k == "target":
        return _target(s, w, a)
    if k == "found":
        return f"lay out {w.offer(a)}"
    if k == "done":
        top = s.pending
        what = TYPE_NAMES.get(top.effect.what, top.effect.what) if isinstance(top, Lookup) else "card"
        return f"no more: the deck holds no other {what}"
    return f"{k} {w.label(a)}" + (f" {w.label(b)}" if b else "")


def _act(s: CovenantState, w: Words, wizard: str, b: str) -> str:
    act = WizardAct.of(b)
    ab, at = act.ability, act.looks_at
    head = f"use {s.label(wizard)}'s {ab.capitalize()} action"
    if at == "deck":
        return head + ": see the top 5 cards of the deck"
    if at is not None:
        return head + f": see P{at + 1}'s hand ({cards(len(s.hands[at]))})"
    if ab in NEEDS:
        return head + f": a die, {NEEDS[ab][1]}"
    return head


def _on(s: CovenantState, w: Words, card: str, target: str) -> str:
    """What a card cast on a target does to it: ``slay P3's W11 Battle Mage``, ``see P2's hand (4 cards)``."""
    word = s.data.cards[card].first_active.word
    if word == "look_hand":
        return f"see P{int(target) + 1}'s hand ({cards(len(s.hands[int(target)]))})"
    return f"{DOES.get(word, word)} {w.target(target)}"


def _duellists(s: CovenantState, seat: int) -> str:
    return ", ".join(f"{s.label(x)} {signed(s.duel_strength(x))}" for x in s.wizards[seat])


def _pass(s: CovenantState) -> str:
    top = s.pending
    if isinstance(top, Negation):
        return "pass: let it resolve"
    if isinstance(top, Roll):
        return "pass: let the roll stand"
    if isinstance(top, Slaying):
        return "pass: let it be slain"
    if isinstance(top, Theft):
        return "pass: let it be taken"
    if isinstance(top, BonusWindow):
        return "pass: no bonus spell"
    if isinstance(top, TrapsWindow):
        return "pass: no Tricks & Traps"
    return "pass"


def _join(s: CovenantState, x: str) -> str:
    c = s.data.cards
    q = s.pending
    parts = [x]
    if c[x].type == "wizard":
        parts.extend(a for a in s.attached.get(x, ()) if c[a].type == "follower")
    if not isinstance(q, Quest):
        return f"{s.label(x)} joins the quest"
    add = s.quest_bonus(q.card, (*q.participants, *parts)) - s.quest_bonus(q.card, q.participants)
    withs = f", with {listed(s.label(a) for a in parts[1:])}" if len(parts) > 1 else ""
    return f"{s.label(x)} joins the quest{withs} (Quest Level {signed(add)})"


def _target(s: CovenantState, w: Words, x: str) -> str:
    top = s.pending
    word = top.effect.word if isinstance(top, Choice) else ""
    if x == "none":
        return "take nothing (the deck holds none)" if s.table_seat < 0 else "take nothing (you find none)"
    if word == "search":
        return f"take {w.offer(x)}"
    if word == "look_hand":
        return f"see P{int(x) + 1}'s hand ({cards(len(s.hands[int(x)]))})"
    if word == "skip_turn":
        return f"P{int(x) + 1} misses their next turn"
    if word == "reanimate":
        return f"take {w.offer(x)}"
    text = gist(s.data, x) if x in s.data.cards else ""
    return f"{DOES.get(word, word or 'choose')} {w.target(x)}" + (f" ({text})" if text else "")


# -- a decision in two steps -----------------------------------------------------------------------------------------
FLAT_ROWS = 14  # a decision whose question and options fit in this many rows of 80 columns is asked as it is


def _rows(text: str, width: int) -> int:
    return max(1, len(textwrap.wrap(text, width)))


def two_step(s: CovenantState, legal: list[Action]) -> TwoStep | None:
    """A decision too long for the screen asked in two steps: first the card (or wizard, or resource, or kind of
    wizard a search may take), then what to do with it; None when its options fit as they are."""
    texts = [describe(s, a) for a in legal]
    w = len(str(len(legal))) + 2
    if _rows(question(s), 80) + sum(_rows(x, 80 - w) for x in texts) <= FLAT_ROWS:
        return None
    c = s.data.cards
    top = s.pending
    by: dict[str, list[tuple[Action, str]]] = {}
    if isinstance(top, Choice):  # a search: its cards by kind (a wizard's ability)
        for a, text in zip(legal, texts, strict=True):
            info = c.get(a.a)
            kind = (info.abilities[0] if info.type == "wizard" and info.abilities else info.type) if info else ""
            by.setdefault(kind, []).append((a, text))
        src = question(s).split(": ", 1)[0]
        what = TYPE_NAMES.get(top.effect.what, top.effect.what)
        groups = [Group(f"{TYPE_NAMES.get(k, k.capitalize())}: {listed(s.label(a.a) for a, _ in xs)}",
                        f"{src}: which {what}?" if k in TYPE_NAMES else f"{src}: which {k.capitalize()} {what}?",
                        tuple(xs))
                  for k, xs in sorted(by.items())]
        return TwoStep(f"{question(s)} First its kind:", tuple(groups))
    for a, text in zip(legal, texts, strict=True):
        by.setdefault(a.a or a.kind, []).append((a, text))
    return TwoStep(f"{question(s)}. Choose the card first:", tuple(_group(s, xs) for xs in by.values()))


def _group(s: CovenantState, xs: list[tuple[Action, str]]) -> Group:
    """The actions of one card, wizard or resource as a group: its text, its question and its options."""
    a = xs[0][0]
    k, x = a.kind, a.a
    w = Words(s, s.current_player)
    n = len(xs)
    if n == 1:
        return Group(xs[0][1], f"{cap(xs[0][1])}?", tuple(xs))
    if k in ("cast", "play"):
        return Group(f"{k} {w.offer(x)}: {n} targets", f"{s.label(x)}: on which target?",
                     tuple((b, _on(s, w, x, b.b)) for b, _ in xs))
    if k == "act":
        return Group(f"use {s.label(x)}'s action ({n} choices)", f"{s.label(x)}: which action?", tuple(xs))
    if k == "grant":
        g = listed(y.capitalize() for y in s.data.cards[x].grant_one)
        return Group(f"{s.label(x)} gives a wizard {g} until the turn ends ({n} wizards)",
                     f"{s.label(x)}: which wizard gains {g}?", tuple((b, s.label(b.b)) for b, _ in xs))
    if k == "attach":
        return Group(f"attach {w.offer(x)} to a wizard ({n} wizards)", f"Attach {s.label(x)} to which wizard?",
                     tuple((b, s.label(b.b)) for b, _ in xs))
    if k == "duel":
        return Group(f"{s.label(x)} (duel roll {signed(s.duel_strength(x))}) challenges a rival ({n} rivals)",
                     f"{s.label(x)} challenges which rival?",
                     tuple((b, f"P{int(b.b) + 1} ({_duellists(s, int(b.b))})") for b, _ in xs))
    return Group(f"{xs[0][1]} ({n} choices)", "Which one?", tuple(xs))


# -- the heading -------------------------------------------------------------------------------------------------------
def heading(s: CovenantState, seat: int) -> str:
    """The screen's heading: ``turn 7: P2's Summon phase``."""
    if s.result is not None:
        return f"turn {s.turn_number}: game over"
    whose = "your" if s.turn_player == seat else f"P{s.turn_player + 1}'s"
    return f"turn {s.turn_number}: {whose} {PHASE_NAMES.get(s.phase, str(s.phase))} phase"
