"""Corners of the language that the games do not all reach: aggregates with conditions over
grids, joined lists, and the code generated for them."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.errors import RulesetError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.positions import position
from cardrules.interpreter.sessions.play import play_game
from cardrules.interpreter.state import GameState
from cardrules.present import news

DATA = Path(__file__).resolve().parent / "data"


def test_aggregates_with_conditions_over_a_grid() -> None:
    engine = Engine(load_ruleset(DATA / "grid_aggregates.yaml"))
    state = play_game(engine, 2, seed=3)
    numbers = engine.rules.cards.number
    for seat in range(2):
        grid = state.zones[engine.rules.zone("grid").zone_of(seat)]
        expected = sum(numbers[c] for c in grid if numbers[c] > 5) + sum(numbers[c] for c in grid)
        assert state.round_scores[0][seat] == expected


GROUPED = """\
cardrules: 1
name: grouped
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
  - {name: meld, owner: each, visibility: owner, groups: 2}
round:
  setup: ["DEAL"]
  phases:
    - name: p
      turns: each_once
      steps:
        - name: s
          moves:
            - name: m
              do: ["move top(hand[me]) to meld[me][1]"]
"""


def test_a_grouped_zone_cannot_be_dealt_to(tmp_path: Path) -> None:
    from cardrules.dsl.loader import check_files

    path = tmp_path / "g.yaml"
    path.write_text(GROUPED.replace("DEAL", "deal 2 from stock to each meld"), encoding="utf-8")
    (problem,) = check_files([str(path)])
    assert "without groups" in problem.message


def test_a_card_moved_into_an_owner_group_is_known_to_that_owner(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(GROUPED.replace("DEAL", "deal 3 from stock to each hand"), encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    engine.apply(state, ("m",))  # seat 1 puts a card into its second group
    engine.apply(state, ("m",))  # seat 2 likewise
    for seat in range(2):
        (card,) = state.zones[engine.rules.zone("meld").instances(seat)[1]]
        assert state.known[card] == 1 << seat


ORDERED = """\
cardrules: 1
name: ordered
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
round:
  setup: ["deal 5 from stock to each hand"]
  phases:
    - name: p
      turns: each_once
      steps:
        - name: s
          moves:
            - name: pick
              choose:
                low: "ranks() where low <= '3'"
                high: "ranks() where high > low and high < 'J'"
                suit: "suits() where suit >= 'hearts'"
              do: []
