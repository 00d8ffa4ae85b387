"""Relic's card data as its engine reads it, compiled once from the loaded game folder (``cards/relic``): every
card, character sheet, scenario sheet and board space says what it does in the words of ``vocabulary.toml``.

Passive words (what a card, character or scenario *is*) are gathered into a :class:`Passives` record per source;
the other words are resolved by the handlers of ``effects.py``. Effect lists are numbered in load order
(:class:`EffectLists`), so pending work refers to a list by its number. Per-data caches (what an ability is for,
the automaton's board distances) live on the :class:`RelicData` object, never in module globals.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from wizprint.cards.markup import spoken
from wizprint.cards.model import Effect, Game, Record, effect_words
from wizprint.errors import EngineError
from wizprint.solo.kernel import RulesData, Termination

# -- rules constants (relic.txt) -------------------------------------------------------------------------------
ATTRS = ("strength", "willpower", "cunning")
AI = {a: i for i, a in enumerate(ATTRS)}
COLOURS = ("red", "blue", "yellow")
SEAT_COLOURS = ("grey", "brown", "green", "purple")
MAX_STAT = 12  # attributes and Life
MAX_LEVEL = 12
TEXT_CACHE = 4096  # printed effect lists kept in words (``RelicData.text``; cleared when full)
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

# passive words describe what a card, character or scenario *is*: they are read where they apply
PASSIVE = frozenset({
    "battle_bonus", "skill_bonus", "extra_die", "limit", "cannot", "may_evade", "move_dice", "ignore", "when",
    "charge", "use", "enemy_bonus", "enemy_dice", "on_defeat", "on_victory", "at_battle_start", "special", "stays",
    "objective_defeat", "objective_visit", "objective_tokens", "objective_trophies", "objective_influence",
    "objective_test", "objective_level", "scenario_enemy", "scenario_when"})
OBJECTIVES = frozenset(w for w in PASSIVE if w.startswith("objective_"))
# which windows a Power card's timing (or a charge's / use's moment) opens
TIMING_WINDOWS = {"movement": "move", "exploration": "eng", "engagement": "eng", "battle": "battle", "test": "test",
                  "experience": "exp", "any": "*"}
NESTED = ("then", "then_pass", "then_fail", "then_win", "then_lose")

T = TypeVar("T")


class RelicTermination(Termination):
    """How a game of Relic ends: a player wins the scenario, or is the last one standing, or the round limit (a
    project ruling) ends it on progress."""

    SCENARIO_WON = "a player wins the scenario"
    LAST_STANDING = "a player is the last player standing"
    ROUND_LIMIT = "round limit"


def needs(game: Game, players_min: int, players_max: int) -> list[str]:
    """Two character sheets are dealt to each seat for its secret choice, and a game is played on a scenario."""
    out = []
    chars, need = len(game.of_kind("character")), 2 * players_max
    if chars < need:
        out.append(f"{chars} character sheet{'s' if chars != 1 else ''}, and the set-up deals two to each of "
                   f"{players_max} players (at least {need})")
    if not game.of_kind("scenario"):
        out.append("no scenario sheet, and every game is played on one")
    return out


class EffectLists:
    """Every effect list of the database, numbered in load order (0 is the empty list), so pending work refers to
    them by number."""

    def __init__(self) -> None:
        self.lists: list[tuple[Effect, ...]] = [()]
        self.ids: dict[int, int] = {}

    def reg(self, effs: Sequence[Effect]) -> int:
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
                if key in NESTED:
                    self.reg(v)
                elif key == "options":
                    for o in v:
                        self.reg(o["then"])
                elif key == "results":
                    for r in v:
                        self.reg(r["then"])
        return i

    def of(self, effs: Sequence[Effect]) -> int:
        """The number of a list already registered (a nested ``then``)."""
        if not effs:
            return 0
        return self.ids[id(effs)]


@dataclass(frozen=True, slots=True)
class Passives:
    """The passive words of one card, character sheet or scenario."""

    battle_bonus: tuple[tuple[str, int, str], ...] = ()  # form, n, vs
    skill_bonus: tuple[tuple[int, int], ...] = ()  # attribute index, n
    extra_battle_dice: int = 0
    extra_test_dice: int = 0
    limits: tuple[tuple[str, int], ...] = ()
    cannot: frozenset[str] = frozenset()
    evade: tuple[tuple[str, int, int], ...] = ()  # may_evade: attribute ('' any), max value (0 any), per turn (0 any)
    movement_dice: int = 0
    ignore: tuple[tuple[str, str], ...] = ()  # category, colour ('' any)
    when: tuple[tuple[str, str, int], ...] = ()  # event, vs, effects
    charge: tuple[tuple[str, int], ...] = ()  # moment, effects
    use: tuple[tuple[str, int], ...] = ()  # moment, effects
    scenario_enemy: tuple[tuple[str, str, int], ...] = ()  # trait, colour, n
    scenario_when: tuple[tuple[str, int], ...] = ()  # event, effects


def passives(effs: Iterable[Effect], lists: EffectLists) -> Passives:
    bb: list[tuple[str, int, str]] = []
    sb: list[tuple[int, int]] = []
    xb = xt = mdice = 0
    lim: list[tuple[str, int]] = []
    cannot: set[str] = set()
    ev: list[tuple[str, int, int]] = []
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
            ev.append((str(e.get("attribute", "")).lower(), int(e.get("max_value", 0)), int(e.get("per_turn", 0))))
        elif w == "move_dice":
            mdice = max(mdice, int(e["n"]))
        elif w == "ignore":
            ign.append((str(e["what"]), str(e.get("colour", ""))))
        elif w == "when":
            when.append((str(e["event"]), str(e.get("vs", "")), lists.reg(e["then"])))
        elif w == "charge":
            charge.append((str(e["moment"]), lists.reg(e["then"])))
        elif w == "use":
            use.append((str(e["moment"]), lists.reg(e["then"])))
        elif w == "scenario_enemy":
            senemy.append((str(e.get("trait", "")), str(e.get("colour", "")), int(e["n"])))
        elif w == "scenario_when":
            swhen.append((str(e["event"]), lists.reg(e["then"])))
    return Passives(tuple(bb), tuple(sb), xb, xt, tuple(lim), frozenset(cannot), tuple(ev), mdice, tuple(ign),
                    tuple(when), tuple(charge), tuple(use), tuple(senemy), tuple(swhen))


@dataclass(frozen=True, slots=True)
class Card:
    """What the engine needs of one card instance."""

    id: str  # the instance (``TR01#3`` for copies)
    design: str
    name: str
    deck: str  # power, corruption, mission, relic, wargear, red, blue, yellow
    category: str  # a Threat card's category; '' otherwise
    trait: str
    attribute: int  # an enemy's attribute index, -1 if none
    value: int
    icons: tuple[int, int, int]
    omen: bool
    charges: int
    number: int
    timing: str
    activation: int
    cost: int
    gear: str
    passives: Passives
    effects: int  # the effects resolved when the card is resolved, activated or played for its ability
    enemy_bonus: tuple[tuple[int, str], ...]
    enemy_dice: int
    on_defeat: int
    on_victory: int
    at_battle_start: int
    special: tuple[tuple[str, int], ...]
    leaves: int  # stays: -1 not said, 0 stays, 1 is discarded
    objective: Effect | None  # a Mission's objective effect
    reward: int

    @property
    def is_asset(self) -> bool:
        return self.deck in ("wargear", "relic") or self.category == "asset"


@dataclass(frozen=True, slots=True)
class Character:
    id: str
    name: str
    attributes: tuple[int, int, int]
    life: int
    start: str
    asset_limit: int
    power_limits: tuple[tuple[int, int, int], ...]
    rewards: tuple[int, ...]  # effects of each level's rewards, levels 1-12
    passives: Passives


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    name: str
    confrontation: int
    passives: Passives


@dataclass(frozen=True, slots=True)
class Space:
    id: str
    name: str
    tier: str
    position: int
    area: str
    icons: tuple[int, int, int]
    choose_one: bool
    boxes: tuple[int, ...]
    jump: str  # a movement box's move_bonus jump
    move_bonus: int  # a movement box's move_bonus n
    inner: str  # a movement box's enter_inner target
    next: str


@dataclass(frozen=True, slots=True)
class Kit:
    """The passive words in force for one seat, gathered from its character sheet, assets and face-up Corruption
    cards (``RelicData.kit``): what the rules ask of them many times a turn, summed once per combination.

    ``sources`` are the passives outside a battle's weapon and armour (the character, assets other than a weapon or
    armour, face-up Corruption), in that order; ``when`` holds every triggered ability of the character, all assets
    and face-up Corruption (in that order) by event, as (vs, effects, source); ``evade`` the evading abilities of the
    sources as (source, attribute, max value, per turn)."""

    sources: tuple[Passives, ...]
    cannot: frozenset[str]
    limits: dict[str, int]
    skill: tuple[int, int, int]
    extra_battle_dice: int
    extra_test_dice: int
    movement_dice: int  # at least 1
    battle_bonus: tuple[tuple[str, int, str], ...]
    ignore: tuple[tuple[str, str], ...]
    evade: tuple[tuple[str, str, int, int], ...]
    when: dict[str, tuple[tuple[str, int, str], ...]]


def still_needed(c: Card, n0: int, n1: int, n2: int) -> tuple[int, int, int]:
    """What a space needs of each colour (red, blue, yellow) once Threat card ``c`` is on it: the card's icons
    added, a card of its own colour met (relic.txt, Exploration Phase)."""
    i0, i1, i2 = c.icons
    d = c.deck
    return (n0 + i0 - (d == "red"), n1 + i1 - (d == "blue"), n2 + i2 - (d != "red" and d != "blue"))


KIT_CACHE = 50_000  # combinations kept per data (cleared when full)


class RelicData(RulesData):
    """Relic's cards, characters, scenarios and board, compiled from the loaded game (shared by every state)."""

    def __init__(self, game: Game):
        super().__init__(game)
        lists = self.lists = EffectLists()
        self.cards: dict[str, Card] = {}
        for rec, n in game.iter_copies():
            iid = rec.id if rec.copies == 1 else f"{rec.id}#{n}"
            self.cards[iid] = self._card(iid, rec, lists)
        self.spaces: dict[str, Space] = {}
        for rec in game.of_kind("space"):
            self.spaces[rec.id] = self._space(rec, lists)
        # for printed text in words (the terminal only: rendered when asked, not at load)
        self.vocab = game.vocabulary
        self.records = {rec.id: rec for rec in game.records}
        self.rings: dict[str, list[str]] = {"outer": [], "middle": []}
        for t in ("outer", "middle"):
            sps = sorted((s for s in self.spaces.values() if s.tier == t), key=lambda s: s.position)
            self.rings[t] = [s.id for s in sps]
        self.ring_index = {sid: i for t in self.rings.values() for i, sid in enumerate(t)}
        # the next space of a ring space clockwise and anticlockwise
        self.ring_steps: dict[str, tuple[str, str]] = {
            sid: (ring[(i + 1) % len(ring)], ring[(i - 1) % len(ring)])
            for ring in self.rings.values() for i, sid in enumerate(ring)}
        cen = [s.id for s in self.spaces.values() if s.tier == "centre"]
        if len(cen) != 1:
            raise EngineError("relic: the board must have one scenario space (tier 'centre')")
        self.centre = cen[0]
        rift = sorted({s.inner for s in self.spaces.values() if s.inner})
        self.rift = rift[0] if rift else ""
        # the Guardian of the Rift: the spaces whose movement box leads into the Inner tier
        self.guardians = sorted(s.id for s in self.spaces.values() if s.inner)
        if VANQUISHED_SPACE not in self.spaces or self.spaces[VANQUISHED_SPACE].tier != "outer":
            raise EngineError(f"relic: the vanquished players' space {VANQUISHED_SPACE} is not an Outer space")
        self.characters: dict[str, Character] = {}
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
                effs: list[Effect] = []
                for icon in icons:
                    if icon == "special":
                        effs.extend(special)
                    else:
                        effs.append(reward_effect[icon])
                rewards.append(lists.reg(tuple(effs)))
            pls = tuple((int(p["from"]), int(p["to"]), int(p["limit"])) for p in rec["power_limits"])
            self.characters[rec.id] = Character(
                rec.id, rec.name, (int(rec["strength"]), int(rec["willpower"]), int(rec["cunning"])),
                int(rec["life"]), str(rec["start"]), int(rec["asset_limit"]), pls, tuple(rewards),
                passives(rec.effects, lists))
        self.scenarios: dict[str, Scenario] = {}
        for rec in game.of_kind("scenario"):
            self.scenarios[rec.id] = Scenario(rec.id, rec.name, lists.reg(rec["confrontation"]),
                                              passives(rec.effects, lists))
        self.character_ids = sorted(self.characters)
        self.scenario_ids = sorted(self.scenarios)
        self.by_deck: dict[str, list[str]] = {d: sorted(i for i, c in self.cards.items() if c.deck == d)
                                              for d in DECKS}
        # the share of the Threat decks' enemies (copies) with each trait: what a bonus against a trait is worth on
        # average to a player choosing an asset
        foes = [c.trait for c in self.cards.values() if c.category == "enemy"]
        self.trait_share: dict[str, float] = {t: foes.count(t) / len(foes) for t in sorted(set(foes)) if t}
        self._purposes: dict[int, str] = {}
        # what each card offers in each window (``plays.plays``): by (card, window, on the Outer or Middle tier)
        self.hand_offers: dict[tuple[str, str, bool], str] = {}
        self.asset_offers: dict[tuple[str, str, bool], tuple[bool, bool]] = {}
        # how many charge abilities of a card reroll a die in a roll's window (``dice.reroll_charges``)
        self.reroll_charges: dict[tuple[str, str], int] = {}
        self._caches: dict[str, object] = {}
        # the automaton's compiled effect values (``estimates.eff_value``), by the effect's id (with the effect)
        self.effect_values: dict[int, tuple[Effect, Any]] = {}
        # and of effect lists (``estimates.effs_value``), by the list's id (with the list)
        self.list_values: dict[int, tuple[Sequence[Effect], Any]] = {}
        # and the estimates that read only a seat's character, assets, attributes... (``RelicView.features``)
        self.feature_memos: dict[tuple[object, ...], dict[tuple[object, ...], Any]] = {}
        # the automaton's board distances by (goal, through the Warp Rift), and landing spaces by (start, direction,
        # points, with a relic) (``estimates.dist_to``, ``RelicAutomaton._landings``)
        self.distances: dict[tuple[str, bool], dict[str, float]] = {}
        self.box_values: dict[int, Any] = {}  # the automaton's compiled effect lists by number (``box_value``)
        # the automaton's nearest candidate by (candidates, space), and candidate spaces by what an objective names
        self.nearest: dict[tuple[tuple[str, ...], str], str] = {}
        self.space_lists: dict[tuple[object, ...], list[str]] = {}
        self.texts: dict[tuple[int, str], tuple[Sequence[Any], str]] = {}  # printed lists in words (``text``)
        self.causes: dict[tuple[str, str], str] = {}  # the cause the log gives, by (source, event) (``cause``)
        self.landings: dict[tuple[str, int, int, bool], set[str]] = {}
        self.kits: dict[tuple[str, tuple[str, ...], tuple[str, ...]], Kit] = {}  # by (character, assets, face up)
        # the enemies' traits by the enemies of a battle (``RelicState.traits``: asked several times a battle)
        self.foe_traits: dict[tuple[str, ...], tuple[str, ...]] = {}
        # the events that trigger an ability of some card or character sheet (any other event triggers only the
        # scenario's, if any: no seat's abilities need gathering)
        self.when_events = frozenset(ev for p in [*(c.passives for c in self.cards.values()),
                                                  *(ch.passives for ch in self.characters.values())]
                                     for ev, _, _ in p.when)
        # the scenarios' triggered abilities by event (``scenario_when``), in their printed order
        self.scenario_whens: dict[str, dict[str, tuple[int, ...]]] = {}
        for sid, sc in self.scenarios.items():
            by: dict[str, list[int]] = {}
            for ev, lid in sc.passives.scenario_when:
                by.setdefault(ev, []).append(lid)
            self.scenario_whens[sid] = {ev: tuple(v) for ev, v in by.items()}
        # by scenario, every event that triggers anything at all (``RelicState.whens`` asks before gathering: most
        # of the turn's events trigger nothing in most games)
        self.live_events: dict[str, frozenset[str]] = {
            sid: self.when_events | frozenset(by) for sid, by in self.scenario_whens.items()}

    @property
    def instances(self) -> dict[str, Card]:
        return self.cards

    @staticmethod
    def _card(iid: str, rec: Record, lists: EffectLists) -> Card:
        effs = tuple(rec.effects)
        act = tuple(e for e in effs if e.word not in PASSIVE)
        ebonus = tuple((int(e["n"]), str(e.get("per", ""))) for e in effs if e.word == "enemy_bonus")
        edice = sum(int(e["n"]) for e in effs if e.word == "enemy_dice")

        def one(word: str) -> int:
            for e in effs:
                if e.word == word:
                    return lists.reg(e["then"])
            return 0

        special = tuple((str(e["moment"]), lists.reg(e["then"])) for e in effs if e.word == "special")
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
                    int(rec.get("cost") or 0), str(rec.get("gear") or ""), passives(effs, lists), lists.reg(act),
                    ebonus, edice, one("on_defeat"), one("on_victory"), one("at_battle_start"), special, leave, obj,
                    lists.reg(rec.get("reward") or ()))

    @staticmethod
    def _space(rec: Record, lists: EffectLists) -> Space:
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
        boxes = tuple(lists.reg(tuple(b)) for b in rec.get("boxes") or ())
        return Space(rec.id, rec.name, str(rec["tier"]), int(rec["position"]), str(rec.get("area") or ""),
                     (int(icons.get("red", 0)), int(icons.get("blue", 0)), int(icons.get("yellow", 0))),
                     bool(rec.get("choose_one")), boxes, jump, mb, inner, str(rec.get("next") or ""))

    # -- queries --------------------------------------------------------------------------------------------------
    def effects(self, lid: int) -> tuple[Effect, ...]:
        """Effect list number ``lid``."""
        return self.lists.lists[lid]

    def purpose(self, lid: int) -> str:
        """What an ability is for: its first resolved word (through 'may' and 'pay'); cached per data."""
        got = self._purposes.get(lid)
        if got is None:
            effs = self.lists.lists[lid]
            if not effs:
                got = ""
            elif effs[0].word in ("may", "pay"):
                got = self.purpose(self.lists.of(effs[0]["then"]))
            else:
                got = str(effs[0].word)
            self._purposes[lid] = got
        return got

    def kit(self, character: str, assets: tuple[str, ...], corruption_up: tuple[str, ...]) -> Kit:
        """The passive words in force for a seat with this character, these assets and these face-up Corruption
        cards (:class:`Kit`); made once per combination and kept with the data."""
        key = (character, assets, corruption_up)
        got = self.kits.get(key)
        if got is None:
            if len(self.kits) >= KIT_CACHE:
                self.kits.clear()
            got = self.kits[key] = self._make_kit(character, assets, corruption_up)
        return got

    def _make_kit(self, character: str, assets: tuple[str, ...], corruption_up: tuple[str, ...]) -> Kit:
        C = self.cards
        named: list[tuple[str, Passives]] = [(character, self.characters[character].passives)] if character else []
        named += [(a, C[a].passives) for a in assets if C[a].gear not in ("weapon", "armour")]
        named += [(x, C[x].passives) for x in corruption_up]
        srcs = tuple(p for _, p in named)
        limits: dict[str, int] = {}
        for p in srcs:
            for w, n in p.limits:
                limits[w] = limits.get(w, 0) + n
        skill = [0, 0, 0]
        for p in srcs:
            for ai, n in p.skill_bonus:
                skill[ai] += n
        triggered: list[tuple[Passives, str]] = [(self.characters[character].passives, character)] if character \
            else []
        triggered += [(C[a].passives, a) for a in assets]
        triggered += [(C[x].passives, x) for x in corruption_up]
        when: dict[str, list[tuple[str, int, str]]] = {}
        for p, src in triggered:
            for ev, vs, lid in p.when:
                when.setdefault(ev, []).append((vs, lid, src))
        return Kit(sources=srcs, cannot=frozenset(w for p in srcs for w in p.cannot), limits=limits,
                   skill=(skill[0], skill[1], skill[2]), extra_battle_dice=sum(p.extra_battle_dice for p in srcs),
                   extra_test_dice=sum(p.extra_test_dice for p in srcs),
                   movement_dice=max([1] + [p.movement_dice for p in srcs]),
                   battle_bonus=tuple(b for p in srcs for b in p.battle_bonus),
                   ignore=tuple(i for p in srcs for i in p.ignore),
                   evade=tuple((src, a, mv, per) for src, p in named for a, mv, per in p.evade),
                   when={ev: tuple(v) for ev, v in when.items()})

    def cached(self, key: str, make: Callable[[], T]) -> T:
        """A value derived from the data once (the automaton's board distances...), kept with the data."""
        got = self._caches.get(key)
        if got is None:
            got = self._caches[key] = make()
        return got  # type: ignore[return-value]

    def words_used(self) -> set[str]:
        """Every effect word the database uses: cards, characters, scenarios and board spaces (nested ones too)."""
        out: set[str] = set()
        for rec in self.game.records:
            out |= effect_words(rec.effects)
            for key in ("reward", "special", "confrontation", "movement_box"):
                v = rec.get(key)
                if v:
                    out |= effect_words(v)
            for b in rec.get("boxes") or ():
                out |= effect_words(b)
        return out

    def name_of(self, x: str) -> str:
        """A card as ``id name``, a space, character or scenario by its name; anything else as given."""
        c = self.cards.get(x)
        if c is not None:
            return f"{x} {c.name}"
        if x in self.spaces:
            return self.spaces[x].name
        if x in self.characters:
            return self.characters[x].name
        return x

    # -- printed text in words (the terminal) ---------------------------------------------------------------------
    def text(self, effects: Sequence[Any], owner: str = "") -> str:
        """Effects as their printed text in words, on one line (``owner``: the record they are printed on); kept
        by the list (with the list, so its id is not reused) and the owner: the terminal and the questions read the
        same printed lists again and again."""
        key = (id(effects), owner)
        got = self.texts.get(key)
        if got is None or got[0] is not effects:
            if len(self.texts) >= TEXT_CACHE:
                self.texts.clear()
            got = self.texts[key] = (effects, spoken(self.vocab.render(effects, self.records.get(owner))))
        return got[1]

    def card_text(self, design: str) -> str:
        return self.text(self.records[design].effects, design)

    def box_text(self, space: str, box: int) -> str:
        return self.text(self.lists.lists[self.spaces[space].boxes[box - 1]], space)

    def reward_text(self, char: str, level: int) -> str:
        """A level's rewards in words; a level past the track gives a completed mission."""
        rewards = self.characters[char].rewards
        return self.text(self.lists.lists[rewards[level - 1]], char) if level <= len(rewards) else \
            "a completed mission"


