"""What a Wizard Cards player reads: the question of each decision, each action in words, the play screen (a header
with the turn, the seat and how the game is won; the panels ``table``, ``hand`` and, in the constructed variant,
``decks``) and any card looked up by id or name (``look P2``: a player). A card is named by its id and the name its
printed card shows as its title (the spell's name: ``8H Double Spell``), with what it is (``Vigor 2``)."""

from __future__ import annotations

import json
import re
from typing import NotRequired, TypedDict

from rich.markup import escape

from wizprint.cards.markup import plural, spoken
from wizprint.solo.kernel import Action
from wizprint.solo.kernel.screen import Panel, Screen
from wizprint.solo.kernel.values import OutcomeRecord

from .data import WizardCardsData
from .state import Phase, WizardCardsState, cards

WIN = "the smaller damage pile wins"


class WizardCardsObservation(TypedDict):
    """What one seat of Wizard Cards sees (JSON-able): its own hand, and of the rival what is public."""

    game: str
    variant: str
    seat: int
    phase: str  # a :class:`~.state.Phase` value
    current: int  # the seat to decide (-1 once the game is over)
    turn: int  # the turn being played, from 1
    turn_player: int
    first: int  # the seat that took the first turn
    hand: list[str]
    opponent_hand: int  # how many cards the rival holds
    spell_discard: list[str]
    damage: list[list[str]]  # each seat's damage pile
    wards: list[list[tuple[str, int]]]  # each seat's ward components, oldest first, with the damage each still stops
    spell: list[str]  # the components cast this turn
    plays_left: int
    pending_discards: int  # cards a Wrath still sends to the rival's damage pile
    end_after_turn: int | None  # the final phase: the game ends after this turn (from 0)
    log: list[str]
    heading: str
    deck: int  # the cards left in the shared pile, or (constructed) in the seat's own deck
    # the constructed variant only
    opponent_deck: NotRequired[int]
    own_deck_cards: NotRequired[list[str]]
    opponent_cards: NotRequired[list[str]]  # the rival's drafted cards, in deck or hand
    piles: NotRequired[dict[str, list[str]]]  # the draft piles by suit, top last
    drafter: NotRequired[int]
    outcome: NotRequired[OutcomeRecord]  # once the game is over


def describe(s: WizardCardsState, action: Action) -> str:
    sp = s.data.spells
    if action.kind == "play":
        c = sp[action.a]
        if c.school == "wild":
            return f"play {s.data.label(action.a)} as {action.b.capitalize()} 4: {school_does(action.b, 4)}"
        return f"play {s.data.text(action.a)}: {school_does(c.school, c.magnitude)}"
    if action.kind == "discard":
        return f"put {s.data.text(action.a)} on your damage pile"
    if action.kind == "stop":
        return "end the spell"
    if action.kind == "draft":
        return f"take {s.data.text(s.draft_piles[action.a][-1])} from the {action.a} pile"
    return action.key


def school_does(school: str, magnitude: int) -> str:
    """What a school does, in a few words."""
    return {"ward": f"stops {magnitude} damage until your next turn",
            "vigor": f"{plural(magnitude, 'more component')} in this spell",
            "fortune": f"draw {cards(magnitude)} now",
            "wrath": f"your rival loses {cards(magnitude)} to damage, less their ward"}.get(school, "")


def question(s: WizardCardsState) -> str:
    seat = s.current_player
    if s.phase == Phase.DRAFT:
        left = sum(len(p) for p in s.draft_piles.values())
        return (f"The draft: take the top card of a pile for your deck ({cards(left)} left; P{2 - seat} picks "
                f"next)")
    if s.phase == Phase.DISCARD:
        n = s.damage_due
        return (f"P{s.turn_player + 1}'s Wrath: put {cards(n)} from your hand on your damage pile" +
                (", one at a time" if n > 1 else ""))
    if not s.cast:
        return "Your turn: cast a spell, one component at a time (the first is free; each Vigor adds plays)"
    return f"Your spell goes on: {plural(s.plays_left, 'play')} left; add a component or end it"


def _card(data: WizardCardsData, c: str) -> str:
    return escape(data.text(c))


