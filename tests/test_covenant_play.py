"""Covenant as a person reads it in `wizprint solo play`: every question, every option, every line of the
view and of the log in words (no engine dict, frame key, enum name or internal code), `look` of every card, and the
questions of the response windows naming what they are about."""

from __future__ import annotations

import functools
import re
from collections import Counter
from io import StringIO
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from wizprint.solo.agents import RandomAgent, make_agent
from wizprint.solo.games.covenant import CovenantState
from wizprint.solo.games.covenant.pending import QuestStep, TheftStep
from wizprint.solo.games.covenant.texts import duel_strength, gist, offer, printed, quest_strength
from wizprint.solo.kernel import Action, Chance, engine

ENGINE = engine("covenant")
DATA = ENGINE.data
# what must never reach a player (as tests/test_play_screens.py), and numbers whose noun disagrees with them
RAW = re.compile(r"\{|\}|'k':|\bst=|\bkind=|\b[A-Z][a-z]+(Step|Phase)\.|\(h\d\)|\(d\d+\)|scry \(\d\)|<[a-z_]+>|"
                 r"\bNone\b|\[/?[a-z ]+\]|\b1 (cards|dice|turns|participants)\b|"
                 r"\b([02-9]|\d\d+) (card|turn|participant)\b|Roll \d+ a die|\bh\d\b|\bd\d\d?\b")
# the options that offer a card from hand: what it does is shown in a few words (a card cast on a target: what it does
# to it; an answer to a window: the card's name, the question says what it does)
OFFERS = ("cast", "play", "summon", "attach", "quest", "bonus", "danger", "discard")
ANSWERS = ("negate", "reroll", "heal")


@functools.cache  # the same markup renders the same (a raise is not cached): most view lines repeat
def rendered(markup: str) -> str:
    """A line of rich markup as the terminal shows it (raises on markup that does not parse)."""
    out = StringIO()
    Console(file=out, width=80, highlight=False, color_system=None).print(Text.from_markup(markup))
    return out.getvalue()


_READ: set[str] = set()  # texts found to be words already: the same line at the next step is not read again


def words(text: str, where: str) -> None:
    if text in _READ:
        return
    m = RAW.search(text)
    assert m is None, f"{m.group(0)!r} in {where}: {text!r}"
    assert "…" not in text, f"a text cut short in {where}: {text!r}"
    assert all("  " not in line.strip() for line in text.split("\n")), f"two spaces in {where}: {text!r}"
    _READ.add(text)


def setup(players: int = 2, dice: tuple[int, ...] = (), **table: Any) -> CovenantState:
    s = ENGINE.setup(table, players, 1, "", Chance(dice=dice, strict=True))
    assert isinstance(s, CovenantState)
    return s


def do(s: CovenantState, *keys: str, dice: tuple[int, ...] = ()) -> None:
    s.script(dice=dice)
    for k in keys:
        s.apply_key(k)


def option(s: CovenantState, key: str) -> str:
    a = next(a for a in s.legal_actions() if a.key == key)
    return s.describe(a)


