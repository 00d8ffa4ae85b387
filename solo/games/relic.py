"""Relic (``../shared/rules/relic.txt``): 2-4 heroes cross the Outer, Middle and Inner tiers of the Antian Sector,
battle Threat cards, gain levels and wargear, complete missions for relics and confront the scenario's foe at the
centre of the board; the first to fulfil the scenario's confrontation wins.

The engine reads the card database (``cards/relic``): every card, character sheet, scenario sheet and board space
says what it does in the words of ``vocabulary.toml``, and the engine interprets those words; no code here tests a
card's, space's, character's or scenario's name or id. The only board ids the engine knows are fixed by the
rulebook itself: the space where vanquished players go (``VANQUISHED_SPACE``, St. Antias' Sanctuary). The Warp
Rift is the ``to`` of the ``enter_inner`` movement box; the scenario space is the space of the ``centre`` tier.
The project's rulings (README.md, Rulings: Relic) settle what the rulebook leaves open.

A turn: Movement (roll one die, or play a Power card's number instead; choose a direction; movement boxes),
Exploration (draw Threat cards up to the icons), Engagement (Threat cards: events, battles, encounters, assets;
else the text box; the Inner tier's boxes; the scenario's confrontation), Experience (spend trophies for levels,
three completed missions for a relic, draw a Mission, discard down to the limits).

Decisions are asked one at a time of ``current_player``: the active player, or another player resolving an
``each_player`` effect. Action keys (``Action.key``; seats are 0-based, logs call them P1..P4):

- set-up: ``pick CH03`` (the secret, simultaneous character choice)
- windows before a roll and in the phases: ``roll``, ``number PW05`` (a Power card's number instead of the roll),
  ``play PW10`` (a Power card's ability), ``charge WG01`` (spend a charge), ``use TR38`` (discard for its
  ability), ``rift`` (the Guardian of the Rift's movement box at the start of the Movement phase),
  ``objective`` (attempt the active mission's test or influence objective), ``pass`` (go on: with the Engagement
  phase, or from Prepare for Battle to the rolls), ``weapon X`` / ``armour X`` (the Wargear whose bonuses this
  battle uses)
- movement: ``move N`` (the die kept, with several movement dice), ``cw`` / ``acw``, ``jump`` / ``pass`` (a
  movement box), ``more`` / ``stop`` (extra spaces)
- rolls: ``pass`` / ``reroll SOURCE DIE`` (after a roll; DIE counts from 0)
- Threat cards: ``event X``, ``encounter X``, ``ignore X``, ``evade X`` or ``evade X PW08`` (a Power card),
  ``fight strength|willpower|cunning``
- choices while an effect resolves: ``yes`` / ``no`` (may, pay), ``option N`` (choose), ``stat A`` (an attribute),
  ``target X`` (a card to charge), ``discard X``, ``purge X`` (a Corruption card), ``mission X`` (the mission to
  keep), ``to SPACE`` (move_any), ``buy N`` (Power cards) / ``buy X`` and ``done`` (Wargear), ``take X`` (a relic),
  ``box N`` / ``end`` (text boxes), ``spend`` / ``save`` (the Warp Rift's 8 influence), ``first X`` (which of
  the abilities with one timing word resolves next), ``new`` / ``concede`` (corrupted: start a new character, or
  lose the game instead)
- Experience: ``level N`` (spend trophies for N levels), ``relic``, ``discard X``, ``end``

``setup`` builds a position for scenario files and tests from these keys (all optional; lists are per seat):

- ``characters`` (ids; default: CH01, CH02, ...), ``positions`` (space ids; default: the character's start)
- ``attributes`` ([strength, willpower, cunning]), ``life``, ``level``, ``influence`` (default 3)
- ``hands`` (Power cards), ``assets`` (Wargear, Relics and Threat assets), ``trophies``, ``corruption`` (face
  down), ``corruption_up`` (face up), ``missions`` (the active mission, ``""`` for none; default: one is drawn),
  ``completed`` (completed missions), ``tokens`` (spaces holding the seat's objective tokens; default: those of
  its active mission), ``scenario_tokens``, ``skips`` (turns to miss)
- ``threats``: {space = [Threat cards]}; ``charges``: {card = n} (default: the card's printed charges)
- ``decks``: {power|corruption|mission|relic|wargear|red|blue|yellow = [cards, top first]}; cards not named
  anywhere stay in their shuffled decks
- ``turn`` (whose turn, default 0), ``turn_number`` (default 1), ``phase``: ``turn`` (default: the turn starts),
  ``movement``, ``exploration``, ``engagement`` or ``experience``; ``dice``: die results for rolls made before the
  first decision

Card instances are named by design id, with ``#n`` for copies (``TR01#3``). A named design with copies takes its
next free copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from wizprint.errors import EngineError
from wizprint.generator.markup import spoken

from ..core import Action, Commitments, Dice, Outcome, State, frame_in, frame_out
from ..rng import Rng
from . import GameSpec

# -- rules constants (relic.txt) -------------------------------------------------------------------------------
ATTRS = ("strength", "willpower", "cunning")
AI = {a: i for i, a in enumerate(ATTRS)}
COLOURS = ("red", "blue", "yellow")
SEAT_COLOURS = ("grey", "brown", "green", "purple")
MAX_STAT = 12  # attributes and Life
MAX_LEVEL = 12
START_INFLUENCE = 3
THRESHOLD = 6  # corruption threshold
TROPHY_POINTS = 6  # trophy points per level
RELIC_MISSIONS = 3  # completed missions spent for a relic
RELIC_REVEAL = 2
WARP_LEVEL, WARP_INFLUENCE, WARP_RELICS = 9, 8, 2  # the Warp Rift's conditions (vocabulary: warp_skip)
VANQUISHED_SPACE = "O00"  # relic.txt, Vanquished Players: "places their character piece on St. Antias' Sanctuary"
ROUND_LIMIT = 400  # project ruling: a game still running after this many rounds ends on progress
DECKS = ("power", "corruption", "mission", "relic", "wargear", "red", "blue", "yellow")
DECK_OF = {"power": "power", "corruption": "corruption", "mission": "mission", "relic": "relic",
           "wargear": "wargear", "threat-red": "red", "threat-blue": "blue", "threat-yellow": "yellow"}

# the vocabulary: passive words describe what a card, character or scenario *is*; the others are resolved
PASSIVE = frozenset({
    "battle_bonus", "skill_bonus", "extra_die", "limit", "cannot", "may_evade", "move_dice", "ignore", "when",
    "charge", "use", "enemy_bonus", "enemy_dice", "on_defeat", "on_victory", "at_battle_start", "special", "stays",
    "objective_defeat", "objective_visit", "objective_tokens", "objective_trophies", "objective_influence",
    "objective_test", "objective_level", "scenario_enemy", "scenario_when"})
ACTIVE = frozenset({
    "gain", "lose", "draw", "draw_threat", "discard", "gain_level", "complete_mission", "gain_charge", "test", "roll",
    "may", "pay", "choose", "buy_power", "buy_wargear", "cross", "move_to", "move_any", "move_bonus", "enter_inner",
    "warp_skip", "miss_turn", "end_engagement", "each_player", "remove_corruption", "battle", "win_game",
    "scenario_token", "add_score", "reroll", "evade", "move_extra"})
HANDLED_WORDS = PASSIVE | ACTIVE
OBJECTIVES = frozenset(w for w in PASSIVE if w.startswith("objective_"))
# which windows a Power card's timing (or a charge's / use's moment) opens
TIMING_WINDOWS = {"movement": "move", "exploration": "eng", "engagement": "eng", "battle": "battle", "test": "test",
                  "experience": "exp", "any": "*"}

Frame = dict[str, Any]


# -- the compiled database -------------------------------------------------------------------------------------
class _Lists:
    """Every effect list of the database, numbered in load order, so frames refer to them by number."""

    def __init__(self) -> None:
        self.lists: list[tuple[Any, ...]] = [()]
        self.ids: dict[int, int] = {}

    def reg(self, effs: Sequence[Any]) -> int:
        if not effs:
            return 0
        got = self.ids.get(id(effs))
        if got is not None:
            return got
        t = effs if isinstance(effs, tuple) else tuple(effs)
        self.lists.append(t)
        i = len(self.lists) - 1
        self.ids[id(effs)] = i
        self.ids[id(t)] = i
        for e in t:
            for key, v in e.params.items():
                if key in ("then", "then_pass", "then_fail", "then_win", "then_lose"):
                    self.reg(v)
                elif key == "options":
                    for o in v:
                        self.reg(o["then"])
                elif key == "results":
                    for r in v:
                        self.reg(r["then"])
        return i

    def of(self, effs: Sequence[Any]) -> int:
        if not effs:
            return 0
        return self.ids[id(effs)]


@dataclass(frozen=True, slots=True)
class Pas:
    """The passive words of one card, character sheet or scenario."""

    bb: tuple[tuple[str, int, str], ...] = ()  # battle bonus: form, n, vs
    sb: tuple[tuple[int, int], ...] = ()  # skill bonus: attribute index, n
    xb: int = 0  # extra battle dice
    xt: int = 0  # extra test dice
    lim: tuple[tuple[str, int], ...] = ()
    cannot: frozenset[str] = frozenset()
    evade: tuple[tuple[str, int], ...] = ()  # may_evade: attribute ('' any), max value (0 any)
    mdice: int = 0
    ign: tuple[tuple[str, str], ...] = ()  # ignore: category, colour ('' any)
    when: tuple[tuple[str, str, int], ...] = ()  # event, vs, effects
    charge: tuple[tuple[str, int], ...] = ()  # moment, effects
    use: tuple[tuple[str, int], ...] = ()
    senemy: tuple[tuple[str, str, int], ...] = ()  # scenario_enemy: trait, colour, n
    swhen: tuple[tuple[str, int], ...] = ()  # scenario_when: event, effects


def _pas(effs: Iterable[Any], L: _Lists) -> Pas:
    bb: list[tuple[str, int, str]] = []
    sb: list[tuple[int, int]] = []
    xb = xt = mdice = 0
    lim: list[tuple[str, int]] = []
    cannot: set[str] = set()
    ev: list[tuple[str, int]] = []
    ign: list[tuple[str, str]] = []
    when: list[tuple[str, str, int]] = []
    charge: list[tuple[str, int]] = []
    use: list[tuple[str, int]] = []
    senemy: list[tuple[str, str, int]] = []
    swhen: list[tuple[str, int]] = []
    for e in effs:
        w = e.word
        if w == "battle_bonus":
            bb.append((str(e["form"]), int(e["n"]), str(e.get("vs", ""))))
        elif w == "skill_bonus":
            sb.append((AI[str(e["attribute"])], int(e["n"])))
        elif w == "extra_die":
            if e["roll"] == "battle":
                xb += 1
            else:
                xt += 1
        elif w == "limit":
            lim.append((str(e["what"]), int(e["n"])))
        elif w == "cannot":
            cannot.add(str(e["what"]))
        elif w == "may_evade":
            ev.append((str(e.get("attribute", "")).lower(), int(e.get("max_value", 0))))
        elif w == "move_dice":
            mdice = max(mdice, int(e["n"]))
        elif w == "ignore":
            ign.append((str(e["what"]), str(e.get("colour", ""))))
        elif w == "when":
            when.append((str(e["event"]), str(e.get("vs", "")), L.reg(e["then"])))
        elif w == "charge":
            charge.append((str(e["moment"]), L.reg(e["then"])))
        elif w == "use":
            use.append((str(e["moment"]), L.reg(e["then"])))
        elif w == "scenario_enemy":
            senemy.append((str(e.get("trait", "")), str(e.get("colour", "")), int(e["n"])))
        elif w == "scenario_when":
            swhen.append((str(e["event"]), L.reg(e["then"])))
    return Pas(tuple(bb), tuple(sb), xb, xt, tuple(lim), frozenset(cannot), tuple(ev), mdice, tuple(ign),
               tuple(when), tuple(charge), tuple(use), tuple(senemy), tuple(swhen))


@dataclass(frozen=True, slots=True)
class Card:
    """What the engine needs of one card instance."""

    iid: str
    design: str
    name: str
    deck: str  # power, corruption, mission, relic, wargear, red, blue, yellow
    cat: str  # a Threat card's category; '' otherwise
    trait: str
    attr: int  # an enemy's attribute index, -1 if none
    value: int
    icons: tuple[int, int, int]
    omen: bool
    charges: int
    number: int
    timing: str
    activation: int
    cost: int
    gear: str
    pas: Pas
    act: int  # the effects resolved when the card is resolved, activated or played for its ability
    first: str  # the first resolved word (what the ability is for)
    ebonus: tuple[tuple[int, str], ...]
    edice: int
    on_defeat: int
    on_victory: int
    at_start: int
    special: tuple[tuple[str, int], ...]
    leave: int  # stays: -1 not said, 0 stays, 1 is discarded
    objective: Any  # a Mission's objective effect
    reward: int

    @property
    def is_asset(self) -> bool:
        return self.deck in ("wargear", "relic") or self.cat == "asset"


@dataclass(frozen=True, slots=True)
class Char:
    id: str
    name: str
    attrs: tuple[int, int, int]
    life: int
    start: str
    asset_limit: int
    power_limits: tuple[tuple[int, int, int], ...]
    rewards: tuple[int, ...]  # effects of each level's rewards, levels 1-12
    pas: Pas


@dataclass(frozen=True, slots=True)
class Scen:
    id: str
    name: str
    conf: int
    pas: Pas


@dataclass(frozen=True, slots=True)
class Space:
    id: str
    name: str
    tier: str
    pos: int
    area: str
    icons: tuple[int, int, int]
    choose_one: bool
    boxes: tuple[int, ...]
    jump: str  # a movement box's move_bonus jump
    mbonus: int  # a movement box's move_bonus n
    inner: str  # a movement box's enter_inner target
    next: str


class Data:
    def __init__(self) -> None:
        from wizprint.cards.loader import load_game
        from wizprint.cards.model import Effect

        game = load_game("relic")
        L = self.L = _Lists()
        self.cards: dict[str, Card] = {}
        for rec, n in game.iter_copies():
            iid = rec.id if rec.copies == 1 else f"{rec.id}#{n}"
            self.cards[iid] = self._card(iid, rec, L)
        self.spaces: dict[str, Space] = {}
        for rec in game.of_kind("space"):
            self.spaces[rec.id] = self._space(rec, L)
        # for printed text in words (the terminal only: rendered when asked, not at load)
        self.vocab = game.vocabulary
        self.records = {rec.id: rec for rec in game.records}
        self.rings: dict[str, list[str]] = {"outer": [], "middle": []}
        for t in ("outer", "middle"):
            sps = sorted((s for s in self.spaces.values() if s.tier == t), key=lambda s: s.pos)
            self.rings[t] = [s.id for s in sps]
        self.ring_index = {sid: i for t in self.rings.values() for i, sid in enumerate(t)}
        cen = [s.id for s in self.spaces.values() if s.tier == "centre"]
        if len(cen) != 1:
            raise EngineError("relic: the board must have one scenario space (tier 'centre')")
        self.centre = cen[0]
        rift = sorted({s.inner for s in self.spaces.values() if s.inner})
        self.rift = rift[0] if rift else ""
        if VANQUISHED_SPACE not in self.spaces or self.spaces[VANQUISHED_SPACE].tier != "outer":
            raise EngineError(f"relic: the vanquished players' space {VANQUISHED_SPACE} is not an Outer space")
        self.chars: dict[str, Char] = {}
        reward_effect = {
            "strength": Effect("gain", {"stat": "strength", "n": 1}),
            "willpower": Effect("gain", {"stat": "willpower", "n": 1}),
            "cunning": Effect("gain", {"stat": "cunning", "n": 1}),
            "attribute": Effect("gain", {"stat": "attribute", "n": 1}),
            "life": Effect("gain", {"stat": "life", "n": 1}),
            "mission": Effect("complete_mission", {"n": 1}),
            "power": Effect("draw", {"deck": "power", "n": 1}),
            "influence": Effect("gain", {"stat": "influence", "n": 2}),
        }
        for rec in game.of_kind("character"):
            special = tuple(rec["special"])
            rewards: list[int] = []
            for icons in rec["level_rewards"]:
                effs: list[Any] = []
                for icon in icons:
                    if icon == "special":
                        effs.extend(special)
                    else:
                        effs.append(reward_effect[icon])
                rewards.append(L.reg(tuple(effs)))
            pls = tuple((int(p["from"]), int(p["to"]), int(p["limit"])) for p in rec["power_limits"])
            self.chars[rec.id] = Char(rec.id, rec.name, (int(rec["strength"]), int(rec["willpower"]),
                                                         int(rec["cunning"])), int(rec["life"]), str(rec["start"]),
                                      int(rec["asset_limit"]), pls, tuple(rewards), _pas(rec.effects, L))
        self.scens: dict[str, Scen] = {}
        for rec in game.of_kind("scenario"):
            self.scens[rec.id] = Scen(rec.id, rec.name, L.reg(rec["confrontation"]), _pas(rec.effects, L))
        self.char_ids = sorted(self.chars)
        self.scen_ids = sorted(self.scens)
        self.by_deck: dict[str, list[str]] = {d: sorted(i for i, c in self.cards.items() if c.deck == d) for d in DECKS}
        self.designs: dict[str, list[str]] = {}
        for iid, c in self.cards.items():
            self.designs.setdefault(c.design, []).append(iid)
        for v in self.designs.values():
            v.sort(key=lambda x: (len(x), x))

    @staticmethod
    def _card(iid: str, rec: Any, L: _Lists) -> Card:
        effs = tuple(rec.effects)
        act = tuple(e for e in effs if e.word not in PASSIVE)
        for e in effs:
            if e.word not in HANDLED_WORDS:
                raise EngineError(f"{rec.id}: the Relic engine does not handle the effect word {e.word!r}")
        ebonus = tuple((int(e["n"]), str(e.get("per", ""))) for e in effs if e.word == "enemy_bonus")
        edice = sum(int(e["n"]) for e in effs if e.word == "enemy_dice")

        def one(word: str) -> int:
            for e in effs:
                if e.word == word:
                    return L.reg(e["then"])
            return 0

        special = tuple((str(e["moment"]), L.reg(e["then"])) for e in effs if e.word == "special")
        leave = -1
        for e in effs:
            if e.word == "stays":
                leave = 1 if e["leave"] else 0
        obj = next((e for e in effs if e.word in OBJECTIVES), None)
        attr = str(rec.get("attribute") or "")
        icons = [0, 0, 0]
        for c in rec.get("threat_icons") or ():
            icons[COLOURS.index(c)] += 1
        return Card(iid, rec.id, rec.name, DECK_OF[rec.deck], str(rec.get("category") or ""),
                    str(rec.get("trait") or ""), AI.get(attr, -1), int(rec.get("value") or 0),
                    (icons[0], icons[1], icons[2]), bool(rec.get("omen")), int(rec.get("charges") or 0),
                    int(rec.get("power_number") or 0), str(rec.get("timing") or ""), int(rec.get("activation") or 0),
                    int(rec.get("cost") or 0), str(rec.get("gear") or ""), _pas(effs, L), L.reg(act),
                    act[0].word if act else "", ebonus, edice, one("on_defeat"), one("on_victory"),
                    one("at_battle_start"), special, leave, obj, L.reg(rec.get("reward") or ()))

    def words(self, effects: Sequence[Any], owner: str = "") -> str:
        """Effects as their printed text in words, on one line (``owner``: the record they are printed on)."""
        return spoken(self.vocab.render(effects, self.records.get(owner)))

    def card_text(self, design: str) -> str:
        return self.words(self.records[design].effects, design)

    def box_text(self, space: str, box: int) -> str:
        return self.words(self.L.lists[self.spaces[space].boxes[box - 1]], space)

    def reward_text(self, char: str, level: int) -> str:
        """A level's rewards in words; a level past the track gives a completed mission."""
        rewards = self.chars[char].rewards
        return self.words(self.L.lists[rewards[level - 1]], char) if level <= len(rewards) else "a completed mission"

    @staticmethod
    def _space(rec: Any, L: _Lists) -> Space:
        icons = rec.get("icons") or {}
        jump = inner = ""
        mb = 0
        for e in rec.get("movement_box") or ():
            if e.word == "move_bonus":
                jump = str(e.get("jump", ""))
                mb += int(e.get("n", 0))
            elif e.word == "enter_inner":
                inner = str(e["to"])
            else:
                raise EngineError(f"{rec.id}: a movement box cannot hold {e.word!r}")
        boxes = tuple(L.reg(tuple(b)) for b in rec.get("boxes") or ())
        return Space(rec.id, rec.name, str(rec["tier"]), int(rec["position"]), str(rec.get("area") or ""),
                     (int(icons.get("red", 0)), int(icons.get("blue", 0)), int(icons.get("yellow", 0))),
                     bool(rec.get("choose_one")), boxes, jump, mb, inner, str(rec.get("next") or ""))


