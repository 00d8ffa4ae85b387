"""Relic's words for people: numbers with their nouns, one-line texts of cards, spaces, missions and characters, the
full printed text of each (``look``), enemies' values and bonuses, and the causes the log gives ("lost the battle
against Ork Boyz, 7 to 9"). Plain text: the view and ``look`` escape it into rich markup."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from wizprint.cards.markup import plural

from .data import ATTRS, COLOURS, DECK_WORDS, Passives, RelicData, still_needed

if TYPE_CHECKING:
    from .pending import Battle, SkillTest
    from .state import RelicState


def attr(i: int) -> str:
    return ATTRS[i].capitalize()


def dice_words(vals: list[int]) -> str:
    """``4``, ``2 and 6``, ``1, 3 and 5``."""
    shown = [str(v) for v in vals]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


TIMING = {"any": "any time", "battle": "in a battle (Prepare for Battle)", "test": "before a skill test roll",
          "movement": "after your movement roll", "engagement": "in the Engagement phase",
          "exploration": "in the Engagement phase", "experience": "in the Experience phase"}


# -- cards -------------------------------------------------------------------------------------------------------
def kind_of(D: RelicData, x: str) -> str:
    """What a card is: ``Power card``, ``red Threat card: enemy (Ork)``, ``Wargear: weapon``..."""
    c = D.cards[x]
    if c.deck in COLOURS:
        return f"{c.deck} Threat card: {c.category}" + (f" ({c.trait})" if c.trait else "")
    if c.deck == "wargear":
        return f"Wargear: {c.gear}" if c.gear else "Wargear"
    return DECK_WORDS.get(c.deck, c.deck)


def stats(D: RelicData, x: str) -> str:
    """A card's printed numbers in a few words (an enemy's attribute and value, a Power card's number...)."""
    c = D.cards[x]
    out: list[str] = []
    if c.category == "enemy" and c.attribute >= 0:
        out.append(f"{attr(c.attribute)} {c.value}")
    if c.deck == "power":
        out.append(f"number {c.number}, {TIMING.get(c.timing, c.timing)}")
    if c.deck == "corruption":
        out.append(f"activation {c.activation}")
    if c.deck == "wargear":
        out.append(f"cost {c.cost}")
    if c.charges:
        out.append(plural(c.charges, "charge"))
    if c.omen:
        out.append("omen")
    return "; ".join(out)


def rules(D: RelicData, x: str) -> str:
    """A card's rules text in words (a Mission's objective and reward)."""
    c = D.cards[x]
    text = D.card_text(c.design)
    if c.deck == "mission" and c.reward:
        text += " Reward: " + D.text(D.effects(c.reward), c.design)
    return text


def card_sheet(D: RelicData, x: str, scenario: str = "") -> list[str]:
    """A card's whole printed face, line by line: title, kind and numbers, rules text, flavour."""
    c = D.cards[x]
    rec = D.records[c.design]
    out = [f"{c.design} {c.name}", kind_of(D, x) + (f"; {stats(D, x)}" if stats(D, x) else "")]
    if c.icons != (0, 0, 0):
        out.append("Threat icons: " + icons(c.icons) + " (one more card of that colour is drawn here)")
    text = D.card_text(c.design)
    if text:
        out.append(text)
    if c.deck == "mission" and c.reward:
        out.append("Reward: " + D.text(D.effects(c.reward), c.design))
    if c.category == "enemy":
        extra = enemy_extras(D, x, scenario)
        if extra:
            out.append("In this game: " + "; ".join(extra))
    if rec.get("flavor"):
        out.append(f"“{rec['flavor']}”")
    return out


def icons(ic: tuple[int, int, int]) -> str:
    return ", ".join(f"{n} {COLOURS[i]}" for i, n in enumerate(ic) if n) or "none"


