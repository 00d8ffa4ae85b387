"""``look`` in Relic: any card (Power, Threat, Wargear, Relic, Mission, Corruption...), board space (with its text
boxes), character sheet or scenario sheet, by id or by (part of) its name: its whole printed text and its state now
as the looking seat may know it (who holds it, its charges, where it lies; never another seat's hidden cards)."""

from __future__ import annotations

from rich.markup import escape

from wizprint.cards.markup import plural

from .data import DECK_WORDS, DECKS, RelicData
from .observation import RelicObservation
from .texts import card_sheet, character_sheet, enemy_line, scenario_sheet, space_sheet

MAX_LISTED = 12


def find(D: RelicData, query: str) -> list[tuple[str, str]]:
    """What a query names, as (kind, id): an id (a card's instance or design, a space, a character, a scenario),
    else every name containing the query (at least three letters)."""
    q = query.strip()
    up = q.upper()
    if up in D.cards:
        return [("card", up)]
    copies = sorted(x for x, c in D.cards.items() if c.design == up)
    if copies:
        return [("design", up)]
    for kind, table in (("space", D.spaces), ("character", D.characters), ("scenario", D.scenarios)):
        if up in table:
            return [(kind, up)]
    low = q.lower()
    if len(low) < 3:
        return []
    hits: list[tuple[str, str]] = []
    seen: set[str] = set()
    for x in sorted(D.cards):
        c = D.cards[x]
        if c.design not in seen and low in c.name.lower():
            seen.add(c.design)
            hits.append(("design", c.design))
    hits += [("space", x) for x in sorted(D.spaces) if low in D.spaces[x].name.lower()]
    hits += [("character", x) for x in sorted(D.characters) if low in D.characters[x].name.lower()]
    hits += [("scenario", x) for x in sorted(D.scenarios) if low in D.scenarios[x].name.lower()]
    exact = [h for h in hits if _name(D, h).lower() == low]
    return exact or hits


def _name(D: RelicData, hit: tuple[str, str]) -> str:
    kind, x = hit
    if kind in ("card", "design"):
        return D.cards[x if x in D.cards else _first_copy(D, x)].name
    if kind == "space":
        return D.spaces[x].name
    if kind == "character":
        return D.characters[x].name
    return D.scenarios[x].name


def look(data: RelicData, obs: RelicObservation, query: str) -> list[str] | None:
    """The whole printed text of what the query names and its state now, as rich markup lines; None if nothing."""
    D = data
    hits = find(D, query)
    if not hits:
        return None
    out: list[str] = []
    if len(hits) > 1:
        more = len(hits) - MAX_LISTED
        out.append(f"{len(hits)} match: " + ", ".join(f"{x} {escape(_name(D, (k, x)))}" for k, x in
                                                      hits[:MAX_LISTED]) + (f" and {more} more" if more > 0 else "") +
                   ". The first:")
    kind, x = hits[0]
    sc = obs["scenario"]
    if kind in ("card", "design"):
        c = D.cards.get(x)
        design = c.design if c is not None else x
        sheet = card_sheet(D, x if c is not None else _first_copy(D, design), sc)
        if c is not None:
            sheet[0] = f"{x} {c.name}"
        body = sheet + _card_state(D, obs, x, design)
    elif kind == "space":
        body = space_sheet(D, x, sc) + _space_state(D, obs, x)
    elif kind == "character":
        body = character_sheet(D, x) + _character_state(D, obs, x)
    else:
        body = scenario_sheet(D, x) + (["This game's scenario."] if x == sc else [])
    out.append(f"[bold]{escape(body[0])}[/bold]")
    out.extend(escape(line) for line in body[1:])
    return out


def _first_copy(D: RelicData, design: str) -> str:
    return min(x for x, c in D.cards.items() if c.design == design)


# -- where things are, as the seat knows it ----------------------------------------------------------------------
def _who(obs: RelicObservation, s: int) -> str:
    return "you" if s == obs["seat"] else f"P{s + 1}"


