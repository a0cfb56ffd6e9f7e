"""`cardrules simulate` and `cardrules compare`: many games with bots, as statistics.

The games are played by cardrules.interpreter.sessions.simulate; this module reads the command line,
shows progress, and prints the numbers as a table, JSON or CSV (the same numbers in each),
and optionally a plot. Ctrl-C stops a run: what was summed up so far is printed, marked as
partial, and the command exits with 130.
"""

from __future__ import annotations

import csv
import importlib
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import IO, Any, TypeVar

import click

from cardrules.dsl.loader import RulesetRef, load_ruleset
from cardrules.errors import Diagnostic, GameError, RulesetError
from cardrules.interpreter.players.bots import split_kind
from cardrules.interpreter.players.external import is_command
from cardrules.interpreter.sessions.files import NewFile
from cardrules.interpreter.sessions.simulate import (
    Comparison,
    Simulation,
    Summary,
    stream,
)
from cardrules.present.render import printable_lines

from .errors import EXIT_INTERRUPTED, reports_errors
from .params import (
    SCHEDULER,
    SEAT,
    SEED,
    Output,
    Whole,
    check_writable,
    file_name,
    first_line,
    parse_options,
    parse_seats,
    player_count,
)

F = TypeVar("F", bound=Callable[..., Any])
CSV_HEADER = ("scope", "metric", "value", "ci_low", "ci_high")  # the CSV's first row
PNG = b"\x89PNG\r\n\x1a\n"  # how every PNG file begins
# What --csv and --plot write, and so the only files they write over (params.check_output)
CSV_FILE = Output("a simulation's numbers as CSV (its first line "
                  f"'{','.join(CSV_HEADER)}')",
                  lambda head: first_line(head) == ",".join(CSV_HEADER).encode())
PNG_FILE = Output("a PNG picture", lambda head: head.startswith(PNG))


class MissingExtra(click.ClickException):
    """An optional dependency is not installed: one line saying which extra to install."""

    exit_code = 2


def run_options(fn: F) -> F:
    """The options `simulate` and `compare` share."""
    options = [
        click.option("--games", "-n", type=Whole(1), required=True,
                     help="How many games to play."),
        click.option("--players", "-p", type=SEAT,
                     help="Number of players (default: the ruleset's)."),
        click.option("--seats", help="Comma-separated seat kinds, one per player "
                                     "(default: random)."),
        click.option("--seed", "-s", type=SEED, default=1, show_default=True,
                     help="Run seed: game i is dealt from a hash of it and i, whatever the "
                          "number of workers."),
        click.option("--workers", "-w", type=Whole(1),
                     help="Processes to play on (default: the number of CPUs)."),
        click.option("--backend", type=click.Choice(["local", "dask"]), default="local",
                     show_default=True, help="Where the games run: local processes, or a "
                                             "Dask cluster (pip install 'cardrules[cluster]')."),
        click.option("--scheduler", metavar="ADDRESS", type=SCHEDULER,
                     help="With --backend dask: the scheduler to use (default: a local "
                          "cluster of --workers processes)."),
        click.option("--json", "as_json", is_flag=True, help="Print the results as JSON only."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


# ------------------------------------------------------------------------ simulate
@click.command()
@click.argument("ruleset")
@run_options
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set one of the ruleset's options (repeatable).")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), callback=file_name,
              help="Also write every number to this CSV file (a file already there is "
                   "written over only if it is such a CSV file, or empty).")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), callback=file_name,
              help="Draw the score distributions and win rates to this PNG file "
                   "(pip install 'cardrules[plot]'; a file already there is written over "
                   "only if it is a PNG picture, or empty).")
