"""What a Wizards & Relics player reads: the screen of a seat (a header and its panels: the table, the hand, the
shrine, the deck, the piles), the question of each decision with its options in words (the play asked in two steps
at the terminal: the wizard, then its relic), and any card looked up by id or name. A card's text is never cut: an
option carries it whole while the options fit on a screen, and the hand panel always. Every data text is escaped
for rich markup."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, NotRequired, TypedDict

from rich.markup import escape

from wizprint.cards.markup import plural
from wizprint.solo.kernel import Action, StackGame
from wizprint.solo.kernel.screen import Group, Panel, Screen, TwoStep
from wizprint.solo.kernel.stack import PendingView
from wizprint.solo.kernel.values import OutcomeRecord

from .data import AFFECTS, BEATS, WizardsAndRelicsData, affected
from .effects import KINDS_OF
from .pending import Ask, Choose, Round, RoundStep, Setup, SetupStep

if TYPE_CHECKING:
    from .state import WizardsAndRelicsState

class WizardsAndRelicsPendingView(PendingView, total=False):
    """What is being decided (:class:`~wizprint.solo.kernel.stack.PendingView`), and the deciding seat's own
    mulligan picks so far (``aside``)."""

    aside: list[str]


class ModView(TypedDict):
    """A change to the battle (:class:`~.state.Mod`) as a seat sees it."""

    seat: int
    n: int
    source: str
    colour: str
    wizard: str
    why: str


class WizardsAndRelicsObservation(TypedDict):
    """What one seat of Wizards & Relics sees (JSON-able; lists by seat are indexed by seat; the dictionaries by
    seat are keyed by the seat's number as text): its own hand and deck, of the others what is public or was seen."""

    game: str
    seat: int
    players: int
    round: int
    battle: int  # tie battles fought this round
    master: int  # the Master Wizard's seat
    current: int  # the seat to decide (-1 once the game is over)
    hall_to_win: int
    hand: list[str]
    hand_sizes: list[int]
    deck_sizes: list[int]
    piles: list[int]  # the cards of each dealt deck not chosen yet
    my_deck: list[str]  # the seat's deck (its cards, not their order), once chosen
    discards: list[list[str]]
    halls: list[list[str]]
    wizards: list[list[str]]  # in play in the battle
    relics: list[list[str]]
    tied: list[list[str]]  # from tied battles this round, no longer in play
    shrine: list[str]  # the shrine in play (none or one)
    shrine_pile: int
    shrines_used: list[str]
    fighters: list[int]  # the seats in the battle
    losers: list[int]
    committed: dict[str, str | None]  # each seat's secret play: its own ('W01 R37'), else 'committed' or None
    mods: list[ModView]
    ignored: list[str]  # ignored relics
    silenced: list[str]  # silenced wizards
    no_advantage: bool
    drawn: list[int]
    equalized: list[str]  # the cards that took advantage away this round
    totals: dict[str, int]  # each fighter's total power so far, once the battle is open
    advantage: dict[str, int]  # each fighter's advantage, once checked
    last_totals: dict[str, int]  # the last battle's totals
    known_hand: list[list[str]]  # the cards everyone has seen in each hand
    known_top: list[list[str]]  # the cards everyone has seen on top of each deck, top first
    chosen_deck: list[int]  # each seat's deck (from 0), or -1 before it chooses
    pending: WizardsAndRelicsPendingView
    log: list[str]
    heading: str
    outcome: NotRequired[OutcomeRecord]  # once the game is over


WIDTH = 80  # the columns the options are measured at
OPTION_ROWS = 17  # the rows the options of a decision may fill at WIDTH with the cards' texts; beyond, they go without
HEADER = 74  # the longest header that shows as a rule across 80 columns


def card_line(d: WizardsAndRelicsData, card: str, text: bool = True, note: str = "", after: str = "") -> str:
    """``W03 Cinder Adept (red wizard, power 3, Superb): its whole text``; ``after`` goes after the name (``into your
    hand``), ``note`` after the facts."""
    head = f"{d.label(card)}{after} ({d.facts(card)}{note})"
    t = d.spoken(card) if text else ""
    return f"{head}: {t}" if t else head


def rows(texts: Sequence[str]) -> int:
    """The rows ``texts`` fill as numbered options at :data:`WIDTH` columns, roughly (a row holds some 70
    characters once words are wrapped)."""
    return sum(1 + len(t) // (WIDTH - 10) for t in texts)


def seats(xs: Sequence[int]) -> str:
    """``P1``, ``P1 and P2``, ``P1, P2 and P3``."""
    names = [f"P{x + 1}" for x in xs]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# -- the options of a decision ----------------------------------------------------------------------------------
MOVES = {Ask.TAKE: ("take", " into your hand"), Ask.PUT: ("put", " on top of your deck"), Ask.SHOW: ("reveal", ""),
         Ask.DISCARD_FOR: ("discard", ""), Ask.RIVAL_DISCARD: ("discard", ""), Ask.HAND_CHECK: ("discard", ""),
         Ask.EXTRA_RELIC: ("play", " as another relic"), Ask.SUMMON: ("put", " into play beside your wizard"),
         Ask.SPOILS: ("take", " into your hand"), Ask.IGNORE: ("ignore", ""), Ask.SILENCE: ("silence", "")}
NONE = {Ask.TAKE: "take no card", Ask.PUT: "put no card on your deck", Ask.DISCARD_FOR: "discard nothing",
        Ask.EXTRA_RELIC: "play no other relic", Ask.SUMMON: "put no wizard into play"}


def describe(s: WizardsAndRelicsState, action: Action) -> str:
    """An option in words; the cards' texts whole while all the decision's options fit on a screen with them."""
    return _describe(s, action, _texts_fit(s))


def _texts_fit(s: WizardsAndRelicsState) -> bool:
    if s.result is not None or not s.stack:
        return True
    legal = s.legal_actions()
    return rows([_describe(s, a, True) for a in legal]) <= OPTION_ROWS


def _owner(s: WizardsAndRelicsState, card: str) -> str:
    """``P2's `` for a card in play or in a tied battle."""
    for x in range(s.players):
        if card in s.wizards[x] or card in s.relics[x] or card in s.tied[x]:
            return f"P{x + 1}'s "
    return ""


def _describe(s: WizardsAndRelicsState, action: Action, text: bool) -> str:
    d = s.data
    k, a, b = action.kind, action.a, action.b
    top = s.stack[-1] if s.stack else None
    ask = top.ask if isinstance(top, Choose) else None
    if k == "deck":
        return f"take deck {a} (30 face-down cards: 15 wizards and 15 relics)"
    if k == "play" and b:
        return _play(s, action, text)
    if k == "keep":
        n = len(top.picked) if isinstance(top, Choose) else 0
        if not n:
            return "keep this hand"
        return (f"done: draw {plural(n, 'new card')}, then shuffle the "
                f"{'card' if n == 1 else str(n)} set aside into your deck")
    if k == "aside":
        return f"set aside {card_line(d, a, text)}"
    if k == "back":
        return f"keep {d.label(a)} after all"
    if k == "draw":
        return "draw 1 card from your deck"
    if k == "lack":
        return f"you have no {a} in hand: discard your hand face up and Replenish"
    if k == "done":
        return f"you have no other {KINDS_OF.get(top.what, 'card') if isinstance(top, Choose) else 'card'} in hand"
    if k in ("pass", "stop"):
        if k == "stop" and ask is Ask.DISCARD_FOR:
            return "discard no more"
        return NONE.get(ask, "do not") if ask is not None else "do not"
    if k == "resolve":
        first = "resolve this trigger first" if ask is Ask.TRIGGER else "resolve this relic first"
        return f"{first}: {card_line(d, a)}"
    move = MOVES.get(ask) if ask is not None else None
    if move is None:
        return action.key
    verb, after = move
    owner = _owner(s, a) if ask in (Ask.SPOILS, Ask.IGNORE, Ask.SILENCE) else ""
    # without the cards' texts the options are many: each on one row, where the card goes said by the question
    return f"{verb} {owner}{card_line(d, a, text, after=after if text else '')}"


def _pairs(s: WizardsAndRelicsState, legal: list[Action]) -> tuple[list[str], list[str]]:
    """The wizards and the relics of the Play phase's pairs, each strongest first ("none": the hand has none)."""
    d = s.data

    def order(c: str) -> tuple[int, str]:
        return (-d[c].power, c) if c != "none" else (0, c)

    return sorted({a.a for a in legal}, key=order), sorted({a.b for a in legal}, key=order)


def _wizard(s: WizardsAndRelicsState, w: str, text: bool) -> str:
    if w == "none":
        return "no wizard (you have none in hand)"
    d = s.data
    note = "; the shrine affects it" if s.shrine and affected(d[s.shrine[0]], d[w]) else ""
    return card_line(d, w, text, note)


def _relic(s: WizardsAndRelicsState, r: str, text: bool) -> str:
    return "no relic (you have none in hand)" if r == "none" else card_line(s.data, r, text)


def _play(s: WizardsAndRelicsState, action: Action, text: bool) -> str:
    """A pair in words: the wizard with its text when the relic is the only one (the question names it), else the
    two cards in brief (the two-step screen names each card with its text)."""
    d = s.data
    a, b = action.a, action.b
    wizards, relics = _pairs(s, s.legal_actions())
    if len(relics) == 1 and len(wizards) > 1 and s.current_seat != s.table_seat:
        return f"play {_wizard(s, a, text)}"
    w = f"{d.label(a)} ({d[a].colour}, power {d[a].power})" if a != "none" else "no wizard"
    r = f"{d.label(b)} (power {d[b].power})" if b != "none" else "no relic"
    return f"play {w} with {r}"


def two_step(s: WizardsAndRelicsState, legal: list[Action]) -> TwoStep | None:
    """The Play phase's choice at the terminal: first the wizard (with its text), then the relic played with it.
    With a single relic the pairs are one list, one per wizard (None here)."""
    top = s.stack[-1] if s.stack else None
    if not isinstance(top, Round) or not legal or any(a.kind != "play" for a in legal) or \
            s.current_seat == s.table_seat:  # (on a real table the program does not know the hand to group)
        return None
    wizards, relics = _pairs(s, legal)
    if len(relics) == 1 and len(wizards) > 1:
        return None
    wtext = rows([_wizard(s, w, True) for w in wizards]) <= OPTION_ROWS
    rtext = rows([_relic(s, r, True) for r in relics]) <= OPTION_ROWS
    by = {(a.a, a.b): a for a in legal}
    where = _round_words(s)
    groups = []
    for w in wizards:
        if len(wizards) == 1:  # asked at once: the question shows the wizard
            line = _wizard(s, w, True)
            ask = (f"{where}: you have no wizard in hand; which relic do you play face down?" if w == "none" else
                   f"{where}: your only wizard is {line}{'' if line.endswith('.') else '.'} Which relic do you "
                   "play with it?")
        else:
            ask = f"{where}: which relic do you play with {'no wizard' if w == 'none' else s.data.label(w)}?"
        options = tuple((by[w, r], _relic(s, r, rtext)) for r in relics if (w, r) in by)
        groups.append(Group(_wizard(s, w, wtext), ask, options))
    return TwoStep(f"{where}: which wizard do you play face down? (then its relic)", tuple(groups))


def _round_words(s: WizardsAndRelicsState) -> str:
    return f"Round {s.round}" + (f", tie battle {s.battle + 1}" if s.battle else "")


FIRED = {"on_discard": "they were discarded", "on_win": "you won the round", "on_lose": "you lost the round"}


def question(s: WizardsAndRelicsState) -> str:
    if not s.stack or s.result is not None:
        return "The game is over"
    top = s.stack[-1]
    d = s.data
    if isinstance(top, Setup):
        seen = "the program names its 30 cards" if s.table_seat >= 0 else "'deck' shows its cards"
        return f"Set-up: choose one of the four face-down decks (once it is yours, {seen})"
    if isinstance(top, Round):
        if s.legal_actions()[0].kind == "lack":
            return f"{_round_words(s)}: you have a wizard and a relic to play, or do you lack one?"
        wizards, relics = _pairs(s, s.legal_actions())
        if len(relics) == 1 and len(wizards) > 1 and s.current_seat != s.table_seat:  # (on a real table the
            # program does not know the hand: the question names none of it)
            if relics[0] == "none":
                return f"{_round_words(s)}: you have no relic in hand; which wizard do you play face down?"
            return (f"{_round_words(s)}: which wizard do you play face down with {_relic(s, relics[0], False)}, "
                    "your only relic?")
        shrine = f" (the shrine: {d.label(s.shrine[0])})" if s.shrine else ""
        return f"{_round_words(s)}: play a wizard and a relic face down{shrine}"
    if isinstance(top, Choose):
        src = d[top.card].name if top.card else ""
        q = {
            Ask.MULLIGAN: "Set-up, once only: set aside any cards of your opening hand; you draw as many new cards, "
                          "then the cards set aside are shuffled into your deck",
            Ask.ORDER: "You have several enchanted relics: which resolves first?",
            Ask.TRIGGER: f"Your cards' triggers fire together ({FIRED.get(top.what, 'at once')}): you choose the "
                         "order; which resolves first?",
            Ask.TAKE: f"{src}: you may take a card from your discard pile into your hand",
            Ask.PUT: f"{src}: you may put a card from your discard pile on top of your deck",
            Ask.DISCARD_FOR: f"{src}: discard a card from your hand for +{top.n} power? "
                             f"({plural(top.left, 'more card')} at most)",
            Ask.RIVAL_DISCARD: f"{src} (a rival's card): discard {plural(top.left, 'card')} of your choice",
            Ask.IGNORE: f"{src}: which rival relic do you ignore? (it adds no power and its enchantment does not "
                        "resolve)",
            Ask.SILENCE: f"{src}: which rival wizard's ability does not resolve?",
            Ask.EXTRA_RELIC: f"{src}: you may play another relic from your hand (it is revealed and resolves at "
                             "once)",
            Ask.SUMMON: f"{src}: you may put {_summoned(top.what)} into play beside yours",
            Ask.HAND_CHECK: f"Spoils, hand check: you hold {len(s.hands[top.seat])} cards; discard "
                            f"{plural(top.left, 'card')} (down to 7)",
            Ask.SPOILS: "You won the round. Spoils: draw 1 card, or take into your hand a relic a loser played this "
                        "round",
            Ask.SHOW: f"{src}: reveal every {KINDS_OF.get(top.what, 'card')} in your hand, one at a time "
                      f"({len(top.picked)} so far)",
        }
        return q.get(top.ask, "Choose")
    return "Choose"


def _summoned(what: str) -> str:
    """``a Devoted wizard from your hand`` for a summon's filter ``hand:devoted``."""
    src, _, kind = what.partition(":")
    name = KINDS_OF.get(kind, "wizard")
    return f"{'an' if name[0] in 'AEIOUaeiou' else 'a'} {name} from your {'hand' if src == 'hand' else 'discard pile'}"


def heading(s: WizardsAndRelicsState, seat: int) -> str:
    if s.result is not None:
        return "Game over"
    if any(isinstance(x, Setup) for x in s.stack) or s.round == 0:
        return "Set-up"
    phase = "Play"
    for x in s.stack:
        if isinstance(x, Round):
            phase = {RoundStep.PLAY: "Play", RoundStep.REVEAL: "Reveal", RoundStep.COMPARE: "Reveal",
                     RoundStep.VICTORY: "Victory"}.get(x.step, "Spoils")
    tie = f", tie battle {s.battle + 1}" if s.battle and phase in ("Play", "Reveal") else ""
    return f"Round {s.round}: {phase} phase{tie}"


def pending_view(s: WizardsAndRelicsState, seat: int) -> WizardsAndRelicsPendingView:
    """What is being decided, as ``seat`` may know it (another seat's mulligan picks stay hidden)."""
    base = StackGame.pending_view(s, seat)
    if not base:
        return {}
    out: WizardsAndRelicsPendingView = {"who": base["who"], "question": base["question"]}
    if "ask" in base:
        out["ask"] = base["ask"]
    top = s.stack[-1]
    if isinstance(top, Choose):
        if top.ask is Ask.MULLIGAN and top.seat == seat:  # another player's picks are known once they draw
            out["aside"] = sorted(top.picked)
    elif isinstance(top, Setup):
        out["ask"] = "deck" if top.step is SetupStep.DECKS else "setup"
    else:
        out["ask"] = "play"
    return out


# -- the screen ---------------------------------------------------------------------------------------------------
def _e(text: str) -> str:
    return escape(text)


def header(obs: WizardsAndRelicsObservation) -> str:
    """One line: where the game is, the seat, the Master Wizard and how the game is won (shortened to fit 80
    columns as a rule)."""
    me = obs["seat"]
    where = obs["heading"]
    m = obs["master"]
    need = obs["hall_to_win"]
    if "outcome" in obs:
        return f"{where} · you are P{me + 1}"
    you = f"you are P{me + 1}"
    if m == me:
        long, short = f"{you}, the Master Wizard", f"{you}, the Master"
    else:
        long, short = f"{you} · Master Wizard: P{m + 1}", f"{you} · Master: P{m + 1}"
    brief = where.replace(" phase", "").replace("tie battle", "tie")
    tries = [
        f"{where} · {long} · first to {need} wizards in the Hall wins",
        f"{where} · {long} · {need} wizards in the Hall win",
        f"{where} · {short} · {need} wizards in the Hall win",
        f"{brief} · {short} · {need} wizards in the Hall win",
        f"{brief} · {short} · {need} in the Hall win",
    ]
    return next((t for t in tries if len(t) <= HEADER), tries[-1])


def status_lines(d: WizardsAndRelicsData, obs: WizardsAndRelicsObservation) -> list[str]:
    """The table: each player's Hall, hand, deck and discard pile, what they have in play with its total, and the
    round's state of advantage."""
    me = obs["seat"]
    n = obs["players"]
    need = obs["hall_to_win"]
    out = []
    committed = obs["committed"]
    for x in range(n):
        who = " (you)" if x == me else ""
        master = ", Master Wizard" if x == obs["master"] else ""
        out.append(f"[bold]P{x + 1}[/bold]{who}{master}: Hall {len(obs['halls'][x])}/{need} · hand "
                   f"{obs['hand_sizes'][x]} · deck {obs['deck_sizes'][x]} · discard {len(obs['discards'][x])}")
        played = committed.get(str(x), "-")
        if x in obs["fighters"] and not obs["wizards"][x] and not obs["relics"][x] and played != "-":
            if played is None:
                pass  # still choosing
            elif x == me and played != "committed":
                w, r = str(played).split()
                cards = [d.label(c) for c in (w, r) if c != "none"]
                out.append(f"   you have played {_e(' and '.join(cards))} face down")
            else:
                out.append("   has played a wizard and a relic face down")
        elif x in obs["losers"] and obs["fighters"]:
            out.append("   out of this round (not in the tie battle)")
        cards = [f"{_e(d.label(w))}{' (silenced)' if w in obs['silenced'] else ''}" for w in obs["wizards"][x]]
        cards += [f"{_e(d.label(r))}{' (ignored)' if r in obs['ignored'] else ''}" for r in obs["relics"][x]]
        if cards:
            total = obs["totals"].get(str(x))
            adv = obs["advantage"].get(str(x), 0)
            if total is None:
                out.append(f"   played: {', '.join(cards)}")
            else:
                out.append(f"   in play: {', '.join(cards)}; total power {total}"
                           + (f" (advantage +{adv})" if adv else ""))
        if obs["tied"][x]:
            out.append(f"   from tied battles, no longer in play: {_e(', '.join(d.label(c) for c in obs['tied'][x]))}")
        if x != me and obs["known_hand"][x]:
            out.append(f"   known in hand: {_e(', '.join(d.label(c) for c in obs['known_hand'][x]))}")
    if obs["no_advantage"]:
        by = ", ".join(d[c].name for c in obs["equalized"])
        out.append(f"No wizard has advantage this round{' (' + _e(by) + ')' if by else ''}")
    if obs["last_totals"] and not obs["totals"]:
        out.append("Last battle's totals: " + ", ".join(f"P{int(k) + 1} {v}" for k, v in obs["last_totals"].items()))
    out.append("Advantage, +1 power: " + ", ".join(f"{a} beats {b}" for a, b in BEATS.items()))
    if "outcome" in obs:
        out.append(f"[bold]{_e(obs['outcome']['reason'])}[/bold]")
    return out


def _by_kind(d: WizardsAndRelicsData, cards: Sequence[str]) -> list[str]:
    """Wizards first, then relics, each strongest first."""
    return sorted(cards, key=lambda c: (d[c].kind != "wizard", -d[c].power, c))


def _count(d: WizardsAndRelicsData, cards: Sequence[str]) -> str:
    w = sum(1 for c in cards if d.is_wizard(c))
    return f"{plural(len(cards), 'card')}: {plural(w, 'wizard')}, {plural(len(cards) - w, 'relic')}"


def hand_lines(d: WizardsAndRelicsData, obs: WizardsAndRelicsObservation) -> list[str]:
    hand = obs["hand"]
    out = [f"[bold]Your hand[/bold] ({_count(d, hand)})" if hand else "Your hand is empty"]
    out += [_e(card_line(d, c)) for c in _by_kind(d, hand)]
    pend = obs["pending"]
    aside = pend.get("aside")
    if pend.get("ask") == "mulligan" and aside:
        out.append("Set aside so far: " + _e(", ".join(d.label(c) for c in aside)))
    return out


def shrine_lines(d: WizardsAndRelicsData, obs: WizardsAndRelicsObservation) -> list[str]:
    if not obs["shrine"]:
        return ["No shrine is in play yet: one is revealed as each round begins."]
    sh = obs["shrine"][0]
    return [f"[bold]Shrine: {_e(d.label(sh))}[/bold], for {_e(AFFECTS[d[sh].affects])}: {_e(d.spoken(sh))}"]


def deck_lines(d: WizardsAndRelicsData, obs: WizardsAndRelicsObservation) -> list[str]:
    me = obs["seat"]
    if obs["chosen_deck"][me] < 0:
        return ["You have not chosen a deck yet: the four decks are dealt face down."]
    deck = obs["my_deck"]
    out = [f"[bold]Your deck[/bold] ({_count(d, deck)}): you know its cards, not their order"]
    top = obs["known_top"][me]
    if top:
        out.append(f"On top, as everyone saw: {_e(', '.join(d.label(c) for c in top))}")
    out += [_e(card_line(d, c)) for c in _by_kind(d, deck)]
    return out


def piles_lines(d: WizardsAndRelicsData, obs: WizardsAndRelicsObservation) -> list[str]:
    out = ["The Halls of Immortality and the discard piles (face up: everyone sees them); "
           f"{plural(obs['shrine_pile'], 'shrine')} left in the shrine pile"]
    for x in range(obs["players"]):
        hall = obs["halls"][x]
        pile = obs["discards"][x]
        out.append(f"P{x + 1}'s Hall ({len(hall)}/{obs['hall_to_win']}): "
                   f"{_e(', '.join(d.label(c) for c in hall)) or 'empty'}")
        out.append(f"P{x + 1}'s discard pile ({len(pile)}): " + (
            f"{_e(', '.join(d.label(c) for c in pile[:-1]))}{', ' if len(pile) > 1 else ''}top: {_e(d.label(pile[-1]))}"
            if pile else "empty"))
    return out


def _key(*parts: object) -> str:
    return json.dumps(parts, sort_keys=True)


def screen(d: WizardsAndRelicsData, obs: WizardsAndRelicsObservation) -> Screen:
    """The seat's screen: the header, then the panels ``shrine``, ``status`` and ``hand`` (shown again when what
    matters in them changes), ``deck`` and ``piles`` (on request)."""
    status_key = _key(obs["round"], obs["battle"], [len(h) for h in obs["halls"]], obs["wizards"], obs["relics"],
                      obs["tied"], obs["totals"], obs["advantage"], obs["ignored"], obs["silenced"],
                      obs["no_advantage"], obs["last_totals"], obs["known_hand"], "outcome" in obs)
    panels = (  # (nothing to show by itself during the set-up: no shrine, the decks face down, no hand yet)
        Panel("shrine", "the shrine in play", tuple(shrine_lines(d, obs)),
              key=_key(obs["shrine"]) if obs["shrine"] else None),
        Panel("status", "the table", tuple(status_lines(d, obs)), key=status_key if obs["round"] else None),
        Panel("hand", "your hand", tuple(hand_lines(d, obs)),
              key=_key(obs["hand"]) if obs["hand"] else None),
        Panel("deck", "your deck", tuple(deck_lines(d, obs))),
        Panel("piles", "the Halls and discard piles", tuple(piles_lines(d, obs))),
    )
    return Screen(header(obs), panels)


def view(d: WizardsAndRelicsData, obs: WizardsAndRelicsObservation) -> list[str]:
    """The whole table as the seat sees it (rich markup): the header, the table, the shrine, the hand and the piles."""
    return [f"[bold]{_e(header(obs))}[/bold]", *status_lines(d, obs), *shrine_lines(d, obs), *hand_lines(d, obs),
            *piles_lines(d, obs)]


def look(d: WizardsAndRelicsData, obs: WizardsAndRelicsObservation, query: str) -> list[str] | None:
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
    text = d.spoken(hit)
    if text:
        lines.append(escape(text))
    elif c.kind == "wizard":
        lines.append(f"Devoted {c.power}: base power {c.power}, no ability")
    else:
        lines.append(f"Basic relic: adds {c.power} power, no enchantment")
    lines.append(escape(where(d, obs, hit)))
    return lines


def where(d: WizardsAndRelicsData, obs: WizardsAndRelicsObservation, card: str) -> str:
    """Where the card is, as the seat may know it."""
    me = obs["seat"]
    if card in obs["hand"]:
        return "It is in your hand."
    if card in obs["shrine"]:
        return "It is the shrine in play."
    for x in range(obs["players"]):
        who = "your" if x == me else f"P{x + 1}'s"
        for cards, place in ((obs["halls"][x], "Hall of Immortality"), (obs["discards"][x], "discard pile"),
                             (obs["wizards"][x], "battle"), (obs["relics"][x], "battle"),
                             (obs["tied"][x], "tied battles this round")):
            if card in cards:
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
