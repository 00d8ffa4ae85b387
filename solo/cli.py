"""``wizprint solo``: play, check and scenario commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from wizprint.clitools import err, friendly, say
from wizprint.errors import SaveError, UsageError, capped, more_line, one_line, quote

if TYPE_CHECKING:
    from .kernel import Engine

SHOWN_ERRORS = 5  # errors of games a check prints (each with the command that plays it again)

solo_app = typer.Typer(no_args_is_help=True, help="Play the games against automata, run solo checks and scenarios.")


BUDGET_HELP = ("At most this many seconds for every move of a search bot (mcts), whatever its iterations "
               "(default: 10 s of computing for mcts and mcts:N).")


@solo_app.command("play")
def play_cmd(
    game: str = typer.Argument(..., help="Game id, or the path of a game folder."),
    players: int | None = typer.Option(None, "--players", "-p", help="Number of players (default: the minimum)."),
    bot: str = typer.Option("automaton", "--bot", help="random, automaton, mcts (the game's own budget), mcts:N (N "
                                                       "iterations), mcts:Ts or mcts:N/Ts (T seconds a move at "
                                                       "most). Every search is bounded by time: a move ends at its "
                                                       "iterations or after 10 s of computing."),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the game's shuffles and dice (default: a new "
                                                         "random seed, shown at the start)."),
    seat: int = typer.Option(0, "--seat", help="Your seat (0 moves first)."),
    variant: str = typer.Option("", "--variant", help="A rules variant, e.g. hectic or constructed."),
    load: Path | None = typer.Option(None, "--load", help="Resume a saved game."),
    log_file: Path | None = typer.Option(None, "--log-file", help="Where to write the game log (a new game "
                                                                   "never writes over a file: a name in use gets -2)."),
    save_file: Path | None = typer.Option(None, "--save-file", help="Where 'save' and Ctrl-D write the game (a new "
                                                                     "game takes a free name, like the log)."),
    budget_seconds: float | None = typer.Option(None, "--budget-seconds", help=BUDGET_HELP),
) -> None:
    """Play a game in the terminal against automata."""
    friendly(_play)(game, players, bot, seed, seat, variant, load, log_file, save_file, budget_seconds)


def _play(game: str, players: int | None, bot: str, seed: int | None, seat: int, variant: str, load: Path | None,
          log_file: Path | None, save_file: Path | None, budget: float | None = None) -> None:
    from .agents import budget_seconds
    from .kernel import engine
    from .play import claim_names, load_session, new_session, random_seed, resumed_log, run, unusable_place

    budget_seconds(budget)
    eng = engine(game)
    if load is not None:
        try:
            s = load_session(eng, load)
        except SaveError as exc:
            _save_problems(load, exc)
        if save_file is not None and (why := unusable_place(save_file)):
            raise UsageError(f"--save-file {quote(str(save_file), 200)}: cannot save the game there: {why}")
        s.save_path = save_file or load
        s.log_path = resumed_log(s, load, log_file)
    else:
        drawn = seed is None
        s = new_session(eng, eng.min_players if players is None else players, bot,
                        random_seed() if seed is None else seed, seat, variant)
        want_save = save_file or Path(f"wizprint-{eng.id}-seed{s.seed}.save.json")
        want_log = log_file or Path(f"wizprint-{eng.id}-seed{s.seed}.log")
        if drawn:
            s.notes.append(f"Seed {s.seed}: play this deal again with --seed {s.seed}.")
        s.notes += claim_names(s, want_save, want_log, save_given=save_file is not None,
                               log_given=log_file is not None)
    s.source = game
    s.budget_seconds = budget
    code = run(s)
    raise typer.Exit(code)


@solo_app.command("table")
def table_cmd(
    game: str = typer.Argument(..., help="Game id, or the path of a game folder."),
    players: int | None = typer.Option(None, "--players", "-p", help="Number of players (default: the minimum)."),
    seat: int = typer.Option(0, "--seat", help="Your seat (0 moves first)."),
    bot: str = typer.Option("automaton", "--bot", help="The program's seats: automaton, mcts, mcts:N ..."),
    dice: str = typer.Option("physical", "--dice", help="physical: you roll and type the result; app: the program "
                                                       "rolls and says it."),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the program's choices (default: a new random "
                                                         "seed, shown at the start)."),
    variant: str = typer.Option("", "--variant", help="A rules variant or scenario."),
    load: Path | None = typer.Option(None, "--load", help="Resume a saved table session."),
    log_file: Path | None = typer.Option(None, "--log-file", help="Where to write the session's transcript."),
    save_file: Path | None = typer.Option(None, "--save-file", help="Where 'save' and Ctrl-D write the session."),
) -> None:
    """Play the printed cards on a real table: the program keeps the state, runs the automaton's seats and asks
    you only for what happens on the table."""
    friendly(_table)(game, players, seat, bot, dice, seed, variant, load, log_file, save_file)


def _table(game: str, players: int | None, seat: int, bot: str, dice: str, seed: int | None, variant: str,
           load: Path | None, log_file: Path | None, save_file: Path | None) -> None:
    from .kernel import engine
    from .tableplay import load_table, new_table, resumed_names, run_table, start_names

    if dice not in ("physical", "app"):
        raise UsageError(f"--dice must be physical or app, not {quote(dice, 20)}")
    if load is not None:
        try:
            g = load_table(engine(game), load)
        except SaveError as exc:
            _save_problems(load, exc)
        save_path, log_path, notes, before = resumed_names(g, load, save_file, log_file)
        for n in notes:
            say(n)
        code = run_table(g, save_path, log_path, fresh=False, before=before)
    else:
        drawn = seed is None
        g = new_table(game, players, bot, seed, seat, variant, dice)
        save_path, log_path, notes = start_names(g, save_file, log_file)
        if drawn:
            notes.insert(0, f"Seed {g.seed}: play this deal again with --seed {g.seed}.")
        for n in notes:
            say(n)
        code = run_table(g, save_path, log_path)
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
    bots: str = typer.Option("automaton", "--bots", help="Comma-separated bots, cycled over the seats: random, "
                                                         "automaton, mcts, mcts:N, mcts:Ts, mcts:N/Ts (as --bot of "
                                                         "solo play)."),
    players: int | None = typer.Option(None, "--players", "-p", help="Players per game (default: the minimum)."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", help="Worker processes (default 1; not with --cluster)."),
    cluster: str | None = typer.Option(None, "--cluster", help="Play the games on a Dask distributed cluster: its "
                                                               "scheduler's address, e.g. tcp://HOST:8786 (needs "
                                                               "wizprint[cluster]; same results as a local run)."),
    cluster_timeout: float | None = typer.Option(None, "--cluster-timeout", help="With --cluster: seconds to wait "
                                                                                  "to reach the scheduler, and then "
                                                                                  "for each of its answers (default "
                                                                                  "5)."),
    variant: str = typer.Option("", "--variant", help="A rules variant."),
    json_file: Path | None = typer.Option(None, "--json", help="Write the JSON summary here."),
    report: Path | None = typer.Option(None, "--report", help="Write the HTML report here."),
    assign: str = typer.Option("bots", "--assign", help="Who makes the starting choices (characters, decks, "
                                                         "drafts): 'bots' (each seat's bot) or 'random' (dealt at "
                                                         "random, to measure the content rather than a bot's taste)."),
    ladder: int = typer.Option(0, "--ladder", help="Also play this many games per rung of the strength ladder "
                                                   "(random < automaton < search)."),
    ladder_search: str = typer.Option("mcts:100", "--ladder-search", help="The search bot at the ladder's top."),
    budget_seconds: float | None = typer.Option(None, "--budget-seconds", help=BUDGET_HELP + " A bound that ends "
                                                "searches makes the games depend on the machine's speed."),
    compare: Path | None = typer.Option(None, "--compare", help="Compare this check with an earlier one (its JSON "
                                                                 "summary) at the end, as solo compare does."),
    quiet: bool = typer.Option(False, "--quiet", "-q"),
) -> None:
    """Play many automaton games and summarise them: win rates (by seat, bot, first player and starting choice),
    lengths, each card's lift with its interval, cards never drawn or played, errors."""
    friendly(_check)(game, games, seed, bots, players, jobs, variant, json_file, report, quiet, assign, ladder,
                     ladder_search, cluster, cluster_timeout, budget_seconds, compare)


