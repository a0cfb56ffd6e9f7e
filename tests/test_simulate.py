"""`cardrules simulate` and `cardrules compare`: statistics against known answers.

Two constructed rulesets give the answers: tests/data/seat_one_wins.yaml (seat 1 wins every
game, by its scoring) and tests/data/coin.yaml (one random card each; a fair coin between
the seats). The Dask tests need the `cluster` extra and skip without it.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import statistics
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cardrules.cli.main import main
from cardrules.cli.simulate import Progress
from cardrules.dsl.loader import RulesetRef, load_ruleset
from cardrules.interpreter.players.bots import BOTS
from cardrules.interpreter.sessions import simulate as sim_module
from cardrules.interpreter.sessions.simulate import (
    Running,
    Simulation,
    Summary,
    Tally,
    game_seed,
    lead_changes,
    stream,
    wilson,
)
from cardrules.interpreter.sessions.statistics import t_quantile
from cardrules.interpreter.state import added_up

DATA = Path(__file__).resolve().parent / "data"
COIN, SEAT_ONE = str(DATA / "coin.yaml"), str(DATA / "seat_one_wins.yaml")
EXIT_INVALID, EXIT_USAGE, EXIT_GAME, EXIT_INTERRUPTED = 1, 2, 3, 130


def cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), prog_name="cardrules", catch_exceptions=False)


def report(*args: str) -> dict[str, Any]:
    result = cli("simulate", *args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def run_api(ref: str, games: int, players: int, seed: int, workers: int = 1,
            **options: str) -> dict[str, Any]:
    sim = Simulation((RulesetRef.of(ref, options),), games, players, ("random",) * players,
                     seed)
    summary = Summary(load_ruleset(ref, options or None), sim)
    with closing(stream(sim, workers)) as records:
        for (record,) in records:
            summary.add(record)
    return summary.report()


def assert_clean_error(result: Result, code: int, *words: str) -> None:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.stderr, result.stderr


# ---------------------------------------------------------------- statistics
def test_wilson_interval_known_values() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert round(wilson(10, 10)[0], 4) == 0.7225 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    # A fractional count (shared wins) is a proportion like any other.
    low, high = wilson(2.5, 5)
    assert math.isclose((low + high) / 2, 0.5) and high - low > 0.5273


def test_welford_and_nearest_rank_percentiles() -> None:
    values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    tally = Tally()
    for v in values:
        tally.add(v)
    assert tally.n == len(values)
    assert math.isclose(tally.mean, statistics.mean(values))
    assert math.isclose(tally.sd, statistics.stdev(values))
    assert tally.counts == {1: 2, 2: 1, 3: 2, 4: 1, 5: 3, 6: 1, 9: 1}
    ten = Tally()
    for v in range(1, 11):
        ten.add(v)
    assert [ten.percentile(q) for q in (10, 50, 90, 100)] == [1, 5, 9, 10]
    assert Tally().percentile(50) is None
    one = Running()
    one.add(7)
    assert one.sd == 0.0 and one.ci() is None  # one number: its spread is unknown


# Student's t quantiles from published tables (to the digits given there).
@pytest.mark.parametrize(("p", "df", "expected"), [
    (0.975, 1, 12.7062), (0.975, 2, 4.3027), (0.975, 3, 3.1824), (0.975, 4, 2.7764),
    (0.975, 5, 2.5706), (0.975, 10, 2.2281), (0.975, 30, 2.0423), (0.975, 100, 1.9840),
    (0.975, 200, 1.9719), (0.975, 201, 1.9718), (0.975, 1000, 1.9623),
    (0.975, 10**6, 1.9600), (0.995, 1, 63.6567), (0.995, 9, 3.2498), (0.95, 5, 2.0150),
    (0.9, 20, 1.3253), (0.5, 7, 0.0)])
def test_t_quantile_matches_the_tables(p: float, df: int, expected: float) -> None:
    assert round(t_quantile(p, df), 4) == expected


def test_a_mean_interval_is_students_t() -> None:
    two = Running()
    for x in (6, 15):
        two.add(x)
    ci = two.ci()
    assert ci is not None  # 12.7062 standard errors either side: 6.5 times the normal's
    assert ci == pytest.approx((10.5 - 12.7062 * 4.5, 10.5 + 12.7062 * 4.5), abs=1e-3)


def test_lead_changes_on_constructed_round_scores() -> None:
    def changes(round_scores: list[list[int]], winner: str) -> int:
        return lead_changes(added_up(round_scores), winner)

    # Lowest total leads: seat 1, then seat 2, then seat 1 again.
    assert changes([[0, 1], [2, 0], [0, 2]], "lowest") == 2
    # The direction matters: after round 2 seats 1 and 3 tie for the highest total.
    assert changes([[0, 1, 2], [2, 0, 0]], "lowest") == 1
    assert changes([[0, 1, 2], [2, 0, 0]], "highest") == 0
    # A tie for the lead ends nobody's lead: only a new sole leader counts.
    assert changes([[1, 2], [1, 0], [-2, 0]], "lowest") == 0
    assert changes([[1, 2], [1, 0], [0, -2]], "lowest") == 1
    assert changes([[5, 5], [1, 0]], "highest") == 0  # the first sole leader is no change
    assert changes([[3, 1, 2]], "lowest") == 0 and changes([], "lowest") == 0


def test_lead_changes_follow_the_totals_rules_after_a_round_change() -> None:
    """golf6-family drops a total of exactly 150 to 0 after its round: the lead follows the
    totals the game had, not the rounds' scores added up. Of the first 200 games of seed 1,
    those where the rule struck count the leads of their own totals."""
    from cardrules.interpreter.engine import Engine
    from cardrules.interpreter.players.bots import make_bot
    from cardrules.interpreter.sessions.play import play
    from cardrules.interpreter.sessions.simulate import play_record
    from cardrules.interpreter.state import GameState

    engine = Engine(load_ruleset("golf6-family"))
    sim = Simulation((RulesetRef.of("golf6-family"),), games=200, players=4,
                     seats=("random",) * 4, seed=1)
    struck = 0
    for index in range(200):
        state = engine.new_game(4, game_seed(1, index))
        bots = [make_bot("random", game_seed(1, index), p) for p in range(4)]
        play(engine, state, bots)
        if state.round_totals == added_up(state.round_scores):
            continue
        struck += 1
        record = play_record(engine, sim, index)
        assert record.lead_changes == lead_changes(state.round_totals, "lowest")
        assert state.round_totals[-1] == state.totals
        again = GameState.from_json(state.to_json())
        assert again.round_totals == state.round_totals
    assert struck


def test_game_seeds_depend_on_run_seed_and_index_only() -> None:
    assert game_seed(1, 0) == game_seed(1, 0)
    seeds = {game_seed(s, i) for s in range(5) for i in range(1000)}
    assert len(seeds) == 5000
    assert all(0 <= s < 2 ** 63 for s in seeds)


# ------------------------------------------------------------- known answers
def test_seat_one_wins_every_game() -> None:
    r = report(SEAT_ONE, "--games", "200", "--players", "3", "--option", "rounds=3",
               "--workers", "1")
    assert r["games"] == 200 and not r["interrupted"]
    one, two, three = r["per_seat"]
    assert (one["win_rate"], one["wins"]) == (1.0, 200.0)
    assert one["win_ci"] == [round(wilson(200, 200)[0], 4), 1.0]
    assert one["win_ci"][0] < 1.0
    for other in (two, three):
        assert other["win_rate"] == 0.0 and other["win_ci"][0] == 0.0
        assert (other["score_mean"], other["score_sd"], other["score_p90"]) == (0.0, 0.0, 0)
    assert (one["score_mean"], one["score_sd"]) == (3.0, 0.0)
    assert (one["score_p10"], one["score_p50"], one["score_p90"]) == (3, 3, 3)
    assert r["length"] == {"turns": {"mean": 9.0, "sd": 0.0}, "actions": {"mean": 9.0, "sd": 0.0},
                           "rounds": {"mean": 3.0, "sd": 0.0}}
    assert r["ties"]["games"] == 0
    advantage = r["first_player_advantage"]
    assert advantage["value"] == round(1 - 1 / 3, 4)
    assert advantage["ci"][0] == round(wilson(200, 200)[0] - 1 / 3, 4)
    assert r["lead_changes"]["mean"] == 0.0 and r["lead_changes"]["games_with_change"] == 0


def test_a_tie_of_all_counts_one_kth_to_each() -> None:
    r = report(SEAT_ONE, "-n", "100", "-p", "4", "-o", "everyone_ties=true", "-w", "1")
    assert r["ties"]["games"] == 100 and r["ties"]["rate"] == 1.0
    assert [s["win_rate"] for s in r["per_seat"]] == [0.25] * 4
    assert [s["wins"] for s in r["per_seat"]] == [25.0] * 4
    assert r["first_player_advantage"]["value"] == 0.0


def test_coin_is_fair_within_its_intervals() -> None:
    r = report(COIN, "--games", "2000", "--seed", "3", "--workers", "1")
    rates = [s["win_rate"] for s in r["per_seat"]]
    assert math.isclose(sum(rates), 1.0, abs_tol=2e-4)
    for seat in r["per_seat"]:
        low, high = seat["win_ci"]
        assert low < 0.5 < high
        # Each seat's card is uniform over A-4: mean 2.5, sd sqrt(1.25).
        half = 1.96 * seat["score_sd"] / math.sqrt(r["games"])
        assert seat["score_mean"] - half < 2.5 < seat["score_mean"] + half
        assert abs(seat["score_sd"] - math.sqrt(1.25)) < 0.05
        assert (seat["score_p10"], seat["score_p90"]) == (1, 4)
        assert seat["score_p50"] in (2, 3)
    assert r["ties"]["games"] == 0 and r["lead_changes"]["mean"] == 0.0
    low, high = r["first_player_advantage"]["ci"]
    assert low < 0 < high


def test_win_rate_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    runs = [run_api(COIN, 100, 2, seed) for seed in range(40)]
    covered = sum(r["per_seat"][0]["win_ci"][0] <= 0.5 <= r["per_seat"][0]["win_ci"][1]
                  for r in runs)
    assert covered >= 34  # Binomial(40, 0.95) falls below 34 about once in 300 times
    assert len({r["per_seat"][0]["win_rate"] for r in runs}) > 5  # the seeds differ


def test_lead_changes_are_counted_in_real_games() -> None:
    r = report(COIN, "-n", "300", "-o", "rounds=4", "-w", "1", "-s", "2")
    leads = r["lead_changes"]
    assert 0 < leads["mean"] < 3 and 0 < leads["games_with_change"] < 300
    assert r["ties"]["games"] > 0  # equal totals happen over several rounds


# ---------------------------------------------------------------- determinism
@pytest.mark.parametrize("args", [
    ("golf6-quick", "-n", "60", "-p", "3"),
    (COIN, "-n", "300", "-o", "rounds=4", "-p", "3"),
])
def test_one_and_two_workers_give_identical_numbers(args: tuple[str, ...]) -> None:
    one = cli("simulate", *args, "--workers", "1", "--json")
    two = cli("simulate", *args, "--workers", "2", "--json")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout
    assert json.loads(one.stdout) != report(*args, "--workers", "1", "--seed", "2")


def test_every_bot_kind_can_sit_and_seat_one_still_wins() -> None:
    kinds = list(BOTS)  # whatever bots exist: the simulation takes any of them
    args = (SEAT_ONE, "-n", "12", "-p", str(len(kinds) + 1), "--seats",
            ",".join(["random", *kinds]))
    one, two = report(*args, "-w", "1"), report(*args, "-w", "2")
    assert one == two
    assert [s["kind"] for s in one["per_seat"]] == ["random", *kinds]
    assert [s["win_rate"] for s in one["per_seat"]] == [1.0] + [0.0] * len(kinds)


def test_the_api_streams_games_in_order() -> None:
    sim = Simulation((RulesetRef.of(COIN),), 50, 2, ("random", "random"), 5)
    with closing(stream(sim, workers=2)) as records:
        assert [record.game for (record,) in records] == list(range(50))


# ------------------------------------------------------------- output formats
def table_numbers(line: str) -> list[float]:
    return [float(x) for x in re.findall(r"[-+]?\d+(?:\.\d+)?", line)]


def test_table_json_and_csv_hold_the_same_numbers(tmp_path: Path) -> None:
    args = (COIN, "-n", "300", "-o", "rounds=3", "-w", "1", "-s", "4")
    table = cli("simulate", *args, "--csv", str(tmp_path / "out.csv"))
    assert table.exit_code == 0, table.output
    r = report(*args)
    lines = table.stdout.splitlines()
    for seat in r["per_seat"]:
        row = next(line for line in lines if re.match(rf"\s+{seat['seat']}\s+random", line))
        assert table_numbers(row) == [seat["seat"], seat["win_rate"], *seat["win_ci"],
                                      seat["score_mean"], seat["score_sd"], seat["score_p10"],
                                      seat["score_p50"], seat["score_p90"]]
    for name, stat in r["length"].items():
        row = next(line for line in lines if line.startswith(name + " "))
        assert table_numbers(row) == [stat["mean"], stat["sd"]]
    ties = next(line for line in lines if line.startswith("ties:"))
    assert table_numbers(ties) == [r["ties"]["games"], r["ties"]["rate"]]
    unwon = next(line for line in lines if line.startswith("no winner:"))
    assert table_numbers(unwon) == [r["no_winner"]["games"], r["no_winner"]["rate"]]
    first = next(line for line in lines if line.startswith("first player's advantage"))
    advantage = r["first_player_advantage"]
    assert table_numbers(first)[-3:] == [advantage["value"], *advantage["ci"]]
    leads = next(line for line in lines if line.startswith("lead changes per game"))
    assert table_numbers(leads) == [r["lead_changes"]["mean"], r["lead_changes"]["sd"],
                                    r["lead_changes"]["games_with_change"]]

    with (tmp_path / "out.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    cells = {(row["scope"], row["metric"]): row for row in rows}
    assert cells[("run", "games")]["value"] == "300"
    for seat in r["per_seat"]:
        scope = f"seat {seat['seat']}"
        win = cells[(scope, "win_rate")]
        assert [float(win[k]) for k in ("value", "ci_low", "ci_high")] == \
            [seat["win_rate"], *seat["win_ci"]]
        for key in ("wins", "score_mean", "score_sd", "score_p10", "score_p50", "score_p90"):
            assert float(cells[(scope, key)]["value"]) == seat[key]
    for name, stat in r["length"].items():
        assert float(cells[("game", f"{name}_mean")]["value"]) == stat["mean"]
        assert float(cells[("game", f"{name}_sd")]["value"]) == stat["sd"]
    first_row = cells[("game", "first_player_advantage")]
    assert [float(first_row[k]) for k in ("value", "ci_low", "ci_high")] == \
        [advantage["value"], *advantage["ci"]]
    assert float(cells[("game", "ties_rate")]["value"]) == r["ties"]["rate"]
    assert float(cells[("game", "lead_changes_mean")]["value"]) == r["lead_changes"]["mean"]


def test_progress_bar_only_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    bar = Progress(10, "coin", screen)
    for done in range(1, 11):
        bar.update(done)
    bar.close()
    text = screen.getvalue()
    assert "\r" in text and "100% 10/10 games" in text and "#" * Progress.WIDTH in text
    assert text.endswith("\r")
    pipe = io.StringIO()
    quiet = Progress(10, "coin", pipe)
    quiet.update(10)
    quiet.close()
    assert pipe.getvalue() == ""


# ------------------------------------------------------------------- errors
def test_bad_ruleset_is_one_clear_error(tmp_path: Path) -> None:
    assert_clean_error(cli("simulate", "no-such-game", "-n", "5"), EXIT_INVALID,
                       "no ruleset 'no-such-game'")
    broken = tmp_path / "broken.yaml"
    broken.write_text((DATA / "coin.yaml").read_text().replace("size(stock)", "sise(stock)")
                      .replace("c.number", "c.numbr"))
    assert_clean_error(cli("simulate", str(broken), "-n", "5"), EXIT_INVALID, "numbr")


@pytest.mark.parametrize(("args", "words"), [
    (("-n", "0"), ["--games", "0 is not in the range"]),
    (("-n", "many"), ["--games", "expected a whole number in digits 0-9, got 'many'"]),
    (("-n", "5", "--seats", "random,oracle"), ["--seats", "unknown seat kind 'oracle'"]),
    (("-n", "5", "--seats", "random"), ["--seats", "1 seats named for 2 players"]),
    (("-n", "5", "--seats", "random,human"),
     ["--seats", "for bots and programs, not a person ('human')"]),
    (("-n", "5", "-p", "7"), ["--players", "coin is for 2 to 4 players, not 7"]),
    (("-n", "5", "-w", "0"), ["--workers"]),
    (("-n", "5", "--json", "--csv", "x.csv"), ["--json and --csv"]),
    (("-n", "5", "--scheduler", "tcp://127.0.0.1:1"), ["--scheduler", "--backend dask"]),
    (("-n", "5", "--backend", "dask", "--scheduler", "not a url"),
     ["--scheduler", "'not a url' is not an address: expected HOST:PORT"]),
    (("-n", "5", "--backend", "dask", "--scheduler", "tcp://host:99999"),
     ["--scheduler", "is not an address"]),
    (("-n", "5", "-o", "colour=red"), []),
])
def test_bad_arguments_are_clear_errors(args: tuple[str, ...], words: list[str]) -> None:
    result = cli("simulate", COIN, *args)
    code = EXIT_INVALID if "-o" in args else EXIT_USAGE
    assert_clean_error(result, code, *words)
    assert result.stdout == ""


def test_a_rule_failing_in_a_worker_names_the_game(tmp_path: Path) -> None:
    # Two cards each from a stock of six: the seventh draw fails, in every game.
    failing = tmp_path / "failing.yaml"
    failing.write_text((DATA / "seat_one_wins.yaml").read_text().replace(
        'do: ["move top(stock) to hand[me]"]',
        'do: ["move top(stock) to hand[me]", "move top(stock) to hand[me]"]'))
    result = cli("simulate", str(failing), "-n", "20", "-p", "4", "-w", "2")
    assert_clean_error(result, EXIT_GAME, "game 1 (seed ", "empty")


def test_interrupted_run_prints_partial_results(monkeypatch: pytest.MonkeyPatch) -> None:
    real, played = sim_module.play_record, list[int]()

    def interrupt_after_seven(*args: Any) -> Any:
        if len(played) == 7:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args)

    monkeypatch.setattr(sim_module, "play_record", interrupt_after_seven)
    result = cli("simulate", SEAT_ONE, "-n", "50", "-w", "1")
    assert result.exit_code == EXIT_INTERRUPTED
    assert "INTERRUPTED: the results of the first 7 of 50 games only" in result.stdout
    assert re.search(r"^\s+1\s+random\s+1\.0000", result.stdout, re.M)
    assert "interrupted" in result.stderr and "Traceback" not in result.output
    played.clear()
    partial = cli("simulate", SEAT_ONE, "-n", "50", "-w", "1", "--json")
    assert partial.exit_code == EXIT_INTERRUPTED
    data = json.loads(partial.stdout)
    assert data["games"] == 7 and data["interrupted"] and data["games_requested"] == 50
    assert data["per_seat"][0]["wins"] == 7.0


# ------------------------------------------------------------------ compare
def test_compare_marks_significant_differences() -> None:
    result = cli("compare", COIN, SEAT_ONE, "-n", "200", "-w", "1", "--json")
    assert result.exit_code == 0, result.output
    r = json.loads(result.stdout)
    first = r["per_seat"][0]["win_rate"]
    assert first["b"] == 1.0 and first["diff"] == round(first["a"] - 1.0, 4)
    assert first["significant"] and first["ci"][1] < 0
    second = r["per_seat"][1]["win_rate"]
    assert second["significant"] and second["ci"][0] > 0
    for name in ("turns", "actions", "rounds"):
        assert r["length"][name]["diff"] == 0.0 and not r["length"][name]["significant"]
    table = cli("compare", COIN, SEAT_ONE, "-n", "200", "-w", "1")
    row = next(line for line in table.stdout.splitlines()
               if line.startswith("seat 1") and "win rate" in line)
    assert row.endswith("*")
    assert table_numbers(row)[1:] == [first["a"], first["b"], first["diff"], *first["ci"]]


def test_compare_of_one_game_gives_no_interval_and_says_why() -> None:
    r = json.loads(cli("compare", "golf6", "golf6-jokers5", "-n", "1", "-w", "1",
                       "--json").stdout)
    score = r["per_seat"][0]["score_mean"]
    assert score["diff"] is not None and score["ci"] == [None, None]
    assert not score["significant"] and "two or more" in score["no_ci"]
    table = cli("compare", "golf6", "golf6-jokers5", "-n", "1", "-w", "1").stdout
    assert "*" not in table.split("excludes 0")[1]
    assert re.search(r"^no interval: .*two or more", table, re.M)
    duplicate = json.loads(cli("compare", "golf6", "golf6-jokers5", "-n", "3", "--duplicate",
                               "-w", "1", "--json").stdout)
    assert duplicate["deals"] == 1
    assert all(seat["score_mean"]["ci"] == [None, None] for seat in duplicate["per_seat"])


def test_compare_marks_exactly_the_intervals_shown_to_exclude_0() -> None:
    """Two games: Student's t with one degree, so wide; the mark agrees with the numbers
    shown, in the JSON and in the table alike."""
    r = json.loads(cli("compare", "golf6", "golf6-jokers5", "-n", "2", "-w", "1",
                       "--json").stdout)
    for d in [s[key] for s in r["per_seat"] for key in ("win_rate", "score_mean")] \
            + list(r["length"].values()):
        low, high = d["ci"]
        assert d["significant"] == (low > 0 or high < 0)
    table = cli("compare", "golf6", "golf6-jokers5", "-n", "2", "-w", "1").stdout
    for line in table.splitlines():
        if line.startswith(("seat", "game")) and "[" in line:
            low, high = table_numbers(line)[-2:]
            assert line.endswith("*") == (low > 0 or high < 0), line


def test_compare_table_keeps_wide_numbers_in_their_columns() -> None:
    """Scores in the thousands, negative: every cell apart from the next by two spaces at
    least, each number column ending where its heading ends."""
    table = cli("compare", "golf6", "spades", "-n", "2", "-w", "1").stdout.splitlines()
    start = next(i for i, line in enumerate(table) if line.strip().startswith("measure"))
    header, rows = table[start], table[start + 1:start + 12]
    assert any(len(number) >= 10 for row in rows for number in row.split())  # wide ones
    for line in rows:
        cells = re.split(r" {2,}", line)
        assert len(cells) == 6, line
        for heading in ("A", "B", "A - B"):
            end = header.index(f" {heading} ") + len(heading) + 1
            assert line[end - 1] != " " and line[end] == " ", (heading, line)


@pytest.mark.parametrize("flag", ["--csv", "--plot"])
def test_a_file_that_cannot_be_written_is_refused_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flag: str) -> None:
    if flag == "--plot":
        pytest.importorskip("matplotlib")

    def no_games(*args: Any) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(sim_module, "play_record", no_games)
    for path, why in [(tmp_path / "none" / "out", "there is no folder"),
                      (tmp_path, "is a directory")]:
        result = cli("simulate", COIN, "-n", "5", "-w", "1", flag, str(path))
        assert result.exit_code == EXIT_USAGE and flag in result.stderr, result.output
        assert why in result.stderr and result.stdout == ""
    assert list(tmp_path.iterdir()) == []  # nothing made


def test_numbers_written_over_a_file_take_its_place_whole_or_not_at_all(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--csv over a file: the new numbers are written beside it and take its place once
    complete; a link at that name is replaced, never written through; a write that fails
    leaves the file there as it was and nothing else behind."""
    victim, out = tmp_path / "victim.txt", tmp_path / "out.csv"
    victim.write_text("keep me\n", encoding="utf-8")
    out.symlink_to(victim)
    result = cli("simulate", COIN, "-n", "5", "-w", "1", "--csv", str(out))
    assert result.exit_code == 0, result.output
    assert victim.read_text(encoding="utf-8") == "keep me\n" and not out.is_symlink()
    written = out.read_text(encoding="utf-8")
    assert written.startswith("scope,")

    class Full:
        def __init__(self, file: Any) -> None:
            self.file = file

        def writerows(self, rows: Any) -> None:
            self.file.write("scope,half a row")
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(csv, "writer", Full)
    result = cli("simulate", COIN, "-n", "5", "-w", "1", "--csv", str(out))
    assert result.exit_code == EXIT_GAME and "No space left on device" in result.stderr
    assert out.read_text(encoding="utf-8") == written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv", "victim.txt"]


