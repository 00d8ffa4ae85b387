"""What Wizards & Relics' effect words do: one handler per word in :data:`WORDS`, found by the word, and the
choices they ask (:class:`~.pending.Choose`, registered in :data:`~.state.RULES` with the phases' own choices:
the deck, the mulligan, the order of your relics, the hand check and the spoils).

A handler is ``(state, item, effect)``: ``item`` is the :class:`~.pending.Effects` resolving (``item.seat`` is
"you", ``item.subject`` "your wizard", ``item.card`` the card). "Rival" means a player in the current battle."""

from __future__ import annotations

from collections.abc import Callable

from wizprint.cards.markup import plural
from wizprint.errors import IllegalActionError
from wizprint.solo.kernel import Action, Words
from wizprint.solo.kernel.stack import in_sight

from .data import HAND, Effect
from .pending import Ask, Choose, Effects, Enter, Reveal, Source, Triggers
from .phases import mulligan
from .state import RULES, Mod, WizardsAndRelicsState

Handler = Callable[["WizardsAndRelicsState", Effects, Effect], None]
WORDS: Words[Handler] = Words("wizards-and-relics")
TRIGGERS = {"on_discard", "on_win", "on_lose"}  # words that wait for their moment rather than resolve
UNCAPPED = 99  # a card count no hand reaches: "counted up to" no limit


# -- the runner -----------------------------------------------------------------------------------------------------
def effect_list(s: WizardsAndRelicsState, item: Effects) -> tuple[Effect, ...]:
    if item.source is Source.CARD:
        return s.data[item.card].effects
    return trigger_body(s, item.card, item.source)


@RULES.run(Effects)
def run_effects(s: WizardsAndRelicsState, item: Effects) -> bool:
    card = item.card
    if item.source is not Source.ON_DISCARD and s.nullified(card):  # an ignored relic, a silenced wizard: nothing
        s.stack.pop()  # (a discard trigger belongs to a card in hand or deck, out of play)
        return False
    effs = effect_list(s, item)
    if item.index == 0 and item.source is not Source.CARD:
        what = {Source.ON_DISCARD: "was discarded", Source.ON_WIN: "won the round", Source.ON_LOSE: "lost the round"}
        s.say(f"{s.label(card)} {what[item.source]}: its trigger resolves for P{item.seat + 1}")
    while item.index < len(effs):
        e = effs[item.index]
        item.index += 1
        if e.word in TRIGGERS:
            continue
        depth = len(s.stack)
        WORDS.get(e.word)(s, item, e)
        if len(s.stack) != depth or s.discard_triggers:
            return False
    s.stack.pop()
    return False


@RULES.run(Triggers)
def run_triggers(s: WizardsAndRelicsState, t: Triggers) -> bool:
    """One player's triggers that fired together, one at a time: the player chooses which resolves next while
    the order can matter (:func:`order_matters`), else they resolve in the usual order."""
    if not t.cards:
        s.stack.pop()
        return False
    if order_matters(s, t):
        s.ask(Choose(seat=t.seat, ask=Ask.TRIGGER, what=str(t.source)))
        return False
    s.stack.append(Effects(seat=t.seat, card=t.cards.pop(0), source=t.source))
    return False


def trigger_body(s: WizardsAndRelicsState, card: str, source: Source) -> tuple[Effect, ...]:
    """The effects a card's trigger resolves (empty if it has none of that kind)."""
    trig = s.data[card].has(str(source))
    return trig.then if trig else ()


def order_matters(s: WizardsAndRelicsState, t: Triggers) -> bool:
    """Whether the order of the triggers still to resolve can change anything: two of them do different things
    besides returning their own card to hand (returning itself is the same in any order)."""
    bodies = [b for b in (tuple(e for e in trigger_body(s, c, t.source) if e.word != "recall") for c in t.cards) if b]
    return any(b != bodies[0] for b in bodies[1:])