def enemy_extras(D: RelicData, x: str, scenario: str) -> list[str]:
    """What adds to an enemy's battle score besides its value: its own bonuses and the scenario's."""
    c = D.cards[x]
    out = []
    per = {"": " to its score", "power": " per Power card you hold", "asset": " per asset you have",
           "corruption": " per Corruption card you have", "trophy": " per trophy you have",
           "omen": " per omen icon on your space"}
    for n, what in c.enemy_bonus:
        out.append(f"{signed(n)}{per.get(what, '')}")
    if c.enemy_dice:
        out.append(f"rolls {plural(1 + c.enemy_dice, 'die', 'dice')}")
    if scenario:
        for trait, colour, n in D.scenarios[scenario].passives.scenario_enemy:
            if (trait and c.trait == trait) or (colour and c.deck == colour):
                out.append(f"{signed(n)} from the scenario {D.scenarios[scenario].name}")
    return out


def enemy_line(D: RelicData, x: str, scenario: str) -> str:
    """An enemy in a few words: ``TR14 Warboss Gutrippa (Strength 8, Ork; +1 per asset you have)``."""
    c = D.cards[x]
    if c.category != "enemy":
        return f"{x} {c.name} ({c.category})"
    bits = [f"{attr(c.attribute)} {c.value}" + (f", {c.trait}" if c.trait else ""), *enemy_extras(D, x, scenario)]
    return f"{x} {c.name} ({'; '.join(bits)})"


def threat_brief(D: RelicData, x: str) -> str:
    """A Threat card in a few words: ``TR08#1 Ork Nob (Strength 4)``, ``TB26 Grateful Refugees (event)``."""
    c = D.cards[x]
    if c.category == "enemy" and c.attribute >= 0:
        return f"{x} {c.name} ({attr(c.attribute)} {c.value})"
    return f"{x} {c.name} ({c.category})"


# -- spaces ------------------------------------------------------------------------------------------------------
def tier_name(tier: str) -> str:
    return {"centre": "the scenario space", "inner": "the Inner tier"}.get(tier, f"the {tier.capitalize()} tier")


def box_texts(D: RelicData, sp: str) -> list[str]:
    """A space's text boxes in words, one per box."""
    return [D.box_text(sp, i) for i in range(1, len(D.spaces[sp].boxes) + 1)]


def boxes_line(D: RelicData, sp: str) -> str:
    """A space's text boxes on one line: ``Choose one: 1. … 2. …`` (or the only box)."""
    space = D.spaces[sp]
    texts = box_texts(D, sp)
    if not texts:
        return "no text box"
    if len(texts) == 1:
        return texts[0]
    joined = " ".join(f"{i}. {t}" for i, t in enumerate(texts, 1))
    return ("Choose one: " if space.choose_one else "") + joined


def to_draw(D: RelicData, sp: str, cards: Sequence[str]) -> str:
    """The Threat cards the Exploration phase draws at least onto space ``sp`` holding ``cards`` (a card drawn may
    bring more icons): ``1 red and 1 yellow Threat card to draw``, or ""."""
    space = D.spaces[sp]
    if space.tier not in ("outer", "middle"):
        return ""
    n0, n1, n2 = space.icons
    for x in cards:
        n0, n1, n2 = still_needed(D.cards[x], n0, n1, n2)
    want = [(k, COLOURS[i]) for i, k in enumerate((n0, n1, n2)) if k > 0]
    if not want:
        return ""
    total = sum(k for k, _ in want)
    return f"{' and '.join(f'{k} {c}' for k, c in want)} Threat card{'s' if total > 1 else ''} to draw"


def movement_box(D: RelicData, sp: str) -> str:
    """A space's movement box in words, or ""."""
    space = D.spaces[sp]
    if space.inner:
        return (f"Movement box: with a relic you may enter the Inner tier here, on {space.inner} "
                f"{D.spaces[space.inner].name}")
    if space.jump:
        return (f"Movement box: when you enter it with a movement point left, you may spend one to jump to "
                f"{space.jump} {D.spaces[space.jump].name}")
    if space.move_bonus:
        return f"Movement box: {signed(space.move_bonus)} movement points"
    return ""


