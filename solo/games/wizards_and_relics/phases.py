"""The turn sequence of Wizards & Relics: the set-up (deal, choose a deck, draw 7, the partial mulligan) and each
round's five phases: 1 Shrine, 2 Play (secret, repeated for each tie battle), 3 Reveal (wizards; relics with their
enchantments from the Master Wizard clockwise; advantage; shrine abilities; wizard abilities), 4 Victory, 5 Spoils
(the hand check, the winner's draw or relic, the losers' two cards). Registered in :data:`~.state.RULES`."""

from __future__ import annotations

from wizprint.cards.markup import plural
from wizprint.errors import IllegalActionError
from wizprint.solo.kernel import Action

from .data import AFFECTS, DECKS, HAND, PER_DECK, RARITIES, affected
from .pending import (
    Ask,
    Choose,
    Effects,
    Enter,
    EnterStep,
    Reveal,
    RevealStep,
    Round,
    RoundStep,
    Setup,
    SetupStep,
    Source,
    Triggers,
)
from .state import RULES, Discarded, WizardsAndRelicsState

TIE_LIMIT = 12  # tie battles in one round before the tie is broken for the Master Wizard's side (a ruling)


def seats(xs: list[int]) -> str:
    """``P1``, ``P1 and P2``, ``P1, P2 and P3``."""
    names = [f"P{x + 1}" for x in xs]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def deal(s: WizardsAndRelicsState) -> None:
    """Sort the wizards and relics into six piles by rarity, shuffle each and deal four 30-card decks; shuffle the
    shrines into a pile."""
    d = s.data
    s.piles = [[] for _ in range(DECKS)]
    for kind in ("wizard", "relic"):
        turn = 0  # the deck the next card left over goes to: the rarities' leftovers go round the decks in turn
        for rarity in RARITIES:
            pile = list(d.piles[kind, rarity])
            s.rng.shuffle(pile)
            each = PER_DECK[rarity]
            if len(pile) < each * DECKS:  # an edited game folder with fewer cards: deal what there is, evenly
                each = len(pile) // DECKS
            for i in range(DECKS):
                s.piles[i].extend(pile[i * each:(i + 1) * each])
            for c in pile[each * DECKS:]:
                s.piles[turn % DECKS].append(c)
                turn += 1
    for p in s.piles:
        s.rng.shuffle(p)
    s.shrine_pile = sorted(d.shrines)
    s.rng.shuffle(s.shrine_pile)


# -- set-up --------------------------------------------------------------------------------------------------------
@RULES.run(Setup)
def run_setup(s: WizardsAndRelicsState, item: Setup) -> bool:
    order = s.order()
    if item.step is SetupStep.DECKS:
        if item.index < len(order):
            seat = order[item.index]
            free = [i for i, p in enumerate(s.piles) if p]
            if len(free) == 1:
                choose_deck(s, seat, free[0])
                item.index += 1
                return False
            s.current_seat = seat
            return True
        for seat in order:
            s.shuffle_deck(seat)
            s.draw(seat, HAND, "the starting hand")
        item.step = SetupStep.MULLIGAN
        item.index = 0
        return False
    if item.step is SetupStep.MULLIGAN:
        if item.index < len(order):
            s.ask(Choose(seat=order[item.index], ask=Ask.MULLIGAN))
            item.index += 1
            return False
        s.stack.pop()
        s.say("The set-up is done: the first round begins")
        return False
    s.stack.pop()
    return False


@RULES.legal(Setup)
def setup_legal(s: WizardsAndRelicsState, item: Setup) -> list[Action]:
    return [Action("deck", str(i + 1)) for i, p in enumerate(s.piles) if p]


@RULES.apply(Setup)
def setup_apply(s: WizardsAndRelicsState, item: Setup, action: Action) -> None:
    seat = s.order()[item.index]
    choose_deck(s, seat, int(action.a) - 1)
    item.index += 1


def choose_deck(s: WizardsAndRelicsState, seat: int, i: int) -> None:
    s.decks[seat] = s.piles[i]
    s.piles[i] = []
    s.chosen_deck[seat] = i
    s.say(f"P{seat + 1} chooses deck {i + 1}")