def log(s: CovenantState) -> list[str]:
    return s.log_texts()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_read_as_words(players: int) -> None:
    """Many seeded games (random and automaton seats): each question, each option, each line of the view (for the
    seat deciding, every few steps for every seat) and of the log reads as words, never cut with '…'; an option that
    offers a card shows what it does; the questions of every kind of decision come up."""
    kinds: Counter[str] = Counter()
    plain_read: set[str] = set()
    for seed in range(14):
        s = ENGINE.new_state(players, seed)
        bots = [RandomAgent(seed * 7 + i) if (seed + i) % 2 else make_agent("automaton", ENGINE, seed + i)
                for i in range(players)]
        step = 0
        while not s.is_terminal():
            seat = s.current_player
            top = s.pending
            kinds[type(top).__name__ + (f".{top.step.name}" if hasattr(top, "step") else "") if top else
                  f"phase.{s.phase}"] += 1
            q = s.question()
            assert q and q != "Choose", f"no question for {top!r}"
            words(q, "a question")
            for a in s.legal_actions():
                d = s.describe(a)
                words(d, f"the option {a.key}")
                if a.kind in OFFERS + ANSWERS:
                    assert DATA.label(a.a) in d, f"{a.key}: {d!r} does not name the card"
                if a.kind in OFFERS and (a.kind not in ("cast", "play") or not a.b) and gist(DATA, a.a):
                    assert gist(DATA, a.a) in d, f"{a.key}: {d!r} does not say what the card does"
            for t in range(players) if step % 9 == 0 else (seat,):
                for line in ENGINE.view(s.observation(t)):
                    if step % 50 == 0:
                        words(rendered(line), "the view")
                    elif line not in plain_read:  # a line of markup shows the same plain text each time
                        words(Text.from_markup(line).plain, "the view")
                        plain_read.add(line)
            s.apply(bots[seat].choose(s, seat))
            step += 1
        for line in ENGINE.view(s.observation(0)):
            words(rendered(line), "the last view")
        for text in s.log_texts():
            words(text, "the log")
            assert "pass" not in text or re.fullmatch(r"P\d passes", text), text
    asked = {k.split(".")[0] for k in kinds}
    assert {"Negation", "Roll", "Slaying", "Theft", "BonusWindow", "TrapsWindow", "Quest", "Choice"} <= asked, kinds
    assert {"phase.event", "phase.duel", "phase.summon", "phase.adventure"} <= set(kinds), kinds


def test_each_card_offered_fits_one_row_of_an_option() -> None:
    """A card as an option names it and says what it does in a few words, never cut: at most 76 columns (a row of
    80 after the option's number)."""
    for c in DATA.cards:
        text = offer(DATA, c)
        assert len(text) <= 76 and "…" not in text, text
        assert text.startswith(DATA.label(c))


def test_look_every_card_by_id_and_by_name() -> None:
    s = ENGINE.new_state(2, 5)
    obs = s.observation(0)
    for c, info in DATA.cards.items():
        for q in {c, info.design, info.design.lower(), info.name, info.name.upper()[:6]}:
            found = ENGINE.look(obs, q)
            assert found, f"look {q} found nothing"
            text = " ".join(rendered(x) for x in found)
            words(text, f"look {q}")
        found = ENGINE.look(obs, c)
        assert found is not None
        text = " ".join(" ".join(rendered(x).split()) for x in found)
        assert info.design in text and info.name in text
        assert printed(DATA, c) in text  # the whole rules text
        assert len(found) >= 3  # the title, the text, where it is
    for nothing in ("", "zz", "W99", "Q100", "[bold]", "no such card"):
        assert ENGINE.look(obs, nothing) is None
    duel = ENGINE.look(obs, "D01")
    assert duel is not None and "Both roll three dice" in " ".join(duel)
    scry = ENGINE.look(obs, "scry")
    assert scry is not None and "top 5 cards" in " ".join(scry)


def test_look_tells_where_a_card_is_only_as_the_seat_knows_it() -> None:
    s = setup(hands=[["S04", "R01"], ["R04", "S07", "W01"]], in_play=[["W10+I05"], ["W11"]], discard=["Q01"],
              phase="event")
    def where(seat: int, card: str) -> str:
        found = ENGINE.look(s.observation(seat), card)
        assert found is not None
        return " ".join(found[2:])

    assert where(0, "S04") == "In your hand."
    assert where(0, "R04") == "Out of sight (in the deck or in a rival's hand)."  # P2's hand: P1 has not seen it
    assert where(1, "R04") == "In your hand."
    assert where(1, "I05") == "In play: attached to P1's W10 Mentalist."
    assert where(0, "W10").startswith("In play: your wizard, with I05 Staff of Power")
    assert where(0, "Q01") == "On the discard pile (the top card)."
    do(s, "cast S04 1", "pass")  # Divination: P1 sees P2's hand; P2 may not negate it
    assert where(0, "R04") == "In P2's hand (you saw it there)."
    assert where(1, "R04") == "In your hand (P1 knows it is there)."
    view = [rendered(x) for x in ENGINE.view(s.observation(0))]
    assert any("You saw in P2's hand: R04 Menagerie, S07 Healing, W01 Magician" in " ".join(v.split())
               for v in view), view
    view = [rendered(x) for x in ENGINE.view(s.observation(1))]
    assert any("P1 knows you hold R04 Menagerie, S07 Healing, W01 Magician" in " ".join(v.split()) for v in view)
    assert "P1 looks at P2's hand (3 cards) with S04 Divination" in log(s)
    assert "you see in P2's hand: R04 Menagerie, S07 Healing and W01 Magician" in s.log_texts(0)
    assert "you see in P2's hand: R04 Menagerie, S07 Healing and W01 Magician" not in s.log_texts(1)


