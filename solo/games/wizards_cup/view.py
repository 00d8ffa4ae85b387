"""What a Wizards Cup player reads: the screen of a decision (a header, and the panels ``table``, ``deck``,
``rival``, ``set`` and ``rules``), the question of each decision, each action in words, and any wizard looked up by
id or name. An option names a wizard on one short line (id, name, Element, Value and a few words of its power:
:func:`brief`); its whole text is one ``look`` away, and the ``set`` panel gives every wizard's. Every data text is
escaped."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NotRequired, TypedDict

from rich.markup import escape

from wizprint.cards.markup import plural, spoken
from wizprint.solo.kernel import Action, design_of
from wizprint.solo.kernel.screen import Panel, Screen
from wizprint.solo.kernel.stack import PendingView
from wizprint.solo.kernel.values import OutcomeRecord

from .data import DECK, LOSES_TO, SETS, TO_WIN, Wizard, WizardsCupData
from .pending import Ask, Choose, Round, RoundStep, Setup

if TYPE_CHECKING:
    from .state import WizardsCupState


class WizardsCupObservation(TypedDict):
    """What one seat of Wizards Cup sees (JSON-able; lists by seat are indexed by seat): its own Deck, plan, Waiting
    card and set aside; of the rival, the sizes, the face-up cards and what was seen of its 6."""

    game: str
    seat: int
    players: int
    round: int  # rounds begun
    duels: int  # duels fought this round
    current: int  # the seat to decide (-1 once the game is over)
    tokens: list[int]  # Victory tokens by seat
    to_win: int
    my_set: list[str]  # the seat's wizards set aside
    my_deck: list[str]  # its Deck, the next wizard to duel first
    my_plan: list[str]
    my_waiting: list[str]
    deck_sizes: list[int]  # by seat: Deck and plan
    waiting_sizes: list[int]
    set_sizes: list[int]
    duel: list[list[str]]  # the wizard in each Duel zone (or none)
    discards: list[list[str]]  # top last
    values: list[int]  # the adjusted Value of each wizard in the Duel zone
    value_sums: list[str]  # each Value by its parts, in words
    stopped: list[str]  # the wizard stopping the Dormant power of each visible discard, or ""
    identical: bool  # two wizards of one name in the Duel zone: neither power acts
    last: str  # how the last duel was decided
    pending: PendingView
    log: list[str]
    heading: str
    known: list[list[str]]  # by seat: the seen cards surely among its 6
    maybe: list[list[str]]  # seen before a swap, perhaps swapped out
    known_out: list[list[str]]  # surely swapped out
    outcome: NotRequired[OutcomeRecord]  # once the game is over


def named(data: WizardsCupData, card: str) -> str:
    """``C04 The Alchemist (water 5)``: an option names the card by its design id too, as the other games do."""
    return f"{design_of(card)} {data.label(card)}"


# a few words for each effect word (its whole text is one 'look' away)
GIST: dict[str, str] = {
    "discard_waiting": "discards the rival's Waiting card", "swap_waiting": "the rival's Waiting card swaps in",
    "both_lose": "both wizards lose", "rearrange": "you may reorder your Deck", "sink": "rival's top card to bottom",
    "weaken": "-{n} to the rival's wizard", "guard": "guards Deck and Waiting card",
    "lower_wins": "the lower Value wins", "wins_ties": "wins equal Values", "no_dormant": "stops Dormant powers",
    "on_win_discard": "wins discard rival's top card", "no_element": "Elements do not decide",
}


def gist(w: Wizard) -> str:
    """``Dormant: +3 to your Water wizard``: the type of a wizard's Magic power and a few words of what it does."""
    if not w.effects:
        return "no Magic power"
    words = []
    for e in w.effects:
        n = int(e.get("n", 0))
        if e.word == "boost":
            el = e.get("element")
            words.append(f"+{n} to your {str(el).capitalize()} wizard" if el else f"+{n} to your wizard")
        else:
            words.append(GIST.get(e.word, e.word.replace("_", " ")).format(n=n))
    return f"{w.power.capitalize()}: {'; '.join(words)}"


def weakness(w: Wizard) -> str:
    return f"Weakness: {w.weakness}" if w.weakness != "None" else "no Weakness"