def mulligan(s: WizardsAndRelicsState, seat: int, aside: list[str]) -> None:
    """The partial mulligan: the cards set aside are replaced from the deck, then shuffled back into it."""
    for c in aside:
        s.leave_hand(seat, c)
    if aside:
        s.draw(seat, len(aside), "mulligan", quiet=True)
        s.decks[seat].extend(aside)
        s.shuffle_deck(seat)
    s.say(f"P{seat + 1} keeps {'the hand' if not aside else 'the rest and draws ' + plural(len(aside), 'new card')}")
    if aside:
        s.say(f"you set aside {s.names(aside)} and draw {s.names(s.hands[seat][-len(aside):])}", (seat,))


# -- a round ------------------------------------------------------------------------------------------------------
@RULES.run(Round)
def run_round(s: WizardsAndRelicsState, r: Round) -> bool:
    step = r.step
    if step is RoundStep.SHRINE:
        begin_round(s)
        r.step = RoundStep.PLAY
        return False
    if step is RoundStep.PLAY:
        return play_step(s, r)
    if step is RoundStep.REVEAL:
        s.stack.append(Reveal(seat=s.master))
        r.step = RoundStep.COMPARE
        return False
    if step is RoundStep.COMPARE:
        compare(s, r)
        return False
    if step is RoundStep.VICTORY:
        victory(s, r)
        return False
    if step is RoundStep.HAND_CHECK:
        hand_check(s, r)
        return False
    if step is RoundStep.SPOILS:
        r.step = RoundStep.WIN_TRIGGERS
        s.ask(Choose(seat=r.winner, ask=Ask.SPOILS))
        return False
    if step is RoundStep.WIN_TRIGGERS:
        r.step = RoundStep.LOSERS
        if r.triggered:
            s.stack.append(Triggers(seat=r.winner, source=Source.ON_WIN, cards=list(r.triggered)))
        r.triggered = []
        return False
    if step is RoundStep.LOSERS:
        losers = [x for x in s.order() if x != r.winner]
        for seat in losers:
            s.draw(seat, 2, "lost the round")
        pushes = []
        for seat in losers:  # the cards of the battle each lost: the last one, or the tie they were out of
            cards = [c for c in ((*s.wizards[seat], *s.relics[seat]) if seat in s.fighters else s.tied[seat])
                     if s.data[c].has("on_lose") and not s.nullified(c)]
            if cards:
                pushes.append(Triggers(seat=seat, source=Source.ON_LOSE, cards=cards))
        s.stack.extend(reversed(pushes))
        r.step = RoundStep.CLEAR
        return False
    if step is RoundStep.CLEAR:
        for seat in range(s.players):
            for zone in (s.tied, s.wizards, s.relics):
                s.discards[seat].extend(zone[seat])
                zone[seat] = []
        s.clear_battle()
        s.fighters = []
        s.losers = []
        s.commits.order = []
        s.commits.chosen = {}
        s.master = r.winner
        s.equalized = []
        s.stack.pop()
        s.say(f"P{r.winner + 1} won the round and is the Master Wizard of the next")
        return False
    s.stack.pop()
    return False


def begin_round(s: WizardsAndRelicsState) -> None:
    """Phase 1: reveal the top shrine (the used shrines are shuffled into a new pile when it runs out)."""
    s.round += 1
    s.battle = 0
    s.drawn = [0] * s.players
    s.counting = True
    s.equalized = []
    s.last_totals = {}
    s.shrines_used.extend(s.shrine)
    s.shrine = []
    if not s.shrine_pile:
        s.shrine_pile = s.shrines_used
        s.shrines_used = []
        s.rng.shuffle(s.shrine_pile)
        s.say("The shrine pile is empty: the used shrines are shuffled into a new pile")
    s.fighters = s.order()
    s.losers = []
    s.clear_battle()
    if s.shrine_pile:
        s.shrine = [s.shrine_pile.pop()]
        s.note_play(s.master, s.shrine[0])
        sh = s.data[s.shrine[0]]
        s.say(f"Round {s.round}: the shrine is {s.label(sh.id)} (it affects {AFFECTS[sh.affects]})")
    s.commits.order = list(s.fighters)
    s.commits.chosen = {}