def test_probability_shift_question_names_the_roll() -> None:
    """The reroll window says whose roll, its number and what it is for (a player took it for the event
    menu and turned their own 5 into a 2)."""
    s = setup(players=3, hands=[["Q03", "R01"], ["S20"], ["R02"]], in_play=[["W03"], ["W05"], ["W10"]],
              phase="adventure")
    do(s, "quest Q03", "pass", "pass", dice=(2, 2, 1))  # seats 1 and 2 pass on Tricks & Traps; Danger 5
    assert s.current_player == 1
    assert s.question() == ("P1 rolled 5 on three dice for the Danger of Q03 Banish the Demon in round 1: make P1 roll "
                            "again with Probability Shift (the new roll stands), or let it stand?")
    assert option(s, "pass") == "pass: let the roll stand"
    assert option(s, "reroll S20") == "roll again with S20 Probability Shift"
    way = s.observation(1)["under_way"]
    assert way == ["P1's quest Q03 Banish the Demon, round 1 of 2, with W03 Sorcerer: Danger 5; Quest Level bonus +1"]
    view = " ".join(rendered(x) for x in ENGINE.view(s.observation(1)))
    assert "Under way: P1's quest Q03 Banish the Demon" in " ".join(view.split())
    # a wizard action's roll: what it needs
    s = setup(hands=[[], ["S20"]], in_play=[["W03"], ["W10"]], phase="event")
    do(s, "act W03 conjuror", "pass", dice=(5,))  # seat 1 passes on Alter Reality; the die shows 5
    assert s.question() == ("P1 rolled 5 on a die for W03 Sorcerer's Conjuror action (4 or more draws a card): make "
                            "P1 roll again with Probability Shift (the new roll stands), or let it stand?")
    do(s, "pass")
    assert log(s)[4:7] == ["P1 rolls 5: W03 Sorcerer's Conjuror action (4 or more draws a card)", "Roll P1's 5 again?",
                           "P2 passes"]
    assert "P1 draws 1 card (W03 Sorcerer's Conjuror roll of 5)" in log(s)


def test_duel_questions_give_the_totals() -> None:
    s = setup(hands=[["D01", "R01"], ["S20", "S11"]], in_play=[["W08"], ["W12", "W03"]], phase="duel")
    do(s, "duel W08 1", "pass")  # seat 1 may cancel the duel; it passes
    assert s.question() == ("Your W08 Elementalist (duel roll +2) challenges you to a Wizards Duel: which of your "
                            "wizards answers?".replace("Your", "P1's"))
    assert option(s, "answer W12") == "W12 Druid answers (duel roll +1)"
    do(s, "answer W12", dice=(3, 3, 3))
    assert s.question().startswith("P1 rolled 9 on three dice for W08 Elementalist in the duel (11 with its +2): ")
    do(s, "pass", "pass", dice=(4, 4, 4))  # P2, then P1, let P1's 9 (+2) stand; P2 rolls 12 (+1)
    assert s.question().startswith("P2 rolled 12 on three dice for W12 Druid in the duel (13 with its +1, against "
                                   "11): make P2 roll again with a card")
    do(s, "pass")
    assert s.question().startswith("You rolled 12 on three dice for W12 Druid in the duel (13 with its +1, against "
                                   "11): roll again with Probability Shift")
    do(s, "pass")
    assert s.question() == ("The duel stands at 11 (you) to 13 (P2); the lower total is slain: add a card to your "
                            "total, or pass?")
    do(s, "pass")
    assert s.question() == ("The duel stands at 13 (you) to 11 (P1); the lower total is slain: add Fireball to your "
                            "total, or pass?")
    assert option(s, "bonus S11") == "cast S11 Fireball (+1 to a duel or quest roll)"
    do(s, "bonus S11", "pass")  # P1 may Dispell the Fireball (it holds a card); it passes
    assert "P2's duel total gets +1: S11 Fireball" in log(s)