def brief(data: WizardsCupData, card: str) -> str:
    """``C04 The Alchemist (water 5), Dormant: +3 to your Water wizard``: one short line."""
    return f"{named(data, card)}, {gist(data[card])}"


def card_text(data: WizardsCupData, card: str, with_id: bool = False) -> str:
    """``The Alchemist (water 5), Dormant: If your Wizard … its Value increases by 3; Weakness: …``: the whole
    text (wrapped by the screen, never cut)."""
    w = data[card]
    text = spoken(data.printed(card)).rstrip(".") if w.effects else ""
    power = f", {w.power.capitalize()}: {text}" if text else ", no Magic power"
    return f"{design_of(card) + ' ' if with_id else ''}{data.label(card)}{power}; {weakness(w)}"


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def describe(s: WizardsCupState, action: Action) -> str:
    d = s.data
    k, a = action.kind, action.a
    top = s.stack[-1] if s.stack else None
    if k == "select":
        return brief(d, a)
    if k == "wait":
        return brief(d, a)
    if k == "next" and isinstance(top, Choose):
        pos = len(s.plans[top.seat]) + 1
        rest = [c for c in sorted(s.decks[top.seat]) if c != a]
        if len(rest) == 1:
            return f"{named(d, a)} {ordinal(pos)}, then {named(d, rest[0])} {ordinal(pos + 1)}"
        return f"{brief(d, a)}; {weakness(d[a])}"
    if k == "keep":
        if isinstance(top, Choose) and top.ask is Ask.REARRANGE:
            return "keep your Deck in its order"
        return "keep your Deck as it is (no swap)"
    if k == "rearrange":
        return "rearrange your Deck (choose its order again, from the top)"
    if k == "out":
        return f"swap out {named(d, a)}; {gist(d[a])}"
    if k == "in":
        return brief(d, a)
    return action.key


def rogues(s: WizardsCupState) -> bool:
    """Whether the order asked is The Rogues' rearranging (not a round's planning)."""
    return any(isinstance(x, Round) and x.step is not RoundStep.PLAN for x in s.stack)


def question(s: WizardsCupState) -> str:
    if not s.stack or s.result is not None:
        return "The game is over"
    top = s.stack[-1]
    if not isinstance(top, Choose):
        return "Choose"
    d, seat = s.data, top.seat
    if top.ask is Ask.SELECT:
        if top.left == DECK - 1:  # the first pick: one row, so that the 17 options fit with the log of the draw
            return f"Choose {plural(top.left, 'more wizard')} for your Deck, in secret ('set' shows whole texts)"
        mine = ", ".join(d[c].name for c in s.decks[seat])
        return f"Choose {plural(top.left, 'more wizard')} for your Deck, in secret (your Deck: {mine})"
    if top.ask is Ask.WAIT:
        return f"Round {s.round} planning: which of your 6 is your Waiting card (face down, out of the duels)?"
    if top.ask is Ask.ORDER:
        pos = len(s.plans[seat]) + 1
        so_far = "; ".join(f"{ordinal(i)} {d[c].name}" for i, c in enumerate(s.plans[seat], 1))
        if rogues(s):
            head = ("The Rogues: which wizard of your Deck duels next?" if pos == 1 else
                    f"The Rogues: which wizard goes {ordinal(pos)} in your Deck?")
        else:
            head = f"Round {s.round} planning: which wizard duels {ordinal(pos)}?"
        known = [f"so far {so_far}"] if so_far else []
        if s.waiting[seat] and not rogues(s):
            known.append(f"waiting: {d[s.waiting[seat][0]].name}")
        return head + (f" ({'; '.join(known)})" if known else "")
    if top.ask is Ask.REARRANGE:
        order = ", ".join(f"{ordinal(i)} {d[c].name}" for i, c in enumerate(reversed(s.decks[seat]), 1))
        return f"The Rogues: you may rearrange your Deck ({order})"
    if top.ask is Ask.SWAP_OUT:
        return (f"Before round {s.round + 1}: you may swap one wizard of your Deck for one of the "
                f"{len(s.sets[seat])} set aside")
    return f"Which set-aside wizard takes the place of {d[top.card].name}?"


