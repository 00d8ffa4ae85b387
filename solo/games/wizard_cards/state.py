"""Wizard Cards (``../shared/rules/wizard-cards.txt``): two wizards cast spells from one shared spell pile.

A turn: the turn player's ward components from last turn are dismissed; if they hold cards they cast one spell:
the first component is free, each Vigor adds plays; they may stop once the spell has begun. Wrath makes the rival
(the current player while choosing) move cards from hand to their damage pile after their wards absorb what they
can. Then the turn player draws back up to five. When the pile runs out the final phase begins; the game ends after
the next turn of the player who did not go first; the smaller damage pile wins. Variants: ``hectic`` (Vigor costs
no play; draw up to five at the start of a turn too) and ``constructed`` (a draft builds each player's own deck).

Action keys: ``play C`` (``play WM ward``: a Wild Magic card as the school named), ``stop`` (end the spell),
``discard C`` (a card taken as damage), ``draft SUIT`` (constructed: the top card of a suit's pile).
"""

from __future__ import annotations

import enum
from dataclasses import field
from typing import Self

from wizprint.cards.markup import plural
from wizprint.solo.kernel import Action, Checks, Outcome, Rng, State, declare, zone, zone_map

from .data import RANKS, SUITS, WizardCardsData, WizardCardsTermination

HAND = 5
STOP = Action("stop")


def cards(n: int) -> str:
    """``1 card``, ``3 cards``."""
    return plural(n, "card")


class Phase(enum.StrEnum):
    DRAFT = "draft"  # constructed: the players draft their decks
    SPELL = "spell"  # the turn player casts
    DISCARD = "discard"  # the rival chooses the cards a Wrath sends to their damage pile