# -- conditions and counts ----------------------------------------------------------------------------------------
def holds(s: WizardsAndRelicsState, item: Effects, when: str | None) -> bool:
    """Whether the condition ``when`` holds for "you" (``item.seat``) and "your wizard" (``item.subject``)."""
    if not when:
        return True
    d = s.data
    seat = item.seat
    w = item.subject or s.wizard_of(seat)
    wc = d[w] if w else None
    rival_wizards = [x for r in s.rivals(seat) for x in s.wizards[r]]
    if when in ("red", "blue", "green"):
        return wc is not None and wc.colour == when
    if when == "devoted":
        return wc is not None and not wc.effects
    if when == "enlightened":
        return wc is not None and bool(wc.effects)
    if when.startswith("rival_"):
        return any(d[x].colour == when[6:] for x in rival_wizards)
    if when == "advantage":
        return bool(w) and s.has_advantage(w, seat)
    if when == "disadvantage":
        return any(s.has_advantage(x, r) and wc is not None and wc.colour in s.beats(x)
                   for r in s.rivals(seat) for x in s.wizards[r])
    if when == "shrine":
        from .data import affected

        return bool(s.shrine) and wc is not None and affected(d[s.shrine[0]], wc)
    if when == "tie":
        return s.battle > 0
    if when == "behind":
        return any(len(s.halls[r]) > len(s.halls[seat]) for r in s.rivals(seat))
    if when == "master":
        return seat == s.master
    if when == "underdog":
        return wc is not None and any(d[x].power > wc.power for x in rival_wizards)
    return False


def count(s: WizardsAndRelicsState, seat: int, per: str) -> int:
    d = s.data
    if per == "drawn":
        return s.drawn[seat]
    if per == "hand":
        return len(s.hands[seat])
    if per == "relics_discard":
        return sum(1 for c in s.discards[seat] if d.is_relic(c))
    if per == "wizards_discard":
        return sum(1 for c in s.discards[seat] if d.is_wizard(c))
    if per == "hall":
        return len(s.halls[seat])
    if per == "rivals":
        return len(s.rivals(seat))
    if per == "ignored":
        return sum(1 for x in s.fighters for r in s.relics[x] if r in s.ignored)
    return 0


KINDS_OF = {"wizard": "wizard", "relic": "relic", "card": "card", "red": "red wizard", "blue": "blue wizard",
            "green": "green wizard", "enchanted": "Enchanted relic", "devoted": "Devoted wizard", "any": "wizard"}


def matches(s: WizardsAndRelicsState, card: str, what: str) -> bool:
    c = s.data[card]
    if what == "card":
        return True
    if what in ("wizard", "any"):
        return c.kind == "wizard"
    if what == "relic":
        return c.kind == "relic"
    if what in ("red", "blue", "green"):
        return c.kind == "wizard" and c.colour == what
    if what == "devoted":
        return c.kind == "wizard" and not c.effects
    if what == "enchanted":
        return c.kind == "relic" and bool(c.effects)
    return False


def add_power(s: WizardsAndRelicsState, item: Effects, seat: int, n: int, why: str) -> None:
    if n == 0:
        return
    s.mods.append(Mod(seat=seat, n=n, source=item.card, why=why))
    s.say(f"P{seat + 1} {n:+d} power ({s.data[item.card].name}{': ' + why if why else ''}); total now "
          f"{s.table_total(seat)}")