def test_window_questions_and_log_lines_give_their_causes() -> None:
    s = setup(players=3, hands=[["S17", "R01"], ["R02"], ["S18", "S07"]], in_play=[["W03"], ["W05"], ["W11+I05"]],
              phase="event")
    assert option(s, "cast S17 W11") == "cast S17 Poison Potion: slay P3's W11 Battle Mage"
    do(s, "cast S17 W11")
    assert s.question() == ("P1 casts S17 Poison Potion on P3's W11 Battle Mage: cancel it with a card, or let it "
                            "resolve?")
    do(s, "pass")
    assert s.question() == ("P1 casts S17 Poison Potion on your W11 Battle Mage: cancel it with Dispell, or let it "
                            "resolve?")
    assert option(s, "negate S18") == "cancel it with S18 Dispell"
    assert option(s, "pass") == "pass: let it resolve"
    do(s, "pass")
    assert s.question() == "Your W11 Battle Mage would be slain (S17 Poison Potion): save it with Healing?"
    assert option(s, "heal S07") == "save it with S07 Healing"
    do(s, "pass")
    lines = log(s)
    # each run of passes after a line saying what was passed
    assert lines[-7:] == ["P1 casts S17 Poison Potion on P3's W11 Battle Mage", "Cancel P1's S17 Poison Potion?",
                          "P2 passes", "P3 passes", "Save P3's W11 Battle Mage?", "P3 passes",
                          "P3's W11 Battle Mage is slain, and with it I05 Staff of Power: S17 Poison Potion"]


def test_theft_questions() -> None:
    s = setup(hands=[["S01"], ["R01"]], in_play=[["W03", "W01"], ["W10+I05", "F10"]], phase="event")
    do(s, "cast S01 I05", "pass")
    top = s.pending
    assert top is not None and getattr(top, "step", None) is TheftStep.GUARD
    assert s.question() == ("P1 would take your I05 Staff of Power: discard Guardian Beast instead to keep it, or let "
                            "it go?")
    assert option(s, "guard F10") == "discard F10 Guardian Beast to keep I05 Staff of Power"
    assert option(s, "pass") == "pass: let it be taken"
    do(s, "pass")
    assert s.question() == "You take P2's I05 Staff of Power: which of your wizards carries it?"
    assert option(s, "to W01") == "W01 Magician carries it"
    do(s, "to W01")
    assert log(s)[-1] == "P1 takes P2's I05 Staff of Power (S01 Dimension Door); W01 Magician carries it"


def test_quest_questions() -> None:
    s = setup(hands=[["Q01"], ["E02", "R01"]], in_play=[["W01+I01", "W06", "F04"], []], phase="adventure")
    assert option(s, "quest Q01") == "go on Q01 Slay the Dragon (7 VP; Quest Level +2)"
    do(s, "quest Q01")
    assert s.question().startswith("Who goes on Q01 Slay the Dragon? Add wizards and followers one at a time")
    assert option(s, "join F04") == "F04 Champion joins the quest (Quest Level +2)"  # +1, and +1 on Slay the Dragon
    do(s, "join F04")
    assert option(s, "join W01") == "W01 Magician joins the quest (Quest Level +5)"  # 1 + 2 Adventurer + 2 Ship
    do(s, "join W01", "join W06")
    # +2 for Slay the Dragon, +2 for W06 Shapechanger (1 and Nature)
    assert option(s, "go") == "set out with F04 Champion, W01 Magician and W06 Shapechanger (Quest Level +11)"
    do(s, "go")
    assert s.question() == ("P1 goes on Q01 Slay the Dragon with F04 Champion, W01 Magician and W06 Shapechanger: "
                            "raise its Danger with Tricks & Traps, or pass?")
    assert option(s, "danger E02") == "play E02 Tricks & Traps (Danger +2 on a rival's quest)"
    do(s, "pass", dice=(6, 6, 3, 1, 1))  # Danger 15 against 2 + 11: two points over, three participants
    top = s.pending
    assert top is not None and getattr(top, "step", None) is QuestStep.LOSSES
    assert s.question() == ("Round 1 of Q01 Slay the Dragon: the Danger beat the Quest Level: choose who is slain "
                            "(2 more participants)")
    assert ("Round 1 of Q01 Slay the Dragon: Danger 15, Quest Level 13 (2 rolled, +11 bonuses): 2 participants to be "
            "slain") in log(s)
    assert option(s, "slay W01") == "W01 Magician is slain"


