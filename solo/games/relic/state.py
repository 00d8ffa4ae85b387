"""Relic's state: its fields (declared once), the small queries every rule asks, the stack of pending work (its code
registered by type in :data:`RULES`) and the loop that runs it. The legal moves, applying one, what a seat sees and
the decisions in words are added by :class:`~.game.RelicGame`, the class the engine declares.

Decisions are asked one at a time of ``current_player``: the active player, or another player resolving an
``each_player`` effect. The top of ``stack`` is the pending work that waits (``pending``); ``advance`` runs the
stack until somebody must decide. Piles are lists whose top card is the end of the list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import field
from typing import Self, TypeVar

from wizprint.errors import EngineError
from wizprint.solo.kernel import Commitments, Outcome, Rng, Rules, State, added, declare, transient, zone, zone_map

from .data import (
    ATTRS,
    DECKS,
    ROUND_LIMIT,
    THRESHOLD,
    Kit,
    Passives,
    RelicData,
    RelicTermination,
    Space,
    cause,
)
from .pending import (
    ENGAGEMENT_DONE,
    PHASE_OVER,
    PHASE_SELECT,
    Battle,
    Effects,
    Engagement,
    LastResult,
    NextTurn,
    OrderAbilities,
    Phase,
    RelicPending,
    Turn,
)

P = TypeVar("P", bound=RelicPending)
FOE_CACHE = 20_000  # enemy combinations whose traits are kept per data (cleared when full)


class _Seats(dict[int, str]):
    """The seats as the log names them (seat 0 is ``P1``)."""

    def __missing__(self, s: int) -> str:
        return f"P{s + 1}"


WHO = _Seats({s: f"P{s + 1}" for s in range(4)})


def _deal(pool: list[str], k: int) -> list[str]:
    """The top ``k`` cards of ``pool`` (its end), taken one by one: the last card first."""
    cut = len(pool) - k
    if cut < 0:
        raise IndexError("pop from empty list")  # as taking one card too many always did
    out = pool[cut:]
    out.reverse()
    del pool[cut:]
    return out


# the code of each kind of pending work, registered by type (``battle.py``, ``turn.py``, ``dice.py``,
# ``experience.py``, ``effects.py``, ``questions.py``)
RULES: Rules[RelicState] = Rules("relic")


@declare
class RelicState(State[RelicData]):
    """A game of Relic: 2 to 4 heroes; the variant is the scenario (chosen at random when none is given)."""

    scenario: str = ""
    phase: Phase = Phase.SELECT
    turn_player: int = 0
    turn_number: int = 0
    deciding: int = 0  # the seat to decide (current_player while the game is on)
    selection: Commitments | None = None  # the character choice during set-up
    dealt: list[list[str]] = field(default_factory=list)  # the two character sheets dealt to each seat
    unused_characters: list[str] = field(default_factory=list)  # the box: sheets a corrupted player draws from
    retired_characters: list[str] = field(default_factory=list)  # corrupted characters (never used again)
    characters: list[str] = field(default_factory=list)
    attributes: list[list[int]] = field(default_factory=list)  # per seat: strength, willpower, cunning
    life: list[int] = field(default_factory=list)
    level: list[int] = field(default_factory=list)
    influence: list[int] = field(default_factory=list)
    positions: list[str] = field(default_factory=list)
    hands: list[list[str]] = zone("hand")  # Power cards
    corruption_face_up: list[list[str]] = zone("corruption_up")
    corruption_face_down: list[list[str]] = zone("corruption_down")
    trophies: list[list[str]] = zone("trophies")
    assets: list[list[str]] = zone("assets")
    missions: list[str] = zone("mission", slots=True)  # the active mission
    completed: list[list[str]] = zone("completed")  # completed missions, seen by all
    completed_hidden: list[list[str]] = zone("completed_hidden")  # completed missions from the deck (owner only)
    objective_tokens: list[list[str]] = field(default_factory=list)  # spaces holding the seat's objective tokens
    scenario_tokens: list[int] = field(default_factory=list)  # character tokens on the scenario sheet
    mission_progress: list[int] = field(default_factory=list)  # enemies defeated for the active mission
    skips: list[int] = field(default_factory=list)  # turns to miss
    eliminated: list[bool] = field(default_factory=list)
    board: dict[str, list[str]] = zone_map("space")  # Threat cards by space
    decks: dict[str, list[str]] = zone_map("deck")
    discards: dict[str, list[str]] = zone_map("discard")
    revealed: list[str] = zone("revealed")  # cards being chosen from (Wargear to buy, relics, a second mission)
    charges: dict[str, int] = field(default_factory=dict)
    spent: list[str] = field(default_factory=list)  # cards a charge was spent from this turn
    evaded: list[str] = field(default_factory=list)  # enemies evaded this turn
    evade_uses: list[str] = field(default_factory=list)  # per evasion this turn: the limited ability used (its source)
    stack: list[RelicPending] = field(default_factory=list)
    turn_cut_short: bool = False  # the turn player's turn ends at once (vanquished, corrupted...)
    after_turn: list[RelicPending] = field(default_factory=list)  # work to run once a turn cut short is cleared
    last: LastResult | None = None
    # the person's seat at a real table (``wizprint solo table``), -1 otherwise: the program does not know their
    # Power cards, so its windows open by the cards they may hold (``plays.may_hold``)
    table_seat: int = added(lambda: -1)
    # the effect list resolving now, for the causes the log gives (set by ``run_effects``; never saved)
    cause_src: str = transient("")
    cause_why: str = transient("")
    # each seat's last kit and what it was gathered from (``kit``; never saved, empty in a clone)
    kit_memo: list[tuple[str, list[str], list[str], Kit] | None] | None = transient()

    SEATS_IN_RANGE = ("turn_player", "deciding")
    ENDINGS = RelicTermination

    # -- set-up ---------------------------------------------------------------------------------------------------
    @classmethod
    def blank(cls, data: RelicData, players: int, seed: int, variant: str) -> Self:
        """An empty table: no card anywhere yet, no character chosen."""
        if not 2 <= players <= 4:
            raise EngineError("Relic is for 2 to 4 players")
        if variant and variant not in data.scenarios:
            raise EngineError(f"Relic has no scenario {variant!r} (scenarios: {', '.join(data.scenario_ids)})")
        n = players
        return cls(data=data, players=n, variant=variant, rng=Rng(seed), scenario=variant,
                   dealt=[[] for _ in range(n)], characters=[""] * n, attributes=[[1, 1, 1] for _ in range(n)],
                   life=[1] * n, level=[0] * n, influence=[0] * n, positions=[""] * n,
                   hands=[[] for _ in range(n)], corruption_face_up=[[] for _ in range(n)],
                   corruption_face_down=[[] for _ in range(n)], trophies=[[] for _ in range(n)],
                   assets=[[] for _ in range(n)], missions=[""] * n, completed=[[] for _ in range(n)],
                   completed_hidden=[[] for _ in range(n)], objective_tokens=[[] for _ in range(n)],
                   scenario_tokens=[0] * n, mission_progress=[0] * n, skips=[0] * n, eliminated=[False] * n,
                   decks={d: [] for d in DECKS}, discards={d: [] for d in DECKS})

    @classmethod
    def new(cls, data: RelicData, players: int, seed: int, variant: str) -> Self:
        """A new game: the scenario (the variant, or at random), the decks shuffled, two character sheets dealt to
        each seat for the secret choice."""
        s = cls.blank(data, players, seed, variant)
        s.scenario = variant or s.pick(data.scenario_ids, "scenario")
        for d in DECKS:
            deck = list(data.by_deck[d])
            s.rng.shuffle(deck)
            s.decks[d] = deck
        chars = list(data.character_ids)
        s.rng.shuffle(chars)
        for seat in range(players):
            s.dealt[seat] = sorted([chars.pop(), chars.pop()])
        s.unused_characters = sorted(chars)
        s.selection = Commitments(order=list(range(players)))
        s.say(f"Scenario: {data.scenarios[s.scenario].name}")
        s.advance()
        return s

    def set_character(self, s: int, ch: str) -> None:
        c = self.data.characters[ch]
        self.characters[s] = ch
        self.attributes[s] = list(c.attributes)
        self.life[s] = c.life
        self.level[s] = 0
        self.positions[s] = c.start

    # -- small queries --------------------------------------------------------------------------------------------
    # the seat as the log names it (``s.who(0)`` is ``P1``): a lookup without a Python call (millions are made)
    who = staticmethod(WHO.__getitem__)

    def label(self, x: str) -> str:
        c = self.data.cards.get(x)
        return f"{x} {c.name}" if c else x

    def setting(self) -> str:
        """The scenario this game is played on (solo checks report by it)."""
        return f"{self.scenario} {self.data.scenarios[self.scenario].name}" if self.scenario else "no scenario yet"

    def opening_seat(self) -> int:
        return 0  # the oldest player, seat 0

    def starting_choice(self, seat: int) -> str | None:
        ch = self.characters[seat]
        return self.data.characters[ch].name if ch else None

    def is_starting_choice(self) -> bool:
        return self.selection is not None

    def turns_played(self) -> int:
        return self.turn_number

    def space_of(self, s: int) -> Space:
        return self.data.spaces[self.positions[s]]

    def kit(self, s: int) -> Kit:
        """The passive words in force for seat s, gathered (:class:`~.data.Kit`, kept with the data)."""
        memo = self.kit_memo
        if memo is None:
            memo = self.kit_memo = [None] * self.players
        m = memo[s]
        ch, assets, up = self.characters[s], self.assets[s], self.corruption_face_up[s]
        if m is not None and m[0] == ch and m[1] == assets and m[2] == up:
            return m[3]
        key = (ch, tuple(assets), tuple(up))
        got = self.data.kits.get(key)
        if got is None:
            got = self.data.kit(*key)
        memo[s] = (ch, list(assets), list(up), got)
        return got

    def sources(self, s: int) -> list[Passives]:
        """The passive words in force for seat s outside a battle's weapon and armour."""
        return list(self.kit(s).sources)

    def can(self, s: int, what: str) -> bool:
        return what not in self.kit(s).cannot

    def limit_change(self, s: int, what: str) -> int:
        return self.kit(s).limits.get(what, 0)

    def power_limit(self, s: int) -> int:
        ch = self.data.characters[self.characters[s]]
        base = 0
        for lo, hi, lim in ch.power_limits:
            if lo <= self.level[s] <= hi:
                base = lim
        return max(0, base + self.limit_change(s, "power"))

    def asset_limit(self, s: int) -> int:
        return max(0, self.data.characters[self.characters[s]].asset_limit + self.limit_change(s, "asset"))

    def threshold(self, s: int) -> int:
        return max(1, THRESHOLD + self.limit_change(s, "corruption"))

    def skill(self, s: int, a: int) -> int:
        return self.kit(s).skill[a]

    def extra_dice(self, s: int, kind: str) -> int:
        k = self.kit(s)
        return k.extra_battle_dice if kind == "battle" else k.extra_test_dice

    def movement_dice(self, s: int) -> int:
        return self.kit(s).movement_dice

    def relics(self, s: int) -> int:
        C = self.data.cards
        return [C[a].deck for a in self.assets[s]].count("relic")

    def corruption(self, s: int) -> int:
        return len(self.corruption_face_up[s]) + len(self.corruption_face_down[s])

    def completed_count(self, s: int) -> int:
        return len(self.completed[s]) + len(self.completed_hidden[s])

    def trophy_points(self, s: int) -> int:
        C = self.data.cards
        return sum([C[t].value for t in self.trophies[s]])

    def numbers_ok(self, s: int) -> bool:
        """Seat s may play a Power card for its number instead of a roll."""
        return bool(self.hands[s]) and self.can(s, "power")

    def next_space(self, here: str, d: int) -> str:
        """The space ``d`` steps along the ring of ``here`` (1 clockwise, -1 anticlockwise)."""
        D = self.data
        if d == 1 or d == -1:
            return D.ring_steps[here][d < 0]
        ring = D.rings[D.spaces[here].tier]
        return ring[(D.ring_index[here] + d) % len(ring)]

    def can_enter_rift(self, s: int) -> bool:
        """Seat s is on the Guardian of the Rift's space with a relic."""
        return bool(self.space_of(s).inner) and self.relics(s) > 0

    def threats_here(self, s: int) -> list[str]:
        return self.board.get(self.positions[s], [])

    def whens(self, s: int, event: str, traits: Sequence[str] = ()) -> list[tuple[int, str]]:
        """The abilities of seat s triggered by ``event`` (character, assets, face-up Corruption, then the
        scenario), as (effects, source)."""
        D = self.data
        if event not in D.live_events[self.scenario]:  # nothing triggers at it (most events of most turns)
            return []
        scen = D.scenario_whens[self.scenario].get(event)
        mine = self.kit(s).when.get(event) if event in D.when_events else None
        if not mine:
            return [(lid, self.scenario) for lid in scen] if scen else []
        out = [(lid, src) for vs, lid, src in mine if not vs or vs in traits]
        if scen:
            out.extend((lid, self.scenario) for lid in scen)
        return out

    def push_whens(self, s: int, event: str, traits: Sequence[str] = ()) -> None:
        """The seat's abilities triggered by ``event``, each with its cause for the log."""
        for lid, src in reversed(self.whens(s, event, traits)):
            self.push_effects(s, lid, src, cause(self.data, src, event))

    def push_timed(self, s: int, items: Sequence[tuple[int, str]], event: str = "") -> None:
        """Abilities with the same timing word ("start", "end"): the active player chooses the order in which they
        resolve (relic.txt, Timing Language); abilities that do the same thing (copies) need no choice. ``event``:
        when they happen, for the causes the log gives."""
        if not items:
            return
        items = [(lid, src) for lid, src in items if lid]
        if len({lid for lid, _ in items}) < 2:
            for lid, src in reversed(items):
                self.push_effects(s, lid, src, cause(self.data, src, event) if event else "")
            return
        self.stack.append(OrderAbilities(seat=s, effects=tuple(lid for lid, _ in items),
                                         sources=tuple(src for _, src in items)))

    # -- battles: the scores --------------------------------------------------------------------------------------
    def traits(self, f: Battle) -> tuple[str, ...]:
        """The traits of the battle's enemies, in their order (kept with the data by the enemies)."""
        kept = self.data.foe_traits
        got = kept.get(f.foes)
        if got is None:
            C = self.data.cards
            if len(kept) >= FOE_CACHE:
                kept.clear()
            got = kept[f.foes] = tuple([C[x].trait for x in f.foes if C[x].trait])
        return got

    def gear(self, s: int, gear: str) -> list[str]:
        C = self.data.cards
        return sorted([a for a in self.assets[s] if C[a].gear == gear])

    @staticmethod
    def bonus_of(p: Passives, form: str, traits: Sequence[str]) -> int:
        """A source's battle bonus in a battle of ``form`` against enemies with ``traits``."""
        return sum([n for fm, n, vs in p.battle_bonus if (fm == "any" or fm == form) and (not vs or vs in traits)])

    def battle_bonus(self, f: Battle) -> int:
        """The player's battle score without the roll: attribute, battle bonuses, scores added this battle."""
        s = f.seat
        form = ATTRS[f.attribute]
        traits = self.traits(f)
        C = self.data.cards
        total = self.attributes[s][f.attribute] + f.bonus
        for fm, n, vs in self.kit(s).battle_bonus:
            if (fm == "any" or fm == form) and (not vs or vs in traits):
                total += n
        for g in (f.weapon, f.armour):
            if g and g in self.assets[s]:
                total += self.bonus_of(C[g].passives, form, traits)
        return total

    def enemy_bonus(self, f: Battle) -> int:
        """The enemies' battle score without their roll (step 5: per-card bonuses counted now)."""
        s = f.seat
        C = self.data.cards
        if not f.foes:
            return f.value
        total = 0
        per: dict[str, int] | None = None
        scen = self.data.scenarios[self.scenario].passives.scenario_enemy
        for x in f.foes:
            c = C[x]
            total += c.value
            if c.enemy_bonus and per is None:  # what the per-card bonuses count (only when a foe has one)
                omens = sum(1 for y in self.threats_here(s) if C[y].omen)
                per = {"": 1, "power": len(self.hands[s]), "asset": len(self.assets[s]),
                       "corruption": self.corruption(s), "trophy": len(self.trophies[s]), "omen": omens}
            for n, what in c.enemy_bonus:
                assert per is not None
                total += n * per[what]
            for trait, colour, n in scen:
                if (trait and c.trait == trait) or (colour and c.deck == colour):
                    total += n
        return total

    # -- the stack ------------------------------------------------------------------------------------------------
    @property
    def pending(self) -> RelicPending | None:
        """The pending work that waits now (the top of the stack), or None."""
        return self.stack[-1] if self.stack else None

    def cause(self) -> str:
        """Why the effect resolving now happens, for the log: the reason its list was pushed with, else what it is
        printed on ("played Swift Advance", "the text box of Hab-Stack Tertius")."""
        return self.cause_why or cause(self.data, self.cause_src)

    def push(self, f: P) -> P:
        self.stack.append(f)
        return f

    def pop(self, f: RelicPending) -> None:
        if self.stack and self.stack[-1] is f:
            self.stack.pop()

    def push_effects(self, s: int, lid: int, src: str = "", why: str = "") -> None:
        """Effect list ``lid`` printed on ``src`` resolves next for seat s (``why``: the cause the log gives, when
        the source alone does not say it)."""
        if lid:
            self.stack.append(Effects(seat=s, effects=lid, source=src, why=why))

    def push_effect_lists(self, s: int, items: Sequence[tuple[int, str]], why: str = "") -> None:
        """Effect lists resolving in the order given (the first on top of the stack)."""
        for lid, src in reversed(items):
            self.push_effects(s, lid, src, why)

    def nearest(self, kind: type[P], s: int) -> P | None:
        """The topmost pending work of ``kind`` that belongs to seat s."""
        for f in reversed(self.stack):
            if type(f) is kind and f.seat == s:
                return f
        return None

    def end_engagement(self) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            f = self.stack[i]
            if isinstance(f, Engagement):
                del self.stack[i + 1:]
                f.step = ENGAGEMENT_DONE
                return

    # -- cards ----------------------------------------------------------------------------------------------------
    def take_top(self, d: str) -> str:
        """The top card of deck ``d`` (an exhausted deck is its shuffled discard pile); "" when both are empty."""
        deck = self.decks[d]
        if not deck:
            if not self.discards[d]:
                return ""
            deck.extend(self.discards[d])
            self.discards[d] = []
            self.rng.shuffle(deck)
            self.say(f"The {d} deck is exhausted: its discard pile is shuffled to form a new deck")
        return deck.pop()

    def discard(self, x: str) -> None:
        """A card goes face up onto its deck's discard pile; its charge tokens return to the supply."""
        self.discards[self.data.cards[x].deck].append(x)
        self.charges.pop(x, None)

    def draw_power(self, s: int, n: int, why: str = "") -> None:
        got = []
        for _ in range(n):
            x = self.take_top("power")
            if not x:
                break
            self.hands[s].append(x)
            self.note_draw(s, x)
            got.append(x)
        if got:
            self.say(f"{self.who(s)} draws {len(got)} Power card{'s' if len(got) > 1 else ''}" +
                     (f": {why}" if why else ""))
            self.say(f"you draw {', '.join(self.label(x) for x in got)}", (s,))

    def gain_asset(self, s: int, x: str) -> None:
        c = self.data.cards[x]
        self.assets[s].append(x)
        if c.charges:
            self.charges[x] = c.charges
        self.note_draw(s, x)

    def lose_asset(self, s: int, x: str) -> None:
        self.assets[s].remove(x)
        self.discard(x)

    def spend_charge(self, s: int, x: str) -> None:
        self.charges[x] -= 1
        self.spent.append(x)
        self.note_play(s, x)
        if self.charges[x] <= 0:
            self.say(f"{self.label(x)} has no charges left and is discarded")
            self.lose_asset(s, x)

    def note_used(self, s: int, xs: Iterable[str]) -> None:
        """Solo-check statistics: assets whose bonuses were used count as played."""
        for x in xs:
            self.note_play(s, x)

    # -- the turn -------------------------------------------------------------------------------------------------
    def turn_ends(self, s: int) -> bool:
        """Seat s's turn ends at once (vanquished, corrupted, eliminated, missing a turn); False when it is not
        the turn player's turn."""
        if s == self.turn_player and self.phase != PHASE_SELECT and self.phase != PHASE_OVER:
            self.turn_cut_short = True
            return True
        return False

    def end_game(self, winners: tuple[int, ...], reason: str, termination: RelicTermination) -> None:
        if self.result is not None:
            return
        scores = tuple(float(self.progress(t)) for t in range(self.players))
        self.result = Outcome(winners, scores, reason, termination)
        self.phase = PHASE_OVER
        self.stack = []
        self.say(f"Game over: {reason}")

    def progress(self, s: int) -> float:
        """How far a seat is towards winning (for the round limit and search evaluations)."""
        if self.eliminated[s]:
            return -10.0
        sp = self.data.spaces.get(self.positions[s])
        inner = 0.0
        if sp is not None and sp.tier == "inner":
            inner = 6.0 + sp.position
        elif sp is not None and sp.tier == "centre":
            inner = 14.0 + 3.0 * self.scenario_tokens[s]
        return (inner + 5.0 * min(self.relics(s), 2) + 1.4 * min(self.completed_count(s), 3) + 0.4 * self.level[s]
                + 0.15 * sum(self.attributes[s]) + 0.1 * self.life[s] - 0.2 * self.corruption(s))

    def start_turn(self, after: int) -> None:
        """The next turn after seat ``after``'s: missed turns are skipped; the round limit ends the game."""
        n = self.players
        p = (after + 1) % n
        for _ in range(64 * n):
            if self.eliminated[p]:
                p = (p + 1) % n
                continue
            if self.skips[p] > 0:
                self.skips[p] -= 1
                self.say(f"{self.who(p)} misses this turn")
                p = (p + 1) % n
                continue
            break
        if self.turn_number >= ROUND_LIMIT * n:
            best = max(self.progress(t) for t in range(n))
            win = tuple(t for t in range(n) if self.progress(t) == best)
            self.end_game(win, f"round limit: {self.turn_number} turns played, the most progress wins",
                          RelicTermination.ROUND_LIMIT)
            return
        self.turn_player = p
        self.turn_number += 1
        self.spent = []
        self.evaded = []
        self.evade_uses = []
        self.say(f"Turn {self.turn_number}: {self.who(p)} ({self.data.characters[self.characters[p]].name})")
        self.stack.append(Turn(seat=p))

    def advance(self) -> None:
        """Resolve everything automatic until somebody must decide (or the game is over)."""
        runners = RULES.runners
        while True:
            if self.result is not None:
                self.deciding = -1
                return
            if self.turn_cut_short:
                self.turn_cut_short = False
                self.stack = [NextTurn(seat=self.turn_player), *self.after_turn]
                self.after_turn = []
                continue
            stack = self.stack
            if not stack:
                if self.phase == PHASE_SELECT:
                    assert self.selection is not None
                    self.deciding = self.selection.waiting
                    return
                self.start_turn(self.turn_player)
                continue
            f = stack[-1]
            try:
                run = runners[type(f)]
            except KeyError:
                RULES.run_item(self, f)  # raises: nothing runs this kind
                raise
            if run(self, f):
                self.deciding = f.seat
                return

    # -- the API --------------------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if self.result is not None else self.deciding

    def _resample(self, into: RelicState, seat: int, rng: Rng) -> None:
        """The cards this seat cannot see (decks, the others' Power cards, face-down Corruption cards and completed
        missions from the deck, and during set-up the character sheets dealt to the others and their choices) are
        sorted, shuffled with ``rng`` and dealt back into zones of the same sizes."""
        others = [t for t in range(self.players) if t != seat]
        hidden = {"power": into.hands, "corruption": into.corruption_face_down, "mission": into.completed_hidden}
        for d in DECKS:
            zones = hidden.get(d)
            pool = list(self.decks[d])
            if zones is not None:
                for t in others:
                    pool.extend(zones[t])
            pool.sort()
            rng.shuffle(pool)
            if zones is not None:
                for t in others:
                    zones[t] = _deal(pool, len(zones[t]))
            into.decks[d] = _deal(pool, len(self.decks[d]))
        if self.selection is not None and into.selection is not None:
            own = set(self.dealt[seat])
            pool = sorted(c for c in self.data.character_ids if c not in own)
            rng.shuffle(pool)
            for t in others:
                into.dealt[t] = sorted([pool.pop(), pool.pop()])
                if t in into.selection.chosen:
                    into.selection.chosen[t] = into.dealt[t][rng.below(2)]
            into.unused_characters = sorted(pool)

    def chargeable(self) -> list[str]:
        """The cards the current player may spend a charge from now."""
        return sorted(a.a for a in self.legal_actions() if a.kind == "charge")

    def probe(self) -> dict[str, object]:
        out = super().probe()
        out |= {"turn": self.turn_number, "turn_player": self.turn_player, "phase": str(self.phase),
                "current": self.current_player, "scenario": self.scenario,
                "board": {k: sorted(v) for k, v in sorted(self.board.items())},
                "revealed": list(self.revealed),
                "last": self.last.as_dict() if self.last is not None else {},
                "legal": sorted(a.key for a in self.legal_actions()),
                "chargeable": self.chargeable() if not self.is_terminal() else [],
                "charges": dict(sorted(self.charges.items())),
                "unused_characters": sorted(self.unused_characters),
                "pending": self.stack[-1].kind if self.stack else ""}
        for d in DECKS:
            out[f"deck.{d}"] = len(self.decks[d])
            out[f"discard.{d}"] = list(self.discards[d])
            out[f"deck_top.{d}"] = list(reversed(self.decks[d][-5:]))
        for sp, xs in self.board.items():
            out[f"space.{sp}"] = sorted(xs)
        for s in range(self.players):
            out[f"character.{s}"] = self.characters[s]
            out[f"pos.{s}"] = self.positions[s]
            for i, a in enumerate(ATTRS):
                out[f"{a}.{s}"] = self.attributes[s][i]
            out[f"life.{s}"] = self.life[s]
            out[f"level.{s}"] = self.level[s]
            out[f"influence.{s}"] = self.influence[s]
            out[f"hand.{s}"] = sorted(self.hands[s])
            out[f"hand_size.{s}"] = len(self.hands[s])
            out[f"assets.{s}"] = sorted(self.assets[s])
            out[f"trophies.{s}"] = sorted(self.trophies[s])
            out[f"corruption_up.{s}"] = sorted(self.corruption_face_up[s])
            out[f"corruption_down.{s}"] = sorted(self.corruption_face_down[s])
            out[f"corruption.{s}"] = self.corruption(s)
            out[f"mission.{s}"] = self.missions[s]
            out[f"completed.{s}"] = self.completed_count(s)
            out[f"completed_missions.{s}"] = sorted(self.completed[s] + self.completed_hidden[s])
            out[f"tokens.{s}"] = sorted(self.objective_tokens[s])
            out[f"scenario_tokens.{s}"] = self.scenario_tokens[s]
            out[f"skips.{s}"] = self.skips[s]
            out[f"eliminated.{s}"] = self.eliminated[s]
            out[f"power_limit.{s}"] = self.power_limit(s) if self.characters[s] else 0
            out[f"threshold.{s}"] = self.threshold(s) if self.characters[s] else 0
        return out


__all__ = ["RULES", "Phase", "RelicState"]