def _whose(obs: RelicObservation, s: int) -> str:
    return "your" if s == obs["seat"] else f"P{s + 1}'s"


def where(D: RelicData, obs: RelicObservation, x: str) -> str:
    """Where card instance ``x`` is, or "" when the seat cannot see it."""
    charges = obs["charges"]
    if x in obs["hand"]:
        return "in your hand"
    if x in obs["my_corruption_down"]:
        return "face down before you (your Corruption)"
    if x in obs["my_completed_hidden"]:
        return "one of your completed missions (face down, drawn from the deck)"
    for s, t in enumerate(obs["table"]):
        whose = _whose(obs, s)
        if x in t["assets"]:
            ch = f", with {plural(charges[x], 'charge')}" if x in charges else ""
            return f"{whose} asset{ch}"
        if x in t["trophies"]:
            return f"{whose} trophy ({plural(D.cards[x].value, 'point')})"
        if x in t["corruption_up"]:
            return f"{whose} face-up Corruption card"
        if t["mission"] == x:
            return f"{whose} active mission"
        if x in t["completed"]:
            return f"{whose} completed mission"
    for sp, xs in obs["board"].items():
        if x in xs:
            return f"a Threat card on {sp} {D.spaces[sp].name}"
    if x in obs["revealed"]:
        return "revealed, being chosen from"
    for d in DECKS:
        if x in obs["discards"].get(d, ()):
            return f"on the {DECK_WORDS.get(d, d + ' Threat')} discard pile"
    return ""


def _hidden_where(D: RelicData, x: str) -> str:
    deck = D.cards[x].deck
    if deck == "power":
        return "in the Power deck or in another player's hand"
    if deck == "corruption":
        return "in the Corruption deck or face down before another player"
    if deck == "mission":
        return "in the Mission deck or among another player's completed missions"
    return f"in the {DECK_WORDS.get(deck, deck + ' Threat')} deck"


def _card_state(D: RelicData, obs: RelicObservation, x: str, design: str) -> list[str]:
    copies = [x] if x in D.cards else sorted(y for y, c in D.cards.items() if c.design == design)
    out = []
    hidden = 0
    for y in copies:
        w = where(D, obs, y)
        if w:
            out.append(f"{y} now: {w}.")
        else:
            hidden += 1
    if hidden:
        what = "it is" if len(copies) == 1 else f"{plural(hidden, 'copy', 'copies')} {'is' if hidden == 1 else 'are'}"
        out.append(f"Now {what} out of your sight: {_hidden_where(D, copies[0])}.")
    return out


def _space_state(D: RelicData, obs: RelicObservation, sp: str) -> list[str]:
    out = []
    here = [_who(obs, s) for s, t in enumerate(obs["table"]) if t["character"] and t["space"] == sp and
            not t["eliminated"]]
    if here:
        out.append("Here now: " + ", ".join(here) + ".")
    threats = obs["board"].get(sp) or []
    sc = obs["scenario"]
    for x in threats:
        c = D.cards[x]
        out.append("Threat card here: " + (enemy_line(D, x, sc) if c.category == "enemy" else f"{x} {c.name} "
                                            f"({c.category})"))
    tokens = [_whose(obs, s) for s, t in enumerate(obs["table"]) if sp in t["tokens"]]
    if tokens:
        many = len(tokens) > 1
        s_ = "s" if many else ""
        out.append(f"Objective token{s_} here: for {' and '.join(tokens)} mission{s_}.")
    if sp in obs["guardians"]:
        out.append("The Guardian of the Rift stands here.")
    return out


def _character_state(D: RelicData, obs: RelicObservation, ch: str) -> list[str]:
    for s, t in enumerate(obs["table"]):
        if t["character"] == ch:
            return [f"Played now by {_who(obs, s)}."]
    if ch in obs["retired"]:
        return ["Corrupted earlier in this game: out of play."]
    if ch in (obs.get("dealt") or ()):
        return ["Dealt to you to choose from."]
    return []


__all__ = ["find", "look", "where"]