@reports_errors
def simulate(ruleset: str, games: int, players: int | None, seats: str | None, seed: int,
             workers: int | None, backend: str, scheduler: str | None, as_json: bool,
             options: tuple[str, ...], csv_file: str | None, plot_file: str | None) -> None:
    """Play many games of RULESET with bots and print statistics per seat.

    Win rates with 95% Wilson intervals (a tied win counts 1/k for each of its k winners),
    scores (mean, sd, p10/p50/p90), game length, ties, the first player's advantage and
    lead changes. Games cut off by the ruleset's max_actions are counted apart and left out
    of every other figure; with teams, a team's win counts whole, and each team has a line;
    a game for one seat reports its win rate and moves to win instead of head-to-head
    figures. Game i is dealt from a hash of the run seed and i, so any number of workers
    gives the same numbers (where no seat searches for a time: ismcts:0.5s is the
    machine's).
    """
    if as_json and csv_file:
        raise click.UsageError("--json and --csv: choose one")
    if csv_file and plot_file and Path(csv_file).resolve() == Path(plot_file).resolve():
        raise click.UsageError("--csv and --plot name the same file: the picture would "
                               "write over the numbers")
    if plot_file:
        require("matplotlib", "plot", "--plot")
        check_writable(plot_file, "--plot", PNG_FILE)
    if csv_file:
        check_writable(csv_file, "--csv", CSV_FILE)
    chosen = parse_options(options)
    rules = load_ruleset(ruleset, chosen)  # as the user wrote it, for error messages
    ref = RulesetRef.of(ruleset, chosen)
    count = player_count(players, [rules])
    sim = Simulation((ref,), games, count, bot_seats(seats, count), seed)
    summary = Summary(rules, sim)
    summary.interrupted = play_all(sim, workers, backend, scheduler, summary.add, rules.name)
    report = summary.report()
    if as_json:
        click.echo(json.dumps(report))
    else:
        click.echo("\n".join(simulation_table(report)))
    if csv_file:
        write_csv(Path(csv_file), report_rows(report))
    if plot_file and summary.finished:
        draw_plot(summary, report, Path(plot_file))
    elif plot_file:
        click.echo(f"--plot: no picture drawn: no game came to its end, so {plot_file} "
                   "is not written", err=True)
    stop_if_interrupted(report)


# ------------------------------------------------------------------------- compare
@click.command()
@click.argument("first")
@click.argument("second")
@run_options
@click.option("--duplicate", is_flag=True,
              help="Duplicate play: each deal is played once per seat, the seats' kinds "
                   "turned one place round the table each time (--games counts every game: "
                   "a deal is as many games as there are players).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set one of the options of both rulesets (repeatable).")
@click.option("--option-a", "-a", "options_a", multiple=True, metavar="NAME=VALUE",
              help="Set one of FIRST's options (repeatable; over -o).")
@click.option("--option-b", "-b", "options_b", multiple=True, metavar="NAME=VALUE",
              help="Set one of SECOND's options (repeatable; over -o).")