"""


def test_ranks_and_suits_are_ordered_as_the_deck_lists_them(tmp_path: Path) -> None:
    path = tmp_path / "o.yaml"
    path.write_text(ORDERED, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    cards = engine.rules.cards
    picks = {(cards.rank_names[a[1]], cards.rank_names[a[2]], cards.suit_names[a[3]])
             for a in engine.legal_actions(engine.new_game(2, 1))}
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]  # below J
    suits = cards.suit_names[cards.suit_names.index("hearts"):-1]  # hearts and on, no joker
    assert picks == {(low, high, suit) for i, low in enumerate(ranks[:3])
                     for high in ranks[i + 1:] for suit in suits}
    # A rank and a suit are not ordered against each other; colours are not ordered at all.
    from cardrules.dsl.loader import check_files

    for wrong in ("suit > low", "'red' < 'black'"):
        path.write_text(ORDERED.replace("suit >= 'hearts'", wrong), encoding="utf-8")
        (problem,) = check_files([str(path)])
        assert "only numbers, ranks and suits can be ordered" in problem.message


def test_the_top_of_a_group_reads_as_any_zone_s_in_a_function() -> None:
    # `top(pile[p][i - 1])` in a function: the group's number is checked by a call, so the
    # top card is read by a call of the runtime (it once ended validate in a traceback)
    from cardrules.dsl.loader import check_files

    path = DATA / "group_top.yaml"
    assert check_files([str(path)]) == []
    for inline in (True, False):
        from cardrules.dsl.compiler import compile_document
        from cardrules.dsl.loader import load_document

        engine = Engine(compile_document(load_document(path), inline=inline))
        state = play_game(engine, 2, seed=4)
        pile = state.zones[engine.rules.zone("pile").zone_of(0)]
        suits = {engine.rules.cards.suit[c] for c in pile}
        assert state.over and len(suits) == 1 and len(pile) >= 1


GAMES = Path(__file__).resolve().parent / "games"


def test_a_slice_of_a_pile_lifts_a_card_and_every_card_above_it() -> None:
    # tests/games/towers.yaml: four shared piles (`pile[i]`); `lift` moves
    # pile[i][position(card, pile[i]):] onto another pile, keeping the cards' order.
    from cardrules.interpreter.words import Words

    engine = Engine(load_ruleset(GAMES / "towers.yaml"))
    pile = engine.rules.zone("pile")
    piles = list(pile.instances(0))
    assert len(piles) == 4 and pile.groups == 4 and not pile.owned
    lifted = 0
    for seed in range(12):
        state = engine.new_game(2, seed)
        legal = engine.legal_actions(state)
        while legal and lifted < 3:
            lifts = [a for a in legal if a[0] == "lift"]
            if not lifts:
                engine.apply(state, legal[0])
                legal = engine.legal_actions(state)
                continue
            _, n, card, m = lifts[-1]
            source, dest = state.zones[piles[n - 1]], state.zones[piles[m - 1]]
            moved = source[source.index(card):]
            expected_source, expected_dest = source[:source.index(card)], dest + moved
            text = engine.words.describe(lifts[-1], state, 0)
            assert text.startswith("Lift ") and f"from pile {n} to pile {m}" in text
            engine.apply(state, lifts[-1])
            assert state.zones[piles[n - 1]] == expected_source
            assert state.zones[piles[m - 1]] == expected_dest
            lifted += 1
            legal = engine.legal_actions(state)
    assert lifted == 3
    # a card's place on the table is named by its pile, counted from 1 as people count
    state = engine.new_game(2, 0)
    card = state.zones[piles[2]][0]
    assert Words(engine.rules).place_of(state, card, 0) == "an unseen card from pile 3"
    assert play_game(engine, 3, seed=5).over


def _poker_strength(highs: list[int], suits: list[int]) -> tuple[int, ...]:
    """A five-card poker hand's strength, written out in Python, to check the rule file's."""
    from collections import Counter

    counts = Counter(highs)
    order = sorted(highs, key=lambda h: (-counts[h], -h))
    shape = sorted(counts.values(), reverse=True)
    ranks = sorted(set(highs))
    wheel = sorted(highs) == [2, 3, 4, 5, 14]
    straight = wheel or (len(ranks) == 5 and ranks[-1] - ranks[0] == 4)
    flush = len(set(suits)) == 1
    category = (8 if straight and flush else 7 if shape[0] == 4 else 6 if shape == [3, 2]
                else 5 if flush else 4 if straight else 3 if shape[0] == 3
                else 2 if shape == [2, 2, 1] else 1 if shape[0] == 2 else 0)
    return (category, *([5, 4, 3, 2, 1] if wheel else order))


def test_poker_hands_are_ranked_by_rules() -> None:
    # tests/games/showdown.yaml ranks hands with combinations(), sorted(), sorted_by() and
    # max_by() alone: the best five of seven, each hand a list of numbers compared in order.
    from itertools import combinations

    engine = Engine(load_ruleset(GAMES / "showdown.yaml"))
    cards, rules = engine.rules.cards, engine.rules
    names = cards.names
    for seed in range(8):
        state = play_game(engine, 4, seed=seed)
        board = state.zones[rules.zone("board").index]
        best = []
        for seat in range(4):
            seven = state.zones[rules.zone("hand").zone_of(seat)] + board
            best.append(max(_poker_strength([_high(names[c]) for c in five],
                                            [cards.suit[c] for c in five])
                            for five in combinations(seven, 5)))
        winner = best.index(max(best))
        assert state.round_scores[0] == [1 if seat == winner else 0 for seat in range(4)]


def _high(name: str) -> int:
    rank = name[:-1]
    return {"J": 11, "Q": 12, "K": 13, "A": 14}.get(rank) or int(rank)


def test_a_subset_of_the_table_is_taken_by_its_sum() -> None:
    # tests/games/sweep.yaml: `subsets(table) where ...` lists every set of table cards whose
    # worths add up to the played card's; a card that takes nothing is laid.
    engine = Engine(load_ruleset(GAMES / "sweep.yaml"))
    state = engine.new_game(2, 1)
    names = engine.rules.cards.names
    value = {"A": 1, "J": 8, "Q": 9, "K": 10}

    def worth(c: int) -> int:
        return value.get(names[c][:-1]) or int(names[c][:-1])

    for _ in range(40):
        legal = engine.legal_actions(state)
        if not legal:
            break
        table = state.zones[engine.rules.zone("table").index]
        for action in legal:
            if action[0] == "take":
                _, card, cs = action
                assert set(cs) <= set(table) and len(cs) > 0
                assert sum(worth(c) for c in cs) == worth(card)
        takers = {a[1] for a in legal if a[0] == "take"}
        assert not takers & {a[1] for a in legal if a[0] == "lay"}
        engine.apply(state, legal[-1])


def test_points_scored_during_play_count_in_the_round_and_the_total() -> None:
    # tests/games/race.yaml: `score N to me` during play; the round's score has the entry
    # 'in play', p.total reads the points at once, and a total of 12 wins on the spot.
    from cardrules.present.news import news

    engine = Engine(load_ruleset(GAMES / "race.yaml"))
    assert engine.rules.score_names == ("aces", "in play")
    won_early = 0
    for seed in range(10):
        state = play_game(engine, 2, seed=seed, log=True)
        scored = [[0, 0] for _ in state.round_scores]
        rnd = 0
        for event in state.log:
            if event.get("effect") == "score":
                scored[rnd][event["seat"] - 1] += event["points"]
            if event.get("event") == "round_end":
                parts = event["score_parts"]
                assert parts["in play"] == scored[rnd]
                assert event["scores"] == [a + b for a, b in zip(parts["aces"], scored[rnd])]
                rnd += 1
        assert [sum(r[p] for r in state.round_scores) for p in range(2)] == state.totals
        if max(state.totals) >= 12 and len(state.round_scores) < 6:
            won_early += 1
            assert state.winners == [state.totals.index(max(state.totals))]
        lines = [line for item in news(engine.rules, state.log, 0) for line in item.lines()]
        assert any(" points (total " in line or " point (total " in line for line in lines)
    assert won_early


SET_TOTAL = """\
cardrules: 1
name: settotal
players: {min: 2, max: 2}
deck: {ranks: [A, "2"], suits: [clubs], zone: stock}
zones: [{name: stock, visibility: hidden}]
variables:
  - {name: seen, scope: player, initial: 0}
round:
  phases:
    - name: p
      turns: each_once
      steps:
        - name: s
          moves:
            - name: go
              do: ["score 2 to me", "set me.total += 3", "set me.seen = me.total",
                   "let other = next_player(me)", "set other.total = 10",
                   "set me.total -= 1"]
scoring:
  round:
    - {name: nothing, score: "0"}
