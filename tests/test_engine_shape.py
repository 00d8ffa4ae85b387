"""An engine runs only on a game folder shaped as it reads it: a folder whose ``[engine] module`` names another game's
engine, or that holds fewer cards than the rules deal, is refused with one line naming its game.toml and what is
missing, by every command that plays it (and by ``validate``), before any game starts; a folder that passes plays."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_here
from folder_helpers import copy_game, keep_records, set_module

from wizprint.cards.loader import load_game
from wizprint.errors import DataErrors
from wizprint.solo.agents import make_agent
from wizprint.solo.kernel import engine, engine_games
from wizprint.solo.kernel.engine import _code
from wizprint.solo.runner import play

MODULES = {"wizard-cards": "wizard_cards", "covenant": "covenant", "relic": "relic",
           "wizards-and-relics": "wizards_and_relics", "wizards-cup": "wizards_cup"}
PLAYS = {m: g for g, m in MODULES.items()}
NAMES = {"wizard-cards": "Wizard Cards", "covenant": "Covenant of Wizards", "relic": "Relic",
         "wizards-and-relics": "Wizards & Relics", "wizards-cup": "Wizards Cup"}


def refused(r: Any, folder: Path, module: str, *words: str) -> str:
    """The command failed with one error line (and the count line) naming the folder's game.toml at its module
    line, the engine and ``words``; returns the error line."""
    assert r.returncode == 1, (r.returncode, r.stdout[-500:], r.stderr[-500:])
    lines = r.stderr.splitlines()
    assert lines[-1] == "1 problem found" and len(lines) == 2, lines
    line = lines[0]
    text = (folder / "game.toml").read_text(encoding="utf-8")
    at = text[: text.index("\nmodule = ")].count("\n") + 2
    assert line.startswith(f"error: {folder.name}/game.toml:{at}: [engine] module '{module}' plays "
                           f"{NAMES[PLAYS[module]]} and cannot play this folder: "), line
    for w in words:
        assert w in line, (w, line)
    assert len(line) < 700
    return line


def test_every_engine_declares_the_shape_it_reads_and_its_game_has_it() -> None:
    for game in engine_games():
        eng = engine(game)
        assert eng.code.shape is not None and eng.code.shape.game == game, game
        assert _code(MODULES[game], "x") is eng.code


@pytest.mark.parametrize("game,module", [(g, m) for g in MODULES for m in MODULES.values() if m != MODULES[g]])
def test_a_folder_naming_another_games_engine_is_refused_before_it_plays(tmp_path: Path, game: str,
                                                                         module: str) -> None:
    """Each shipped game's folder with each other game's engine: `solo check` names the folder and what the engine
    misses (Wizards Cup with the Wizards & Relics engine: its wizards have no colour; Wizards & Relics with Relic's:
    no Power cards...), where it raised ValueError or KeyError, reported an error in every game, or played
    something that is not the game."""
    folder = copy_game(game, tmp_path, "edited")
    set_module(folder, module)
    r = run_here("solo", "check", "./edited", "--games", "2", "-q", cwd=tmp_path)
    refused(r, folder, module)


@pytest.mark.parametrize("game,module,words", [
    ("wizards-cup", "wizards_and_relics", ["card type 'wizard' is in deck 'wizards'",
                                           "card type 'wizard' has no field 'colour'"]),
    ("wizards-and-relics", "relic", ["no card type 'power' (the Power cards of Relic)"]),
    ("covenant", "wizards_cup", ["it is for 2 to 4 players; the engine plays 2"]),
    ("wizard-cards", "wizards_cup", ["no card type 'wizard'", "the effect words 'fortune', 'vigor', 'ward', 'wild' "
                                     "and 'wrath', which the engine does not carry out"]),
])
def test_the_refusal_says_what_the_engine_misses_for_every_command(tmp_path: Path, game: str, module: str,
                                                                   words: list[str]) -> None:
    """The same line from `solo play`, `solo scenario --game`, `solo check` on a cluster (refused before connecting:
    nothing listens at the address given) and `validate`."""
    folder = copy_game(game, tmp_path, "edited")
    set_module(folder, module)
    scenario = sorted((Path(__file__).parent / "scenarios").glob("wcup-*.toml"))[0]
    for args in (["solo", "play", "./edited", "--seed", "1"], ["solo", "scenario", str(scenario), "--game",
                                                                "./edited"],
                 ["solo", "check", "./edited", "--cluster", "127.0.0.1:9"]):
        r = run_here(*args, cwd=tmp_path, input="quit\n")
        refused(r, folder, module, *words)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["edited"], args  # no save, no log
    r = run_here("validate", "./edited", cwd=tmp_path)
    assert r.returncode == 1 and any(f"[engine] module '{module}' plays" in ln for ln in r.stderr.splitlines())


def test_a_changed_declaration_is_named_with_what_the_engine_reads(tmp_path: Path) -> None:
    """Within its own game: an enum value the engine does not know, whole numbers beyond those it plays, a field no
    longer required, an effect word's parameter of another type."""
    cases = [
        ("game.toml", 'values = ["red", "blue", "green"]', 'values = ["red", "blue", "green", "gold"]',
         "card type 'wizard': field 'colour' has values the engine does not know: 'gold'"),
        ("game.toml", "min = 0\nmax = 9", "min = -3\nmax = 9",
         "card type 'wizard': field 'power' goes from -3 to 9; the engine plays 0 to 9"),
        ("game.toml", 'required = ["colour", "rarity", "power", "subtype"]', 'required = ["rarity", "power", '
         '"subtype"]\noptional = ["colour"]',
         "card type 'wizard' does not require the field 'colour', which the engine reads on every card"),
        ("vocabulary.toml", 'n = { type = "int", min = 1, max = 4 }', 'n = { type = "int", min = 1, max = 40 }',
         "parameter 'n' goes from 1 to 40; the engine plays 1 to 4"),
    ]
    for i, (name, old, new, words) in enumerate(cases):
        folder = copy_game("wizards-and-relics", tmp_path, f"wr{i}")
        p = folder / name
        text = p.read_text(encoding="utf-8")
        assert old in text, old
        p.write_text(text.replace(old, new, 1), encoding="utf-8")
        r = run_here("solo", "check", f"./wr{i}", "--games", "1", "-q", cwd=tmp_path)
        refused(r, folder, "wizards_and_relics", words)


