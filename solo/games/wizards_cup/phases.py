"""The rules of Wizards Cup, registered in :data:`~.state.RULES`: the wizard selection, each round's planning,
the duels (the wizards just placed come into play, the lower printed Value first, each Immediate power acting as its
wizard does; then A Magic power and Weakness, B Element, C Value, then the end of the duel), the end of the round
with its Victory tokens, the end of the game and the swap between rounds.

Immediate effect words have one handler each in :data:`IMMEDIATE`; Dormant and Permanent words act continuously
(``state.py``: :meth:`~.state.WizardsCupState.value`, :meth:`~.state.WizardsCupState.permanent`,
:meth:`~.state.WizardsCupState.dormant`)."""

from __future__ import annotations

from collections.abc import Callable

from wizprint.cards.markup import plural
from wizprint.solo.kernel import Action, Words

from .data import DECK, SETS, TO_WIN, WORD_TYPES, WizardsCupTermination, element_loses
from .pending import Ask, Choose, Round, RoundStep, Setup, SetupStep
from .state import RULES, ValuePart, WizardsCupState

Handler = Callable[["WizardsCupState", int, str], None]  # (state, the wizard's owner, the wizard)
IMMEDIATE: Words[Handler] = Words("wizards-cup")
CONTINUOUS = {w for w, types in WORD_TYPES.items() if "immediate" not in types}  # read by state.py as they apply


def handled() -> set[str]:
    return set(IMMEDIATE.handlers) | CONTINUOUS


# -- the wizard selection ---------------------------------------------------------------------------------------
@RULES.run(Setup)
def run_setup(s: WizardsCupState, item: Setup) -> bool:
    if item.step is SetupStep.RANDOM:
        for seat in (0, 1):
            card = s.pick(sorted(s.sets[seat]), f"card of P{seat + 1}'s set (P{2 - seat} picks it at random)")
            s.sets[seat].remove(card)
            s.decks[seat].append(card)
            s.reveal(seat, card)
            s.note_draw(seat, card)
            s.say(f"P{2 - seat} picks P{seat + 1}'s {s.label(card)} at random: it joins P{seat + 1}'s Deck")
        item.step = SetupStep.SELECT
        return False
    if item.step is SetupStep.SELECT:
        if item.index < 2:
            s.stack.append(Choose(seat=item.index, ask=Ask.SELECT, left=DECK - 1))
            item.index += 1
            return False
        s.stack.pop()
        s.say("The wizard selection is over: each player has a Deck of 6 wizards")
        return False
    s.stack.pop()
    return False


# -- a round ------------------------------------------------------------------------------------------------------
@RULES.run(Round)
def run_round(s: WizardsCupState, r: Round) -> bool:
    """One step of the round; then a line for each wizard in a Duel zone whose Value changed in it (placed with a
    Value that is not its printed one, or changed by a power that came into play, stopped or ended)."""
    if r.step not in VALUE_STEPS:
        return round_step(s, r)
    before = value_parts(s)
    asked = round_step(s, r)
    say_values(s, before)
    return asked


VALUE_STEPS = frozenset({RoundStep.DRAW, RoundStep.POWERS, RoundStep.RESOLVE})  # the steps that change Values


def value_parts(s: WizardsCupState) -> dict[str, tuple[ValuePart, ...]]:
    """The parts of the Value of each wizard in a Duel zone, by wizard."""
    return {d[0]: tuple(s.value_parts(x)) for x, d in enumerate(s.duel) if d}


def say_values(s: WizardsCupState, before: dict[str, tuple[ValuePart, ...]]) -> None:
    """A line for each wizard in a Duel zone whose Value's parts are not what they were (a wizard just placed: not
    its printed Value alone), saying the Value, its parts, and the parts that ended."""
    for x, d in enumerate(s.duel):
        if not d:
            continue
        parts = tuple(s.value_parts(x))
        was = before.get(d[0], ())
        if parts == was:
            continue
        ended = [f"{p.n:+d} from {s.source(x, p.card)}" for p in was if p not in parts and not p.stopped
                 and all(q.card != p.card or q.stopped for q in parts)]
        line = f"P{x + 1}'s {s.data.cards[d[0]].name}: Value {s.value(x)} = {s.value_sum(x)}"
        s.say(line + (f" ({', '.join(ended)} no longer applies)" if ended else ""))