def heading(s: WizardsCupState, seat: int) -> str:
    if s.result is not None:
        return "Game over"
    if any(isinstance(x, Setup) for x in s.stack):
        return "Wizard selection"
    for x in s.stack:
        if isinstance(x, Round):
            if x.step is RoundStep.PLAN:
                return f"Round {s.round}: planning"
            if x.step is RoundStep.SWAP:
                return f"Swap after round {s.round}"
    return f"Round {s.round}, duel {s.duels}"


# -- the screen -------------------------------------------------------------------------------------------------
def screen(d: WizardsCupData, obs: WizardsCupObservation) -> Screen:
    """The header (where the game is, your seat and set, the Victory tokens and how the Cup is won) and the panels:
    ``table`` (the Duel zone with the Values and their parts, the piles with the visible Dormant powers, the
    tokens), ``deck`` (your Deck in order, your Waiting card), ``rival`` (what you know of the rival's 6), ``set``
    (your 18 with their whole texts) and ``rules`` (how a duel is decided)."""
    me = obs["seat"]
    t = obs["tokens"]
    header = (f"{obs['heading']} · you P{me + 1}, {SETS[me]} · tokens you {t[me]}, P{2 - me} {t[1 - me]}; "
              f"first to {obs['to_win']} wins")
    return Screen(header, (
        Panel("table", "the Duel zone, the piles and the Victory tokens", tuple(table_lines(d, obs)),
              key=table_key(obs)),
        Panel("deck", "your Deck in order and your Waiting card", tuple(deck_lines(d, obs))),
        Panel("rival", "what you know of your rival's 6", tuple(rival_lines(d, obs)), key=rival_key(obs)),
        Panel("set", "your 18 wizards with their whole texts", tuple(set_lines(d, obs))),
        Panel("rules", "how a duel is decided (A Weakness, B Element, C Value) and how a round is won",
              tuple(RULES_LINES)),
    ))


def _key(*parts: object) -> str:
    return json.dumps(parts, sort_keys=True)


def table_key(obs: WizardsCupObservation) -> str | None:
    """What matters on the table: the wizards in the Duel zone with their Values, the visible tops, the tokens;
    None while the table is empty (the selection, the planning, between rounds): it is shown when asked for."""
    if not any(obs["duel"]) and not any(obs["discards"]):
        return None
    return _key(obs["duel"], obs["value_sums"], [p[-1:] for p in obs["discards"]], obs["tokens"])


def table_lines(d: WizardsCupData, obs: WizardsCupObservation) -> list[str]:
    me = obs["seat"]
    t = obs["tokens"]
    out = [f"[bold]Victory tokens[/bold]: you (P{me + 1}) {t[me]}, P{2 - me} {t[1 - me]}; the first to "
           f"{obs['to_win']} wins the Cup"]
    for x in (me, 1 - me):
        if obs["duel"][x]:
            c = obs["duel"][x][0]
            out.append(f"[bold]{_who(me, x)} in the Duel zone[/bold]: {escape(named(d, c))}, "
                       f"{escape(value_words(obs, x))}; {escape(gist(d[c]))}; {escape(weakness(d[c]))}")
        pile = obs["discards"][x]
        line = (f"{_who(me, x)}: Deck {obs['deck_sizes'][x]}, "
                f"{'a Waiting card' if obs['waiting_sizes'][x] else 'no Waiting card'}, "
                f"{'discard pile ' + str(len(pile)) if pile else 'no discard pile'}")
        if pile:
            line += f"; on top: {escape(brief(d, pile[-1]))}"
            if obs["stopped"][x]:
                line += f" (stopped by {escape(d[obs['stopped'][x]].name)})"
        out.append(line)
    if obs["identical"]:
        out.append("Identical wizards face each other: neither has a Magic power")
    if obs["last"]:
        out.append(f"Last duel decided by {escape(obs['last'])}")
    return out


def value_words(obs: WizardsCupObservation, x: int) -> str:
    """``Value 11 = 8 printed +3 from The Alchemist``, or ``Value 7 (printed)``."""
    v, parts = obs["values"][x], obs["value_sums"][x]
    return f"Value {v} (printed)" if parts == f"{v} printed" else f"Value {v} = {parts}"


def _who(me: int, x: int) -> str:
    return f"P{x + 1} (you)" if x == me else f"P{x + 1}"


