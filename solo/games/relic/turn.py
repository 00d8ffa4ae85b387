"""A turn of Relic (relic.txt, Turn Sequence): the start of the turn, Movement (roll one die, or play a Power card's
number instead; choose a direction; movement boxes), Exploration (draw Threat cards up to the icons), Engagement
(``battle.py``), Experience (``experience.py``) and the end of the turn.

Action keys of the Movement phase: ``cw`` / ``acw`` (the direction), ``jump`` / ``pass`` (a movement box),
``rift`` / ``pass`` (the Guardian of the Rift's box, with a relic), ``more`` / ``stop`` (extra spaces at the end);
once the move is made, ``play X`` / ``charge X`` / ``use X`` for an ability that adds spaces (Forced March: "move up
to 2 more spaces in the same direction", played after the movement roll, as its words say) or ``stop``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wizprint.solo.kernel import Action

from .data import COLOURS
from .heroes import check_trophies, visit
from .pending import (
    ACW,
    CW,
    JUMP,
    MORE,
    MOVE_DIRECTION,
    MOVE_DONE,
    MOVE_END,
    MOVE_MOVING,
    MOVE_ROLL,
    MOVE_SCORE,
    MOVE_START,
    MOVE_START_BOX,
    PASS,
    RIFT,
    ROLL_MOVE,
    RULES,
    STOP,
    TURN_DONE,
    TURN_END,
    TURN_ENGAGEMENT,
    TURN_ENGAGEMENT_END,
    TURN_EXPERIENCE,
    TURN_EXPLORATION,
    TURN_MOVEMENT,
    TURN_START,
    TURN_TROPHY_OBJECTIVE,
    Dice,
    Engagement,
    Experience,
    Movement,
    NextTurn,
    Phase,
    Turn,
    TurnStep,
)
from .plays import play, plays

if TYPE_CHECKING:
    from .state import RelicState

_TURN_ORDER = tuple(TurnStep)


@RULES.run(NextTurn)
def run_next_turn(s: RelicState, f: NextTurn) -> bool:
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
    s.start_turn(f.seat)
    return False


@RULES.run(Turn)
def run_turn(s: RelicState, f: Turn) -> bool:
    """The steps of the turn in order. A step that pushes nothing goes on to the next at once: ``advance`` would run
    the same item next (the game goes on, no turn is cut short, the item is still on top), without going round its
    loop; the other runners do the same."""
    p = f.seat
    while True:
        st = f.step
        if st < TURN_DONE:
            f.step = _TURN_ORDER[st + 1]
        if st == TURN_START:
            s.phase = Phase.START
            s.push_timed(p, s.whens(p, "turn_start"), "turn_start")
        elif st == TURN_MOVEMENT:
            s.phase = Phase.MOVEMENT
            s.stack.append(Movement(seat=p))
            return False
        elif st == TURN_EXPLORATION:
            s.phase = Phase.EXPLORATION
            explore(s, p)
            items = [(lid, x) for x in s.board.get(s.positions[p], ()) for m, lid in s.data.cards[x].special
                     if m == "exploration_end"]
            s.push_timed(p, items + s.whens(p, "exploration_end"), "exploration_end")
        elif st == TURN_ENGAGEMENT:
            s.phase = Phase.ENGAGEMENT
            s.stack.append(Engagement(seat=p))
            return False
        elif st == TURN_ENGAGEMENT_END:
            items = [(lid, x) for x in s.board.get(s.positions[p], ()) for m, lid in s.data.cards[x].special
                     if m == "engagement_end"]
            s.push_timed(p, items, "engagement_end")
        elif st == TURN_TROPHY_OBJECTIVE:
            check_trophies(s, p)
        elif st == TURN_EXPERIENCE:
            s.phase = Phase.EXPERIENCE
            s.stack.append(Experience(seat=p))
            return False
        elif st == TURN_END:
            s.push_timed(p, s.whens(p, "turn_end"), "turn_end")
        else:
            if s.stack and s.stack[-1] is f:
                s.stack.pop()
            s.start_turn(p)
            return False
        if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
            return False  # anything else runs next (what ``advance`` would run; see ``run_turn``)


# -- movement ----------------------------------------------------------------------------------------------------
def enter_rift(s: RelicState, seat: int, f: Movement) -> None:
    s.positions[seat] = s.space_of(seat).inner
    s.say(f"{s.who(seat)} enters the Inner tier: {s.data.spaces[s.positions[seat]].name} (the Movement phase ends)")
    f.step = MOVE_END
    s.push_effect_lists(seat, [(lid, src) for lid, src in s.whens(seat, "enter_inner") if src == s.scenario])


def enter(s: RelicState, seat: int, f: Movement, to: str) -> None:
    """Enter a space during the Movement phase; a movement box asks its question."""
    s.positions[seat] = to
    sp = s.data.spaces[to]
    if sp.move_bonus:
        f.points = max(0, f.points + sp.move_bonus)
    if (sp.jump and f.points >= 1 and sp.jump != to) or (sp.inner and s.can_enter_rift(seat)):
        f.box = to


@RULES.run(Movement)
def run_movement(s: RelicState, f: Movement) -> bool:
    seat = f.seat
    D = s.data
    while True:
        st = f.step
        if st == MOVE_START:
            f.step = MOVE_ROLL
            s.push_timed(seat, s.whens(seat, "movement_start"), "movement_start")
        elif st == MOVE_ROLL:
            sp = s.space_of(seat)
            if sp.tier == "centre":
                f.step = MOVE_DONE
            elif sp.tier == "inner":
                s.positions[seat] = sp.next
                s.say(f"{s.who(seat)} moves on to {D.spaces[sp.next].name}")
                f.step = MOVE_END
            else:
                f.step = MOVE_SCORE
                n = s.movement_dice(seat)
                if n > 1 and s.stats is not None:
                    s.note_used(seat, [a for a in s.assets[seat] if D.cards[a].passives.movement_dice == n][:1])
                s.stack.append(Dice(seat=seat, context=ROLL_MOVE, count=n))
                return False
        elif st == MOVE_SCORE:
            if f.rift:
                enter_rift(s, seat, f)
            else:
                f.points = max(1, f.roll + f.bonus)
                s.say(f"{s.who(seat)}'s movement score is {f.points}")
                f.step = MOVE_START_BOX
                sp = s.space_of(seat)
                if sp.jump and sp.jump != sp.id:
                    f.box = sp.id
                    return True
                f.step = MOVE_DIRECTION
                return True
        elif st in (MOVE_START_BOX, MOVE_DIRECTION):
            return True  # a decision: the start box's jump, or the direction
        elif st == MOVE_MOVING:
            if f.box:
                return True
            positions, ring = s.positions, D.ring_steps
            d = f.direction
            while f.points > 0:
                f.points -= 1
                here = positions[seat]
                enter(s, seat, f, ring[here][d < 0] if d == 1 or d == -1 else s.next_space(here, d))
                if f.box or f.step != MOVE_MOVING:
                    return bool(f.box)
            if f.extra > 0 or (not f.late and f.direction and plays(s, seat, "move_end")):
                return True
            f.step = MOVE_END
        elif st == MOVE_END:
            f.step = MOVE_DONE
            s.say(f"{s.who(seat)} ends the Movement phase on {D.spaces[s.positions[seat]].name}")
            visit(s, seat)
        else:
            if s.stack and s.stack[-1] is f:
                s.stack.pop()
            return False
        if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
            return False  # anything else runs next (what ``advance`` would run; see ``run_turn``)


@RULES.legal(Movement)
def movement_legal(s: RelicState, f: Movement) -> list[Action]:
    if f.step == MOVE_START_BOX:
        return [JUMP, PASS]
    if f.step == MOVE_DIRECTION:
        return [CW, ACW]
    if f.box:
        if s.data.spaces[f.box].inner:
            return [RIFT, PASS]
        return [JUMP, PASS]
    if f.extra > 0:
        return [MORE, STOP]
    return [STOP, *plays(s, f.seat, "move_end")]


def _jump(s: RelicState, seat: int, f: Movement) -> None:
    D = s.data
    to = D.spaces[f.box].jump
    f.box = ""
    f.points -= 1
    s.say(f"{s.who(seat)} spends a movement point to move to {D.spaces[to].name}")
    enter(s, seat, f, to)
    f.step = MOVE_DIRECTION if f.points > 0 else MOVE_MOVING


@RULES.apply(Movement)
def movement_apply(s: RelicState, f: Movement, a: Action) -> None:
    seat = f.seat
    k = a.kind
    if f.step == MOVE_START_BOX:
        if k == "jump":
            _jump(s, seat, f)
        else:
            f.box = ""
            f.step = MOVE_DIRECTION
    elif f.step == MOVE_DIRECTION:
        f.direction = 1 if k == "cw" else -1
        f.step = MOVE_MOVING
        s.say(f"{s.who(seat)} moves {'clockwise' if k == 'cw' else 'anticlockwise'}")
    elif f.box:
        if k == "jump":
            _jump(s, seat, f)
        elif k == "rift":
            f.box = ""
            enter_rift(s, seat, f)
        else:
            f.box = ""
    elif k == "more":
        f.extra -= 1
        enter(s, seat, f, s.next_space(s.positions[seat], f.direction))
        s.say(f"{s.who(seat)} moves one more space, to {s.data.spaces[s.positions[seat]].name}")
    elif k == "stop":
        f.extra = 0
        f.late = True
    else:
        play(s, seat, a)


# -- exploration -------------------------------------------------------------------------------------------------
def explore(s: RelicState, p: int) -> None:
    """Draw Threat cards onto the player's space until it holds a card of each colour per threat icon (the
    space's icons and those on the cards)."""
    C = s.data.cards
    sp = s.space_of(p)
    if sp.tier not in ("outer", "middle"):
        return
    drawn: list[str] = []
    need = list(sp.icons)
    have = [0, 0, 0]

    def count(x: str) -> None:
        c = C[x]
        have[COLOURS.index(c.deck)] += 1
        icons = c.icons
        need[0] += icons[0]
        need[1] += icons[1]
        need[2] += icons[2]

    for x in s.board.get(sp.id, ()):
        count(x)
    while True:  # one card at a time: a card drawn may bring more icons
        got = ""
        for i, col in enumerate(COLOURS):
            if need[i] > have[i]:
                got = s.take_top(col)
                if got:
                    s.board.setdefault(sp.id, []).append(got)
                    drawn.append(got)
                    count(got)
                    break
        if not got:
            break
    if drawn:
        s.say(f"{s.who(p)} draws {', '.join(s.label(x) for x in drawn)} onto {sp.name}")