def round_step(s: WizardsCupState, r: Round) -> bool:
    if r.step is RoundStep.PLAN:
        if r.index == 0:
            s.round += 1
            s.duels = 0
            s.say(f"Round {s.round}: the planning")
        if r.index < 2:
            s.stack.append(Choose(seat=r.index, ask=Ask.WAIT))
            r.index += 1
            return False
        s.say("Both Decks are ready, face down")
        r.step = RoundStep.DRAW
        return False
    if r.step is RoundStep.DRAW:
        return draw_step(s, r)
    if r.step is RoundStep.POWERS:
        while r.queue:
            card = r.queue.pop(0)
            if card in s.duel[s.data.owner(card)]:
                s.come_into_play(card)
            if s.data.cards[card].power == "immediate" and immediate(s, r, card):
                return False
        r.step = RoundStep.RESOLVE
        return False
    if r.step is RoundStep.RESOLVE:
        resolve(s, r)
        return False
    if r.step is RoundStep.END:
        return end_round(s, r)
    if r.step is RoundStep.SWAP:
        if r.index < 2:
            s.stack.append(Choose(seat=r.index, ask=Ask.SWAP_OUT))
            r.index += 1
            return False
        r.step = RoundStep.DONE
        return False
    s.stack.pop()
    return False


def draw_step(s: WizardsCupState, r: Round) -> bool:
    """3.2 and the end of the round: whoever has no wizard in the Duel zone places the top card of their Deck
    there; a player who cannot loses the round (both cannot: both win it). Then the new duel begins."""
    empty = [x for x in (0, 1) if not s.duel[x]]
    stuck = [x for x in empty if not s.decks[x]]
    if stuck:
        r.winners = [x for x in (0, 1) if x not in stuck] or [0, 1]
        r.step = RoundStep.END
        return False
    new = []
    for x in empty:
        card = s.decks[x].pop()
        s.duel[x].append(card)
        s.reveal(x, card)
        s.note_play(x, card)
        new.append(card)
    s.duels += 1
    s.doomed = False
    s.say(f"Duel {s.duels}: " + " against ".join(f"P{x + 1}'s {s.label(s.duel[x][0])}"
                                                    + ("" if s.duel[x][0] in new else " (stays)") for x in (0, 1)))
    if s.identical():
        s.say("Two identical wizards: both lose their Magic powers")
    # the new wizards come into play after the powers already in play; two placed together: the lower printed Value
    # first, its Immediate power acting then, its Permanent power starting then (equal Values: by card id)
    cards = s.data.cards
    r.queue = sorted(new, key=lambda c: (cards[c].value, c))
    r.step = RoundStep.POWERS
    return False


def immediate(s: WizardsCupState, r: Round, card: str) -> bool:
    """``card``'s Immediate power acts (the second of two acts whatever the first did, even from the Waiting place
    The Detective sent it to; only a wizard facing an identical one in the Duel zone has lost its power). True when
    it asks its owner something."""
    if s.identical() and any(card in d for d in s.duel):
        return False
    seat = s.data.owner(card)
    w = s.data.cards[card]
    s.say(f"P{seat + 1}'s {w.name}: Immediate power")
    asked = False
    for e in w.effects:
        IMMEDIATE.get(e.word)(s, seat, card)
        asked = asked or (e.word == "rearrange" and bool(s.stack) and isinstance(s.stack[-1], Choose))
    return asked


def place_waiting(s: WizardsCupState, r: Round, seat: int) -> None:
    """The Detective: ``seat``'s Waiting card takes the place of its wizard in the Duel zone (which waits face down
    instead, its power out of play); the newly placed wizard comes into play at once, its Immediate power acting
    then, unless it meets an identical wizard."""
    old, new = s.duel[seat][0], s.waiting[seat][0]
    s.duel[seat] = [new]
    s.waiting[seat] = [old]
    if old in s.in_play:
        s.in_play.remove(old)
    s.reveal(seat, new)
    s.say(f"P{seat + 1}'s Waiting card {s.label(new)} takes the place of {s.label(old)}, which now waits face down")
    if s.identical():
        s.say("It meets an identical wizard: both lose their Magic powers")
    r.queue.insert(0, new)