def space_sheet(D: RelicData, sp: str, scenario: str = "") -> list[str]:
    """A space's whole printed text, line by line."""
    space = D.spaces[sp]
    where = tier_name(space.tier) + (f", {space.area}" if space.area else "")
    if space.tier in ("outer", "middle"):
        where += f", space {space.position + 1} of {len(D.rings[space.tier])} clockwise"
    out = [f"{sp} {space.name}", f"On {where}."]
    if space.icons != (0, 0, 0):
        out.append(f"Threat icons: {icons(space.icons)}.")
    mb = movement_box(D, sp)
    if mb:
        out.append(mb + ".")
    if space.tier == "centre" and scenario:
        sc = D.scenarios[scenario]
        out.append(f"Confrontation ({sc.name}): {D.text(D.effects(sc.confrontation), scenario)}")
    texts = box_texts(D, sp)
    if space.choose_one and len(texts) > 1:
        out.append("Choose one or end the Engagement phase:")
    for i, t in enumerate(texts, 1):
        out.append(f"Text box {i}: {t}" if len(texts) > 1 else f"Text box: {t}")
    if space.next:
        out.append(f"The arrow leads on to {space.next} {D.spaces[space.next].name}.")
    return out


# -- characters and scenarios ------------------------------------------------------------------------------------
def character_sheet(D: RelicData, ch: str) -> list[str]:
    c = D.characters[ch]
    rec = D.records[ch]
    a = c.attributes
    out = [f"{ch} {c.name}" + (f" ({rec['affiliation']})" if rec.get("affiliation") else ""),
           f"Strength {a[0]}, Willpower {a[1]}, Cunning {a[2]}, Life {c.life}; starts on {c.start} "
           f"{D.spaces[c.start].name}; asset limit {c.asset_limit}; power limit " +
           ", ".join(f"{lim} at levels {lo}-{hi}" for lo, hi, lim in c.power_limits)]
    text = D.text(rec.effects, ch)
    if text:
        out.append("Abilities: " + text)
    out.append("Level rewards:")
    out.extend(f"  level {lv}: {D.reward_text(ch, lv)}" for lv in range(1, len(c.rewards) + 1))
    return out


def scenario_sheet(D: RelicData, sc: str) -> list[str]:
    s = D.scenarios[sc]
    rec = D.records[sc]
    out = [f"{sc} {s.name}"]
    text = D.text(rec.effects, sc)
    if text:
        out.append("Rules: " + text)
    out.append("Confrontation: " + D.text(D.effects(s.confrontation), sc))
    if rec.get("story"):
        out.append(str(rec["story"]))
    return out


def battle_cause(f: Battle, won: bool, mine: int, theirs: int) -> str:
    return f"{'won' if won else 'lost'} the battle against {f.foe_name}, {mine} to {theirs}"


def test_where(D: RelicData, f: SkillTest) -> str:
    """Where a test comes from: `` at Underhive Sump-Market``, `` for the mission …``, `` of Pit Fight``."""
    if f.mission:
        return f" for the mission {D.cards[f.mission].name}"
    if f.source in D.spaces:
        return f" at {D.spaces[f.source].name}"
    if f.source in D.cards:
        return f" of {D.cards[f.source].name}"
    if f.source in D.scenarios:
        return " of the confrontation"
    return ""


def test_name(D: RelicData, f: SkillTest) -> str:
    """``the Willpower 8 test at Underhive Sump-Market``."""
    return f"the {attr(f.attribute)} {f.target} test{test_where(D, f)}"


def test_cause(D: RelicData, f: SkillTest, ok: bool) -> str:
    """``failed the Willpower 8 test at Underhive Sump-Market``."""
    return f"{'passed' if ok else 'failed'} {test_name(D, f)}"


def with_cause(text: str, why: str) -> str:
    return f"{text}: {why}" if why else text