def test_compare_a_ruleset_with_itself_finds_nothing() -> None:
    result = cli("compare", "golf6-quick", "golf6-quick", "-n", "30", "-w", "2", "--json")
    assert result.exit_code == 0, result.output
    r = json.loads(result.stdout)
    for seat in r["per_seat"]:
        for key in ("win_rate", "score_mean"):
            assert seat[key]["diff"] == 0.0 and not seat[key]["significant"]
            assert seat[key]["a"] == seat[key]["b"]


def test_compare_checks_players_against_both() -> None:
    assert_clean_error(cli("compare", SEAT_ONE, COIN, "-n", "5", "-p", "6"), EXIT_USAGE,
                       "coin is for 2 to 4 players, not 6")


# ---------------------------------------------------------------- extras
def test_plot_draws_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "coin.png"
    result = cli("simulate", COIN, "-n", "100", "-w", "1", "--plot", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("module", "args", "extra"), [
    ("matplotlib", ("--plot", "x.png"), "plot"),
    ("distributed", ("--backend", "dask"), "cluster"),
])
def test_a_missing_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch, module: str,
                                              args: tuple[str, ...], extra: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # makes `import module` fail
    result = cli("simulate", COIN, "-n", "5", "-w", "1", *args)
    assert_clean_error(result, EXIT_USAGE, f"pip install 'cardrules[{extra}]'")
    assert len(result.stderr.strip().splitlines()) == 1