"""


@pytest.mark.parametrize(("deck", "message"), [
    ("ranks: [A, '2'], suits: [spade, stars]", "suits 'spade' and 'stars' both begin with S"),
    ("ranks: [J, j], suits: [clubs]", "ranks 'J' and 'j' differ only by case"),
])
def test_a_deck_whose_cards_would_share_a_name_is_refused(tmp_path: Path, deck: str,
                                                         message: str) -> None:
    """A card is named by its rank and its suit's first letter, in either case: two suits
    with one first letter (Schellen and Schilten) would give two cards one name."""
    path = tmp_path / "clash.yaml"
    path.write_text(SET_TOTAL.replace("deck: {ranks: [A, \"2\"], suits: [clubs], zone: stock}",
                                      f"deck: {{{deck}, zone: stock}}"), encoding="utf-8")
    found = check_files([str(path)])
    assert found and message in found[0].message and found[0].location is not None


def test_a_let_in_a_block_naming_what_its_condition_reads_gets_a_hint(tmp_path: Path) -> None:
    """`let k = k + 1` in an `until: k >= 3` block makes a k for that time round: the
    condition reads the k from before the block, and the block runs to its limit."""
    path = tmp_path / "letloop.yaml"
    path.write_text(SET_TOTAL.replace(
        "round:\n", "round:\n  setup:\n    - let k = 0\n    - until: 'k >= 3'\n"
                     "      limit: 10\n      do: ['let k = k + 1']\n", 1), encoding="utf-8")
    found = check_files([str(path)], hints=True)
    assert [d.hint for d in found] == [True], found
    assert "this `let k` makes a k of its own for one time round the block" in found[0].message
    assert found[0].location is not None and found[0].location.line == 13


def test_a_total_may_be_set_where_points_are_scored_during_play(tmp_path: Path) -> None:
    """`p.total` reads the total and the points in play; setting it sets what it then reads
    (`=`), or moves it by the value (`+=`, `-=`); the points in play still go into the
    round's score. It was refused with a crash (a read cannot be assigned to)."""
    path = tmp_path / "settotal.yaml"
    path.write_text(SET_TOTAL, encoding="utf-8")
    assert check_files([str(path)]) == []
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, seed=1)
    engine.apply(state, ("go",))  # seat 1: 2 in play, +3, seat 2's total set to 10, -1
    assert state.pvars["seen"][0] == 5
    engine.apply(state, ("go",))  # seat 2: from 10, 2 in play, +3, seat 1's set to 10, -1
    assert state.pvars["seen"][1] == 15
    assert state.over and state.round_scores == [[2, 2]] and state.totals == [10, 14]


def test_a_view_shows_the_totals_with_the_points_scored_during_play() -> None:
    """The table's score sheet, as `p.total` reads it: the news says "(total 3)" as a court
    card scores, and the totals shown beside it say 3 too, not the total before the round."""
    from cardrules.interpreter.view import player_view

    engine = Engine(load_ruleset(GAMES / "race.yaml"))
    for seed in range(20):
        state = engine.new_game(2, seed, log=True)
        legal = engine.legal_actions(state)
        while legal and not any(e.get("effect") == "score" for e in state.log):
            legal = engine.play(state, legal[0])
        scored = [e for e in state.log if e.get("effect") == "score"]
        if scored and not state.round_scores:
            seat = scored[-1]["seat"]
            assert player_view(engine.rules, state, 0)["totals"][seat - 1] == \
                scored[-1]["total"] > state.totals[seat - 1]
            return
    raise AssertionError("no point scored during a first round")


def test_a_total_read_after_the_round_is_scored_counts_its_points_in_play_once() -> None:
    # tests/data/in-play-until.yaml: one point in play a round; `until` reads p.total after
    # the round is scored, when the total already holds the round's points in play (they
    # were counted twice, and the match ended after round 1 at a total read as 2).
    engine = Engine(load_ruleset(Path(__file__).resolve().parent / "data" / "in-play-until.yaml"))
    for seed in range(4):
        state = play_game(engine, 2, seed=seed)
        assert max(state.totals) == 2 and sum(state.totals) == len(state.round_scores)


AFTER_ROUND_POINTS = """\
cardrules: 1
name: bonus
players: {min: 2, max: 4}
TEAMS
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
round:
  phases:
    - name: play
      turns: each_once
      steps:
        - name: pass
          moves:
            - {name: wait, do: []}
triggers:
  - {name: bonus, after: round, do: ["score 1000 to seat(1)"]}
scoring:
  BY
  winner: highest
  rounds: 2
"""


@pytest.mark.parametrize("teams", [False, True])
def test_points_scored_after_the_round_is_scored_count_in_the_total(tmp_path: Path,
                                                                    teams: bool) -> None:
    """`score N to P` in a trigger after the round, when there is no round score left to
    count it, goes to the total (of P's partners too, where a team scores as one), as the
    log's news of it says: it was told and never counted."""
    path = tmp_path / "bonus.yaml"
    path.write_text(AFTER_ROUND_POINTS.replace("TEAMS", "teams: 2" if teams else "")
                    .replace("min: 2, max: 4", "min: 4, max: 4" if teams else "min: 2, max: 2")
                    .replace("BY", "by: team" if teams else ""), encoding="utf-8")
    engine = Engine(load_ruleset(path))
    players = 4 if teams else 2
    state = play_game(engine, players, seed=1, log=True)
    partners = {0, 2} if teams else {0}
    assert state.totals == [2000 if p in partners else 0 for p in range(players)]
    assert state.round_scores == [[0] * players] * 2
    told = [e["total"] for e in state.log if e.get("effect") == "score"]
    assert told == [1000, 2000]
    ends = [e for e in state.log if e.get("event") == "round_end"]
    assert ends[0]["after_round"]["totals"]["1"] == [0, 1000]
    assert engine.results(state)["winners"] == sorted(p + 1 for p in partners)


def test_a_procedure_runs_its_statements_where_it_is_called(tmp_path: Path) -> None:
    # tests/games/race.yaml: `turn_up(me)` runs the procedure turn_up, which calls court;
    # a procedure sees its parameters and the ruleset's names, never its caller's.
    from cardrules.dsl.loader import check_files

    path = GAMES / "race.yaml"
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 3, log=True)
    before = len(state.zones[engine.rules.zone("table").index])
    engine.apply(state, ("turn_up",))
    assert len(state.zones[engine.rules.zone("table").index]) == before + 1
    assert "def pr_turn_up(S, me, v_p):" in engine.rules.python
    text = path.read_text(encoding="utf-8").replace(
        '- {if: "c.worth > 0", then: ["score c.worth to p"]}',
        '- {if: "c.worth > 0", then: ["score c.worth to me", "move top(stock) to hand[q]"]}')
    broken = tmp_path / "race.yaml"
    broken.write_text(text, encoding="utf-8")
    (problem,) = check_files([str(broken)])
    assert "'q'" in problem.message


def test_a_deck_gives_its_suits_colours() -> None:
    # tests/games/sweep.yaml: `deck.colours` names the colours of suits no standard deck has.
    rules = load_ruleset(GAMES / "sweep.yaml")
    cards = rules.cards
    by_suit = {cards.suit_names[cards.suit[c]]: cards.colour[c] for c in range(len(cards.names))}
    assert by_suit == {"denari": 0, "coppe": 0, "spade": 1, "bastoni": 1}  # 0 red, 1 black