def _check(game: str, games: int, seed: int, bots: str, players: int | None, jobs: int | None, variant: str,
           json_file: Path | None, report: Path | None, quiet: bool, assign: str = "bots", ladder_games: int = 0,
           ladder_search: str = "mcts:100", cluster_address: str | None = None,
           cluster_timeout: float | None = None, budget: float | None = None,
           compare_with: Path | None = None) -> None:
    from wizprint.atomic import ensure_dir, write_atomic
    from wizprint.cards.markup import plural
    from wizprint.processes import stop_code, stop_name
    from wizprint.progress import for_terminal

    from .agents import budget_seconds, make_agent
    from .kernel import engine
    from .play import check_seed
    from .playtest import MAX_GAMES, MAX_JOBS, Interrupted, ladder, run_games, summarise
    from .report import html_report
    from .runner import ASSIGN, GameResult

    eng = engine(game)
    n_players = eng.min_players if players is None else players
    eng.check_players(n_players)
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"--games must be from 1 to {MAX_GAMES:,}, not {games:,}")
    if cluster_address is not None and jobs is not None:
        raise UsageError("--cluster and --jobs do not go together: on a cluster, its workers play the games")
    if cluster_timeout is not None:
        from .cluster import check_timeout

        if cluster_address is None:
            raise UsageError("--cluster-timeout goes with --cluster (the address of a Dask scheduler)")
        check_timeout(cluster_timeout)
    if jobs is None:
        jobs = 1
    if not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs must be between 1 and {MAX_JOBS}")
    check_seed(seed)
    budget_seconds(budget)
    eng.check_variant(variant)
    if len(bots) > 1000:
        raise UsageError("--bots is longer than 1000 characters")
    bot_list = [b.strip() for b in bots.split(",") if b.strip()]
    if not bot_list:
        raise UsageError("--bots names no bot (e.g. --bots automaton or --bots mcts,random)")
    for b in bot_list:
        make_agent(b, eng)
    if assign not in ASSIGN:
        raise UsageError(f"--assign must be {' or '.join(ASSIGN)}, not {assign[:40]!r}")
    if not 0 <= ladder_games <= MAX_GAMES:
        raise UsageError(f"--ladder must be from 0 to {MAX_GAMES:,} games, not {ladder_games:,}")
    if ladder_games:
        make_agent(ladder_search, eng)
    for out in (json_file, report):
        if out is not None:
            ensure_dir(out.parent)  # an output that cannot be written fails now, not after the games
    earlier = None
    if compare_with is not None:
        from .compare import compare, read_check, text_report

        earlier = read_check(compare_with)  # a file that is not a check fails now, not after the games
        if earlier["game"] != eng.id and not {c["id"] for c in earlier["cards"]} & set(_designs(eng)[0]):
            raise UsageError(f"--compare {compare_with}: a check of {earlier['game']!r}, which shares no card with "
                             f"{eng.id!r}")
    cluster = None
    if cluster_address is not None:
        from .cluster import CONNECT_TIMEOUT, WORKERS_TIMEOUT, connect

        # last: an option that is wrong fails before the connection is made
        wait = CONNECT_TIMEOUT if cluster_timeout is None else cluster_timeout
        cluster = connect(cluster_address, wait, max(wait, WORKERS_TIMEOUT))
    progress = for_terminal(quiet)
    progress.start(games + 2 * ladder_games, f"{game} check")
    done = [0]

    def tick(k: int) -> None:
        for _ in range(k):
            done[0] += 1
            progress.step(f"game {done[0]}")

    stopped: KeyboardInterrupt | None = None
    results: list[GameResult] = []
    rungs: list[dict[str, Any]] = []
    try:
        results = run_games(game, games, seed, bot_list, n_players, variant, jobs, tick, assign, cluster, budget)
        rungs = ladder(game, ladder_games, seed, n_players, variant, jobs, ladder_search, assign, tick,
                       cluster, budget) if ladder_games else []
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM: the worker processes have ended; report the games so far
        stopped = stop
        if isinstance(stop, Interrupted):
            if results:
                rungs = stop.rungs  # in the ladder's matches: the check's own games were all played
            else:
                results = stop.results
    finally:
        progress.finish()
        if cluster is not None:
            cluster.close()
    if stopped is not None and not results:
        err(f"stopped ({stop_name(stopped)}) before any game finished: no report written")
        raise typer.Exit(stop_code(stopped))
    if stopped is not None:
        err(f"stopped ({stop_name(stopped)}): the report covers the {plural(len(results), 'game')} finished"
            + (" and the ladder's games so far" if ladder_games and len(results) == games else ""))
    designs, names, decks = _designs(eng)
    summary = summarise(eng.id, results, seed, bot_list, n_players, variant, designs, names, decks, assign, rungs,
                        planned=games, partial=stopped is not None, ran=game, budget_seconds=budget)
    if json_file is not None:
        write_atomic(json_file, json.dumps(summary, indent=1) + "\n")
    if report is not None:
        write_atomic(report, html_report(summary))
    _print_summary(summary)
    if earlier is not None:
        now = json.loads(json.dumps(summary))
        for line in text_report(compare(earlier, now, str(compare_with), "this check")):
            say(line)
    if stopped is not None:
        raise typer.Exit(stop_code(stopped))
    if summary["errors"]:
        raise typer.Exit(1)


