"""The state of a game of Wizards & Relics (``../shared/rules/wizards-and-relics.txt``): its fields, how cards move
(draw with reshuffle, discard with its triggers, Replenish), the battle's totals and advantage, and the OpenSpiel-
like surface (legal actions, apply, observation, sampling what a seat cannot see).

Everything that takes steps is pending work on ``stack`` (``pending.py``): the set-up, then one :class:`Round` after
another, run until somebody must decide (:meth:`WizardsAndRelicsState.advance`). Piles are lists whose top card is the
end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import Any, Self

from wizprint.cards.markup import plural
from wizprint.errors import SaveError, quote
from wizprint.solo.kernel import (
    Commitments,
    Declared,
    Outcome,
    Rng,
    Rules,
    StackGame,
    State,
    added,
    declare,
    value,
    zone,
)
from wizprint.solo.kernel.fields import Problems
from wizprint.solo.kernel.stack import in_sight

from .data import BEATS, COLOURS, HALL_TO_WIN, HAND, WizardsAndRelicsData, WizardsAndRelicsTermination
from .pending import (
    KINDS,
    Choose,
    Reveal,
    RevealStep,
    Round,
    RoundStep,
    Setup,
    SetupStep,
    Source,
    Triggers,
    WizardsAndRelicsPending,
)


@value
class Mod(Declared):
    """A change to a battle: ``n`` power to ``seat``'s total, or (with ``colour``) advantage over that colour for
    ``wizard``; ``source`` is the card that gave it (taken back if that relic is ignored or that wizard silenced)."""

    seat: int = 0
    n: int = 0
    source: str = ""
    colour: str = ""
    wizard: str = ""
    why: str = ""


@value
class Discarded(Declared):
    """A discarded card whose discard trigger waits for the Replenish its discard caused: whose it is and which."""

    seat: int = 0
    card: str = ""


def discarded_of(saved: object, players: int, data: WizardsAndRelicsData) -> list[Discarded]:
    """The waiting discard triggers of a game saved as texts ``seat:card`` (untrusted: each is checked)."""
    if not isinstance(saved, list):
        raise SaveError([f"state.queued: expected a list, got {quote(saved, 40)}"])
    problems = Problems()
    out = []
    for i, q in enumerate(saved):
        seat, _, card = q.partition(":") if isinstance(q, str) else ("", "", "")
        if seat.isdecimal() and len(seat) < 3 and int(seat) < players and card in data.cards:
            out.append(Discarded(int(seat), card))
        else:
            problems.add(f"state.queued[{i}]: expected 'seat:card', got {quote(q, 40)}")
    if problems:
        raise SaveError(problems.lines())
    return out


# the code of each kind of pending work, registered by type (``phases.py``, ``effects.py``)
RULES: Rules[WizardsAndRelicsState] = Rules("wizards-and-relics")


@declare
class WizardsAndRelicsState(StackGame, State[WizardsAndRelicsData]):
    """A game of Wizards & Relics: its fields, how cards move, the battle's totals and advantage; the rules are
    registered in :data:`RULES`. The deal, what a seat sees, the decisions in words and the load's checks are added
    by :class:`~.game.WizardsAndRelicsGame`, the class the engine declares."""

    RULES = RULES

    piles: list[list[str]] = zone("pile")  # the four dealt decks before they are chosen; then the unchosen ones
    decks: list[list[str]] = zone("deck")
    hands: list[list[str]] = zone("hand")
    discards: list[list[str]] = zone("discard")
    halls: list[list[str]] = zone("hall")
    wizards: list[list[str]] = zone("wizard")  # in play this battle: the played wizard first, then extra ones
    relics: list[list[str]] = zone("relic")  # in play this battle
    tied: list[list[str]] = zone("tied")  # this round's cards from earlier (tied) battles: not in play
    shrine_pile: list[str] = zone("shrine_pile")
    shrine: list[str] = zone("shrine")  # the shrine in play (none before the first round)
    shrines_used: list[str] = zone("shrine_discard")
    stack: list[WizardsAndRelicsPending] = field(default_factory=list)
    master: int = 0  # the Master Wizard: applies abilities first
    round: int = 0  # rounds begun
    battle: int = 0  # wizard battles of this round before this one (ties)
    fighters: list[int] = field(default_factory=list)  # the players in this battle, clockwise from the Master
    losers: list[int] = field(default_factory=list)  # players out of the round (lost a battle before a tie)
    commits: Commitments = field(default_factory=Commitments)
    mods: list[Mod] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # relics ignored this round (those of tied battles kept)
    silenced: list[str] = field(default_factory=list)  # wizards silenced this round (likewise)
    resolved: list[str] = field(default_factory=list)  # relics whose enchantment has resolved this battle
    steadfast: list[int] = field(default_factory=list)  # seats whose relics cannot be ignored this battle
    equalized: list[str] = added(list)  # the cards that took advantage away for the round
    counting: bool = False  # draws count toward 'drawn' (from the Play phase until the battle is decided)
    drawn: list[int] = field(default_factory=list)  # cards each seat has drawn this round (while counting)
    discard_triggers: list[Discarded] = added(list)  # the discard triggers waiting for a Replenish
    known_hand: list[list[str]] = field(default_factory=list)  # cards in each hand that every player has seen
    known_top: list[list[str]] = field(default_factory=list)  # each deck's top cards every player has seen, top first
    chosen_deck: list[int] = field(default_factory=list)  # the pile each seat chose (-1: not yet)
    current_seat: int = 0
    last_totals: dict[int, int] = field(default_factory=dict)  # the last battle's totals (for the view)
    # the seat played with printed cards on a real table (``solo table``), or -1: the program does not know its hand,
    # so the rules never read it: what it holds is that player's to say (a play, 'I have no relic', a card shown)
    table_seat: int = added(lambda: -1)

    SEATS_IN_RANGE = ("master", "current_seat", "fighters", "losers", "steadfast")
    # before ``equalized``: one flag for "no advantage this round"; before ``discard_triggers``: those as texts
    # ``seat:card``
    RETIRED = ("no_advantage", "queued")
    PER_SEAT = ("decks", "hands", "discards", "halls", "wizards", "relics", "tied", "drawn", "known_hand",
                "known_top", "chosen_deck")
    ENDINGS = WizardsAndRelicsTermination

    # -- set-up -----------------------------------------------------------------------------------------------
    @classmethod
    def blank(cls, data: WizardsAndRelicsData, players: int, seed: int, variant: str = "") -> Self:
        n = players

        def per() -> list[list[str]]:
            return [[] for _ in range(n)]

        return cls(data=data, players=n, variant=variant, rng=Rng(seed), decks=per(), hands=per(), discards=per(),
                   halls=per(), wizards=per(), relics=per(), tied=per(), drawn=[0] * n, known_hand=per(),
                   known_top=per(), chosen_deck=[-1] * n)

    # -- small queries ----------------------------------------------------------------------------------------
    def order(self, seats: Iterable[int] | None = None) -> list[int]:
        """Seats clockwise from the Master Wizard (only those of ``seats`` if given)."""
        n = self.players
        keep = set(range(n) if seats is None else seats)
        return [s for s in ((self.master + i) % n for i in range(n)) if s in keep]

    def rivals(self, seat: int) -> list[int]:
        """The other players in the current battle, clockwise."""
        return [s for s in self.fighters if s != seat]

    @property
    def hall_to_win(self) -> int:
        return HALL_TO_WIN.get(self.players, 5)

    def label(self, card: str) -> str:
        return self.data.label(card)

    def names(self, cards: Iterable[str]) -> str:
        return ", ".join(self.label(c) for c in cards) or "nothing"

    def wizard_of(self, seat: int) -> str:
        """The wizard ``seat`` played in this battle ("" if none)."""
        return self.wizards[seat][0] if self.wizards[seat] else ""

    def beats(self, wizard: str) -> set[str]:
        """The colours ``wizard`` has advantage over: its own, and any an effect gave it."""
        out = {BEATS[self.data[wizard].colour]}
        for m in self.mods:
            if m.colour and m.wizard == wizard:
                out.update(COLOURS if m.colour == "every" else (m.colour,))
        return out

    def upgrade(self, retired: Mapping[str, Any]) -> None:
        """A game saved before ``equalized``: its flag ``no_advantage`` (no wizard has advantage this round) becomes
        the cards in play that take advantage away (a shrine or a relic with ``equalize``). A game saved before
        ``discard_triggers``: its texts ``seat:card`` (``queued``) become them."""
        if "equalized" in self.missing and retired.get("no_advantage") is True:
            d = self.data
            self.equalized = [c for c in [*self.shrine, *(r for rs in self.relics for r in rs)]
                              if d[c].has("equalize") and c not in self.ignored]
        if "discard_triggers" in self.missing and "queued" in retired:
            self.discard_triggers = discarded_of(retired["queued"], self.players, self.data)

    @property
    def no_advantage(self) -> bool:
        """No wizard has advantage for the rest of the round (a Wand of Equality or a shrine that says so, while
        it is not ignored)."""
        return bool(self.equalized)

    def has_advantage(self, wizard: str, seat: int) -> bool:
        """Advantage: the wizard's colour beats a rival wizard's in this battle (never during a Wand of Equality)."""
        if self.no_advantage:
            return False
        beats = self.beats(wizard)
        return any(self.data[w].colour in beats for r in self.rivals(seat) for w in self.wizards[r])

    def advantage(self, seat: int) -> int:
        """+1 for each of the seat's wizards with advantage (advantage over several rivals does not stack)."""
        return sum(1 for w in self.wizards[seat] if self.has_advantage(w, seat))

    def total(self, seat: int) -> int:
        """The seat's total power in this battle: wizards, relics not ignored, advantage, every change."""
        d = self.data
        t = sum(d[w].power for w in self.wizards[seat])
        t += sum(d[r].power for r in self.relics[seat] if r not in self.ignored)
        t += self.advantage(seat)
        t += sum(m.n for m in self.mods if m.seat == seat)
        return t

    def advantage_checked(self) -> bool:
        """Whether this battle's advantage has been checked: the reveal checks it after the relics' enchantments."""
        reveal = next((x for x in self.stack if isinstance(x, Reveal)), None)
        return reveal is None or reveal.step > RevealStep.ADVANTAGE

    def table_total(self, seat: int) -> int:
        """The seat's total as the table counts it so far: :meth:`total`, less its advantage until advantage has
        been checked (what the log and the screen say while the relics resolve)."""
        t = self.total(seat)
        return t if self.advantage_checked() else t - self.advantage(seat)

    def battle_open(self) -> bool:
        """Whether this battle's cards are face up and its winner not yet known (the reveal and the totals)."""
        return self.revealed() and any(isinstance(x, Round) and x.step <= RoundStep.COMPARE for x in self.stack)

    def take_back(self, source: str) -> None:
        """Remove every change ``source`` gave (an ignored relic, a silenced wizard): its power, the advantage it
        gave and the advantage it took away."""
        self.mods = [m for m in self.mods if m.source != source]
        if source in self.equalized:
            self.equalized = [c for c in self.equalized if c != source]

    def nullified(self, card: str) -> bool:
        """Whether ``card`` was ignored (a relic) or silenced (a wizard) this round, in the battle it was played
        in: none of its effects resolves, its triggers included."""
        return card in self.ignored or card in self.silenced

    def opening_seat(self) -> int:
        return self.master  # asked of a new game: the first round's Master Wizard

    def is_starting_choice(self) -> bool:
        top = self.stack[-1] if self.stack else None
        return isinstance(top, Setup) and top.step is SetupStep.DECKS

    def turns_played(self) -> int:
        return self.round

    # -- moving cards ---------------------------------------------------------------------------------------------
    def shuffle_deck(self, seat: int) -> None:
        self.rng.shuffle(self.decks[seat])
        self.known_top[seat] = []

    def refill(self, seat: int) -> bool:
        """No cards in deck: the discard pile is shuffled into an empty deck (called the moment a deck runs out,
        and again whenever a card is needed from an empty deck). True when the deck holds a card."""
        deck = self.decks[seat]
        if not deck and self.discards[seat]:
            in_sight(self)  # (on a real table, the cards just discarded are said before they go face down,
            deck.extend(self.discards[seat])
            self.discards[seat] = []
            self.shuffle_deck(seat)
            in_sight(self)  # and seen going into the deck: where each lies in it after the shuffle, nobody knows)
            self.say(f"P{seat + 1}'s deck is empty: their discard pile is shuffled into it")
        return bool(deck)

    def draw(self, seat: int, n: int, why: str = "", quiet: bool = False) -> list[str]:
        """Draw ``n`` cards (a deck that runs out is refilled from the discard pile at once); counted toward
        'drawn' while a battle is being played."""
        got: list[str] = []
        deck = self.decks[seat]
        for _ in range(n):
            if not self.refill(seat):
                break
            c = deck.pop()
            top = self.known_top[seat]
            if top and top[0] == c:
                top.pop(0)
                self.known_hand[seat].append(c)  # everyone saw it on top of the deck
            self.hands[seat].append(c)
            got.append(c)
            self.note_draw(seat, c)
            if not deck:
                self.refill(seat)
        if self.counting:
            self.drawn[seat] += len(got)
        if not quiet:
            because = f" ({why})" if why else ""
            got_words = plural(len(got), "card") if got else "no card: deck and discard pile are empty"
            self.say(f"P{seat + 1} draws {got_words}{because}")
            if got:
                self.say(f"you draw {self.names(got)}", (seat,))
        return got

    def leave_hand(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        if card in self.known_hand[seat]:
            self.known_hand[seat].remove(card)

    def to_hand(self, seat: int, card: str, public: bool = True) -> None:
        self.hands[seat].append(card)
        if public:
            self.known_hand[seat].append(card)

    def discard(self, seat: int, card: str, why: str = "") -> None:
        """Discard a card from hand: face up on the discard pile; a Replenish first if the hand is down to one;
        its discard trigger waits for that Replenish."""
        self.leave_hand(seat, card)
        self.discards[seat].append(card)
        self.say(f"P{seat + 1} discards {self.label(card)}" + (f" ({why})" if why else ""))
        if self.data[card].has("on_discard"):
            self.discard_triggers.append(Discarded(seat, card))
        self.replenish(seat)

    def discard_from_deck(self, seat: int, card: str) -> None:
        self.decks[seat].remove(card)
        top = self.known_top[seat]
        if card in top:
            top.remove(card)
        self.discards[seat].append(card)
        if self.data[card].has("on_discard"):
            self.discard_triggers.append(Discarded(seat, card))
        self.refill(seat)

    def replenish(self, seat: int) -> None:
        """Replenish: at zero or one card in hand (once the game has begun), draw up to 7 minus the wizards in your
        Hall of Immortality."""
        if self.round < 1 or len(self.hands[seat]) > 1:
            return
        target = HAND - len(self.halls[seat])
        if len(self.hands[seat]) < target:
            self.draw(seat, target - len(self.hands[seat]),
                      f"Replenish: down to {plural(len(self.hands[seat]), 'card')}, up to {target}")

    def flush_triggers(self) -> bool:
        """Push the discard triggers waiting (they resolve after the Replenish that the discard caused): those of
        one player together, for that player to order (:class:`~.pending.Triggers`)."""
        if not self.discard_triggers:
            return False
        by_seat: dict[int, list[str]] = {}
        for q in self.discard_triggers:
            by_seat.setdefault(q.seat, []).append(q.card)
        for seat, cards in reversed(by_seat.items()):
            self.stack.append(Triggers(seat=seat, source=Source.ON_DISCARD, cards=cards))
        self.discard_triggers = []
        return True

    def clear_battle(self, round_over: bool = True) -> None:
        """A new battle: the changes, resolved enchantments and the like of the last one are gone. Which relics were
        ignored and which wizards silenced is kept until the round is over: the cards of a tied battle stay
        nullified (their triggers do not fire when the round is lost)."""
        self.mods = []
        self.resolved = []
        self.steadfast = []
        if round_over:
            self.ignored = []
            self.silenced = []

    # -- running ----------------------------------------------------------------------------------------------
    def next_item(self) -> Round:
        return Round(seat=self.master)

    def before_item(self) -> bool:
        return self.flush_triggers()

    def ask(self, item: Choose) -> None:
        self.stack.append(item)

    def finish(self, winner: int) -> None:
        n = self.players
        scores = tuple(float(len(h)) for h in self.halls)
        hall = len(self.halls[winner])
        self.result = Outcome((winner,), scores, f"P{winner + 1} has {plural(hall, 'wizard')} in the Hall of "
                                                  f"Immortality ({self.hall_to_win} win with {n} players)",
                              WizardsAndRelicsTermination.HALL_FILLED, (hall,))
        self.say(self.result.reason)
        self.stack = []
        self.current_seat = -1

    def revealed(self) -> bool:
        """Whether this battle's cards are face up (after the wizard reveal)."""
        return any(self.wizards[s] or self.relics[s] for s in self.fighters)

    def _resample(self, into: WizardsAndRelicsState, seat: int, rng: Rng) -> None:
        """Every card ``seat`` cannot see, redealt: the other hands (but for cards everyone has seen), every deck
        (but the tops everyone has seen; its own deck keeps its cards, in a new order), the unchosen piles and the
        shrine pile; another seat's secret play is chosen again from its new hand, and its mulligan forgotten.
        A rival's unseen cards keep their kinds and rarities (how many Glorious wizards it has left, say): every
        deck is dealt 3 Glorious, 6 Superb and 6 Common of each kind and every card that leaves a hand or deck is
        seen, so the seat knows them; which unseen card is which, and which of them are in the hand, it does not."""
        d = self.data
        n = self.players
        hidden: dict[int, tuple[list[str], list[str]]] = {}  # a rival's unseen hand cards and unseen deck cards
        pool: dict[tuple[str, str], list[str]] = {}
        for t in range(n):
            if t == seat:
                continue
            hand = self._unknown(self.hands[t], list(self.known_hand[t]))
            deck = self.decks[t][:len(self.decks[t]) - len(self.known_top[t])]
            hidden[t] = (hand, deck)
            for c in hand + deck:
                pool.setdefault((d[c].kind, d[c].rarity), []).append(c)
        for p in self.piles:
            for c in p:
                pool.setdefault((d[c].kind, d[c].rarity), []).append(c)
        for k in sorted(pool):
            pool[k].sort()
            rng.shuffle(pool[k])
        for t in range(n):
            if t == seat:
                continue
            hand, deck = hidden[t]
            kinds = sorted((d[c].kind, d[c].rarity) for c in hand + deck)
            rng.shuffle(kinds)
            new = [pool[k].pop() for k in kinds]
            keep = sorted(self.known_hand[t])
            into.hands[t] = keep + new[:len(hand)]
            into.decks[t] = new[len(hand):] + list(reversed(self.known_top[t]))
        rest = [c for k in sorted(pool) for c in pool[k]]
        rng.shuffle(rest)
        into.piles = [[rest.pop() for _ in p] for p in self.piles]
        own_top = self.known_top[seat]
        rest = sorted(self.decks[seat][:len(self.decks[seat]) - len(own_top)])
        rng.shuffle(rest)
        into.decks[seat] = rest + list(reversed(own_top))
        shrines = sorted(self.shrine_pile)
        rng.shuffle(shrines)
        into.shrine_pile = shrines
        into.commits = self.commits.clone()
        for t, choice in list(into.commits.chosen.items()):
            if t != seat:
                into.commits.chosen[t] = _replay(into, t, rng, choice)
        into.stack = [x.clone() for x in self.stack]
        for item in into.stack:
            if isinstance(item, Choose) and item.seat != seat and item.picked:
                item.picked = []

    @staticmethod
    def _unknown(hand: list[str], known: list[str]) -> list[str]:
        k = set(known)
        return [c for c in hand if c not in k]

    def probe(self) -> dict[str, object]:
        out = super().probe()
        out |= {"round": self.round, "battle": self.battle, "master": self.master, "current": self.current_player,
                "fighters": list(self.fighters), "losers": list(self.losers),
                "shrine": self.shrine[0] if self.shrine else "", "no_advantage": self.no_advantage,
                "ignored": sorted(self.ignored), "silenced": sorted(self.silenced)}
        for s in range(self.players):
            out[f"hand.{s}"] = sorted(self.hands[s])
            out[f"hand_size.{s}"] = len(self.hands[s])
            out[f"deck_size.{s}"] = len(self.decks[s])
            out[f"deck_top.{s}"] = list(reversed(self.decks[s][-5:]))
            out[f"discard.{s}"] = list(self.discards[s])
            out[f"hall.{s}"] = list(self.halls[s])
            out[f"hall_size.{s}"] = len(self.halls[s])
            out[f"wizards.{s}"] = list(self.wizards[s])
            out[f"relics.{s}"] = list(self.relics[s])
            out[f"tied.{s}"] = list(self.tied[s])
            out[f"drawn.{s}"] = self.drawn[s]
            if s in self.fighters and self.revealed():
                out[f"total.{s}"] = self.total(s)
                out[f"advantage.{s}"] = self.advantage(s)
            if s in self.last_totals:
                out[f"last_total.{s}"] = self.last_totals[s]
        return out

def _replay(s: WizardsAndRelicsState, t: int, rng: Rng, old: str) -> str:
    """Another seat's secret play, chosen again (at random) from its resampled hand."""
    hand = s.hands[t]
    wiz = sorted(c for c in hand if s.data.is_wizard(c))
    rel = sorted(c for c in hand if s.data.is_relic(c))
    w = wiz[rng.below(len(wiz))] if wiz else "none"
    r = rel[rng.below(len(rel))] if rel else "none"
    return f"{w} {r}"


__all__ = ["KINDS", "Mod", "WizardsAndRelicsState"]