# -- the words ----------------------------------------------------------------------------------------------------
@WORDS("power")
def w_power(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    when = e.get("when")
    if holds(s, item, when):
        add_power(s, item, item.seat, int(e.get("n")), _when_words(when))


def _when_words(when: str | None) -> str:
    if not when:
        return ""
    words = {"red": "a red wizard", "blue": "a blue wizard", "green": "a green wizard", "devoted": "a Devoted wizard",
             "enlightened": "an Enlightened wizard", "rival_red": "facing a red wizard",
             "rival_blue": "facing a blue wizard", "rival_green": "facing a green wizard",
             "advantage": "with advantage", "disadvantage": "at a disadvantage", "shrine": "under the shrine",
             "tie": "in a tie battle", "behind": "behind in the Hall", "master": "the Master Wizard",
             "underdog": "facing a stronger wizard"}
    return words.get(when, when)


@WORDS("power_per")
def w_power_per(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    counted = count(s, item.seat, str(e.get("per")))
    most = e.get("most")
    k = counted if most is None else min(counted, int(most))
    what, where, none = PER[str(e.get("per"))]
    if k:
        add_power(s, item, item.seat, k * int(e.get("n")),
                  f"{plural(counted, what)}{where}" + (f", counted up to {k}" if counted > k else ""))
    else:
        s.say(f"{s.data[item.card].name}: no power (P{item.seat + 1} {none})")


PER = {  # what a power_per counts: the thing, where it is, and the words for none of them
    "drawn": ("card", " drawn this round", "has drawn no card this round"),
    "hand": ("card", " in hand", "has no card in hand"),
    "relics_discard": ("relic", " in their discard pile", "has no relic in their discard pile"),
    "wizards_discard": ("wizard", " in their discard pile", "has no wizard in their discard pile"),
    "hall": ("wizard", " in their Hall", "has no wizard in their Hall"),
    "rivals": ("rival", "", "has no rival"),
    "ignored": ("ignored relic", "", "sees no ignored relic"),
}


@WORDS("weaken")
def w_weaken(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    if not holds(s, item, e.get("when")):
        return
    for r in s.rivals(item.seat):
        add_power(s, item, r, -int(e.get("n")), f"from P{item.seat + 1}")


@WORDS("draw")
def w_draw(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    if holds(s, item, e.get("when")):
        s.draw(item.seat, int(e.get("n")), s.data[item.card].name)


def _choice(s: WizardsAndRelicsState, item: Effects, ask: Ask, what: str = "", left: int = 1, n: int = 0,
            seat: int | None = None) -> None:
    s.ask(Choose(seat=item.seat if seat is None else seat, ask=ask, card=item.card, what=what, left=left, n=n,
                 subject=item.subject))


@WORDS("take", "put")
def w_take_or_put(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    """A card of the kind from your discard pile: into your hand (take) or on top of your deck (put); optional."""
    what = str(e.get("what"))
    if any(matches(s, c, what) for c in s.discards[item.seat]):
        _choice(s, item, Ask.TAKE if e.word == "take" else Ask.PUT, what)
    else:
        s.say(f"{s.data[item.card].name}: P{item.seat + 1} has no {KINDS_OF[what]} in their discard pile")


@WORDS("discard_for")
def w_discard_for(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    if s.hands[item.seat]:
        _choice(s, item, Ask.DISCARD_FOR, left=int(e.get("most")), n=int(e.get("n")))


@WORDS("rival_discards")
def w_rival_discards(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    for r in reversed(s.rivals(item.seat)):
        if s.hands[r]:
            _choice(s, item, Ask.RIVAL_DISCARD, left=int(e.get("n")), seat=r)


@WORDS("discard_top")
def w_discard_top(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    """The top cards one at a time: a deck that runs out is refilled from the discard pile at once."""
    deck = s.decks[item.seat]
    cards: list[str] = []
    for _ in range(int(e.get("n"))):
        if not s.refill(item.seat):
            break
        cards.append(deck[-1])
        s.discard_from_deck(item.seat, deck[-1])
    if not cards:
        s.say(f"P{item.seat + 1} has no card to discard: deck and discard pile are empty")
    else:
        top = "card" if len(cards) == 1 else plural(len(cards), "card")
        s.say(f"P{item.seat + 1} discards the top {top} of their deck: {s.names(cards)}")


@WORDS("on_discard", "on_win", "on_lose")
def w_trigger(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    """A trigger waits for its moment (the runner skips it; see :func:`effect_list`)."""


def ignorable(s: WizardsAndRelicsState, seat: int) -> list[str]:
    return [r for x in s.rivals(seat) if x not in s.steadfast for r in s.relics[x] if r not in s.ignored]


def totals_now(s: WizardsAndRelicsState, before: dict[int, int]) -> str:
    """``; totals now P1 5, P2 7`` when a total changed since ``before``, else nothing."""
    after = {x: s.table_total(x) for x in s.fighters}
    if after == before:
        return ""
    return "; totals now " + ", ".join(f"P{x + 1} {t}" for x, t in after.items())


def ignore(s: WizardsAndRelicsState, relic: str, by: int) -> None:
    before = {x: s.table_total(x) for x in s.fighters}
    s.ignored.append(relic)
    s.take_back(relic)
    s.say(f"P{by + 1} ignores {s.label(relic)}: it adds no power and its enchantment does not count"
          f"{totals_now(s, before)}")


def _rivals_cards(s: WizardsAndRelicsState, item: Effects, e: Effect, opts: list[str],
                  act: Callable[[WizardsAndRelicsState, str, int], None], ask: Ask, nothing: str) -> None:
    """Ignore or silence: every one of ``opts`` ('all', or only one to choose from), else the player chooses."""
    if not opts:
        s.say(f"{s.data[item.card].name}: {nothing}")
    elif e.get("what") == "all" or len(opts) == 1:
        for c in opts:
            act(s, c, item.seat)
    else:
        _choice(s, item, ask)


@WORDS("ignore")
def w_ignore(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    _rivals_cards(s, item, e, ignorable(s, item.seat), ignore, Ask.IGNORE, "no rival relic can be ignored")


@WORDS("steadfast")
def w_steadfast(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    if item.seat not in s.steadfast:
        s.steadfast.append(item.seat)
    s.say(f"P{item.seat + 1}'s relics cannot be ignored this battle")


def silence(s: WizardsAndRelicsState, wizard: str, by: int) -> None:
    before = {x: s.table_total(x) for x in s.fighters}
    s.silenced.append(wizard)
    s.take_back(wizard)
    s.say(f"P{by + 1} silences {s.label(wizard)}: its ability does not resolve{totals_now(s, before)}")


@WORDS("silence")
def w_silence(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    _rivals_cards(s, item, e, silenceable(s, item.seat), silence, Ask.SILENCE,
                  "no rival wizard has an ability to silence")


def silenceable(s: WizardsAndRelicsState, seat: int) -> list[str]:
    return [w for r in s.rivals(seat) for w in s.wizards[r] if w not in s.silenced and s.data[w].effects]


@WORDS("extra_relic")
def w_extra_relic(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    if any(s.data.is_relic(c) for c in s.hands[item.seat]) or unknown_hand(s, item.seat):
        _choice(s, item, Ask.EXTRA_RELIC)


def unknown_hand(s: WizardsAndRelicsState, seat: int) -> bool:
    """Whether ``seat``'s hand lies on a real table (the program does not know it) and holds a card: whether it holds
    a card of a kind is that player's to say."""
    return seat == s.table_seat and bool(s.hands[seat])


@WORDS("summon")
def w_summon(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    src = str(e.get("source"))
    what = str(e.get("what"))
    pool = s.hands[item.seat] if src == "hand" else s.discards[item.seat]
    if any(matches(s, c, what) for c in pool) or (src == "hand" and unknown_hand(s, item.seat)):
        _choice(s, item, Ask.SUMMON, f"{src}:{what}")
    else:
        s.say(f"{s.data[item.card].name}: P{item.seat + 1} has no {KINDS_OF[what]} in their "
              f"{'hand' if src == 'hand' else 'discard pile'}")


@WORDS("equalize")
def w_equalize(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    if item.card not in s.equalized:
        s.equalized.append(item.card)  # taken back if that relic is ignored (``WizardsAndRelicsState.take_back``)
    s.say(f"{s.data[item.card].name}: no wizard has advantage for the rest of this round")


@WORDS("advantage_over")
def w_advantage_over(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    w = item.subject or s.wizard_of(item.seat)
    if not w:
        return
    s.mods.append(Mod(seat=item.seat, source=item.card, colour=str(e.get("colour")), wizard=w))
    colour = str(e.get("colour"))
    s.say(f"{s.label(w)} also has advantage over " + ("wizards of every colour" if colour == "every" else
                                                        f"{colour} wizards"))


@WORDS("reveal_hand")
def w_reveal_hand(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    what = str(e.get("what"))
    most = e.get("most")
    if unknown_hand(s, item.seat):  # the player shows them one at a time, and says when there are no more
        _choice(s, item, Ask.SHOW, what, left=UNCAPPED if most is None else int(most), n=int(e.get("n")))
        return
    shown = sorted(c for c in s.hands[item.seat] if matches(s, c, what))
    for c in shown:
        if c not in s.known_hand[item.seat]:
            s.known_hand[item.seat].append(c)
    if shown:
        s.say(f"P{item.seat + 1} reveals from their hand: {s.names(shown)}")
    revealed(s, item, what, shown, None if most is None else int(most), int(e.get("n")))


def revealed(s: WizardsAndRelicsState, item: Effects, what: str, shown: list[str], most: int | None, n: int) -> None:
    """The power for the cards of kind ``what`` revealed from hand (``most``: counted up to that many)."""
    if not shown:
        s.say(f"P{item.seat + 1} has no {KINDS_OF[what]} in hand to reveal")
    k = len(shown) if most is None else min(len(shown), most)
    add_power(s, item, item.seat, k * n,
              f"{plural(len(shown), KINDS_OF[what])} revealed" + (f", counted up to {k}" if len(shown) > k else ""))


@WORDS("reveal_deck")
def w_reveal_deck(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    """The top cards one at a time, set aside while revealed (a deck that runs out on the way is refilled from
    the discard pile), then put back on top in the same order: every seat knows them."""
    seat = item.seat
    deck = s.decks[seat]
    top: list[str] = []
    for _ in range(int(e.get("count"))):
        if not s.refill(seat):
            break
        top.append(deck.pop())
    known = [c for c in s.known_top[seat] if c not in top]  # (empty if the deck was refilled: reshuffled)
    deck.extend(reversed(top))
    s.known_top[seat] = top + known
    in_sight(s)  # (on a real table, the cards revealed are said where they lie, before a draw may take one)
    what = str(e.get("what"))
    k = sum(1 for c in top if matches(s, c, what))
    s.say(f"P{item.seat + 1} reveals the top of their deck: {s.names(top)}")
    add_power(s, item, item.seat, k * int(e.get("n")), f"{plural(k, KINDS_OF[what])} among them")


@WORDS("recall")
def w_recall(s: WizardsAndRelicsState, item: Effects, e: Effect) -> None:
    c, seat = item.card, item.seat
    for zone in (s.wizards, s.relics, s.tied):
        if c in zone[seat]:
            zone[seat].remove(c)
            s.to_hand(seat, c)
            s.say(f"P{seat + 1} returns {s.label(c)} to their hand")
            return


# -- the choices --------------------------------------------------------------------------------------------------
def _pool(s: WizardsAndRelicsState, ch: Choose) -> list[str]:
    """The cards a choice picks among."""
    seat = ch.seat
    if ch.ask in (Ask.TAKE, Ask.PUT):
        return [c for c in s.discards[seat] if matches(s, c, ch.what)]
    if ch.ask in (Ask.DISCARD_FOR, Ask.RIVAL_DISCARD, Ask.HAND_CHECK, Ask.MULLIGAN):
        return list(s.hands[seat])
    if ch.ask is Ask.IGNORE:
        return ignorable(s, seat)
    if ch.ask is Ask.SILENCE:
        return silenceable(s, seat)
    if ch.ask is Ask.EXTRA_RELIC:
        return [c for c in s.hands[seat] if s.data.is_relic(c)]
    if ch.ask is Ask.SUMMON:
        src, what = ch.what.split(":")
        return [c for c in (s.hands[seat] if src == "hand" else s.discards[seat]) if matches(s, c, what)]
    if ch.ask is Ask.SHOW:
        return [c for c in s.hands[seat] if matches(s, c, ch.what) and c not in ch.picked]
    if ch.ask is Ask.ORDER:
        rv = _reveal(s)
        return [c for c in rv.todo if s.data[c].effects and c not in s.ignored and c not in s.resolved]
    if ch.ask is Ask.TRIGGER:
        return list(_triggers(s).cards)
    if ch.ask is Ask.SPOILS:
        return spoils(s, seat)
    return []


def spoils(s: WizardsAndRelicsState, winner: int) -> list[str]:
    """The relics the winner may take: every relic a loser played this round, in any of its battles."""
    return [c for x in range(s.players) if x != winner for c in (*s.relics[x], *s.tied[x]) if s.data.is_relic(c)]


def _reveal(s: WizardsAndRelicsState) -> Reveal:
    for item in reversed(s.stack):
        if isinstance(item, Reveal):
            return item
    raise IllegalActionError("no reveal is under way")


def _triggers(s: WizardsAndRelicsState) -> Triggers:
    """The triggers a :data:`Ask.TRIGGER` choice orders: the item right below it."""
    item = s.stack[-2] if len(s.stack) > 1 else None
    if not isinstance(item, Triggers):
        raise IllegalActionError("no triggers are waiting to be ordered")
    return item


VERB = {Ask.TAKE: "take", Ask.PUT: "put", Ask.DISCARD_FOR: "discard", Ask.RIVAL_DISCARD: "discard",
        Ask.HAND_CHECK: "discard", Ask.IGNORE: "ignore", Ask.SILENCE: "silence", Ask.EXTRA_RELIC: "play",
        Ask.SUMMON: "summon", Ask.ORDER: "resolve", Ask.TRIGGER: "resolve", Ask.SPOILS: "take",
        Ask.MULLIGAN: "aside", Ask.SHOW: "show"}
MAY_STOP = {Ask.TAKE, Ask.PUT, Ask.DISCARD_FOR, Ask.EXTRA_RELIC, Ask.SUMMON}
ALWAYS = {Ask.SPOILS, Ask.MULLIGAN, Ask.SHOW}  # choices asked even with no card to choose (draw; keep; no more)


def said_at_table(s: WizardsAndRelicsState, ch: Choose) -> bool:
    """A choice of a card from the hand of the table's player (whose hand the program does not know), asked
    whenever the hand holds a card: whether it holds one of the kind is theirs to say (by passing)."""
    hand_src = ch.ask is Ask.EXTRA_RELIC or (ch.ask is Ask.SUMMON and ch.what.startswith("hand:"))
    return hand_src and unknown_hand(s, ch.seat)


@RULES.run(Choose)
def run_choose(s: WizardsAndRelicsState, ch: Choose) -> bool:
    if ch.ask is Ask.HAND_CHECK:  # a discard trigger may have brought cards back: down to 7 all the same
        ch.left = len(s.hands[ch.seat]) - HAND
    if ch.left <= 0 or (ch.ask not in ALWAYS and not _pool(s, ch) and not said_at_table(s, ch)):
        s.stack.pop()
        return False
    s.current_seat = ch.seat
    return True


@RULES.legal(Choose)
def choose_legal(s: WizardsAndRelicsState, ch: Choose) -> list[Action]:
    verb = VERB[ch.ask]
    opts = sorted(set(_pool(s, ch)))
    if ch.ask is Ask.MULLIGAN:
        return [Action("keep")] + [Action("aside", c) for c in opts if c not in ch.picked] + \
               [Action("back", c) for c in sorted(ch.picked)]
    acts = [Action(verb, c) for c in opts]
    if ch.ask is Ask.SHOW and not opts:  # (only when there is none left to show: every one is shown)
        acts.append(Action("done"))
    if ch.ask is Ask.SPOILS:
        acts.insert(0, Action("draw"))
    if ch.ask in MAY_STOP:
        acts.append(Action("stop" if ch.done else "pass"))
    return acts


@RULES.apply(Choose)
def choose_apply(s: WizardsAndRelicsState, ch: Choose, action: Action) -> None:
    seat = ch.seat
    d = s.data
    k, c = action.kind, action.a
    if ch.ask is Ask.MULLIGAN:
        if k == "aside":
            ch.picked.append(c)
        elif k == "back":
            ch.picked.remove(c)
        else:
            s.stack.pop()
            mulligan(s, seat, list(ch.picked))
        return
    if k in ("pass", "stop"):
        s.stack.pop()
        return
    if ch.ask is Ask.SHOW:
        if k == "done":
            s.stack.pop()
            item = Effects(seat=seat, card=ch.card, subject=ch.subject)
            revealed(s, item, ch.what, ch.picked, ch.left, ch.n)
            return
        ch.picked.append(c)
        if c not in s.known_hand[seat]:
            s.known_hand[seat].append(c)
        s.say(f"P{seat + 1} reveals {s.label(c)} from their hand ({d[ch.card].name})")
        return
    ch.left -= 1
    ch.done += 1
    src = d[ch.card].name if ch.card else ""
    if ch.ask is Ask.TAKE:
        s.discards[seat].remove(c)
        s.to_hand(seat, c)
        s.say(f"P{seat + 1} takes {s.label(c)} from their discard pile into their hand ({src})")
    elif ch.ask is Ask.PUT:
        s.discards[seat].remove(c)
        s.decks[seat].append(c)
        s.known_top[seat].insert(0, c)
        s.say(f"P{seat + 1} puts {s.label(c)} from their discard pile on top of their deck ({src})")
    elif ch.ask is Ask.DISCARD_FOR:
        s.discard(seat, c, src)
        item = Effects(seat=seat, card=ch.card)
        add_power(s, item, seat, ch.n, "a card discarded")
    elif ch.ask in (Ask.RIVAL_DISCARD, Ask.HAND_CHECK):
        s.discard(seat, c, src if ch.ask is Ask.RIVAL_DISCARD else "hand check: down to 7")
    elif ch.ask is Ask.IGNORE:
        ignore(s, c, seat)
    elif ch.ask is Ask.SILENCE:
        silence(s, c, seat)
    elif ch.ask is Ask.EXTRA_RELIC:
        s.leave_hand(seat, c)
        s.relics[seat].append(c)
        s.note_play(seat, c)
        s.say(f"P{seat + 1} plays another relic and reveals it: {s.label(c)} ({d.facts(c)})")
        s.replenish(seat)
        s.stack.pop()
        if d[c].effects:
            s.resolved.append(c)
            s.stack.append(Effects(seat=seat, card=c, subject=s.wizard_of(seat)))
        return
    elif ch.ask is Ask.SUMMON:
        src_zone = ch.what.split(":")[0]
        if src_zone == "hand":
            s.leave_hand(seat, c)
        else:
            s.discards[seat].remove(c)
        s.wizards[seat].append(c)
        s.note_play(seat, c)
        s.say(f"P{seat + 1} puts {s.label(c)} into play beside their wizard ({d.facts(c)}; {src})")
        if src_zone == "hand":
            s.replenish(seat)
        s.stack.pop()
        s.stack.append(Enter(seat=seat, wizard=c))
        return
    elif ch.ask is Ask.ORDER:
        rv = _reveal(s)
        rv.todo.remove(c)
        s.resolved.append(c)
        s.stack.pop()
        s.stack.append(Effects(seat=seat, card=c, subject=s.wizard_of(seat)))
        return
    elif ch.ask is Ask.TRIGGER:
        tr = _triggers(s)
        tr.cards.remove(c)
        s.stack.pop()
        s.stack.append(Effects(seat=seat, card=c, source=tr.source))
        return
    elif ch.ask is Ask.SPOILS:
        s.stack.pop()
        if k == "draw":
            s.draw(seat, 1, "spoils")
        else:
            for x in range(s.players):
                for zone in (s.relics, s.tied):
                    if c in zone[x]:
                        zone[x].remove(c)
            s.to_hand(seat, c)
            s.say(f"P{seat + 1} takes {s.label(c)} as spoils")
        return
    if ch.ask in (Ask.TAKE, Ask.PUT, Ask.IGNORE, Ask.SILENCE):
        s.stack.pop()