def _list(data: WizardCardsData, cs: list[str]) -> str:
    return ", ".join(_card(data, c) for c in cs) or "none"


# -- the screen ------------------------------------------------------------------------------------------------------
def header(obs: WizardCardsObservation) -> str:
    """``Turn 3: your turn · you are P1 · the smaller damage pile wins`` (``Turn 12 of 13`` in the final phase)."""
    me = obs["seat"]
    tail = f"you are P{me + 1} · {WIN}"
    if obs.get("outcome"):
        return f"Game over · {tail}"
    if obs["phase"] == "draft":
        return f"The draft: P{obs['current'] + 1} picks · {tail}"
    last = obs["end_after_turn"]
    of = f" of {last + 1}" if last is not None else ""
    tp = obs["turn_player"]
    whose = "your" if tp == me else f"P{tp + 1}'s"
    return f"Turn {obs['turn']}{of}: {whose} turn · {tail}"


def _ward(data: WizardCardsData, ws: list[tuple[str, int]]) -> str:
    return ", ".join(f"{_card(data, c)} stops {n} more" for c, n in ws)


def seat_lines(data: WizardCardsData, obs: WizardCardsObservation, seat: int) -> list[str]:
    """One player as the observing seat sees them: hand size (or hand), damage pile, ward."""
    me = obs["seat"]
    who = "You" if seat == me else f"P{seat + 1}"
    held = cards(len(obs["hand"]) if seat == me else obs["opponent_hand"])
    out = [f"{who}: {held} in hand, damage pile {cards(len(obs['damage'][seat]))}"]
    ws = obs["wards"][seat]
    if ws:
        out.append(f"  ward: {_ward(data, ws)}")
    return out


def table(data: WizardCardsData, obs: WizardCardsObservation) -> Panel:
    me, opp = obs["seat"], 1 - obs["seat"]
    if "opponent_deck" in obs:
        piles = f"Your deck {cards(obs['deck'])}, P{opp + 1}'s deck {cards(obs['opponent_deck'])}"
    else:
        piles = f"Spell pile {cards(obs['deck'])}"
    last = obs["end_after_turn"]
    final = f"; final phase: the game ends after turn {last + 1}" if last is not None else ""
    lines = [f"{piles}; discard pile {cards(len(obs['spell_discard']))}{final}"]
    lines += seat_lines(data, obs, me) + seat_lines(data, obs, opp)
    if obs["spell"]:
        whose = "Your" if obs["turn_player"] == me else f"P{obs['turn_player'] + 1}'s"
        lines.append(f"{whose} spell this turn: {_list(data, obs['spell'])}; "
                     f"{plural(obs['plays_left'], 'play')} left")
    key = None if obs["phase"] == "draft" else json.dumps([[len(d) for d in obs["damage"]], obs["wards"], last])
    return Panel("table", "the damage piles, wards and piles", tuple(lines), key)


def hand(data: WizardCardsData, obs: WizardCardsObservation) -> Panel:
    held = obs["hand"]
    lines = [f"Your hand ({cards(len(held))}): {_list(data, held)}" if held else "Your hand is empty."]
    return Panel("hand", "your hand", tuple(lines))  # (shown on request: every decision of a turn lists it)


def decks(data: WizardCardsData, obs: WizardCardsObservation) -> Panel:
    """The constructed variant: the draft piles' tops while drafting, your deck, and the cards your rival drafted."""
    opp = 1 - obs["seat"]
    lines = []
    if obs["phase"] == "draft":
        tops = ", ".join(f"{s} {_card(data, p[-1])}" if p else f"{s} empty" for s, p in obs["piles"].items())
        lines.append(f"Tops of the piles: {tops}")
    own = obs.get("own_deck_cards", [])
    theirs = obs.get("opponent_cards", [])
    lines.append(f"Your deck ({cards(len(own))}): {_list(data, own)}")
    lines.append(f"P{opp + 1}'s cards, in deck or hand ({cards(len(theirs))}): {_list(data, theirs)}")
    key = json.dumps([obs["piles"], own]) if obs["phase"] == "draft" else None
    return Panel("decks", "the drafted decks", tuple(lines), key)