@reports_errors
def compare(first: str, second: str, games: int, players: int | None, seats: str | None,
            seed: int, workers: int | None, backend: str, scheduler: str | None,
            as_json: bool, duplicate: bool = False, options: tuple[str, ...] = (),
            options_a: tuple[str, ...] = (), options_b: tuple[str, ...] = ()) -> None:
    """Play FIRST and SECOND on the same seeds and print their differences per seat.

    Win rate, mean score and game length of each, and A - B with a 95% confidence interval
    from the per-game (paired) differences, by Student's t (none from a single game); *
    marks a difference whose interval excludes 0.
    With --duplicate, every deal is played with the seats turned round the table, a seat
    being its kind wherever it sat, and the differences are paired deal by deal.
    Two settings of one ruleset's options: cardrules compare golf6 golf6 -b rounds=4.
    """
    both = parse_options(options)
    chosen = ({**both, **parse_options(options_a, "--option-a")},
              {**both, **parse_options(options_b, "--option-b")})
    rules = []
    for ref, asked in zip((first, second), chosen):
        try:
            rules.append(load_ruleset(ref, asked or None))
        except RulesetError as exc:
            if both and any("no option" in d.message for d in exc.diagnostics):
                raise RulesetError([*exc.diagnostics, Diagnostic(
                    None, "-o sets an option of both rulesets: -a NAME=VALUE sets A's alone, "
                          "-b NAME=VALUE B's")]) from None
            raise
    refs = (RulesetRef.of(first, chosen[0]), RulesetRef.of(second, chosen[1]))
    count = player_count(players, rules)
    turns = count if duplicate else 1
    deals = -(-games // turns)  # whole deals: a few more games than asked, at most
    sim = Simulation(refs, deals, count, bot_seats(seats, count), seed, rotations=turns)
    if duplicate and len(set(sim.seats)) == 1:  # (turned round, the seats are the same)
        click.echo(f"--duplicate: every seat is '{sim.seats[0]}', so turning them round the "
                   f"table changes nothing: each deal's {count} games are one game, played "
                   f"{count} times; name different seats (--seats) to learn from each",
                   err=True)
    comparison = Comparison(rules[0], rules[1], sim)
    label = f"{rules[0].name} vs {rules[1].name}"
    comparison.interrupted = play_all(sim, workers, backend, scheduler, comparison.add, label)
    report = comparison.report(games)
    if as_json:
        click.echo(json.dumps(report))
    else:
        click.echo("\n".join(comparison_table(report)))
    stop_if_interrupted(report)


# ---------------------------------------------------------------------- the run
def bot_seats(text: str | None, players: int) -> tuple[str, ...]:
    """--seats as for `run`, but bots only: nobody sits at a simulation's table. A seat
    searching for a time (ismcts:0.5s) is said to make the run the machine's: the same seed
    gives the same numbers only where every budget is counted, not timed."""
    kinds = tuple(parse_seats(text, players, people=False))
    timed = [f"seat {p + 1} ({kind})" for p, kind in enumerate(kinds)
             if not is_command(kind) and isinstance(split_kind(kind)[1], float)]
    if timed:
        click.echo(f"note: {', '.join(timed)} searches for a time: how far it gets depends "
                   "on the machine and its load, so the same seed may not give the same "
                   "numbers (a budget of iterations, ismcts:200, does)", err=True)
    return kinds


def play_all(sim: Simulation, workers: int | None, backend: str, scheduler: str | None,
             add: Callable[..., None], label: str) -> bool:
    """Play every game of `sim`, handing each game's records to `add`; True if Ctrl-C
    stopped the run first (what was added so far stands)."""
    cpus = os.cpu_count() or 1
    # Processes here (or a local cluster's): at most one per CPU. A cluster elsewhere
    # plays on as many as it has.
    local = capped(workers, cpus, f"this machine has {plural(cpus, 'CPU')}")
    progress = Progress(sim.games, label, unit="games" if sim.rotations == 1 else "deals")
    try:
        with cluster_client(backend, scheduler, local) as client:
            if client is not None:
                have = max(1, sum(client.nthreads().values()))
                workers = capped(workers, have, f"the cluster has {plural(have, 'worker')}") \
                    if scheduler else have
            else:
                workers = local
            with closing(stream(sim, workers, client)) as games:
                for done, records in enumerate(games, 1):
                    add(*records)
                    progress.update(done)
    except KeyboardInterrupt:
        return True
    finally:
        progress.close()
    return False


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def capped(asked: int | None, have: int, why: str) -> int:
    """--workers, at most what there is to play on (saying so when it asked for more)."""
    if asked is None:
        return have
    if asked > have:
        click.echo(f"--workers {asked}: {why}; playing on {have}", err=True)
        return have
    return asked


@contextmanager
def cluster_client(backend: str, scheduler: str | None, workers: int) -> Iterator[Any]:
    """None for local processes; for Dask, a client of `scheduler` or of a local cluster."""
    if backend == "local":
        if scheduler:
            raise click.BadParameter("only with --backend dask", param_hint="--scheduler")
        yield None
        return
    require("distributed", "cluster", "--backend dask")
    from distributed import Client, LocalCluster
    if scheduler:
        try:
            client = Client(scheduler, timeout=10)
        except (OSError, TimeoutError, ValueError) as exc:
            raise GameError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        with client:
            yield client
        return
    # The workers' own logs stay quiet (a game's fault is reported once, as the local
    # backend reports it), and their scratch space is a folder of this run's, removed after.
    import dask
    with tempfile.TemporaryDirectory(prefix="cardrules-dask-") as scratch, \
            dask.config.set({"temporary-directory": scratch}), \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                         dashboard_address=None, silence_logs=logging.CRITICAL,
                         local_directory=scratch) as cluster, \
            Client(cluster) as client:
        yield client


