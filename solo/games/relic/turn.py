"""A turn of Relic (relic.txt, Turn Sequence): the start of the turn, Movement (roll one die, or play a Power card's
number instead; choose a direction; movement boxes), Exploration (draw Threat cards up to the icons), Engagement
(``battle.py``), Experience (``experience.py``) and the end of the turn.

Action keys of the Movement phase: ``cw`` / ``acw`` (the direction), ``jump`` / ``pass`` (a movement box),
``rift`` / ``pass`` (the Guardian of the Rift's box, with a relic), ``more`` / ``stop`` (extra spaces at the end);
once the move is made, ``play X`` / ``charge X`` / ``use X`` for an ability that adds spaces (Forced March: "move up
to 2 more spaces in the same direction", played after the movement roll, as its words say) or ``stop``.
"""

from __future__ import annotations

from wizprint.solo.kernel import Action

from .battle import run_engagement
from .data import COLOURS, still_needed
from .dice import roll_for
from .experience import run_experience
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
    PHASE_ENGAGEMENT,
    PHASE_EXPERIENCE,
    PHASE_EXPLORATION,
    PHASE_MOVEMENT,
    PHASE_START,
    RIFT,
    ROLL_MOVE,
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
    Engagement,
    Experience,
    Movement,
    NextTurn,
    Turn,
)
from .plays import may_play, play, plays
from .state import RULES, RelicState


@RULES.run(NextTurn)
def run_next_turn(s: RelicState, f: NextTurn) -> bool:
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
    s.start_turn(f.seat)
    return False


@RULES.run(Turn)
def run_turn(s: RelicState, f: Turn) -> bool:
    """The steps of the turn in order, each entered from the one before. A step that pushes nothing goes on to the
    next at once: ``advance`` would run the same item next (the game goes on, no turn is cut short, the item is still
    on top), without going round its loop; a step that pushed something ends the run unless all that was pushed is
    done (the other runners do the same). A step whose abilities and cards push nothing goes on without asking.

    The turn does not go on at once when the game is over, the turn was cut short, or something now waits on the
    stack above it (``advance`` runs that first): that test is written out at each step, as in the other runners
    (a call fewer at every step of every turn)."""
    p = f.seat
    st = f.step
    if st == TURN_START:
        f.step = TURN_MOVEMENT
        s.phase = PHASE_START
        items = s.whens(p, "turn_start")
        if items:
            s.push_timed(p, items, "turn_start")
            if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
                return False  # anything else runs next (what ``advance`` would run)
        st = TURN_MOVEMENT
    if st == TURN_MOVEMENT:
        f.step = TURN_EXPLORATION
        s.phase = PHASE_MOVEMENT
        mv = Movement(seat=p)
        s.stack.append(mv)
        if run_movement(s, mv):  # what ``advance`` would run next (the same seat)
            return True
        if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
            return False
        st = TURN_EXPLORATION
    if st == TURN_EXPLORATION:
        f.step = TURN_ENGAGEMENT
        s.phase = PHASE_EXPLORATION
        explore(s, p)
        here = s.board.get(s.positions[p])
        items = _specials(s, here, "exploration_end") if here else []
        whens = s.whens(p, "exploration_end")
        if items or whens:
            s.push_timed(p, items + whens, "exploration_end")
            if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
                return False
        st = TURN_ENGAGEMENT
    if st == TURN_ENGAGEMENT:
        f.step = TURN_ENGAGEMENT_END
        s.phase = PHASE_ENGAGEMENT
        eng = Engagement(seat=p)
        s.stack.append(eng)
        if run_engagement(s, eng):  # what ``advance`` would run next (the same seat)
            return True
        if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
            return False
        st = TURN_ENGAGEMENT_END
    if st == TURN_ENGAGEMENT_END:
        f.step = TURN_TROPHY_OBJECTIVE
        here = s.board.get(s.positions[p])
        if here:
            s.push_timed(p, _specials(s, here, "engagement_end"), "engagement_end")
            if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
                return False
        st = TURN_TROPHY_OBJECTIVE
    if st == TURN_TROPHY_OBJECTIVE:
        f.step = TURN_EXPERIENCE
        check_trophies(s, p)
        if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
            return False
        st = TURN_EXPERIENCE
    if st == TURN_EXPERIENCE:
        f.step = TURN_END
        s.phase = PHASE_EXPERIENCE
        ex = Experience(seat=p)
        s.stack.append(ex)
        if run_experience(s, ex):  # what ``advance`` would run next (the same seat)
            return True
        if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
            return False
        st = TURN_END
    if st == TURN_END:
        f.step = TURN_DONE
        items = s.whens(p, "turn_end")
        if items:
            s.push_timed(p, items, "turn_end")
            if s.result is not None or s.turn_cut_short or not s.stack or s.stack[-1] is not f:
                return False
    # the turn is over (TURN_DONE)
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
    s.start_turn(p)
    return False


def _specials(s: RelicState, here: list[str], moment: str) -> list[tuple[int, str]]:
    """The abilities of the Threat cards on a space at ``moment`` (``exploration_end``, ``engagement_end``)."""
    C = s.data.cards
    return [(lid, x) for x in here for m, lid in C[x].special if m == moment]


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
            items = s.whens(seat, "movement_start")
            if not items:
                continue  # nothing pushed: the item is still on top and the game goes on
            s.push_timed(seat, items, "movement_start")
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
                if roll_for(s, f, ROLL_MOVE, n):
                    return True
        elif st == MOVE_SCORE:
            if f.rift:
                enter_rift(s, seat, f)
            else:
                f.points = max(1, f.roll + f.bonus)
                s.say(f"{s.who(seat)}'s movement score is {f.points}" + (
                    f" ({f.roll} rolled, {f.bonus:+d} this turn" + (", at least 1" if f.roll + f.bonus < 1 else "") +
                    ")" if f.bonus else ""))
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
            positions, ring, spaces = s.positions, D.ring_steps, D.spaces
            d = f.direction
            while f.points > 0:
                f.points -= 1
                here = positions[seat]
                to = ring[here][d < 0] if d == 1 or d == -1 else s.next_space(here, d)
                # ``enter``, written out: the space entered, its movement bonus, its movement box
                positions[seat] = to
                sp = spaces[to]
                if sp.move_bonus:
                    f.points = max(0, f.points + sp.move_bonus)
                if (sp.jump and f.points >= 1 and sp.jump != to) or (sp.inner and s.can_enter_rift(seat)):
                    f.box = to
                if f.box or f.step != MOVE_MOVING:
                    return bool(f.box)
            if f.extra > 0 or (not f.late and f.direction and may_play(s, seat, "move_end")):
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
    n0, n1, n2 = sp.icons  # what the space needs of each colour, less what it has
    here = s.board.get(sp.id)
    for x in here or ():
        n0, n1, n2 = still_needed(C[x], n0, n1, n2)
    while n0 > 0 or n1 > 0 or n2 > 0:  # one card at a time: a card drawn may bring more icons
        got = ""
        for i, col in enumerate(COLOURS):
            if (n0, n1, n2)[i] > 0:
                got = s.take_top(col)
                if got:
                    break
        if not got:
            break
        if here is None:
            here = s.board[sp.id] = []
        here.append(got)
        drawn.append(got)
        n0, n1, n2 = still_needed(C[got], n0, n1, n2)
    if drawn:
        s.say(f"{s.who(p)} draws {', '.join([s.label(x) for x in drawn])} onto {sp.name}")
