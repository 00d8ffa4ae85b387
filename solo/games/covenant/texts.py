"""Covenant's words for people: numbers with their nouns, each card's printed text (whole, or cut to one line for an
option), and ``look``: a card (or an ability) found by id or name, with where it is as the seat may know it. Plain
text, except :func:`look`, which returns rich markup lines (every data text escaped)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.markup import escape

from wizprint.cards.markup import plural, spoken
from wizprint.cards.model import Effect

from .data import ABILITIES, CovenantData
from .observation import CovenantObservation

TYPE_NAMES = {"wizard": "Wizard", "spell": "Spell", "follower": "Follower", "quest": "Quest", "event": "Event",
              "item": "Item", "duel": "Duel card", "resource": "Resource"}
# what a targeted effect does to its target, for a choice or a card cast on it
DOES = {"steal": "take", "destroy": "destroy", "slay": "slay", "reanimate": "take back", "look_hand": "see",
        "skip_turn": "skip", "search": "take"}




def cards(n: int) -> str:
    return plural(n, "card")






def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def listed(xs: Iterable[str], conj: str = "and") -> str:
    """``A``, ``A and B``, ``A, B and C`` (``conj``: ``or``)."""
    xs = list(xs)
    if len(xs) < 2:
        return "".join(xs)
    return f"{', '.join(xs[:-1])} {conj} {xs[-1]}"


def cap(text: str) -> str:
    """The first letter upper case (the rest as it is: ``your W10 Mentalist`` -> ``Your W10 Mentalist``)."""
    return text[:1].upper() + text[1:]


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# -- a card's text -----------------------------------------------------------------------------------------------
def printed(data: CovenantData, card: str) -> str:
    """A card's printed rules text as words on one line (``Both roll three dice``), or "" (a Resource worth only its
    VP); worked out once per design (kept with the data)."""
    design = data.cards[card].design
    got = data.texts.get(design)
    if got is None:
        got = data.texts[design] = spoken(data.game.text(data.records[design]))
    return got


def ability_text(data: CovenantData, ability: str) -> str:
    """What an ability does, as the cards print it (``Conjuror. Action: roll a die. On 4, 5 or 6, draw a card.``);
    worked out once per ability (kept with the data)."""
    key = f"ability {ability}"
    got = data.texts.get(key)
    if got is None:
        rec = data.records[next(iter(data.records))]
        got = data.texts[key] = spoken(data.game.vocabulary.render((Effect("ability", {"ability": ability}),), rec))
    return got


def rules(data: CovenantData, card: str) -> str:
    """A card's whole rules text in words, with its VP (but a wizard's: :func:`kind` gives it)."""
    info = data.cards[card]
    text = printed(data, card)
    if info.vp and info.type != "wizard":
        worth = f"Worth {info.vp} VP" + (" once completed." if info.type == "quest" else " while you control it.")
        text = f"{worth} {text}" if text else worth
    return text


# what each ability does, in a few words (the card's whole text is one ``look`` away)
ABILITY_GIST = {"conjuror": "action, 4+ on a die draws a card", "adventurer": "quest +2; an extra Wizard summon",
                "dueler": "duel +2", "scry": "action, see a hand or the deck's top 5; hand limit +1",
                "nature": "duel +1, quest +1; an extra Follower summon", "stealth": "action, a 6 takes a rival's Item",
                "maker": "action, a 6 finds an Item; an extra Item summon"}


def an(word: str) -> str:
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _kind(what: str) -> str:
    return TYPE_NAMES.get(what, what.capitalize())


def _does(data: CovenantData, word: str, e: Mapping[str, Any]) -> str:
    """One effect word in a few words (``take a rival's Item``)."""
    what = _kind(str(e.get("what", "")))
    n = int(e.get("n", 0) or 0)
    if word in ("on_enter", "on_complete"):
        inner = "; ".join(_does(data, x.word, x.params) for x in e["then"])
        return f"{'on entering' if word == 'on_enter' else 'reward'}: {inner}"
    if word == "quest_bonus_on":
        q = str(e["quest"])
        name = data.records[q].name if q in data.records else q
        return f"quest +{n} on {name}"
    if word == "roll_bonus":
        roll = str(e["roll"])
        return f"+{n} to a duel or quest roll" if roll == "either" else f"+{n} to a {roll} roll"
    if word == "negate":
        return f"cancel {an(listed([_kind(str(x)) for x in e['what']], 'or'))}"
    simple = {"grant": f"its wizard gains {str(e.get('ability', '')).capitalize()}",
              "grant_one": f"a wizard gains {str(e.get('ability', '')).capitalize()} each turn",
              "duel_bonus": f"duel {signed(n)}", "quest_bonus": f"quest {signed(n)}", "quest_level": f"Quest Level "
              f"{signed(n)}", "attach": "joins a wizard", "guard": "discard it to keep an Item from a thief",
              "extra_research": f"an extra Research card, kept if {an(_kind(str(e.get('unless', ''))))}",
              "draw": f"draw {plural(n, 'card')}", "search": f"find {an(what)} in the deck",
              "skip_turn": "a rival misses a turn", "destroy": f"destroy a rival's {what}",
              "steal": f"take a rival's {what}", "slay": f"slay a rival's {what}", "look_hand": "see a rival's hand",
              "look_deck": f"see the deck's top {n}", "reanimate": f"take back {an(what)} from the discard pile",
              "vortex": "everyone discards their hand", "prevent_slay": "save a Wizard or Follower from being slain",
              "reroll": "have a die roll rolled again", "danger": f"Danger +{n} on a rival's quest",
              "duel": "challenge a rival to a Wizards Duel"}
    return simple.get(word, word.replace("_", " "))


def gist(data: CovenantData, card: str) -> str:
    """What a card does in a few words, for an option or a list (``duel +1, quest +1``; ``7 VP; Quest Level +2``;
    ``Scry: action, see a hand or the deck's top 5; hand limit +1``); ``look`` gives its whole text. Worked out once
    per design (kept with the data)."""
    info = data.cards[card]
    key = f"gist {info.design}"
    got = data.texts.get(key)
    if got is not None:
        return got
    rec = data.records[info.design]
    parts: list[str] = []
    if info.type == "wizard":
        parts.extend(f"{a.capitalize()}: {ABILITY_GIST.get(a, a)}" for a in info.abilities)
    elif info.vp:
        parts.append(f"{info.vp} VP")
    does = [_does(data, e.word, e.params) for e in rec.effects if e.word != "ability"]
    if does:
        parts.append(", ".join(does))
    got = data.texts[key] = "; ".join(p for p in parts if p)
    return got


def offer(data: CovenantData, card: str) -> str:
    """A card offered as an option: ``Q01 Slay the Dragon (7 VP; Quest Level +2)``, ``S05 Prophecy (see the deck's
    top 7)``: its label and what it does in a few words."""
    g = gist(data, card)
    return f"{data.label(card)} ({g})" if g else data.label(card)


def kind(data: CovenantData, card: str) -> str:
    """``Wizard, Conjuror, 1 VP, "Born to magic"``, ``Quest``, ``Spell`` (other cards give their VP in their
    text: :func:`rules`)."""
    info = data.cards[card]
    rec = data.records[info.design]
    out = TYPE_NAMES.get(info.type, info.type.capitalize())
    if info.type == "wizard":
        out += f", {', '.join(a.capitalize() for a in info.abilities)}, {info.vp} VP"
    school = rec.get("school")
    if school:
        out += f', "{school}"'
    return out


# -- look ----------------------------------------------------------------------------------------------------------
def find(data: CovenantData, query: str) -> list[str]:
    """The card instances a query names: an id (``W10``, ``D01#2``, ``D01`` for every copy) or a part of a name
    (``dragon``: three letters at least; every copy of each card whose name holds it)."""
    q = query.strip()
    up = q.upper()
    if up in data.cards:
        return [up]
    copies = [c for c in data.cards if data.cards[c].design == up]
    if copies:
        return copies
    low = q.lower()
    if len(low) < 3:
        return []
    return sorted(c for c, info in data.cards.items() if low in info.name.lower())


def look(data: CovenantData, obs: CovenantObservation, query: str) -> list[str] | None:
    """A card's printed text and where it is, as the observing seat may know it (rich markup lines); an ability
    (``scry``) is its text and the wizards in play that have it. None when nothing is called that."""
    q = query.strip().lower()
    if q in ABILITIES:
        return _look_ability(data, obs, q)
    hits = find(data, query)
    if not hits:
        return None
    out: list[str] = []
    designs = sorted({data.cards[h].design for h in hits})
    if len(designs) > 3:
        out.append(f"{len(designs)} cards match: " + ", ".join(escape(data.label(h)) for h in hits[:12]) +
                   ("..." if len(hits) > 12 else "") + ". Look one up by its id.")
        hits = hits[:1]
        designs = designs[:1]
    elif len(designs) > 1:
        out.append(f"{len(designs)} cards match:")
    for d in designs[:3]:
        copies = [h for h in hits if data.cards[h].design == d]
        first = copies[0]
        title = first if len(copies) == 1 else d
        out.append(f"[bold]{escape(title)} {escape(data.cards[first].name)}[/bold] ({escape(kind(data, first))})")
        out.append(escape(rules(data, first) or "No rules text."))
        out.extend(escape(ln) for ln in where(data, obs, copies))
    return out


def _look_ability(data: CovenantData, obs: CovenantObservation, ability: str) -> list[str]:
    out = [f"[bold]{ability.capitalize()}[/bold] (a wizard's ability)", escape(ability_text(data, ability))]
    me = obs["seat"]
    have = []
    for s, t in enumerate(obs["table"]):
        for w, att in t["wizards"].items():
            if ability in abilities(data, w, att, obs.get("granted", {}).get(w, ())):
                have.append(f"your {data.label(w)}" if s == me else f"P{s + 1}'s {data.label(w)}")
    out.append(escape(f"In play with it: {listed(have)}." if have else "No wizard in play has it now."))
    return out


def abilities(data: CovenantData, wizard: str, attached: Iterable[str], granted: Iterable[str] = ()) -> list[str]:
    """A wizard's abilities now: its own, its items', and those a resource gave it this turn (in that order)."""
    c = data.cards
    out = list(c[wizard].abilities)
    for a in attached:
        out.extend(x for x in c[a].grants if x not in out)
    out.extend(x for x in granted if x not in out)
    return out


def duel_strength(data: CovenantData, wizard: str, attached: Iterable[str], granted: Iterable[str] = ()) -> int:
    """What is added to a wizard's duel roll (as ``CovenantState.duel_strength``, from what a seat sees)."""
    att = list(attached)
    ab = abilities(data, wizard, att, granted)
    return (2 if "dueler" in ab else 0) + (1 if "nature" in ab else 0) + sum(data.cards[a].duel_bonus for a in att)


def quest_strength(data: CovenantData, wizard: str, attached: Iterable[str], granted: Iterable[str] = ()) -> int:
    """What a wizard adds to a Quest Level besides the 1 every participant adds (abilities and items)."""
    att = list(attached)
    ab = abilities(data, wizard, att, granted)
    c = data.cards
    return (2 if "adventurer" in ab else 0) + (1 if "nature" in ab else 0) + sum(
        c[a].quest_bonus for a in att if c[a].type == "item")


def where(data: CovenantData, obs: CovenantObservation, copies: list[str]) -> list[str]:
    """Where each copy of a card is, as the seat may know it: one line for one copy; for several, one line per
    place."""
    places: dict[str, list[str]] = {}
    for c in copies:
        places.setdefault(place(data, obs, c), []).append(c)
    if len(copies) == 1:
        p = next(iter(places))
        return [f"{p[0].upper()}{p[1:]}."]
    return [f"{listed(cs)}: {p}." if len(cs) < len(copies) else f"All {len(cs)} copies: {p}."
            for p, cs in places.items()]


def place(data: CovenantData, obs: CovenantObservation, c: str) -> str:
    """Where one card is, as the observing seat may know it (without a final full stop)."""
    me = obs["seat"]
    if c in obs["hand"]:
        knows = [f"P{int(t) + 1}" for t, xs in obs.get("seen_by", {}).items() if c in xs]
        return "in your hand" + (f" ({listed(knows)} {'knows' if len(knows) == 1 else 'know'} it is there)"
                                 if knows else "")
    for s, t in enumerate(obs["table"]):
        owner = "your" if s == me else f"P{s + 1}'s"
        for w, att in t["wizards"].items():
            if c == w:
                extra = f", with {listed(data.label(a) for a in att)}" if att else ""
                granted = obs.get("granted", {}).get(w)
                if granted:
                    extra += f"; {listed(x.capitalize() for x in granted)} until the turn ends"
                did = [k for k, ws in (("acted", obs["acted"]), ("duelled", obs["duelled"])) if w in ws]
                if did:
                    extra += f"; it {' and '.join(did)} this turn"
                return f"in play: {owner} wizard{extra}"
            if c in att:
                return f"in play: attached to {owner} {data.label(w)}"
        if c in t["followers"]:
            return f"in play: {owner} follower"
        if c in t["resources"]:
            used = " (used this turn)" if c in obs.get("grants_used", ()) else ""
            return f"in play: {owner} resource{used}"
        if c in t["quests"]:
            return f"a completed quest, in {owner} quest pile"
    if c in obs["limbo"]:
        return "being played right now"
    if c in obs["discard"]:
        pos = len(obs["discard"]) - obs["discard"].index(c)
        return "on the discard pile" + (" (the top card)" if pos == 1 else f" ({ordinal(pos)} from the top)")
    code = obs.get("seen", {}).get(c)
    if code:
        if code[0] == "h":
            return f"in P{int(code[1:]) + 1}'s hand (you saw it there)"
        pos = obs["deck"] - int(code[1:])
        return f"in the deck, {ordinal(pos)} card from the top (you saw it there)"
    return "out of sight (in the deck or in a rival's hand)"