def can_play(s: WizardsAndRelicsState, seat: int) -> tuple[bool, bool]:
    d = s.data
    return (any(d.is_wizard(c) for c in s.hands[seat]), any(d.is_relic(c) for c in s.hands[seat]))


def play_step(s: WizardsAndRelicsState, r: Round) -> bool:
    """Phase 2: each player in the battle lays a wizard and a relic face down (a secret choice). A player with no
    wizard or no relic in hand discards their hand and Replenishes first (once a battle)."""
    waiting = s.commits.waiting
    if waiting >= 0:
        lacks = lacking(s, waiting, r)
        if lacks and waiting != s.table_seat:  # (the table's player says so: a move, see ``round_legal``)
            empty_hand(s, r, waiting, lacks)
            return False
        s.current_seat = waiting
        return True
    # everyone has committed: the cards go face down
    for seat in s.fighters:  # (on a real table, a card said to be the wizard or the relic played may be neither)
        for c, kind in zip(s.commits.chosen[seat].split(), ("wizard", "relic"), strict=True):
            if c != "none" and s.data[c].kind != kind:
                raise IllegalActionError(f"a {s.data[c].kind} cannot be played as the {kind}")
    for seat in s.fighters:
        played_w, played_r = s.commits.chosen[seat].split()
        for c, zone in ((played_w, s.wizards), (played_r, s.relics)):
            if c != "none":
                s.leave_hand(seat, c)
                zone[seat].append(c)
                s.note_play(seat, c)
    s.commits.order = []
    s.commits.chosen = {}
    for seat in s.fighters:
        s.replenish(seat)
    r.eek = []
    r.step = RoundStep.REVEAL
    return False


def lacking(s: WizardsAndRelicsState, seat: int, r: Round) -> str:
    """The kind of card the seat has none of in hand ("wizard" or "relic"), when it must discard its hand and
    Replenish before it plays (once a battle); else ""."""
    if seat in r.eek:
        return ""
    wiz, rel = can_play(s, seat)
    return "wizard" if not wiz else "relic" if not rel else ""


def empty_hand(s: WizardsAndRelicsState, r: Round, seat: int, lacks: str) -> None:
    """No wizard or no relic in hand at the Play phase: the hand is discarded, then Replenished."""
    r.eek.append(seat)
    s.say(f"P{seat + 1} has no {lacks} in hand: they discard their hand and Replenish")
    # (a hand on a real table has no order the program knows: it goes to the discard pile in the order of the ids)
    hand = sorted(s.hands[seat]) if seat == s.table_seat else list(s.hands[seat])
    for c in hand:
        s.hands[seat].remove(c)
        if c in s.known_hand[seat]:
            s.known_hand[seat].remove(c)
        s.discards[seat].append(c)
        if s.data[c].has("on_discard"):
            s.discard_triggers.append(Discarded(seat, c))
    if hand:
        s.say(f"P{seat + 1} discards {s.names(hand)}")
    s.replenish(seat)


@RULES.legal(Round)
def round_legal(s: WizardsAndRelicsState, r: Round) -> list[Action]:
    seat = s.commits.waiting
    lacks = lacking(s, seat, r)
    if lacks:  # the table's player, who says it (the rules do it for every other seat)
        return [Action("lack", lacks)]
    d = s.data
    wiz = sorted({c for c in s.hands[seat] if d.is_wizard(c)}) or ["none"]
    rel = sorted({c for c in s.hands[seat] if d.is_relic(c)}) or ["none"]
    return [Action("play", w, x) for w in wiz for x in rel]


@RULES.apply(Round)
def round_apply(s: WizardsAndRelicsState, r: Round, action: Action) -> None:
    seat = s.commits.waiting
    if action.kind == "lack":
        empty_hand(s, r, seat, action.a)
        return
    if action.kind != "play":
        raise IllegalActionError(f"{action.key!r} is not a play")
    s.commits.commit(seat, f"{action.a} {action.b}")
    laid = " and ".join(k for k, c in (("a wizard", action.a), ("a relic", action.b)) if c != "none")
    s.say(f"P{seat + 1} lays {laid or 'nothing'} face down")
    s.say(f"you play {' and '.join(s.label(c) for c in (action.a, action.b) if c != 'none')}", (seat,))