def _fewer(tmp_path: Path, game: str, table: str, kind: str, keep: int, name: str) -> Path:
    """A copy of ``game`` keeping the first ``keep`` records of ``table`` (``card`` of type ``kind``, or a record
    kind), with game.toml's counts brought in line."""
    folder = copy_game(game, tmp_path, name)
    seen = [0]

    def kept(t: str, rec: dict[str, Any]) -> bool:
        if t != table or (table == "card" and rec.get("type") != kind):
            return True
        seen[0] += 1
        return seen[0] <= keep

    keep_records(folder, kept)
    load_game(str(folder))  # the card data is valid
    return folder


def _plays(folder: Path, players: int, bots: tuple[str, ...]) -> None:
    """Games of ``bots`` (each bot on every seat of its games, two games each) end without an error."""
    eng = engine(str(folder))
    for i, bot in enumerate(bots * 2):
        s = eng.new_state(players, 40 + i)
        play(s, [make_agent(bot, eng, i) for _ in range(players)])
        assert s.is_terminal() and s.outcome() is not None


@pytest.mark.parametrize("game,table,kind,few,enough,words,players,bots", [
    # a Deck is 6 wizards of a set (4 designs ended in "max() arg is an empty sequence" in the automaton)
    ("wizards-cup", "card", "wizard", 5, 6, "only 5 wizard designs, and a player's Deck holds 6 of their set", 2,
     ("random", "automaton", "mcts:4")),
    # four decks, each with the 5 wizards a 2-player Hall wins with (fewer: the games ran to the step cap)
    ("wizards-and-relics", "card", "wizard", 19, 20, "19 wizards: the set-up deals them into 4 decks, and with 2 "
                                                     "players each deck needs the 5 wizards", 2,
     ("random", "automaton")),
    # two character sheets dealt to each of 4 seats (fewer: "pop from empty list" in the set-up)
    ("relic", "character", "", 7, 8, "7 character sheets, and the set-up deals two to each of 4 players (at "
                                     "least 8)", 4, ("automaton",)),
], ids=["wizards-cup", "wizards-and-relics", "relic"])
def test_a_folder_with_fewer_cards_than_the_rules_deal_is_refused_and_the_least_plays(
        tmp_path: Path, game: str, table: str, kind: str, few: int, enough: int, words: str, players: int,
        bots: tuple[str, ...]) -> None:
    folder = _fewer(tmp_path, game, table, kind, few, "few")
    r = run_here("solo", "check", "./few", "--games", "2", "-q", cwd=tmp_path)
    line = refused(r, folder, MODULES[game], words)
    assert run_here("validate", "./few", cwd=tmp_path).stderr.splitlines()[0] == line
    with pytest.raises(DataErrors, match=re.escape(words)):
        engine(str(folder))
    _plays(_fewer(tmp_path, game, table, kind, enough, "enough"), players, bots)