@IMMEDIATE("discard_waiting")
def _discard_waiting(s: WizardsCupState, seat: int, card: str) -> None:
    x = 1 - seat
    if not s.waiting[x]:
        s.say(f"P{x + 1} has no Waiting card")
    elif s.guarded(x):
        s.say(f"P{x + 1}'s Soldier guards their Waiting card")
    else:
        c = s.waiting[x].pop()
        s.discard(x, c)
        s.say(f"P{x + 1} discards their Waiting card, {s.label(c)}, face up")


@IMMEDIATE("swap_waiting")
def _swap_waiting(s: WizardsCupState, seat: int, card: str) -> None:
    x = 1 - seat
    if not s.waiting[x] or not s.duel[x]:
        s.say(f"P{x + 1} has no Waiting card to swap")
        return
    r = next(i for i in reversed(s.stack) if isinstance(i, Round))
    place_waiting(s, r, x)


@IMMEDIATE("both_lose")
def _both_lose(s: WizardsCupState, seat: int, card: str) -> None:
    s.doomed = True
    s.say("Both wizards of this duel lose")


@IMMEDIATE("rearrange")
def _rearrange(s: WizardsCupState, seat: int, card: str) -> None:
    if len(s.decks[seat]) < 2:
        s.say(f"P{seat + 1}'s Deck has {plural(len(s.decks[seat]), 'card')}: nothing to rearrange")
        return
    s.stack.append(Choose(seat=seat, ask=Ask.REARRANGE))


@IMMEDIATE("sink")
def _sink(s: WizardsCupState, seat: int, card: str) -> None:
    x = 1 - seat
    if len(s.decks[x]) < 2:
        s.say(f"P{x + 1}'s Deck has {plural(len(s.decks[x]), 'card')}: its top card stays")
        return
    c = s.decks[x].pop()
    s.decks[x].insert(0, c)
    s.say(f"P{x + 1} puts the top card of their Deck at the bottom")


def decide(s: WizardsCupState) -> tuple[list[int], str, list[str]]:
    """The losers of the duel, why (A Magic power and Weakness, B Element, C Value) and the lines said on the way
    (a Permanent power that keeps the Elements from deciding)."""
    a, b = s.card(0), s.card(1)
    assert a is not None and b is not None
    if s.doomed:
        return [0, 1], "A: The Shaman's power, both lose", []
    if a.name != b.name:
        weak = [x for x, (me, them) in enumerate(((a, b), (b, a))) if me.weakness == them.name]
        if len(weak) == 1:
            return weak, f"A: the Weakness of {(a, b)[weak[0]].name} is {(b, a)[weak[0]].name}", []
    said = []
    if element_loses(a.element, b.element) != element_loses(b.element, a.element):
        off = [x for x in (0, 1) if s.permanent(x, "no_element")]
        if not off:
            loser = 0 if element_loses(a.element, b.element) else 1
            w, other = (a, b)[loser], (b, a)[loser]
            return [loser], f"B: {w.element.capitalize()} loses to {other.element.capitalize()}", []
        said.append(f"B: P{off[0] + 1}'s {(a, b)[off[0]].name}: the Elements do not decide this duel "
                    f"({a.element.capitalize()} against {b.element.capitalize()})")
    va, vb = s.value(0), s.value(1)
    if va == vb:
        ties = [x for x in (0, 1) if s.permanent(x, "wins_ties")]
        if len(ties) == 1:
            return [1 - ties[0]], f"C: equal Values ({va}), and {(a, b)[ties[0]].name} wins ties", said
        return [0, 1], f"C: equal Values ({va}), both lose", said
    lower = any(s.permanent(x, "lower_wins") for x in (0, 1))
    loser = (0 if va < vb else 1) if not lower else (0 if va > vb else 1)
    why = "the lower Value wins (The Blacksmith)" if lower else "the higher Value wins"
    return [loser], f"C: Values {va} against {vb}, {why}", said