def screen(data: WizardCardsData, obs: WizardCardsObservation) -> Screen:
    panels: tuple[Panel, ...] = (table(data, obs), hand(data, obs))
    if "opponent_deck" in obs:
        panels = (decks(data, obs), *panels) if obs["phase"] == "draft" else (*panels, decks(data, obs))
    return Screen(header(obs), panels)


def view(data: WizardCardsData, obs: WizardCardsObservation) -> list[str]:
    """The whole table as the seat sees it: the header and every panel's lines."""
    sc = screen(data, obs)
    return [escape(sc.header), *(ln for p in sc.panels for ln in p.lines)]


# -- look ------------------------------------------------------------------------------------------------------------
def find(data: WizardCardsData, query: str) -> list[str]:
    """The card instances a query names: an id (``QS``, ``WM#2``, ``WM``) or a word of a name (``wood``)."""
    q = query.strip()
    up = q.upper()
    if up in data.spells:
        return [up]
    copies = [c for c in data.spells if c.split("#")[0] == up]
    if copies:
        return copies[:1]
    low = q.lower()
    if len(low) < 3:
        return []
    hits = [c for c, sp in data.spells.items() if low in sp.name.lower() or low in data.kind(c).lower()]
    return sorted(hits, key=data.sort_key.__getitem__)


_SEAT = re.compile(r"p([12])", re.I)


def look(data: WizardCardsData, obs: WizardCardsObservation, query: str) -> list[str] | None:
    """A card's printed text and where it is, as the seat may know it; ``P1``, ``P2`` or ``you``: a player."""
    q = query.strip()
    m = _SEAT.fullmatch(q)
    if m or q.lower() in ("you", "me"):
        return seat_lines(data, obs, int(m.group(1)) - 1 if m else obs["seat"])
    hits = find(data, query)
    if not hits:
        return None
    out: list[str] = []
    if len(hits) > 1:
        designs = sorted({h.split("#")[0] for h in hits})
        if len(designs) > 1:
            first = [next(h for h in hits if h.split("#")[0] == d) for d in designs[:12]]
            out.append(f"{len(designs)} cards match: " + ", ".join(escape(data.label(h)) for h in first) +
                       ("..." if len(designs) > 12 else "") + ". Look one up by its id.")
        hits = hits[:1]
    c = hits[0]
    sp = data.spells[c]
    if sp.school == "wild":
        out.append(f"[bold]{escape(data.label(c))}[/bold] (a joker: any school, magnitude {sp.magnitude})")
    else:
        out.append(f"[bold]{escape(data.label(c))}[/bold] ({escape(data.kind(c))}: {sp.school.capitalize()} "
                   f"{sp.magnitude}; the {sp.rank} of {sp.suit})")
    out.append(escape(spoken(data.printed(c))))
    out.append(escape(where(obs, c)))
    return out


def where(obs: WizardCardsObservation, c: str) -> str:
    """Where a card is, as the observing seat may know it."""
    me, opp = obs["seat"], 1 - obs["seat"]
    if c in obs["hand"]:
        return "It is in your hand."
    for seat, who in ((me, "your"), (opp, f"P{opp + 1}'s")):
        for w, left in obs["wards"][seat]:
            if w == c:
                return f"It stands in {who} ward and stops {left} more damage."
        if c in obs["damage"][seat]:
            return f"It is on {who} damage pile."
    if c in obs["spell"]:
        return "It is part of the spell being cast."
    if c in obs["spell_discard"]:
        return "It is on the discard pile."
    for suit, pile in (obs.get("piles") or {}).items():
        if c in pile:
            return f"It is in the {suit} pile of the draft" + (" (on top)." if pile[-1] == c else ".")
    if c in obs.get("own_deck_cards", ()):
        return "It is in your deck." if obs["phase"] != "draft" else "It is in your deck (you drafted it)."
    if c in obs.get("opponent_cards", ()):
        return f"It is in P{opp + 1}'s deck or hand (drafted by them)."
    return f"You cannot see it: it is in the spell pile or P{opp + 1}'s hand."