def compare(s: WizardsAndRelicsState, r: Round) -> None:
    """The totals: the highest wins; equal highest totals battle again (phases 2 and 3) among themselves."""
    totals = {x: s.total(x) for x in s.fighters}
    s.last_totals = dict(totals)
    s.say("Totals: " + ", ".join(f"P{x + 1} {totals[x]}" for x in s.fighters))
    armed = [x for x in s.fighters if s.wizards[x]] or list(s.fighters)
    best = max(totals[x] for x in armed)
    top = [x for x in armed if totals[x] == best]
    if len(top) > 1 and s.battle + 1 >= TIE_LIMIT:
        top = [s.order(top)[0]]
        s.say(f"A tie for the {TIE_LIMIT}th time this round: it is broken for P{top[0] + 1}, first from the Master "
              "Wizard")
    if len(top) == 1:
        r.winner = top[0]
        note_battle(s, top[0])
        s.counting = False
        r.step = RoundStep.VICTORY
        return
    s.say(f"A tie at {best}: {seats(top)} battle again")
    for x in s.fighters:
        s.tied[x].extend((*s.wizards[x], *s.relics[x]))
        s.wizards[x] = []
        s.relics[x] = []
        if x not in top:
            s.losers.append(x)
    s.fighters = s.order(top)
    s.battle += 1
    s.clear_battle(round_over=False)
    s.commits.order = list(s.fighters)
    s.commits.chosen = {}
    r.step = RoundStep.PLAY


def note_battle(s: WizardsAndRelicsState, winner: int) -> None:
    """Solo checks: the decided battle, won or lost by the colour and rarity of each wizard and relic played."""
    if s.stats is None:
        return
    d = s.data
    fair = 1.0 / len(s.fighters)
    for x in s.fighters:
        won = x == winner
        if s.wizards[x]:
            w = d[s.wizards[x][0]]
            s.note_contest(f"wizard colour: {w.colour}", won, fair)
            s.note_contest(f"wizard rarity: {w.rarity}", won, fair)
            s.note_contest(f"wizard type: {'Enlightened' if w.effects else 'Devoted'}", won, fair)
        if s.relics[x]:
            rc = d[s.relics[x][0]]
            s.note_contest(f"relic rarity: {rc.rarity}", won, fair)


def victory(s: WizardsAndRelicsState, r: Round) -> None:
    """Phase 4: the winner's last played wizard to the Hall of Immortality; their relics (and any other wizards and
    cards of earlier tied battles) to their discard pile."""
    w = r.winner
    wiz = s.wizard_of(w)
    r.triggered = [c for c in (*s.wizards[w], *s.relics[w]) if s.data[c].has("on_win") and not s.nullified(c)]
    if wiz:
        s.wizards[w].remove(wiz)
        s.halls[w].append(wiz)
        s.say(f"P{w + 1} wins the round: {s.label(wiz)} enters the Hall of Immortality "
              f"({len(s.halls[w])} of {s.hall_to_win})")
    s.discards[w].extend((*s.tied[w], *s.wizards[w], *s.relics[w]))
    s.tied[w] = []
    s.wizards[w] = []
    s.relics[w] = []
    if len(s.halls[w]) >= s.hall_to_win:
        s.finish(w)
        return
    r.step = RoundStep.HAND_CHECK
    r.index = 0


def hand_check(s: WizardsAndRelicsState, r: Round) -> None:
    """Phase 5 begins: from the Master Wizard clockwise, every player above 7 cards discards down to 7; a discard
    trigger that brings cards back (Dusty Tome, Everburning Heart) means discarding again, until every hand holds at
    most 7. Then the spoils."""
    order = s.order()
    while r.index < len(order):
        seat = order[r.index]
        if len(s.hands[seat]) > HAND:
            s.ask(Choose(seat=seat, ask=Ask.HAND_CHECK, left=len(s.hands[seat]) - HAND))
            return
        r.index += 1
    if any(len(h) > HAND for h in s.hands):
        r.index = 0
        return
    r.index = 0
    r.step = RoundStep.SPOILS