DECK_WORDS = {"power": "Power card", "corruption": "Corruption card", "mission": "Mission", "relic": "Relic",
              "wargear": "Wargear"}


# -- causes, for the log -----------------------------------------------------------------------------------------
EVENTS = {"turn_start": "at the start of the turn", "turn_end": "at the end of the turn",
          "movement_start": "at the start of the Movement phase", "exploration_end": "at the end of the Exploration "
          "phase", "engagement_start": "at the start of the Engagement phase", "engagement_end": "at the end of "
          "the Engagement phase", "battle_start": "at the start of the battle", "battle_win": "on winning a battle",
          "battle_lose": "on losing a battle", "test_pass": "on passing a test", "test_fail": "on failing a test",
          "level_up": "on gaining a level", "corruption": "on drawing a Corruption card",
          "vanquished": "on being vanquished", "mission": "on completing a mission", "enter_inner": "on entering "
          "the Inner tier"}


def cause(D: RelicData, src: str, event: str = "") -> str:
    """Why an effect happens, from what it is printed on (``played Emperor's Grace``, ``the text box of Hab-Stack
    Tertius``) and, for a triggered ability, when (worked out once per source and event, kept with the data)."""
    key = (src, event)
    got = D.causes.get(key)
    if got is None:
        got = D.causes[key] = _cause(D, src, event)
    return got


def _cause(D: RelicData, src: str, event: str) -> str:
    c = D.cards.get(src)
    if c is not None:
        if c.deck == "power":
            what = f"played {c.name}"
        elif c.deck == "corruption":
            what = f"the Corruption card {c.name}"
        elif c.deck == "mission":
            what = f"the reward of the mission {c.name}"
        elif c.deck in ("relic", "wargear"):
            what = f"the {DECK_WORDS[c.deck]} {c.name}"
        else:
            what = f"the {c.category} {c.name}"
    elif src in D.spaces:
        what = f"the text box of {D.spaces[src].name}"
    elif src in D.characters:
        what = f"the {D.characters[src].name}'s ability"
    elif src in D.scenarios:
        what = f"the scenario {D.scenarios[src].name}"
    else:
        what = ""
    when = EVENTS.get(event, "")
    return f"{what}, {when}" if what and when else what or when
