"""What a Wizards & Relics player reads: the terminal view of an observation (the shrine, the battle with every
card's power and text, the Halls, your hand), the question of each decision, each action in words, and any card
looked up by id or name. Every data text is escaped for rich markup."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from wizprint.cards.markup import plural, short, spoken
from wizprint.solo.kernel import Action, StackGame

from .data import AFFECTS, BEATS, WRData
from .pending import Ask, Choose, Round, RoundStep, Setup, SetupStep

if TYPE_CHECKING:
    from .state import WRState


def card_text(data: WRData, card: str) -> str:
    """``W03 Cinder Adept (red Pyromancer, Enlightened, power 3, Superb): +2 power if …`` on one line."""
    text = spoken(data.printed(card)) if data[card].effects else ""
    head = f"{data.label(card)} ({data.kind_line(card)})"
    return f"{head}: {short(text, 90)}" if text else head


def describe(s: WRState, action: Action) -> str:
    d = s.data
    k, a, b = action.kind, action.a, action.b
    if k == "deck":
        return f"take deck {a} (30 face-down cards: 15 wizards and 15 relics)"
    if k == "play" and b:  # the cards' texts are in the hand listed above: name them briefly
        w = f"{d.label(a)} ({d[a].colour}, power {d[a].power})" if a != "none" else "no wizard"
        r = f"{d.label(b)} (power {d[b].power})" if b != "none" else "no relic"
        return f"play {w} with {r}"
    if k == "keep":
        top = s.stack[-1] if s.stack else None
        n = len(top.picked) if isinstance(top, Choose) else 0
        if not n:
            return "keep this hand"
        return f"done: shuffle the {plural(n, 'card')} set aside into your deck and draw as many"
    if k == "aside":
        return f"set aside {card_text(d, a)}"
    if k == "back":
        return f"keep {d.label(a)} after all"
    if k == "draw":
        return "spoils: draw 1 card from your deck"
    if k == "pass":
        return "do not (the effect is optional)"
    if k == "stop":
        return "stop here"
    top = s.stack[-1] if s.stack else None
    ask = top.ask if isinstance(top, Choose) else None
    if k == "resolve" and ask is Ask.TRIGGER:
        return f"resolve this trigger first: {card_text(d, a)}"
    if k == "take" and ask is Ask.SPOILS:
        owner = next((f"P{x + 1}" for x in range(s.players) if a in s.relics[x] or a in s.tied[x]), "a loser")
        return f"spoils: take {owner}'s {card_text(d, a)} into your hand"
    verbs = {"take": "take {} from your discard pile into your hand", "put": "put {} on top of your deck",
             "discard": "discard {}", "ignore": "ignore {}: no power, no enchantment",
             "silence": "silence {}: its ability does not resolve", "summon": "put {} into play beside your wizard",
             "resolve": "resolve {} now", "play": "play {} as another relic and resolve it"}
    if k not in verbs:
        return action.key
    return verbs[k].format(card_text(d, a))


FIRED = {"on_discard": "they were discarded", "on_win": "you won the round", "on_lose": "you lost the round"}


def question(s: WRState) -> str:
    if not s.stack or s.result is not None:
        return "The game is over"
    top = s.stack[-1]
    d = s.data
    if isinstance(top, Setup):
        return "Set-up: choose one of the four face-down decks (you may then look at its cards)"
    if isinstance(top, Round):
        shrine = f" under {d.label(s.shrine[0])}" if s.shrine else ""
        tie = f" (tie battle {s.battle + 1})" if s.battle else ""
        return f"Round {s.round}{tie}: play a wizard and a relic face down{shrine}"
    if isinstance(top, Choose):
        src = d[top.card].name if top.card else ""
        q = {
            Ask.MULLIGAN: "Set-up, once only: set aside any cards of your opening hand; they are replaced from your "
                          "deck and shuffled back into it",
            Ask.ORDER: "You have several enchanted relics: which resolves first?",
            Ask.TRIGGER: f"Your cards' triggers fire together ({FIRED.get(top.what, 'at once')}): you choose the "
                         "order; which resolves first?",
            Ask.TAKE: f"{src}: you may take a card from your discard pile into your hand",
            Ask.PUT: f"{src}: you may put a card from your discard pile on top of your deck",
            Ask.DISCARD_FOR: f"{src}: discard a card for +{top.n} power? ({plural(top.left, 'more card')} at most)",
            Ask.RIVAL_DISCARD: f"{src} (a rival's card): discard {plural(top.left, 'card')} of your choice",
            Ask.IGNORE: f"{src}: which rival relic do you ignore?",
            Ask.SILENCE: f"{src}: which rival wizard's ability does not resolve?",
            Ask.EXTRA_RELIC: f"{src}: you may play another relic from your hand",
            Ask.SUMMON: f"{src}: you may put a wizard into play beside yours",
            Ask.HAND_CHECK: f"Spoils, hand check: you hold {len(s.hands[top.seat])} cards; discard "
                            f"{plural(top.left, 'card')} (down to 7)",
            Ask.SPOILS: "You won the round. Spoils: draw 1 card, or take a relic a loser played this round",
        }
        return q.get(top.ask, "Choose")
    return "Choose"


def heading(s: WRState, seat: int) -> str:
    if s.result is not None:
        return "Game over"
    if any(isinstance(x, Setup) for x in s.stack) or s.round == 0:
        return "Set-up"
    phase = "Play"
    for x in s.stack:
        if isinstance(x, Round):
            phase = {RoundStep.PLAY: "Play", RoundStep.REVEAL: "Reveal", RoundStep.COMPARE: "Reveal",
                     RoundStep.VICTORY: "Victory"}.get(x.step, "Spoils")
    tie = f", tie battle {s.battle + 1}" if s.battle else ""
    return f"Round {s.round}: {phase} phase{tie}"


def pending_view(s: WRState, seat: int) -> dict[str, Any]:
    """What is being decided, as ``seat`` may know it (another seat's mulligan picks stay hidden)."""
    out = StackGame.pending_view(s, seat)
    if not out:
        return out
    top = s.stack[-1]
    if isinstance(top, Choose):
        if top.ask is Ask.MULLIGAN and top.seat == seat:  # another player's picks are known once they draw
            out["aside"] = sorted(top.picked)
    elif isinstance(top, Setup):
        out["ask"] = "deck" if top.step is SetupStep.DECKS else "setup"
    else:
        out["ask"] = "play"
    return out


def _c(d: WRData, card: str) -> str:
    return escape(card_text(d, card))


def view(d: WRData, obs: Mapping[str, Any]) -> list[str]:
    """The terminal view of a seat's observation (rich markup)."""
    me = int(obs["seat"])
    n = int(obs["players"])
    out = [f"[bold]{escape(str(obs.get('heading', '')))}[/bold] · you are P{me + 1} · Master Wizard: "
           f"P{int(obs['master']) + 1} · {obs['hall_to_win']} wizards in the Hall win"]
    if obs["shrine"]:
        sh = obs["shrine"][0]
        text = spoken(d.printed(sh))
        out.append(f"Shrine: [bold]{escape(d.label(sh))}[/bold]: {escape(AFFECTS[d[sh].affects])}: {escape(text)}")
    for x in range(n):
        who = " (you)" if x == me else ""
        hall = obs["halls"][x]
        line = (f"[bold]P{x + 1}[/bold]{who}: Hall {len(hall)}/{obs['hall_to_win']}"
                f"{' (' + escape(', '.join(d[c].name for c in hall)) + ')' if hall else ''}; "
                f"hand {obs['hand_sizes'][x]}, deck {obs['deck_sizes'][x]}, discard {len(obs['discards'][x])}")
        top = obs["discards"][x][-1] if obs["discards"][x] else ""
        if top:
            line += f" (top: {escape(d.label(top))})"
        out.append(line)
        state = (obs.get("committed") or {}).get(str(x))
        if state is not None and str(x) in (obs.get("committed") or {}) and not obs["wizards"][x] and \
                x in obs["fighters"]:
            out.append("   " + ("has played face down" if state else "is choosing a wizard and a relic"))
        for w in obs["wizards"][x]:
            tags = []
            if w in obs["silenced"]:
                tags.append("silenced")
            out.append(f"   wizard: {_c(d, w)}{' [' + ', '.join(tags) + ']' if tags else ''}")
        for r in obs["relics"][x]:
            out.append(f"   relic: {_c(d, r)}{' [ignored]' if r in obs['ignored'] else ''}")
        if obs["tied"][x]:
            out.append(f"   from tied battles: {escape(', '.join(d.label(c) for c in obs['tied'][x]))}")
        if str(x) in obs["totals"]:
            adv = obs["advantage"].get(str(x), 0)
            out.append(f"   total power {obs['totals'][str(x)]}" + (f" (advantage +{adv})" if adv else ""))
        if x != me and obs["known_hand"][x]:
            out.append(f"   known in hand: {escape(', '.join(d.label(c) for c in obs['known_hand'][x]))}")
    if obs["no_advantage"]:
        out.append("Wand of Equality: no wizard has advantage this round")
    if obs["last_totals"] and not obs["totals"]:
        out.append("Last battle: " + ", ".join(f"P{int(k) + 1} {v}" for k, v in obs["last_totals"].items()))
    out.append("Advantage: " + ", ".join(f"{a} beats {b}" for a, b in BEATS.items()) + " (+1)")
    hand = obs["hand"]
    out.append(f"[bold]Your hand[/bold] ({len(hand)}):" if hand else "Your hand is empty")
    for c in sorted(hand, key=lambda c: (d[c].kind != "wizard", -d[c].power, c)):
        out.append(f"   {_c(d, c)}")
    pend = obs.get("pending") or {}
    if pend.get("ask") == "mulligan" and isinstance(pend.get("aside"), list) and pend["aside"]:
        out.append("Set aside so far: " + escape(", ".join(d.label(c) for c in pend["aside"])))
    if "outcome" in obs:
        out.append(f"[bold]{escape(str(obs['outcome']['reason']))}[/bold]")
    return out


def look(d: WRData, obs: Mapping[str, Any], query: str) -> list[str] | None:
    """A wizard, relic or shrine by id or (part of its) name: its printed text and where it is as the seat sees it."""
    q = query.strip().lower()
    hit = next((c for c in d.cards if c.lower() == q), None)
    if hit is None:
        names = [c for c in d.cards if q and q in d[c].name.lower()]
        hit = names[0] if len(names) >= 1 else None
    if hit is None:
        return None
    c = d[hit]
    lines = [f"[bold]{escape(d.label(hit))}[/bold]: {escape(d.kind_line(hit))}"]
    if c.kind == "wizard":
        lines.append(f"Advantage over {BEATS[c.colour]} wizards (+1 power when one is a rival)")
    text = d.printed(hit)
    if text:
        lines.append(escape(spoken(text)))
    elif c.kind == "wizard":
        lines.append(f"Devoted {c.power}: base power {c.power}, no ability")
    else:
        lines.append(f"Basic relic: adds {c.power} power, no enchantment")
    lines.append(escape(where(d, obs, hit)))
    return lines


def where(d: WRData, obs: Mapping[str, Any], card: str) -> str:
    """Where the card is, as the seat may know it."""
    me = int(obs["seat"])
    if card in obs["hand"]:
        return "It is in your hand."
    if card in obs["shrine"]:
        return "It is the shrine in play."
    for x in range(int(obs["players"])):
        who = "your" if x == me else f"P{x + 1}'s"
        for key, place in (("halls", "Hall of Immortality"), ("discards", "discard pile"), ("wizards", "battle"),
                           ("relics", "battle"), ("tied", "tied battles this round")):
            if card in obs[key][x]:
                return f"It is in {who} {place}."
        if x != me and card in obs["known_hand"][x]:
            return f"It is in P{x + 1}'s hand (everyone has seen it)."
        if card in obs["known_top"][x]:
            return f"It is on top of {who} deck (everyone has seen it)."
    if card in obs["my_deck"]:
        return "It is in your deck."
    if card in obs["shrines_used"]:
        return "It has been the shrine of an earlier round."
    return "You do not know where it is."

