"""Relic's pending work: each step of the turn that takes several moves (the turn itself, a movement, a roll, the
Engagement phase, a battle, a skill test, the Experience phase...) and each question an effect asks is a small
typed object on the state's stack, with an enum for its step. The handlers are registered by type in ``RULES``
(``state.py``): look for ``@RULES.run(Battle)`` to find the code of a kind (``battle.py``, ``turn.py``, ``dice.py``,
``experience.py``, ``effects.py``, ``questions.py``).

Effect lists are named by their number in the data (``RelicData.effects(n)``); cards by instance id; seats are
0-based.
"""

from __future__ import annotations

import enum
from typing import TypeVar

from wizprint.solo.kernel import Action, Declared, Pending, declare, value

P = TypeVar("P", bound=Pending)

# the moves without a card or a choice in them, made once (a move is a value: equal moves are the same move)
PASS, ROLL, END, STOP, CW, ACW, JUMP, RIFT, MORE = (Action(k) for k in (
    "pass", "roll", "end", "stop", "cw", "acw", "jump", "rift", "more"))


# Each step enum's members are also module constants (``TURN_START``...), which the handlers compare steps with:
# Python 3.11 looks enum members up slowly on their class (``EnumType.__getattr__``), and the state's loop compares
# steps millions of times in a game.
class Phase(enum.StrEnum):
    """The phase of the turn (or of the game)."""

    SELECT = "select"  # the secret, simultaneous character choice
    START = "start"
    MOVEMENT = "movement"
    EXPLORATION = "exploration"
    ENGAGEMENT = "engagement"
    EXPERIENCE = "experience"
    OVER = "over"


(PHASE_SELECT, PHASE_START, PHASE_MOVEMENT, PHASE_EXPLORATION, PHASE_ENGAGEMENT, PHASE_EXPERIENCE,
 PHASE_OVER) = tuple(Phase)


class RollKind(enum.StrEnum):
    """What a roll is for; the value is also the timing window it opens."""

    MOVE = "move"
    BATTLE = "battle"
    TEST = "test"


(ROLL_MOVE, ROLL_BATTLE, ROLL_TEST) = tuple(RollKind)


@declare
class RelicPending(Pending):
    """Every kind of Relic's pending work belongs to a seat: the one who decides while it waits."""

    seat: int = 0


@declare
class Rolling(RelicPending):
    """A kind that a roll reports to (a movement, a battle, a skill test)."""

    roll: int = 0  # the total of the player's roll (exploded dice included)
    ones: bool = False  # every die showed 1 (a natural 1)
    dice: tuple[int, ...] = ()  # every die of the roll


# -- the turn ----------------------------------------------------------------------------------------------------
@declare
class NextTurn(RelicPending):
    """The turn of ``seat`` has ended early (vanquished, corrupted, missing a turn): the next one starts."""

    kind = "next_turn"


class TurnStep(enum.IntEnum):
    START = 0  # "at the start of your turn" abilities
    MOVEMENT = 1
    EXPLORATION = 2
    ENGAGEMENT = 3
    ENGAGEMENT_END = 4  # "at the end of the Engagement phase" abilities of the Threat cards here
    TROPHY_OBJECTIVE = 5  # trophy objectives are checked
    EXPERIENCE = 6
    END = 7  # "at the end of your turn" abilities
    DONE = 8


(TURN_START, TURN_MOVEMENT, TURN_EXPLORATION, TURN_ENGAGEMENT, TURN_ENGAGEMENT_END, TURN_TROPHY_OBJECTIVE,
 TURN_EXPERIENCE, TURN_END, TURN_DONE) = tuple(TurnStep)


@declare
class Turn(RelicPending):
    kind = "turn"
    step: TurnStep = TurnStep.START


class MoveStep(enum.IntEnum):
    START = 0  # "at the start of the Movement phase" abilities
    ROLL = 1  # the Inner tier moves one space; elsewhere the movement roll
    SCORE = 2  # the movement score (or the Warp Rift entered before rolling)
    START_BOX = 3  # decide: the start space's movement box
    DIRECTION = 4  # decide: clockwise or anticlockwise
    MOVING = 5  # space by space; decide on movement boxes and extra spaces
    END = 6  # the end of the Movement phase: objective tokens and visits
    DONE = 7


(MOVE_START, MOVE_ROLL, MOVE_SCORE, MOVE_START_BOX, MOVE_DIRECTION, MOVE_MOVING, MOVE_END,
 MOVE_DONE) = tuple(MoveStep)


@declare
class Movement(Rolling):
    kind = "movement"
    step: MoveStep = MoveStep.START
    bonus: int = 0  # added to the movement score this turn
    points: int = 0  # movement points left
    direction: int = 0  # 1 clockwise, -1 anticlockwise
    extra: int = 0  # spaces the player may still move at the end
    rift: bool = False  # the player entered the Warp Rift from the Guardian's space before rolling
    box: str = ""  # the space whose movement box waits for a decision
    late: bool = False  # the player declined the window after the move (Forced March: "move up to 2 more spaces")