def require(module: str, extra: str, feature: str) -> None:
    """Stop with one line naming the extra to install if `module` cannot be imported."""
    try:
        importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{feature} needs {module}, which is not installed: "
                           f"pip install 'cardrules[{extra}]'") from None


def stop_if_interrupted(report: dict[str, Any]) -> None:
    if report["interrupted"]:
        planned = report.get("games_planned", report["games_requested"])
        click.echo(f"interrupted: these are the results of the first {report['games']} of "
                   f"{planned} games", err=True)
        sys.exit(EXIT_INTERRUPTED)


class Progress:
    """A plain-text progress bar on `stream` (stderr), drawn only if it is a terminal."""

    WIDTH = 30

    def __init__(self, total: int, label: str, stream: IO[str] | None = None,
                 unit: str = "games") -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty()
        self.total, self.label, self.unit = total, label, unit
        self.started = self.shown = time.monotonic()
        self.drawn = 0  # the length of the line on screen

    def update(self, done: int) -> None:
        now = time.monotonic()
        if not self.enabled or (now - self.shown < 0.1 and done < self.total):
            return
        self.shown = now
        filled = self.WIDTH * done // self.total
        rate = done / max(now - self.started, 1e-9)
        line = (f"{self.label} [{'#' * filled}{'.' * (self.WIDTH - filled)}] "
                f"{100 * done // self.total:3d}% {done}/{self.total} {self.unit}, {rate:.0f}/s")
        self.stream.write("\r" + line.ljust(self.drawn))
        self.stream.flush()
        self.drawn = len(line)

    def close(self) -> None:
        """Clear the bar, so that what follows starts on a clean line."""
        if self.enabled and self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()


# ------------------------------------------------------------------------- output
def number(x: float | None, sign: bool = False) -> str:
    """A report number as the table shows it: the very value of the JSON and CSV."""
    if x is None:
        return "-"
    if isinstance(x, int):
        return f"{x:+d}" if sign else str(x)
    return f"{x:+.4f}" if sign else f"{x:.4f}"


def interval(ci: Sequence[float | None], sign: bool = False) -> str:
    """An interval as [low, high], or 'none' where there is none."""
    if ci[0] is None and ci[1] is None:
        return "none"
    return f"[{number(ci[0], sign)}, {number(ci[1], sign)}]"


def shortened(kind: str, width: int = 10) -> str:
    """A seat kind in a table's column: a long one (a program's command) cut, with '~'
    saying so (the heading line names every seat's kind in full)."""
    return kind if len(kind) <= width else kind[:width - 1] + "~"


