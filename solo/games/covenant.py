"""Covenant of Wizards (``../shared/rules/covenant.txt``): 2-4 players build covenants of wizards from one shared
deck; the first to 25 victory points wins.

The engine reads the card database (``cards/covenant``): every behaviour comes from a card's ``effects`` words
(see ``vocabulary.toml``) and its ``vp`` and ``ability`` fields; no code here tests a card's name or id. The
project's rulings (README.md, section "Rulings") settle what the rulebook leaves open.

A turn: Research (draw 1, Spell Forge-like items draw a shown extra, discard down to the hand limit), Event
(events, non-combat spells, wizard actions, resource grants), Duel (one Wizards Duel), Summon (one card, plus
the ability extras), Adventure (one quest, two rounds). A phase with nothing to do but ``end`` is skipped.

Decisions are made one at a time by whoever must choose next (``current_player``): the turn player in the
phases, and in response windows each player asked in turn, from the acting player's left. The windows:
a spell is cast (Dispell), an event, a wizard action or a Wizards Duel is played (Alter Reality), a roll is made
(Probability Shift; the roller is asked last), a wizard or follower would be slain (Healing, its controller),
an item would be stolen (Guardian Beast, its controller), a rival goes on a quest (Tricks & Traps). Spell windows
ask only players who hold a card and control a wizard; the Tricks & Traps window, players who hold a card.

Action keys (``Action.key``; seats are 0-based numbers, logs name them P1..P4):

- ``discard C`` (hand limit), ``end`` (end the phase; in the Adventure phase it ends the turn)
- ``cast S T`` / ``cast S`` (a non-combat spell, T its target card or seat), ``play E T`` / ``play E`` (an event)
- ``act W conjuror|maker|stealth|scry:deck|scry:N`` (a wizard action), ``grant R W`` (a resource's grant_one)
- ``duel W N`` (W challenges seat N), ``answer W`` (the challenged player's wizard)
- ``summon C`` (wizard, resource, stand-alone follower), ``attach C W`` (item or attaching follower onto W)
- ``quest Q``, ``join C`` (participants, chosen in id order), ``go``, ``slay C`` (the quester's losses)
- responses: ``pass``, ``negate S``, ``reroll S``, ``heal S``, ``bonus S``, ``danger E``, ``guard F``
- choices while an effect resolves: ``target X`` (a card or a seat), ``to W`` (the wizard a taken card joins)

``setup`` builds a position for scenario files and tests from these keys (all optional):

- ``hands``: a list per seat of card ids (``D01`` alone picks the next free Wizards Duel copy ``D01#n``)
- ``deck``: card ids, the top card first; ``rest``: ``"deck"`` (default: every card not named goes to the
  bottom of the deck in a seeded shuffle) or ``"discard"``
- ``in_play``: a list per seat of entries ``"W10"`` or ``"W10+I05+F02"`` (a wizard and what is attached to it)
  or a table ``{card = "W10", attached = ["I05"]}``; stand-alone followers and resources are plain ids
- ``quests``: completed quests per seat; ``discard``: the discard pile (bottom first)
- ``turn``: whose turn (default 0); ``turn_number`` (default 1); ``phase``: ``research`` (default: the turn
  starts with its Research draw), ``event``, ``duel``, ``summon`` or ``adventure``
- ``skips``: turns each seat must miss; ``acted``/``duelled``: wizards that already acted / duelled this turn
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from wizprint.errors import EngineError

from ..core import Action, Dice, Outcome, State, frame_in, frame_out
from ..rng import Rng
from . import GameSpec

ABILITIES = ("conjuror", "adventurer", "dueler", "scry", "nature", "stealth", "maker")
ACTION_ABILITIES = ("conjuror", "maker", "stealth", "scry")
HAND = 7
HAND_LIMIT = 8
WIN_VP = 25
ROUND_LIMIT = 200  # project ruling: a game still running after this many rounds ends on points
PHASES = ("event", "duel", "summon", "adventure")

# the effect words: what the engine does with each (vocabulary.toml has their docs)
STATIC_WORDS = frozenset({"ability", "grant", "grant_one", "quest_level", "duel_bonus", "quest_bonus",
                          "quest_bonus_on", "attach", "guard", "extra_research", "on_enter", "on_complete", "duel"})
ACTIVE_WORDS = frozenset({"draw", "search", "skip_turn", "destroy", "steal", "slay", "look_hand", "look_deck",
                          "reanimate", "vortex"})
RESPONSE_WORDS = frozenset({"negate", "reroll", "prevent_slay", "roll_bonus", "danger"})
HANDLED_WORDS = STATIC_WORDS | ACTIVE_WORDS | RESPONSE_WORDS
TARGETED = frozenset({"steal", "destroy", "slay", "look_hand", "reanimate", "skip_turn"})

Eff = tuple[str, str, int]  # word, what (or roll kind), n
Frame = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Info:
    """What the engine needs of one card instance, compiled from its record."""

    iid: str
    design: str
    name: str
    type: str
    vp: int
    abilities: tuple[str, ...]  # innate (wizards)
    grants: tuple[str, ...]  # an item gives its wizard these
    grant_one: tuple[str, ...]  # a resource gives one wizard these for a turn
    duel_bonus: int
    quest_bonus: int
    quest_bonus_on: tuple[tuple[str, int], ...]
    quest_level: int
    attach: bool
    guard: bool
    extra_research: str
    on_enter: tuple[Eff, ...]
    on_complete: tuple[Eff, ...]
    resolve: tuple[Eff, ...]  # what happens when the card is cast / played and resolves
    negate: frozenset[str]
    reroll: bool
    prevent_slay: bool
    roll_bonus: int
    roll_kind: str
    danger: int
    duel: bool

    @property
    def castable(self) -> bool:
        """A spell or event that is played on its own in the Event phase."""
        return any(e[0] in ACTIVE_WORDS for e in self.resolve)


def _compile_effects(card_id: str, effects: Iterable[Any]) -> tuple[Eff, ...]:
    out: list[Eff] = []
    for e in effects:
        if e.word not in ACTIVE_WORDS:
            raise EngineError(f"{card_id}: the engine cannot resolve {e.word!r} inside on_enter/on_complete")
        out.append((e.word, str(e.get("what", "")), int(e.get("n", 0))))
    return tuple(out)


def compile_card(iid: str, card: Any) -> Info:
    """One database record as the engine sees it; an effect word the engine does not handle is an error."""
    abilities: list[str] = []
    if card.get("ability"):
        abilities.append(str(card.get("ability")))
    grants: list[str] = []
    grant_one: list[str] = []
    duel_bonus = quest_bonus = quest_level = roll_bonus = danger = 0
    qb_on: list[tuple[str, int]] = []
    attach = guard = reroll = prevent = duel = False
    extra = roll_kind = ""
    on_enter: tuple[Eff, ...] = ()
    on_complete: tuple[Eff, ...] = ()
    resolve: list[Eff] = []
    negate: set[str] = set()
    for e in card.effects:
        w = e.word
        if w not in HANDLED_WORDS:
            raise EngineError(f"{card.id}: the Covenant engine does not handle the effect word {w!r}")
        if w == "ability":
            if e["ability"] not in abilities:
                abilities.append(str(e["ability"]))
        elif w == "grant":
            grants.append(str(e["ability"]))
        elif w == "grant_one":
            grant_one.append(str(e["ability"]))
        elif w == "duel_bonus":
            duel_bonus += int(e["n"])
        elif w == "quest_bonus":
            quest_bonus += int(e["n"])
        elif w == "quest_bonus_on":
            qb_on.append((str(e["quest"]), int(e["n"])))
        elif w == "quest_level":
            quest_level += int(e["n"])
        elif w == "attach":
            attach = True
        elif w == "guard":
            guard = True
        elif w == "extra_research":
            extra = str(e["unless"])
        elif w == "on_enter":
            on_enter = _compile_effects(card.id, e["then"])
        elif w == "on_complete":
            on_complete = _compile_effects(card.id, e["then"])
        elif w == "duel":
            duel = True
        elif w == "negate":
            negate.update(str(x) for x in e["what"])
            resolve.append(("negate", "", 0))
        elif w == "reroll":
            reroll = True
            resolve.append(("reroll", "", 0))
        elif w == "prevent_slay":
            prevent = True
            resolve.append(("prevent_slay", "", 0))
        elif w == "roll_bonus":
            roll_bonus = int(e["n"])
            roll_kind = str(e["roll"])
            resolve.append(("roll_bonus", roll_kind, roll_bonus))
        elif w == "danger":
            danger = int(e["n"])
            resolve.append(("danger", "", danger))
        else:  # an active word
            resolve.append((w, str(e.get("what", "")), int(e.get("n", 0))))
    return Info(iid, card.id, card.name, card.type, int(card.get("vp") or 0), tuple(abilities), tuple(grants),
                tuple(grant_one), duel_bonus, quest_bonus, tuple(qb_on), quest_level, attach, guard, extra, on_enter,
                on_complete, tuple(resolve), frozenset(negate), reroll, prevent, roll_bonus, roll_kind, danger, duel)


_CARDS: dict[str, Info] = {}


def cards() -> dict[str, Info]:
    """Every card instance of the deck: instance id (``D01#3`` for copies) -> :class:`Info`."""
    if not _CARDS:
        from wizprint.cards.loader import load_game

        game = load_game("covenant")
        for card, n in game.iter_copies():
            iid = card.id if card.copies == 1 else f"{card.id}#{n}"
            _CARDS[iid] = compile_card(iid, card)
    return _CARDS


def words_used() -> set[str]:
    """Every effect word the card database uses (nested ones too)."""
    from wizprint.cards.loader import load_game
    from wizprint.cards.model import effect_words

    out: set[str] = set()
    for card in load_game("covenant").cards():
        out |= effect_words(card.effects)
    return out


def _ids(cs: Iterable[str]) -> str:
    return " ".join(cs)


class CovenantState(State):
    game_id = "covenant"
    step_cap = 20_000

    def __init__(self, players: int = 2, seed: int = 0, variant: str = "", *, deal: bool = True):
        if not 2 <= players <= 4:
            raise EngineError("Covenant of Wizards is for 2 to 4 players")
        if variant:
            raise EngineError(f"Covenant of Wizards has no variant {variant!r}")
        super().__init__(players, seed)
        n = players
        self.variant = variant
        self.deck: list[str] = []  # the top card is the end of the list
        self.discard: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.wiz: list[list[str]] = [[] for _ in range(n)]  # wizards in play, per seat
        self.att: dict[str, list[str]] = {}  # wizard -> items and followers attached to it
        self.fol: list[list[str]] = [[] for _ in range(n)]  # stand-alone followers
        self.res: list[list[str]] = [[] for _ in range(n)]  # resources
        self.quests: list[list[str]] = [[] for _ in range(n)]  # completed quests
        self.limbo: list[str] = []  # cards being played (a spell, an event, the duel card, the quest)
        self.stack: list[Frame] = []  # what is being resolved, innermost last
        self.know: list[dict[str, str]] = [{} for _ in range(n)]  # seat -> hidden card -> "hN" / "dI" (deck index)
        self.phase = "event"  # event | duel | summon | adventure | discard | over
        self.tp = 0  # whose turn
        self.turn_no = 0
        self.cur = 0
        self.acted: list[str] = []  # wizards that used their action this turn
        self.duelled: list[str] = []
        self.tgrant: dict[str, tuple[str, ...]] = {}  # wizard -> abilities granted for this turn
        self.gused: list[str] = []  # resources whose grant_one was used this turn
        self.summons: list[str] = []  # summon slots used this turn: base, xwizard, xitem, xfollower
        self.skips = [0] * n
        self._outcome: Outcome | None = None
        if deal:
            deck = sorted(cards())
            self.rng.shuffle(deck)
            self.deck = deck
            for s in range(n):
                self._draw(s, HAND)
            self._begin_turn(0)
            self._advance()

    # -- small queries ----------------------------------------------------------------------------------------
    def rivals(self, seat: int) -> list[int]:
        """The other seats, from ``seat``'s left (clockwise)."""
        n = self.players
        return [(seat + i) % n for i in range(1, n)]

    def controller(self, card: str) -> int:
        """The seat controlling a card in play, or -1."""
        for s in range(self.players):
            if card in self.wiz[s] or card in self.fol[s] or card in self.res[s]:
                return s
        w = self.holder(card)
        if w:
            return self.controller(w)
        return -1

    def holder(self, card: str) -> str:
        """The wizard ``card`` is attached to, or ''."""
        for w, lst in self.att.items():
            if card in lst:
                return w
        return ""

    def abilities(self, wizard: str) -> set[str]:
        c = cards()
        out = set(c[wizard].abilities)
        for a in self.att.get(wizard, ()):
            out.update(c[a].grants)
        out.update(self.tgrant.get(wizard, ()))
        return out

    def has_ability(self, seat: int, ability: str) -> bool:
        return any(ability in self.abilities(w) for w in self.wiz[seat])

    def items_of(self, seat: int) -> list[str]:
        c = cards()
        return [a for w in self.wiz[seat] for a in self.att.get(w, ()) if c[a].type == "item"]

    def followers_of(self, seat: int) -> list[str]:
        c = cards()
        return list(self.fol[seat]) + [a for w in self.wiz[seat] for a in self.att.get(w, ())
                                       if c[a].type == "follower"]

    def in_play(self, seat: int) -> list[str]:
        out = list(self.wiz[seat]) + list(self.fol[seat]) + list(self.res[seat])
        for w in self.wiz[seat]:
            out.extend(self.att.get(w, ()))
        return out

    def vp(self, seat: int) -> int:
        c = cards()
        return sum(c[x].vp for x in self.in_play(seat)) + sum(c[q].vp for q in self.quests[seat])

    def hand_limit(self, seat: int) -> int:
        return HAND_LIMIT + (1 if self.has_ability(seat, "scry") else 0)

    def duel_strength(self, wizard: str) -> int:
        """What is added to a wizard's 3d6 duel roll before spells."""
        c = cards()
        ab = self.abilities(wizard)
        return (2 if "dueler" in ab else 0) + (1 if "nature" in ab else 0) + sum(
            c[a].duel_bonus for a in self.att.get(wizard, ()))

    def quest_bonus(self, quest: str, parts: Iterable[str]) -> int:
        """What is added to the 2d6 Quest Level for these participants (before spells)."""
        c = cards()
        qd = c[quest].design
        total = c[quest].quest_level
        for p in parts:
            total += 1
            info = c[p]
            if info.type == "wizard":
                ab = self.abilities(p)
                total += (2 if "adventurer" in ab else 0) + (1 if "nature" in ab else 0)
                total += sum(c[a].quest_bonus for a in self.att.get(p, ()) if c[a].type == "item")
            for q, n in info.quest_bonus_on:
                if q == qd:
                    total += n
        return total

    def quest_candidates(self, seat: int) -> list[str]:
        """Wizards that may go on a quest now, and stand-alone followers."""
        return sorted([w for w in self.wiz[seat] if w not in self.acted and w not in self.duelled]
                      + list(self.fol[seat]))

    def _uniq(self, hand: Iterable[str]) -> list[str]:
        """Hand cards with one instance per design (copies of a design are the same choice)."""
        c = cards()
        seen: set[str] = set()
        out = []
        for x in sorted(hand):
            d = c[x].design
            if d not in seen:
                seen.add(d)
                out.append(x)
        return out

    def turns_played(self) -> int:
        return self.turn_no

    # -- card movement ----------------------------------------------------------------------------------------
    def _forget(self, card: str) -> None:
        for k in self.know:
            k.pop(card, None)

    def _forget_deck(self) -> None:
        for i, k in enumerate(self.know):
            if any(z[0] == "d" for z in k.values()):
                self.know[i] = {c: z for c, z in k.items() if z[0] != "d"}

    def _reveal_in_hand(self, seat: int, card: str) -> None:
        """Everybody now knows ``card`` is in ``seat``'s hand."""
        for s in range(self.players):
            if s == seat:
                self.know[s].pop(card, None)
            else:
                self.know[s][card] = f"h{seat}"

    def _shuffle_deck(self) -> None:
        self.rng.shuffle(self.deck)
        self._forget_deck()

    def _draw(self, seat: int, n: int, quiet: bool = False) -> list[str]:
        out: list[str] = []
        for _ in range(n):
            if not self.deck:
                if not self.discard:
                    break
                self.deck = self.discard
                self.discard = []
                self._shuffle_deck()
                self.say("The deck is empty: the discard pile is shuffled to form a new deck")
            c = self.deck.pop()
            for s in range(self.players):
                k = self.know[s]
                if c in k:
                    if s == seat:
                        del k[c]
                    else:
                        k[c] = f"h{seat}"
            self.hands[seat].append(c)
            self.note_draw(seat, c)
            out.append(c)
        if out and not quiet:
            self.say(f"P{seat + 1} draws {len(out)}")
            self.say(f"you draw {_ids(out)}", (seat,))
        return out

    def _from_hand(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self._forget(card)

    def _discard_from_hand(self, seat: int, card: str) -> None:
        self._from_hand(seat, card)
        self.discard.append(card)

    def _to_limbo(self, seat: int, card: str) -> None:
        self._from_hand(seat, card)
        self.limbo.append(card)
        self.note_play(seat, card)

    def _limbo_to_discard(self, card: str) -> None:
        if card in self.limbo:
            self.limbo.remove(card)
            self.discard.append(card)

    def _take_out(self, card: str) -> list[str]:
        """Remove a card from play; returns what was attached to it (still to be placed)."""
        for s in range(self.players):
            if card in self.wiz[s]:
                self.wiz[s].remove(card)
                self.tgrant.pop(card, None)
                return self.att.pop(card, [])
            if card in self.fol[s]:
                self.fol[s].remove(card)
                return []
            if card in self.res[s]:
                self.res[s].remove(card)
                return []
        w = self.holder(card)
        if w:
            lst = self.att[w]
            lst.remove(card)
            if not lst:
                del self.att[w]
            return []
        raise EngineError(f"{card} is not in play")

    def _remove(self, card: str, how: str) -> None:
        """Destroyed or slain: the card and everything attached to it go to the discard pile."""
        seat = self.controller(card)
        rest = self._take_out(card)
        self.discard.append(card)
        self.discard.extend(rest)
        extra = f" (with {_ids(rest)})" if rest else ""
        self.say(f"P{seat + 1}'s {self.label(card)} is {how}{extra}")

    def _attach(self, card: str, wizard: str) -> None:
        self.att.setdefault(wizard, []).append(card)

    def _check_win(self) -> bool:
        if self._outcome is not None:
            return True
        vps = [self.vp(s) for s in range(self.players)]
        winners = tuple(s for s in range(self.players) if vps[s] >= WIN_VP)
        if not winners:
            return False
        self._outcome = Outcome(winners, tuple(float(v) for v in vps),
                                f"P{winners[0] + 1} reaches {vps[winners[0]]} VP")
        self.phase = "over"
        self.say(f"Game over: {self._outcome.reason}")
        return True

    def label(self, card: str) -> str:
        return f"{card} {cards()[card].name}"

    # -- turns ------------------------------------------------------------------------------------------------
    def _begin_turn(self, p: int) -> None:
        n = self.players
        for _ in range(n * 8):
            if self.skips[p] > 0:
                self.skips[p] -= 1
                self.say(f"P{p + 1} misses this turn")
                p = (p + 1) % n
                continue
            break
        self.tp = p
        self.turn_no += 1
        self.acted, self.duelled, self.gused, self.summons = [], [], [], []
        self.tgrant = {}
        self.say(f"Turn {self.turn_no}: P{p + 1}")
        self._research()

    def _research(self) -> None:
        p = self.tp
        c = cards()
        self._draw(p, 1)
        for w in list(self.wiz[p]):
            for a in list(self.att.get(w, ())):
                unless = c[a].extra_research
                if not unless:
                    continue
                got = self._draw(p, 1, quiet=True)
                if not got:
                    continue
                x = got[0]
                if c[x].type == unless:
                    self._reveal_in_hand(p, x)
                    self.say(f"P{p + 1} shows {self.label(x)} ({self.label(a)}) and keeps it")
                else:
                    self._discard_from_hand(p, x)
                    self.say(f"P{p + 1} shows {self.label(x)} ({self.label(a)}): not a {unless}, discarded")
        self.phase = "discard" if len(self.hands[p]) > self.hand_limit(p) else "event"

    def _end_phase(self) -> None:
        if self.phase == "adventure":
            self._end_turn()
        else:
            self.phase = PHASES[PHASES.index(self.phase) + 1]

    def _end_turn(self) -> None:
        self.tgrant = {}
        if self.turn_no >= ROUND_LIMIT * self.players:
            vps = [self.vp(s) for s in range(self.players)]
            best = max(vps)
            winners = tuple(s for s in range(self.players) if vps[s] == best)
            self._outcome = Outcome(winners, tuple(float(v) for v in vps),
                                    f"turn limit: {self.turn_no} turns played, most VP {best}")
            self.phase = "over"
            self.say(f"Game over: {self._outcome.reason}")
            return
        self._begin_turn((self.tp + 1) % self.players)

    def _advance(self) -> None:
        """Resolve everything automatic until somebody must decide (or the game is over)."""
        while self.phase != "over":
            if self.stack:
                f = self.stack[-1]
                if self._run(f):
                    self.cur = int(f["who"])
                    return
                continue
            if self.phase == "discard":
                if len(self.hands[self.tp]) > self.hand_limit(self.tp):
                    self.cur = self.tp
                    return
                self.phase = "event"
                continue
            acts = self._phase_actions()
            if len(acts) == 1:
                self._end_phase()
                continue
            self.cur = self.tp
            return
        self.cur = -1

    # -- frames -----------------------------------------------------------------------------------------------
    def _finish(self, result: str) -> None:
        f = self.stack.pop()
        out = f.get("out")
        if out and self.stack:
            self.stack[-1][out] = result

    def _push_neg(self, what: str, src: str, owner: int) -> None:
        self.stack.append({"k": "neg", "what": what, "src": src, "owner": owner, "order": tuple(self.rivals(owner)),
                           "i": 0, "r": "", "resp": "", "out": "r", "who": -1})

    def _push_roll(self, seat: int, n: int, out: str, label: str) -> None:
        order = tuple([*self.rivals(seat), seat])
        self.stack.append({"k": "roll", "seat": seat, "n": n, "out": out, "label": label, "order": order, "i": 0,
                           "resp": "", "done": False, "v": 0, "who": -1})

    def _push_play(self, seat: int, card: str, what: str, tgt: str) -> None:
        self.stack.append({"k": "play", "seat": seat, "card": card, "what": what, "tgt": tgt, "st": 0, "r": "",
                           "who": -1})

    def _roll_dice(self, seat: int, n: int, label: str) -> int:
        ds = [self.roll(6) for _ in range(n)]
        v = sum(ds)
        self.say(f"P{seat + 1} rolls {label}: {'+'.join(map(str, ds))}" + (f" = {v}" if n > 1 else ""))
        return v

    def _can_respond(self, seat: int) -> bool:
        """Asked in a spell window: holds a card and controls a wizard (public facts only)."""
        return bool(self.hands[seat]) and bool(self.wiz[seat])

    def _run(self, f: Frame) -> bool:
        k = f["k"]
        if k == "neg":
            return self._run_neg(f)
        if k == "roll":
            return self._run_roll(f)
        if k == "play":
            return self._run_play(f)
        if k == "fx":
            return self._run_fx(f)
        if k == "slay":
            return self._run_slay(f)
        if k == "steal":
            return self._run_steal(f)
        if k == "bonus":
            return self._run_bonus(f)
        if k == "traps":
            return self._run_traps(f)
        if k == "act":
            return self._run_act(f)
        if k == "duel":
            return self._run_duel(f)
        if k == "quest":
            return self._run_quest(f)
        if k == "pick":
            f["who"] = f["seat"]
            return True
        raise EngineError(f"unknown frame {k!r}")

    @staticmethod
    def _ask_next(f: Frame, may_answer: Callable[[int], bool]) -> bool:
        """Move a response window on from the player who just answered to the next one in ``f["order"]`` who
        may answer; True when that player must choose now, False when the window is over."""
        if f["resp"]:
            f["resp"] = ""
            f["i"] += 1
        order = f["order"]
        while f["i"] < len(order):
            if may_answer(order[f["i"]]):
                f["who"] = order[f["i"]]
                return True
            f["i"] += 1
        return False

    def _run_neg(self, f: Frame) -> bool:
        if f["r"] == "negated":
            self._finish("negated")
            return False
        if self._ask_next(f, self._can_respond):
            return True
        self._finish("ok")
        return False

    def _run_roll(self, f: Frame) -> bool:
        if f["v"] == 0:
            v = self._roll_dice(f["seat"], f["n"], f["label"])
            f["v"] = v
            self.stack[-2][f["out"]] = v
        if f["done"]:
            self.stack.pop()
            return False
        if self._ask_next(f, self._can_respond):
            return True
        self.stack.pop()
        return False

    def _run_play(self, f: Frame) -> bool:
        st = f["st"]
        card = f["card"]
        if st == 0:
            f["st"] = 1
            self._push_neg(f["what"], card, f["seat"])
            return False
        if st == 1:
            if f["r"] == "negated":
                self.say(f"{self.label(card)} is negated")
                self._limbo_to_discard(card)
                self.stack.pop()
                return False
            f["st"] = 2
            self.stack.append({"k": "fx", "seat": f["seat"], "card": card, "src": "resolve", "i": 0,
                               "tgt": f["tgt"], "who": -1})
            return False
        self._limbo_to_discard(card)
        self.stack.pop()
        return False

    def _run_fx(self, f: Frame) -> bool:
        info = cards()[f["card"]]
        effs = info.resolve if f["src"] == "resolve" else info.on_enter if f["src"] == "on_enter" else info.on_complete
        i = f["i"]
        if i >= len(effs):
            self.stack.pop()
            return False
        f["i"] = i + 1
        self._effect(f["seat"], effs[i], f["tgt"], f["card"])
        return False

    def _run_slay(self, f: Frame) -> bool:
        tgt = f["tgt"]
        ctl = self.controller(tgt)
        if ctl < 0:
            self.stack.pop()
            return False
        if f["st"] == 0:
            if self._can_respond(ctl):
                f["who"] = ctl
                return True
            f["st"] = 1
        self.stack.pop()
        if f["saved"]:
            self.say(f"{self.label(tgt)} is saved")
        else:
            self._remove(tgt, "slain")
        return False

    def _run_steal(self, f: Frame) -> bool:
        tgt = f["tgt"]
        thief = f["seat"]
        owner = self.controller(tgt)
        if owner < 0 or owner == thief:
            self.stack.pop()
            return False
        c = cards()
        info = c[tgt]
        if f["st"] == 0:
            if info.type == "item" and any(c[x].guard for x in self.followers_of(owner)):
                f["who"] = owner
                return True
            f["st"] = 1
        joins = info.type == "item" or (info.type == "follower" and info.attach)
        if info.type == "item" and not self.wiz[thief]:
            self.stack.pop()
            return False
        if joins and len(self.wiz[thief]) > 1:
            f["st"] = 2
            f["who"] = thief
            return True
        self.stack.pop()
        self._move_to(tgt, thief, self.wiz[thief][0] if joins and self.wiz[thief] else "")
        return False

    def _move_to(self, card: str, seat: int, wizard: str) -> None:
        """A stolen card changes hands (an item or attaching follower joins ``wizard``)."""
        owner = self.controller(card)
        info = cards()[card]
        rest = self._take_out(card)
        if info.type == "wizard":
            self.wiz[seat].append(card)
            if rest:
                self.att[card] = rest
        elif info.type == "resource":
            self.res[seat].append(card)
        elif wizard:
            self._attach(card, wizard)
        else:
            self.fol[seat].append(card)
        to = f" (to {wizard})" if wizard else ""
        self.say(f"P{seat + 1} takes {self.label(card)} from P{owner + 1}{to}")
        self._check_win()

    def _run_bonus(self, f: Frame) -> bool:
        casters = f["casters"]
        if f["resp"]:
            f["resp"] = ""
            f["passes"] = 0
            f["i"] = (f["i"] + 1) % len(casters)
        while f["passes"] < len(casters):
            s = casters[f["i"]]
            if self._can_respond(s):
                f["who"] = s
                return True
            f["passes"] += 1
            f["i"] = (f["i"] + 1) % len(casters)
        self.stack.pop()
        return False

    def _run_traps(self, f: Frame) -> bool:
        if self._ask_next(f, lambda seat: bool(self.hands[seat])):
            return True
        self.stack.pop()
        return False

    def _run_act(self, f: Frame) -> bool:
        st = f["st"]
        seat = f["seat"]
        w = f["wiz"]
        ab = f["ab"]
        if st == 0:
            f["st"] = 1
            self._push_neg("action", w, seat)
            return False
        if st == 1:
            if f["r"] == "negated":
                self.say(f"{self.label(w)}'s action is negated")
                self.stack.pop()
                return False
            if ab == "scry":
                self.stack.pop()
                tgt = f["tgt"]
                if tgt == "deck":
                    self._do_effect(seat, ("look_deck", "", 5), "", w)
                else:
                    self._do_effect(seat, ("look_hand", "", 0), tgt, w)
                return False
            f["st"] = 2
            self._push_roll(seat, 1, "v", f"for {ab}")
            return False
        v = f["v"]
        self.stack.pop()
        if ab == "conjuror":
            if v >= 4:
                self._draw(seat, 1)
        elif ab == "maker":
            if v == 6:
                self._effect(seat, ("search", "item", 0), "", w)
        elif ab == "stealth" and v == 6:
            self._effect(seat, ("steal", "item", 0), "", w)
        return False

    def _run_duel(self, f: Frame) -> bool:
        st = f["st"]
        seat = f["seat"]
        rival = f["rival"]
        if st == 0:
            f["st"] = 1
            self._push_neg("duel", f["card"], seat)
            return False
        if st == 1:
            if f["r"] == "negated" or not self.wiz[rival] or f["w0"] not in self.wiz[seat]:
                if f["r"] == "negated":
                    self.say("The duel is negated")
                self._limbo_to_discard(f["card"])
                self.stack.pop()
                self._end_phase()
                return False
            if len(self.wiz[rival]) > 1:
                f["st"] = 2
                f["who"] = rival
                return True
            f["w1"] = self.wiz[rival][0]
            st = f["st"] = 3
        if st == 2:
            f["who"] = rival
            return True
        if st == 3:
            w0, w1 = f["w0"], f["w1"]
            self.duelled.extend([w0, w1])
            self.say(f"Duel: {self.label(w0)} (P{seat + 1}) against {self.label(w1)} (P{rival + 1})")
            f["st"] = 4
            self._push_roll(seat, 3, "r0", "the duel")
            return False
        if st == 4:
            f["st"] = 5
            self._push_roll(rival, 3, "r1", "the duel")
            return False
        if st == 5:
            f["st"] = 6
            self.stack.append({"k": "bonus", "casters": (seat, rival), "ctx": "duel", "i": 0, "passes": 0,
                               "resp": "", "who": -1})
            return False
        if st == 6:
            w0, w1 = f["w0"], f["w1"]
            t0 = f["r0"] + self.duel_strength(w0) + f["b0"]
            t1 = f["r1"] + self.duel_strength(w1) + f["b1"]
            f["t0"], f["t1"] = t0, t1
            f["st"] = 7
            if t0 == t1:
                self.say(f"The duel is a tie ({t0} to {t1}): nobody is slain")
                return False
            loser = w1 if t0 > t1 else w0
            self.say(f"Duel totals {t0} to {t1}: {self.label(loser)} loses")
            self.stack.append({"k": "slay", "tgt": loser, "st": 0, "saved": False, "who": -1})
            return False
        self._limbo_to_discard(f["card"])
        self.stack.pop()
        self._end_phase()
        return False

    def _run_quest(self, f: Frame) -> bool:
        st = f["st"]
        seat = f["seat"]
        if st == 0:
            f["who"] = seat
            return True
        if st == 1:
            f["st"] = 2
            parts = f["parts"]
            self.say(f"P{seat + 1} goes on {self.label(f['card'])} with {_ids(parts)}")
            self.stack.append({"k": "traps", "seat": seat, "order": tuple(self.rivals(seat)), "i": 0, "resp": "",
                               "who": -1})
            return False
        if st == 2:  # a round begins
            f["rd"] += 1
            f["st"] = 3
            self._push_roll(seat, 3, "d", "Danger")
            return False
        if st == 3:
            f["st"] = 4
            self._push_roll(seat, 2, "q", "Quest Level")
            return False
        if st == 4:
            f["st"] = 5
            self.stack.append({"k": "bonus", "casters": (seat,), "ctx": "quest", "i": 0, "passes": 0, "resp": "",
                               "who": -1})
            return False
        if st == 5:
            danger = f["d"] + f["dng"]
            level = f["q"] + self.quest_bonus(f["card"], f["parts"]) + f["b"]
            self.say(f"Round {f['rd']}: Danger {danger}, Quest Level {level}")
            if f["rd"] == 1:
                if danger > level:
                    f["kill"] = danger - level
                    f["spared"] = ()
                    f["st"] = 6
                else:
                    f["st"] = 7
                return False
            f["st"] = 9 if level >= danger else 10
            return False
        if st in (6, 7):
            f["parts"] = tuple(p for p in f["parts"] if self.controller(p) == seat)
        if st == 6:  # round-1 losses, one at a time
            cands = [p for p in f["parts"] if p not in f["spared"]]
            if f["kill"] <= 0 or not cands:
                f["st"] = 7
                return False
            if len(cands) <= f["kill"]:
                self._quest_victim(f, cands[0])
                return False
            f["who"] = seat
            return True
        if st == 7:
            if not f["parts"]:
                self.say("No participant is left: the quest fails")
                f["st"] = 10
                return False
            f["st"] = 2
            return False
        if st == 9:
            card = f["card"]
            self.limbo.remove(card)
            self.quests[seat].append(card)
            self.say(f"P{seat + 1} completes {self.label(card)}")
            f["st"] = 11
            if self._check_win():
                return False
            self.stack.append({"k": "fx", "seat": seat, "card": card, "src": "on_complete", "i": 0, "tgt": "",
                               "who": -1})
            return False
        if st == 10:
            self.say(f"{self.label(f['card'])} fails")
            self._limbo_to_discard(f["card"])
            f["st"] = 11
            return False
        self.stack.pop()
        self._end_turn()
        return False

    def _quest_victim(self, f: Frame, victim: str) -> None:
        f["kill"] -= 1
        f["spared"] = (*f["spared"], victim)
        # an attached follower dies with its wizard; the participant list is brought up to date after the slaying
        self.stack.append({"k": "slay", "tgt": victim, "st": 0, "saved": False, "who": -1})

    # -- effects ----------------------------------------------------------------------------------------------
    def targets(self, seat: int, word: str, what: str) -> list[str]:
        """The legal targets of an effect for ``seat`` (cards, or seats as numbers)."""
        c = cards()
        if word == "steal" or word == "destroy" or word == "slay":
            if word == "steal" and what == "item" and not self.wiz[seat]:
                return []
            out: list[str] = []
            for r in self.rivals(seat):
                if what == "wizard":
                    out.extend(self.wiz[r])
                elif what == "item":
                    out.extend(self.items_of(r))
                elif what == "follower":
                    out.extend(self.followers_of(r))
                elif what == "resource":
                    out.extend(self.res[r])
            return sorted(out)
        if word == "look_hand":
            return [str(r) for r in self.rivals(seat) if self.hands[r]]
        if word == "skip_turn":
            return [str(r) for r in self.rivals(seat)]
        if word == "reanimate":
            return sorted({x for x in self.discard if c[x].type == what})
        return []

    def _effect(self, seat: int, eff: Eff, tgt: str, card: str) -> None:
        """Resolve one effect, choosing its target now if it has none yet."""
        word, what, _ = eff
        c = cards()
        if word == "search":
            found = self._uniq(x for x in self.deck if c[x].type == what)
            if not found:
                self._shuffle_deck()
                self.say(f"P{seat + 1} searches the deck: no {what}")
                return
            if len(found) == 1:
                self._do_effect(seat, eff, found[0], card)
                return
            for i, x in enumerate(self.deck):  # the searcher looks through the deck
                self.know[seat][x] = f"d{i}"
            # the choices are read from the deck when asked (a determinised deck may hold others)
            self.stack.append({"k": "pick", "seat": seat, "eff": eff, "opts": (), "card": card, "who": seat})
            return
        if word in TARGETED and not tgt:
            opts = self.targets(seat, word, what)
            if not opts:
                self.say(f"{self.label(card)}: nothing to {word.replace('_', ' ')}")
                return
            if len(opts) > 1:
                self.stack.append({"k": "pick", "seat": seat, "eff": eff, "opts": tuple(opts), "card": card,
                                   "who": seat})
                return
            tgt = opts[0]
        self._do_effect(seat, eff, tgt, card)

    def _nearest(self, kinds: tuple[str, ...], key: str = "", value: Any = None) -> Frame | None:
        j = self._nearest_index(kinds, key, value)
        return self.stack[j] if j >= 0 else None

    def _nearest_index(self, kinds: tuple[str, ...], key: str = "", value: Any = None) -> int:
        for j in range(len(self.stack) - 1, -1, -1):
            f = self.stack[j]
            if f["k"] in kinds and (not key or f.get(key) == value):
                return j
        return -1

    def _do_effect(self, seat: int, eff: Eff, tgt: str, card: str) -> None:
        word, what, n = eff
        if word == "draw":
            self._draw(seat, n)
        elif word == "search":
            if tgt not in self.deck:
                self._shuffle_deck()
                self.say(f"P{seat + 1} searches the deck: no {what}")
                return
            self.deck.remove(tgt)
            self.hands[seat].append(tgt)
            self.note_draw(seat, tgt)
            self._shuffle_deck()
            self._reveal_in_hand(seat, tgt)
            self.say(f"P{seat + 1} searches the deck and takes {self.label(tgt)}; the deck is shuffled")
        elif word == "skip_turn":
            r = int(tgt)
            self.skips[r] += 1
            self.say(f"P{r + 1} will miss their next turn")
        elif word == "destroy":
            if self.controller(tgt) >= 0:
                self._remove(tgt, "destroyed")
        elif word == "steal":
            self.stack.append({"k": "steal", "seat": seat, "tgt": tgt, "st": 0, "who": -1})
        elif word == "slay":
            self.stack.append({"k": "slay", "tgt": tgt, "st": 0, "saved": False, "who": -1})
        elif word == "look_hand":
            r = int(tgt)
            for x in self.hands[r]:
                self.know[seat][x] = f"h{r}"
            self.say(f"P{seat + 1} looks at P{r + 1}'s hand")
            self.say(f"P{r + 1}'s hand: {_ids(sorted(self.hands[r]))}", (seat,))
        elif word == "look_deck":
            top = []
            for i in range(len(self.deck) - 1, max(-1, len(self.deck) - 1 - n), -1):
                self.know[seat][self.deck[i]] = f"d{i}"
                top.append(self.deck[i])
            self.say(f"P{seat + 1} looks at the top {len(top)} cards of the deck")
            self.say(f"the top of the deck: {_ids(top)}", (seat,))
        elif word == "reanimate":
            if tgt in self.discard:
                self.discard.remove(tgt)
                self.hands[seat].append(tgt)
                self._reveal_in_hand(seat, tgt)
                self.say(f"P{seat + 1} takes {self.label(tgt)} from the discard pile into their hand")
        elif word == "vortex":
            for s in range(self.players):
                for x in self.hands[s]:
                    self._forget(x)
                self.discard.extend(self.hands[s])
                self.hands[s] = []
            self.say("Every player discards their whole hand")
        elif word == "danger":
            q = self._nearest(("quest",))
            if q is not None:
                q["dng"] += n
                self.say(f"The Danger of {self.label(q['card'])} rises by {n}")
        elif word == "roll_bonus":
            d = self._nearest(("duel", "quest"))
            if d is None:
                return
            if d["k"] == "duel" and what in ("duel", "either"):
                side = "b0" if seat == d["seat"] else "b1" if seat == d["rival"] else ""
                if side:
                    d[side] += n
                    self.say(f"P{seat + 1}'s duel roll gets +{n}")
            elif d["k"] == "quest" and what in ("quest", "either") and seat == d["seat"]:
                d["b"] += n
                self.say(f"P{seat + 1}'s Quest Level gets +{n} for this quest")
        elif word == "negate":
            w = self._nearest(("neg",), "src", tgt)
            if w is not None:
                w["r"] = "negated"
        elif word == "reroll":
            j = self._nearest_index(("roll",))
            if j > 0:
                rf = self.stack[j]
                v = self._roll_dice(rf["seat"], rf["n"], f"{rf['label']} again")
                rf["v"] = v
                rf["done"] = True
                self.stack[j - 1][rf["out"]] = v
        elif word == "prevent_slay":
            sf = self._nearest(("slay",), "tgt", tgt)
            if sf is not None:
                sf["saved"] = True
        else:
            raise EngineError(f"{card}: effect {word!r} cannot be resolved")

    # -- actions ----------------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if self.phase == "over" else self.cur

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Outcome | None:
        return self._outcome

    def _summon_slot(self, seat: int, typ: str) -> str:
        extra = {"wizard": "adventurer", "item": "maker", "follower": "nature"}.get(typ)
        if extra and f"x{typ}" not in self.summons and self.has_ability(seat, extra):
            return f"x{typ}"
        return "" if "base" in self.summons else "base"

    def _phase_actions(self) -> list[Action]:
        p = self.tp
        c = cards()
        hand = self.hands[p]
        out: list[Action] = []
        if self.phase == "discard":
            return [Action("discard", x) for x in self._uniq(hand)]
        if self.phase == "event":
            has_wiz = bool(self.wiz[p])
            for x in self._uniq(hand):
                info = c[x]
                if not info.castable or (info.type == "spell" and not has_wiz):
                    continue
                kind = "cast" if info.type == "spell" else "play"
                word, what, _ = next(e for e in info.resolve if e[0] in ACTIVE_WORDS)
                if word in TARGETED:
                    out.extend(Action(kind, x, t) for t in self.targets(p, word, what))
                elif word == "look_deck" and not self.deck:
                    continue
                else:
                    out.append(Action(kind, x))
            for w in self.wiz[p]:
                if w in self.acted:
                    continue
                ab = self.abilities(w)
                for a in ACTION_ABILITIES:
                    if a not in ab:
                        continue
                    if a == "scry":
                        if self.deck:
                            out.append(Action("act", w, "scry:deck"))
                        out.extend(Action("act", w, f"scry:{r}") for r in self.rivals(p) if self.hands[r])
                    elif a == "stealth":
                        if any(self.items_of(r) for r in self.rivals(p)):
                            out.append(Action("act", w, a))
                    else:
                        out.append(Action("act", w, a))
            for r in self.res[p]:
                g = c[r].grant_one
                if not g or r in self.gused:
                    continue
                for w in self.wiz[p]:
                    if not set(g) <= self.abilities(w):
                        out.append(Action("grant", r, w))
        elif self.phase == "duel":
            if self.wiz[p] and any(c[x].duel for x in hand):
                foes = [r for r in self.rivals(p) if self.wiz[r]]
                for w in self.wiz[p]:
                    out.extend(Action("duel", w, str(r)) for r in foes)
        elif self.phase == "summon":
            for x in self._uniq(hand):
                info = c[x]
                t = info.type
                if t not in ("wizard", "item", "follower", "resource") or not self._summon_slot(p, t):
                    continue
                if t == "item" or (t == "follower" and info.attach):
                    out.extend(Action("attach", x, w) for w in self.wiz[p])
                else:
                    out.append(Action("summon", x))
        elif self.phase == "adventure" and any(w not in self.acted and w not in self.duelled for w in self.wiz[p]):
            out.extend(Action("quest", x) for x in self._uniq(hand) if c[x].type == "quest")
        out.append(Action("end"))
        return out

    def _legal_actions(self) -> list[Action]:
        if not self.stack:
            return self._phase_actions()
        f = self.stack[-1]
        k = f["k"]
        c = cards()
        who = f.get("who", -1)
        if k == "neg":
            what = f["what"]
            return [Action("pass")] + [Action("negate", x) for x in self._uniq(self.hands[who]) if what in c[x].negate]
        if k == "roll":
            return [Action("pass")] + [Action("reroll", x) for x in self._uniq(self.hands[who]) if c[x].reroll]
        if k == "slay":
            return [Action("pass")] + [Action("heal", x) for x in self._uniq(self.hands[who]) if c[x].prevent_slay]
        if k == "bonus":
            ctx = f["ctx"]
            return [Action("pass")] + [Action("bonus", x) for x in self._uniq(self.hands[who])
                                       if c[x].roll_bonus and c[x].roll_kind in (ctx, "either")]
        if k == "traps":
            return [Action("pass")] + [Action("danger", x) for x in self._uniq(self.hands[who]) if c[x].danger]
        if k == "steal":
            if f["st"] != 2:
                return [Action("pass")] + [Action("guard", x) for x in sorted(self.followers_of(who)) if c[x].guard]
            return [Action("to", w) for w in self.wiz[f["seat"]]]
        if k == "pick":
            eff = f["eff"]
            if eff[0] == "search":
                found = self._uniq(x for x in self.deck if c[x].type == eff[1])
                return [Action("target", x) for x in found] or [Action("target", "none")]
            return [Action("target", x) for x in f["opts"]]
        if k == "duel":
            return [Action("answer", w) for w in self.wiz[f["rival"]]]
        if k == "quest":
            if f["st"] == 6:
                return [Action("slay", p) for p in f["parts"] if p not in f["spared"]]
            last = f["last"]
            joined = f["parts"]
            out = [Action("join", x) for x in self.quest_candidates(f["seat"]) if x > last and x not in joined]
            if any(c[x].type == "wizard" for x in joined):
                out.append(Action("go"))
            return out
        raise EngineError(f"no decision in frame {k!r}")

    def _apply(self, action: Action) -> None:
        k = action.kind
        a = action.a
        if not self.stack:
            self._apply_phase(action)
        else:
            f = self.stack[-1]
            who = self.cur
            fk = f["k"]
            if k == "pass":
                if fk in ("neg", "roll", "traps"):
                    f["i"] += 1
                elif fk == "slay" or fk == "steal":
                    f["st"] = 1
                elif fk == "bonus":
                    f["passes"] += 1
                    f["i"] = (f["i"] + 1) % len(f["casters"])
                self.say(f"P{who + 1} passes")
            elif k in ("negate", "reroll", "heal", "bonus", "danger"):
                if fk == "slay":
                    f["st"] = 1
                else:
                    f["resp"] = a
                self._to_limbo(who, a)
                info = cards()[a]
                tgt = f.get("src", "") if k == "negate" else f.get("tgt", "") if k == "heal" else ""
                verb = "plays" if info.type == "event" else "casts"
                self.say(f"P{who + 1} {verb} {self.label(a)}" + (f" against {tgt}" if k == "negate" else ""))
                self._push_play(who, a, "event" if info.type == "event" else "spell", tgt)
            elif k == "guard":
                self.stack.pop()
                self.say(f"P{who + 1} discards {self.label(a)} to keep {self.label(f['tgt'])}")
                self._remove(a, "discarded")
            elif k == "to":
                self.stack.pop()
                self._move_to(f["tgt"], f["seat"], a)
            elif k == "target":
                self.stack.pop()
                eff = f["eff"]
                self._do_effect(f["seat"], (eff[0], eff[1], eff[2]), a, f["card"])
            elif k == "answer":
                f["w1"] = a
                f["st"] = 3
            elif k == "join":
                parts = [a]
                if cards()[a].type == "wizard":
                    parts.extend(x for x in self.att.get(a, ()) if cards()[x].type == "follower")
                f["parts"] = (*f["parts"], *parts)
                f["last"] = a
            elif k == "go":
                f["st"] = 1
            elif k == "slay":
                self._quest_victim(f, a)
            else:
                raise EngineError(f"cannot apply {action.key}")
        self._advance()

    def _apply_phase(self, action: Action) -> None:
        k, a, b = action.kind, action.a, action.b
        p = self.tp
        c = cards()
        if k == "end":
            self._end_phase()
        elif k == "discard":
            self._discard_from_hand(p, a)
            self.say(f"P{p + 1} discards {self.label(a)}")
        elif k in ("cast", "play"):
            self._to_limbo(p, a)
            self.say(f"P{p + 1} {'casts' if k == 'cast' else 'plays'} {self.label(a)}" + (f" on {b}" if b else ""))
            self._push_play(p, a, "spell" if k == "cast" else "event", b)
        elif k == "act":
            self.acted.append(a)
            ab, _, tgt = b.partition(":")
            self.say(f"P{p + 1}'s {self.label(a)} uses {ab}" + (f" ({tgt})" if tgt else ""))
            self.stack.append({"k": "act", "seat": p, "wiz": a, "ab": ab, "tgt": tgt, "st": 0, "r": "", "v": 0,
                               "who": -1})
        elif k == "grant":
            self.gused.append(a)
            self.tgrant[b] = (*self.tgrant.get(b, ()), *c[a].grant_one)
            self.say(f"P{p + 1}'s {self.label(a)} gives {self.label(b)} {'/'.join(c[a].grant_one)} this turn")
        elif k == "duel":
            card = next(x for x in sorted(self.hands[p]) if c[x].duel)
            self._to_limbo(p, card)
            r = int(b)
            self.say(f"P{p + 1} plays {self.label(card)}: {self.label(a)} challenges P{r + 1}")
            self.stack.append({"k": "duel", "seat": p, "card": card, "w0": a, "rival": r, "w1": "", "st": 0,
                               "r": "", "r0": 0, "r1": 0, "b0": 0, "b1": 0, "t0": 0, "t1": 0, "who": -1})
        elif k in ("summon", "attach"):
            slot = self._summon_slot(p, c[a].type)
            self.summons.append(slot)
            self._from_hand(p, a)
            self.note_play(p, a)
            info = c[a]
            if k == "attach":
                self._attach(a, b)
                self.say(f"P{p + 1} attaches {self.label(a)} to {self.label(b)}")
            else:
                {"wizard": self.wiz, "resource": self.res, "follower": self.fol}[info.type][p].append(a)
                self.say(f"P{p + 1} summons {self.label(a)}")
            if self._check_win():
                return
            if info.on_enter:
                self.stack.append({"k": "fx", "seat": p, "card": a, "src": "on_enter", "i": 0, "tgt": "", "who": -1})
        elif k == "quest":
            self._to_limbo(p, a)
            self.say(f"P{p + 1} plays {self.label(a)}")
            f: Frame = {"k": "quest", "seat": p, "card": a, "parts": (), "last": "", "st": 0, "dng": 0, "b": 0,
                        "rd": 0, "d": 0, "q": 0, "kill": 0, "spared": (), "who": p}
            cands = self.quest_candidates(p)
            if len(cands) == 1:  # no choice: the only wizard goes
                f["parts"] = (cands[0], *[x for x in self.att.get(cands[0], ()) if c[x].type == "follower"])
                f["st"] = 1
            self.stack.append(f)
        else:
            raise EngineError(f"cannot apply {action.key}")

    # -- views ------------------------------------------------------------------------------------------------
    def _table(self, seat: int) -> dict[str, Any]:
        return {"wizards": {w: list(self.att.get(w, ())) for w in self.wiz[seat]}, "followers": list(self.fol[seat]),
                "resources": list(self.res[seat]), "quests": list(self.quests[seat])}

    def observation(self, seat: int) -> dict[str, Any]:
        n = self.players
        obs: dict[str, Any] = {
            "game": self.game_id, "seat": seat, "players": n, "phase": self.phase, "turn": self.turn_no,
            "turn_player": self.tp, "current": self.current_player, "hand": sorted(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands], "deck": len(self.deck), "discard": list(self.discard),
            "limbo": list(self.limbo), "table": [self._table(s) for s in range(n)],
            "vp": [self.vp(s) for s in range(n)], "skips": list(self.skips), "acted": list(self.acted),
            "duelled": list(self.duelled), "granted": {w: list(v) for w, v in self.tgrant.items()},
            "grants_used": list(self.gused), "summons": list(self.summons),
            "stack": [frame_out(f) for f in self.stack],
            "seen": dict(sorted(self.know[seat].items())),
            "seen_by": {str(t): sorted(x for x, z in self.know[t].items() if z == f"h{seat}")
                        for t in range(n) if t != seat},
            "log": self.visible_log(seat),
        }
        if self._outcome:
            obs["outcome"] = self._outcome.as_dict()
        return obs

    def zones(self) -> dict[str, list[str]]:
        z: dict[str, list[str]] = {"deck": list(self.deck), "discard": list(self.discard), "limbo": list(self.limbo)}
        for s in range(self.players):
            z[f"hand{s}"] = list(self.hands[s])
            z[f"wizards{s}"] = list(self.wiz[s])
            z[f"attached{s}"] = [a for w in self.wiz[s] for a in self.att.get(w, ())]
            z[f"followers{s}"] = list(self.fol[s])
            z[f"resources{s}"] = list(self.res[s])
            z[f"quests{s}"] = list(self.quests[s])
        return z

    def probe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"turn": self.turn_no, "turn_player": self.tp, "phase": self.phase,
                               "current": self.current_player, "discard": len(self.discard), "deck": len(self.deck),
                               "discard_pile": list(self.discard), "limbo": list(self.limbo),
                               "deck_top": list(reversed(self.deck[-5:]))}
        for s in range(self.players):
            out[f"vp.{s}"] = self.vp(s)
            out[f"hand_size.{s}"] = len(self.hands[s])
            out[f"hand.{s}"] = sorted(self.hands[s])
            out[f"in_play.{s}"] = sorted(self.in_play(s))
            out[f"wizards.{s}"] = sorted(self.wiz[s])
            out[f"attached.{s}"] = {w: sorted(self.att[w]) for w in sorted(self.wiz[s]) if self.att.get(w)}
            out[f"followers.{s}"] = sorted(self.fol[s])
            out[f"resources.{s}"] = sorted(self.res[s])
            out[f"quests.{s}"] = sorted(self.quests[s])
            out[f"skips.{s}"] = self.skips[s]
            out[f"seen.{s}"] = sorted(self.know[s])
        if self._outcome:
            out["winners"] = list(self._outcome.winners)
            out["reason"] = self._outcome.reason
        return out

    def describe(self, action: Action) -> str:
        k, a, b = action.kind, action.a, action.b
        c = cards()

        def nm(x: str) -> str:
            return self.label(x) if x in c else x

        def seat_or_card(x: str) -> str:
            return f"P{int(x) + 1}" if x.isdigit() else nm(x)

        if k in ("cast", "play"):
            if not b:
                return f"{k} {nm(a)}"
            word = c[a].resolve[0][0].replace("_", " ")
            return f"{k} {nm(a)}: {word} {seat_or_card(b)}"
        if k == "attach":
            return f"attach {nm(a)} to {nm(b)}"
        if k == "act":
            ab, _, t = b.partition(":")
            where = "" if not t else " (the deck)" if t == "deck" else f" (P{int(t) + 1}'s hand)"
            return f"{nm(a)} uses {ab}{where}"
        if k == "grant":
            return f"{nm(a)} gives {nm(b)} {'/'.join(c[a].grant_one)} this turn"
        if k == "duel":
            return f"play Wizards Duel: {nm(a)} challenges P{int(b) + 1}"
        if k == "target":
            f = self.stack[-1] if self.stack else {}
            word = str(f.get("eff", ("choose",))[0]).replace("_", " ")
            return f"{word} {seat_or_card(a)}"
        if k == "to":
            return f"attach it to {nm(a)}"
        if k == "end":
            return f"end the {self.phase} phase" if self.phase != "adventure" else "end the turn"
        if k == "go":
            return "set out on the quest"
        if k == "pass":
            return "pass"
        return f"{k} {nm(a)}" + (f" {nm(b)}" if b else "")

    # -- copies -----------------------------------------------------------------------------------------------
    def clone(self) -> CovenantState:
        s = CovenantState.__new__(CovenantState)
        self._base_clone_into(s)
        s.variant = self.variant
        s.deck = list(self.deck)
        s.discard = list(self.discard)
        s.hands = [list(h) for h in self.hands]
        s.wiz = [list(x) for x in self.wiz]
        s.att = {w: list(v) for w, v in self.att.items()}
        s.fol = [list(x) for x in self.fol]
        s.res = [list(x) for x in self.res]
        s.quests = [list(x) for x in self.quests]
        s.limbo = list(self.limbo)
        s.stack = [dict(f) for f in self.stack]
        s.know = [dict(k) for k in self.know]
        s.phase = self.phase
        s.tp = self.tp
        s.turn_no = self.turn_no
        s.cur = self.cur
        s.acted = list(self.acted)
        s.duelled = list(self.duelled)
        s.tgrant = dict(self.tgrant)
        s.gused = list(self.gused)
        s.summons = list(self.summons)
        s.skips = list(self.skips)
        s._outcome = self._outcome
        return s

    def to_json(self) -> dict[str, Any]:
        d = self._base_json()
        d.update(variant=self.variant, deck=list(self.deck), discard=list(self.discard),
                 hands=[list(h) for h in self.hands], wizards=[list(x) for x in self.wiz],
                 attached={w: list(v) for w, v in sorted(self.att.items())}, followers=[list(x) for x in self.fol],
                 resources=[list(x) for x in self.res], quests=[list(x) for x in self.quests], limbo=list(self.limbo),
                 stack=[frame_out(f) for f in self.stack], know=[dict(sorted(k.items())) for k in self.know],
                 phase=self.phase, turn_player=self.tp, turn_no=self.turn_no, cur=self.cur, acted=list(self.acted),
                 duelled=list(self.duelled), granted={w: list(v) for w, v in sorted(self.tgrant.items())},
                 grants_used=list(self.gused), summons=list(self.summons), skips=list(self.skips),
                 outcome=self._outcome.as_dict() if self._outcome else None)
        return d

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CovenantState:
        s = cls(int(data["players"]), 0, str(data.get("variant", "")), deal=False)
        s._base_load(data)
        s.deck = list(data["deck"])
        s.discard = list(data["discard"])
        s.hands = [list(h) for h in data["hands"]]
        s.wiz = [list(x) for x in data["wizards"]]
        s.att = {w: list(v) for w, v in data["attached"].items()}
        s.fol = [list(x) for x in data["followers"]]
        s.res = [list(x) for x in data["resources"]]
        s.quests = [list(x) for x in data["quests"]]
        s.limbo = list(data["limbo"])
        s.stack = [frame_in(f) for f in data["stack"]]
        s.know = [dict(k) for k in data["know"]]
        s.phase = str(data["phase"])
        s.tp = int(data["turn_player"])
        s.turn_no = int(data["turn_no"])
        s.cur = int(data["cur"])
        s.acted = list(data["acted"])
        s.duelled = list(data["duelled"])
        s.tgrant = {w: tuple(v) for w, v in data["granted"].items()}
        s.gused = list(data["grants_used"])
        s.summons = list(data["summons"])
        s.skips = [int(x) for x in data["skips"]]
        s._outcome = Outcome.from_dict(data.get("outcome"))
        s.check_zones()
        return s

    def card_instances(self) -> dict[str, Any]:
        return cards()

    def determinize(self, seat: int, rng: Rng) -> CovenantState:
        s = self.clone()
        known = self.know[seat]
        n = self.players
        pool: list[str] = []
        for t in range(n):
            if t != seat:
                pool.extend(x for x in self.hands[t] if known.get(x) != f"h{t}")
        fixed_deck: dict[int, str] = {}
        for i, x in enumerate(self.deck):
            if known.get(x) == f"d{i}":
                fixed_deck[i] = x
            else:
                pool.append(x)
        pool.sort()
        rng.shuffle(pool)
        for t in range(n):
            if t != seat:
                keep = sorted(x for x in self.hands[t] if known.get(x) == f"h{t}")
                s.hands[t] = keep + [pool.pop() for _ in range(len(self.hands[t]) - len(keep))]
        s.deck = [fixed_deck[i] if i in fixed_deck else pool.pop() for i in range(len(self.deck))]
        # what the other seats know: only what this seat can tell they know (its own hand; what it knows too)
        own = f"h{seat}"
        for t in range(n):
            if t != seat:
                s.know[t] = {x: z for x, z in self.know[t].items() if z == own or known.get(x) == z}
        s.log = [e for e in self.log if e.seats is None or seat in e.seats]
        s.dice = Dice()
        s.rng = Rng(rng.next64())
        return s


def new_state(players: int = 2, seed: int = 0, variant: str = "") -> CovenantState:
    return CovenantState(players, seed, variant)


def setup(table: Mapping[str, Any], players: int = 2, seed: int = 0, variant: str = "") -> CovenantState:
    """A position from a scenario file's ``[setup]`` (the keys are in the module docstring)."""
    s = CovenantState(players, seed, variant, deal=False)
    c = cards()
    used: list[str] = []

    def take(x: str, where: str) -> str:
        if x not in c and "#" not in x:
            copies = sorted(i for i in c if i.startswith(x + "#"))
            free = [i for i in copies if i not in used]
            if copies and free:
                x = free[0]
        if x not in c:
            raise EngineError(f"setup {where}: unknown card '{x}'")
        if x in used:
            raise EngineError(f"setup {where}: card '{x}' is named twice")
        used.append(x)
        return x

    def per_seat(key: str) -> list[Any]:
        v = list(table.get(key, []))
        if len(v) > players:
            raise EngineError(f"setup {key}: {len(v)} seats given for {players} players")
        return v + [[] for _ in range(players - len(v))]

    s.hands = [[take(str(x), "hands") for x in h] for h in per_seat("hands")]
    for seat, entries in enumerate(per_seat("in_play")):
        for e in entries:
            if isinstance(e, Mapping):
                head, rest = str(e["card"]), [str(x) for x in e.get("attached", [])]
            else:
                head, *rest = str(e).split("+")
            head = take(head, "in_play")
            info = c[head]
            if info.type == "wizard":
                s.wiz[seat].append(head)
                for x in rest:
                    x = take(x, "in_play")
                    if c[x].type != "item" and not (c[x].type == "follower" and c[x].attach):
                        raise EngineError(f"setup in_play: {x} cannot be attached to a wizard")
                    s._attach(x, head)
            elif rest:
                raise EngineError(f"setup in_play: only a wizard can have cards attached ({e})")
            elif info.type == "follower" and not info.attach:
                s.fol[seat].append(head)
            elif info.type == "resource":
                s.res[seat].append(head)
            else:
                raise EngineError(f"setup in_play: {head} ({info.type}) cannot stand alone in play")
    for seat, qs in enumerate(per_seat("quests")):
        for q in qs:
            q = take(str(q), "quests")
            if c[q].type != "quest":
                raise EngineError(f"setup quests: {q} is not a quest")
            s.quests[seat].append(q)
    s.discard = [take(str(x), "discard") for x in table.get("discard", [])]
    top_first = [take(str(x), "deck") for x in table.get("deck", [])]
    rest = sorted(set(c) - set(used))
    if table.get("rest", "deck") == "discard":
        s.discard.extend(rest)
        bottom: list[str] = []
    else:
        s.rng.shuffle(rest)
        bottom = rest
    s.deck = bottom + list(reversed(top_first))
    skips = [int(x) for x in table.get("skips", [])]
    s.skips = (skips + [0] * players)[:players]
    s.tp = int(table.get("turn", 0))
    s.turn_no = int(table.get("turn_number", 1))
    phase = str(table.get("phase", "research"))
    s.acted = [str(x) for x in table.get("acted", [])]
    s.duelled = [str(x) for x in table.get("duelled", [])]
    s.check_zones()
    if s._check_win():
        return s
    if phase == "research":
        s.turn_no -= 1
        s._begin_turn(s.tp)
    elif phase in PHASES:
        s.phase = phase
        s.say(f"Turn {s.turn_no}: P{s.tp + 1} ({phase} phase)")
    else:
        raise EngineError(f"setup phase: {phase!r} is not research, event, duel, summon or adventure")
    s._advance()
    return s


def _automaton() -> Any:
    from ..agents.covenant import CovenantAutomaton

    return CovenantAutomaton()


def _name(x: str) -> str:
    return f"{x} {cards()[x].name}"


def view(obs: Mapping[str, Any]) -> list[str]:
    """The terminal view of a seat's observation (rich markup): scores, every covenant on the table, the piles,
    the duel or quest under way, what the seat has seen, and its hand."""
    me = int(obs["seat"])
    n = int(obs["players"])
    lines = [f"Phase: {obs['phase']} (P{int(obs['turn_player']) + 1}'s turn)   deck {obs['deck']}, discard pile "
             f"{len(obs['discard'])}" + (f" (top: {_name(obs['discard'][-1])})" if obs["discard"] else "")]
    for s in range(n):
        t = obs["table"][s]
        who = "You" if s == me else f"P{s + 1}"
        skip = f", misses {obs['skips'][s]} turn(s)" if obs["skips"][s] else ""
        lines.append(f"[bold]{who}: {obs['vp'][s]} VP[/bold], {obs['hand_sizes'][s]} cards in hand{skip}")
        for w, att in t["wizards"].items():
            extra = f" with {', '.join(_name(a) for a in att)}" if att else ""
            granted = obs.get("granted", {}).get(w)
            g = f" (this turn also {', '.join(granted)})" if granted else ""
            lines.append(f"    wizard {_name(w)} ({', '.join(cards()[w].abilities)}){extra}{g}")
        for key, label in (("followers", "followers"), ("resources", "resources"), ("quests", "completed quests")):
            if t[key]:
                lines.append(f"    {label}: {', '.join(_name(x) for x in t[key])}")
    if obs.get("stack"):
        lines.append(f"Under way: {'; '.join(str(f.get('kind', f)) for f in obs['stack'])}")
    seen = obs.get("seen") or {}
    if seen:
        lines.append("You have seen: " + ", ".join(f"{_name(k)} ({v})" for k, v in sorted(seen.items())))
    lines.append("Your hand: " + ("; ".join(_name(x) for x in obs["hand"]) or "(empty)"))
    return lines


FEATURES = ("vp", "vp over 15", "wizards", "items", "followers", "resources", "hand", "quest vp in hand",
            "best duel strength", "action abilities", "to move")


def eval_features(state: CovenantState, seat: int) -> tuple[float, ...]:
    """What the evaluation weighs for one seat (names in ``FEATURES``)."""
    c = cards()
    s = state
    vp = s.vp(seat)
    wiz = s.wiz[seat]
    items = sum(1 for w in wiz for a in s.att.get(w, ()) if c[a].type == "item")
    fol = len(s.fol[seat]) + sum(1 for w in wiz for a in s.att.get(w, ()) if c[a].type == "follower")
    hand = s.hands[seat]
    qvp = sum(c[x].vp for x in hand if c[x].type == "quest")
    duel = max((s.duel_strength(w) for w in wiz), default=0)
    acts = sum(1 for w in wiz for ab in s.abilities(w) if ab in ACTION_ABILITIES)
    return (float(vp), float(max(0, vp - 15)), float(len(wiz)), float(items), float(fol), float(len(s.res[seat])),
            float(len(hand)), float(qvp), float(duel), float(acts), 1.0 if s.tp == seat else 0.0)


# Fitted by ``scripts/fit_covenant_eval.py`` (a conditional logit on automaton self-play positions: the chance
# that a seat wins is softmax over the seats of weights · features).
WEIGHTS = (0.1046, 0.1355, 0.2489, -0.0193, 0.0265, 0.1417, 0.1249, 0.0299, 0.0312, 0.0697, 0.1361)


def win_chances(state: CovenantState) -> list[float]:
    """Each seat's estimated chance of winning from here (they sum to 1)."""
    f = [sum(w * x for w, x in zip(WEIGHTS, eval_features(state, k), strict=True)) for k in range(state.players)]
    top = max(f)
    e = [math.exp(v - top) for v in f]
    z = sum(e)
    return [v / z for v in e]


def evaluate(state: State) -> list[float]:
    """A quick estimate of the returns of an unfinished game, for truncated search playouts: the expected return
    (+1 for a win, -1 for a loss) under the fitted chances of ``win_chances``."""
    assert isinstance(state, CovenantState)
    return [2.0 * p - 1.0 for p in win_chances(state)]


SPEC = GameSpec(
    id="covenant", name="Covenant of Wizards", min_players=2, max_players=4, new_state=new_state,
    from_json=CovenantState.from_json, automaton=_automaton, setup=setup, variants=(), doc=__doc__ or "",
    extra={"view": view, "evaluate": evaluate, "rollout_depth": 60, "search": "paired",
           "mcts_iterations": 200},
)

__all__ = ["HANDLED_WORDS", "SPEC", "CovenantState", "Info", "cards", "new_state", "setup", "words_used"]