def compared(s: WizardsCupState) -> str:
    """The two Values of a duel decided by C with their parts, when either is not its printed Value
    (``P1's 11 = 8 printed +3 from The Alchemist, P2's 7 printed``); else ``""``."""
    if not any(s.value_parts(x) for x in (0, 1)):
        return ""
    return ", ".join(f"P{x + 1}'s {s.value(x)} = {s.value_sum(x)}" if s.value_parts(x) else
                     f"P{x + 1}'s {s.value(x)} printed" for x in (0, 1))


def resolve(s: WizardsCupState, r: Round) -> None:
    """The duel is decided, then its end: a winner's Revolutionary makes the loser discard first (3.1 then
    discards the losers face up); the winner stays; then whoever has no wizard draws (back to DRAW)."""
    losers, why, said = decide(s)
    for line in said:
        s.say(line)
    s.last = why
    parts = compared(s) if why.startswith("C") else ""
    full = f"{why}; {parts}" if parts else why
    winner = [x for x in (0, 1) if x not in losers]
    if winner:
        s.say(f"P{winner[0] + 1}'s {s.label(s.duel[winner[0]][0])} wins the duel ({full})")
    else:
        s.say(f"Both wizards lose ({full})")
    if winner and s.permanent(winner[0], "on_win_discard"):
        x = losers[0]
        if s.guarded(x):
            s.say(f"P{x + 1}'s Soldier: no card is discarded from their Deck")
        elif s.decks[x]:
            c = s.decks[x].pop()
            s.discard(x, c)
            s.say(f"The Revolutionary: P{x + 1} discards the top card of their Deck, {s.label(c)}")
    for x in losers:
        s.discard(x, s.duel[x].pop())
    s.doomed = False
    r.step = RoundStep.DRAW


def end_round(s: WizardsCupState, r: Round) -> bool:
    """Victory tokens; the end of the game at 2; else every card back into its Deck and the swap. When both
    players are to take their second token, each first turns their Waiting card face up onto their discard pile
    (their 6 are then all face up, to be counted)."""
    both = all(s.tokens[x] + (x in r.winners) >= TO_WIN for x in (0, 1))
    if both and any(s.waiting):
        s.say(f"Both players are to take their second Victory token: each turns their Waiting card face up to "
              f"count the Value of their {DECK}")
        for x in (0, 1):
            if s.waiting[x]:
                c = s.waiting[x].pop()
                s.discard(x, c)
                s.say(f"P{x + 1}'s Waiting card: {s.label(c)}")
        return False
    for x in r.winners:
        s.tokens[x] += 1
    if len(r.winners) == 2:
        s.say(f"Both players have played all their wizards: both win round {s.round} and take a Victory token")
    else:
        s.say(f"P{r.winners[0] + 1} wins round {s.round}: P{2 - r.winners[0]} has no wizard left to duel")
    done = [x for x in (0, 1) if s.tokens[x] >= TO_WIN]
    if done:
        if len(done) == 2:
            values = [s.deck_value(x) for x in (0, 1)]
            if values[0] == values[1]:
                s.finish([0, 1], f"Both players reach {TO_WIN} Victory tokens with Decks worth {values[0]}: they "
                                 "share the Wizards Cup", WizardsCupTermination.BOTH_SHARE, (TO_WIN, values[0]))
            else:
                w = 0 if values[0] < values[1] else 1
                s.finish([w], f"Both players reach {TO_WIN} Victory tokens: P{w + 1} wins the Wizards Cup with the "
                              f"lower Deck Value ({values[w]} against {values[1 - w]})",
                         WizardsCupTermination.BOTH_LOWER_DECK, (TO_WIN,))
        else:
            s.finish(done, f"P{done[0] + 1} wins the Wizards Cup with {TO_WIN} Victory tokens",
                     WizardsCupTermination.TOKENS, (TO_WIN,))
        assert s.result is not None
        for x in (0, 1):  # the solo check's draft report: how the wizards each seat selected fared
            for c in s.drafted[x]:
                s.note_contest(f"drafted: {s.data[c].name}", x in s.result.winners, 0.5)
        return False
    for x in (0, 1):
        s.decks[x] = s.six(x)
        s.discards[x], s.duel[x], s.waiting[x] = [], [], []
    s.in_play = []
    s.say("Every wizard goes back into its Deck")
    r.step = RoundStep.SWAP
    r.index = 0
    return False


