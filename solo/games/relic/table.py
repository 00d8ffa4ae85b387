"""Relic on a real table (``wizprint solo table relic``): where each zone lies, in words, the set-up from the printed
components, and what the engine must know of a table.

Hidden information. Every Relic deck is shared and shuffled face down, so no seat has a deck of its own the program
could keep for the automaton:

- Power cards: the automaton plays with its hand open, face up in front of it; the person deals its cards from the
  Power deck and says which they are. A secret hand drawn from the shared deck could not be kept: the program learns
  a card only from the person, who would have to read it. The person's own Power cards stay secret until played.
- Corruption cards: the activation number decides, in the open, whether a card drawn lies face up (it activates)
  or face down. The person reads the automaton's draws and says which card each is (the automaton plays by the count
  of its face-down cards, as any player would). For the person's own draws the program asks only where the rules
  send the card: face up (then the person names it) or face down (it stays secret).
- Completed missions from the Mission deck lie face down: the automaton's are read and named by the person; the
  person's own stay secret until spent.
- Missions, Relics, Wargear, Threat cards, assets, trophies and the discard piles lie face up: the person names each
  card as it is turned.
- Character sheets: the program deals them (naming the person's two) and keeps the automaton's two and its choice
  until everyone has chosen.

Windows of play. The engine offers a player a moment to play a Power card only when one of their cards can be played
then. The program does not know the person's hand, and an automaton that saw a window open for the person would
learn something of it; at a table the engine opens the person's windows by the Power cards they *may* hold (those no
other seat can see), and the program asks them whether they play one.
"""

from __future__ import annotations

from wizprint.solo.kernel.table import Place, TablePolicy

from .data import DECKS, SEAT_COLOURS, START_INFLUENCE
from .plays import may_hold
from .state import RelicState

POLICY_TEXT = ("Hidden information: every Relic deck is shared and face down, so the automaton plays with its Power "
               "cards open, face up in front of it, and you name each card it draws. You also read the Corruption "
               "cards and completed missions it lays face down (it plays by their count, as anyone would). Your "
               "Power cards stay secret until you play them; for a Corruption card you draw, the program asks only "
               "whether it lies face up or face down. The program keeps the automaton's character choice secret "
               "until you have chosen.")

DECK_WORDS = {"power": "the Power deck", "corruption": "the Corruption deck", "mission": "the Mission deck",
              "relic": "the Relic deck", "wargear": "the Wargear deck", "red": "the red Threat deck",
              "blue": "the blue Threat deck", "yellow": "the yellow Threat deck"}
FILES = {"power": "cards-power.pdf", "corruption": "cards-corruption.pdf", "mission": "cards-mission.pdf",
         "relic": "cards-relic.pdf", "wargear": "cards-wargear.pdf", "red": "cards-threat-red.pdf",
         "blue": "cards-threat-blue.pdf", "yellow": "cards-threat-yellow.pdf"}
# a seat's own cards, by zone: (the person's, after "your"; the automaton's, after "P2's")
SEAT_ZONES = {
    "hand": ("hand of Power cards (secret)", "Power cards (face up in front of it)"),
    "corruption_up": ("face-up Corruption cards", "face-up Corruption cards"),
    "corruption_down": ("face-down Corruption cards (secret)", "face-down Corruption cards"),
    "trophies": ("trophies (face up)", "trophies (face up)"),
    "assets": ("assets (face up)", "assets (face up)"),
    "mission": ("active mission (face up)", "active mission (face up)"),
    "completed": ("completed missions (face up)", "completed missions (face up)"),
    "completed_hidden": ("completed missions from the Mission deck (face down, secret)",
                         "completed missions from the Mission deck (face down)"),
}


def place(zone: str, person: int) -> Place:
    base, _, key = zone.partition(".")
    if base == "deck":
        return Place.HIDDEN
    if base in ("hand", "corruption_down", "completed_hidden") and key == str(person):
        return Place.PERSON
    return Place.PUBLIC


def name(zone: str, person: int) -> str:
    base, _, key = zone.partition(".")
    if base == "deck":
        return DECK_WORDS.get(key, zone)
    if base == "discard":
        return DECK_WORDS[key].replace(" deck", " discard pile (face up)") if key in DECK_WORDS else zone
    if base == "space":
        return f"the board's space {key}"
    if base == "revealed":
        return "the cards laid face up beside the board to choose from"
    words = SEAT_ZONES.get(base)
    if words is None or not key.isdigit():
        return zone
    return f"your {words[0]}" if key == str(person) else f"P{int(key) + 1}'s {words[1]}"


def setup(state: RelicState, person: int) -> list[str]:
    D = state.data
    n = state.players
    scen = D.scenarios[state.scenario]
    mine = " and ".join(f"{c} {D.characters[c].name}" for c in state.dealt[person])
    autos = [f"P{s + 1}" for s in range(n) if s != person]
    colours = ", ".join(f"P{s + 1} {SEAT_COLOURS[s]}" for s in range(n))
    decks = ", ".join(f"{DECK_WORDS[d][4:]} ({FILES[d]})" for d in DECKS)
    them = autos[0] if len(autos) == 1 else ", ".join(autos[:-1]) + " and " + autos[-1]
    return [
        "Set-up: lay out the board (board-poster.pdf, assembled), and the charge and influence tokens (tokens.pdf) "
        "in two piles beside it.",
        f"Scenario: lay the sheet {state.scenario} {scen.name} (sheets-scenario.pdf) face up on the board's centre "
        f"space; the other scenario sheets stay in the box.",
        f"Sort the cards into their eight decks by their backs: {decks}. Shuffle each deck and lay it face down "
        f"beside the board, with room for its discard pile (face up).",
        f"Characters (sheets-character.pdf): take {mine}; you choose one of them when asked. The program has dealt "
        f"two of the other sheets to {them} and keeps its choice secret until everyone has chosen; the sheets "
        f"nobody plays stay in the box.",
        f"When the characters are named, each player takes the character board of their colour ({colours}; "
        f"boards-characters.pdf), slides their sheet into it, sets the dials to the sheet's starting Strength, "
        f"Willpower, Cunning and Life and the level to Start, takes {START_INFLUENCE} influence tokens, and puts a "
        f"character token of their colour on the sheet's starting space. The program then says which Power and "
        f"Mission cards each player draws; P1 takes the first turn.",
    ]


def prepare(state: RelicState, person: int) -> None:
    """The engine learns the person's seat: its windows then open by the Power cards the person may hold."""
    state.table_seat = person


def by_face(zone: str, person: int) -> bool:
    """A Corruption card lands by its activation number: face up (it activates) or face down."""
    return zone == "deck.corruption"


def may_play(state: RelicState, person: int) -> bool:
    """A Power card the person may hold could be played at this decision (the program's samples of their hand
    offer none): one card of their hand exchanged, in a copy, for each kind of card they may hold."""
    if state.current_player != person or not state.hands[person] or not state.stack:
        return False
    hand = state.hands[person]
    for x in may_hold(state, person):
        if x in hand:
            continue
        trial = state.clone()
        trial.hands[person] = [x, *hand[1:]]
        if any(x in (a.a, a.b) for a in trial.legal_actions()):
            return True
    return False


POLICY = TablePolicy(place=place, name=name, setup=setup, policy=POLICY_TEXT, prepare=prepare, may_play=may_play,
                     by_face=by_face)