@declare
class WizardCardsState(State[WizardCardsData]):
    """A game of Wizard Cards: its fields and every rule (what a seat sees, and the decisions in words, are added by
    :class:`~.game.WizardCardsGame`, the class the engine declares). Piles are lists whose top card is the end of
    the list."""

    phase: Phase = Phase.SPELL
    first_player: int = 0  # who took the first turn
    turn_player: int = 0
    turn_number: int = 0  # turns played before this one
    spell_pile: list[str] = zone("spell_pile")  # the shared pile (empty in the constructed variant)
    decks: list[list[str]] = zone("deck")  # each seat's own deck (constructed variant)
    discard: list[str] = zone("discard")  # the spell discard pile
    hands: list[list[str]] = zone("hand")
    damage: list[list[str]] = zone("damage")
    wards: list[list[str]] = zone("ward")  # the ward components standing guard, per seat, oldest first
    ward_left: dict[str, int] = field(default_factory=dict)  # ward component -> damage it can still absorb
    spell: list[str] = zone("spell")  # this turn's components that are discarded when the spell ends (not wards)
    cast: list[str] = field(default_factory=list)  # every component cast this turn, in order (for the view)
    plays_left: int = 0
    damage_due: int = 0  # cards the rival still has to send to damage
    last_turn: int | None = None  # the game ends after this turn number (the final phase)
    draft_piles: dict[str, list[str]] = zone_map("draft_pile")  # constructed: one pile per suit, king on top
    drafter: int = 0
    first_drafter: int = 0

    SEATS_IN_RANGE = ("first_player", "turn_player", "drafter", "first_drafter")
    PER_SEAT = ("hands", "damage", "wards")
    ENDINGS = WizardCardsTermination

    # -- set-up -----------------------------------------------------------------------------------------------
    @classmethod
    def new(cls, data: WizardCardsData, players: int, seed: int, variant: str) -> Self:
        s = cls.blank(data, seed, variant)
        if variant == "constructed":
            s.start_draft(s.pick(["0", "1"], "seat to draft first"))
            return s
        deck = sorted(data.spells)
        s.rng.shuffle(deck)
        s.spell_pile = deck
        for seat in (0, 1):
            s.draw_to(seat, HAND, "the starting hand")
        s.start_turn()
        return s

    @classmethod
    def blank(cls, data: WizardCardsData, seed: int, variant: str) -> Self:
        """An empty table: no card anywhere yet."""
        return cls(data=data, players=2, variant=variant, rng=Rng(seed), hands=[[], []], damage=[[], []],
                   wards=[[], []], decks=[[], []] if variant == "constructed" else [])

    def start_draft(self, first: str) -> None:
        """The constructed variant's draft: the four suits in piles (ace at the bottom, king on top), a Wild Magic
        card in each deck, and ``first`` (a seat) picks first."""
        self.phase = Phase.DRAFT
        for suit in SUITS:
            pile = [c for c in self.data.spells if self.data.spells[c].suit == suit]
            pile.sort(key=lambda c: RANKS.index(self.data.spells[c].rank))
            self.draft_piles[suit] = pile
        for seat, j in enumerate(self.data.jokers[:2]):
            self.decks[seat].append(j)
        self.drafter = self.first_drafter = int(first)
        self.say(f"Draft: P{self.drafter + 1} picks first")

    def check_rules(self, chk: Checks) -> None:
        """A loaded game: two players; a deck per seat exactly in the constructed variant; each ward component's
        absorption from 1 to its magnitude; the cards of this turn's spell among those cast; the phase matching the
        piles (a draft only in the constructed variant, a discard only with damage due from a hand that holds cards);
        the counts in range."""
        spells = self.data.spells
        constructed = self.variant == "constructed"
        chk.count("state.players", self.players, 2, 2)
        if len(self.decks) != (2 if constructed else 0):
            chk.fail("state.decks", "expected one deck per seat in the constructed variant, and none otherwise")
        chk.done()
        warding = {c for ws in self.wards for c in ws}
        chk.keys_known("state.ward_left", self.ward_left, warding, "ward component")
        for c in warding - set(self.ward_left):
            chk.fail("state.ward_left", f"ward component {c} has no absorption left")
        for c, n in self.ward_left.items():
            if c in spells:
                chk.count(f"state.ward_left.{c}", n, 1, spells[c].magnitude)
        chk.all_known("state.cast", self.cast, spells, distinct=True)
        if not set(self.spell) <= set(self.cast):
            chk.fail("state.spell", "a card of the spell was not cast this turn")
        chk.keys_known("state.draft_piles", self.draft_piles, SUITS, "suit")
        chk.count("state.turn_number", self.turn_number, 0, self.step_cap)
        chk.count("state.plays_left", self.plays_left, 0, 1000)
        chk.count("state.damage_due", self.damage_due, 0, 1000)
        if self.last_turn is not None:
            chk.count("state.last_turn", self.last_turn, 0, self.step_cap)
        if self.result is None:
            if self.phase == Phase.DRAFT and not constructed:
                chk.fail("state.phase", "only the constructed variant has a draft")
            if self.phase == Phase.DRAFT and sorted(self.draft_piles) != sorted(SUITS):
                chk.fail("state.draft_piles", f"expected a pile for each suit ({', '.join(SUITS)})")
            if self.phase == Phase.DISCARD and (self.damage_due < 1 or not self.hands[1 - self.turn_player]):
                chk.fail("state.phase", "a discard with no damage due, or from an empty hand")
            if self.phase != Phase.DISCARD and self.damage_due:
                chk.fail("state.damage_due", "damage is due outside the discard phase")
            if self.phase == Phase.SPELL and self.plays_left < 1:
                # a spell closes as soon as its plays are used up: a player deciding in it has at least one left
                chk.fail("state.plays_left", "a spell waiting for its caster has at least one play left")

    # -- cards ------------------------------------------------------------------------------------------------
    def deck_of(self, seat: int) -> list[str]:
        return self.decks[seat] if self.decks else self.spell_pile

    def draw_to(self, seat: int, n: int, why: str = "back up to five") -> None:
        deck = self.deck_of(seat)
        hand = self.hands[seat]
        drew = []
        while len(hand) < n and deck:
            c = deck.pop()
            hand.append(c)
            drew.append(c)
            self.note_draw(seat, c)
        if drew:
            self.say(f"P{seat + 1} draws {cards(len(drew))} ({why})")
            self.say(f"you draw {self.data.names(drew)}", (seat,))
        self.check_exhausted()

    def draw(self, seat: int, n: int) -> list[str]:
        deck = self.deck_of(seat)
        drew = []
        for _ in range(n):
            if not deck:
                break
            c = deck.pop()
            self.hands[seat].append(c)
            drew.append(c)
            self.note_draw(seat, c)
        self.check_exhausted()
        return drew

    def check_exhausted(self) -> None:
        if self.last_turn is not None or self.phase == Phase.DRAFT:
            return
        if (not self.spell_pile) if not self.decks else any(not d for d in self.decks):
            # the turn player went first: the rival takes one more turn; else the first player, then them
            self.last_turn = self.turn_number + (1 if self.turn_player == self.first_player else 2)
            self.say(f"The spell pile is empty: the final phase begins; the game ends after turn {self.last_turn + 1}")

    # -- turns ------------------------------------------------------------------------------------------------
    def start_turn(self) -> None:
        """Begin the turn player's turn; a player with no cards goes straight to drawing."""
        while True:
            p = self.turn_player
            if self.wards[p]:
                left = sum(self.ward_left[c] for c in self.wards[p])
                self.say(f"P{p + 1}'s ward {self.data.names(self.wards[p])} is dismissed ({left} unused)")
                for c in self.wards[p]:
                    self.discard.append(c)
                    del self.ward_left[c]
                self.wards[p] = []
            if self.variant == "hectic":
                self.draw_to(p, HAND, "up to five at the start of the turn")
            self.spell = []
            self.cast = []
            self.plays_left = 1
            self.phase = Phase.SPELL
            if self.hands[p]:
                return
            self.say(f"P{p + 1} has no cards: no spell this turn")
            if self.end_turn():
                return

    def end_turn(self) -> bool:
        """Finish the turn player's turn; True when the game is over."""
        p = self.turn_player
        self.discard.extend(self.spell)
        self.spell = []
        self.cast = []
        self.draw_to(p, HAND)
        if self.last_turn is not None and self.turn_number >= self.last_turn:
            self.finish()
            return True
        self.turn_number += 1
        self.turn_player = 1 - p
        return False

    def finish(self) -> None:
        d = [len(x) for x in self.damage]
        if d[0] == d[1]:
            self.result = Outcome((0, 1), (float(d[0]), float(d[1])), f"tie: both damage piles hold {d[0]} cards",
                                  WizardCardsTermination.TIE)
        else:
            w = 0 if d[0] < d[1] else 1
            self.result = Outcome((w,), (float(d[0]), float(d[1])),
                                  f"P{w + 1} has the smaller damage pile ({d[w]} against {d[1 - w]})",
                                  WizardCardsTermination.SMALLER_DAMAGE_PILE)
        self.say(f"Game over: {self.result.reason}")

    # -- the API ----------------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.result is not None:
            return -1
        if self.phase == Phase.DRAFT:
            return self.drafter
        if self.phase == Phase.DISCARD:
            return 1 - self.turn_player
        return self.turn_player

    def opening_seat(self) -> int:
        return 1 - self.first_drafter if self.variant == "constructed" else self.first_player

    def is_starting_choice(self) -> bool:
        return self.phase is Phase.DRAFT  # the constructed variant's draft builds the decks

    def turns_played(self) -> int:
        return self.turn_number + 1

    def _legal_actions(self) -> list[Action]:
        if self.phase == Phase.DRAFT:
            return [Action("draft", s) for s in SUITS if self.draft_piles[s]]
        if self.phase == Phase.DISCARD:
            return [Action("discard", c) for c in self.data.sorted(self.hands[1 - self.turn_player])]
        out: list[Action] = []
        plays = self.data.plays
        for c in self.data.sorted(self.hands[self.turn_player]):
            out.extend(plays[c])
        if self.cast:
            out.append(STOP)
        return out

    def _apply(self, action: Action) -> None:
        if action.kind == "draft":
            self.draft(action.a)
        elif action.kind == "discard":
            defender = 1 - self.turn_player
            self.hands[defender].remove(action.a)
            self.damage[defender].append(action.a)
            self.say(f"P{defender + 1} puts {self.data.text(action.a)} on their damage pile")
            self.damage_due -= 1
            if self.damage_due == 0 or not self.hands[defender]:
                self.damage_due = 0
                self.phase = Phase.SPELL
                self.after_component()
        elif action.kind == "stop":
            self.say(f"P{self.turn_player + 1} ends the spell")
            self.close_spell()
        else:
            self.play(action.a, action.b)

    def draft(self, suit: str) -> None:
        c = self.draft_piles[suit].pop()
        self.decks[self.drafter].append(c)
        self.say(f"P{self.drafter + 1} drafts {self.data.text(c)}")
        self.drafter = 1 - self.drafter
        if not any(self.draft_piles.values()):
            # whoever picked second takes the first turn
            self.first_player = 1 - self.first_drafter
            self.turn_player = self.first_player
            for seat in (0, 1):
                self.rng.shuffle(self.decks[seat])
            self.phase = Phase.SPELL
            for seat in (0, 1):
                self.draw_to(seat, HAND, "the starting hand")
            self.say(f"Draft over: P{self.first_player + 1} (the second to pick) takes the first turn")
            self.start_turn()

    def play(self, card: str, school: str) -> None:
        """Cast one component: its school's effect (a Wild Magic card as ``school``, magnitude 4)."""
        p = self.turn_player
        sp = self.data.spells[card]
        word, mag = sp.school, sp.magnitude
        self.hands[p].remove(card)
        self.cast.append(card)
        self.note_play(p, card)
        if word == "wild":
            word = school
        if not (self.variant == "hectic" and word == "vigor"):
            self.plays_left -= 1
        self.say(f"P{p + 1} casts {self.data.label(card)}{' as' if sp.school == 'wild' else ':'} {word.capitalize()} "
                 f"{mag}")
        if word == "ward":
            self.wards[p].append(card)
            self.ward_left[card] = mag
        else:
            self.spell.append(card)
        if word == "vigor":
            self.plays_left += mag
        elif word == "fortune":
            drew = self.draw(p, mag)
            if drew:
                self.say(f"P{p + 1} draws {cards(len(drew))} (Fortune {mag})")
                self.say(f"you draw {self.data.names(drew)}", (p,))
            else:
                self.say(f"P{p + 1} draws no card: the pile is empty")
        elif word == "wrath":
            d = self.absorb(1 - p, mag)
            d = min(d, len(self.hands[1 - p]))
            if d > 0:
                if d == len(self.hands[1 - p]):  # no choice: the whole hand goes
                    self.damage[1 - p].extend(self.hands[1 - p])
                    self.say(f"P{2 - p} loses their whole hand ({cards(d)}) to damage")
                    self.hands[1 - p] = []
                else:
                    self.damage_due = d
                    self.phase = Phase.DISCARD
                    return
        self.after_component()

    def absorb(self, defender: int, dmg: int) -> int:
        """The defender's wards absorb what they can, oldest first; returns the damage that gets through."""
        wards = self.wards[defender]
        while dmg > 0 and wards:
            c = wards[0]
            take = min(self.ward_left[c], dmg)
            self.ward_left[c] -= take
            dmg -= take
            if self.ward_left[c] == 0:
                wards.pop(0)
                del self.ward_left[c]
                self.discard.append(c)
                self.say(f"P{defender + 1}'s ward {self.data.label(c)} stops {take} and is spent")
            elif take:
                self.say(f"P{defender + 1}'s ward {self.data.label(c)} stops {take} ({self.ward_left[c]} left)")
        return dmg

    def after_component(self) -> None:
        if self.plays_left <= 0 or not self.hands[self.turn_player]:
            self.close_spell()

    def close_spell(self) -> None:
        if not self.end_turn():
            self.start_turn()

    # -- what a seat sees -------------------------------------------------------------------------------------
    def _resample(self, into: WizardCardsState, seat: int, rng: Rng) -> None:
        """The rival's hand and the pile (their deck, and one's own deck's order, in the constructed variant)."""
        if self.phase == Phase.DRAFT:
            return
        opp = 1 - seat
        n = len(self.hands[opp])
        if self.decks:
            pool = sorted(self.hands[opp] + self.decks[opp])
            rng.shuffle(pool)
            into.hands[opp], into.decks[opp] = pool[:n], pool[n:]
            own = sorted(self.decks[seat])
            rng.shuffle(own)
            into.decks[seat] = own
        else:
            pool = sorted(self.hands[opp] + self.spell_pile)
            rng.shuffle(pool)
            into.hands[opp], into.spell_pile = pool[:n], pool[n:]

    def probe(self) -> dict[str, object]:
        out = super().probe()
        out |= {"turn": self.turn_number, "turn_player": self.turn_player,
                "current": self.current_player, "phase": "over" if self.result else str(self.phase),
                "plays_left": self.plays_left,
                "deck": len(self.spell_pile) if not self.decks else len(self.decks[0]),
                "discard": len(self.discard), "end_after_turn": self.last_turn}
        for s in (0, 1):
            out[f"hand.{s}"] = sorted(self.hands[s])
            out[f"hand_size.{s}"] = len(self.hands[s])
            out[f"damage.{s}"] = len(self.damage[s])
            out[f"ward.{s}"] = sum(self.ward_left[c] for c in self.wards[s])
            out[f"ward_cards.{s}"] = list(self.wards[s])
            if self.decks:
                out[f"deck.{s}"] = len(self.decks[s])
        return out