# -- the reveal -------------------------------------------------------------------------------------------------
@RULES.run(Reveal)
def run_reveal(s: WizardsAndRelicsState, rv: Reveal) -> bool:
    d = s.data
    if rv.step is RevealStep.WIZARDS:
        for x in s.fighters:
            for w in s.wizards[x]:
                s.say(f"P{x + 1} reveals {s.label(w)} ({d.facts(w)})")
            if not s.wizards[x]:
                s.say(f"P{x + 1} has no wizard in this battle")
        rv.step = RevealStep.RELICS
        rv.index = -1
        return False
    if rv.step is RevealStep.RELICS:
        if rv.index == -1:
            for x in s.fighters:
                for c in s.relics[x]:
                    s.say(f"P{x + 1} reveals {s.label(c)} ({d.facts(c)})")
            rv.index = 0
            rv.todo = []
            if s.fighters:
                rv.todo = list(s.relics[s.fighters[0]])
        while rv.index < len(s.fighters):
            seat = s.fighters[rv.index]
            todo = [c for c in rv.todo if d[c].effects and c not in s.ignored and c not in s.resolved]
            if len(todo) > 1:
                s.ask(Choose(seat=seat, ask=Ask.ORDER, left=len(todo)))
                return False
            if todo:
                c = todo[0]
                rv.todo.remove(c)
                s.resolved.append(c)
                s.stack.append(Effects(seat=seat, card=c, subject=s.wizard_of(seat)))
                return False
            rv.index += 1
            rv.todo = list(s.relics[s.fighters[rv.index]]) if rv.index < len(s.fighters) else []
        rv.step = RevealStep.ADVANTAGE
        return False
    if rv.step is RevealStep.ADVANTAGE:
        say_advantage(s)
        rv.step = RevealStep.SHRINE
        rv.index = 0
        return False
    if rv.step is RevealStep.SHRINE:
        if s.shrine:
            pushes = []
            for x in s.fighters:
                for w in s.wizards[x]:
                    if affected(d[s.shrine[0]], d[w]):
                        pushes.append(Effects(seat=x, card=s.shrine[0], subject=w))
            s.stack.extend(reversed(pushes))
        rv.step = RevealStep.ABILITIES
        return False
    if rv.step is RevealStep.ABILITIES:
        pushes = []
        for x in s.fighters:
            w = s.wizard_of(x)
            if w and d[w].effects:
                pushes.append(Effects(seat=x, card=w, subject=w))
        s.stack.extend(reversed(pushes))
        rv.step = RevealStep.DONE
        return False
    s.stack.pop()
    return False


def say_advantage(s: WizardsAndRelicsState) -> None:
    if s.no_advantage:
        s.say("No wizard has advantage this round")
        return
    for x in s.fighters:
        for w in s.wizards[x]:
            if s.has_advantage(w, x):
                s.say(f"P{x + 1}'s {s.label(w)} has advantage: +1")


@RULES.run(Enter)
def run_enter(s: WizardsAndRelicsState, e: Enter) -> bool:
    """An extra wizard enters play: advantage is checked again, then the shrine (if it affects it), then its
    ability."""
    d = s.data
    if e.step is EnterStep.ADVANTAGE:
        say_advantage(s)
        e.step = EnterStep.SHRINE
        return False
    if e.step is EnterStep.SHRINE:
        e.step = EnterStep.ABILITY
        if s.shrine and affected(d[s.shrine[0]], d[e.wizard]):
            s.stack.append(Effects(seat=e.seat, card=s.shrine[0], subject=e.wizard))
        return False
    if e.step is EnterStep.ABILITY:
        e.step = EnterStep.DONE
        if d[e.wizard].effects and e.wizard not in s.silenced:
            s.stack.append(Effects(seat=e.seat, card=e.wizard, subject=e.wizard))
        return False
    s.stack.pop()
    return False
