"""The state of a game of Covenant of Wizards (``../shared/rules/covenant.txt``): its fields, the small queries
the rules ask (abilities, VP, duel and quest bonuses), how cards move, the turn sequence, and the OpenSpiel-like
surface (legal actions, apply, observation, sampling what a seat cannot see).

A turn: Research (draw 1, Spell Forge-like items draw a shown extra, discard down to the hand limit), Event
(events, non-combat spells, wizard actions, resource grants), Duel (one Wizards Duel), Summon (one card, plus
the ability extras), Adventure (one quest, two rounds). A phase with nothing to do but ``end`` is skipped; what a
phase offers is in ``phases.py``. Everything that takes several steps is pending work on ``stack``
(``pending.py``), run until somebody must decide (:meth:`~.game.CovenantGame.advance`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import field
from typing import Self

from wizprint.errors import EngineBug
from wizprint.solo.kernel import (
    Declared,
    Outcome,
    Rng,
    Rules,
    State,
    added,
    declare,
    transient,
    value,
    zone,
    zone_map,
)

from .data import ABILITY_SETS, HAND_LIMIT, NEEDS, ROUND_LIMIT, WIN_VP, CovenantData, CovenantTermination
from .pending import CovenantPending, Duel, Negation, Play, Quest, Roll, RollFor, WizardAction
from .texts import cards, listed

# the other seats from each seat's left, by the number of players (``rivals``)
_RIVALS = {n: tuple(tuple((seat + i) % n for i in range(1, n)) for seat in range(n)) for n in range(2, 9)}


class Place(enum.StrEnum):
    HAND = "h"
    DECK = "d"


@value
class Sighting(Declared):
    """Where a seat has seen a card it cannot see now: in a seat's hand (``index``: the seat) or in the deck
    (``index``: its position, 0 the bottom). Written ``h1`` or ``d36`` in observations."""

    place: Place = Place.HAND
    index: int = 0

    @property
    def code(self) -> str:
        return f"{self.place.value}{self.index}"


IN_HAND = tuple(Sighting(Place.HAND, i) for i in range(16))  # shared values: a card seen in seat i's hand


class Phase(enum.StrEnum):
    EVENT = "event"
    DUEL = "duel"
    SUMMON = "summon"
    ADVENTURE = "adventure"
    DISCARD = "discard"  # Research: the turn player discards down to the hand limit
    OVER = "over"


PHASES = (Phase.EVENT, Phase.DUEL, Phase.SUMMON, Phase.ADVENTURE)


class SummonSlot(enum.StrEnum):
    """The summons of a turn: the one every player has, and one extra per ability that gives it."""

    BASE = "base"
    WIZARD = "xwizard"  # Adventurer
    ITEM = "xitem"  # Maker
    FOLLOWER = "xfollower"  # Nature


# the code of each kind of pending work, registered by type (``windows.py``, ``duel.py``, ``quest.py``)
RULES: Rules[CovenantState] = Rules("covenant")



@declare
class CovenantState(State[CovenantData]):
    """A game of Covenant of Wizards: its fields, the small queries the rules ask, how cards move and the turn
    sequence; the pending work's code is registered in :data:`RULES`, what a phase offers is in ``phases.py``. The
    loop that resolves the pending work, what a seat sees, the decisions in words and the load's checks are added by
    :class:`~.game.CovenantGame`, the class the engine declares. Piles are lists whose top card is the end of the
    list."""

    deck: list[str] = zone("deck")
    discard: list[str] = zone("discard")
    hands: list[list[str]] = zone("hand")
    wizards: list[list[str]] = zone("wizards")  # wizards in play, per seat
    attached: dict[str, list[str]] = zone_map("attached")  # wizard -> the items and followers attached to it
    followers: list[list[str]] = zone("followers")  # stand-alone followers, per seat
    resources: list[list[str]] = zone("resources")
    quests: list[list[str]] = zone("quests")  # completed quests, per seat
    limbo: list[str] = zone("limbo")  # cards being played (a spell, an event, the duel card, the quest)
    stack: list[CovenantPending] = field(default_factory=list)  # what is being resolved, innermost last
    seen: list[dict[str, Sighting]] = field(default_factory=list)  # per seat: hidden cards it has seen, and where
    phase: Phase = Phase.EVENT
    turn_player: int = 0
    turn_number: int = 0
    current_seat: int = 0  # who decides now
    acted: list[str] = field(default_factory=list)  # wizards that used their action this turn
    duelled: list[str] = field(default_factory=list)
    granted: dict[str, tuple[str, ...]] = field(default_factory=dict)  # wizard -> abilities granted this turn
    # each wizard's abilities and what they came from (``abilities``; never saved, empty in a clone)
    ability_memo: dict[str, tuple[list[str] | None, tuple[str, ...], frozenset[str]]] | None = transient()
    grants_used: list[str] = field(default_factory=list)  # resources whose grant_one was used this turn
    summons: list[SummonSlot] = field(default_factory=list)  # summon slots used this turn
    skips: list[int] = field(default_factory=list)  # turns each seat must miss
    # the seat played with printed cards on a real table (``solo table``), or -1: the program does not know its hand,
    # so its phases are skipped only when no hand could act in them, and a search by another seat is made by that
    # person laying out the cards the searcher may take (a :class:`~.pending.Lookup`)
    table_seat: int = added(lambda: -1)

    SEATS_IN_RANGE = ("turn_player", "current_seat")
    PER_SEAT = ("hands", "wizards", "followers", "resources", "quests", "seen", "skips")
    ENDINGS = CovenantTermination

    # -- set-up -----------------------------------------------------------------------------------------------
    @classmethod
    def blank(cls, data: CovenantData, players: int, seed: int, variant: str = "") -> Self:
        """An empty table: no card anywhere yet."""
        n = players
        return cls(data=data, players=n, variant=variant, rng=Rng(seed), hands=[[] for _ in range(n)],
                   wizards=[[] for _ in range(n)], followers=[[] for _ in range(n)],
                   resources=[[] for _ in range(n)], quests=[[] for _ in range(n)], seen=[{} for _ in range(n)],
                   skips=[0] * n)

    # -- small queries ----------------------------------------------------------------------------------------
    @property
    def pending(self) -> CovenantPending | None:
        """The work being resolved now (the top of the stack), or None in a phase's own choices."""
        return self.stack[-1] if self.stack else None

    def rivals(self, seat: int) -> list[int]:
        """The other seats, from ``seat``'s left (clockwise)."""
        n = self.players
        known = _RIVALS.get(n)
        return list(known[seat]) if known is not None and 0 <= seat < n else [(seat + i) % n for i in range(1, n)]

    def controller(self, card: str) -> int:
        """The seat controlling a card in play, or -1."""
        for s in range(self.players):
            if card in self.wizards[s] or card in self.followers[s] or card in self.resources[s]:
                return s
        w = self.holder(card)
        if w:
            return self.controller(w)
        return -1

    def holder(self, card: str) -> str:
        """The wizard ``card`` is attached to, or ''."""
        for w, lst in self.attached.items():
            if card in lst:
                return w
        return ""

    def abilities(self, wizard: str) -> frozenset[str]:
        """The wizard's abilities: its own, its items' and followers' grants, those granted this turn (gathered
        once per combination and kept with the data)."""
        att = self.attached.get(wizard)
        granted = self.granted.get(wizard, ())
        memo = self.ability_memo
        if memo is None:
            memo = self.ability_memo = {}
        m = memo.get(wizard)
        if m is not None and m[0] == att and m[1] == granted:
            return m[2]
        key = (wizard, tuple(att) if att else (), granted)
        got = self.data.abilities.get(key)
        if got is None:
            c = self.data.cards
            out = set(c[wizard].abilities)
            for a in key[1]:
                out.update(c[a].grants)
            out.update(key[2])
            if len(self.data.abilities) >= ABILITY_SETS:
                self.data.abilities.clear()
            got = self.data.abilities[key] = frozenset(out)
        memo[wizard] = (list(att) if att is not None else None, granted, got)
        return got

    def has_ability(self, seat: int, ability: str) -> bool:
        return any(ability in self.abilities(w) for w in self.wizards[seat])

    def items_of(self, seat: int) -> list[str]:
        c = self.data.cards
        return [a for w in self.wizards[seat] for a in self.attached.get(w, ()) if c[a].type == "item"]

    def followers_of(self, seat: int) -> list[str]:
        c = self.data.cards
        return list(self.followers[seat]) + [a for w in self.wizards[seat] for a in self.attached.get(w, ())
                                             if c[a].type == "follower"]

    def in_play(self, seat: int) -> list[str]:
        out = list(self.wizards[seat]) + list(self.followers[seat]) + list(self.resources[seat])
        for w in self.wizards[seat]:
            out.extend(self.attached.get(w, ()))
        return out

    def vp(self, seat: int) -> int:
        c = self.data.cards
        attached = self.attached
        v = 0  # the cards of in_play and the quests, summed without listing them (every check for a win asks)
        for w in self.wizards[seat]:
            v += c[w].vp
            for a in attached.get(w, ()):
                v += c[a].vp
        for x in self.followers[seat]:
            v += c[x].vp
        for x in self.resources[seat]:
            v += c[x].vp
        for q in self.quests[seat]:
            v += c[q].vp
        return v

    def hand_limit(self, seat: int) -> int:
        return HAND_LIMIT + (1 if self.has_ability(seat, "scry") else 0)

    def duel_strength(self, wizard: str) -> int:
        """What is added to a wizard's 3d6 duel roll before spells."""
        c = self.data.cards
        ab = self.abilities(wizard)
        return (2 if "dueler" in ab else 0) + (1 if "nature" in ab else 0) + sum(
            c[a].duel_bonus for a in self.attached.get(wizard, ()))

    def quest_bonus(self, quest: str, parts: Iterable[str]) -> int:
        """What is added to the 2d6 Quest Level for these participants (before spells)."""
        c = self.data.cards
        qd = c[quest].design
        total = c[quest].quest_level
        for p in parts:
            total += 1
            info = c[p]
            if info.type == "wizard":
                ab = self.abilities(p)
                total += (2 if "adventurer" in ab else 0) + (1 if "nature" in ab else 0)
                total += sum(c[a].quest_bonus for a in self.attached.get(p, ()) if c[a].type == "item")
            for q, n in info.quest_bonus_on:
                if q == qd:
                    total += n
        return total

    def quest_candidates(self, seat: int) -> list[str]:
        """Wizards that may go on a quest now, and stand-alone followers."""
        return sorted([w for w in self.wizards[seat] if w not in self.acted and w not in self.duelled]
                      + list(self.followers[seat]))

    def label(self, card: str) -> str:
        return self.data.labels[card]

    def names(self, cs: Iterable[str]) -> str:
        """``W10 Mentalist, I05 Staff of Power and F02 Apprentice``."""
        labels = self.data.labels
        return listed([labels[x] for x in cs])

    def opening_seat(self) -> int:
        return 0

    def turns_played(self) -> int:
        return self.turn_number

    def can_respond(self, seat: int) -> bool:
        """Asked in a spell window: holds a card and controls a wizard (public facts only)."""
        return bool(self.hands[seat]) and bool(self.wizards[seat])

    def nearest_index(self, kind: type[CovenantPending] | tuple[type[CovenantPending], ...]) -> int:
        """The position on the stack of the innermost work of this kind, or -1."""
        for j in range(len(self.stack) - 1, -1, -1):
            if isinstance(self.stack[j], kind):
                return j
        return -1

    # -- what each seat has seen ------------------------------------------------------------------------------
    def forget(self, card: str) -> None:
        for k in self.seen:
            k.pop(card, None)

    def forget_deck(self) -> None:
        for i, k in enumerate(self.seen):
            if any(z.place is Place.DECK for z in k.values()):
                self.seen[i] = {c: z for c, z in k.items() if z.place is not Place.DECK}

    def reveal_in_hand(self, seat: int, card: str) -> None:
        """Everybody now knows ``card`` is in ``seat``'s hand."""
        for s in range(self.players):
            if s == seat:
                self.seen[s].pop(card, None)
            else:
                self.seen[s][card] = IN_HAND[seat]

    def see_in_hand(self, seat: int, card: str, holder: int) -> None:
        """``seat`` sees ``card`` in ``holder``'s hand."""
        self.seen[seat][card] = IN_HAND[holder]

    def see_in_deck(self, seat: int, index: int) -> None:
        """``seat`` sees the deck's card at ``index`` (0 the bottom) where it is."""
        self.seen[seat][self.deck[index]] = Sighting(Place.DECK, index)

    # -- card movement ----------------------------------------------------------------------------------------
    def shuffle_deck(self) -> None:
        self.rng.shuffle(self.deck)
        self.forget_deck()

    def draw(self, seat: int, n: int, quiet: bool = False, why: str = "") -> list[str]:
        """``seat`` draws ``n`` cards (fewer when the deck and the discard pile run out); the log says why."""
        out: list[str] = []
        for _ in range(n):
            if not self.deck:
                if not self.discard:
                    break
                self.deck = self.discard
                self.discard = []
                self.shuffle_deck()
                self.say("The deck is empty: the discard pile is shuffled to form a new deck")
            c = self.deck.pop()
            for s in range(self.players):
                k = self.seen[s]
                if c in k:
                    if s == seat:
                        del k[c]
                    else:
                        k[c] = IN_HAND[seat]
            self.hands[seat].append(c)
            self.note_draw(seat, c)
            out.append(c)
        if out and not quiet:
            self.say(f"P{seat + 1} draws {cards(len(out))}" + (f" ({why})" if why else ""))
            self.say(f"you draw {self.names(out)}", (seat,))
        return out

    def from_hand(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.forget(card)
        if "#" in card:  # a copy of a card held twice: who saw one copy cannot tell which copy left the hand
            design = card.partition("#")[0]
            held = IN_HAND[seat]
            for k in self.seen:
                for x in [x for x, z in k.items() if z == held and x.partition("#")[0] == design]:
                    del k[x]

    def discard_from_hand(self, seat: int, card: str) -> None:
        self.from_hand(seat, card)
        self.discard.append(card)

    def to_limbo(self, seat: int, card: str) -> None:
        self.from_hand(seat, card)
        self.limbo.append(card)
        self.note_play(seat, card)

    def limbo_to_discard(self, card: str) -> None:
        if card in self.limbo:
            self.limbo.remove(card)
            self.discard.append(card)

    def take_out(self, card: str) -> list[str]:
        """Remove a card from play; returns what was attached to it (still to be placed)."""
        for s in range(self.players):
            if card in self.wizards[s]:
                self.wizards[s].remove(card)
                self.granted.pop(card, None)
                return self.attached.pop(card, [])
            if card in self.followers[s]:
                self.followers[s].remove(card)
                return []
            if card in self.resources[s]:
                self.resources[s].remove(card)
                return []
        w = self.holder(card)
        if w:
            lst = self.attached[w]
            lst.remove(card)
            if not lst:
                del self.attached[w]
            return []
        raise EngineBug(f"{card} is not in play")

    def remove(self, card: str, how: str, why: str = "") -> None:
        """Destroyed or slain: the card and everything attached to it go to the discard pile."""
        seat = self.controller(card)
        rest = self.take_out(card)
        self.discard.append(card)
        self.discard.extend(rest)
        extra = f", and with it {self.names(rest)}" if rest else ""
        self.say(f"P{seat + 1}'s {self.label(card)} is {how}{extra}" + (f": {why}" if why else ""))

    def attach(self, card: str, wizard: str) -> None:
        self.attached.setdefault(wizard, []).append(card)

    def move_to(self, card: str, seat: int, wizard: str, why: str = "") -> None:
        """A stolen card changes hands (an item or attaching follower joins ``wizard``)."""
        owner = self.controller(card)
        info = self.data.cards[card]
        rest = self.take_out(card)
        if info.type == "wizard":
            self.wizards[seat].append(card)
            if rest:
                self.attached[card] = rest
        elif info.type == "resource":
            self.resources[seat].append(card)
        elif wizard:
            self.attach(card, wizard)
        else:
            self.followers[seat].append(card)
        to = f"; {self.label(wizard)} carries it" if wizard and info.type == "item" else (
            f"; it joins {self.label(wizard)}" if wizard else "")
        self.say(f"P{seat + 1} takes P{owner + 1}'s {self.label(card)}" + (f" ({why})" if why else "") + to)
        self.check_win()

    def check_win(self) -> bool:
        """True when the game is over (a seat has reached 25 VP now, or it was over already)."""
        if self.result is not None:
            return True
        vps = [self.vp(s) for s in range(self.players)]
        winners = tuple(s for s in range(self.players) if vps[s] >= WIN_VP)
        if not winners:
            return False
        self.result = Outcome(winners, tuple(float(v) for v in vps), f"P{winners[0] + 1} reaches {vps[winners[0]]} VP",
                              CovenantTermination.VP_GOAL, (vps[winners[0]],))
        self.phase = Phase.OVER
        self.say(f"Game over: {self.result.reason}")
        return True

    # -- turns ------------------------------------------------------------------------------------------------
    def begin_turn(self, p: int) -> None:
        n = self.players
        for _ in range(n * 8):
            if self.skips[p] > 0:
                self.skips[p] -= 1
                self.say(f"P{p + 1} misses this turn")
                p = (p + 1) % n
                continue
            break
        self.turn_player = p
        self.turn_number += 1
        self.acted, self.duelled, self.grants_used, self.summons = [], [], [], []
        self.granted = {}
        self.say(f"Turn {self.turn_number}: P{p + 1}")
        self.research()

    def research(self) -> None:
        p = self.turn_player
        c = self.data.cards
        self.draw(p, 1, why="Research")
        for w in list(self.wizards[p]):
            for a in list(self.attached.get(w, ())):
                unless = c[a].extra_research
                if not unless:
                    continue
                got = self.draw(p, 1, quiet=True)
                if not got:
                    continue
                x = got[0]
                if c[x].type == unless:
                    self.reveal_in_hand(p, x)
                    self.say(f"P{p + 1} shows {self.label(x)}, the extra card of {self.label(a)}: a "
                             f"{unless.capitalize()}, kept")
                else:
                    self.discard_from_hand(p, x)
                    self.say(f"P{p + 1} shows {self.label(x)}, the extra card of {self.label(a)}: not a "
                             f"{unless.capitalize()}, discarded")
        self.phase = Phase.DISCARD if len(self.hands[p]) > self.hand_limit(p) else Phase.EVENT

    def end_phase(self) -> None:
        if self.phase is Phase.ADVENTURE:
            self.end_turn()
        else:
            self.phase = PHASES[PHASES.index(self.phase) + 1]

    def end_turn(self) -> None:
        self.granted = {}
        if self.turn_number >= ROUND_LIMIT * self.players:
            vps = [self.vp(s) for s in range(self.players)]
            best = max(vps)
            winners = tuple(s for s in range(self.players) if vps[s] == best)
            self.result = Outcome(winners, tuple(float(v) for v in vps),
                                  f"turn limit: {self.turn_number} turns played, most VP {best}",
                                  CovenantTermination.TURN_LIMIT)
            self.phase = Phase.OVER
            self.say(f"Game over: {self.result.reason}")
            return
        self.begin_turn((self.turn_player + 1) % self.players)

    # -- pending work ---------------------------------------------------------------------------------------------
    def push_negation(self, what: str, source: str, owner: int) -> None:
        self.stack.append(Negation(what=what, source=source, owner=owner, order=tuple(self.rivals(owner))))

    def push_roll(self, seat: int, dice: int, slot: RollFor, label: str) -> None:
        self.stack.append(Roll(seat=seat, dice=dice, slot=slot, label=label, order=(*self.rivals(seat), seat)))

    def push_play(self, seat: int, card: str, what: str, target: str) -> None:
        self.stack.append(Play(seat=seat, card=card, what=what, target=target))

    def roll_dice(self, r: Roll, again: bool = False) -> int:
        """Roll the dice of a roll on the stack (the log says what for)."""
        what = self.roll_what(r)
        ask = f"{what}: P{r.seat + 1} rolls"  # (the question put to a person on a real table)
        ds = [self.roll(6, ask if r.dice == 1 else f"{ask}, die {i + 1} of {r.dice}") for i in range(r.dice)]
        v = sum(ds)
        self.say(f"P{r.seat + 1} rolls {'again ' if again else ''}{'+'.join(map(str, ds))}" +
                 (f" = {v}" if r.dice > 1 else "") + f": {what}")
        return v

    def roll_parent(self, r: Roll) -> CovenantPending | None:
        """The pending work a roll is made for (the item under it on the stack), or None."""
        st = self.stack
        j = len(st) - 1 if st and st[-1] is r else next((i for i, f in enumerate(st) if f is r), -1)
        return st[j - 1] if j > 0 else None

    def roll_what(self, r: Roll) -> str:
        """What a roll is, for the log: ``the Danger of Q03 Banish the Demon, round 1``, ``W15 Alchemist's duel
        roll``, ``W15 Alchemist's Maker action (a 6 finds an Item in the deck)``."""
        parent = self.roll_parent(r)
        if r.slot is RollFor.ACTION and isinstance(parent, WizardAction):
            need = NEEDS.get(parent.ability, (0, ""))[1]
            act = f"{self.label(parent.wizard)}'s {parent.ability.capitalize()} action"
            return f"{act} ({need})" if need else act
        if isinstance(parent, Duel):
            w = parent.challenger if r.slot is RollFor.CHALLENGER else parent.defender
            return f"{self.label(w)}'s duel roll" if w else "a duel roll"
        if isinstance(parent, Quest):
            what = "Danger" if r.slot is RollFor.DANGER else "Quest Level"
            return f"the {what} of {self.label(parent.card)}, round {parent.round}"
        return r.label

    # -- the API ------------------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if self.phase is Phase.OVER else self.current_seat

    def _resample(self, into: CovenantState, seat: int, rng: Rng) -> None:
        """The other seats' hands and the deck, keeping every card ``seat`` has seen where it saw it; what the other
        seats know is cut to what ``seat`` can tell they know."""
        known = self.seen[seat]
        n = self.players
        pool: list[str] = []
        for t in range(n):
            if t != seat:
                pool.extend(x for x in self.hands[t] if known.get(x) != IN_HAND[t])
        fixed_deck: dict[int, str] = {}
        for i, x in enumerate(self.deck):
            z = known.get(x)
            if z is not None and z.place is Place.DECK and z.index == i:
                fixed_deck[i] = x
            else:
                pool.append(x)
        pool.sort()
        rng.shuffle(pool)
        for t in range(n):
            if t != seat:
                keep = sorted(x for x in self.hands[t] if known.get(x) == IN_HAND[t])
                into.hands[t] = keep + [pool.pop() for _ in range(len(self.hands[t]) - len(keep))]
        into.deck = [fixed_deck[i] if i in fixed_deck else pool.pop() for i in range(len(self.deck))]
        own = IN_HAND[seat]
        for t in range(n):
            if t != seat:
                into.seen[t] = {x: z for x, z in self.seen[t].items() if z == own or known.get(x) == z}

    def probe(self) -> dict[str, object]:
        out = super().probe()
        out |= {"turn": self.turn_number, "turn_player": self.turn_player, "phase": str(self.phase),
                "current": self.current_player, "discard": len(self.discard), "deck": len(self.deck),
                "discard_pile": list(self.discard), "limbo": list(self.limbo),
                "deck_top": list(reversed(self.deck[-5:]))}
        for s in range(self.players):
            out[f"vp.{s}"] = self.vp(s)
            out[f"hand_size.{s}"] = len(self.hands[s])
            out[f"hand.{s}"] = sorted(self.hands[s])
            out[f"in_play.{s}"] = sorted(self.in_play(s))
            out[f"wizards.{s}"] = sorted(self.wizards[s])
            out[f"attached.{s}"] = {w: sorted(self.attached[w]) for w in sorted(self.wizards[s])
                                    if self.attached.get(w)}
            out[f"followers.{s}"] = sorted(self.followers[s])
            out[f"resources.{s}"] = sorted(self.resources[s])
            out[f"quests.{s}"] = sorted(self.quests[s])
            out[f"skips.{s}"] = self.skips[s]
            out[f"seen.{s}"] = sorted(self.seen[s])
        return out