def test_dask_cluster_gives_the_local_numbers(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    import dask

    args = ("golf6-quick", "-n", "40", "-p", "3", "-s", "9")
    local = report(*args, "-w", "2")
    with dask.config.set({"temporary-directory": str(tmp_path)}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=None,
                                     local_directory=str(tmp_path)) as cluster:
        remote = report(*args, "--backend", "dask", "--scheduler", cluster.scheduler_address)
    assert remote == local


def test_a_game_stopped_without_a_win_counts_for_nobody() -> None:
    """geohash has `winner: none`: a game its turn limit stops is won by no seat, and the
    report counts it apart."""
    r = report("geohash", "-n", "6", "--seed", "1", "-o", "turn_limit=1",
               "--seats", "greedy,greedy,greedy,greedy")
    assert r["no_winner"] == {"games": 6, "rate": 1.0}
    assert all(s["wins"] == 0 for s in r["per_seat"])


# ---------------------------------------------------------------- duplicate play
def test_duplicate_turns_the_seats_round_the_table_over_each_deal() -> None:
    """Where seat 1 always wins, a kind wins the deals' games in which it sits there: with
    the seats turned round a 3-player table, a third of them, whatever its seat in --seats."""
    plain = cli("compare", SEAT_ONE, SEAT_ONE, "--games", "12", "--players", "3",
                "--seats", "greedy,random,random", "--json")
    turned = cli("compare", SEAT_ONE, SEAT_ONE, "--games", "12", "--players", "3",
                 "--seats", "greedy,random,random", "--duplicate", "--json")
    assert plain.exit_code == 0 and turned.exit_code == 0, turned.output
    before, after = json.loads(plain.stdout), json.loads(turned.stdout)
    assert before["per_seat"][0]["win_rate"]["a"] == 1.0
    assert (after["games"], after["deals"], after["duplicate"]) == (12, 4, True)
    assert [s["win_rate"]["a"] for s in after["per_seat"]] == pytest.approx([1 / 3] * 3, 1e-3)
    assert all(s["win_rate"]["diff"] == 0 for s in after["per_seat"])


def test_duplicate_games_are_one_deal_with_the_results_in_the_kinds_order() -> None:
    ref = RulesetRef.of("golf6-quick", {})
    sim = Simulation((ref,), 1, 4, ("greedy", "random", "random", "random"), 5, rotations=4)
    engine = sim_module.engine_for(ref)
    first, turned = (sim_module.play_record(engine, sim, 0, turn) for turn in (0, 1))
    by_hand = Simulation((ref,), 1, 4, ("random", "greedy", "random", "random"), 5)
    again = sim_module.play_record(engine, by_hand, 0)  # the greedy bot in seat 2, by hand
    assert turned.totals == (again.totals[1], again.totals[2], again.totals[3], again.totals[0])
    assert first.totals != turned.totals


def test_duplicate_asks_whole_deals() -> None:
    result = cli("compare", COIN, COIN, "--games", "5", "--players", "2", "--duplicate",
                 "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["games"], data["deals"]) == (6, 3)  # 5 games: 3 deals of 2


# ---------------------------------------------------------------- cut off, teams, one seat
DRAW_OR_STOP, PATIENCE = str(DATA / "draw_or_stop.yaml"), str(DATA / "patience.yaml")


def test_games_cut_off_by_the_bound_are_counted_apart() -> None:
    """tests/data/draw_or_stop.yaml: a game of three draws reaches `max_actions`. Such games
    are counted apart and left out of the win rates, scores and lengths, which are those of
    the games that ended (every one of which has a round and a winner)."""
    r = report(DRAW_OR_STOP, "-n", "120")
    cut = r["cut_off"]["games"]
    assert 0 < cut < 120 and r["finished"] == 120 - cut and r["games"] == 120
    assert r["cut_off"]["max_actions"] == 3
    assert r["length"]["rounds"]["mean"] == 1.0
    assert r["no_winner"]["games"] == 0
    assert sum(s["wins"] for s in r["per_seat"]) == pytest.approx(r["finished"])
    assert sum(s["win_rate"] for s in r["per_seat"]) == pytest.approx(1.0)
    assert r["per_seat"][0]["score_p10"] >= 0 and r["length"]["actions"]["mean"] < 3
    text = cli("simulate", DRAW_OR_STOP, "-n", "120").output
    assert f"cut off: {cut} games" in text
    data = json.loads(cli("compare", DRAW_OR_STOP, DRAW_OR_STOP, "-n", "40", "--json").stdout)
    assert data["cut_off"]["a"] == data["cut_off"]["b"] == data["cut_off"]["pairs_left_out"] > 0
    assert data["length"]["rounds"]["a"] == 1.0
    assert all(s["win_rate"]["diff"] == 0 for s in data["per_seat"])


def test_a_duplicate_deal_with_a_game_cut_off_is_left_out_whole() -> None:
    """draw_or_stop with two seats of different kinds, duplicate: a deal some of whose games
    were cut off would no longer put every kind in every seat. It is left out whole, so that
    A, B and A - B are of the same games, each deal counting as one: A less B is A - B."""
    data = json.loads(cli("compare", DRAW_OR_STOP, DRAW_OR_STOP, "-n", "80", "--duplicate",
                          "--seats", "greedy:1,random", "--json").stdout)
    played, paired = data["deals"], data["deals_paired"]
    assert played == 40 and 0 < paired < played
    assert data["paired"] == 2 * paired and data["cut_off"]["pairs_left_out"] == \
        2 * (played - paired)
    for seat in data["per_seat"]:
        for measure in ("win_rate", "score_mean"):
            d = seat[measure]
            assert d["a"] - d["b"] == pytest.approx(d["diff"]), (seat["seat"], measure)
    text = cli("compare", DRAW_OR_STOP, DRAW_OR_STOP, "-n", "80", "--duplicate",
               "--seats", "greedy:1,random").output
    assert "80 games on the same seeds (40 deals" in text
    assert f"of the {paired} deals none of whose games was cut off" in text


def test_duplicate_with_every_seat_alike_says_it_learns_one_game_a_deal() -> None:
    result = cli("compare", "golf6-quick", "golf6-quick", "-n", "4", "--duplicate")
    assert result.exit_code == 0
    assert "every seat is 'random', so turning them round the table changes nothing" in \
        result.stderr


def test_a_team_wins_whole_games() -> None:
    """spades plays in two partnerships: a team's win is one win for each of its seats (not
    half a win per seat), and the report has a line per team."""
    r = report("spades", "-n", "4", "-o", "one_deal=true")
    teams = r["per_team"]
    assert [t["seats"] for t in teams] == [[1, 3], [2, 4]]
    assert sum(t["wins"] for t in teams) == pytest.approx(r["finished"])
    for seat in r["per_seat"]:
        assert seat["wins"] == teams[(seat["seat"] - 1) % 2]["wins"]
    assert r["first_player_advantage"]["sides"] == 2
    assert "team 1 (seats 1, 3)" in cli("simulate", "spades", "-n", "2", "-o",
                                        "one_deal=true").output


def test_one_seat_reports_its_win_rate_and_moves_to_win() -> None:
    """tests/data/patience.yaml: one seat wins half its games, in one move or two; the
    report gives that, and no head-to-head figures."""
    r = report(PATIENCE, "-n", "200")
    solo = r["solo"]
    low, high = solo["win_ci"]
    assert low < 0.5 < high and solo["wins"] + r["no_winner"]["games"] == 200
    moves = solo["moves_to_win"]
    assert (moves["p10"], moves["p90"]) == (1, 2) and 1 < moves["mean"] < 2
    assert not {"ties", "first_player_advantage", "lead_changes"} & set(r)
    text = cli("simulate", PATIENCE, "-n", "20").output
    assert "moves to win: mean" in text and "first player" not in text
    data = json.loads(cli("compare", PATIENCE, PATIENCE, "-n", "20", "--json").stdout)
    assert data["moves_to_win"]["diff"] == 0

def test_moves_to_win_compared_are_of_the_games_both_won(tmp_path: Path) -> None:
    """B turns up to three cards, A two: B wins games A loses. A, B and A - B are all of
    the games both won, so that A less B is A - B; and the CSV has the games won."""
    longer = tmp_path / "patience3.yaml"
    longer.write_text(Path(PATIENCE).read_text(encoding="utf-8").replace(
        "size(waste) == 2", "size(waste) == 3").replace("name: patience", "name: patience3"),
        encoding="utf-8")
    data = json.loads(cli("compare", PATIENCE, str(longer), "-n", "120", "--json").stdout)
    moves = data["moves_to_win"]
    assert moves["a"] - moves["b"] == pytest.approx(moves["diff"]) and moves["diff"] == 0
    out = tmp_path / "out.csv"
    assert cli("simulate", PATIENCE, "-n", "40", "--csv", str(out)).exit_code == 0
    with out.open(newline="") as f:
        rows = {(row[0], row[1]): row[2] for row in csv.reader(f)}
    assert int(rows["solo", "games_won"]) + int(rows["game", "no_winner_games"]) == 40
    assert rows["solo", "games_tied"] == "0"


def test_csv_and_plot_may_not_name_one_file(tmp_path: Path) -> None:
    """The picture would write over the numbers: refused before any game."""
    same = tmp_path / "out.csv"
    result = CliRunner().invoke(main, ["simulate", "golf6", "-n", "2", "--csv", str(same),
                                       "--plot", str(tmp_path / "." / "out.csv")])
    assert result.exit_code == 2 and "name the same file" in result.output
    assert not same.exists()


def test_a_seat_kind_with_an_empty_budget_is_refused() -> None:
    result = CliRunner().invoke(main, ["simulate", "golf6", "-n", "2", "--seats",
                                       "ismcts:,random,random,random"])
    assert result.exit_code == 2 and "the budget after ':' must be a whole number" in \
        result.output


def test_compare_says_which_figure_has_no_pairs() -> None:
    """freecell with itself, no game won: only moves to win has no pair; the note says so
    rather than that there were no paired games."""
    result = CliRunner().invoke(main, ["compare", "freecell", "freecell", "-n", "2"])
    assert result.exit_code == 0, result.output
    assert "no interval: no pair of games (or deals) has this figure in both: only a game " \
        "won has it" in result.output
    assert "no paired games" not in result.output


# ---------------------------------------------------------------- figures that must agree
BLACKJACK = str(DATA / "blackjack.yaml")


def test_compare_shows_a_and_b_of_the_pairs_its_differences_are_of(tmp_path: Path) -> None:
    """draw-or-stop cut off at three actions against the same game cut off at six: the pairs
    where either was cut off are left out of A, B and A - B alike, so that each A - B is its
    A less its B (B's figures were of all its games that ended, A's of its own)."""
    later = tmp_path / "later.yaml"
    later.write_text(Path(DRAW_OR_STOP).read_text(encoding="utf-8").replace(
        "max_actions: 3", "max_actions: 6"), encoding="utf-8")
    data = json.loads(cli("compare", DRAW_OR_STOP, str(later), "-n", "80", "--json").stdout)
    left_out = data["cut_off"]["pairs_left_out"]
    assert data["cut_off"]["a"] == left_out > data["cut_off"]["b"]
    assert data["paired"] == 80 - left_out
    for figure in [s[key] for s in data["per_seat"] for key in ("win_rate", "score_mean")] \
            + list(data["length"].values()):
        assert figure["a"] == figure["b"] and figure["diff"] == 0
    text = cli("compare", DRAW_OR_STOP, str(later), "-n", "80").output
    assert f"A, B and A - B are of the {80 - left_out} pairs" in text


def test_the_first_players_advantage_is_against_the_seats_mean() -> None:
    """Seat 1's win rate is measured against what every seat wins on average: 1/players
    where every game has a winning seat; less with a house that wins most games; nothing to
    measure where no seat ever wins (hanabi's shared score)."""
    golf = report("golf6-quick", "-n", "40")["first_player_advantage"]
    assert golf["baseline"] == 0.25
    house = report(BLACKJACK, "-n", "60")
    first = house["first_player_advantage"]
    seats = [s["win_rate"] for s in house["per_seat"]]
    assert first["baseline"] == pytest.approx(sum(seats) / 3, abs=1e-4)
    assert first["baseline"] < 0.2
    assert first["value"] == pytest.approx(seats[0] - first["baseline"], abs=2e-4)
    text = cli("simulate", BLACKJACK, "-n", "60").output
    assert f"seat 1's win rate - the seats' mean win rate {first['baseline']:.4f}" in text
    nobody = report("hanabi", "-n", "4", "-p", "3")["first_player_advantage"]
    assert nobody["value"] is None and nobody["ci"] == [None, None]
    assert "first player's advantage: none to measure" in cli(
        "simulate", "hanabi", "-n", "4", "-p", "3").output


def test_one_seat_against_the_house_counts_its_tied_wins() -> None:
    """One seat and the house: the games it won, those tied with the house, and its wins
    with a tie counted 1/k, all told apart."""
    r = report(BLACKJACK, "-n", "200", "-p", "1", "--seed", "1")
    solo = r["solo"]
    assert solo["tied"] > 0 and solo["games_won"] > solo["wins"]
    assert solo["wins"] == pytest.approx(solo["games_won"] - solo["tied"] / 2)
    text = cli("simulate", BLACKJACK, "-n", "200", "-p", "1", "--seed", "1").output
    assert f"{solo['games_won']} games won, {solo['tied']} of them tied with the house" in text


def test_a_run_of_games_all_cut_off_gives_no_interval_and_no_picture(tmp_path: Path) -> None:
    """Every game cut off: a win rate of no games has no interval (not [0, 1]), and a
    picture asked for says why it is not drawn."""
    always = tmp_path / "always.yaml"  # (stopping does not end the game: it never ends)
    always.write_text(Path(DRAW_OR_STOP).read_text(encoding="utf-8").replace(
        'do: ["end game"]', 'do: ["shuffle stock"]'), encoding="utf-8")
    r = report(str(always), "-n", "10")
    assert r["finished"] == 0 and all(s["win_ci"] == [None, None] for s in r["per_seat"])
    assert r["first_player_advantage"]["ci"] == [None, None]
    pytest.importorskip("matplotlib")
    picture = tmp_path / "never.png"
    result = CliRunner().invoke(main, ["simulate", str(always), "-n", "10", "--plot",
                                       str(picture)])
    assert result.exit_code == 0 and not picture.exists()
    assert "no picture drawn: no game came to its end" in result.stderr


def test_the_csv_names_the_options_played(tmp_path: Path) -> None:
    """Two variants of one ruleset read apart in their CSV files: the options, the winner
    rule and the bound on actions are rows of the run."""
    out = tmp_path / "czech.csv"
    result = cli("simulate", "czech-golf", "-n", "4", "-o", "peeks=1", "--csv", str(out))
    assert result.exit_code == 0, result.output
    with out.open(encoding="utf-8") as read:
        rows = {(row[0], row[1]): row[2] for row in csv.reader(read)}
    assert rows[("run", "option peeks")] == "1" and rows[("run", "winner")] == "highest"
    assert ("run", "max_actions") in rows


def test_duplicate_reports_the_games_asked_for() -> None:
    """Duplicate play makes whole deals: 10 games asked of 4 players are 3 deals, 12 games;
    the report says 10 were asked for, and the table why there are 12."""
    data = json.loads(cli("compare", "golf6-quick", "golf6-quick", "-n", "10", "--duplicate",
                          "--json").stdout)
    assert (data["games"], data["games_requested"], data["games_planned"]) == (12, 10, 12)
    text = cli("compare", "golf6-quick", "golf6-quick", "-n", "10", "--duplicate").output
    assert "12 games on the same seeds (3 deals" in text and "10 asked for" in text


def test_a_long_seat_kind_keeps_the_table_in_line() -> None:
    """A program's command as a seat kind is cut in the table's column ('~'), so that every
    row's numbers stay under their headings."""
    from cardrules.cli.simulate import shortened

    assert shortened("random") == "random"
    assert shortened("cmd:python bot.py") == "cmd:pytho~" and len(shortened("x" * 40)) == 10


def test_compare_plays_two_settings_of_one_rulesets_options() -> None:
    """-o sets an option of both rulesets, -a of the first, -b of the second: two settings
    of one ruleset compared without a file for each; each side's options are reported."""
    data = json.loads(cli("compare", "golf6-quick", "golf6-quick", "-n", "6", "-o", "rounds=1",
                          "-b", "rounds=2", "--json").stdout)
    assert data["a_options"] == {"rounds": "1"} and data["b_options"] == {"rounds": "2"}
    assert data["length"]["rounds"]["a"] == 1 and data["length"]["rounds"]["b"] == 2
    text = cli("compare", "golf6-quick", "golf6-quick", "-n", "2", "-a", "rounds=1").output
    assert text.startswith("A: 6-card Golf, four rounds (golf6-quick, rounds=1)   "
                           "B: 6-card Golf, four rounds (golf6-quick)")
    bad = CliRunner().invoke(main, ["compare", "golf6", "golf6", "-n", "1", "-b", "rounds"])
    assert bad.exit_code == EXIT_USAGE and "--option-b" in bad.output


def test_the_options_are_reported_as_the_ruleset_read_them() -> None:
    """`rounds=04` played four rounds: the report says rounds=4, as `yes` for a truth
    option says true (a reader comparing reports sees one value one way)."""
    data = report("golf6-quick", "-n", "2", "-o", "rounds=04", "-o", "discard_taken_card=no")
    assert data["options"] == {"rounds": "4", "discard_taken_card": "false"}
    text = cli("simulate", "golf6-quick", "-n", "2", "-o", "rounds=04").output
    assert text.splitlines()[0].endswith("options: rounds=4")
    data = json.loads(cli("compare", "golf6-quick", "golf6-quick", "-n", "2", "-a", "rounds=01",
                          "--json").stdout)
    assert data["a_options"] == {"rounds": "1"} and data["b_options"] == {}


def test_a_seat_searching_for_a_time_is_said_to_make_the_numbers_the_machines() -> None:
    """The same seed gives the same numbers with any workers, but not where a seat searches
    for a time (ismcts:0.002s): how far it gets depends on the machine. simulate and compare
    say so, once, before the numbers; counted budgets say nothing."""
    timed = cli("simulate", "golf6", "-o", "rounds=1", "-n", "1", "-w", "1", "--seats",
                "ismcts:0.002s,random,random,random")
    assert timed.exit_code == 0, timed.output
    assert "note: seat 1 (ismcts:0.002s) searches for a time" in timed.output
    counted = cli("compare", "golf6", "golf6-quick", "-n", "1", "-w", "1", "--seats",
                  "ismcts:5,random,random,random")
    assert counted.exit_code == 0 and "searches for a time" not in counted.output
