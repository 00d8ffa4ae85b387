"""What a Covenant player sees at the terminal (``solo play``): a header (the turn and phase, the seat, how the game is
won) and the panels a player asks for by name at the prompt, each shown again by itself when what matters in it
changes:

- ``now``: the duel, quest or card being resolved;
- ``hand``: your hand, each card with what it does in a few words;
- ``status``: every covenant: VP, cards in hand, wizards with their bonuses and what is attached to them, followers,
  resources, completed quests; the deck and the top of the discard pile;
- ``seen``: the cards you have seen in other hands and in the deck, and which of yours the others know;
- ``piles``: the deck and the whole discard pile.

``look P2`` (or ``look you``) shows one player's covenant; any other query looks a card or an ability up
(``texts.look``). Every line is rich markup, every data text escaped.
"""

from __future__ import annotations

import json
import re
import textwrap

from rich.markup import escape

from wizprint.solo.kernel.screen import Panel, Screen

from .data import HAND_LIMIT, WIN_VP, CovenantData
from .observation import CovenantObservation
from .state import Phase
from .texts import abilities, cards, duel_strength, ordinal, quest_strength, signed
from .texts import look as look_card
from .view import PHASE_NAMES

PLURAL_TYPES = {"wizard": "wizards", "spell": "spells", "follower": "followers", "quest": "quests", "event": "events",
                "item": "items", "duel": "duel cards", "resource": "resources"}
DECK_SIGHTINGS = 8  # more cards seen in the deck than this: the seat is looking through it (a search)


def header(obs: CovenantObservation) -> str:
    """``Turn 7: P2's Summon phase · you are P1 · first to 25 VP wins``."""
    me = obs["seat"]
    tail = f"you are P{me + 1} · first to {WIN_VP} VP wins"
    if obs.get("outcome") or obs["phase"] == Phase.OVER:
        return f"Game over · {tail}"
    tp = obs["turn_player"]
    whose = "your" if tp == me else f"P{tp + 1}'s"
    return f"Turn {obs['turn']}: {whose} {PHASE_NAMES.get(Phase(obs['phase']), obs['phase'])} phase · {tail}"


def _indented(text: str, indent: str = "  ", more: str = "      ") -> list[str]:
    """A line of plain text wrapped at 78 columns under its indent (a panel's rows are not indented by the screen),
    escaped as markup."""
    return [escape(r) for r in textwrap.wrap(text, 78, initial_indent=indent, subsequent_indent=more)]


def _name(data: CovenantData, x: str) -> str:
    return escape(data.label(x))


def covenant(data: CovenantData, obs: CovenantObservation, seat: int) -> list[str]:
    """One player's covenant: VP and hand size, then each wizard with its abilities, bonuses and what is attached
    to it, then the followers, resources and completed quests."""
    me = obs["seat"]
    t = obs["table"][seat]
    who = "You" if seat == me else f"P{seat + 1}"
    skips = int(obs["skips"][seat])
    skip = f", {'miss' if seat == me else 'misses'} the next {'turn' if skips == 1 else f'{skips} turns'}" \
        if skips else ""
    head = f"[bold]{who}: {obs['vp'][seat]} VP[/bold], {cards(obs['hand_sizes'][seat])} in hand{skip}"
    out = [head]
    granted_all = obs.get("granted", {})
    for w, att in t["wizards"].items():
        granted = granted_all.get(w, ())
        ab = ", ".join(x.capitalize() for x in abilities(data, w, att, granted))
        given = f" ({', '.join(x.capitalize() for x in granted)} this turn)" if granted else ""
        extra = f"; with {', '.join(data.label(a) for a in att)}" if att else ""
        out.extend(_indented(f"{data.label(w)}: {ab}{given}; duel roll {signed(duel_strength(data, w, att, granted))}, "
                             f"Quest Level {signed(1 + quest_strength(data, w, att, granted))}{extra}"))
    if t["followers"]:
        out.extend(_indented("followers " + ", ".join(data.label(x) for x in t["followers"])))
    if t["resources"]:
        used = obs.get("grants_used", ())
        out.extend(_indented("resources " + ", ".join(data.label(x) + (" (used this turn)" if x in used else "")
                                                      for x in t["resources"])))
    if t["quests"]:
        out.extend(_indented("quests done " + ", ".join(f"{data.label(x)} ({data.cards[x].vp} VP)"
                                                        for x in t["quests"])))
    if len(out) == 1:
        out[0] += "; nothing in play"
    return out


def _piles(data: CovenantData, obs: CovenantObservation) -> str:
    discard = obs["discard"]
    return (f"Deck {cards(obs['deck'])}; discard pile {cards(len(discard))}" +
            (f", top {_name(data, discard[-1])}" if discard else ""))


def status(data: CovenantData, obs: CovenantObservation) -> Panel:
    lines = [_piles(data, obs)]
    for seat in range(obs["players"]):
        lines.extend(covenant(data, obs, seat))
    key = json.dumps([obs["vp"], obs["table"], obs["skips"], obs.get("granted", {})], sort_keys=True)
    return Panel("status", "every covenant",
                 tuple(lines), key)