def test_wizards_cup_with_six_designs_offers_no_swap(tmp_path: Path) -> None:
    """With every design of a set in the Deck there is nothing set aside to swap with: the swap between rounds is
    passed over (a search bot and the automaton play such games to the end)."""
    eng = engine(str(_fewer(tmp_path, "wizards-cup", "card", "wizard", 6, "six")))
    s = eng.new_state(2, 3)
    asked = []
    bots = [make_agent("automaton", eng, 1), make_agent("mcts:8", eng, 2)]
    while not s.is_terminal():
        legal = s.legal_actions()
        asked += [a.kind for a in legal if a.kind in ("out", "in")]
        s.apply(legal[0] if len(legal) == 1 else bots[s.current_player].choose(s, s.current_player))
    assert asked == [] and s.outcome() is not None


def test_a_spell_card_with_two_effects_is_refused(tmp_path: Path) -> None:
    """Wizard Cards reads a spell card's one effect word as its school: a card with two is named."""
    folder = copy_game("wizard-cards", tmp_path, "wc")
    p = folder / "components.toml"
    text = p.read_text(encoding="utf-8")
    old = '{ word = "ward", magnitude = 1 }'
    assert old in text
    p.write_text(text.replace(old, f'{old}, {{ word = "wrath", magnitude = 1 }}', 1), encoding="utf-8")
    r = run_here("solo", "check", "./wc", "--games", "1", "-q", cwd=tmp_path)
    refused(r, folder, "wizard_cards", "card AS has 2 effects; a spell card has one, its school")


def test_a_worker_given_such_a_folder_reports_it_as_each_games_error(tmp_path: Path) -> None:
    """On a cluster's worker (the chunk a worker plays, as JSON): each game's error is the same one line, where a
    worker reported ValueError at the engine's line."""
    from wizprint.solo.cluster import parse_chunk, play_chunk
    from wizprint.solo.workers import Task

    folder = copy_game("wizards-cup", tmp_path, "edited")
    set_module(folder, "wizards_and_relics")
    task = Task(str(folder), range(0, 2), 1, ["automaton"], 2, "", "bots")
    results = parse_chunk(play_chunk(task), task)
    assert len(results) == 2
    for r in results:
        assert r.error is not None and r.error.startswith("DataErrors: ") and "\n" not in r.error, r.error
        assert "[engine] module 'wizards_and_relics' plays Wizards & Relics and cannot play this folder" in r.error


def test_what_the_engines_compiler_refuses_names_the_folder(tmp_path: Path) -> None:
    """A Relic board whose scenario space was moved to the Inner tier has the shape Relic reads, but no scenario
    space: the compiler's refusal comes with the folder's game.toml, where it named only the game's id."""
    folder = copy_game("relic", tmp_path, "board")
    p = folder / "board.toml"
    text = p.read_text(encoding="utf-8")
    assert text.count('tier = "centre"') == 1
    p.write_text(text.replace('tier = "centre"', 'tier = "inner"'), encoding="utf-8")
    r = run_here("solo", "check", "./board", "--games", "1", "-q", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.splitlines()[0].startswith(
        "error: board/game.toml:"), r.stderr
    assert "[engine] module 'relic' cannot play this folder: relic: the board must have one scenario space" in r.stderr
