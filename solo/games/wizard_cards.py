"""Wizard Cards (``../shared/rules/wizard-cards.txt``): two wizards cast spells from one shared spell pile.

The engine reads the card database: each spell card's effect word is its school (``ward``, ``vigor``,
``fortune``, ``wrath``, or ``wild`` for the jokers) and its ``magnitude`` how strong it is. Variants:
``hectic`` (Vigor costs no play; draw up to five at the start of a turn too) and ``constructed`` (a draft
builds each player's own deck).

A turn: the turn player's ward components from last turn are discarded; if they hold cards they cast one
spell: the first component is free, each Vigor adds plays; they may stop once the spell has begun. Wrath
makes the rival (the current player while choosing) move cards from hand to their damage pile after their
wards absorb what they can. Then the turn player draws back up to five. When the pile runs out the final phase
begins; the game ends after the next turn of the player who did not go first; the smaller damage pile wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from wizprint.errors import EngineError

from ..core import Action, Outcome, State, design_of
from ..rng import Rng
from . import GameSpec

SCHOOLS = ("ward", "vigor", "fortune", "wrath")
HAND = 5
VARIANTS = ("hectic", "constructed")
SUITS = ("spades", "hearts", "diamonds", "clubs")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@lru_cache(maxsize=1)
def cards() -> dict[str, tuple[str, int, str, str]]:
    """Every card instance of the spell deck: id -> (school word, magnitude, name, suit)."""
    from wizprint.cards.loader import load_game

    game = load_game("wizard-cards")
    out: dict[str, tuple[str, int, str, str]] = {}
    for card, n in game.iter_copies("spells"):
        (eff,) = card.effects
        iid = card.id if card.copies == 1 else f"{card.id}#{n}"
        name = card.get("spell") or card.name
        out[iid] = (eff.word, int(eff.get("magnitude", 4)), str(name), str(card.get("suit") or ""))
    return out


def _sort_key(c: str) -> tuple[int, int, str]:
    school, mag, _, _ = cards()[c]
    order = ("wild", *SCHOOLS)
    return (order.index(school), mag, c)


class WizardCardsState(State):
    game_id = "wizard-cards"
    step_cap = 5_000

    def __init__(self, players: int = 2, seed: int = 0, variant: str = "", *, deal: bool = True):
        if players != 2:
            raise EngineError("Wizard Cards is for exactly 2 players")
        if variant and variant not in VARIANTS:
            raise EngineError(f"unknown Wizard Cards variant {variant!r} (variants: {', '.join(VARIANTS)})")
        super().__init__(2, seed)
        self.variant = variant
        self.first = 0
        self.turn_player = 0
        self.turn_no = 0
        self.phase = "spell"  # draft | spell | discard | over
        self.decks: list[list[str]] = [[]]  # top is the end; one shared deck, or one per seat (constructed)
        self.spell_discard: list[str] = []
        self.hands: list[list[str]] = [[], []]
        self.damage: list[list[str]] = [[], []]
        self.wards: list[list[list[Any]]] = [[], []]  # per seat: [card, remaining]
        self.spell: list[str] = []
        self.plays_left = 0
        self.pending = 0  # damage cards the defender still has to choose
        self.end_after: int | None = None  # the game ends after this turn number
        self.piles: dict[str, list[str]] = {}  # the draft's four piles (constructed)
        self.drafter = 0
        self.first_drafter = 0
        self.wild_ward: set[str] = set()  # Wild Magic cards cast as Ward this turn (they stay out like wards)
        self._outcome: Outcome | None = None
        if deal:
            self._deal()

    # -- set-up -----------------------------------------------------------------------------------------------
    def _deal(self) -> None:
        ids = list(cards())
        if self.variant == "constructed":
            self.phase = "draft"
            self.decks = [[], []]
            for suit in SUITS:
                pile = [c for c in ids if cards()[c][3] == suit]
                pile.sort(key=lambda c: RANKS.index(c[:-1]))  # ace at the bottom, king on top (the end)
                self.piles[suit] = pile
            jokers = [c for c in ids if cards()[c][0] == "wild"]
            for seat, j in enumerate(jokers[:2]):
                self.decks[seat].append(j)
            self.drafter = self.first_drafter = self.rng.below(2)
            self.say(f"Draft: P{self.drafter + 1} picks first")
            return
        deck = sorted(ids)
        self.rng.shuffle(deck)
        self.decks = [deck]
        for seat in (0, 1):
            self._draw_to(seat, HAND)
        self._start_turn()

    def _deck_of(self, seat: int) -> list[str]:
        return self.decks[seat] if len(self.decks) == 2 else self.decks[0]

    def _draw_to(self, seat: int, n: int) -> None:
        deck = self._deck_of(seat)
        hand = self.hands[seat]
        drew = []
        while len(hand) < n and deck:
            c = deck.pop()
            hand.append(c)
            drew.append(c)
            self.note_draw(seat, c)
        if drew:
            self.say(f"P{seat + 1} draws {len(drew)}")
            self.say(f"you draw {' '.join(drew)}", (seat,))
        self._check_exhausted()

    def _draw(self, seat: int, n: int) -> list[str]:
        deck = self._deck_of(seat)
        drew = []
        for _ in range(n):
            if not deck:
                break
            c = deck.pop()
            self.hands[seat].append(c)
            drew.append(c)
            self.note_draw(seat, c)
        self._check_exhausted()
        return drew

    def _check_exhausted(self) -> None:
        if self.end_after is not None or self.phase == "draft":
            return
        if any(not d for d in self.decks):
            # the turn player went first: the rival takes one more turn; else the first player, then them
            self.end_after = self.turn_no + (1 if self.turn_player == self.first else 2)
            self.say(f"The spell pile is empty: the final phase begins; the game ends after turn {self.end_after + 1}")

    # -- turns ------------------------------------------------------------------------------------------------
    def _start_turn(self) -> None:
        """Begin the turn player's turn; a player with no cards goes straight to drawing."""
        while True:
            p = self.turn_player
            if self.wards[p]:
                for c, _ in self.wards[p]:
                    self.spell_discard.append(c)
                self.say(f"P{p + 1}'s ward ({' '.join(c for c, _ in self.wards[p])}) is dismissed")
                self.wards[p] = []
            if self.variant == "hectic":
                self._draw_to(p, HAND)
            self.spell = []
            self.plays_left = 1
            self.phase = "spell"
            if self.hands[p]:
                return
            self.say(f"P{p + 1} has no cards: no spell this turn")
            if self._end_turn():
                return

    def _end_turn(self) -> bool:
        """Finish the turn player's turn; True when the game is over."""
        p = self.turn_player
        for c in self.spell:
            if cards()[c][0] == "ward" or c in self.wild_ward:
                continue
            self.spell_discard.append(c)
        self.spell = []
        self.wild_ward = set()
        self._draw_to(p, HAND)
        if self.end_after is not None and self.turn_no >= self.end_after:
            self._finish()
            return True
        self.turn_no += 1
        self.turn_player = 1 - p
        return False

    def _finish(self) -> None:
        d = [len(x) for x in self.damage]
        self.phase = "over"
        if d[0] == d[1]:
            self._outcome = Outcome((0, 1), (float(d[0]), float(d[1])), f"tie: both damage piles hold {d[0]} cards")
        else:
            w = 0 if d[0] < d[1] else 1
            self._outcome = Outcome((w,), (float(d[0]), float(d[1])),
                                    f"P{w + 1} has the smaller damage pile ({d[w]} against {d[1 - w]})")
        self.say(f"Game over: {self._outcome.reason}")

    # -- the API ----------------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return -1
        if self.phase == "draft":
            return self.drafter
        if self.phase == "discard":
            return 1 - self.turn_player
        return self.turn_player

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Outcome | None:
        return self._outcome

    def _legal_actions(self) -> list[Action]:
        if self.phase == "draft":
            return [Action("draft", s) for s in SUITS if self.piles[s]]
        if self.phase == "discard":
            return [Action("discard", c) for c in sorted(self.hands[1 - self.turn_player], key=_sort_key)]
        out: list[Action] = []
        for c in sorted(self.hands[self.turn_player], key=_sort_key):
            if cards()[c][0] == "wild":
                out.extend(Action("play", c, s) for s in SCHOOLS)
            else:
                out.append(Action("play", c))
        if self.spell:
            out.append(Action("stop"))
        return out

    def _apply(self, action: Action) -> None:
        if action.kind == "draft":
            self._draft(action.a)
        elif action.kind == "discard":
            defender = 1 - self.turn_player
            self.hands[defender].remove(action.a)
            self.damage[defender].append(action.a)
            self.say(f"P{defender + 1} puts {action.a} on their damage pile")
            self.pending -= 1
            if self.pending == 0 or not self.hands[defender]:
                self.pending = 0
                self.phase = "spell"
                self._after_component()
        elif action.kind == "stop":
            self.say(f"P{self.turn_player + 1} ends the spell")
            self._close_spell()
        else:  # play
            self._play(action.a, action.b)

    def _draft(self, suit: str) -> None:
        c = self.piles[suit].pop()
        self.decks[self.drafter].append(c)
        self.say(f"P{self.drafter + 1} drafts {c}")
        self.drafter = 1 - self.drafter
        if not any(self.piles.values()):
            # whoever picked second takes the first turn
            self.first = 1 - self.first_drafter
            self.turn_player = self.first
            for seat in (0, 1):
                self.rng.shuffle(self.decks[seat])
            self.phase = "spell"
            for seat in (0, 1):
                self._draw_to(seat, HAND)
            self.say(f"Draft over: P{self.first + 1} (the second to pick) takes the first turn")
            self._start_turn()

    def _play(self, card: str, school: str) -> None:
        p = self.turn_player
        word, mag, name, _ = cards()[card]
        self.hands[p].remove(card)
        self.spell.append(card)
        self.note_play(p, card)
        if word == "wild":
            word = school
            if school == "ward":
                self.wild_ward.add(card)
        if not (self.variant == "hectic" and word == "vigor"):
            self.plays_left -= 1
        self.say(f"P{p + 1} casts {card} {name}: {word.capitalize()} {mag}")
        if word == "vigor":
            self.plays_left += mag
        elif word == "fortune":
            drew = self._draw(p, mag)
            self.say(f"P{p + 1} draws {len(drew)}")
            if drew:
                self.say(f"you draw {' '.join(drew)}", (p,))
        elif word == "ward":
            self.wards[p].append([card, mag])
        elif word == "wrath":
            d = self._absorb(1 - p, mag)
            d = min(d, len(self.hands[1 - p]))
            if d > 0:
                if d == len(self.hands[1 - p]):  # no choice: the whole hand goes
                    self.damage[1 - p].extend(self.hands[1 - p])
                    self.say(f"P{2 - p} loses their whole hand ({d} cards) to damage")
                    self.hands[1 - p] = []
                else:
                    self.pending = d
                    self.phase = "discard"
                    return
        self._after_component()

    def _absorb(self, defender: int, dmg: int) -> int:
        wards = self.wards[defender]
        while dmg > 0 and wards:
            w = wards[0]
            take = min(w[1], dmg)
            w[1] -= take
            dmg -= take
            if w[1] == 0:
                wards.pop(0)
                self.spell_discard.append(w[0])
                self.say(f"P{defender + 1}'s ward {w[0]} is spent")
            elif take:
                self.say(f"P{defender + 1}'s ward {w[0]} absorbs {take}")
        return dmg

    def _after_component(self) -> None:
        if self.plays_left <= 0 or not self.hands[self.turn_player]:
            self._close_spell()

    def _close_spell(self) -> None:
        if not self._end_turn():
            self._start_turn()

    # -- views ------------------------------------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        opp = 1 - seat
        obs: dict[str, Any] = {
            "game": self.game_id, "variant": self.variant, "seat": seat, "phase": self.phase,
            "current": self.current_player, "turn": self.turn_no + 1, "turn_player": self.turn_player,
            "first": self.first, "hand": sorted(self.hands[seat], key=_sort_key),
            "opponent_hand": len(self.hands[opp]), "spell_discard": list(self.spell_discard),
            "damage": [list(d) for d in self.damage], "wards": [[list(w) for w in ws] for ws in self.wards],
            "spell": list(self.spell), "plays_left": self.plays_left, "pending_discards": self.pending,
            "end_after_turn": self.end_after, "log": self.visible_log(seat),
        }
        if len(self.decks) == 2:
            obs["deck"] = len(self.decks[seat])
            obs["opponent_deck"] = len(self.decks[opp])
            # the draft was public: each side knows which cards the other holds in hand and deck together
            obs["own_deck_cards"] = sorted(self.decks[seat], key=_sort_key)
            obs["opponent_cards"] = sorted(self.decks[opp] + self.hands[opp], key=_sort_key)
            obs["piles"] = {s: list(p) for s, p in self.piles.items()}
            obs["drafter"] = self.drafter
        else:
            obs["deck"] = len(self.decks[0])
        if self._outcome:
            obs["outcome"] = self._outcome.as_dict()
        return obs

    def zones(self) -> dict[str, list[str]]:
        warding = {c for ws in self.wards for c, _ in ws}
        # a ward cast this turn is both part of the spell and standing guard: count it once, as a ward
        z = {"spell_discard": list(self.spell_discard), "spell": [c for c in self.spell if c not in warding]}
        for i, d in enumerate(self.decks):
            z[f"deck{i if len(self.decks) == 2 else ''}"] = list(d)
        for s in (0, 1):
            z[f"hand{s}"] = list(self.hands[s])
            z[f"damage{s}"] = list(self.damage[s])
            z[f"wards{s}"] = [c for c, _ in self.wards[s]]
        for suit, pile in self.piles.items():
            z[f"pile_{suit}"] = list(pile)
        return z

    def probe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"turn": self.turn_no, "turn_player": self.turn_player, "current": self.current_player,
                               "phase": self.phase, "plays_left": self.plays_left, "deck": len(self.decks[0]),
                               "discard": len(self.spell_discard), "end_after_turn": self.end_after}
        for s in (0, 1):
            out[f"hand.{s}"] = sorted(self.hands[s])
            out[f"hand_size.{s}"] = len(self.hands[s])
            out[f"damage.{s}"] = len(self.damage[s])
            out[f"ward.{s}"] = sum(w[1] for w in self.wards[s])
            out[f"ward_cards.{s}"] = [c for c, _ in self.wards[s]]
        if self._outcome:
            out["winners"] = list(self._outcome.winners)
            out["reason"] = self._outcome.reason
        return out

    def describe(self, action: Action) -> str:
        if action.kind == "play":
            word, mag, name, _ = cards()[action.a]
            if word == "wild":
                return f"play {action.a} {name} as {action.b.capitalize()} 4"
            return f"play {action.a} {name} ({word.capitalize()} {mag})"
        if action.kind == "discard":
            word, mag, name, _ = cards()[action.a]
            return f"discard {action.a} {name} ({word.capitalize()} {mag}) to damage"
        if action.kind == "stop":
            return "end the spell"
        if action.kind == "draft":
            top = self.piles[action.a][-1]
            return f"draft {top} from the {action.a} pile"
        return action.key

    # -- copies -----------------------------------------------------------------------------------------------
    def clone(self) -> WizardCardsState:
        s = WizardCardsState.__new__(WizardCardsState)
        self._base_clone_into(s)
        s.variant = self.variant
        s.first = self.first
        s.turn_player = self.turn_player
        s.turn_no = self.turn_no
        s.phase = self.phase
        s.decks = [list(d) for d in self.decks]
        s.spell_discard = list(self.spell_discard)
        s.hands = [list(h) for h in self.hands]
        s.damage = [list(d) for d in self.damage]
        s.wards = [[list(w) for w in ws] for ws in self.wards]
        s.spell = list(self.spell)
        s.plays_left = self.plays_left
        s.pending = self.pending
        s.end_after = self.end_after
        s.piles = {k: list(v) for k, v in self.piles.items()}
        s.drafter = self.drafter
        s.first_drafter = self.first_drafter
        s.wild_ward = set(self.wild_ward)
        s._outcome = self._outcome
        return s

    def to_json(self) -> dict[str, Any]:
        d = self._base_json()
        d.update(variant=self.variant, first=self.first, turn_player=self.turn_player, turn_no=self.turn_no,
                 phase=self.phase, decks=self.decks, spell_discard=self.spell_discard, hands=self.hands,
                 damage=self.damage, wards=self.wards, spell=self.spell, plays_left=self.plays_left,
                 pending=self.pending, end_after=self.end_after, piles=self.piles, drafter=self.drafter,
                 first_drafter=self.first_drafter, wild_ward=sorted(self.wild_ward),
                 outcome=self._outcome.as_dict() if self._outcome else None)
        return d

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WizardCardsState:
        s = cls(2, 0, str(data.get("variant", "")), deal=False)
        s._base_load(data)
        s.first = int(data["first"])
        s.turn_player = int(data["turn_player"])
        s.turn_no = int(data["turn_no"])
        s.phase = str(data["phase"])
        s.decks = [list(d) for d in data["decks"]]
        s.spell_discard = list(data["spell_discard"])
        s.hands = [list(h) for h in data["hands"]]
        s.damage = [list(d) for d in data["damage"]]
        s.wards = [[list(w) for w in ws] for ws in data["wards"]]
        s.spell = list(data["spell"])
        s.plays_left = int(data["plays_left"])
        s.pending = int(data["pending"])
        s.end_after = data["end_after"]
        s.piles = {k: list(v) for k, v in data["piles"].items()}
        s.drafter = int(data["drafter"])
        s.first_drafter = int(data.get("first_drafter", 0))
        s.wild_ward = set(data.get("wild_ward", []))
        s._outcome = Outcome.from_dict(data.get("outcome"))
        s.check_zones()
        return s

    def card_instances(self) -> dict[str, Any]:
        return cards()

    def determinize(self, seat: int, rng: Rng) -> WizardCardsState:
        s = self.clone()
        opp = 1 - seat
        if self.phase != "draft":
            if len(s.decks) == 2:
                pool = sorted(s.hands[opp] + s.decks[opp])
                rng.shuffle(pool)
                n = len(s.hands[opp])
                s.hands[opp], s.decks[opp] = pool[:n], pool[n:]
                own = sorted(s.decks[seat])
                rng.shuffle(own)
                s.decks[seat] = own
            else:
                pool = sorted(s.hands[opp] + s.decks[0])
                rng.shuffle(pool)
                n = len(s.hands[opp])
                s.hands[opp], s.decks[0] = pool[:n], pool[n:]
        s.rng = Rng(rng.next64())
        return s