def hand_limit(data: CovenantData, obs: CovenantObservation) -> int:
    """The seat's hand limit: one more while one of its wizards has Scry."""
    t = obs["table"][obs["seat"]]
    granted = obs.get("granted", {})
    scry = any("scry" in abilities(data, w, att, granted.get(w, ())) for w, att in t["wizards"].items())
    return HAND_LIMIT + (1 if scry else 0)


def hand(data: CovenantData, obs: CovenantObservation) -> Panel:
    """The seat's hand by kind of card (``look`` gives each card's text; an option says what it does)."""
    held = obs["hand"]
    if not held:
        lines = ["Your hand is empty."]
    else:
        kinds: dict[str, list[str]] = {}
        for x in held:
            kinds.setdefault(data.cards[x].type, []).append(data.label(x))
        parts = [f"{PLURAL_TYPES.get(k, k.capitalize())} {', '.join(xs)}" for k, xs in kinds.items()]
        lines = _indented(f"Your hand ({cards(len(held))}, hand limit {hand_limit(data, obs)}): {'; '.join(parts)}",
                          "", "  ")
    return Panel("hand", "your hand", tuple(lines), ",".join(held))


def now(obs: CovenantObservation) -> Panel:
    way = obs.get("under_way") or []
    lines = ["Under way: " + escape(way[0]), *(f"  {escape(x)}" for x in way[1:])] if way else [
        "Nothing is being resolved."]
    return Panel("now", "the duel, quest or card under way", tuple(lines), "\n".join(way) if way else None)


def _sighting_order(item: tuple[str, str]) -> tuple[bool, int, str]:
    """Cards seen in hands by seat, then in the deck from the top down (``h1``, ``d36``: seat 1, deck position 36
    from the bottom)."""
    card, code = item
    in_deck = code[0] == "d"
    return in_deck, -int(code[1:]) if in_deck else int(code[1:]), card


def seen(data: CovenantData, obs: CovenantObservation) -> Panel:
    found = obs.get("seen") or {}
    deck = obs["deck"]
    at: dict[str, list[str]] = {}
    in_deck = [x for x, z in found.items() if z[0] == "d"]
    for x, z in sorted(found.items(), key=_sighting_order):
        if z[0] == "h":
            at.setdefault(f"You saw in P{int(z[1:]) + 1}'s hand", []).append(_name(data, x))
        elif len(in_deck) <= DECK_SIGHTINGS:
            pos = deck - int(z[1:])
            top = "on top" if pos == 1 else f"{ordinal(pos)} from the top"
            at.setdefault("You saw in the deck", []).append(f"{_name(data, x)} ({top})")
    lines = [f"{where}: {', '.join(xs)}" for where, xs in sorted(at.items())]
    if len(in_deck) > DECK_SIGHTINGS:
        lines.append(f"You are looking through the deck ({cards(len(in_deck))})")
    for other, xs in sorted((obs.get("seen_by") or {}).items()):
        if xs:
            lines.append(f"P{int(other) + 1} knows you hold {', '.join(_name(data, x) for x in xs)}")
    key = json.dumps([found if len(in_deck) <= DECK_SIGHTINGS else "deck", obs.get("seen_by") or {}],
                     sort_keys=True) if lines else None
    return Panel("seen", "the cards you know of",
                 tuple(lines or ["You know of no card in another hand or in the deck."]), key)


def piles(data: CovenantData, obs: CovenantObservation) -> Panel:
    discard = obs["discard"]
    lines = [f"Deck: {cards(obs['deck'])}."]
    lines.append(f"Discard pile ({cards(len(discard))}), top card first: " +
                 ", ".join(_name(data, x) for x in reversed(discard)) if discard else "The discard pile is empty.")
    return Panel("piles", "the deck and the discard pile", tuple(lines))


def screen(data: CovenantData, obs: CovenantObservation) -> Screen:
    return Screen(header(obs), (now(obs), hand(data, obs), status(data, obs), seen(data, obs), piles(data, obs)))


def view(data: CovenantData, obs: CovenantObservation) -> list[str]:
    """The whole table as the seat sees it: the header and every panel's lines."""
    sc = screen(data, obs)
    return [escape(sc.header), *(ln for p in sc.panels for ln in p.lines)]


_SEAT = re.compile(r"p(\d{1,2})", re.I)


def look(data: CovenantData, obs: CovenantObservation, query: str) -> list[str] | None:
    """A player's covenant (``P2``, ``you``), or a card or ability by id or name (``texts.look``)."""
    q = query.strip()
    m = _SEAT.fullmatch(q)
    seat = obs["seat"] if q.lower() in ("you", "me", "my", "mine") else int(m.group(1)) - 1 if m else -1
    if 0 <= seat < obs["players"]:
        out = covenant(data, obs, seat)
        if seat != obs["seat"]:
            known = sorted(x for x, z in (obs.get("seen") or {}).items() if z == f"h{seat}")
            if known:
                out.append(f"  you know they hold {', '.join(_name(data, x) for x in known)}")
        return out
    if m:
        return [f"There is no P{m.group(1)}: the players are P1 to P{obs['players']}."]
    return look_card(data, obs, query)