def _designs(eng: Engine) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """The playable designs, their names and the names of their decks."""
    g = eng.game
    playable = [c for c in g.cards() if g.decl.types[c.type].effects]
    decks = {c.id: g.decl.decks[c.deck].name if c.deck in g.decl.decks else c.deck for c in playable}
    return [c.id for c in playable], {c.id: c.name for c in playable}, decks


def _pc(x: float | None) -> str:
    """A rate as a percentage for people (one decimal)."""
    return "-" if x is None else f"{x * 100:.1f} %"


def _pts(x: float | None) -> str:
    """A difference of rates in points (one decimal, signed)."""
    return "-" if x is None else f"{x * 100:+.1f}"


def _print_summary(s: dict[str, Any]) -> None:
    from .playtest import HEADLINE_RULE, headline_cards

    n_err = len(s["errors"])
    if s.get("partial"):
        if any(r.get("partial") for r in s.get("ladder", [])):
            say(f"partial: the strength ladder stopped by Ctrl-C (all {s['games']} games of the check played)")
        else:
            say(f"partial: {s['games']} of {s['games_planned']} games (stopped by Ctrl-C)")
    say(f"{s['game']}: {s['completed']} of {s['games']} games completed, {n_err} errors, "
        f"{s['step_cap_hits']} step-cap hits" + (", starting choices dealt at random" if s.get("assign") == "random"
                                                 else ""))
    for seat, r in s["win_rate_by_seat"].items():
        say(f"  seat {seat}: win rate {_pc(r['win_rate'])} (95% {_pc(r['ci95'][0])} to {_pc(r['ci95'][1])}), "
            f"ties {r['ties']}")
    fp = s.get("first_player")
    if fp:
        say(f"  first player: win rate {_pc(fp['win_rate'])} (95% {_pc(fp['ci95'][0])} to {_pc(fp['ci95'][1])}; "
            f"fair share {_pc(fp['fair_share'])}, advantage {_pts(fp['advantage'])} points)")
    for bot, r in s["win_rate_by_bot"].items():
        say(f"  {bot}: win rate {_pc(r['win_rate'])} (95% {_pc(r['ci95'][0])} to {_pc(r['ci95'][1])})")
    if s.get("win_rate_by_choice"):
        say(f"  by starting choice (fair share {_pc(1 / s['players'])}"
            + ("; dealt at random):" if s.get("assign") == "random" else "; chosen by the bots):"))
    for ch, r in s.get("win_rate_by_choice", {}).items():
        say(f"    {ch}: win rate {_pc(r['win_rate'])} of {r['games']} (95% {_pc(r['ci95'][0])} to "
            f"{_pc(r['ci95'][1])})")
    lt = s["length_turns"]
    tp = s.get("turns_per_player", {})
    say(f"  length in turns: mean {lt['mean']}, median {lt['median']}, p95 {lt['p95']}; per player: mean "
        f"{tp.get('mean')}, median {tp.get('median')}, p95 {tp.get('p95')}")
    for name, st in s.get("by_setting", {}).items():
        ends = ", ".join(f"{n} {k}" for k, n in st["end_reasons"].items())
        say(f"  {name}: {st['games']} games ({ends}), median {st['median_turns']} turns")
    for name, g in s.get("groups", {}).items():
        say(f"  {name}: {g['per_seat_game']:.2f} per seat and game; won {_pc(g['win_rate'])} of {g['contests']} "
            f"(fair share {_pc(g['fair_share'])}, {_pts(g['above_fair'])} points above it; 95% "
            f"{_pc(g['ci95'][0])} to {_pc(g['ci95'][1])})")
    for name, e in s.get("events", {}).items():
        say(f"  {name}: in {_pc(e['share_of_games'])} of games ({e['per_game']} a game)")
    _print_lifts(s, HEADLINE_RULE, headline_cards(s["cards"]))
    follows = s.get("draw_follows_play", [])
    if follows:
        say(f"  no lift (drawing them went with the result more than playing them could; their draw follows the "
            f"game): {', '.join(follows)}")
    never_drawn = s.get("never_drawn", [])
    if never_drawn:
        say(f"  cards never drawn: {', '.join(never_drawn)}")
    never = s["never_played"]
    say(f"  cards never played: {', '.join(never) if never else 'none'}")
    for rung in s.get("ladder", []):
        say(f"  ladder: {rung['upper']} against {rung['lower']}: {_pc(rung['upper_win_rate'])} of "
            f"{rung['games']} (95% {_pc(rung['ci95'][0])} to {_pc(rung['ci95'][1])}; fair share "
            f"{_pc(rung['fair_share'])})" + ("; stopped by Ctrl-C" if rung.get("partial") else ""))
    for e in s["errors"][:SHOWN_ERRORS]:
        say(f"  error in game {e['game']}: {e['error']}\n    reproduce: {e['reproduce']}")
    if n_err > SHOWN_ERRORS:
        say(f"  {more_line(n_err - SHOWN_ERRORS)} (every error is in the JSON summary)")