# -- the choices ------------------------------------------------------------------------------------------------
@RULES.run(Choose)
def run_choose(s: WizardsCupState, c: Choose) -> bool:
    if c.ask is Ask.ORDER and c.left <= 1:  # the last card goes where it must; the order becomes the Deck
        s.plans[c.seat].extend(s.decks[c.seat])
        s.decks[c.seat] = list(reversed(s.plans[c.seat]))
        s.plans[c.seat] = []
        s.stack.pop()
        return False
    s.current_seat = c.seat
    return True


@RULES.legal(Choose)
def choose_legal(s: WizardsCupState, c: Choose) -> list[Action]:
    seat = c.seat
    if c.ask is Ask.SELECT:
        return [Action("select", x) for x in sorted(s.sets[seat])]
    if c.ask is Ask.WAIT:
        return [Action("wait", x) for x in sorted(s.decks[seat])]
    if c.ask is Ask.ORDER:
        return [Action("next", x) for x in sorted(s.decks[seat])]
    if c.ask is Ask.REARRANGE:
        return [Action("keep"), Action("rearrange")]
    if c.ask is Ask.SWAP_OUT:  # nothing to swap with when the whole set is in the Deck (a folder of 6 designs)
        return [Action("keep"), *(Action("out", x) for x in sorted(s.decks[seat]) if s.sets[seat])]
    return [Action("in", x) for x in sorted(s.sets[seat])]


@RULES.apply(Choose)
def choose_apply(s: WizardsCupState, c: Choose, action: Action) -> None:
    seat, k, x = c.seat, action.kind, action.a
    if c.ask is Ask.SELECT:
        s.sets[seat].remove(x)
        s.decks[seat].append(x)
        s.drafted[seat].append(x)
        s.note_draw(seat, x)
        c.left -= 1
        s.say(f"you select {s.label(x)}", (seat,))
        if c.left == 0:
            s.say(f"P{seat + 1} has selected 5 wizards in secret")
            s.stack.pop()
    elif c.ask is Ask.WAIT:
        s.decks[seat].remove(x)
        s.waiting[seat].append(x)
        s.say(f"you keep {s.label(x)} as your Waiting card", (seat,))
        s.stack.pop()
        s.stack.append(Choose(seat=seat, ask=Ask.ORDER, left=len(s.decks[seat])))
    elif c.ask is Ask.ORDER:
        s.decks[seat].remove(x)
        s.plans[seat].append(x)
        c.left -= 1
        s.say(f"you put {s.label(x)} {ordinal(len(s.plans[seat]))}", (seat,))
        if c.left <= 1:
            planning = any(isinstance(i, Round) and i.step is RoundStep.PLAN for i in s.stack)
            s.say(f"P{seat + 1} " + ("has planned in secret" if planning else "has put their Deck in a new order"))
    elif c.ask is Ask.REARRANGE:
        if k == "keep":
            s.say(f"P{seat + 1} keeps their Deck as it is")
            s.stack.pop()
        else:
            s.say(f"P{seat + 1} rearranges their Deck in secret")
            s.stack.pop()
            s.stack.append(Choose(seat=seat, ask=Ask.ORDER, left=len(s.decks[seat])))
    elif c.ask is Ask.SWAP_OUT:
        if k == "keep":
            s.say(f"P{seat + 1} keeps their Deck")
            s.stack.pop()
        else:
            s.stack.pop()
            s.stack.append(Choose(seat=seat, ask=Ask.SWAP_IN, card=x))
    else:
        out = c.card
        s.decks[seat].remove(out)
        s.sets[seat].append(out)
        s.sets[seat].remove(x)
        s.decks[seat].append(x)
        s.swapped(seat)
        s.say(f"P{seat + 1} swaps a card of their Deck with one set aside")
        s.say(f"you swap {s.label(out)} for {s.label(x)}", (seat,))
        s.stack.pop()


def ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}.get(n, f"number {n}")


__all__ = ["IMMEDIATE", "SETS", "handled"]