def _in_trick(rules: Any, c: int, trump: int, red: int) -> tuple[int, tuple[int, int]]:
    """Bowers' rules in Python: a card's suit in a trick and its strength there."""
    cards = rules.cards
    rank = cards.names[c][:-1]
    if rank == "J" and cards.colour[c] == red:  # a bower
        return trump, (1, 30 if cards.suit[c] == trump else 29)
    return cards.suit[c], (0, 9 + ["9", "10", "J", "Q", "K", "A"].index(rank))


def test_a_card_counts_as_another_suit_in_a_trick() -> None:
    # tests/games/bowers.yaml: `tricks:` reads both jacks of the trump colour as trumps, the
    # jack of trumps highest; led_suit, trick_suit and trick_winner all read cards so.
    from cardrules.interpreter.players.bots import RandomBot

    engine = Engine(load_ruleset(GAMES / "bowers.yaml"))
    rules = engine.rules
    cards = rules.cards
    seen_left = 0
    for seed in range(6):
        state, bot = engine.new_game(4, seed), RandomBot(seed)
        played: list[tuple[int, int]] = []
        while not state.over:
            trump = state.vars["trump"]
            red = cards.colour[next(c for c in range(len(cards.names)) if cards.suit[c] == trump)]
            legal = engine.legal_actions(state)
            if played:  # a card that follows the suit led is legal, by its suit in a trick
                led = _in_trick(rules, played[0][0], trump, red)[0]
                hand = state.zones[rules.zone("hand").zone_of(engine.to_move(state))]
                follows = [c for c in hand if _in_trick(rules, c, trump, red)[0] == led]
                assert sorted(a[1] for a in legal) == sorted(follows or hand)
            action = bot.choose(engine, state, legal)
            played.append((action[1], engine.to_move(state)))
            seen_left += cards.names[action[1]][:-1] == "J" and cards.suit[action[1]] != trump \
                and _in_trick(rules, action[1], trump, red)[0] == trump
            before = [rules.score(state, p)[-1] for p in range(4)]
            engine.apply(state, action)
            if len(played) == 4:
                read = [(_in_trick(rules, c, trump, red), seat) for c, seat in played]
                led = read[0][0][0]
                pool = [r for r in read if r[0][0] == trump] or [r for r in read if r[0][0] == led]
                winner = max(pool, key=lambda r: r[0][1])[1]
                if not state.over and not state.round_scores:
                    after = [rules.score(state, p)[-1] for p in range(4)]
                    assert [a - b for a, b in zip(after, before)] == \
                        [1 if p == winner else 0 for p in range(4)]
                played = []
    assert seen_left


@pytest.mark.parametrize("rank", ["strength(card)", "if best_of_suit([card], card.suit) == card "
                                  "then card.high else 0"])
def test_tricks_may_not_read_cards_as_a_trick_does(tmp_path: Path, rank: str) -> None:
    """`tricks: rank` calling best_of_suit, itself or through a function, would ask itself how
    to read a card without end (a RecursionError in play): refused where the call is."""
    text = (GAMES / "bowers.yaml").read_text(encoding="utf-8")
    old = """  rank: "if card.rank == 'J' and card.suit == trump then 30
         else if card.rank == 'J' and card.colour == colour(trump) then 29 else card.high\""""
    assert old in text
    text = text.replace(old, f'  rank: "{rank}"') + (
        "functions:\n  - {name: strength, params: {c: card}, value: \"size(select(d for d in "
        "[c] if best_of_suit([d], d.suit) == d))\"}\n")
    path = tmp_path / "bowers.yaml"
    path.write_text(text, encoding="utf-8")
    (problem,) = check_files([str(path)])
    through = " (through the function 'strength')" if rank.startswith("strength") else ""
    assert f"`tricks: rank` says how a trick reads a card; it cannot call best_of_suit{through}" \
        in problem.message
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("  rank:"))
    assert problem.location is not None and problem.location.line == line


def test_a_deck_names_its_jokers(tmp_path: Path) -> None:
    # Where one joker beats the other, each has a name of its own (the first of a copy red,
    # the second black); a name the deck has already is refused.
    from cardrules.dsl.loader import check_files

    base = (DATA / "mini.yaml").read_text(encoding="utf-8")
    path = tmp_path / "j.yaml"
    path.write_text(base.replace("suits: [clubs, diamonds, hearts, spades]",
                                 "jokers: 1\n  joker_names: [KS]")
                    .replace("K: 0}", "K: 0, joker: 0}"), encoding="utf-8")
    (problem,) = check_files([str(path)])
    assert "the joker name 'KS' is already a card's name" in problem.message
    path.write_text(base.replace("suits: [clubs, diamonds, hearts, spades]",
                                 "jokers: 2\n  joker_names: [RJ, BJ]")
                    .replace("K: 0}", "K: 0, joker: 0}"), encoding="utf-8")
    cards = load_ruleset(path).cards
    assert [(cards.names[c], cards.colour[c]) for c in (16, 17)] == [("RJ", 0), ("BJ", 1)]
    assert (problem.location.line, problem.location.column) == (14, 17)
    # A deal file reads names in either case, so names differing only by case are one name.
    for names, refused in (("[ks]", "ks"), ("[rj, RJ]", "RJ")):
        path.write_text(base.replace("suits: [clubs, diamonds, hearts, spades]",
                                     f"jokers: {names.count(',') + 1}\n  joker_names: {names}")
                        .replace("K: 0}", "K: 0, joker: 0}"), encoding="utf-8")
        (problem,) = check_files([str(path)])
        assert f"the joker name '{refused}' is already a card's name" in problem.message


NO_TRUMPS = """cardrules: 1
name: no-trumps
players: {min: 2, max: 2}
deck: {zone: stock}
variables:
  - {name: trump, scope: round, initial: none, type: suit}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
  - {name: trick, visibility: public, layout: trick}
round:
  setup: [shuffle stock, deal 1 from stock to each hand face down]
  phases:
    - name: play
      turns: each_once
      steps:
        - name: play
          moves:
            - {name: play, choose: {card: "hand[me]"}, do: ["move card to trick face up"]}
  end:
    - let winner = trick_winner(trick, TRUMPS).played_by
    - score 1 to winner
"""