def simulation_table(r: dict[str, Any]) -> list[str]:
    """The report of `simulate` for people."""
    options = ", ".join(f"{k}={v}" for k, v in r["options"].items()) or "none"
    lines = [f"{r['title']} ({r['ruleset']}): {plural(r['games'], 'game')}, "
             f"{plural(r['players'], 'player')}, "
             f"seed {r['seed']}, seats: {', '.join(r['seats'])}, options: {options}"]
    if r["interrupted"]:
        lines.append(f"INTERRUPTED: the results of the first {r['games']} of "
                     f"{r['games_requested']} games only")
    rule = "only a win decides" if r["winner"] == "none" else f"{r['winner']} total wins"
    share = f"; {r['ties']['note']}" if "ties" in r else ""
    lines += ["", f"{rule}{share}; 95% intervals (Wilson)", "",
              f"{'seat':>4}  {'kind':<10}{'win rate':>10}  {'95% CI':<18}{'score mean':>12}"
              f"{'sd':>10}{'p10':>7}{'p50':>7}{'p90':>7}"]
    for s in r["per_seat"]:
        lines.append(f"{s['seat']:>4}  {shortened(s['kind']):<10}{number(s['win_rate']):>10}  "
                     f"{interval(s['win_ci']):<18}{number(s['score_mean']):>12}"
                     f"{number(s['score_sd']):>10}{number(s['score_p10']):>7}"
                     f"{number(s['score_p50']):>7}{number(s['score_p90']):>7}")
    house = r.get("house")
    if house is not None:  # the house's own row: it is not a seat, and no bot plays it
        lines.append(f"{'':>4}  {house['name'][:10]:<10}{number(house['win_rate']):>10}  "
                     f"{interval(house['win_ci']):<18}{number(house['score_mean']):>12}"
                     f"{number(house['score_sd']):>10}{number(house['score_p10']):>7}"
                     f"{number(house['score_p50']):>7}{number(house['score_p90']):>7}")
    for team in r.get("per_team", []):  # partnerships: a team's win is one win
        lines.append(f"team {team['team']} (seats {', '.join(map(str, team['seats']))}): "
                     f"win rate {number(team['win_rate'])} {interval(team['win_ci'])}, "
                     f"wins {number(team['wins'])}")
    solo = r.get("solo")
    if solo is not None:  # one seat alone: no opponent to be measured against
        moves = solo["moves_to_win"]
        tied = (f", {solo['tied']} of them tied with the house ({solo['tie_note']})"
                if solo["tied"] else "")
        lines += ["", f"one seat: win rate {number(solo['win_rate'])} "
                      f"{interval(solo['win_ci'])}, {plural(solo['games_won'], 'game')} won"
                      + tied,
                  f"moves to win: mean {number(moves['mean'])}, sd {number(moves['sd'])}, "
                  f"p10 {number(moves['p10'])}, p50 {number(moves['p50'])}, "
                  f"p90 {number(moves['p90'])}  ({solo['note']})"]
    lines += ["", f"{'game length':<14}{'mean':>10}{'sd':>10}"]
    for name, stat in r["length"].items():
        lines.append(f"{name:<14}{number(stat['mean']):>10}{number(stat['sd']):>10}")
    cut = r["cut_off"]
    lines += ["", f"cut off: {cut['games']} games, rate {number(cut['rate'])}"
                  + (f" ({cut['note']})" if cut["games"] else "")]
    if "ties" in r:
        ties, first, leads = r["ties"], r["first_player_advantage"], r["lead_changes"]
        lines.append(f"ties: {ties['games']} games, rate {number(ties['rate'])}")
    lines.append(f"no winner: {r['no_winner']['games']} games, "
                 f"rate {number(r['no_winner']['rate'])}")
    if "ties" in r:
        lines += [advantage_line(first, "per_team" in r),
                  f"lead changes per game: mean {number(leads['mean'])}, "
                  f"sd {number(leads['sd'])}, games with any: {leads['games_with_change']}",
                  f"  ({leads['note']})"]
    return printable_lines(lines)


def advantage_line(first: dict[str, Any], teams: bool) -> str:
    """The first player's advantage, against the sides' mean win rate (1/sides where every
    game has a winning seat)."""
    sides, baseline = first["sides"], first["baseline"]
    side = "team" if teams else "seat"
    if baseline is None:
        return ("first player's advantage: none to measure (no game came to its end with a "
                f"{side} among its winners)")
    against = f"1/{sides}" if baseline == round(1 / sides, 4) else \
        f"the {side}s' mean win rate {number(baseline)}"
    return (f"first player's advantage (seat 1's win rate - {against}): "
            f"{number(first['value'], True)} {interval(first['ci'], True)}")