def deck_lines(d: WizardsCupData, obs: WizardsCupObservation) -> list[str]:
    """Your Deck: in order during a round (top first), the order placed so far while one is chosen, else your 6
    (the selection, the planning's Waiting card, between rounds); your Waiting card, wizard in the Duel zone and
    discard pile."""
    me = obs["seat"]
    deck, plan, waiting = obs["my_deck"], obs["my_plan"], obs["my_waiting"]
    ask = obs["pending"].get("ask")
    out = []
    if ask == "select":
        out.append(f"[bold]Your Deck so far[/bold] ({len(deck)} of {DECK}):")
        out += [escape(brief(d, c)) for c in sorted(deck)]
        return out
    if ask == "order":  # an order being chosen: the wizards placed so far, top first, then the rest
        out.append("[bold]Your Deck so far[/bold], top first: " + escape(
            "; ".join(f"{ordinal(i)} {named(d, c)}" for i, c in enumerate(plan, 1)) or "none placed yet"))
        out.append("Not placed yet: " + escape(", ".join(named(d, c) for c in sorted(deck))))
    elif ask in ("wait", "swap_out", "swap_in"):
        out.append(f"[bold]Your Deck[/bold] ({plural(len(deck), 'wizard')}; you order them at the planning):")
        out += [escape(brief(d, c)) for c in sorted(deck)]
    elif deck:
        out.append(f"[bold]Your Deck[/bold], top first ({plural(len(deck), 'wizard')}):")
        out += [f"{ordinal(i)} {escape(brief(d, c))}" for i, c in enumerate(deck, 1)]
    else:
        out.append("[bold]Your Deck[/bold] is empty")
    if waiting:
        out.append(f"Your Waiting card (face down): {escape(brief(d, waiting[0]))}")
    if obs["duel"][me]:
        out.append(f"In the Duel zone: {escape(named(d, obs['duel'][me][0]))}")
    if obs["discards"][me]:
        out.append("Your discard pile, top last: " + escape(", ".join(named(d, c) for c in obs["discards"][me])))
    return out


def rival_key(obs: WizardsCupObservation) -> str | None:
    """What you know of the rival's 6, shown by itself at the planning when it has grown (the rest of the time,
    when asked for: during the selection the log says the one card seen, and after a round its log fills the
    screen)."""
    if obs["pending"].get("ask") not in ("wait", "order") or obs["duels"]:
        return None
    x = 1 - obs["seat"]
    return _key(obs["known"][x], obs["maybe"][x], obs["known_out"][x])


def rival_lines(d: WizardsCupData, obs: WizardsCupObservation) -> list[str]:
    x = 1 - obs["seat"]
    pile = obs["discards"][x]
    out = [f"[bold]Your rival P{x + 1}[/bold] ({SETS[x]} set): Deck {obs['deck_sizes'][x]}, "
           f"{'a Waiting card' if obs['waiting_sizes'][x] else 'no Waiting card'}, "
           f"{'discard pile ' + str(len(pile)) if pile else 'no discard pile'}, {obs['set_sizes'][x]} set aside"]
    for seen, what in ((obs["known"][x], "Seen among their 6"),
                       (obs["maybe"][x], "Seen before a swap, perhaps swapped out"),
                       (obs["known_out"][x], "Swapped out (set aside)")):
        if seen:
            out.append(f"{what}: " + escape(", ".join(named(d, c) for c in seen)))
    unseen = DECK - len(obs["known"][x])
    if not obs["maybe"][x]:
        out.append(f"Not seen yet: {unseen} of their 6" if unseen else "Every one of their 6 has been seen")
    if pile:
        out.append("Their discard pile, top last: " + escape(", ".join(named(d, c) for c in pile)))
    return out


def set_lines(d: WizardsCupData, obs: WizardsCupObservation) -> list[str]:
    """Your 18 wizards with their whole texts: those of your Deck (wherever they are this round), then those set
    aside."""
    me = obs["seat"]
    six = {*obs["my_deck"], *obs["my_plan"], *obs["my_waiting"], *obs["duel"][me], *obs["discards"][me]}
    out = []
    for title, cards in (("In your Deck", sorted(six)), ("Set aside", sorted(obs["my_set"]))):
        if cards:
            out.append(f"[bold]{title}[/bold] ({plural(len(cards), 'wizard')}):")
            out += [_entry(d, c) for c in cards]
    return out