@pytest.mark.parametrize("trumps", ["none", "trump"])
def test_none_as_trumps_means_the_suit_led_takes_the_trick(tmp_path: Path, trumps: str) -> None:
    """docs/grammar.md 5.1: `none` as trumps means no trumps, written or held in a variable
    (validate refused the one and the game failed on the other)."""
    path = tmp_path / "no-trumps.yaml"
    path.write_text(NO_TRUMPS.replace("TRUMPS", trumps), encoding="utf-8")
    engine = Engine(load_ruleset(path))
    rules = engine.rules
    for seed in range(20):
        state = engine.new_game(2, seed)
        legal = engine.legal_actions(state)
        led = legal[0][1]
        legal = engine.play(state, legal[0])
        other = legal[0][1]
        engine.play(state, legal[0])
        suit, rank = rules.cards.suit, rules.cards.rank
        takes = suit[led] != suit[other] or rank[led] > rank[other]
        assert state.totals == ([1, 0] if takes else [0, 1])


CALLED = """\
cardrules: 1
name: called-suit
players: {min: 2, max: 2}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: pile, visibility: public}
  - {name: hand, owner: each, visibility: owner}
variables:
  - {name: called, scope: round, initial: none, type: suit}
round:
  setup: [shuffle stock, deal 1 from stock to each hand face down]
  phases:
    - name: play
      turns: each_once
      steps:
        - name: play
          moves:
            - name: play
              choose: {card: "hand[me]"}
              do:
                - move card to pile face up
                - set called = if card.colour == 'red' then card.suit else none
  end:
    - if: "called != none and called == top(pile).suit"
      then: ["score 1 to dealer"]
"""