class DiceStep(enum.IntEnum):
    BEFORE = 0  # decide: roll, or a Power card's number (or play abilities)
    ROLLED = 1  # decide: keep the roll or reroll a die
    KEEP = 2  # the roll stands: movement keeps one die, battle and test dice explode
    CHOOSE_DIE = 3  # decide: which movement die to keep
    EXPLODE = 4  # each 6 adds a die: rolled, or a Power card's number


(DICE_BEFORE, DICE_ROLLED, DICE_KEEP, DICE_CHOOSE_DIE, DICE_EXPLODE) = tuple(DiceStep)


@declare
class Dice(RelicPending):
    """A roll of the player's dice; the total goes to the kind beneath it (:class:`Rolling`)."""

    kind = "dice"
    context: RollKind = RollKind.MOVE
    count: int = 1
    step: DiceStep = DiceStep.BEFORE
    values: tuple[int, ...] = ()
    exploded: tuple[int, ...] = ()  # the dice added by sixes
    explosions: int = 0  # sixes whose extra die is still to come
    number_card: str = ""  # the Power card played for its number instead of the roll


# -- engagement and battles --------------------------------------------------------------------------------------
class EngagementStep(enum.IntEnum):
    START = 0  # "at the start of the Engagement phase" abilities
    WINDOW = 1  # decide: go on, attempt the objective, or play abilities
    RESOLVE = 2  # the Inner tier's boxes, the Threat cards here, or the text boxes
    CHOOSE_BOX = 3  # decide: one of the text boxes (choose one), or none
    DONE = 9


(ENGAGEMENT_START, ENGAGEMENT_WINDOW, ENGAGEMENT_RESOLVE, ENGAGEMENT_CHOOSE_BOX,
 ENGAGEMENT_DONE) = tuple(EngagementStep)


@declare
class Engagement(RelicPending):
    kind = "engagement"
    step: EngagementStep = EngagementStep.START


class ThreatStep(enum.IntEnum):
    EVENTS = 1
    BATTLES = 2
    ENCOUNTERS = 3
    ASSETS = 4


(THREAT_EVENTS, THREAT_BATTLES, THREAT_ENCOUNTERS, THREAT_ASSETS) = tuple(ThreatStep)


@declare
class Threats(RelicPending):
    """The Threat cards on the player's space, resolved in the rulebook's order."""

    kind = "threats"
    step: ThreatStep = ThreatStep.EVENTS
    resolved: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()


@declare
class DiscardAfter(RelicPending):
    """An encounter that says it leaves is discarded once it has resolved."""

    kind = "discard_after"
    card: str = ""
    space: str = ""


class BattleStep(enum.IntEnum):
    START = 0  # "at the start of the battle" abilities
    PREPARE = 1  # decide: Prepare for Battle (weapon, armour, abilities) or go on
    ENEMY_ROLL = 2
    PLAYER_ROLL = 3
    COMPARE = 4


(BATTLE_START, BATTLE_PREPARE, BATTLE_ENEMY_ROLL, BATTLE_PLAYER_ROLL, BATTLE_COMPARE) = tuple(BattleStep)


@declare
class Battle(Rolling):
    """A battle against the enemies ``foes`` (Threat cards), or against a foe printed on a box (no cards)."""

    kind = "battle"
    step: BattleStep = BattleStep.START
    foes: tuple[str, ...] = ()
    attribute: int = 0  # index into ATTRS
    value: int = 0  # a printed foe's value
    foe_name: str = ""
    on_win: int = 0  # a printed foe's effects when the player wins, and loses
    on_lose: int = 0
    weapon: str = ""  # the Wargear whose bonuses count this battle
    armour: str = ""
    weapon_locked: bool = False  # a weapon's charge was spent: it is the one that counts
    armour_locked: bool = False
    bonus: int = 0  # added to the player's score this battle
    enemy_roll: int = 0
    source: str = ""  # a printed foe: the space, card or scenario it is printed on


@declare
class TakeTrophies(RelicPending):
    kind = "trophies"
    foes: tuple[str, ...] = ()


@declare
class LoseLife(RelicPending):
    """A lost battle costs 1 Life (after the enemies' penalties)."""

    kind = "lose_life"
    why: str = ""  # the battle lost, for the log


@declare
class EndEngagement(RelicPending):
    kind = "end_engagement"


class SkillTestStep(enum.IntEnum):
    START = 0
    RESOLVE = 1


(TEST_START, TEST_RESOLVE) = tuple(SkillTestStep)


@declare
class SkillTest(Rolling):
    kind = "test"
    step: SkillTestStep = SkillTestStep.START
    attribute: int = 0
    target: int = 0
    on_pass: int = 0
    on_fail: int = 0
    mission: str = ""  # the mission whose objective this test attempts
    bonus: int = 0
    source: str = ""  # the space, card or scenario that asks for the test


# -- experience, corruption and missions -------------------------------------------------------------------------
class ExperienceStep(enum.IntEnum):
    SPEND = 0  # decide: levels, a relic, abilities, discards, or end
    MISSION = 1  # a Mission card when none is active
    LIMITS = 2  # decide: discard down to the Power and asset limits