def test_the_view_shows_each_wizard_s_bonuses_as_the_engine_counts_them() -> None:
    for seed in range(6):
        s = ENGINE.new_state(3, seed)
        agent = RandomAgent(seed)
        while not s.is_terminal():
            for seat in range(3):
                for w in s.wizards[seat]:
                    att = s.attached.get(w, [])
                    granted = s.granted.get(w, ())
                    assert duel_strength(DATA, w, att, granted) == s.duel_strength(w)
                    # a wizard alone on a quest with no quest bonus for its followers: 1 + its own bonuses
                    followers = [a for a in att if DATA.cards[a].type == "follower"]
                    if not followers:
                        assert 1 + quest_strength(DATA, w, att, granted) == s.quest_bonus("Q03", [w])
            s.apply(agent.choose(s, s.current_player))


def test_phase_questions_and_options() -> None:
    s = setup(hands=[["S04", "W03", "R04", "D01"], ["R01"]], in_play=[["W10", "R03"], ["W11"]], phase="event")
    assert s.question() == ("Your Event phase: cast a spell or use a resource; or end the phase (the Duel phase comes "
                            "next)")
    assert option(s, "grant R03 W10") == "R03 Observatory gives W10 Mentalist Scry until the turn ends"
    do(s, "grant R03 W10")
    assert "P1's R03 Observatory gives W10 Mentalist Scry until the turn ends" in log(s)
    assert option(s, "act W10 scry:1") == "use W10 Mentalist's Scry action: see P2's hand (1 card)"
    assert option(s, "act W10 scry:deck") == "use W10 Mentalist's Scry action: see the top 5 cards of the deck"
    assert option(s, "end") == "end the Event phase"
    do(s, "end")
    assert s.question().startswith("Your Duel phase: challenge a rival to a Wizards Duel")
    assert option(s, "duel W10 1") == "W10 Mentalist (duel roll +2) challenges P2 (W11 Battle Mage +2)"
    do(s, "end")
    assert option(s, "summon R04") == "summon R04 Menagerie (2 VP)"
    assert option(s, "summon W03") == "summon W03 Sorcerer (Conjuror: action, 4+ on a die draws a card)"
    assert s.observation(0)["heading"] == "turn 1: your Summon phase"
    assert s.observation(1)["heading"] == "turn 1: P1's Summon phase"


def test_a_research_discard_says_how_many() -> None:
    s = setup(hands=[["W01", "W02", "W03", "W04", "W05", "W06", "W07", "W08", "W09"], []], deck=["W10"])
    assert s.question() == "Research: you hold 10 cards and your hand limit is 8: discard 2 cards, one at a time"
    assert option(s, "discard W01") == "discard W01 Magician (Adventurer: quest +2; an extra Wizard summon)"
    do(s, "discard W01")
    assert s.question() == "Research: you hold 9 cards and your hand limit is 8: discard 1 card"
    assert "P1 discards W01 Magician: over the hand limit of 8" in log(s)


def test_every_describe_of_an_unknown_position_still_reads() -> None:
    """An action described outside its window (a bot's or a test's) still gives words."""
    s = setup(hands=[["S04"], []], in_play=[["W10"], []], phase="event")
    for a in (Action("pass"), Action("target", "none"), Action("join", "W10"), Action("go")):
        words(s.describe(a), a.key)