def new_state(players: int = 2, seed: int = 0, variant: str = "") -> WizardCardsState:
    return WizardCardsState(players, seed, variant)


def setup(table: Mapping[str, Any], players: int = 2, seed: int = 0, variant: str = "") -> WizardCardsState:
    """A position from a scenario file's ``[setup]``: hands, deck (top card first), damage piles, wards, the
    spell discard pile, whose turn, the first player, the turn number. Cards not named anywhere go to the
    bottom of the deck in a seeded shuffle (or to the discard pile with ``rest = "discard"``)."""
    s = WizardCardsState(players, seed, variant, deal=False)
    all_ids = set(cards())
    used: list[str] = []

    def take(ids: list[str], where: str) -> list[str]:
        for c in ids:
            if c not in all_ids:
                raise EngineError(f"setup {where}: unknown card '{c}'")
        used.extend(ids)
        return list(ids)

    s.hands = [take(list(h), "hands") for h in table.get("hands", [[], []])]
    s.damage = [take(list(d), "damage") for d in table.get("damage", [[], []])]
    s.wards = [[[c, cards()[c][1]] for c in take(list(w), "wards")] for w in table.get("wards", [[], []])]
    s.spell_discard = take(list(table.get("discard", [])), "discard")
    deck_top_first = take(list(table.get("deck", [])), "deck")
    if len(used) != len(set(used)):
        dup = sorted({c for c in used if used.count(c) > 1})
        raise EngineError(f"setup: cards named twice: {', '.join(dup)}")
    rest = sorted(all_ids - set(used))
    if table.get("rest", "deck") == "discard":
        s.spell_discard.extend(rest)
        bottom: list[str] = []
    else:
        s.rng.shuffle(rest)
        bottom = rest
    s.decks = [bottom + list(reversed(deck_top_first))]
    s.first = int(table.get("first", 0))
    s.turn_player = int(table.get("turn", s.first))
    s.turn_no = int(table.get("turn_number", 0))
    if "end_after_turn" in table:
        s.end_after = int(table["end_after_turn"])
    s._start_turn()
    return s