def _entry(d: WizardsCupData, card: str) -> str:
    """A wizard's whole text, its id and name in bold (a wrapped entry starts at the left edge)."""
    return f"[bold]{escape(named(d, card))}[/bold]{escape(card_text(d, card)[len(d.label(card)):])}"


def _elements() -> str:
    def both(names: list[str]) -> str:
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    beats = [f"{e.capitalize()} to {both([x.capitalize() for x in sorted(v)])}" for e, v in LOSES_TO.items() if v]
    return "; ".join(beats) + "; Void to none"


RULES_LINES = (
    "[bold]A duel[/bold] is decided by A, then B, then C: the first that picks a loser decides.",
    "[bold]A Weakness[/bold]: a wizard facing the wizard its Weakness names loses (The Shaman: both lose; two "
    "wizards of the same name have no Magic powers).",
    f"[bold]B Element[/bold]: an Element loses to another: {_elements()} (with The Lamplighter, B is skipped).",
    "[bold]C Value[/bold]: the higher Value wins; equal Values: both lose (The Matron wins ties; with The "
    "Blacksmith the lower Value wins). Powers change Values: the log and 'table' give each part.",
    "[bold]Powers[/bold]: Immediate once, when placed; Permanent in the Duel zone; Dormant on top of its owner's "
    "discard pile. A power in play goes before a newer one; two placed together: the lower printed Value first.",
    f"[bold]Then[/bold] the winner stays and each loser goes face up on its owner's discard pile. A player with no "
    f"wizard left to place loses the round: the other takes a Victory token; {TO_WIN} tokens win the Cup.",
)


def view(d: WizardsCupData, obs: WizardsCupObservation) -> list[str]:
    """The whole table as the seat sees it: the header's facts, then the table, your Deck and the rival."""
    scr = screen(d, obs)
    out = [f"[bold]{escape(scr.header)}[/bold]"]
    for name in ("table", "deck", "rival"):
        p = scr.panel(name)
        assert p is not None
        out += p.lines
    if "outcome" in obs:
        out.append(f"[bold]{escape(obs['outcome']['reason'])}[/bold]")
    return out


def look(d: WizardsCupData, obs: WizardsCupObservation, query: str) -> list[str] | None:
    """A wizard by id (``C07``) or (part of its) name: its card and where your copy and your opponent's are."""
    q = query.strip().lower()
    design = next((x for x in d.designs if x.lower() == q.split("#")[0]), None)
    if design is None:
        hits = [x for x, w in d.designs.items() if q and q in w.name.lower()]
        design = hits[0] if hits else None
    if design is None:
        return None
    me = obs["seat"]
    card = f"{design}#{me + 1}"
    lines = [f"[bold]{escape(design)} {escape(d.label(card))}[/bold]: {escape(d.kind_line(card))}"]
    text = d.printed(card)
    lines.append(escape(spoken(text)) if text else
                 "No Magic power: its Weakness, Element and Value decide its duels")
    lines.append(escape(where(obs, card, mine=True)))
    lines.append(escape(where(obs, f"{design}#{2 - me}", mine=False)))
    return lines


def where(obs: WizardsCupObservation, card: str, mine: bool) -> str:
    me = obs["seat"]
    x = me if mine else 1 - me
    whose = "Your copy" if mine else "Your opponent's copy"
    if card in obs["duel"][x]:
        return f"{whose} is in the Duel zone: {value_words(obs, x)}."
    if card in obs["discards"][x]:
        top = obs["discards"][x][-1] == card
        return f"{whose} is in the discard pile{' (on top: visible)' if top else ' (covered)'}."
    if mine:
        for cards, place in ((obs["my_deck"], "in your Deck"), (obs["my_plan"], "in your Deck"),
                             (obs["my_waiting"], "your Waiting card"), (obs["my_set"], "set aside")):
            if card in cards:
                return f"{whose} is {place}."
    if card in obs["known"][x]:
        return f"{whose} is among their 6 (everyone has seen it)."
    if card in obs["maybe"][x]:
        return f"{whose} was among their 6 before a swap: it may have been swapped out."
    if card in obs["known_out"][x]:
        return f"{whose} was swapped out: it is set aside."
    return f"{whose}: you do not know where it is."