_DATA: Data | None = None


def data() -> Data:
    global _DATA
    if _DATA is None:
        _DATA = Data()
    return _DATA


def cards() -> dict[str, Card]:
    """Every card instance: instance id (``TR01#3`` for copies) -> :class:`Card`."""
    return data().cards


def words_used() -> set[str]:
    """Every effect word the database uses: cards, characters, scenarios and board spaces (nested ones too)."""
    from wizprint.cards.loader import load_game
    from wizprint.cards.model import effect_words

    out: set[str] = set()
    for rec in load_game("relic").records:
        out |= effect_words(rec.effects)
        for key in ("reward", "special", "confrontation", "movement_box"):
            v = rec.get(key)
            if v:
                out |= effect_words(v)
        for b in rec.get("boxes") or ():
            out |= effect_words(b)
    return out


def _ids(xs: Iterable[str]) -> str:
    return ", ".join(xs)


@cache
def _purpose(lid: int) -> str:
    """What an ability is for: its first resolved word (through 'may' and 'pay')."""
    effs = data().L.lists[lid]
    if not effs:
        return ""
    e = effs[0]
    if e.word in ("may", "pay"):
        return _purpose(data().L.of(e["then"]))
    return str(e.word)


class RelicState(State):
    game_id = "relic"
    step_cap = 200_000

    def __init__(self, players: int = 2, seed: int = 0, variant: str = "", *, deal: bool = True):
        if not 2 <= players <= 4:
            raise EngineError("Relic is for 2 to 4 players")
        D = data()
        if variant and variant not in D.scens:
            raise EngineError(f"Relic has no scenario {variant!r} (scenarios: {', '.join(D.scen_ids)})")
        super().__init__(players, seed)
        n = players
        self.variant = variant
        self.scen = variant
        self.phase = "select"
        self.tp = 0
        self.turn_no = 0
        self.cur = 0
        self.sel: Commitments | None = None
        self.dealt: list[list[str]] = [[] for _ in range(n)]
        self.box: list[str] = []  # unused character sheets
        self.retired: list[str] = []  # corrupted characters (never used again)
        self.char = [""] * n
        self.attr = [[1, 1, 1] for _ in range(n)]
        self.life = [1] * n
        self.level = [0] * n
        self.infl = [0] * n
        self.pos = [""] * n
        self.hand: list[list[str]] = [[] for _ in range(n)]
        self.cup: list[list[str]] = [[] for _ in range(n)]  # face-up Corruption cards
        self.cdown: list[list[str]] = [[] for _ in range(n)]  # face-down Corruption cards
        self.troph: list[list[str]] = [[] for _ in range(n)]
        self.assets: list[list[str]] = [[] for _ in range(n)]
        self.mission = [""] * n
        self.done: list[list[str]] = [[] for _ in range(n)]  # completed missions, seen by all
        self.hdone: list[list[str]] = [[] for _ in range(n)]  # completed missions from the deck (owner only)
        self.tokens: list[list[str]] = [[] for _ in range(n)]  # spaces holding the seat's objective tokens
        self.stok = [0] * n  # character tokens on the scenario sheet
        self.mprog = [0] * n  # enemies defeated for the active mission
        self.skip = [0] * n
        self.out = [False] * n  # eliminated
        self.board: dict[str, list[str]] = {}
        self.deck: dict[str, list[str]] = {d: [] for d in DECKS}  # the top card is the end of the list
        self.disc: dict[str, list[str]] = {d: [] for d in DECKS}
        self.revealed: list[str] = []
        self.charges: dict[str, int] = {}
        self.spent: list[str] = []  # cards a charge was spent from this turn
        self.evaded: list[str] = []  # enemies evaded this turn
        self.stack: list[Frame] = []
        self.abort = False
        self.pend: list[Frame] = []  # frames to run once an aborted turn is cleared
        self.last: dict[str, int] = {}
        self._outcome: Outcome | None = None
        if deal:
            self.scen = variant or self.rng.choice(D.scen_ids)
            for d in DECKS:
                deck = list(D.by_deck[d])
                self.rng.shuffle(deck)
                self.deck[d] = deck
            chars = list(D.char_ids)
            self.rng.shuffle(chars)
            for s in range(n):
                self.dealt[s] = sorted([chars.pop(), chars.pop()])
            self.box = sorted(chars)
            self.sel = Commitments(list(range(n)))
            self.say(f"Scenario: {D.scens[self.scen].name}")
            self._advance()

    # -- small queries ----------------------------------------------------------------------------------------
    @property
    def C(self) -> dict[str, Card]:
        return data().cards

    def P(self, s: int) -> str:
        return f"P{s + 1}"

    def label(self, x: str) -> str:
        c = data().cards.get(x)
        return f"{x} {c.name}" if c else x

    def setting(self) -> str:
        """The scenario this game is played on (solo checks report by it)."""
        return f"{self.scen} {data().scens[self.scen].name}" if self.scen else "no scenario yet"

    def turns_played(self) -> int:
        return self.turn_no

    def space(self, s: int) -> Space:
        return data().spaces[self.pos[s]]

    def _srcs(self, s: int) -> list[Pas]:
        """The passive words in force for seat s outside a battle's weapon and armour."""
        C = data().cards
        out = [data().chars[self.char[s]].pas] if self.char[s] else []
        for a in self.assets[s]:
            c = C[a]
            if c.gear not in ("weapon", "armour"):
                out.append(c.pas)
        for x in self.cup[s]:
            out.append(C[x].pas)
        return out

    def can(self, s: int, what: str) -> bool:
        return not any(what in p.cannot for p in self._srcs(s))

    def _lim(self, s: int, what: str) -> int:
        return sum(n for p in self._srcs(s) for w, n in p.lim if w == what)

    def power_limit(self, s: int) -> int:
        ch = data().chars[self.char[s]]
        base = 0
        for lo, hi, lim in ch.power_limits:
            if lo <= self.level[s] <= hi:
                base = lim
        return max(0, base + self._lim(s, "power"))

    def asset_limit(self, s: int) -> int:
        return max(0, data().chars[self.char[s]].asset_limit + self._lim(s, "asset"))

    def threshold(self, s: int) -> int:
        return max(1, THRESHOLD + self._lim(s, "corruption"))

    def skill(self, s: int, a: int) -> int:
        return sum(n for p in self._srcs(s) for ai, n in p.sb if ai == a)

    def xdice(self, s: int, kind: str) -> int:
        return sum(p.xb if kind == "battle" else p.xt for p in self._srcs(s))

    def mdice(self, s: int) -> int:
        return max([1] + [p.mdice for p in self._srcs(s)])

    def relics(self, s: int) -> int:
        C = data().cards
        return sum(1 for a in self.assets[s] if C[a].deck == "relic")

    def corruption(self, s: int) -> int:
        return len(self.cup[s]) + len(self.cdown[s])

    def completed(self, s: int) -> int:
        return len(self.done[s]) + len(self.hdone[s])

    def trophy_points(self, s: int) -> int:
        C = data().cards
        return sum(C[t].value for t in self.troph[s])

    def numbers_ok(self, s: int) -> bool:
        return bool(self.hand[s]) and self.can(s, "power")

    def _whens(self, s: int, event: str, traits: Sequence[str] = ()) -> list[tuple[int, str]]:
        out: list[tuple[int, str]] = []
        C = data().cards
        srcs: list[tuple[Pas, str]] = [(data().chars[self.char[s]].pas, self.char[s])] if self.char[s] else []
        srcs += [(C[a].pas, a) for a in self.assets[s]]
        srcs += [(C[x].pas, x) for x in self.cup[s]]
        for p, src in srcs:
            for ev, vs, lid in p.when:
                if ev == event and (not vs or vs in traits):
                    out.append((lid, src))
        for ev2, lid in data().scens[self.scen].pas.swhen:
            if ev2 == event:
                out.append((lid, self.scen))
        return out

    def _push_whens(self, s: int, event: str, traits: Sequence[str] = ()) -> None:
        self._push_seqs(s, self._whens(s, event, traits))

    def _push_timed(self, s: int, items: Sequence[tuple[int, str]]) -> None:
        """Abilities with the same timing word ("start", "end"): the active player chooses the order in which they
        resolve (relic.txt, Timing Language); abilities that do the same thing (copies) need no choice."""
        items = [(lid, src) for lid, src in items if lid]
        if len({lid for lid, _ in items}) < 2:
            self._push_seqs(s, items)
            return
        self._ask(s, "order", lids=tuple(lid for lid, _ in items), srcs=tuple(src for _, src in items))

    def _uniq(self, xs: Iterable[str]) -> list[str]:
        """One instance per design (copies are the same choice)."""
        C = data().cards
        seen: set[str] = set()
        out = []
        for x in sorted(xs):
            d = C[x].design
            if d not in seen:
                seen.add(d)
                out.append(x)
        return out

    # -- frames -----------------------------------------------------------------------------------------------
    def _push(self, f: Frame) -> Frame:
        self.stack.append(f)
        return f

    def _pop(self, f: Frame) -> None:
        if self.stack and self.stack[-1] is f:
            self.stack.pop()

    def _push_seq(self, s: int, lid: int, src: str = "") -> None:
        if lid:
            self.stack.append({"k": "seq", "seat": s, "L": lid, "i": 0, "src": src})

    def _push_seqs(self, s: int, items: Sequence[tuple[int, str]]) -> None:
        for lid, src in reversed(items):
            self._push_seq(s, lid, src)

    def _ask(self, s: int, q: str, **kw: Any) -> None:
        f: Frame = {"k": "ask", "seat": s, "q": q}
        f.update(kw)
        self.stack.append(f)

    def _nearest(self, kind: str, s: int) -> Frame | None:
        for f in reversed(self.stack):
            if f["k"] == kind and f.get("seat") == s:
                return f
        return None

    def _end_engagement(self) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["k"] == "eng":
                del self.stack[i + 1:]
                self.stack[i]["st"] = 9
                return

    # -- cards ------------------------------------------------------------------------------------------------
    def _pop_deck(self, d: str) -> str:
        deck = self.deck[d]
        if not deck:
            if not self.disc[d]:
                return ""
            deck.extend(self.disc[d])
            self.disc[d] = []
            self.rng.shuffle(deck)
            self.say(f"The {d} deck is exhausted: its discard pile is shuffled to form a new deck")
        return deck.pop()

    def _discard(self, x: str) -> None:
        """A card goes face up onto its deck's discard pile; its charge tokens return to the supply."""
        self.disc[data().cards[x].deck].append(x)
        self.charges.pop(x, None)

    def _draw_power(self, s: int, n: int) -> None:
        got = []
        for _ in range(n):
            x = self._pop_deck("power")
            if not x:
                break
            self.hand[s].append(x)
            self.note_draw(s, x)
            got.append(x)
        if got:
            self.say(f"{self.P(s)} draws {len(got)} Power card{'s' if len(got) > 1 else ''}")
            self.say(f"you draw {_ids(self.label(x) for x in got)}", (s,))

    def _gain_asset(self, s: int, x: str) -> None:
        c = data().cards[x]
        self.assets[s].append(x)
        if c.charges:
            self.charges[x] = c.charges
        self.note_draw(s, x)

    def _lose_asset(self, s: int, x: str) -> None:
        self.assets[s].remove(x)
        self._discard(x)

    def _spend_charge(self, s: int, x: str) -> None:
        self.charges[x] -= 1
        self.spent.append(x)
        self.note_play(s, x)
        if self.charges[x] <= 0:
            self.say(f"{self.label(x)} has no charges left and is discarded")
            self._lose_asset(s, x)

    # -- stats ------------------------------------------------------------------------------------------------
    def _gain(self, s: int, stat: str, n: int) -> None:
        if stat == "influence":
            self.infl[s] += n
            self.say(f"{self.P(s)} gains {n} influence ({self.infl[s]})")
        elif stat == "life":
            if not self.can(s, "heal"):
                self.say(f"{self.P(s)} cannot gain Life")
                return
            self.life[s] = min(MAX_STAT, self.life[s] + n)
            self.say(f"{self.P(s)} gains {n} Life ({self.life[s]})")
        elif stat == "attribute":
            opts = [a for a in ATTRS if self.attr[s][AI[a]] < MAX_STAT]
            if len(opts) == 1:
                self._gain(s, opts[0], n)
            elif opts:
                self._ask(s, "stat", opts=tuple(opts), n=n, sign=1)
        else:
            i = AI[stat]
            self.attr[s][i] = min(MAX_STAT, self.attr[s][i] + n)
            self.say(f"{self.P(s)} gains {n} {stat.capitalize()} ({self.attr[s][i]})")

    def _lose(self, s: int, stat: str, n: int) -> None:
        if stat == "influence":
            self.infl[s] = max(0, self.infl[s] - n)
            self.say(f"{self.P(s)} loses {n} influence ({self.infl[s]})")
        elif stat == "life":
            self.life[s] = max(0, self.life[s] - n)
            self.say(f"{self.P(s)} loses {n} Life ({self.life[s]})")
            if self.life[s] == 0:
                self._vanquish(s)
        elif stat in ("attribute", "highest", "lowest"):
            a = self.attr[s]
            if stat == "attribute":
                opts = [x for x in ATTRS if a[AI[x]] > 1]
            else:
                best = max(a) if stat == "highest" else min(a)
                opts = [x for x in ATTRS if a[AI[x]] == best]
            if len(opts) == 1:
                self._lose(s, opts[0], n)
            elif opts:
                self._ask(s, "stat", opts=tuple(opts), n=n, sign=-1)
        else:
            i = AI[stat]
            self.attr[s][i] = max(1, self.attr[s][i] - n)
            self.say(f"{self.P(s)} loses {n} {stat.capitalize()} ({self.attr[s][i]})")

    # -- vanquished, corrupted, eliminated, winning -----------------------------------------------------------
    def _turn_ends(self, s: int) -> None:
        """Seat s's turn ends at once (vanquished, corrupted, eliminated, missing a turn)."""
        if s == self.tp and self.phase not in ("select", "over"):
            self.abort = True

    def _vanquish(self, s: int) -> None:
        D = data()
        lost_p, lost_t = len(self.hand[s]), len(self.troph[s])
        for x in self.hand[s]:
            self._discard(x)
        for x in self.troph[s]:
            self._discard(x)
        self.hand[s] = []
        self.troph[s] = []
        self.infl[s] = 0
        self.life[s] = D.chars[self.char[s]].life
        self.pos[s] = VANQUISHED_SPACE
        self.say(f"{self.P(s)} is vanquished: discards {lost_p} Power card(s) and {lost_t} trophies, loses all "
                 f"influence, Life back to {self.life[s]}, moves to {D.spaces[VANQUISHED_SPACE].name}")
        trig = [{"k": "seq", "seat": s, "L": lid, "i": 0, "src": src}
                for lid, src in reversed(self._whens(s, "vanquished"))]
        if s == self.tp and self.phase not in ("select", "over"):
            self.abort = True
            self.pend.extend(trig)
        else:
            self.stack.extend(trig)

    def _corrupted(self, s: int) -> None:
        D = data()
        for x in self.hand[s] + self.cup[s] + self.cdown[s] + self.troph[s]:
            self._discard(x)
        self.hand[s], self.cup[s], self.cdown[s], self.troph[s] = [], [], [], []
        self.infl[s] = 0
        old = self.char[s]
        self.retired.append(old)
        if not self.box:
            self.say(f"{self.P(s)} is corrupted and no character is left: eliminated")
            self._eliminate(s)
            return
        self.say(f"{self.P(s)} is corrupted: {D.chars[old].name} is lost")
        self._turn_ends(s)
        # relic.txt, Corrupted Players: the player may choose not to start a new character and lose the game instead
        ask: Frame = {"k": "ask", "seat": s, "q": "corrupt"}
        (self.pend if self.abort else self.stack).append(ask)

    def _new_character(self, s: int) -> None:
        D = data()
        new = self.rng.choice(sorted(self.box))
        self.box.remove(new)
        self._set_char(s, new)
        self.say(f"{self.P(s)} starts a new character: the {D.chars[new].name} at {D.spaces[self.pos[s]].name}")

    def _set_char(self, s: int, ch: str) -> None:
        c = data().chars[ch]
        self.char[s] = ch
        self.attr[s] = list(c.attrs)
        self.life[s] = c.life
        self.level[s] = 0
        self.pos[s] = c.start

    def _eliminate(self, s: int) -> None:
        for x in self.hand[s] + self.cup[s] + self.cdown[s] + self.troph[s] + self.assets[s] + self.done[s] + \
                self.hdone[s] + ([self.mission[s]] if self.mission[s] else []):
            self._discard(x)
        self.hand[s], self.cup[s], self.cdown[s], self.troph[s], self.assets[s] = [], [], [], [], []
        self.done[s], self.hdone[s], self.tokens[s] = [], [], []
        self.mission[s] = ""
        self.infl[s] = 0
        self.stok[s] = 0
        self.out[s] = True
        self.pos[s] = ""
        left = [t for t in range(self.players) if not self.out[t]]
        if len(left) == 1:
            self._end((left[0],), f"{self.P(left[0])} is the last player standing")
            return
        self._turn_ends(s)

    def _end(self, winners: tuple[int, ...], reason: str) -> None:
        if self._outcome is not None:
            return
        scores = tuple(float(self.progress(t)) for t in range(self.players))
        self._outcome = Outcome(winners, scores, reason)
        self.phase = "over"
        self.stack = []
        self.say(f"Game over: {reason}")

    def progress(self, s: int) -> float:
        """How far a seat is towards winning (for the round limit and search evaluations)."""
        if self.out[s]:
            return -10.0
        D = data()
        sp = D.spaces.get(self.pos[s])
        inner = 0.0
        if sp is not None and sp.tier == "inner":
            inner = 6.0 + sp.pos
        elif sp is not None and sp.tier == "centre":
            inner = 14.0 + 3.0 * self.stok[s]
        return (inner + 5.0 * min(self.relics(s), 2) + 1.4 * min(self.completed(s), 3) + 0.4 * self.level[s]
                + 0.15 * sum(self.attr[s]) + 0.1 * self.life[s] - 0.2 * self.corruption(s))

    def _win(self, s: int) -> None:
        D = data()
        self._end((s,), f"{self.P(s)} wins the scenario: {D.scens[self.scen].name} ({D.chars[self.char[s]].name})")

    # -- missions ---------------------------------------------------------------------------------------------
    def _activate_mission(self, s: int, m: str) -> None:
        self.mission[s] = m
        self.mprog[s] = 0
        obj = data().cards[m].objective
        self.tokens[s] = [str(x) for x in obj["spaces"]] if obj is not None and obj.word == "objective_tokens" else []
        self.say(f"{self.P(s)}'s active mission: {self.label(m)}" +
                 (f" (tokens on {_ids(self.tokens[s])})" if self.tokens[s] else ""))
        self._check_level(s)

    def _complete(self, s: int) -> None:
        m = self.mission[s]
        self.mission[s] = ""
        self.done[s].append(m)
        self.tokens[s] = []
        self.mprog[s] = 0
        self.note_play(s, m)
        self.say(f"{self.P(s)} completes the mission {self.label(m)} ({self.completed(s)} completed)")
        items = [(data().cards[m].reward, m)] + [(lid, src) for lid, src in self._whens(s, "mission")
                                                if src == self.scen]
        self._push_seqs(s, items)

    def _objective(self, s: int) -> Any:
        m = self.mission[s]
        return data().cards[m].objective if m else None

    def _check_level(self, s: int) -> None:
        obj = self._objective(s)
        if obj is not None and obj.word == "objective_level" and self.level[s] >= int(obj["level"]):
            self._complete(s)

    def _defeated(self, s: int, x: str) -> None:
        obj = self._objective(s)
        if obj is None or obj.word != "objective_defeat":
            return
        c = data().cards[x]
        if obj.get("trait") and c.trait != obj["trait"]:
            return
        if obj.get("attribute") and (c.attr < 0 or ATTRS[c.attr] != obj["attribute"]):
            return
        if c.value < int(obj.get("min_value", 0) or 0):
            return
        self.mprog[s] += 1
        if self.mprog[s] >= int(obj["count"]):
            self._complete(s)

    def _visit(self, s: int) -> None:
        """The end of a Movement phase on the seat's space: visit objectives and objective tokens."""
        here = self.pos[s]
        if here in self.tokens[s]:
            self.tokens[s].remove(here)
            self.say(f"{self.P(s)} takes back the objective token on {data().spaces[here].name}")
            obj = self._objective(s)
            if obj is not None and obj.word == "objective_tokens" and not self.tokens[s]:
                self._complete(s)
                return
        obj = self._objective(s)
        if obj is None or obj.word != "objective_visit":
            return
        sp = data().spaces[here]
        if (obj.get("space") and obj["space"] == here) or (obj.get("area") and obj["area"] == sp.area) or (
                obj.get("tier") and obj["tier"] == sp.tier):
            self._complete(s)

    def _check_trophies(self, s: int) -> None:
        obj = self._objective(s)
        if obj is not None and obj.word == "objective_trophies" and self.trophy_points(s) >= int(obj["points"]):
            self._complete(s)

    def _complete_from_deck(self, s: int, n: int) -> None:
        for _ in range(n):
            x = self._pop_deck("mission")
            if not x:
                self.say("The Mission deck is empty: no completed mission is gained")
                return
            self.hdone[s].append(x)
            self.note_draw(s, x)
            self.say(f"{self.P(s)} gains a completed mission ({self.completed(s)} completed)")
            self.say(f"your completed mission is {self.label(x)}", (s,))

    # -- corruption -------------------------------------------------------------------------------------------
    def _corruption_step(self, s: int) -> bool:
        """Draw one Corruption card for seat s: corrupted at the threshold (True); else face up if it activates."""
        x = self._pop_deck("corruption")
        if not x:
            self.say("The Corruption deck is empty: no card is drawn")
            return False
        c = data().cards[x]
        self.note_draw(s, x)
        count = self.corruption(s) + 1
        trig = self._whens(s, "corruption")
        if count >= self.threshold(s):
            self.cdown[s].append(x)
            self.say(f"{self.P(s)} draws a Corruption card ({count} of {self.threshold(s)})")
            self._corrupted(s)
            if self.abort:
                self.pend.extend({"k": "seq", "seat": s, "L": lid, "i": 0, "src": src} for lid, src in reversed(trig))
            else:
                self._push_seqs(s, trig)
            return True
        self._push_seqs(s, trig)
        if c.activation <= count:
            self.cup[s].append(x)
            self.note_play(s, x)
            self.say(f"{self.P(s)} draws {self.label(x)}: activation {c.activation} <= {count}, it activates")
            self._push_seq(s, c.act, x)
        else:
            self.cdown[s].append(x)
            self.say(f"{self.P(s)} draws a Corruption card: activation above {count}, it is placed face down")
            self.say(f"your face-down Corruption card is {self.label(x)}", (s,))
        return False

    def _check_threshold(self, s: int) -> None:
        if not self.out[s] and self.char[s] and self.corruption(s) >= self.threshold(s):
            self._corrupted(s)

    def _remove_corruption(self, s: int, x: str) -> None:
        if x in self.cup[s]:
            self.cup[s].remove(x)
        else:
            self.cdown[s].remove(x)
        self._discard(x)
        self.say(f"{self.P(s)} discards the Corruption card {self.label(x)}")

    # -- resolving effects ------------------------------------------------------------------------------------
    def _exec(self, s: int, e: Any, src: str) -> None:
        """Resolve one effect for seat s (pushing frames where someone must decide)."""
        D = data()
        L = D.L
        w = e.word
        if w == "gain":
            self._gain(s, str(e["stat"]), int(e["n"]))
        elif w == "lose":
            self._lose(s, str(e["stat"]), int(e["n"]))
        elif w == "draw":
            d, n = str(e["deck"]), int(e["n"])
            if d == "power":
                self._draw_power(s, n)
            elif d == "corruption":
                self._push({"k": "corr", "seat": s, "n": n})
            elif d == "mission":
                self._push({"k": "dmis", "seat": s, "n": n, "new": ""})
            else:
                for _ in range(n):
                    x = self._pop_deck(d)
                    if not x:
                        break
                    self._gain_asset(s, x)
                    self.say(f"{self.P(s)} draws {self.label(x)}")
        elif w == "draw_threat":
            self._draw_threat(s, str(e["colour"]), int(e["n"]))
        elif w == "discard":
            self._discard_effect(s, str(e["what"]), int(e["n"]))
        elif w == "gain_level":
            for _ in range(int(e["n"])):
                self._push({"k": "lvl", "seat": s, "st": 0})
        elif w == "complete_mission":
            self._complete_from_deck(s, int(e["n"]))
        elif w == "gain_charge":
            opts = sorted(a for a in self.assets[s] if D.cards[a].charges > 0)
            if len(opts) == 1:
                self._add_charge(s, opts[0], int(e["n"]))
            elif opts:
                self._ask(s, "charge", n=int(e["n"]))
        elif w == "test":
            self._push({"k": "tst", "seat": s, "a": AI[str(e["attribute"])], "t": int(e["target"]),
                        "ps": L.of(e["then_pass"]), "fl": L.of(e["then_fail"]), "obj": "", "bonus": 0, "st": 0,
                        "roll": 0, "ones": False})
        elif w == "roll":
            v = self.roll()
            self.say(f"{self.P(s)} rolls {v}")
            for r in e["results"]:
                if v in r["faces"]:
                    self._push_seq(s, L.of(r["then"]), src)
                    break
        elif w == "may":
            self._ask(s, "may", L=L.of(e["then"]), src=src)
        elif w == "pay":
            if self.infl[s] >= int(e["influence"]):
                self._ask(s, "pay", cost=int(e["influence"]), L=L.of(e["then"]), src=src)
        elif w == "choose":
            self._ask(s, "choose", opts=tuple(L.of(o["then"]) for o in e["options"]), src=src)
        elif w == "buy_power":
            self._ask(s, "bpow", price=int(e["price"]))
        elif w == "buy_wargear":
            if not self.can(s, "buy"):
                self.say(f"{self.P(s)} cannot buy Wargear")
                return
            for _ in range(int(e["reveal"])):
                x = self._pop_deck("wargear")
                if not x:
                    break
                self.revealed.append(x)
            if self.revealed:
                self.say(f"{self.P(s)} reveals {_ids(self.label(x) for x in self.revealed)}")
                self._ask(s, "bwg")
        elif w == "cross":
            cost = int(e.get("influence", 0) or 0)
            if self.infl[s] < cost:
                self.say(f"{self.P(s)} cannot pay {cost} influence to cross")
                return
            self.infl[s] -= cost
            self._move_direct(s, str(e["to"]), f"crosses to {D.spaces[str(e['to'])].name}" +
                              (f" for {cost} influence" if cost else ""))
            self._end_engagement()
        elif w == "move_to":
            if self.space(s).tier in ("inner", "centre"):
                return
            self._move_direct(s, str(e["space"]), f"moves to {D.spaces[str(e['space'])].name}")
            self._end_engagement()
        elif w == "move_any":
            if self.space(s).tier in ("inner", "centre"):
                return
            self._ask(s, "to", tier=str(e["tier"]))
        elif w == "move_bonus":
            f = self._nearest("mv", s)
            if f is not None and int(e.get("n", 0)):
                f["bonus"] += int(e["n"])
                f["pts"] = max(0, f["pts"] + int(e["n"])) if f["st"] >= 4 else f["pts"]
                self.say(f"{self.P(s)}'s movement score this turn is {int(e['n']):+d}")
        elif w == "enter_inner":
            pass  # a movement box: resolved by the Movement phase
        elif w == "warp_skip":
            if self.infl[s] >= WARP_INFLUENCE:
                self._ask(s, "warp")
            else:
                self._warp(s, False)
        elif w == "miss_turn":
            self.skip[s] += 1
            self.say(f"{self.P(s)} misses a turn")
            self._turn_ends(s)
        elif w == "end_engagement":
            self.say(f"{self.P(s)}'s Engagement phase ends")
            self._end_engagement()
        elif w == "each_player":
            n = self.players
            seats = [(self.tp + i) % n for i in range(n)]
            for t in reversed(seats):
                if self.out[t] or (e.get("others") and t == s):
                    continue
                self._push_seq(t, L.of(e["then"]), src)
        elif w == "remove_corruption":
            self._purge(s, int(e["n"]))
        elif w == "battle":
            self._push_battle(s, (), AI[str(e["attribute"])], int(e["value"]), str(e["foe"]),
                              L.of(e["then_win"]), L.of(e["then_lose"]))
        elif w == "win_game":
            self._win(s)
        elif w == "scenario_token":
            self.stok[s] += 1
            self.say(f"{self.P(s)} places a character token on the scenario sheet ({self.stok[s]})")
            if self.stok[s] >= int(e["need"]):
                self._push_seq(s, L.of(e["then"]), src)
        elif w == "add_score":
            for f in reversed(self.stack):
                if f["k"] in ("bat", "tst") and f["seat"] == s:
                    f["bonus"] += int(e["n"])
                    self.say(f"{self.P(s)} adds {int(e['n'])} to the score")
                    break
        elif w == "move_extra":
            f = self._nearest("mv", s)
            if f is not None:
                f["extra"] += int(e["n"])
                self.say(f"{self.P(s)} may move up to {int(e['n'])} more spaces at the end of the move")
        elif w in PASSIVE or w in ("reroll", "evade"):
            pass  # nothing to do now: passive words are read where they apply (scores, limits, windows), and a
            # reroll or evade is resolved by the roll or battle that offers it
        else:
            raise EngineError(f"{src}: effect {w!r} cannot be resolved")

    def _add_charge(self, s: int, x: str, n: int) -> None:
        self.charges[x] = self.charges.get(x, 0) + n
        self.say(f"{self.P(s)} adds {n} charge(s) to {self.label(x)} ({self.charges[x]})")

    def _move_direct(self, s: int, to: str, what: str) -> None:
        self.pos[s] = to
        self.say(f"{self.P(s)} {what}")

    def _draw_threat(self, s: int, colour: str, n: int) -> None:
        here = self.pos[s]
        got = []
        for _ in range(n):
            x = self._pop_deck(colour)
            if not x:
                break
            self.board.setdefault(here, []).append(x)
            got.append(x)
        if got:
            self.say(f"{self.P(s)} draws {_ids(self.label(x) for x in got)} onto {data().spaces[here].name}")
        for f in reversed(self.stack):
            if f["k"] == "thr" and f["seat"] == s:
                f["st"] = 1  # the new cards are resolved with the steps still to come
                return
            if f["k"] == "eng":
                break
        self._push({"k": "thr", "seat": s, "st": 1, "done": (), "ign": ()})

    def _discard_effect(self, s: int, what: str, n: int) -> None:
        pool = self._discardable(s, what)
        if len(pool) <= n:
            for x in list(pool):
                self._discard_owned(s, x)
            return
        self._ask(s, "disc", what=what, n=n)

    def _discardable(self, s: int, what: str) -> list[str]:
        C = data().cards
        if what == "power":
            return list(self.hand[s])
        if what == "corruption":
            return self.cup[s] + self.cdown[s]
        if what == "trophy":
            return list(self.troph[s])
        if what == "asset":
            return list(self.assets[s])
        return [a for a in self.assets[s] if C[a].deck == what]

    def _discard_owned(self, s: int, x: str) -> None:
        if x in self.hand[s]:
            self.hand[s].remove(x)
            self._discard(x)
            self.say(f"{self.P(s)} discards {self.label(x)}")
        elif x in self.assets[s]:
            self._lose_asset(s, x)
            self.say(f"{self.P(s)} discards {self.label(x)}")
            self._check_threshold(s)
        elif x in self.troph[s]:
            self.troph[s].remove(x)
            self._discard(x)
            self.say(f"{self.P(s)} discards the trophy {self.label(x)}")
        else:
            self._remove_corruption(s, x)

    def _purge(self, s: int, n: int) -> None:
        pool = self.cup[s] + self.cdown[s]
        if not pool:
            return
        if len(pool) <= n:
            for x in pool:
                self._remove_corruption(s, x)
            self._check_threshold(s)
            return
        self._ask(s, "purge", n=n)

    def _warp(self, s: int, spend: bool) -> None:
        D = data()
        k = 1
        why = []
        if self.level[s] >= WARP_LEVEL:
            k += 1
            why.append(f"level {self.level[s]}")
        if spend:
            self.infl[s] -= WARP_INFLUENCE
            k += 1
            why.append(f"spends {WARP_INFLUENCE} influence")
        if self.relics(s) >= WARP_RELICS:
            k += 1
            why.append(f"{self.relics(s)} relics")
        here = self.pos[s]
        for _ in range(k):
            nxt = D.spaces[here].next
            if not nxt:
                break
            here = nxt
        self.pos[s] = here
        self.say(f"{self.P(s)} skips ahead {k} space(s)" + (f" ({', '.join(why)})" if why else "") +
                 f" to {D.spaces[here].name}")
        self._resolve_space(s)

    def _resolve_space(self, s: int) -> None:
        """The mandatory text boxes of an Inner space, or the scenario's confrontation."""
        D = data()
        sp = self.space(s)
        if sp.tier == "centre":
            self.say(f"{self.P(s)} resolves the confrontation of {D.scens[self.scen].name}")
            self._push_seq(s, D.scens[self.scen].conf, self.scen)
        else:
            self._push_seqs(s, [(b, sp.id) for b in sp.boxes])

    def _push_battle(self, s: int, foes: tuple[str, ...], attr: int, value: int, name: str, win: int,
                     lose: int) -> None:
        self._push({"k": "bat", "seat": s, "foes": foes, "fa": attr, "fv": value, "fn": name, "win": win,
                    "lose": lose, "st": 0, "wpn": "", "arm": "", "lk": "", "bonus": 0, "er": 0, "roll": 0,
                    "ones": False})

    # -- the turn ---------------------------------------------------------------------------------------------
    def _start_turn(self, after: int) -> None:
        """The next turn after seat ``after``'s: missed turns are skipped; the round limit ends the game."""
        n = self.players
        p = (after + 1) % n
        for _ in range(64 * n):
            if self.out[p]:
                p = (p + 1) % n
                continue
            if self.skip[p] > 0:
                self.skip[p] -= 1
                self.say(f"{self.P(p)} misses this turn")
                p = (p + 1) % n
                continue
            break
        if self.turn_no >= ROUND_LIMIT * n:
            best = max(self.progress(t) for t in range(n))
            win = tuple(t for t in range(n) if self.progress(t) == best)
            self._end(win, f"round limit: {self.turn_no} turns played, the most progress wins")
            return
        self.tp = p
        self.turn_no += 1
        self.spent = []
        self.evaded = []
        self.say(f"Turn {self.turn_no}: {self.P(p)} ({data().chars[self.char[p]].name})")
        self._push({"k": "turn", "seat": p, "st": 0})

    def _advance(self) -> None:
        """Resolve everything automatic until somebody must decide (or the game is over)."""
        while True:
            if self._outcome is not None:
                self.cur = -1
                return
            if self.abort:
                self.abort = False
                self.stack = [{"k": "next", "seat": self.tp}, *self.pend]
                self.pend = []
                continue
            if not self.stack:
                if self.phase == "select":
                    assert self.sel is not None
                    self.cur = self.sel.waiting
                    return
                self._start_turn(self.tp)
                continue
            f = self.stack[-1]
            if _RUN[f["k"]](self, f):
                self.cur = int(f["seat"])
                return

    def _run_next(self, f: Frame) -> bool:
        self._pop(f)
        self._start_turn(int(f["seat"]))
        return False

    def _run_turn(self, f: Frame) -> bool:
        p = f["seat"]
        st = f["st"]
        f["st"] = st + 1
        if st == 0:
            self.phase = "start"
            self._push_timed(p, self._whens(p, "turn_start"))
        elif st == 1:
            self.phase = "movement"
            self._push({"k": "mv", "seat": p, "st": 0, "bonus": 0, "pts": 0, "dir": 0, "extra": 0, "roll": 0,
                        "ones": False, "dice": (), "rift": False, "box": ""})
        elif st == 2:
            self.phase = "exploration"
            self._explore(p)
            items = [(lid, x) for x in self.board.get(self.pos[p], ()) for m, lid in data().cards[x].special
                     if m == "exploration_end"]
            self._push_timed(p, items + self._whens(p, "exploration_end"))
        elif st == 3:
            self.phase = "engagement"
            self._push({"k": "eng", "seat": p, "st": 0})
        elif st == 4:
            items = [(lid, x) for x in self.board.get(self.pos[p], ()) for m, lid in data().cards[x].special
                     if m == "engagement_end"]
            self._push_timed(p, items)
        elif st == 5:
            self._check_trophies(p)
        elif st == 6:
            self.phase = "experience"
            self._push({"k": "exp", "seat": p, "st": 0})
        elif st == 7:
            self._push_timed(p, self._whens(p, "turn_end"))
        else:
            self._pop(f)
            self._start_turn(p)
        return False

    # -- movement ---------------------------------------------------------------------------------------------
    def _step(self, here: str, d: int) -> str:
        D = data()
        ring = D.rings[D.spaces[here].tier]
        return ring[(D.ring_index[here] + d) % len(ring)]

    def _can_rift(self, s: int) -> bool:
        sp = self.space(s)
        return bool(sp.inner) and self.relics(s) > 0

    def _enter_rift(self, s: int, f: Frame) -> None:
        D = data()
        self.pos[s] = self.space(s).inner
        self.say(f"{self.P(s)} enters the Inner tier: {D.spaces[self.pos[s]].name} (the Movement phase ends)")
        f["st"] = 6
        self._push_seqs(s, [(lid, src) for lid, src in self._whens(s, "enter_inner") if src == self.scen])

    def _run_mv(self, f: Frame) -> bool:
        s = f["seat"]
        st = f["st"]
        D = data()
        if st == 0:
            f["st"] = 1
            self._push_timed(s, self._whens(s, "movement_start"))
            return False
        if st == 1:
            sp = self.space(s)
            if sp.tier == "centre":
                f["st"] = 7
                return False
            if sp.tier == "inner":
                self.pos[s] = sp.next
                self.say(f"{self.P(s)} moves on to {D.spaces[sp.next].name}")
                f["st"] = 6
                return False
            f["st"] = 2
            n = self.mdice(s)
            if n > 1 and self.stats is not None:
                self._note_used(s, [a for a in self.assets[s] if D.cards[a].pas.mdice == n][:1])
            self._push({"k": "dice", "seat": s, "ctx": "move", "n": n, "st": 0, "vals": (), "ex": (),
                        "x": 0, "pc": ""})
            return False
        if st == 2:
            if f["rift"]:
                self._enter_rift(s, f)
                return False
            f["pts"] = max(1, f["roll"] + f["bonus"])
            self.say(f"{self.P(s)}'s movement score is {f['pts']}")
            f["st"] = 3
            sp = self.space(s)
            if sp.jump and sp.jump != sp.id:
                f["box"] = sp.id
                return True
            f["st"] = 4
            return True
        if st == 3 or st == 4:
            return True  # a decision: the start box's jump, or the direction
        if st == 5:
            if f["box"]:
                return True
            while f["pts"] > 0:
                f["pts"] -= 1
                self._enter(s, f, self._step(self.pos[s], f["dir"]))
                if f["box"] or f["st"] != 5:
                    return bool(f["box"])
            if f["extra"] > 0:
                return True
            f["st"] = 6
            return False
        if st == 6:
            f["st"] = 7
            self.say(f"{self.P(s)} ends the Movement phase on {D.spaces[self.pos[s]].name}")
            self._visit(s)
            return False
        self._pop(f)
        return False

    def _enter(self, s: int, f: Frame, to: str) -> None:
        """Enter a space during the Movement phase; a movement box asks its question."""
        self.pos[s] = to
        sp = data().spaces[to]
        if sp.mbonus:
            f["pts"] = max(0, f["pts"] + sp.mbonus)
        if (sp.jump and f["pts"] >= 1 and sp.jump != to) or (sp.inner and self._can_rift(s)):
            f["box"] = to

    # -- dice -------------------------------------------------------------------------------------------------
    def _dice_extras(self, f: Frame) -> list[Action]:
        s = f["seat"]
        ctx = f["ctx"]
        if ctx == "battle":
            return []
        out = self._plays(s, ctx)
        if ctx == "move" and self._can_rift(s):
            out.append(Action("rift"))
        return out

    def _can_reroll(self, f: Frame) -> bool:
        s = f["seat"]
        return self.can(s, "reroll") and (bool(self.hand[s]) or bool(self._reroll_charges(f)))

    def _reroll_charges(self, f: Frame) -> list[str]:
        s = f["seat"]
        win = f["ctx"]
        C = data().cards
        out = []
        for a in sorted(self.assets[s]):
            for moment, lid in C[a].pas.charge:
                mw = TIMING_WINDOWS[moment]
                if (mw == "*" or mw == win) and self.charges.get(a, 0) > 0 and a not in self.spent and \
                        _purpose(lid) == "reroll":
                    out.append(a)
        return out

    def _run_dice(self, f: Frame) -> bool:
        s = f["seat"]
        st = f["st"]
        if st == 0:
            if f["ctx"] == "battle":
                need = self.numbers_ok(s)
            else:
                need = bool(self.hand[s]) or bool(self._dice_extras(f))
            if need:
                return True
            self._do_roll(f, "")
            return False
        if st == 1:
            if self._can_reroll(f):
                return True
            f["st"] = 2
            return False
        if st == 2:
            if f["ctx"] == "move":
                if f["n"] > 1 and not f["pc"] and len(set(f["vals"])) > 1:
                    f["st"] = 3
                    return True
                self._dice_done(f, f["vals"][0] if len(set(f["vals"])) == 1 or f["pc"] else max(f["vals"]))
                return False
            f["x"] = sum(1 for v in f["vals"] if v == 6)
            f["st"] = 4
            return False
        if st == 3:
            return True
        # explosions
        while f["x"] > 0:
            if self.numbers_ok(s):
                return True
            v = self.roll()
            self._explode(f, v, "")
        self._dice_done(f, sum(f["vals"]) + sum(f["ex"]))
        return False

    def _explode(self, f: Frame, v: int, pc: str) -> None:
        f["x"] -= 1
        f["ex"] = (*f["ex"], v)
        if v == 6:
            f["x"] += 1
        self.say(f"{self.P(f['seat'])}'s die explodes: " + (f"{self.label(pc)} for {v}" if pc else f"rolls {v}"))

    def _do_roll(self, f: Frame, pc: str) -> None:
        s = f["seat"]
        n = f["n"]
        if pc:
            num = data().cards[pc].number
            vals = [num] + [self.roll() for _ in range(n - 1)] if f["ctx"] != "move" else [num]
        else:
            vals = [self.roll() for _ in range(n)]
        f["vals"] = tuple(vals)
        f["pc"] = pc
        f["st"] = 1
        what = {"move": "movement", "battle": "battle", "test": "skill"}[f["ctx"]]
        shown = "+".join(map(str, vals)) if f["ctx"] != "move" else "/".join(map(str, vals))
        self.say(f"{self.P(s)} " + (f"plays {self.label(pc)} for its number: " if pc else "rolls ") +
                 f"{what} roll {shown}")

    def _dice_done(self, f: Frame, total: int) -> None:
        self._pop(f)
        parent = self.stack[-1]
        parent["roll"] = total
        parent["ones"] = all(v == 1 for v in f["vals"])
        parent["dice"] = tuple(f["vals"]) + tuple(f["ex"])
        if f["ex"]:
            self.say(f"{self.P(f['seat'])}'s roll totals {total}")

    def _note_used(self, s: int, xs: Iterable[str]) -> None:
        """Solo-check statistics: assets whose bonuses were used count as played."""
        for x in xs:
            self.note_play(s, x)

    def _play_number(self, s: int, x: str) -> None:
        self.hand[s].remove(x)
        self._discard(x)
        self.note_play(s, x)

    # -- exploration ------------------------------------------------------------------------------------------
    def _explore(self, p: int) -> None:
        D = data()
        C = D.cards
        sp = self.space(p)
        if sp.tier not in ("outer", "middle"):
            return
        drawn: list[str] = []
        while True:
            here = self.board.get(sp.id, [])
            need = list(sp.icons)
            have = [0, 0, 0]
            for x in here:
                c = C[x]
                have[COLOURS.index(c.deck)] += 1
                for i in range(3):
                    need[i] += c.icons[i]
            got = ""
            for i, col in enumerate(COLOURS):
                if need[i] > have[i]:
                    got = self._pop_deck(col)
                    if got:
                        self.board.setdefault(sp.id, []).append(got)
                        drawn.append(got)
                        break
            if not got:
                break
        if drawn:
            self.say(f"{self.P(p)} draws {_ids(self.label(x) for x in drawn)} onto {sp.name}")

    # -- engagement -------------------------------------------------------------------------------------------
    def _threats_here(self, s: int) -> list[str]:
        return self.board.get(self.pos[s], [])

    def _objective_option(self, s: int) -> bool:
        obj = self._objective(s)
        if obj is None:
            return False
        sp = self.space(s)
        if obj.word == "objective_test":
            return bool(sp.tier == obj["tier"])
        if obj.word == "objective_influence":
            return bool(sp.id == obj["space"]) and self.infl[s] >= int(obj["n"]) and not self._threats_here(s)
        return False

    def _run_eng(self, f: Frame) -> bool:
        s = f["seat"]
        st = f["st"]
        D = data()
        if st == 0:
            f["st"] = 1
            items = [(lid, x) for x in self._threats_here(s) for m, lid in D.cards[x].special
                     if m == "engagement_start"]
            self._push_timed(s, items + self._whens(s, "engagement_start"))
            return False
        if st == 1:
            if self.hand[s] or self._objective_option(s) or self._plays(s, "eng"):
                return True
            f["st"] = 2
            return False
        if st == 2:
            sp = self.space(s)
            if sp.tier in ("inner", "centre"):
                f["st"] = 9
                self._resolve_space(s)
                return False
            if self._threats_here(s):
                f["st"] = 9
                self._push({"k": "thr", "seat": s, "st": 1, "done": (), "ign": ()})
                return False
            if not sp.boxes:
                f["st"] = 9
                return False
            if sp.choose_one:
                f["st"] = 3
                return True
            f["st"] = 9
            self._push_seqs(s, [(b, sp.id) for b in sp.boxes])
            return False
        if st == 3:
            return True
        self._pop(f)
        return False

    def _box_ok(self, s: int, lid: int) -> bool:
        effs = data().L.lists[lid]
        if len(effs) == 1 and effs[0].word == "cross":
            return self.infl[s] >= int(effs[0].get("influence", 0) or 0)
        return True

    def _evadable(self, s: int, power: bool) -> list[str]:
        if not self.can(s, "evade"):
            return []
        C = data().cards
        evs = [] if power else [e for p in self._srcs(s) for e in p.evade]
        if not power and not evs:
            return []
        out = []
        for x in self._threats_here(s):
            c = C[x]
            if c.cat != "enemy" or x in self.evaded:
                continue
            if power or any((not a or a == ATTRS[c.attr]) and (not mv or c.value <= mv) for a, mv in evs):
                out.append(x)
        return out

    def _can_ignore(self, s: int, x: str) -> bool:
        c = data().cards[x]
        return any(cat == c.cat and (not col or col == c.deck) for p in self._srcs(s) for cat, col in p.ign)

    def _thr_options(self, f: Frame) -> list[Action]:
        s = f["seat"]
        C = data().cards
        here = self._threats_here(s)
        st = f["st"]
        out: list[Action] = []
        if st == 1:
            for x in here:
                if C[x].cat == "event" and x not in f["done"] and x not in f["ign"]:
                    out.append(Action("event", x))
                    if self._can_ignore(s, x):
                        out.append(Action("ignore", x))
        elif st == 2:
            groups = sorted({C[x].attr for x in here if C[x].cat == "enemy" and x not in self.evaded})
            out = [Action("fight", ATTRS[a]) for a in groups]
            if out:
                out.extend(Action("evade", x) for x in self._evadable(s, False))
        elif st == 3:
            for x in here:
                if C[x].cat == "encounter" and x not in f["done"] and x not in f["ign"]:
                    out.append(Action("encounter", x))
                    if self._can_ignore(s, x):
                        out.append(Action("ignore", x))
        return out

    def _run_thr(self, f: Frame) -> bool:
        s = f["seat"]
        C = data().cards
        while f["st"] <= 3:
            opts = self._thr_options(f)
            if not opts:
                f["st"] += 1
                continue
            if len(opts) == 1:
                self._apply_thr(f, opts[0])
                return False
            return True
        # 4. Acquire Assets
        self._pop(f)
        here = self._threats_here(s)
        for x in [x for x in here if C[x].cat == "asset"]:
            here.remove(x)
            self._gain_asset(s, x)
            self.note_play(s, x)
            self.say(f"{self.P(s)} takes the asset {self.label(x)}")
        if not here:
            self.board.pop(self.pos[s], None)
        return False

    def _apply_thr(self, f: Frame, a: Action) -> None:
        s = f["seat"]
        C = data().cards
        k, x = a.kind, a.a
        if k == "ignore":
            f["ign"] = (*f["ign"], x)
            self.say(f"{self.P(s)} ignores {self.label(x)}")
        elif k in ("event", "encounter"):
            f["done"] = (*f["done"], x)
            self.note_play(s, x)
            self.say(f"{self.P(s)} resolves {self.label(x)}")
            c = C[x]
            if c.leave == 1 or (c.leave == -1 and c.cat == "event"):
                if c.cat == "event":  # an event is discarded as it resolves
                    self._off_board(self.pos[s], x)
                else:
                    self._push({"k": "after", "seat": s, "card": x, "sp": self.pos[s]})
            self._push_seq(s, c.act, x)
        elif k == "evade":
            self.evaded.append(x)
            self.say(f"{self.P(s)} evades {self.label(x)}")
            if self.stats is not None:
                self._note_used(s, [a for a in self.assets[s] if C[a].pas.evade][:1])
        elif k == "fight":
            ai = AI[x]
            foes = tuple(y for y in self._threats_here(s) if C[y].cat == "enemy" and C[y].attr == ai
                         and y not in self.evaded)
            for y in foes:
                self.note_play(s, y)
            self._push_battle(s, foes, ai, sum(C[y].value for y in foes), _ids(C[y].name for y in foes), 0, 0)

    def _run_after(self, f: Frame) -> bool:
        """After an encounter that says 'stays leave = true' resolves, it is discarded."""
        self._pop(f)
        self._off_board(f["sp"], f["card"])
        return False

    def _off_board(self, sp: str, x: str) -> None:
        here = self.board.get(sp, [])
        if x in here:
            here.remove(x)
            self._discard(x)
            if not here:
                self.board.pop(sp, None)

    # -- battles ----------------------------------------------------------------------------------------------
    def _traits(self, f: Frame) -> tuple[str, ...]:
        C = data().cards
        return tuple(C[x].trait for x in f["foes"] if C[x].trait)

    def _gear(self, s: int, gear: str) -> list[str]:
        C = data().cards
        return sorted(a for a in self.assets[s] if C[a].gear == gear)

    def _bb(self, p: Pas, form: str, traits: Sequence[str]) -> int:
        return sum(n for fm, n, vs in p.bb if (fm == "any" or fm == form) and (not vs or vs in traits))

    def _best_gear(self, f: Frame, gear: str) -> str:
        s = f["seat"]
        form = ATTRS[f["fa"]]
        traits = self._traits(f)
        C = data().cards
        best, val = "", -99.0
        for a in self._gear(s, gear):
            v = self._bb(C[a].pas, form, traits) + (0.5 if C[a].pas.charge and self.charges.get(a, 0) else 0.0)
            if v > val:
                best, val = a, v
        return best

    def battle_bonus(self, f: Frame) -> int:
        """The player's battle score without the roll: attribute, battle bonuses, scores added this battle."""
        s = f["seat"]
        form = ATTRS[f["fa"]]
        traits = self._traits(f)
        C = data().cards
        total = self.attr[s][f["fa"]] + int(f["bonus"])
        for p in self._srcs(s):
            total += self._bb(p, form, traits)
        for g in (f["wpn"], f["arm"]):
            if g and g in self.assets[s]:
                total += self._bb(C[g].pas, form, traits)
        return total

    def enemy_bonus(self, f: Frame) -> int:
        """The enemies' battle score without their roll (step 5: per-card bonuses counted now)."""
        s = f["seat"]
        C = data().cards
        if not f["foes"]:
            return int(f["fv"])
        total = 0
        omens = sum(1 for x in self._threats_here(s) if C[x].omen)
        per = {"": 1, "power": len(self.hand[s]), "asset": len(self.assets[s]), "corruption": self.corruption(s),
               "trophy": len(self.troph[s]), "omen": omens}
        scen = data().scens[self.scen].pas.senemy
        for x in f["foes"]:
            c = C[x]
            total += c.value
            for n, what in c.ebonus:
                total += n * per[what]
            for trait, colour, n in scen:
                if (trait and c.trait == trait) or (colour and c.deck == colour):
                    total += n
        return total

    def _prep_options(self, f: Frame) -> list[Action]:
        s = f["seat"]
        out = [Action("pass")]
        for gear, kind, lk in (("weapon", "wpn", "w"), ("armour", "arm", "a")):
            if lk not in f["lk"]:
                out.extend(Action(gear, g) for g in self._gear(s, gear) if g != f[kind])
        out.extend(self._plays(s, "battle", f))
        return out

    def _run_bat(self, f: Frame) -> bool:
        s = f["seat"]
        st = f["st"]
        C = data().cards
        if st == 0:
            f["st"] = 1
            f["wpn"] = self._best_gear(f, "weapon")
            f["arm"] = self._best_gear(f, "armour")
            self.say(f"{self.P(s)} battles {f['fn']} ({ATTRS[f['fa']].capitalize()} "
                     f"{sum(C[x].value for x in f['foes']) if f['foes'] else f['fv']})")
            items = [(C[x].at_start, x) for x in f["foes"] if C[x].at_start]
            self._push_timed(s, items + self._whens(s, "battle_start", self._traits(f)))
            return False
        if st == 1:
            if self.hand[s] or len(self._prep_options(f)) > 1:
                return True
            f["st"] = 2
            return False
        if st == 2:
            n = 1 + sum(C[x].edice for x in f["foes"])
            dice = [self.roll() for _ in range(n)]
            extra = []
            pend = sum(1 for v in dice if v == 6)
            while pend:
                v = self.roll()
                extra.append(v)
                pend += (v == 6) - 1
            f["er"] = sum(dice) + sum(extra)
            self.say(f"The enemy's battle roll (made by {self.P(self._left(s))}): " +
                     "+".join(map(str, dice + extra)) + (f" = {f['er']}" if len(dice) + len(extra) > 1 else ""))
            f["st"] = 3
            return False
        if st == 3:
            f["st"] = 4
            self._push({"k": "dice", "seat": s, "ctx": "battle", "n": 1 + self.xdice(s, "battle"), "st": 0,
                        "vals": (), "ex": (), "x": 0, "pc": ""})
            return False
        self._pop(f)
        mine = self.battle_bonus(f) + f["roll"]
        theirs = self.enemy_bonus(f) + f["er"]
        if self.stats is not None:
            form, tr = ATTRS[f["fa"]], self._traits(f)
            self._note_used(s, [a for a in self.assets[s] if (C[a].gear not in ("weapon", "armour") or a in (
                f["wpn"], f["arm"])) and (self._bb(C[a].pas, form, tr) or C[a].pas.xb)])
        self.last = {"player": mine, "enemy": theirs, "roll": f["roll"], "enemy_roll": f["er"]}
        traits = self._traits(f)
        if mine > theirs:
            self.say(f"{self.P(s)} wins the battle, {mine} to {theirs}")
            self.last["result"] = 1
            if f["foes"]:
                self._push({"k": "trophy", "seat": s, "foes": f["foes"]})
                self._push_seqs(s, [(C[x].on_defeat, x) for x in f["foes"] if C[x].on_defeat])
            else:
                self._push_seq(s, f["win"], "battle")
            self._push_whens(s, "battle_win", traits)
        elif mine < theirs:
            self.say(f"{self.P(s)} loses the battle, {mine} to {theirs}")
            self.last["result"] = -1
            self._push({"k": "endeng", "seat": s})
            if f["foes"]:
                self._push_seqs(s, [(C[x].on_victory, x) for x in f["foes"] if C[x].on_victory])
            else:
                self._push_seq(s, f["lose"], "battle")
            self._push({"k": "life", "seat": s})
            self._push_whens(s, "battle_lose", traits)
        else:
            self.say(f"The battle is a tie, {mine} to {theirs}: {self.P(s)}'s Engagement phase ends")
            self.last["result"] = 0
            self._end_engagement()
        return False

    def _left(self, s: int) -> int:
        n = self.players
        for i in range(1, n):
            t = (s + i) % n
            if not self.out[t]:
                return t
        return s

    def _run_trophy(self, f: Frame) -> bool:
        self._pop(f)
        s = f["seat"]
        for x in f["foes"]:
            for sp, here in list(self.board.items()):
                if x in here:
                    here.remove(x)
                    if not here:
                        del self.board[sp]
                    self.troph[s].append(x)
                    self.say(f"{self.P(s)} takes {self.label(x)} as a trophy")
                    self._defeated(s, x)
                    break
        return False

    def _run_life(self, f: Frame) -> bool:
        self._pop(f)
        self._lose(f["seat"], "life", 1)
        return False

    def _run_endeng(self, f: Frame) -> bool:
        self._pop(f)
        self._end_engagement()
        return False

    # -- skill tests ------------------------------------------------------------------------------------------
    def _run_tst(self, f: Frame) -> bool:
        s = f["seat"]
        if f["st"] == 0:
            f["st"] = 1
            self.say(f"{self.P(s)} tests {ATTRS[f['a']].capitalize()} {f['t']}")
            self._push({"k": "dice", "seat": s, "ctx": "test", "n": 1 + self.xdice(s, "test"), "st": 0,
                        "vals": (), "ex": (), "x": 0, "pc": ""})
            return False
        self._pop(f)
        score = self.attr[s][f["a"]] + self.skill(s, f["a"]) + f["bonus"] + f["roll"]
        if self.stats is not None:
            C = data().cards
            self._note_used(s, [a for a in self.assets[s] if C[a].gear not in ("weapon", "armour") and (
                any(ai == f["a"] for ai, _ in C[a].pas.sb) or C[a].pas.xt)])
        ok = score >= f["t"] and not f["ones"]
        self.last = {"test": score, "target": f["t"], "result": 1 if ok else -1, "roll": f["roll"]}
        self.say(f"{self.P(s)} {'passes' if ok else 'fails'} the test with {score}" +
                 (" (a natural 1)" if f["ones"] else "") + f" against {f['t']}")
        self._push_whens(s, "test_pass" if ok else "test_fail")
        if ok and f["obj"] and self.mission[s] == f["obj"]:
            self._complete(s)
        self._push_seq(s, f["ps"] if ok else f["fl"], "test")
        return False

    # -- experience -------------------------------------------------------------------------------------------
    def _level_options(self, s: int) -> list[Action]:
        pts = self.trophy_points(s)
        return [Action("level", str(n)) for n in range(1, pts // TROPHY_POINTS + 1)]

    def _relic_ok(self, s: int) -> bool:
        return self.completed(s) >= RELIC_MISSIONS and bool(self.deck["relic"] or self.disc["relic"])

    def _exp_options(self, s: int) -> list[Action]:
        out = [Action("end"), *self._level_options(s)]
        if self._relic_ok(s):
            out.append(Action("relic"))
        out.extend(self._plays(s, "exp"))
        out.extend(Action("discard", x) for x in self._uniq(self.hand[s]))
        out.extend(Action("discard", x) for x in sorted(self.assets[s]))
        return out

    def _run_exp(self, f: Frame) -> bool:
        s = f["seat"]
        st = f["st"]
        if st == 0:
            if len(self._exp_options(s)) > 1:
                return True
            f["st"] = 1
            return False
        if st == 1:
            f["st"] = 2
            if not self.mission[s]:
                self._push({"k": "dmis", "seat": s, "n": 1, "new": ""})
            return False
        if st == 2:
            if len(self.hand[s]) > self.power_limit(s) or len(self.assets[s]) > self.asset_limit(s):
                return True
            self._pop(f)
            return False
        self._pop(f)
        return False

    def _trophies_for(self, s: int, levels: int) -> list[str]:
        """The trophies to spend for ``levels`` levels: the set worth the fewest points that is enough."""
        C = data().cards
        need = TROPHY_POINTS * levels
        items = sorted(self.troph[s], key=lambda x: (C[x].value, x))
        best: dict[int, tuple[str, ...]] = {0: ()}
        for x in items:
            v = C[x].value
            for tot, combo in list(best.items()):
                t2 = tot + v
                if t2 not in best or len(best[t2]) > len(combo) + 1:
                    best[t2] = (*combo, x)
        ok = sorted(t for t in best if t >= need)
        return list(best[ok[0]]) if ok else []

    def _run_lvl(self, f: Frame) -> bool:
        s = f["seat"]
        st = f["st"]
        f["st"] = st + 1
        if st == 0:
            if self.level[s] >= MAX_LEVEL:
                self.say(f"{self.P(s)} is already level {MAX_LEVEL}: a completed mission instead")
                self._pop(f)
                self._complete_from_deck(s, 1)
                return False
            self.level[s] += 1
            self.say(f"{self.P(s)} reaches level {self.level[s]}")
            self._push_seq(s, data().chars[self.char[s]].rewards[self.level[s] - 1], self.char[s])
        elif st == 1:
            self._push_whens(s, "level_up")
        else:
            self._pop(f)
            self._check_level(s)
        return False

    # -- drawing Corruption and Mission cards -----------------------------------------------------------------
    def _run_corr(self, f: Frame) -> bool:
        s = f["seat"]
        if f["n"] <= 0 or self.out[s]:
            self._pop(f)
            return False
        f["n"] -= 1
        if self._corruption_step(s):
            f["n"] = 0  # corrupted: the rest of the draw is not made
        return False

    def _run_dmis(self, f: Frame) -> bool:
        s = f["seat"]
        if f["new"]:
            return True
        if f["n"] <= 0 or self.out[s]:
            self._pop(f)
            return False
        f["n"] -= 1
        x = self._pop_deck("mission")
        if not x:
            self._pop(f)
            self.say("The Mission deck is empty: no Mission card is drawn")
            return False
        self.note_draw(s, x)
        if self.mission[s]:
            f["new"] = x
            self.revealed.append(x)
            self.say(f"{self.P(s)} draws the Mission {self.label(x)} and must keep one mission")
            return True
        self._activate_mission(s, x)
        return False

    # -- effect lists and questions ---------------------------------------------------------------------------
    def _run_seq(self, f: Frame) -> bool:
        effs = data().L.lists[f["L"]]
        i = f["i"]
        if i >= len(effs):
            self._pop(f)
            return False
        f["i"] = i + 1
        if i + 1 >= len(effs):
            self._pop(f)
        if i == 0 and f["src"] in data().cards:
            name = data().cards[f["src"]].name
            last = self.log[-1] if self.log else None
            if not (last and last.seats is None and name in last.text):  # unless the line before names it already
                self.say(f"{name} takes effect")
        self._exec(f["seat"], effs[i], f["src"])
        return False

    def _run_ask(self, f: Frame) -> bool:
        return True


    # -- what a seat may play in a window ---------------------------------------------------------------------
    @staticmethod
    def _useful(p: str, win: str, free: bool) -> bool:
        if p == "add_score":
            return win in ("battle", "test")
        if p in ("reroll", "evade", ""):
            return False
        if p in ("move_extra", "move_bonus"):
            return win == "move"
        if p in ("move_any", "move_to", "cross", "draw_threat"):
            return win == "eng" and free
        return True

    @staticmethod
    def _gear_free(bat: Frame, a: str) -> bool:
        if data().cards[a].gear == "weapon":
            return "w" not in bat["lk"] or bat["wpn"] == a
        return "a" not in bat["lk"] or bat["arm"] == a

    def _plays(self, s: int, win: str, bat: Frame | None = None) -> list[Action]:
        """Power cards played for their ability, charges and one-shot uses that seat s may play now."""
        C = data().cards
        out: list[Action] = []
        free = self.space(s).tier in ("outer", "middle")
        for x in self._uniq(self.hand[s]):
            c = C[x]
            tw = TIMING_WINDOWS.get(c.timing, "")
            if tw != "*" and tw != win:
                continue
            p = _purpose(c.act)
            if p == "evade":
                if win == "eng":
                    out.extend(Action("evade", e, x) for e in self._evadable(s, True))
                continue
            if self._useful(p, win, free):
                out.append(Action("play", x))
        for a in sorted(self.assets[s]):
            c = C[a]
            if c.gear in ("weapon", "armour") and (bat is None or not self._gear_free(bat, a)):
                continue
            for moment, lid in c.pas.charge:
                mw = TIMING_WINDOWS[moment]
                if (mw == "*" or mw == win) and self.charges.get(a, 0) > 0 and a not in self.spent and \
                        self._useful(_purpose(lid), win, free):
                    out.append(Action("charge", a))
                    break
            for moment, lid in c.pas.use:
                mw = TIMING_WINDOWS[moment]
                if (mw == "*" or mw == win) and self._useful(_purpose(lid), win, free):
                    out.append(Action("use", a))
                    break
        return out

    def _numbers(self, s: int) -> list[Action]:
        if not self.numbers_ok(s):
            return []
        return [Action("number", x) for x in self._uniq(self.hand[s])]

    def _reroll_actions(self, f: Frame) -> list[Action]:
        s = f["seat"]
        C = data().cards
        srcs = []
        for x in self._uniq(self.hand[s]):
            c = C[x]
            tw = TIMING_WINDOWS.get(c.timing, "")
            if (tw == "*" or tw == f["ctx"]) and _purpose(c.act) == "reroll":
                srcs.append(x)
        srcs += self._reroll_charges(f)
        return [Action("reroll", x, str(i)) for x in srcs for i in range(len(f["vals"]))]

    # -- legal actions ----------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if self._outcome is not None else self.cur

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def _legal_actions(self) -> list[Action]:
        if not self.stack:
            if self.phase == "select" and self.sel is not None:
                return [Action("pick", c) for c in self.dealt[self.sel.waiting]]
            raise EngineError("relic: no decision is pending")
        f = self.stack[-1]
        k = f["k"]
        s = f["seat"]
        D = data()
        if k == "dice":
            st = f["st"]
            if st == 0:
                return [Action("roll"), *self._numbers(s), *self._dice_extras(f)]
            if st == 1:
                return [Action("pass"), *self._reroll_actions(f)]
            if st == 3:
                return [Action("move", str(v)) for v in sorted(set(f["vals"]))]
            return [Action("roll"), *self._numbers(s)]
        if k == "mv":
            st = f["st"]
            if st == 3:
                return [Action("jump"), Action("pass")]
            if st == 4:
                return [Action("cw"), Action("acw")]
            if f["box"]:
                sp = D.spaces[f["box"]]
                if sp.inner:
                    return [Action("rift"), Action("pass")]
                return [Action("jump"), Action("pass")]
            return [Action("more"), Action("stop")]
        if k == "eng":
            if f["st"] == 1:
                out = [Action("pass")]
                if self._objective_option(s):
                    out.append(Action("objective"))
                return out + self._plays(s, "eng")
            sp = self.space(s)
            return [Action("box", str(i + 1)) for i, b in enumerate(sp.boxes) if self._box_ok(s, b)] + [Action("end")]
        if k == "thr":
            return self._thr_options(f)
        if k == "bat":
            return self._prep_options(f)
        if k == "exp":
            if f["st"] == 0:
                return self._exp_options(s)
            if len(self.hand[s]) > self.power_limit(s):
                return [Action("discard", x) for x in self._uniq(self.hand[s])]
            return [Action("discard", x) for x in sorted(self.assets[s])]
        if k == "dmis":
            return [Action("mission", x) for x in sorted((self.mission[s], f["new"]))]
        if k == "ask":
            return self._ask_actions(f)
        raise EngineError(f"relic: no decision in frame {k!r}")

    def _ask_actions(self, f: Frame) -> list[Action]:
        s = f["seat"]
        q = f["q"]
        D = data()
        if q in ("may", "pay"):
            return [Action("yes"), Action("no")]
        if q == "choose":
            return [Action("option", str(i + 1)) for i in range(len(f["opts"]))]
        if q == "stat":
            return [Action("stat", a) for a in f["opts"]]
        if q == "charge":
            return [Action("target", a) for a in sorted(self.assets[s]) if D.cards[a].charges > 0]
        if q == "disc":
            pool = self._discardable(s, f["what"])
            xs = self._uniq(pool) if f["what"] == "power" else sorted(pool)
            return [Action("discard", x) for x in xs]
        if q == "purge":
            return [Action("purge", x) for x in sorted(self.cup[s] + self.cdown[s])]
        if q == "to":
            return [Action("to", x) for x in D.rings[f["tier"]] if x != self.pos[s]]
        if q == "bpow":
            most = min(self.infl[s] // f["price"], len(self.deck["power"]) + len(self.disc["power"]))
            return [Action("buy", str(n)) for n in range(most + 1)]
        if q == "bwg":
            return [Action("buy", x) for x in self.revealed if D.cards[x].cost <= self.infl[s]] + [Action("done")]
        if q == "relic":
            return [Action("take", x) for x in self.revealed]
        if q == "warp":
            return [Action("spend"), Action("save")]
        if q == "order":
            return self._order_actions(f)
        if q == "corrupt":
            return [Action("new"), Action("concede")]
        raise EngineError(f"relic: unknown question {q!r}")

    @staticmethod
    def _order_actions(f: Frame) -> list[Action]:
        """``first SRC``: the ability to resolve next, one per different ability (``first SRC N``: a source's
        second one)."""
        lids, srcs = f["lids"], f["srcs"]
        out: list[Action] = []
        seen: set[int] = set()
        for i, (lid, src) in enumerate(zip(lids, srcs, strict=True)):
            if lid in seen:
                continue
            seen.add(lid)
            out.append(Action("first", src) if srcs.count(src) == 1 else Action("first", src, str(i)))
        return out

    # -- applying actions -------------------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        if not self.stack:
            self._apply_pick(action)
        else:
            f = self.stack[-1]
            _APPLY[f["k"]](self, f, action)
        self._advance()

    def _apply_pick(self, a: Action) -> None:
        assert self.sel is not None
        w = self.sel.waiting
        self.sel.commit(w, a.a)
        self.say(f"{self.P(w)} chooses a character")
        self.say(f"you choose {data().chars[a.a].name}", (w,))
        if self.sel.complete:
            self._finish_setup()

    def _finish_setup(self) -> None:
        D = data()
        assert self.sel is not None
        for s in range(self.players):
            ch = str(self.sel.chosen[s])
            self._set_char(s, ch)
            self.infl[s] = START_INFLUENCE
            self.box.extend(c for c in self.dealt[s] if c != ch)
            self.say(f"{self.P(s)} ({SEAT_COLOURS[s]}) is the {D.chars[ch].name}, at {D.spaces[self.pos[s]].name}")
        self.box.sort()
        self.dealt = [[] for _ in range(self.players)]
        self.sel = None
        for s in range(self.players):
            self._draw_power(s, self.power_limit(s))
        for s in range(self.players):
            x = self._pop_deck("mission")
            if x:
                self.note_draw(s, x)
                self._activate_mission(s, x)
        self.phase = "start"
        self.tp = self.players - 1  # the oldest player, seat 0, takes the first turn

    def _common(self, s: int, a: Action, bat: Frame | None = None) -> bool:
        """Power card abilities, charges and uses, in any window; False if the action is something else."""
        C = data().cards
        k, x = a.kind, a.a
        if k == "play":
            self.hand[s].remove(x)
            self._discard(x)
            self.note_play(s, x)
            self.say(f"{self.P(s)} plays {self.label(x)}")
            self._push_seq(s, C[x].act, x)
        elif k == "evade" and a.b:
            self.hand[s].remove(a.b)
            self._discard(a.b)
            self.note_play(s, a.b)
            self.evaded.append(x)
            self.say(f"{self.P(s)} plays {self.label(a.b)} to evade {self.label(x)}")
        elif k == "charge":
            c = C[x]
            lid = c.pas.charge[0][1]
            self._lock_gear(bat, x)
            self.say(f"{self.P(s)} spends a charge from {self.label(x)}")
            self._spend_charge(s, x)
            self._push_seq(s, lid, x)
        elif k == "use":
            c = C[x]
            lid = c.pas.use[0][1]
            self._lock_gear(bat, x)
            self.say(f"{self.P(s)} discards {self.label(x)} to use it")
            self.note_play(s, x)
            self._lose_asset(s, x)
            self._push_seq(s, lid, x)
            self._check_threshold(s)
        else:
            return False
        return True

    @staticmethod
    def _lock_gear(bat: Frame | None, x: str) -> None:
        if bat is None:
            return
        g = data().cards[x].gear
        if g == "weapon":
            bat["wpn"] = x
            bat["lk"] += "w"
        elif g == "armour":
            bat["arm"] = x
            bat["lk"] += "a"

    def _ap_dice(self, f: Frame, a: Action) -> None:
        s = f["seat"]
        k = a.kind
        st = f["st"]
        if st == 0:
            if k == "roll":
                self._do_roll(f, "")
            elif k == "number":
                self._play_number(s, a.a)
                self._do_roll(f, a.a)
            elif k == "rift":
                self._pop(f)
                self.stack[-1]["rift"] = True
            else:
                self._common(s, a)
        elif st == 1:
            if k == "pass":
                f["st"] = 2
            else:
                x, i = a.a, int(a.b)
                if x in self.hand[s]:
                    self.hand[s].remove(x)
                    self._discard(x)
                    self.note_play(s, x)
                else:
                    self._spend_charge(s, x)
                vals = list(f["vals"])
                old = vals[i]
                vals[i] = self.roll()
                f["vals"] = tuple(vals)
                self.say(f"{self.P(s)} rerolls a {old} with {self.label(x)}: {vals[i]}")
        elif st == 3:
            self._dice_done(f, int(a.a))
        else:
            if k == "roll":
                self._explode(f, self.roll(), "")
            else:
                self._play_number(s, a.a)
                self._explode(f, data().cards[a.a].number, a.a)

    def _ap_mv(self, f: Frame, a: Action) -> None:
        s = f["seat"]
        k = a.kind
        D = data()
        if f["st"] == 3:
            if k == "jump":
                self._jump(s, f)
            else:
                f["box"] = ""
                f["st"] = 4
        elif f["st"] == 4:
            f["dir"] = 1 if k == "cw" else -1
            f["st"] = 5
            self.say(f"{self.P(s)} moves {'clockwise' if k == 'cw' else 'anticlockwise'}")
        elif f["box"]:
            if k == "jump":
                self._jump(s, f)
            elif k == "rift":
                f["box"] = ""
                self._enter_rift(s, f)
            else:
                f["box"] = ""
        elif k == "more":
            f["extra"] -= 1
            self._enter(s, f, self._step(self.pos[s], f["dir"]))
            self.say(f"{self.P(s)} moves one more space, to {D.spaces[self.pos[s]].name}")
        else:
            f["extra"] = 0

    def _jump(self, s: int, f: Frame) -> None:
        D = data()
        to = D.spaces[f["box"]].jump
        f["box"] = ""
        f["pts"] -= 1
        self.say(f"{self.P(s)} spends a movement point to move to {D.spaces[to].name}")
        self._enter(s, f, to)
        f["st"] = 4 if f["pts"] > 0 else 5

    def _ap_eng(self, f: Frame, a: Action) -> None:
        s = f["seat"]
        k = a.kind
        if f["st"] == 1:
            if k == "pass":
                f["st"] = 2
            elif k == "objective":
                obj = self._objective(s)
                f["st"] = 9
                if obj.word == "objective_test":
                    self.say(f"{self.P(s)} attempts the objective of {self.label(self.mission[s])}")
                    self._push({"k": "tst", "seat": s, "a": AI[str(obj["attribute"])], "t": int(obj["target"]),
                                "ps": 0, "fl": 0, "obj": self.mission[s], "bonus": 0, "st": 0, "roll": 0,
                                "ones": False})
                else:
                    self.infl[s] -= int(obj["n"])
                    self.say(f"{self.P(s)} spends {int(obj['n'])} influence for the objective")
                    self._complete(s)
            else:
                self._common(s, a)
        else:
            f["st"] = 9
            if k == "box":
                sp = self.space(s)
                self.say(f"{self.P(s)} resolves text box {a.a} of {sp.name}")
                self._push_seq(s, sp.boxes[int(a.a) - 1], sp.id)

    def _ap_thr(self, f: Frame, a: Action) -> None:
        self._apply_thr(f, a)

    def _ap_bat(self, f: Frame, a: Action) -> None:
        s = f["seat"]
        k = a.kind
        if k == "pass":
            f["st"] = 2
        elif k == "weapon":
            f["wpn"] = a.a
        elif k == "armour":
            f["arm"] = a.a
        else:
            self._common(s, a, f)

    def _ap_exp(self, f: Frame, a: Action) -> None:
        s = f["seat"]
        k = a.kind
        if k == "end":
            f["st"] = 1
        elif k == "discard":
            self._discard_owned(s, a.a)
        elif k == "level":
            n = int(a.a)
            spend = self._trophies_for(s, n)
            for x in spend:
                self.troph[s].remove(x)
                self._discard(x)
            self.say(f"{self.P(s)} spends trophies worth {sum(data().cards[x].value for x in spend)} for {n} "
                     f"level(s)")
            for _ in range(n):
                self._push({"k": "lvl", "seat": s, "st": 0})
        elif k == "relic":
            self._buy_relic(s)
        else:
            self._common(s, a)

    def _buy_relic(self, s: int) -> None:
        spent = []
        for _ in range(RELIC_MISSIONS):
            x = self.done[s].pop(0) if self.done[s] else self.hdone[s].pop(0)
            self.disc["mission"].append(x)
            spent.append(x)
        self.say(f"{self.P(s)} spends the completed missions {_ids(self.label(x) for x in spent)}")
        for _ in range(RELIC_REVEAL):
            x = self._pop_deck("relic")
            if x:
                self.revealed.append(x)
        if len(self.revealed) == 1:
            self._take_relic(s, self.revealed[0])
        elif self.revealed:
            self.say(f"{self.P(s)} reveals {_ids(self.label(x) for x in self.revealed)}")
            self._ask(s, "relic")

    def _take_relic(self, s: int, x: str) -> None:
        self.revealed.remove(x)
        self._gain_asset(s, x)
        self.note_play(s, x)
        self.say(f"{self.P(s)} takes the relic {self.label(x)}")
        if self.revealed:
            self.deck["relic"].extend(self.revealed)
            self.revealed = []
            self.rng.shuffle(self.deck["relic"])

    def _ap_dmis(self, f: Frame, a: Action) -> None:
        s = f["seat"]
        new = f["new"]
        f["new"] = ""
        self.revealed.remove(new)
        if a.a == new:
            old = self.mission[s]
            self.disc["mission"].append(old)
            self.say(f"{self.P(s)} discards the mission {self.label(old)}")
            self._activate_mission(s, new)
        else:
            self.disc["mission"].append(new)
            self.say(f"{self.P(s)} keeps the mission {self.label(self.mission[s])}")

    def _ap_ask(self, f: Frame, a: Action) -> None:
        s = f["seat"]
        q = f["q"]
        k = a.kind
        C = data().cards
        if q in ("may", "pay"):
            self._pop(f)
            if k == "yes":
                if q == "pay":
                    self.infl[s] -= f["cost"]
                    self.say(f"{self.P(s)} spends {f['cost']} influence")
                self._push_seq(s, f["L"], f["src"])
        elif q == "choose":
            self._pop(f)
            self._push_seq(s, f["opts"][int(a.a) - 1], f["src"])
        elif q == "stat":
            self._pop(f)
            if f["sign"] > 0:
                self._gain(s, a.a, f["n"])
            else:
                self._lose(s, a.a, f["n"])
        elif q == "charge":
            self._pop(f)
            self._add_charge(s, a.a, f["n"])
        elif q == "disc":
            self._discard_owned(s, a.a)
            f["n"] -= 1
            pool = self._discardable(s, f["what"])
            if f["n"] <= 0 or not pool:
                self._pop(f)
            elif len(pool) <= f["n"]:
                self._pop(f)
                for x in pool:
                    self._discard_owned(s, x)
        elif q == "purge":
            self._remove_corruption(s, a.a)
            f["n"] -= 1
            if f["n"] <= 0 or not self.cup[s] + self.cdown[s]:
                self._pop(f)
                self._check_threshold(s)
        elif q == "to":
            self._pop(f)
            self._move_direct(s, a.a, f"moves to {data().spaces[a.a].name}")
            self._end_engagement()
        elif q == "bpow":
            self._pop(f)
            n = int(a.a)
            if n:
                self.infl[s] -= n * f["price"]
                self.say(f"{self.P(s)} spends {n * f['price']} influence for {n} Power card(s)")
                self._draw_power(s, n)
        elif q == "bwg":
            if k == "buy":
                x = a.a
                self.infl[s] -= C[x].cost
                self.revealed.remove(x)
                self._gain_asset(s, x)
                self.note_play(s, x)
                self.say(f"{self.P(s)} buys {self.label(x)} for {C[x].cost} influence")
            if k == "done" or not self.revealed:
                self._pop(f)
                for x in self.revealed:
                    self.deck["wargear"].insert(0, x)
                self.revealed = []
        elif q == "relic":
            self._pop(f)
            self._take_relic(s, a.a)
        elif q == "warp":
            self._pop(f)
            self._warp(s, k == "spend")
        elif q == "corrupt":
            self._pop(f)
            if k == "new":
                self._new_character(s)
            else:
                self.say(f"{self.P(s)} does not start a new character and loses the game")
                self._eliminate(s)
        elif q == "order":
            self._pop(f)
            lids, srcs = list(f["lids"]), list(f["srcs"])
            i = int(a.b) if a.b else srcs.index(a.a)
            lid, src = lids.pop(i), srcs.pop(i)
            self._push_timed(s, list(zip(lids, srcs, strict=True)))  # the rest, after the chosen one
            self._push_seq(s, lid, src)

    # -- views ------------------------------------------------------------------------------------------------
    def _public(self, s: int) -> dict[str, Any]:
        return {"character": self.char[s], "colour": SEAT_COLOURS[s], "space": self.pos[s],
                "attributes": list(self.attr[s]), "life": self.life[s], "level": self.level[s],
                "influence": self.infl[s], "hand": len(self.hand[s]), "assets": list(self.assets[s]),
                "trophies": list(self.troph[s]), "corruption_up": list(self.cup[s]),
                "corruption_down": len(self.cdown[s]), "mission": self.mission[s], "completed": list(self.done[s]),
                "completed_hidden": len(self.hdone[s]), "tokens": list(self.tokens[s]),
                "scenario_tokens": self.stok[s], "progress": self.mprog[s], "skip": self.skip[s],
                "eliminated": self.out[s]}

    def observation(self, seat: int) -> dict[str, Any]:
        obs: dict[str, Any] = {
            "game": self.game_id, "seat": seat, "players": self.players, "scenario": self.scen, "phase": self.phase,
            "turn": self.turn_no, "active": self.tp, "current": self.current_player,
            "table": [self._public(s) for s in range(self.players)], "hand": sorted(self.hand[seat]),
            "my_corruption_down": sorted(self.cdown[seat]), "my_completed_hidden": sorted(self.hdone[seat]),
            "board": {k: list(v) for k, v in sorted(self.board.items())},
            "decks": {d: len(self.deck[d]) for d in DECKS}, "discards": {d: list(self.disc[d]) for d in DECKS},
            "revealed": list(self.revealed), "charges": dict(sorted(self.charges.items())),
            "spent": list(self.spent), "evaded": list(self.evaded),
            "box": sorted(self.box) if self.sel is None else None, "retired": list(self.retired),
            "stack": [frame_out(f) for f in self.stack], "last": dict(self.last),
            "log": self.visible_log(seat),
        }
        bat = next((f for f in reversed(self.stack) if f["k"] == "bat"), None)
        if bat is not None:
            obs["battle"] = {"seat": bat["seat"], "score": self.battle_bonus(bat), "enemy": self.enemy_bonus(bat),
                             "enemy_roll": bat["er"] if bat["st"] >= 3 else None}
        if self.sel is not None:
            obs["dealt"] = list(self.dealt[seat])
            obs["choices"] = self.sel.view(seat)
        if self._outcome:
            obs["outcome"] = self._outcome.as_dict()
        return obs

    def zones(self) -> dict[str, list[str]]:
        z: dict[str, list[str]] = {}
        for d in DECKS:
            z[f"deck.{d}"] = list(self.deck[d])
            z[f"discard.{d}"] = list(self.disc[d])
        for sp, xs in self.board.items():
            z[f"space.{sp}"] = list(xs)
        z["revealed"] = list(self.revealed)
        for s in range(self.players):
            z[f"hand.{s}"] = list(self.hand[s])
            z[f"corruption_up.{s}"] = list(self.cup[s])
            z[f"corruption_down.{s}"] = list(self.cdown[s])
            z[f"trophies.{s}"] = list(self.troph[s])
            z[f"assets.{s}"] = list(self.assets[s])
            z[f"mission.{s}"] = [self.mission[s]] if self.mission[s] else []
            z[f"completed.{s}"] = list(self.done[s])
            z[f"completed_hidden.{s}"] = list(self.hdone[s])
        return z

    def chargeable(self) -> list[str]:
        """The cards the current player may spend a charge from now."""
        return sorted(a.a for a in self.legal_actions() if a.kind == "charge")

    def probe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"turn": self.turn_no, "turn_player": self.tp, "phase": self.phase,
                               "current": self.current_player, "scenario": self.scen,
                               "board": {k: sorted(v) for k, v in sorted(self.board.items())},
                               "revealed": list(self.revealed), "last": dict(self.last),
                               "legal": sorted(a.key for a in self.legal_actions()),
                               "chargeable": self.chargeable() if not self.is_terminal() else [],
                               "charges": dict(sorted(self.charges.items()))}
        for d in DECKS:
            out[f"deck.{d}"] = len(self.deck[d])
            out[f"discard.{d}"] = list(self.disc[d])
            out[f"deck_top.{d}"] = list(reversed(self.deck[d][-5:]))
        for sp, xs in self.board.items():
            out[f"space.{sp}"] = sorted(xs)
        for s in range(self.players):
            out[f"character.{s}"] = self.char[s]
            out[f"pos.{s}"] = self.pos[s]
            for i, a in enumerate(ATTRS):
                out[f"{a}.{s}"] = self.attr[s][i]
            out[f"life.{s}"] = self.life[s]
            out[f"level.{s}"] = self.level[s]
            out[f"influence.{s}"] = self.infl[s]
            out[f"hand.{s}"] = sorted(self.hand[s])
            out[f"hand_size.{s}"] = len(self.hand[s])
            out[f"assets.{s}"] = sorted(self.assets[s])
            out[f"trophies.{s}"] = sorted(self.troph[s])
            out[f"corruption_up.{s}"] = sorted(self.cup[s])
            out[f"corruption_down.{s}"] = sorted(self.cdown[s])
            out[f"corruption.{s}"] = self.corruption(s)
            out[f"mission.{s}"] = self.mission[s]
            out[f"completed.{s}"] = self.completed(s)
            out[f"completed_missions.{s}"] = sorted(self.done[s] + self.hdone[s])
            out[f"tokens.{s}"] = sorted(self.tokens[s])
            out[f"scenario_tokens.{s}"] = self.stok[s]
            out[f"skips.{s}"] = self.skip[s]
            out[f"eliminated.{s}"] = self.out[s]
            out[f"power_limit.{s}"] = self.power_limit(s) if self.char[s] else 0
            out[f"threshold.{s}"] = self.threshold(s) if self.char[s] else 0
        if self._outcome:
            out["winners"] = list(self._outcome.winners)
            out["reason"] = self._outcome.reason
        return out

    def describe(self, action: Action) -> str:
        k, a, b = action.kind, action.a, action.b
        D = data()

        def nm(x: str) -> str:
            if x in D.cards:
                return self.label(x)
            if x in D.spaces:
                return D.spaces[x].name
            if x in D.chars:
                return D.chars[x].name
            return x

        f = self.stack[-1] if self.stack else {}
        if k == "pick":
            c = D.chars[a]
            return (f"play the {c.name} (Str {c.attrs[0]}, Wil {c.attrs[1]}, Cun {c.attrs[2]}, Life {c.life}; "
                    f"starts at {D.spaces[c.start].name})")
        if k == "number":
            return f"play {nm(a)} for its number {D.cards[a].number} instead of rolling"
        if k == "play":
            return f"play {nm(a)} for its ability: {D.card_text(D.cards[a].design)}"
        if k == "evade":
            return f"evade {nm(a)}" + (f" with {nm(b)}" if b else "")
        if k == "reroll":
            return f"reroll the die showing {f['vals'][int(b)]} with {nm(a)}"
        if k == "box":
            sp = self.space(f["seat"])
            return f"resolve text box {a}: {D.box_text(sp.id, int(a))}"
        if k in ("cw", "acw"):
            d = 1 if k == "cw" else -1
            here = self.pos[f["seat"]]
            end = here
            for _ in range(max(1, int(f.get("pts") or 1))):
                end = self._step(end, d)
            return (f"move {'clockwise' if d > 0 else 'anticlockwise'} (next: {nm(self._step(here, d))}; "
                    f"{f.get('pts') or 1} space(s) end on {nm(end)} unless a box on the way stops you)")
        if k == "to":
            return f"move to {nm(a)}"
        if k == "fight":
            return f"battle the {a.capitalize()} enemies"
        if k == "level":
            s = f["seat"]
            gains = [f"level {lv}: {D.reward_text(self.char[s], lv)}"
                     for lv in range(self.level[s] + 1, self.level[s] + int(a) + 1)]
            return f"spend trophies for {a} level(s) ({'; '.join(gains)})"
        if k == "relic":
            return "spend three completed missions to acquire a relic"
        if k == "option":
            return f"option {a}: {D.words(D.L.lists[f['opts'][int(a) - 1]])}"
        if k == "buy" and f.get("q") == "bpow":
            n = int(a)
            return (f"draw {n} Power card(s) for {n * f['price']} influence" if n else "draw no Power cards")
        if k == "buy":
            return f"buy {nm(a)} for {D.cards[a].cost} influence"
        if k == "done":
            return "buy nothing more"
        if k == "end":
            return "end the Experience phase" if f.get("k") == "exp" else "end the Engagement phase"
        if k in ("yes", "no") and f.get("q") == "pay":
            return f"{'pay' if k == 'yes' else 'do not pay'} {f['cost']} influence"
        if k == "pass":
            fk = f.get("k")
            if fk == "dice":
                return "keep the roll"
            if fk == "eng":
                return "go on with the Engagement phase"
            if fk == "bat":
                return "go on to the rolls (Prepare for Battle is over)"
            return "pass"
        if k == "new":
            return "start a new character (a random unused character sheet)"
        if k == "concede":
            return "do not start a new character: lose the game"
        if k == "first":
            return f"resolve first the ability of {nm(a)}"
        if k == "spend":
            return f"spend {WARP_INFLUENCE} influence to skip one more space"
        if k == "save":
            return "keep the influence"
        return " ".join(p for p in (k, nm(a) if a else "", nm(b) if b else "") if p)

    # -- copies -----------------------------------------------------------------------------------------------
    def clone(self) -> RelicState:
        s = RelicState.__new__(RelicState)
        self._base_clone_into(s)
        s.variant = self.variant
        s.scen = self.scen
        s.phase = self.phase
        s.tp = self.tp
        s.turn_no = self.turn_no
        s.cur = self.cur
        if self.sel is not None:
            s.sel = Commitments(self.sel.order)
            s.sel.chosen = dict(self.sel.chosen)
        else:
            s.sel = None
        s.dealt = [list(x) for x in self.dealt]
        s.box = list(self.box)
        s.retired = list(self.retired)
        s.char = list(self.char)
        s.attr = [list(x) for x in self.attr]
        s.life = list(self.life)
        s.level = list(self.level)
        s.infl = list(self.infl)
        s.pos = list(self.pos)
        s.hand = [list(x) for x in self.hand]
        s.cup = [list(x) for x in self.cup]
        s.cdown = [list(x) for x in self.cdown]
        s.troph = [list(x) for x in self.troph]
        s.assets = [list(x) for x in self.assets]
        s.mission = list(self.mission)
        s.done = [list(x) for x in self.done]
        s.hdone = [list(x) for x in self.hdone]
        s.tokens = [list(x) for x in self.tokens]
        s.stok = list(self.stok)
        s.mprog = list(self.mprog)
        s.skip = list(self.skip)
        s.out = list(self.out)
        s.board = {k: list(v) for k, v in self.board.items()}
        s.deck = {k: list(v) for k, v in self.deck.items()}
        s.disc = {k: list(v) for k, v in self.disc.items()}
        s.revealed = list(self.revealed)
        s.charges = dict(self.charges)
        s.spent = list(self.spent)
        s.evaded = list(self.evaded)
        s.stack = [dict(f) for f in self.stack]
        s.abort = self.abort
        s.pend = [dict(f) for f in self.pend]
        s.last = dict(self.last)
        s._outcome = self._outcome
        return s

    def to_json(self) -> dict[str, Any]:
        d = self._base_json()
        d.update(variant=self.variant, scenario=self.scen, phase=self.phase, turn_player=self.tp,
                 turn_no=self.turn_no, cur=self.cur,
                 select=self.sel.to_json() if self.sel is not None else None,
                 dealt=[list(x) for x in self.dealt], box=list(self.box), retired=list(self.retired),
                 char=list(self.char), attr=[list(x) for x in self.attr], life=list(self.life),
                 level=list(self.level), influence=list(self.infl), pos=list(self.pos),
                 hand=[list(x) for x in self.hand], corruption_up=[list(x) for x in self.cup],
                 corruption_down=[list(x) for x in self.cdown], trophies=[list(x) for x in self.troph],
                 assets=[list(x) for x in self.assets], mission=list(self.mission),
                 completed=[list(x) for x in self.done], completed_hidden=[list(x) for x in self.hdone],
                 tokens=[list(x) for x in self.tokens], scenario_tokens=list(self.stok),
                 mission_progress=list(self.mprog), skips=list(self.skip), eliminated=list(self.out),
                 board={k: list(v) for k, v in sorted(self.board.items())},
                 decks={k: list(v) for k, v in self.deck.items()}, discards={k: list(v) for k, v in self.disc.items()},
                 revealed=list(self.revealed), charges=dict(sorted(self.charges.items())), spent=list(self.spent),
                 evaded=list(self.evaded), stack=[frame_out(f) for f in self.stack], abort=self.abort,
                 pend=[frame_out(f) for f in self.pend], last=dict(self.last),
                 outcome=self._outcome.as_dict() if self._outcome else None)
        return d

    @classmethod
    def from_json(cls, data_: Mapping[str, Any]) -> RelicState:
        d = data_
        s = cls(int(d["players"]), 0, str(d.get("variant", "")), deal=False)
        s._base_load(d)
        s.scen = str(d["scenario"])
        s.phase = str(d["phase"])
        s.tp = int(d["turn_player"])
        s.turn_no = int(d["turn_no"])
        s.cur = int(d["cur"])
        s.sel = Commitments.from_json(d["select"]) if d.get("select") else None
        s.dealt = [list(x) for x in d["dealt"]]
        s.box = list(d["box"])
        s.retired = list(d["retired"])
        s.char = list(d["char"])
        s.attr = [list(x) for x in d["attr"]]
        s.life = list(d["life"])
        s.level = list(d["level"])
        s.infl = list(d["influence"])
        s.pos = list(d["pos"])
        s.hand = [list(x) for x in d["hand"]]
        s.cup = [list(x) for x in d["corruption_up"]]
        s.cdown = [list(x) for x in d["corruption_down"]]
        s.troph = [list(x) for x in d["trophies"]]
        s.assets = [list(x) for x in d["assets"]]
        s.mission = list(d["mission"])
        s.done = [list(x) for x in d["completed"]]
        s.hdone = [list(x) for x in d["completed_hidden"]]
        s.tokens = [list(x) for x in d["tokens"]]
        s.stok = list(d["scenario_tokens"])
        s.mprog = list(d["mission_progress"])
        s.skip = list(d["skips"])
        s.out = list(d["eliminated"])
        s.board = {k: list(v) for k, v in d["board"].items()}
        s.deck = {k: list(v) for k, v in d["decks"].items()}
        s.disc = {k: list(v) for k, v in d["discards"].items()}
        s.revealed = list(d["revealed"])
        s.charges = dict(d["charges"])
        s.spent = list(d["spent"])
        s.evaded = list(d["evaded"])
        s.stack = [frame_in(f) for f in d["stack"]]
        s.abort = bool(d["abort"])
        s.pend = [frame_in(f) for f in d["pend"]]
        s.last = dict(d["last"])
        s._outcome = Outcome.from_dict(d.get("outcome"))
        s.check_zones()
        return s

    def card_instances(self) -> dict[str, Any]:
        return cards()

    def determinize(self, seat: int, rng: Rng) -> RelicState:
        """Another state this seat cannot tell from the true one: the cards it cannot see (decks, the others'
        Power cards, face-down Corruption cards and completed missions from the deck, and during set-up the
        character sheets dealt to the others and their choices) are sorted, shuffled with ``rng`` and dealt back
        into zones of the same sizes; the RNG is reseeded from ``rng``."""
        s = self.clone()
        others = [t for t in range(self.players) if t != seat]
        hidden = {"power": s.hand, "corruption": s.cdown, "mission": s.hdone}
        for d in DECKS:
            zones = hidden.get(d)
            pool = list(self.deck[d])
            if zones is not None:
                for t in others:
                    pool.extend(zones[t])
            pool.sort()
            rng.shuffle(pool)
            if zones is not None:
                for t in others:
                    k = len(zones[t])
                    zones[t] = [pool.pop() for _ in range(k)]
            s.deck[d] = [pool.pop() for _ in range(len(self.deck[d]))]
        if self.sel is not None and s.sel is not None:
            own = set(self.dealt[seat])
            pool = sorted(c for c in data().char_ids if c not in own)
            rng.shuffle(pool)
            for t in others:
                s.dealt[t] = sorted([pool.pop(), pool.pop()])
                if t in s.sel.chosen:
                    s.sel.chosen[t] = s.dealt[t][rng.below(2)]
            s.box = sorted(pool)
        s.log = [e for e in self.log if e.seats is None or seat in e.seats]
        s.dice = Dice()
        s.rng = Rng(rng.next64())
        return s

_RUN: dict[str, Any] = {
    "next": RelicState._run_next, "turn": RelicState._run_turn, "mv": RelicState._run_mv,
    "dice": RelicState._run_dice, "eng": RelicState._run_eng, "thr": RelicState._run_thr,
    "after": RelicState._run_after, "bat": RelicState._run_bat, "trophy": RelicState._run_trophy,
    "life": RelicState._run_life, "endeng": RelicState._run_endeng, "tst": RelicState._run_tst,
    "exp": RelicState._run_exp, "lvl": RelicState._run_lvl, "corr": RelicState._run_corr,
    "dmis": RelicState._run_dmis, "seq": RelicState._run_seq, "ask": RelicState._run_ask,
}

_APPLY: dict[str, Any] = {
    "dice": RelicState._ap_dice, "mv": RelicState._ap_mv, "eng": RelicState._ap_eng, "thr": RelicState._ap_thr,
    "bat": RelicState._ap_bat, "exp": RelicState._ap_exp, "dmis": RelicState._ap_dmis, "ask": RelicState._ap_ask,
}


def new_state(players: int = 2, seed: int = 0, variant: str = "") -> RelicState:
    return RelicState(players, seed, variant)


def setup(table: Mapping[str, Any], players: int = 2, seed: int = 0, variant: str = "") -> RelicState:
    """A position from a scenario file's ``[setup]`` (the keys are in the module docstring)."""
    D = data()
    C = D.cards
    s = RelicState(players, seed, variant, deal=False)
    s.scen = variant or D.scen_ids[0]
    used: set[str] = set()

    def take(x: str, where: str) -> str:
        x = str(x)
        if x not in C:
            free = [i for i in D.designs.get(x, []) if i not in used]
            if not free:
                raise EngineError(f"setup {where}: unknown card or no free copy of '{x}'")
            x = free[0]
        if x in used:
            raise EngineError(f"setup {where}: card '{x}' is named twice")
        used.add(x)
        return x

    def per_seat(key: str, default: Any) -> list[Any]:
        v = list(table.get(key, []))
        if len(v) > players:
            raise EngineError(f"setup {key}: {len(v)} seats given for {players} players")
        return v + [default() if callable(default) else default for _ in range(players - len(v))]

    chars = per_seat("characters", "")
    for i in range(players):
        if not chars[i]:
            chars[i] = next(c for c in D.char_ids if c not in chars)
        if chars[i] not in D.chars:
            raise EngineError(f"setup characters: unknown character {chars[i]!r}")
        s._set_char(i, chars[i])
        s.infl[i] = START_INFLUENCE
    s.box = sorted(c for c in D.char_ids if c not in chars)
    for i, v in enumerate(table.get("positions", [])):
        if v:
            s.pos[i] = str(v)
    for key, nums in (("life", s.life), ("level", s.level), ("influence", s.infl)):
        for i, v in enumerate(table.get(key, [])):
            if v != "" and v is not None:
                nums[i] = int(v)
    for p in s.pos:
        if p not in D.spaces:
            raise EngineError(f"setup positions: unknown space {p!r}")
    for i, v in enumerate(table.get("attributes", [])):
        if v:
            s.attr[i] = [int(x) for x in v]
    zones: tuple[tuple[str, list[list[str]]], ...] = (
        ("hands", s.hand), ("assets", s.assets), ("trophies", s.troph), ("corruption", s.cdown),
        ("corruption_up", s.cup), ("completed", s.done))
    for key, lists in zones:
        for i, xs in enumerate(per_seat(key, list)):
            for x in xs:
                lists[i].append(take(x, key))
    for i in range(players):
        for a in s.assets[i]:
            if C[a].charges:
                s.charges[a] = C[a].charges
    for x, n in dict(table.get("charges", {})).items():
        found = next((a for i in range(players) for a in s.assets[i] if a == x or C[a].design == x), None)
        if found is None:
            raise EngineError(f"setup charges: {x!r} is nobody's asset")
        s.charges[found] = int(n)
    for sp, xs in dict(table.get("threats", {})).items():
        if sp not in D.spaces:
            raise EngineError(f"setup threats: unknown space {sp!r}")
        s.board[sp] = [take(x, "threats") for x in xs]
    tops: dict[str, list[str]] = {}
    for d, xs in dict(table.get("decks", {})).items():
        if d not in DECKS:
            raise EngineError(f"setup decks: unknown deck {d!r} (decks: {', '.join(DECKS)})")
        tops[d] = [take(x, f"decks.{d}") for x in xs]
    missions = table.get("missions")
    if missions is not None:
        for i, m in enumerate(missions):
            if m:
                s.mission[i] = take(m, "missions")
    for d in DECKS:
        rest = sorted(x for x in D.by_deck[d] if x not in used)
        s.rng.shuffle(rest)
        s.deck[d] = rest + list(reversed(tops.get(d, [])))
    for i in range(players):
        if missions is None or i >= len(missions):
            x = s._pop_deck("mission")
            if x:
                s.mission[i] = x
        if s.mission[i]:
            obj = C[s.mission[i]].objective
            if obj is not None and obj.word == "objective_tokens":
                s.tokens[i] = [str(x) for x in obj["spaces"]]
    for i, t in enumerate(table.get("tokens", [])):
        s.tokens[i] = [str(x) for x in t]
    for i, v in enumerate(table.get("scenario_tokens", [])):
        s.stok[i] = int(v)
    for i, v in enumerate(table.get("skips", [])):
        s.skip[i] = int(v)
    s.check_zones()
    s.tp = int(table.get("turn", 0))
    s.turn_no = int(table.get("turn_number", 1))
    phase = str(table.get("phase", "turn"))
    stages = {"turn": 0, "movement": 1, "exploration": 2, "engagement": 3, "experience": 6}
    if phase not in stages:
        raise EngineError(f"setup phase: {phase!r} is not turn, movement, exploration, engagement or experience")
    s.phase = "start" if phase == "turn" else phase
    s.say(f"Turn {s.turn_no}: {s.P(s.tp)} ({D.chars[s.char[s.tp]].name}), {phase}")
    s.stack = [{"k": "turn", "seat": s.tp, "st": stages[phase]}]
    s.dice.script.extend(int(v) for v in table.get("dice", []))
    s._advance()
    return s


def _automaton() -> Any:
    from ..agents.relic import RelicAutomaton

    return RelicAutomaton()


def _name(x: str) -> str:
    D = data()
    if x in D.cards:
        return f"{x} {D.cards[x].name}"
    if x in D.spaces:
        return D.spaces[x].name
    if x in D.chars:
        return D.chars[x].name
    return x


def view(obs: Mapping[str, Any]) -> list[str]:
    """The terminal view of a seat's observation (rich markup): the scenario, every hero, the Threat cards on the
    board, what is being resolved, and the seat's own hidden cards."""
    D = data()
    me = int(obs["seat"])
    lines = [f"Scenario: [bold]{D.scens[obs['scenario']].name}[/bold]   phase: {obs['phase']} "
             f"(P{int(obs['active']) + 1}'s turn)"]
    if obs.get("dealt"):
        lines.append("Your character choices: " + "; ".join(_name(c) for c in obs["dealt"]))
    for s, t in enumerate(obs["table"]):
        if not t["character"]:
            continue
        who = "You" if s == me else f"P{s + 1}"
        a = t["attributes"]
        head = (f"[bold]{who}[/bold] ({t['colour']}) {_name(t['character'])} at {_name(t['space'])}: "
                f"Str {a[0]} Wil {a[1]} Cun {a[2]}, Life {t['life']}, level {t['level']}, "
                f"{t['influence']} influence, {t['hand']} Power card(s)")
        if t["eliminated"]:
            head = f"[bold]{who}[/bold]: eliminated"
        lines.append(head)
        extra = []
        if t["assets"]:
            extra.append("assets " + ", ".join(_name(x) + (f" [{obs['charges'][x]}]" if x in obs["charges"] else "")
                                               for x in t["assets"]))
        if t["trophies"]:
            extra.append(f"trophies {sum(D.cards[x].value for x in t['trophies'])} pts")
        if t["corruption_up"] or t["corruption_down"]:
            extra.append("corruption " + ", ".join([_name(x) for x in t["corruption_up"]] +
                                                   ([f"{t['corruption_down']} face down"] if t["corruption_down"]
                                                    else [])))
        if t["mission"]:
            extra.append(f"mission {_name(t['mission'])}" + (f" (tokens {', '.join(t['tokens'])})"
                                                               if t["tokens"] else ""))
        done = len(t["completed"]) + t["completed_hidden"]
        if done:
            extra.append(f"{done} completed mission(s)")
        if t["scenario_tokens"]:
            extra.append(f"{t['scenario_tokens']} token(s) on the scenario")
        if extra:
            lines.append("    " + "; ".join(extra))
    lines.extend(_near(obs))
    if obs["revealed"]:
        lines.append("Revealed: " + ", ".join(_name(x) for x in obs["revealed"]))
    b = obs.get("battle")
    for f in obs.get("stack", ()):
        if f.get("k") == "bat" and b:
            er = b["enemy_roll"]
            lines.append(f"[bold]Battle[/bold] against {f['fn']} ({ATTRS[f['fa']].capitalize()}): "
                         f"P{b['seat'] + 1} {b['score']} + roll against {b['enemy']} + " +
                         (f"{er} (rolled)" if er is not None else "roll"))
        elif f.get("k") == "tst":
            lines.append(f"[bold]Test[/bold] {ATTRS[f['a']].capitalize()} {f['t']}" +
                         (f"; you add {f['bonus']}" if f["bonus"] else ""))
        elif f.get("k") == "dice" and f.get("vals"):
            lines.append(f"Your roll: {'+'.join(map(str, f['vals']))}" +
                         (f", exploded {'+'.join(map(str, f['ex']))}" if f.get("ex") else ""))
    last = obs.get("last") or {}
    if "enemy" in last:
        res = {1: "won", -1: "lost", 0: "a tie"}.get(int(last.get("result", 0)), "")
        lines.append(f"Last battle: {last['player']} (die {last['roll']}) against {last['enemy']} "
                     f"(die {last['enemy_roll']}): {res}")
    elif "test" in last:
        lines.append(f"Last test: {last['test']} (die {last['roll']}) against {last['target']}: "
                     f"{'passed' if int(last.get('result', 0)) > 0 else 'failed'}")
    lines.append("Your Power cards: " + ("; ".join(_name(x) for x in obs["hand"]) or "(none)"))
    if obs["my_corruption_down"]:
        lines.append("Your face-down Corruption: " + ", ".join(_name(x) for x in obs["my_corruption_down"]))
    return lines


NEAR = 4  # spaces shown either way along your tier


def _near(obs: Mapping[str, Any]) -> list[str]:
    """The board around the seat: the spaces up to NEAR away either way on its tier, with the Threat cards and the
    players on them; then the Threat cards anywhere else."""
    D = data()
    me = int(obs["seat"])
    board: Mapping[str, list[str]] = obs["board"]
    who: dict[str, list[str]] = {}
    for s, t in enumerate(obs["table"]):
        if t["character"] and not t["eliminated"] and t["space"]:
            who.setdefault(t["space"], []).append("you" if s == me else f"P{s + 1}")
    here = obs["table"][me]["space"] if obs["table"][me]["character"] else ""
    shown: set[str] = set()
    lines: list[str] = []

    def row(tag: str, sp: str) -> str:
        shown.add(sp)
        text = f"{tag:>5} {sp:<4}{D.spaces[sp].name}"
        if who.get(sp):
            text += " (" + ", ".join(who[sp]) + ")"
        if board.get(sp):
            text += ": " + ", ".join(_name(x) for x in board[sp])
        return text

    if here in D.ring_index:
        ring = D.rings[D.spaces[here].tier]
        i = D.ring_index[here]
        lines.append(f"Near you on the {D.spaces[here].tier.capitalize()} tier (clockwise +, anticlockwise -):")
        for k in range(-NEAR, NEAR + 1):
            sp = ring[(i + k) % len(ring)]
            if sp not in shown:
                lines.append(row("here" if k == 0 else f"{k:+d}", sp))
    elif here:
        # the Inner tier from the Warp Rift along its arrow to the scenario space, with what each space does
        sp_id = D.rift
        lines.append("The Inner tier, along the arrow:")
        while sp_id in D.spaces and sp_id not in shown:
            space = D.spaces[sp_id]
            text = row("here" if sp_id == here else "", sp_id)
            if space.tier == "centre":
                conf = D.scens[str(obs["scenario"])].conf
                text += f", {D.scens[str(obs['scenario'])].name}: {D.words(D.L.lists[conf], str(obs['scenario']))}"
            elif space.boxes:
                text += ": " + " / ".join(D.box_text(sp_id, i) for i in range(1, len(space.boxes) + 1))
            lines.append(text)
            sp_id = space.next
    rest = [sp for sp in board if board[sp] and sp not in shown]
    if rest:
        lines.append("Threat cards elsewhere: " + "; ".join(
            f"{D.spaces[sp].name} ({sp}): " + ", ".join(_name(x) for x in board[sp]) for sp in rest))
    return lines


def evaluate(state: State) -> list[float]:
    """A quick estimate of the returns of an unfinished game, for truncated search playouts: each seat's progress
    (relics, the Inner tier, completed missions, levels, attributes) against the best rival."""
    assert isinstance(state, RelicState)
    score = [state.progress(s) for s in range(state.players)]
    out = []
    for s in range(state.players):
        best = max(score[t] for t in range(state.players) if t != s)
        d = (score[s] - best) / 8.0
        out.append(d / (1.0 + abs(d)))
    return out


SPEC = GameSpec(
    id="relic", name="Relic", min_players=2, max_players=4, new_state=new_state, from_json=RelicState.from_json,
    automaton=_automaton, setup=setup, variants=tuple(data().scen_ids), doc=__doc__ or "",
    extra={"view": view, "evaluate": evaluate, "rollout_depth": 120, "mcts_iterations": 50},
)

__all__ = ["HANDLED_WORDS", "SPEC", "Card", "RelicState", "cards", "data", "new_state", "setup", "words_used"]