def report_rows(r: dict[str, Any]) -> list[list[Any]]:
    """Every number of a `simulate` report as CSV rows: scope, metric, value, CI low, high."""
    rows: list[list[Any]] = [list(CSV_HEADER)]
    for key in ("ruleset", "players", "seed", "games", "games_requested", "interrupted",
                "finished", "winner"):
        rows.append(["run", key, r[key], "", ""])
    rows.append(["run", "max_actions", r["cut_off"]["max_actions"], "", ""])
    rows += [["run", f"option {name}", value, "", ""] for name, value in r["options"].items()]
    for s in r["per_seat"]:
        scope = f"seat {s['seat']}"
        rows.append([scope, "kind", s["kind"], "", ""])
        rows.append([scope, "win_rate", s["win_rate"], *s["win_ci"]])
        rows += [[scope, key, s[key], "", ""] for key in
                 ("wins", "score_mean", "score_sd", "score_p10", "score_p50", "score_p90")]
    house = r.get("house")
    if house is not None:
        rows.append(["house", "name", house["name"], "", ""])
        rows.append(["house", "win_rate", house["win_rate"], *house["win_ci"]])
        rows += [["house", key, house[key], "", ""] for key in
                 ("wins", "score_mean", "score_sd", "score_p10", "score_p50", "score_p90")]
    for team in r.get("per_team", []):
        scope = f"team {team['team']}"
        rows.append([scope, "seats", " ".join(map(str, team["seats"])), "", ""])
        rows.append([scope, "win_rate", team["win_rate"], *team["win_ci"]])
        rows.append([scope, "wins", team["wins"], "", ""])
    solo = r.get("solo")
    if solo is not None:
        rows.append(["solo", "win_rate", solo["win_rate"], *solo["win_ci"]])
        rows.append(["solo", "wins", solo["wins"], "", ""])
        rows.append(["solo", "games_won", solo["games_won"], "", ""])
        rows.append(["solo", "games_tied", solo["tied"], "", ""])
        rows += [["solo", f"moves_to_win_{key}", value, "", ""]
                 for key, value in solo["moves_to_win"].items()]
    for name, stat in r["length"].items():
        rows += [["game", f"{name}_{key}", stat[key], "", ""] for key in ("mean", "sd")]
    rows += [["game", "cut_off_games", r["cut_off"]["games"], "", ""],
             ["game", "cut_off_rate", r["cut_off"]["rate"], "", ""],
             ["game", "no_winner_games", r["no_winner"]["games"], "", ""],
             ["game", "no_winner_rate", r["no_winner"]["rate"], "", ""]]
    if "ties" in r:
        first, leads = r["first_player_advantage"], r["lead_changes"]
        rows += [["game", "ties_games", r["ties"]["games"], "", ""],
                 ["game", "ties_rate", r["ties"]["rate"], "", ""],
                 ["game", "first_player_advantage", first["value"], *first["ci"]],
                 ["game", "first_player_advantage_baseline", first["baseline"], "", ""],
                 ["game", "lead_changes_mean", leads["mean"], "", ""],
                 ["game", "lead_changes_sd", leads["sd"], "", ""],
                 ["game", "lead_changes_games_with_change", leads["games_with_change"], "",
                  ""]]
    return [["" if v is None else v for v in row] for row in rows]


def write_csv(path: Path, rows: list[list[Any]]) -> None:
    try:
        with NewFile(path, newline="") as out:  # an earlier file stays whole until then
            csv.writer(out).writerows(rows)
    except OSError as exc:
        raise GameError(f"cannot write {path}: {exc.strerror or exc}") from None