def test_a_conditional_may_give_a_suit_or_none(tmp_path: Path) -> None:
    """`if ... then c.suit else none` is a suit that may be none, as a card or a player may
    be (validate refused it: "the two branches differ: a suit and none")."""
    path = tmp_path / "called.yaml"
    path.write_text(CALLED, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    rules = engine.rules
    scored = set()
    for seed in range(30):
        state = engine.new_game(2, seed)
        legal = engine.legal_actions(state)
        while legal:
            last = legal[0][1]
            legal = engine.play(state, legal[0])
        red = rules.cards.suit_names[rules.cards.suit[last]] in ("hearts", "diamonds")
        assert sum(state.totals) == (1 if red else 0)
        scored.add(red)
    assert scored == {True, False}


UNDER = """\
cardrules: 1
name: under
players: {min: 2, max: 2}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: bottom, visibility: public}
  - {name: pile, owner: each, visibility: public}
round:
  setup:
    - deal 2 from stock to each pile face up
  phases:
    - name: play
      turns: each_once
      steps:
        - name: play
          moves:
            - {name: tuck, do: ["move top(stock) to bottom of pile[me] face up"]}
            - {name: one, do: ["move bottom(stock) to bottom  of  pile[me] face up"]}
            - {name: two, do: ["move [top(stock), bottom(stock)] to bottom of pile[me] face up"]}
            - {name: stack, do: ["move stock to bottom of pile[me] face up"]}
            - {name: named, do: ["move top(stock) to bottom face up"]}
"""


@pytest.mark.parametrize("move", ["tuck", "one", "two", "stack", "named"])
def test_a_card_goes_under_a_zone_with_bottom_of(move: str, tmp_path: Path) -> None:
    """`move X to bottom of Z` puts X beneath Z's cards (several keep their order among
    themselves, as they would lie on an empty zone); a zone named bottom is still a zone.
    The kernel plays it alike."""
    path = tmp_path / "under.yaml"
    path.write_text(UNDER, encoding="utf-8")
    rules = load_ruleset(path)
    for engine in (Engine(rules), Kernel(rules)):
        state = engine.new_game(2, 1)
        pile = 2 + engine.to_move(state)  # stock, bottom, pile[1], pile[2]
        before = [list(cards) for cards in state.zones]
        stock = before[0]
        engine.play(state, (move,))
        if move == "named":
            assert state.zones[1] == [stock[-1]]
            continue
        moved = {"tuck": [stock[-1]], "one": [stock[0]], "two": [stock[-1], stock[0]],
                 "stack": stock}[move]
        assert state.zones[pile] == moved + before[pile]
        assert state.zones[0] == [c for c in stock if c not in moved]


def test_a_grid_has_no_bottom(tmp_path: Path) -> None:
    path = tmp_path / "grid.yaml"
    path.write_text(UNDER.replace("{name: pile, owner: each, visibility: public}",
                                  "{name: pile, owner: each, visibility: public, layout: grid, "
                                  "rows: 2, columns: 3}"), encoding="utf-8")
    found = [d.message for d in check_files([str(path)])]
    assert found and all(m.startswith("zone 'pile' is a grid: it has places, not a bottom")
                         for m in found), found


TURNABOUT = Path(__file__).resolve().parent / "games" / "turnabout.yaml"


def test_a_queen_turns_play_round_for_the_rest_of_the_round() -> None:
    """`reverse direction` (tests/games/turnabout.yaml, a counterclockwise game): after a
    queen the next seat is the one before, until another queen; each round starts the
    ruleset's way; a save keeps the way play goes; the news says so."""
    rules = load_ruleset(TURNABOUT)
    engine = Engine(rules)
    turned = 0
    for seed in range(12):
        state = engine.new_game(4, seed, log=True)
        way, round_now = -1, state.round
        rng = random.Random(seed)
        legal = engine.legal_actions(state)
        while legal:
            me = engine.to_move(state)
            action = legal[rng.randrange(len(legal))]
            queen = action[0] == "play" and \
                rules.cards.rank_names[rules.cards.rank[action[1]]] == "Q"
            mark = len(state.log or [])
            legal = engine.play(state, action)
            if state.round != round_now or not legal:
                way, round_now = -1, state.round
                continue
            if queen:
                way, turned = -way, turned + 1
                said = news.consequences(rules, (state.log or [])[mark:], 0)
                assert any(line.startswith("play turns round: it now goes") for line in said), said
            assert engine.to_move(state) == (me + way) % 4
            again = GameState.from_json(state.to_json())
            assert again.direction == state.direction == way
    assert turned > 10


def test_a_position_after_play_turned_round_is_another() -> None:
    rules = load_ruleset(TURNABOUT)
    state = Engine(rules).new_game(4, 1)
    before = position(rules, state, 0)
    state.direction = -state.direction
    assert position(rules, state, 0) != before


BEFORE = """\
cardrules: 1
name: before
players: {min: 2, max: 5, default: 4}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
variables:
  - {name: last, scope: round, initial: none, type: player}
  - {name: after, scope: round, initial: none, type: player}
round:
  phases:
    - name: play
      turns: rotate
      steps:
        - name: play
          moves:
            - {name: note, do: ["set last = previous_player(me)", "set after = next_player(me)"]}
            - {name: turn, do: [reverse direction, "set last = previous_player(me)",
                                "set after = next_player(me)"]}
            - {name: stop, do: [end round]}
"""


def test_the_previous_player_is_the_one_before_in_play_order(tmp_path: Path) -> None:
    """previous_player(p) and next_player(p) follow the way play goes now."""
    path = tmp_path / "before.yaml"
    path.write_text(BEFORE, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(4, 1)
    way = 1
    for move in ["note", "turn", "note", "note", "turn", "note", "turn"]:
        me = engine.to_move(state)
        assert me is not None
        engine.play(state, (move,))
        way = -way if move == "turn" else way
        assert (state.vars["last"], state.vars["after"]) == ((me - way) % 4, (me + way) % 4)


def test_the_log_and_the_news_say_a_card_went_under(tmp_path: Path) -> None:
    path = tmp_path / "under.yaml"
    path.write_text(UNDER, encoding="utf-8")
    rules = load_ruleset(path)
    engine = Engine(rules)
    for move, under in (("tuck", True), ("named", False)):
        state = engine.new_game(2, 1, log=True)
        mark = len(state.log or [])
        engine.play(state, (move,))
        effects = [e for e in (state.log or [])[mark:] if e.get("effect") == "move"]
        assert [bool(e.get("under")) for e in effects] == [under]
        (said,) = news.consequences(rules, effects, 0)
        wanted = r"\S+ goes from the stock to the bottom of your pile" if under else \
            r"\S+ goes from the stock to the bottom"  # (a zone named bottom)
        assert re.fullmatch(wanted, said), said


def test_every_screen_shows_which_way_play_goes_where_rules_turn_it() -> None:
    from cardrules.interpreter.view import player_view
    from cardrules.present.render import view_lines

    rules = load_ruleset(TURNABOUT)
    state = Engine(rules).new_game(4, 1)
    view = player_view(rules, state, 0)
    assert view["direction"] == "against seat order"  # (a counterclockwise game)
    assert view_lines(rules, view)[0].endswith(" - play goes against seat order")
    state.direction = 1
    assert player_view(rules, state, 0)["direction"] == "in seat order"
    golf = load_ruleset("golf6")
    assert "direction" not in player_view(golf, Engine(golf).new_game(4, 1), 0)


def test_play_turned_round_in_a_phase_of_one_turn_each_gets_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "once.yaml"
    path.write_text(BEFORE.replace("turns: rotate", "turns: each_once"), encoding="utf-8")
    found = [d.message for d in check_files([str(path)], hints=True)]
    assert len(found) == 1 and all("gives every seat one turn (`turns: each_once`)" in m
                                   for m in found), found
    path.write_text(BEFORE, encoding="utf-8")
    assert check_files([str(path)], hints=True) == []


MAYBE = """\
cardrules: 1
name: maybe
players: {min: 2, max: 2}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: pile, visibility: public}
round:
  setup: [shuffle stock, move top(stock) to pile face up]
  phases:
    - name: p
      turns: rotate
      steps:
        - name: s
          moves:
            - name: name
              choose: {x: "[if size(pile) > 1 then top(pile).rank else none, top(pile).rank]"}
              do: ["move top(stock) to pile face up"]
            - {name: stop, when: "size(pile) > 3", do: [end round]}
"""


def test_none_in_a_choices_list_is_not_offered(tmp_path: Path) -> None:
    """A list to choose from whose item may be none offers the others (listing it failed
    with a TypeError when it was none)."""
    path = tmp_path / "maybe.yaml"
    path.write_text(MAYBE, encoding="utf-8")
    rules = load_ruleset(path)
    for engine in (Engine(rules), Kernel(rules)):
        state = engine.new_game(2, 1)
        top = state.zones[1][-1]
        assert engine.legal_actions(state) == [("name", rules.cards.rank[top])]
        legal = engine.play(state, ("name", rules.cards.rank[top]))
        assert [a for a in legal if a[0] == "name"] == \
            [("name", rules.cards.rank[state.zones[1][-1]])] * 2


def test_turnabout_plays_from_the_command_line_with_its_news() -> None:
    """The command line keeps its log as a stream of events (not a list): a card put under
    the stock is logged and told there too (`cardrules run --view` read the list's end)."""
    from click.testing import CliRunner

    from cardrules.cli.main import main

    told = ""
    for seed in range(1, 5):
        result = CliRunner().invoke(main, ["run", str(TURNABOUT), "-s", str(seed), "--view",
                                           "1", "--plain"], catch_exceptions=False)
        assert result.exit_code == 0 and "Winner" in result.output, result.output[-400:]
        told += result.output
    assert "to the bottom of the stock" in told and "play turns round" in told


@pytest.mark.parametrize(("old", "new", "name", "what"), [
    # a loop variable over a zone
    ("count(c.rank == 'A' for c in hand[p])", "count(stock.rank == 'A' for stock in hand[p])",
     "stock", "a zone: inside this loop, 'stock' is the loop variable"),
    # a loop variable over a built-in name
    ("count(c.rank == 'A' for c in hand[p])", "count(first.rank == 'A' for first in hand[p])",
     "first", "a built-in name: inside this loop, 'first' is the loop variable"),
    # a procedure's parameter over a zone
    ('params: {c: card, p: player}\n    do:\n      - {if: "c.worth > 0", then: ["score c.worth',
     'params: {table: card, p: player}\n    do:\n      - {if: "table.worth > 0", then: '
     '["score table.worth', "table", "a zone: where it is seen, 'table' is the parameter"),
])
def test_a_name_bound_for_a_while_that_hides_another_gets_a_hint(
        old: str, new: str, name: str, what: str, tmp_path: Path) -> None:
    # A loop variable or a parameter wins over a zone, a variable, an option or a built-in of
    # its name (grammar 4.3): the file is valid, and validate says which one is read there.
    text = (GAMES / "race.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "race.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    found = check_files([str(path)], hints=True)
    assert [d.hint for d in found] == [True], [d.message for d in found]
    (hint,) = found
    assert hint.message.startswith(f"'{name}' is also {what}"), hint.message
    assert hint.location is not None
    line = text.replace(old, new).splitlines()[hint.location.line - 1]
    assert line[hint.location.column - 1:].startswith(name)
    engine = Engine(load_ruleset(path))
    assert play_game(engine, 2, seed=1).over
    assert check_files([str(GAMES / "race.yaml")], hints=True) == []


def test_subsets_and_combinations_are_stored_and_found_as_lists(tmp_path: Path) -> None:
    """`subsets` and `combinations` give their lists as an action holds them (tuples): a
    rule may store them (each number bounded, the items counted, as lists at every depth,
    as a save writes them) and find one of them in a list."""
    text = (DATA / "mini.yaml").read_text(encoding="utf-8")
    text = text.replace('''variables:
  - name: drawn
    scope: round
    initial: 0
''', '''variables:
  - name: drawn
    scope: round
    initial: 0
  - {name: ways, scope: round, initial: "[[0]]"}
  - {name: found, scope: round, initial: 0}
  - {name: inside, scope: round, initial: 0}
''').replace('''                - set drawn += 1
''', '''                - set drawn += 1
                - set ways = subsets(numbers(1, 3)) + combinations(numbers(4, 6), 2)
                - set found = position([1, 3], ways) + 10 * position([4, 6], ways)
                - "set inside = if subsets(numbers(1, 3))[5] in ways then 1 else 0"
''')
    path = tmp_path / "mini.yaml"
    path.write_text(text, encoding="utf-8")
    engine = Engine(load_ruleset(path, {"mode": "fast"}))
    state = engine.new_game(2, 1)
    engine.apply(state, ("take",))
    assert state.vars["ways"][:5] == [[], [1], [2], [3], [1, 2]]
    assert all(type(way) is list for way in state.vars["ways"])
    assert state.vars["found"] == 5 + 10 * 9
    assert state.vars["inside"] == 1  # a tuple found among the lists stored


CLUE = """\
cardrules: 1
name: clue
players: {min: 2, max: 2}
deck: {ranks: ["1", "2", "3"], suits: [red, blue], colours: {red: red, blue: black}, zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: others, layout: row}
functions:
  - {name: held, params: {x: card}, value: "x in hand[seat(1)]"}
  - {name: low, params: {x: card}, value: "x.number < 2"}
round:
  setup: [shuffle stock, deal 2 from stock to each hand face down]
  phases:
    - name: play
      turns: each_once
      steps:
        - name: act
          moves:
            - name: clue
              choose: {p: others}
              do: ["tell p which c in hand[p] where CONDITION"]
"""


@pytest.mark.parametrize(("condition", "refused"), [
    ("c in hand[p]", "c"),  # (with one deck, the runtime's check of copies never fires)
    ("c.face_up", "c.face_up"),
    ("low(c) and held(c)", "c)"),
    ("owner(c) == p", "c"),
    # which card lies somewhere is where cards lie: the hand as a set, the stock's top card
    ("any(c == d for d in hand[p])", "c =="),
    ("c == cards(hand[p])[0]", "c =="),
    ("c == top(stock)", "c =="),
    ("not (c != top(hand[p]))", "c !="),
    ("c.rank == top(stock).rank", "stock"),  # (a hidden card's rank is no public fact)
    ("any(c.face_up for c in stock)", "stock"),
    ("size([c]) == 1", "c]"),  # (a built-in given the card: written with its attributes)
    ("low(c) and c.colour == 'red'", None),
    ("(c.rank == '1' or c.suit == 'red') and c.number != player_count", None),
])
def test_a_clues_condition_reads_only_what_a_card_is(tmp_path: Path, condition: str,
                                                     refused: str | None) -> None:
    from cardrules.dsl.loader import check_files

    path = tmp_path / "clue.yaml"
    path.write_text(CLUE.replace("CONDITION", condition), encoding="utf-8")
    problems = check_files([str(path)])
    if refused is None:
        assert problems == []
        return
    (problem,) = problems
    assert "a clue's condition may read only what a card is" in problem.message
    line = CLUE.replace("CONDITION", condition).splitlines()[20]
    assert problem.location is not None and problem.location.line == 21
    assert line[problem.location.column - 1:].startswith(refused)


@pytest.mark.parametrize(("edit", "refused"), [
    ("  by: table\n  stakes: chips\n", "a table that scores as one (`by: table`) passes none"),
    ("  stakes: chips\n", None),
    ("  stakes: points\n  by: table\n", None),
    ("  stakes: money\n", "'money' is not allowed here: expected one of win, points, chips"),
])
def test_stakes_of_chips_need_seats_that_pass_them(tmp_path: Path, edit: str,
                                                   refused: str | None) -> None:
    from cardrules.dsl.loader import check_files

    text = (Path(__file__).resolve().parent.parent / "rulesets" / "kuhn-poker.yaml") \
        .read_text(encoding="utf-8").replace("  stakes: chips", "  # (stakes below)")
    text = text.replace("scoring:\n", "scoring:\n" + edit, 1)
    path = tmp_path / "stakes.yaml"
    path.write_text(text, encoding="utf-8")
    problems = check_files([str(path)])
    if refused is None:
        assert problems == []
        assert load_ruleset(path).stakes == edit.split("stakes: ")[1].split()[0]
        return
    (problem,) = problems
    assert refused in problem.message and problem.location is not None
    assert text.splitlines()[problem.location.line - 1].strip().startswith("stakes")


def test_an_option_named_like_a_zone_is_hinted_as_never_read(tmp_path: Path) -> None:
    """A bare name reads a zone before an option, so an option named like a zone is never
    read: validate says so where the option is named (reading it compares the zone)."""
    from cardrules.dsl.loader import check_files

    text = (Path(__file__).resolve().parent.parent / "rulesets" / "golf6.yaml") \
        .read_text(encoding="utf-8").replace("  - name: rounds\n", "  - name: discard\n", 1) \
        .replace("  rounds: rounds\n", "  rounds: 9\n")
    path = tmp_path / "named.yaml"
    path.write_text(text, encoding="utf-8")
    (found,) = check_files([str(path)], hints=True)
    assert found.hint and "'discard' is also a zone's name" in found.message
    assert found.location is not None and found.location.line == \
        text.splitlines().index("  - name: discard") + 1
    assert check_files([str(path)]) == []


def test_a_reaction_takes_no_then(tmp_path: Path) -> None:
    """A reaction is made out of turn, in no phase: its `then` is refused as such, not as a
    step missing from a phase that has it."""
    from cardrules.dsl.loader import check_files

    text = """\
cardrules: 1
name: reactthen
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
round:
  phases:
    - name: play
      turns: each_once
      steps:
        - name: act
          moves:
            - {name: wait, do: []}
        - name: after
          moves:
            - {name: rest, do: []}
reactions:
  moves:
    - {name: shout, do: [], then: after}
"""
    path = tmp_path / "reactthen.yaml"
    path.write_text(text, encoding="utf-8")
    (problem,) = check_files([str(path)])
    assert problem.message.startswith("a reaction is made out of turn")
    assert problem.location is not None and (problem.location.line,
                                             problem.location.column) == (19, 35)


@pytest.mark.parametrize(("choices", "said"), [
    ("[1, '2']", "the first, 1, is a number, and '2' is a text"),
    ("[on, off, auto]", "the first, on, is a truth value, and auto is a text"),
])
def test_choices_of_two_kinds_are_told_as_the_file_writes_them(tmp_path: Path, choices: str,
                                                               said: str) -> None:
    from cardrules.dsl.loader import check_files

    text = (Path(__file__).resolve().parent.parent / "rulesets" / "golf6.yaml") \
        .read_text(encoding="utf-8").replace(
            "    choices: [reshuffle, end_round]", f"    choices: {choices}", 1) \
        .replace("    default: reshuffle\n", "    default: auto\n", 1)
    path = tmp_path / "kinds.yaml"
    path.write_text(text, encoding="utf-8")
    found = [d.message for d in check_files([str(path)]) if "one kind" in d.message]
    assert len(found) == 1 and said in found[0] and "write them all alike" in found[0]


NAMING = """cardrules: 1
name: naming
players: {min: 2, max: 2}
options:
  - {name: lead, label: Lead, doc: The suit that counts twice., default: hearts,
     choices: [hearts, spades]}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
variables:
  - {name: trump, scope: round, initial: "'spades'", type: suit}
  - {name: hits, scope: game, initial: 0}
round:
  setup: [shuffle stock, deal 3 from stock to each hand]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: s
          moves:
            - name: go
              choose: {card: "hand[me]"}
              do:
                - if: "card.suit in ['hearts', 'diamonds'] or 'clubs' in [card.suit, trump]"
                  then: ["set hits += 1"]
                - set trump = (if card.rank == 'K' then 'hearts' else card.suit)
                - if: "(if card.suit == lead then 'red' else card.colour) == 'red'"
                  then: ["set hits += 10"]
                - if: "card.rank in ['K', 'Q']"
                  then: [end round]
scoring:
  winner: highest
  round: [{name: h, score: "hits"}]
"""


def test_a_text_names_a_rank_a_suit_or_a_colour_wherever_one_is_wanted(tmp_path: Path) -> None:
    """A variable's initial of its type, a branch beside a suit, a list with one, the list an
    `in` looks through and an option's text compared with a suit: each text is the deck's
    suit (rank, colour) of that name, and a name the deck lacks is refused where it is
    written."""
    path = tmp_path / "naming.yaml"
    path.write_text(NAMING, encoding="utf-8")
    assert check_files([str(path)]) == []
    rules = load_ruleset(path)
    cards = rules.cards
    engine = Engine(rules)
    state = engine.new_game(2, 3)
    assert cards.suit_names[state.vars["trump"]] == "spades"
    while not state.over:
        action = engine.legal_actions(state)[0]
        card, before, trump = action[1], state.vars["hits"], state.vars["trump"]
        engine.apply(state, action)
        suit, rank = cards.suit_names[cards.suit[card]], cards.rank_names[cards.rank[card]]
        hits = (suit in ("hearts", "diamonds") or "clubs" in (suit, cards.suit_names[trump])) \
            + 10 * (suit == "hearts" or cards.colour[card] == 0)
        assert state.vars["hits"] - before == hits
        if not state.over and rank not in ("K", "Q"):
            assert cards.suit_names[state.vars["trump"]] == suit
    for old, new, written in [("'hearts', 'diamonds'", "'hearts', 'diamons'", "'diamons'"),
                              ("initial: \"'spades'\"", "initial: \"'spade'\"", "'spade'"),
                              ("then 'hearts' else", "then 'heart' else", "'heart'"),
                              ("choices: [hearts, spades]", "choices: [hearts, spadez]", None)]:
        path.write_text(NAMING.replace(old, new), encoding="utf-8")
        if written is None:  # an option's choice the deck lacks: refused when it is chosen
            with pytest.raises(RulesetError, match="option .lead. is .spadez., which is not a "
                                                "suit of this deck"):
                load_ruleset(path, {"lead": "spadez"})
            continue
        (problem,) = check_files([str(path)])
        assert "is not a suit of this deck" in problem.message
        line = next(t for t in NAMING.replace(old, new).splitlines() if written in t)
        assert problem.location is not None
        assert line[problem.location.column - 1:].startswith(written)