def _card_text(c: str) -> str:
    word, mag, name, _ = cards()[c]
    return f"{c} {name} ({'Wild Magic 4' if word == 'wild' else f'{word.capitalize()} {mag}'})"


def view(obs: Mapping[str, Any]) -> list[str]:
    """The terminal view of a seat's observation (rich markup)."""
    me, opp = obs["seat"], 1 - obs["seat"]
    lines = []
    if obs["phase"] == "draft":
        tops = ", ".join(f"{s}: {p[-1]}" if p else f"{s}: -" for s, p in obs["piles"].items())
        lines.append(f"Draft - tops of the piles: {tops}")
        lines.append(f"Your deck so far: {' '.join(obs['own_deck_cards']) or '-'}")
        return lines
    deck = f"spell pile {obs['deck']}" if "opponent_deck" not in obs else (
        f"your deck {obs['deck']}, rival's deck {obs['opponent_deck']}")
    end = "" if obs["end_after_turn"] is None else f"  [bold red]final phase: the game ends after turn " \
                                                   f"{obs['end_after_turn'] + 1}[/bold red]"
    lines.append(f"{deck}; discard pile {len(obs['spell_discard'])}{end}")
    lines.append(f"Damage piles: you {len(obs['damage'][me])}, rival {len(obs['damage'][opp])}   "
                 f"Rival's hand: {obs['opponent_hand']} cards")
    for who, seat in (("Your", me), ("Rival's", opp)):
        ws = obs["wards"][seat]
        if ws:
            lines.append(f"{who} ward: " + ", ".join(f"{c} ({r} left)" for c, r in ws))
    if obs["spell"]:
        whose = "Your" if obs["turn_player"] == me else "Rival's"
        lines.append(f"{whose} spell so far: {', '.join(_card_text(c) for c in obs['spell'])}; "
                     f"plays left {obs['plays_left']}")
    if obs["pending_discards"]:
        lines.append(f"[bold]You take {obs['pending_discards']} damage: choose the cards to discard[/bold]")
    lines.append("Your hand: " + ("; ".join(_card_text(c) for c in obs["hand"]) or "(empty)"))
    return lines


def _automaton() -> Any:
    from ..agents.wizard_cards import WizardCardsAutomaton

    return WizardCardsAutomaton()


SPEC = GameSpec(
    id="wizard-cards", name="Wizard Cards", min_players=2, max_players=2, new_state=new_state,
    from_json=WizardCardsState.from_json, automaton=_automaton, setup=setup, variants=VARIANTS,
    doc=__doc__ or "", extra={"view": view},
)

__all__ = ["SPEC", "WizardCardsState", "cards", "design_of"]
