"""The Experience phase (relic.txt, Experience, Levels, Relics, Missions): spend trophies for levels (each level's
rewards from the character sheet), three completed missions for a relic, draw a Mission when none is active,
discard down to the Power and asset limits. Also the pending work of drawing Corruption and Mission cards.

The phase asks only when it offers a real choice (``_chosen``): levels, a relic, an ability of the phase (or, over
a limit, a card of any time to play rather than discard); a discard below the limits comes with these, never alone
(it is almost never worth a card).

Action keys: ``spend X`` / ``unspend X`` (set trophy X aside to spend, or take it back), ``level N`` (spend the
trophies set aside, for the N levels they are worth; with none set aside, the cheapest trophies worth N levels),
``relic``, ``discard X``, ``end``, ``mission X`` (the mission to keep), ``take X`` (a relic, in ``questions.py``).

Spending trophies (relic.txt, Experience Phase, 1. Spend Trophies: "They may spend any number of trophies; however,
any excess trophy points above multiples of six are lost"): the player chooses the trophies. They set aside the
ones they mean to spend, one by one, and then spend them; points above a multiple of six are lost, as the rulebook
says, and the option says so before they choose it.
"""

from __future__ import annotations

from wizprint.solo.kernel import Action, one_per_design

from .data import MAX_LEVEL, RELIC_MISSIONS, RELIC_REVEAL, TROPHY_POINTS
from .heroes import activate_mission, check_level, complete_from_deck, corruption_step, discard_owned
from .pending import (
    END,
    EXPERIENCE_LIMITS,
    EXPERIENCE_MISSION,
    EXPERIENCE_SPEND,
    LEVEL_CHECK,
    LEVEL_RAISE,
    LEVEL_TRIGGERS,
    DrawCorruption,
    DrawMission,
    Experience,
    LevelUp,
    TakeRelic,
)
from .plays import may_hold, play, plays
from .state import RULES, RelicState


def aside_points(s: RelicState, f: Experience) -> int:
    """The trophy points of the trophies set aside to spend (those still held)."""
    C, held = s.data.cards, s.trophies[f.seat]
    return sum([C[x].value for x in f.aside if x in held])