# -- scores in parts, for the log ---------------------------------------------------------------------------------
def named_sources(s: RelicState, seat: int) -> list[tuple[str, Passives]]:
    """The seat's sources of passive words outside a battle's weapon and armour, by name (the character sheet,
    assets other than a weapon or armour, face-up Corruption cards; the order of ``RelicData.kit``)."""
    D = s.data
    C = D.cards
    ch = s.characters[seat]
    out = [(D.characters[ch].name, D.characters[ch].passives)] if ch else []
    out += [(C[a].name, C[a].passives) for a in s.assets[seat] if C[a].gear not in ("weapon", "armour")]
    out += [(C[x].name, C[x].passives) for x in s.corruption_face_up[seat]]
    return out


def player_parts(s: RelicState, f: Battle) -> list[tuple[int, str]]:
    """The player's battle score without the roll, in parts: the attribute, each bonus by its source, what was added
    this battle (``RelicState.battle_bonus`` is their sum)."""
    seat, C = f.seat, s.data.cards
    form, traits = ATTRS[f.attribute], s.traits(f)
    out = [(s.attributes[seat][f.attribute], attr(f.attribute))]
    for name, p in named_sources(s, seat):
        n = s.bonus_of(p, form, traits)
        if n:
            out.append((n, name))
    for g in (f.weapon, f.armour):
        if g and g in s.assets[seat]:
            n = s.bonus_of(C[g].passives, form, traits)
            if n:
                out.append((n, C[g].name))
    if f.bonus:
        out.append((f.bonus, "added this battle"))
    return out


_PER = {"power": ("Power card", "Power cards"), "asset": ("asset", "assets"),
        "corruption": ("Corruption card", "Corruption cards"), "trophy": ("trophy", "trophies"),
        "omen": ("omen icon", "omen icons")}


def enemy_parts(s: RelicState, f: Battle) -> list[tuple[int, str]]:
    """The enemies' battle score without their roll, in parts: each enemy's value, its bonuses and the scenario's
    (``RelicState.enemy_bonus`` is their sum)."""
    if not f.foes:
        return [(f.value, f.foe_name)]
    seat, D = f.seat, s.data
    C = D.cards
    sc = D.scenarios[s.scenario]
    count = {"power": len(s.hands[seat]), "asset": len(s.assets[seat]), "corruption": s.corruption(seat),
             "trophy": len(s.trophies[seat]), "omen": sum(1 for y in s.threats_here(seat) if C[y].omen)}
    out: list[tuple[int, str]] = []
    for x in f.foes:
        c = C[x]
        out.append((c.value, c.name))
        for n, what in c.enemy_bonus:
            if not what:
                out.append((n, f"{c.name}{chr(39) if c.name.endswith('s') else chr(39) + 's'} bonus"))
            elif count[what]:
                one, many = _PER[what]
                out.append((n * count[what], f"for {plural(count[what], one, many)}"))
        for trait, colour, n in sc.passives.scenario_enemy:
            if (trait and c.trait == trait) or (colour and c.deck == colour):
                out.append((n, sc.name))
    return out


def test_parts(s: RelicState, f: SkillTest) -> list[tuple[int, str]]:
    """The test score without the roll, in parts: the attribute, each skill bonus by its source, what was added."""
    seat, ai = f.seat, f.attribute
    out = [(s.attributes[seat][ai], attr(ai))]
    for name, p in named_sources(s, seat):
        n = sum([m for a, m in p.skill_bonus if a == ai])
        if n:
            out.append((n, name))
    if f.bonus:
        out.append((f.bonus, "added this test"))
    return out


def sum_words(parts: list[tuple[int, str]], roll: int | None = None) -> str:
    """``Willpower 5 + 1 Mars-Pattern Bolt Pistol − 1 Trembling Hands + 4 rolled`` (without a roll: the parts)."""
    (n0, first), rest = parts[0], parts[1:]
    out = [f"{first} {n0}"]
    out += [f"{'+' if n >= 0 else '−'} {abs(n)} {what}" for n, what in rest]
    if roll is not None:
        out.append(f"+ {roll} rolled")
    return " ".join(out)
