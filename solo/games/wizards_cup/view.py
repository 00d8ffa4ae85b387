"""What a Wizards Cup player reads: the terminal view of an observation (the Duel zone with both wizards' adjusted
Values, the discard piles with the visible Dormant powers, your Deck in order, the Victory tokens), the question of
each decision, each action in words, and any wizard looked up by id or name. Every data text is escaped."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from wizprint.cards.markup import plural, short, spoken
from wizprint.solo.kernel import Action, design_of

from .data import LOSES_TO, SETS, WCData
from .pending import Ask, Choose, Round, RoundStep, Setup

if TYPE_CHECKING:
    from .state import WCState


def named(data: WCData, card: str) -> str:
    """``C04 The Alchemist (water 5)``: an option names the card by its design id too, as the other games do."""
    return f"{design_of(card)} {data.label(card)}"


def card_text(data: WCData, card: str, with_id: bool = False) -> str:
    """``The Alchemist (water 5), Dormant: If your Wizard … (80 characters at most); Weakness: …`` on one line."""
    w = data[card]
    text = spoken(data.printed(card)).rstrip(".") if w.effects else ""
    power = f", {w.power.capitalize()}: {short(text, 80)}" if text else ", no Magic power"
    weak = f"Weakness: {w.weakness}" if w.weakness != "None" else "no Weakness"
    return f"{design_of(card) + ' ' if with_id else ''}{data.label(card)}{power}; {weak}"


def describe(s: WCState, action: Action) -> str:
    d = s.data
    k, a = action.kind, action.a
    if k == "select":
        return f"select {card_text(d, a, with_id=True)}"
    if k == "wait":
        return f"keep {named(d, a)} as your Waiting card (face down, out of the duels)"
    if k == "next":
        top = s.stack[-1] if s.stack else None
        pos = len(s.plans[top.seat]) + 1 if isinstance(top, Choose) else 1
        return f"put {named(d, a)} {_ordinal(pos)} in your Deck"
    if k == "keep":
        top = s.stack[-1] if s.stack else None
        if isinstance(top, Choose) and top.ask is Ask.REARRANGE:
            return "keep your Deck in its order"
        return "keep your Deck as it is (no swap)"
    if k == "rearrange":
        return "rearrange your Deck (choose its order again, from the top)"
    if k == "out":
        return f"swap {named(d, a)} out of your Deck"
    if k == "in":
        return f"take {card_text(d, a, with_id=True)} into your Deck"
    return action.key


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"number {n}")


def question(s: WCState) -> str:
    if not s.stack or s.result is not None:
        return "The game is over"
    top = s.stack[-1]
    if not isinstance(top, Choose):
        return "Choose"
    q = {
        Ask.SELECT: f"Wizard selection: choose {plural(top.left, 'more wizard')} for your Deck, in secret",
        Ask.WAIT: f"Round {s.round} planning: which wizard waits face down (it will not duel)?",
        Ask.ORDER: f"Round {s.round} planning: which wizard duels next?",
        Ask.REARRANGE: "The Rogues: you may rearrange the cards of your Deck",
        Ask.SWAP_OUT: "Before the next round: you may swap one wizard of your Deck for one of the 12 set aside",
        Ask.SWAP_IN: "Which set-aside wizard takes its place?",
    }
    if top.ask is Ask.ORDER and any(isinstance(x, Round) and x.step is not RoundStep.PLAN for x in s.stack):
        return "The Rogues: which wizard of your Deck comes next, from the top?"
    return q[top.ask]


def heading(s: WCState, seat: int) -> str:
    if s.result is not None:
        return "Game over"
    if any(isinstance(x, Setup) for x in s.stack):
        return "Wizard selection"
    for x in s.stack:
        if isinstance(x, Round):
            if x.step is RoundStep.PLAN:
                return f"Round {s.round}: planning"
            if x.step is RoundStep.SWAP:
                return f"After round {s.round}: the swap"
    return f"Round {s.round}: duel {s.duels}"


def view(d: WCData, obs: Mapping[str, Any]) -> list[str]:
    me = int(obs["seat"])
    out = [f"[bold]{escape(str(obs.get('heading', '')))}[/bold] · you are P{me + 1} ({SETS[me]} set) · Victory "
           f"tokens: P1 {obs['tokens'][0]}, P2 {obs['tokens'][1]} ({obs['to_win']} win)"]
    for x in (0, 1):
        who = " (you)" if x == me else ""
        line = (f"[bold]P{x + 1}[/bold]{who}: Deck {obs['deck_sizes'][x]}, Waiting card "
                f"{'yes' if obs['waiting_sizes'][x] else 'no'}, discard pile {len(obs['discards'][x])}")
        if obs["discards"][x]:
            top = obs["discards"][x][-1]
            line += f" (visible: {escape(card_text(d, top))})"
        out.append(line)
        if obs["duel"][x]:
            out.append(f"   in the Duel zone: {escape(card_text(d, obs['duel'][x][0]))}; Value now "
                       f"{obs['values'][x]}")
        if x != me:
            for key, what in (("known", "seen among their 6"), ("maybe", "seen before a swap, perhaps swapped out"),
                              ("known_out", "swapped out (set aside)")):
                if obs[key][x]:
                    out.append(f"   {what}: " + escape(", ".join(d.label(c) for c in obs[key][x])))
    if obs["identical"]:
        out.append("Identical wizards face each other: neither has a Magic power")
    if obs["last"]:
        out.append(f"Last duel decided by {escape(obs['last'])}")
    out.append("Elements: " + "; ".join(f"{e} loses to {'/'.join(sorted(v))}" for e, v in LOSES_TO.items() if v)
               + "; void has no weakness")
    if obs["my_deck"] or obs["my_plan"]:
        out.append("[bold]Your Deck[/bold], top first:")
        for c in [*obs["my_plan"], *obs["my_deck"]]:
            out.append(f"   {escape(card_text(d, c))}")
    if obs["my_waiting"]:
        out.append(f"Your Waiting card: {escape(card_text(d, obs['my_waiting'][0]))}")
    pend = obs.get("pending") or {}
    if pend.get("ask") in ("select", "swap_out", "swap_in"):
        out.append(f"Your set ({len(obs['my_set'])} cards): "
                   + escape(", ".join(d.label(c) for c in obs["my_set"])))
    if "outcome" in obs:
        out.append(f"[bold]{escape(str(obs['outcome']['reason']))}[/bold]")
    return out


def look(d: WCData, obs: Mapping[str, Any], query: str) -> list[str] | None:
    """A wizard by id (``C07``) or (part of its) name: its card and where your copy and your opponent's are."""
    q = query.strip().lower()
    design = next((x for x in d.designs if x.lower() == q.split("#")[0]), None)
    if design is None:
        hits = [x for x, w in d.designs.items() if q and q in w.name.lower()]
        design = hits[0] if hits else None
    if design is None:
        return None
    me = int(obs["seat"])
    card = f"{design}#{me + 1}"
    lines = [f"[bold]{escape(d.label(card))}[/bold]: {escape(d.kind_line(card))}"]
    text = d.printed(card)
    lines.append(escape(spoken(text)) if text else "No Magic power: it duels by Element and Value")
    lines.append(escape(where(obs, card, mine=True)))
    lines.append(escape(where(obs, f"{design}#{2 - me}", mine=False)))
    return lines


def where(obs: Mapping[str, Any], card: str, mine: bool) -> str:
    me = int(obs["seat"])
    x = me if mine else 1 - me
    whose = "Your copy" if mine else "Your opponent's copy"
    if card in obs["duel"][x]:
        return f"{whose} is in the Duel zone."
    if card in obs["discards"][x]:
        return f"{whose} is in the discard pile."
    if mine:
        for key, place in (("my_deck", "in your Deck"), ("my_plan", "in your Deck"),
                           ("my_waiting", "your Waiting card"), ("my_set", "set aside")):
            if card in obs[key]:
                return f"{whose} is {place}."
    if card in obs["known"][x]:
        return f"{whose} is among their 6 (everyone has seen it)."
    if card in obs["maybe"][x]:
        return f"{whose} was among their 6 before a swap: it may have been swapped out."
    if card in obs["known_out"][x]:
        return f"{whose} was swapped out: it is set aside."
    return f"{whose}: you do not know where it is."