def _trophy_options(s: RelicState, f: Experience) -> list[Action]:
    """Levels for trophies, when the seat's trophies are worth a level: spend the set-aside ones (or, with none set
    aside, the cheapest worth N levels), set one more aside, take one back."""
    seat = f.seat
    trophies = s.trophies[seat]
    if not trophies:
        return []  # no points
    pts = s.trophy_points(seat)
    if pts < TROPHY_POINTS:
        return []
    aside = f.aside
    if aside:
        n = aside_points(s, f) // TROPHY_POINTS
        out = [Action("level", str(n))] if n else []
        out += [Action("spend", x) for x in one_per_design([x for x in trophies if x not in aside])]
        out += [Action("unspend", x) for x in aside]
    else:
        out = [Action("level", str(n)) for n in range(1, pts // TROPHY_POINTS + 1)]
        out += [Action("spend", x) for x in one_per_design(trophies)]
    return out


def _relic_ok(s: RelicState, seat: int) -> bool:
    return s.completed_count(seat) >= RELIC_MISSIONS and bool(s.decks["relic"] or s.discards["relic"])


def _options(s: RelicState, f: Experience) -> list[Action]:
    """What the Experience phase offers besides ending it: levels for trophies, a relic, abilities that can be played
    in it; with any of its real choices (``_chosen``), never on their own, the discards it allows below the
    limits."""
    seat = f.seat
    chosen = _chosen(s, f)
    if not chosen and (seat != s.table_seat or not _chosen(s, f, opening=True)):
        return [END]  # (at a table, the phase asks by the cards the person may hold: its discards come with it)
    out = [END, *[a for a in chosen if a.kind in ("level", "spend", "unspend", "relic")], *plays(s, seat, "exp")]
    hand, assets = s.hands[seat], s.assets[seat]
    if hand:
        out += [Action("discard", x) for x in one_per_design(hand)]
    if assets:
        out += [Action("discard", x) for x in sorted(assets)]
    return out


def _chosen(s: RelicState, f: Experience, opening: bool = False) -> list[Action]:
    """The Experience phase's real choices: levels for trophies (and the trophies set aside), three completed missions
    for a relic, the Power cards, charges and uses whose ability belongs to this phase, and, over a limit, the Power
    cards and uses of any time (played rather than discarded). An ability of any time was offered in the windows of
    the turn already, and comes again next turn: alone it is no reason to stop, nor is removing Corruption without
    any. A discard below the limits ("a player may also choose to discard Power cards and assets", relic.txt,
    Discard Excess Cards) is almost never worth a card (the limits themselves are enforced after, the player choosing
    the discards): it is offered only with these. ``opening``: whether the phase asks at all, the Power cards counted
    as ``may_hold`` counts them."""
    seat = f.seat
    out = _trophy_options(s, f)
    if _relic_ok(s, seat):
        out.append(Action("relic"))
    hand, assets = s.hands[seat], s.assets[seat]
    if hand or assets:
        over_p = len(hand) > s.power_limit(seat)
        over_a = len(assets) > s.asset_limit(seat)
        D = s.data
        for a in plays(s, seat, "exp", hand=may_hold(s, seat) if opening else None):
            c = D.cards[a.a]
            if a.kind == "play":
                lids, own, over = [c.effects], c.timing == "experience", over_p
            else:
                abilities = c.passives.charge if a.kind == "charge" else c.passives.use
                lids = [lid for _, lid in abilities]
                own, over = any(m == "experience" for m, _ in abilities), a.kind == "use" and over_a
            if all(D.purpose(lid) == "remove_corruption" for lid in lids) and not s.corruption(seat):
                continue
            if own or over:
                out.append(a)
    return out


@RULES.run(Experience)
def run_experience(s: RelicState, f: Experience) -> bool:
    seat = f.seat
    while True:
        st = f.step
        if st == EXPERIENCE_SPEND:
            if _chosen(s, f, opening=True):
                return True
            f.step = EXPERIENCE_MISSION
        elif st == EXPERIENCE_MISSION:
            f.step = EXPERIENCE_LIMITS
            if not s.missions[seat]:
                s.stack.append(DrawMission(seat=seat, count=1))
                return False
        else:
            hand, assets = s.hands[seat], s.assets[seat]  # (a limit is never below 0)
            if (hand and len(hand) > s.power_limit(seat)) or (assets and len(assets) > s.asset_limit(seat)):
                return True
            if s.stack and s.stack[-1] is f:
                s.stack.pop()
            return False
        if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
            return False  # anything else runs next (what ``advance`` would run; see ``run_turn``)


@RULES.legal(Experience)
def experience_legal(s: RelicState, f: Experience) -> list[Action]:
    seat = f.seat
    if f.step == EXPERIENCE_SPEND:
        return _options(s, f)
    if len(s.hands[seat]) > s.power_limit(seat):
        return [Action("discard", x) for x in one_per_design(s.hands[seat])]
    return [Action("discard", x) for x in sorted(s.assets[seat])]


def trophies_for(s: RelicState, seat: int, levels: int) -> list[str]:
    """The trophies to spend for ``levels`` levels: the set worth the fewest points that is enough."""
    C = s.data.cards
    need = TROPHY_POINTS * levels
    items = sorted(s.trophies[seat], key=lambda x: (C[x].value, x))
    best: dict[int, tuple[str, ...]] = {0: ()}
    for x in items:
        v = C[x].value
        for tot, combo in list(best.items()):
            t2 = tot + v
            if t2 not in best or len(best[t2]) > len(combo) + 1:
                best[t2] = (*combo, x)
    ok = sorted(t for t in best if t >= need)
    return list(best[ok[0]]) if ok else []


@RULES.apply(Experience)
def experience_apply(s: RelicState, f: Experience, a: Action) -> None:
    seat = f.seat
    k = a.kind
    if k == "end":
        f.step = EXPERIENCE_MISSION
        f.aside = ()
    elif k == "discard":
        discard_owned(s, seat, a.a, "down to the limits" if f.step == EXPERIENCE_LIMITS else "")
    elif k == "spend":
        f.aside = (*f.aside, a.a)
    elif k == "unspend":
        f.aside = tuple(x for x in f.aside if x != a.a)
    elif k == "level":
        n = int(a.a)
        spend = [x for x in f.aside if x in s.trophies[seat]] if f.aside else trophies_for(s, seat, n)
        f.aside = ()
        for x in spend:
            s.trophies[seat].remove(x)
            s.discard(x)
        pts = sum(s.data.cards[x].value for x in spend)
        lost = pts - n * TROPHY_POINTS
        s.say(f"{s.who(seat)} spends {len(spend)} {'trophy' if len(spend) == 1 else 'trophies'} worth {pts} points "
              f"({', '.join(s.label(x) for x in spend)}) for {n} {'level' if n == 1 else 'levels'}" +
              (f"; {lost} {'point is' if lost == 1 else 'points are'} lost" if lost else ""))
        for _ in range(n):
            s.push(LevelUp(seat=seat, why="trophies spent"))
    elif k == "relic":
        _buy_relic(s, seat)
    else:
        play(s, seat, a)


def _buy_relic(s: RelicState, seat: int) -> None:
    spent = []
    for _ in range(RELIC_MISSIONS):
        x = s.completed[seat].pop(0) if s.completed[seat] else s.completed_hidden[seat].pop(0)
        s.discards["mission"].append(x)
        spent.append(x)
    s.say(f"{s.who(seat)} spends the completed missions {', '.join(s.label(x) for x in spent)}")
    for _ in range(RELIC_REVEAL):
        x = s.take_top("relic")
        if x:
            s.revealed.append(x)
    if len(s.revealed) == 1:
        take_relic(s, seat, s.revealed[0])
    elif s.revealed:
        s.say(f"{s.who(seat)} reveals {', '.join(s.label(x) for x in s.revealed)}")
        s.push(TakeRelic(seat=seat))


def take_relic(s: RelicState, seat: int, x: str) -> None:
    """The player keeps relic ``x``; the others revealed are shuffled back into the deck."""
    s.revealed.remove(x)
    s.gain_asset(seat, x)
    s.note_play(seat, x)
    s.say(f"{s.who(seat)} takes the relic {s.label(x)}")
    if s.revealed:
        s.decks["relic"].extend(s.revealed)
        s.revealed = []
        s.rng.shuffle(s.decks["relic"])


@RULES.run(LevelUp)
def run_level_up(s: RelicState, f: LevelUp) -> bool:
    seat = f.seat
    st = f.step
    if st == LEVEL_RAISE:
        f.step = LEVEL_TRIGGERS
        if s.level[seat] >= MAX_LEVEL:
            s.say(f"{s.who(seat)} is already level {MAX_LEVEL}: a completed mission instead")
            if s.stack and s.stack[-1] is f:
                s.stack.pop()
            complete_from_deck(s, seat, 1)
            return False
        s.level[seat] += 1
        s.say(f"{s.who(seat)} reaches level {s.level[seat]}" + (f": {f.why}" if f.why else ""))
        s.push_effects(seat, s.data.characters[s.characters[seat]].rewards[s.level[seat] - 1], s.characters[seat],
                       f"the level {s.level[seat]} reward of the {s.data.characters[s.characters[seat]].name}")
    elif st == LEVEL_TRIGGERS:
        f.step = LEVEL_CHECK
        s.push_whens(seat, "level_up")
    else:
        if s.stack and s.stack[-1] is f:
            s.stack.pop()
        check_level(s, seat)
    return False


# -- drawing Corruption and Mission cards ------------------------------------------------------------------------
@RULES.run(DrawCorruption)
def run_draw_corruption(s: RelicState, f: DrawCorruption) -> bool:
    seat = f.seat
    if f.count <= 0 or s.eliminated[seat]:
        if s.stack and s.stack[-1] is f:
            s.stack.pop()
        return False
    f.count -= 1
    if corruption_step(s, seat, f.why):
        f.count = 0  # corrupted: the rest of the draw is not made
    return False


@RULES.run(DrawMission)
def run_draw_mission(s: RelicState, f: DrawMission) -> bool:
    seat = f.seat
    if f.drawn:
        return True
    if f.count <= 0 or s.eliminated[seat]:
        if s.stack and s.stack[-1] is f:
            s.stack.pop()
        return False
    f.count -= 1
    x = s.take_top("mission")
    if not x:
        if s.stack and s.stack[-1] is f:
            s.stack.pop()
        s.say("The Mission deck is empty: no Mission card is drawn")
        return False
    s.note_draw(seat, x)
    if s.missions[seat]:
        f.drawn = x
        s.revealed.append(x)
        s.say(f"{s.who(seat)} draws the Mission {s.label(x)} and must keep one mission")
        return True
    activate_mission(s, seat, x)
    return False


@RULES.legal(DrawMission)
def draw_mission_legal(s: RelicState, f: DrawMission) -> list[Action]:
    return [Action("mission", x) for x in sorted((s.missions[f.seat], f.drawn))]


@RULES.apply(DrawMission)
def draw_mission_apply(s: RelicState, f: DrawMission, a: Action) -> None:
    seat = f.seat
    new = f.drawn
    f.drawn = ""
    s.revealed.remove(new)
    if a.a == new:
        old = s.missions[seat]
        s.discards["mission"].append(old)
        s.say(f"{s.who(seat)} discards the mission {s.label(old)}")
        activate_mission(s, seat, new)
    else:
        s.discards["mission"].append(new)
        s.say(f"{s.who(seat)} keeps the mission {s.label(s.missions[seat])}")