def test_the_screen_header_says_the_turn_the_seat_and_how_to_win() -> None:
    s = setup(players=3, hands=[["W03"], [], []], phase="summon")
    assert ENGINE.screen(s.observation(0)).header == "Turn 1: your Summon phase · you are P1 · first to 25 VP wins"
    assert ENGINE.screen(s.observation(2)).header == "Turn 1: P1's Summon phase · you are P3 · first to 25 VP wins"


def test_a_deck_search_fits_the_screen() -> None:
    """Rescue the Mage's search may take any of 18 wizards: the screen says the seat looks through the deck (it does
    not list the deck), and the choice comes in two steps, the kind of wizard (its ability), then the wizard."""
    deck = [c for c in sorted(DATA.cards) if c not in ("Q04", "W01", "W10")]
    s = setup(hands=[["Q04"], []], in_play=[["W01"], ["W10"]], phase="adventure", deck=deck)
    do(s, "quest Q04", dice=(1,) * 10)
    legal = s.legal_actions()
    assert len(legal) == 18 and all(a.kind == "target" for a in legal)
    screen = ENGINE.screen(s.observation(0))
    seen = screen.panel("seen")
    assert seen is not None and seen.lines == (f"You are looking through the deck ({len(deck)} cards)",)
    two = s.two_step(legal)
    assert two is not None and len(two.groups) == 7  # the seven abilities
    maker = next(g for g in two.groups if g.label.startswith("Maker:"))
    assert maker.label == "Maker: W02 Artificer, W14 Enchanter and W15 Alchemist"
    assert maker.question == "Q04 Rescue the Mage: which Maker Wizard?"
    assert [a.key for a, _ in maker.options] == ["target W02", "target W14", "target W15"]
    assert sorted(a.key for g in two.groups for a, _ in g.options) == sorted(a.key for a in legal)
    for p in screen.panels:  # no panel lists the deck
        assert len(p.lines) <= 8, (p.name, p.lines)


def test_a_long_event_phase_is_asked_card_first() -> None:
    s = setup(players=3, hands=[["S17", "S02", "E01", "S05"], [], []],
              in_play=[["W03", "W05", "R03"], ["W10+I05", "W11+I01", "W12"], ["W15+I06", "W16", "W17"]],
              phase="event")
    legal = s.legal_actions()
    two = s.two_step(legal)
    assert two is not None
    labels = [g.label for g in two.groups]
    assert "cast S17 Poison Potion (slay a rival's Wizard): 6 targets" in labels
    assert "end the Event phase" in labels
    potion = next(g for g in two.groups if g.label.startswith("cast S17"))
    assert potion.question == "S17 Poison Potion: on which target?"
    assert [t for _, t in potion.options][:2] == ["slay P2's W10 Mentalist", "slay P2's W11 Battle Mage"]
    assert sorted(a.key for g in two.groups for a, _ in g.options) == sorted(a.key for a in legal)
    # a short decision is asked as it is
    s = setup(hands=[["W03"], []], phase="summon")
    assert s.two_step(s.legal_actions()) is None


def test_look_a_player() -> None:
    """`look P2` (help's own example, an id the log shows) shows that player's covenant."""
    s = setup(players=3, hands=[["S04"], ["R04", "S07"], []], in_play=[["W10+I05"], ["W11", "F04", "R03"], []],
              phase="event")
    found = ENGINE.look(s.observation(0), "P2")
    assert found is not None
    text = [" ".join(rendered(x).split()) for x in found]
    assert text == ["P2: 2 VP, 2 cards in hand",
                    "W11 Battle Mage: Dueler; duel roll +2, Quest Level +1",
                    "followers F04 Champion", "resources R03 Observatory"]
    mine = ENGINE.look(s.observation(0), "p1")
    assert mine is not None and rendered(mine[0]).startswith("You: 1 VP, 1 card in hand")
    assert ENGINE.look(s.observation(0), "P3") == ["[bold]P3: 0 VP[/bold], 0 cards in hand; nothing in play"]
    assert ENGINE.look(s.observation(0), "P7") == ["There is no P7: the players are P1 to P3."]