def _print_lifts(s: dict[str, Any], rule: str, ranked: list[dict[str, Any]]) -> None:
    """The headline of the cards: the highest and lowest lifts among the cards measured well enough (``rule``),
    or a line saying that none is yet."""
    if not ranked:
        if s["cards"]:
            say(f"  lift: no card ranked, as none is yet among the {rule} (more games narrow the intervals)")
        return

    def line(c: dict[str, Any]) -> str:
        return (f"{c['id']} {c['name']} {_pts(c['lift'])} (95% {_pts(c['lift_ci95'][0])} to "
                f"{_pts(c['lift_ci95'][1])}; drawn in {c['seat_games_drawn']} games, played in "
                f"{c['games_played_in']})")

    if len(ranked) <= 3:
        which = f"the only {len(ranked)} {rule}" if len(ranked) > 1 else f"the only one of the {rule}"
        say(f"  lift, highest first ({which}): " + "; ".join(line(c) for c in ranked))
        return
    say(f"  highest lift (of the {len(ranked)} {rule}): " + "; ".join(line(c) for c in ranked[:3]))
    say(f"  lowest lift (of the same {len(ranked)}): " + "; ".join(
        line(c) for c in ranked[::-1][:min(3, len(ranked) - 3)]))  # none named twice


@solo_app.command("compare")
def compare_cmd(
    before: Path = typer.Argument(..., help="The earlier check's JSON summary (solo check --json)."),
    after: Path = typer.Argument(..., help="The later check's JSON summary."),
    html: Path | None = typer.Option(None, "--html", help="Also write the comparison as an HTML page here."),
) -> None:
    """Compare two solo checks of a game: each card's lift and each seat's, bot's, starting choice's and ending's
    rate, before and after, with the change's interval and whether it is more than chance (Holm-corrected)."""
    friendly(_compare)(before, after, html)


def _compare(before: Path, after: Path, html: Path | None) -> None:
    from wizprint.atomic import ensure_dir, write_atomic

    from .compare import compare, html_report, read_check, text_report

    if html is not None:
        ensure_dir(html.parent)
    cmp = compare(read_check(before), read_check(after), str(before), str(after))
    for line in text_report(cmp):
        say(line)
    if html is not None:
        write_atomic(html, html_report(cmp))
        say(f"wrote {html}")


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
        say(r.report())
    say(f"{len(results) - failed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)
