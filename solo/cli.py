"""``wizprint solo``: play, check and scenario commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

from wizprint.clitools import err, friendly
from wizprint.errors import SaveError, UsageError, capped, one_line

if TYPE_CHECKING:
    from .kernel import Engine

solo_app = typer.Typer(no_args_is_help=True, help="Play the games against automata, run solo checks and scenarios.")


@solo_app.command("play")
def play_cmd(
    game: str = typer.Argument(..., help="Game id, or the path of a game folder."),
    players: int | None = typer.Option(None, "--players", "-p", help="Number of players (default: the minimum)."),
    bot: str = typer.Option("automaton", "--bot", help="random, automaton, mcts, mcts:N, mcts:Ts or mcts:N/Ts."),
    seed: int = typer.Option(1, "--seed", help="Seed of the game's shuffles and dice."),
    seat: int = typer.Option(0, "--seat", help="Your seat (0 moves first)."),
    variant: str = typer.Option("", "--variant", help="A rules variant, e.g. hectic or constructed."),
    load: Path | None = typer.Option(None, "--load", help="Resume a saved game."),
    log_file: Path | None = typer.Option(None, "--log-file", help="Where to write the game log."),
    save_file: Path | None = typer.Option(None, "--save-file", help="Where 'save' and Ctrl-D write the game."),
) -> None:
    """Play a game in the terminal against automata."""
    friendly(_play)(game, players, bot, seed, seat, variant, load, log_file, save_file)


def _play(game: str, players: int | None, bot: str, seed: int, seat: int, variant: str, load: Path | None,
          log_file: Path | None, save_file: Path | None) -> None:
    from .kernel import engine
    from .play import load_session, new_session, run

    eng = engine(game)
    if load is not None:
        try:
            s = load_session(eng, load)
        except SaveError as exc:
            _save_problems(load, exc)
    else:
        s = new_session(eng, eng.min_players if players is None else players, bot, seed, seat, variant)
    s.log_path = log_file or Path(f"wizprint-{eng.id}-seed{s.seed}.log")
    s.save_path = save_file or (load if load is not None else None)
    code = run(s)
    raise typer.Exit(code)


def _save_problems(path: Path, exc: SaveError) -> NoReturn:
    """One line per problem of a saved game, each with its JSON path (at most 50, then the count of the rest)."""
    for line in capped(exc.problems):
        err(line if line.startswith("... and ") else f"error: {path}: {one_line(line)}")
    raise typer.Exit(1)


@solo_app.command("check")
def check_cmd(
    game: str = typer.Argument(..., help="Game id, or the path of a game folder."),
    games: int = typer.Option(200, "--games", "-n", help="How many games."),
    seed: int = typer.Option(1, "--seed", help="Base seed; game i uses a seed derived from it and i."),
    bots: str = typer.Option("automaton", "--bots", help="Comma-separated bots, cycled over the seats."),
    players: int | None = typer.Option(None, "--players", "-p", help="Players per game (default: the minimum)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes."),
    variant: str = typer.Option("", "--variant", help="A rules variant."),
    json_file: Path | None = typer.Option(None, "--json", help="Write the JSON summary here."),
    report: Path | None = typer.Option(None, "--report", help="Write the HTML report here."),
    quiet: bool = typer.Option(False, "--quiet", "-q"),
) -> None:
    """Play many automaton games and summarise them: win rates, lengths, cards never played, errors."""
    friendly(_check)(game, games, seed, bots, players, jobs, variant, json_file, report, quiet)


def _check(game: str, games: int, seed: int, bots: str, players: int | None, jobs: int, variant: str,
           json_file: Path | None, report: Path | None, quiet: bool) -> None:
    from wizprint.atomic import ensure_dir, write_atomic
    from wizprint.progress import for_terminal

    from .agents import make_agent
    from .check import MAX_GAMES, MAX_JOBS, run_games, summarise
    from .kernel import engine
    from .play import check_seed
    from .report import html_report

    eng = engine(game)
    n_players = eng.min_players if players is None else players
    eng.check_players(n_players)
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"--games must be from 1 to {MAX_GAMES:,}, not {games:,}")
    if not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs must be between 1 and {MAX_JOBS}")
    check_seed(seed)
    eng.check_variant(variant)
    if len(bots) > 1000:
        raise UsageError("--bots is longer than 1000 characters")
    bot_list = [b.strip() for b in bots.split(",") if b.strip()]
    if not bot_list:
        raise UsageError("--bots names no bot (e.g. --bots automaton or --bots mcts,random)")
    for b in bot_list:
        make_agent(b, eng)
    for out in (json_file, report):
        if out is not None:
            ensure_dir(out.parent)  # an output that cannot be written fails now, not after the games
    progress = for_terminal(quiet)
    progress.start(games, f"{game} check")
    done = [0]

    def tick(k: int) -> None:
        for _ in range(k):
            done[0] += 1
            progress.step(f"game {done[0]}")

    try:
        results = run_games(game, games, seed, bot_list, n_players, variant, jobs, tick)
    finally:
        progress.finish()
    designs, names = _designs(eng)
    summary = summarise(eng.id, results, seed, bot_list, n_players, variant, designs, names)
    if json_file is not None:
        write_atomic(json_file, json.dumps(summary, indent=1) + "\n")
    if report is not None:
        write_atomic(report, html_report(summary))
    _print_summary(summary)
    if summary["errors"]:
        raise typer.Exit(1)


def _designs(eng: Engine) -> tuple[list[str], dict[str, str]]:
    g = eng.game
    playable = [c for c in g.cards() if g.decl.types[c.type].effects]
    return [c.id for c in playable], {c.id: c.name for c in playable}


def _print_summary(s: dict[str, object]) -> None:
    out = sys.stdout
    n_err = len(s["errors"])  # type: ignore[arg-type]
    print(f"{s['game']}: {s['completed']} of {s['games']} games completed, {n_err} errors, "
          f"{s['step_cap_hits']} step-cap hits", file=out)
    for seat, r in s["win_rate_by_seat"].items():  # type: ignore[attr-defined]
        print(f"  seat {seat}: win rate {r['win_rate']} (95% {r['ci95'][0]}-{r['ci95'][1]}), ties {r['ties']}",
              file=out)
    for bot, r in s["win_rate_by_bot"].items():  # type: ignore[attr-defined]
        print(f"  {bot}: win rate {r['win_rate']} (95% {r['ci95'][0]}-{r['ci95'][1]})", file=out)
    lt = s["length_turns"]
    print(f"  length in turns: mean {lt['mean']}, median {lt['median']}, p95 {lt['p95']}", file=out)  # type: ignore[index]
    for name, st in s.get("by_setting", {}).items():  # type: ignore[attr-defined]
        ends = ", ".join(f"{n} {k}" for k, n in st["end_reasons"].items())
        print(f"  {name}: {st['games']} games ({ends}), median {st['median_turns']} turns", file=out)
    for name, g in s.get("groups", {}).items():  # type: ignore[attr-defined]
        print(f"  {name}: {g['per_seat_game']} per seat and game; won {g['win_rate']} of {g['contests']} "
              f"(fair share {g['fair_share']}, "
              f"{g['above_fair']:+.3f} above it; 95% {g['ci95'][0]}-{g['ci95'][1]})", file=out)
    never = s["never_played"]
    print(f"  cards never played: {', '.join(never) if never else 'none'}", file=out)  # type: ignore[arg-type]
    for e in s["errors"][:5]:  # type: ignore[index]
        print(f"  error in game {e['game']}: {e['error']}\n    reproduce: {e['reproduce']}", file=out)


@solo_app.command("scenario")
def scenario_cmd(files: list[Path] = typer.Argument(..., help="Scenario TOML files."),
                 game: str | None = typer.Option(None, "--game", help="Run them on this game folder (an edited "
                                                                      "copy) instead of the game each file names.")
                 ) -> None:
    """Run scenario files: set-up, scripted moves and chance, assertions. Every file is run and reported; exit 1
    if any failed."""
    friendly(_scenarios)(files, game)


def _scenarios(files: list[Path], game: str | None) -> None:
    from .scenario import run_all

    results, failed = run_all(files, game)
    for r in results:
        print(r.report())
    print(f"{len(results) - failed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)