def comparison_table(r: dict[str, Any]) -> list[str]:
    """The report of `compare` for people."""
    def named(side: str) -> str:
        chosen = ", ".join(f"{k}={v}" for k, v in r[f"{side}_options"].items())
        return f"{r[side + '_title']} ({r[side]}{', ' + chosen if chosen else ''})"

    lines = [f"A: {named('a')}   B: {named('b')}",
             f"{plural(r['games'], 'game')} on the same seeds"
             + (f" ({r['deals']} deals, each played with the seats turned round the table"
                + (f"; {r['games_requested']} asked for, made whole deals"
                   if r["games_planned"] != r["games_requested"] else "") + ")"
                if r.get("duplicate") else "")
             + f", {plural(r['players'], 'player')}, seed {r['seed']}, "
             f"seats: {', '.join(r['seats'])}"]
    if r["interrupted"]:
        lines.append(f"INTERRUPTED: the results of the first {r['games']} of "
                     f"{r['games_planned']} games only")
    lines += ["", f"{r['note']}; * marks a 95% interval that excludes 0", ""]
    rows = [["", "measure", "A", "B", "A - B", "95% CI"]]

    def row(scope: str, name: str, d: dict[str, Any]) -> None:
        rows.append([scope, name, number(d["a"]), number(d["b"]), number(d["diff"], True),
                     interval(d["ci"], True) + (" *" if d["significant"] else "")])

    for s in r["per_seat"]:
        row(f"seat {s['seat']}", "win rate", s["win_rate"])
        row(f"seat {s['seat']}", "score mean", s["score_mean"])
    if "house" in r:
        row("house", "win rate", r["house"]["win_rate"])
    if "moves_to_win" in r:
        row("seat 1", "moves to win", r["moves_to_win"])
    for name, d in r["length"].items():
        row("game", name, d)
    lines += columns(rows, right=(2, 3, 4))
    missing = {d["no_ci"] for d in differences(r) if "no_ci" in d}
    lines += [f"no interval: {why}" for why in sorted(missing)]
    cut = r["cut_off"]
    if cut["a"] or cut["b"]:
        kept = (f"{r['paired']} pairs where neither game was cut off" if not r.get("duplicate")
                else f"{r['paired']} pairs of the {r['deals_paired']} deals none of whose "
                     "games was cut off (a deal is left out whole)")
        lines += ["", f"cut off: A {cut['a']} games, B {cut['b']} games; "
                      f"{cut['pairs_left_out']} pairs left out: A, B and A - B are of the "
                      f"{kept}"]
    return printable_lines(lines)


def columns(rows: list[list[str]], right: Sequence[int] = ()) -> list[str]:
    """Rows of cells as lines, each column as wide as its widest cell and two spaces
    between columns, whatever the numbers' size; the columns in `right` aligned right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                      for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in rows]


def differences(r: dict[str, Any]) -> list[dict[str, Any]]:
    """Every A - B of a `compare` report."""
    out = [s[key] for s in r["per_seat"] for key in ("win_rate", "score_mean")]
    out += [r[key][name] for key, name in (("house", "win_rate"),) if key in r]
    out += [r["moves_to_win"]] if "moves_to_win" in r else []
    return out + list(r["length"].values())


def draw_plot(summary: Summary, report: dict[str, Any], path: Path) -> None:
    """Score distribution per seat (left) and win rates with their 95% intervals (right)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    figure = Figure(figsize=(11, 4.5))
    FigureCanvasAgg(figure)
    scores, wins = figure.subplots(1, 2)
    low = min(min(tally.counts) for tally in summary.scores)
    high = max(max(tally.counts) for tally in summary.scores)
    # One bin per score when there are few, else 40 bins shared by every seat.
    bins = [low - 0.5 + i for i in range(int(high - low) + 2)] if high - low < 40 else 40
    for seat, tally in enumerate(summary.scores, 1):
        values = sorted(tally.counts)
        scores.hist(values, bins=bins, range=(low, high), weights=[tally.counts[v] for v in values],
                    histtype="step", linewidth=1.5, label=f"seat {seat}")
    scores.set(title=f"{report['title']}: total score per seat", xlabel="score",
               ylabel="games")
    scores.legend()
    seats = report["per_seat"]
    rates = [s["win_rate"] for s in seats]
    errors = [[rate - s["win_ci"][0] for rate, s in zip(rates, seats)],
              [s["win_ci"][1] - rate for rate, s in zip(rates, seats)]]
    wins.bar([s["seat"] for s in seats], rates, yerr=errors, capsize=4)
    fair = report.get("first_player_advantage", {}).get("baseline")
    if fair is not None:  # each seat's win rate were the seats alike (its team's, with teams)
        wins.axhline(fair, linestyle="--", color="grey", label="the seats' mean")
    wins.set(title=f"win rate with 95% interval ({report['finished']} games ended)",
             xlabel="seat",
             ylabel="win rate", ylim=(0, 1), xticks=[s["seat"] for s in seats])
    if fair is not None:  # (a legend only for what is labelled)
        wins.legend()
    figure.tight_layout()
    try:
        with NewFile(path, binary=True) as out:
            figure.savefig(out, format="png")
    except OSError as exc:
        raise GameError(f"cannot write {path}: {exc.strerror or exc}") from None