(EXPERIENCE_SPEND, EXPERIENCE_MISSION, EXPERIENCE_LIMITS) = tuple(ExperienceStep)


@declare
class Experience(RelicPending):
    kind = "experience"
    step: ExperienceStep = ExperienceStep.SPEND
    aside: tuple[str, ...] = ()  # the trophies the player has set aside to spend for levels


class LevelStep(enum.IntEnum):
    RAISE = 0
    TRIGGERS = 1
    CHECK = 2


(LEVEL_RAISE, LEVEL_TRIGGERS, LEVEL_CHECK) = tuple(LevelStep)


@declare
class LevelUp(RelicPending):
    kind = "level_up"
    step: LevelStep = LevelStep.RAISE
    why: str = ""  # what gives the level, for the log


@declare
class DrawCorruption(RelicPending):
    kind = "draw_corruption"
    count: int = 0
    why: str = ""


@declare
class DrawMission(RelicPending):
    kind = "draw_mission"
    count: int = 0
    drawn: str = ""  # a Mission drawn while one is active: decide which to keep
    why: str = ""


@declare
class Effects(RelicPending):
    """An effect list resolving one effect at a time."""

    kind = "effects"
    effects: int = 0
    index: int = 0
    source: str = ""  # the card, space, character or scenario it is printed on
    why: str = ""  # what makes it happen, for the log ("" : said from the source)


# -- questions: an effect waits for the seat's decision ----------------------------------------------------------
@declare
class Question(RelicPending):
    """A decision an effect asks of ``seat``."""


@declare
class May(Question):
    kind = "may"
    effects: int = 0
    source: str = ""
    why: str = ""


@declare
class Pay(Question):
    kind = "pay"
    cost: int = 0
    effects: int = 0
    source: str = ""
    why: str = ""


@declare
class Choose(Question):
    kind = "choose"
    options: tuple[int, ...] = ()  # an effect list per option
    source: str = ""
    why: str = ""


@declare
class ChooseAttribute(Question):
    kind = "choose_attribute"
    options: tuple[str, ...] = ()
    amount: int = 0
    gain: bool = True  # gain, or lose
    highest: str = ""  # "highest" or "lowest" when the choice breaks a tie; "" any attribute
    why: str = ""


@declare
class ChargeTarget(Question):
    kind = "charge_target"
    amount: int = 0
    why: str = ""


@declare
class DiscardCards(Question):
    kind = "discard"
    what: str = ""  # power, corruption, trophy, asset, or a deck of assets
    count: int = 0
    why: str = ""


@declare
class Purge(Question):
    """Remove Corruption cards of the player's choice."""

    kind = "purge"
    count: int = 0
    why: str = ""


@declare
class MoveAny(Question):
    kind = "move_any"
    tier: str = ""
    why: str = ""


@declare
class BuyPower(Question):
    kind = "buy_power"
    price: int = 0
    source: str = ""  # the space or card that sells them


@declare
class BuyWargear(Question):
    kind = "buy_wargear"
    source: str = ""


@declare
class TakeRelic(Question):
    kind = "take_relic"


@declare
class WarpSkip(Question):
    kind = "warp_skip"


@declare
class OrderAbilities(Question):
    """Abilities with the same timing word: the active player chooses which resolves first."""

    kind = "order"
    effects: tuple[int, ...] = ()
    sources: tuple[str, ...] = ()


@declare
class Corrupted(Question):
    """Corrupted: start a new character, or lose the game."""

    kind = "corrupted"


# -- the last battle or test ------------------------------------------------------------------------------------
@value
class LastResult(Declared):
    """The last battle or skill test (for the view and scenario files)."""

    result: int = 0  # 1 won or passed, -1 lost or failed, 0 a tie
    roll: int = 0  # the player's roll

    def as_dict(self) -> dict[str, int]:
        return {"result": self.result, "roll": self.roll}


@value
class BattleResult(LastResult):
    kind = "battle"
    player: int = 0  # the player's battle score
    enemy: int = 0
    enemy_roll: int = 0
    seat: int = 0  # whose battle it was
    foe: str = ""  # the enemies' names
    attribute: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"player": self.player, "enemy": self.enemy, "roll": self.roll, "enemy_roll": self.enemy_roll,
                "result": self.result}


@value
class SkillTestResult(LastResult):
    kind = "test"
    score: int = 0
    target: int = 0
    seat: int = 0  # whose test it was
    attribute: int = 0
    what: str = ""  # the test in words ("the Willpower 8 test at Underhive Sump-Market")

    def as_dict(self) -> dict[str, int]:
        return {"test": self.score, "target": self.target, "result": self.result, "roll": self.roll}


KINDS: tuple[type[RelicPending], ...] = (
    NextTurn, Turn, Movement, Dice, Engagement, Threats, DiscardAfter, Battle, TakeTrophies, LoseLife, EndEngagement,
    SkillTest, Experience, LevelUp, DrawCorruption, DrawMission, Effects, May, Pay, Choose, ChooseAttribute,
    ChargeTarget, DiscardCards, Purge, MoveAny, BuyPower, BuyWargear, TakeRelic, WarpSkip, OrderAbilities, Corrupted)
