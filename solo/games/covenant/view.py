"""What a Covenant player reads: the terminal view of an observation, and each action in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from wizprint.solo.kernel import Action

from .data import CovenantData
from .pending import Choice

if TYPE_CHECKING:
    from .state import CovenantState


def describe(s: CovenantState, action: Action) -> str:
    k, a, b = action.kind, action.a, action.b
    c = s.data.cards

    def nm(x: str) -> str:
        return s.label(x) if x in c else x

    def seat_or_card(x: str) -> str:
        return f"P{int(x) + 1}" if x.isascii() and x.isdigit() and len(x) < 4 else nm(x)

    if k in ("cast", "play"):
        if not b:
            return f"{k} {nm(a)}"
        word = c[a].resolve[0].word.replace("_", " ")
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
        top = s.pending
        word = (top.effect.word if isinstance(top, Choice) else "choose").replace("_", " ")
        return f"{word} {seat_or_card(a)}"
    if k == "to":
        return f"attach it to {nm(a)}"
    if k == "end":
        return f"end the {s.phase} phase" if s.phase != "adventure" else "end the turn"
    if k == "go":
        return "set out on the quest"
    if k == "pass":
        return "pass"
    return f"{k} {nm(a)}" + (f" {nm(b)}" if b else "")


def view(data: CovenantData, obs: Mapping[str, Any]) -> list[str]:
    """The terminal view of a seat's observation (rich markup): scores, every covenant on the table, the piles,
    the duel or quest under way, what the seat has seen, and its hand."""
    name = data.label
    me = int(obs["seat"])
    n = int(obs["players"])
    lines = [f"Phase: {obs['phase']} (P{int(obs['turn_player']) + 1}'s turn)   deck {obs['deck']}, discard pile "
             f"{len(obs['discard'])}" + (f" (top: {name(obs['discard'][-1])})" if obs["discard"] else "")]
    for s in range(n):
        t = obs["table"][s]
        who = "You" if s == me else f"P{s + 1}"
        skip = f", misses {obs['skips'][s]} turn(s)" if obs["skips"][s] else ""
        lines.append(f"[bold]{who}: {obs['vp'][s]} VP[/bold], {obs['hand_sizes'][s]} cards in hand{skip}")
        for w, att in t["wizards"].items():
            extra = f" with {', '.join(name(a) for a in att)}" if att else ""
            granted = obs.get("granted", {}).get(w)
            g = f" (this turn also {', '.join(granted)})" if granted else ""
            lines.append(f"    wizard {name(w)} ({', '.join(data.cards[w].abilities)}){extra}{g}")
        for key, label in (("followers", "followers"), ("resources", "resources"), ("quests", "completed quests")):
            if t[key]:
                lines.append(f"    {label}: {', '.join(name(x) for x in t[key])}")
    if obs.get("stack"):
        lines.append(f"Under way: {'; '.join(str(f.get('kind', f)) for f in obs['stack'])}")
    seen = obs.get("seen") or {}
    if seen:
        lines.append("You have seen: " + ", ".join(f"{name(k)} ({v})" for k, v in sorted(seen.items())))
    lines.append("Your hand: " + ("; ".join(name(x) for x in obs["hand"]) or "(empty)"))
    return lines
