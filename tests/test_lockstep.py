"""Every ruleset matched to one of OpenSpiel's games plays it decision for decision.

adapters/lockstep.py plays both side by side from the same deal (OpenSpiel's chance outcomes
given to the ruleset as its deal) and compares, before every decision, the seat to move and
the whole legal set, and at the end the returns. Here: a few hundred games of each matched
game with players biased toward rare endings, and the cases that once differed, played from
stated deals. `benchmarks/openspiel_lockstep.py` runs the same for as long as asked.
"""

from __future__ import annotations

import itertools
import random

import pytest

from cardrules.adapters.lockstep import (
    KINDS,
    MATCHED,
    Lockstep,
    Tally,
    gin_card,
    gin_meld_id,
    kuhn_card,
    run,
)

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install '.[openspiel]'): there is "
                       "no OpenSpiel game to play in lockstep with")

GAMES = {"spades": 300, "gin-rummy": 600, "kuhn-poker": 300, "hanabi": 200}  # ~12 s, 2 cores


def assert_none(tally: Tally) -> None:
    assert not tally.differences, tally.examples
    assert set(tally.differences) <= set(KINDS)


@pytest.mark.parametrize("name", sorted(MATCHED))
def test_a_matched_game_plays_as_openspiels_does(name: str) -> None:
    tally = run(name, GAMES[name], seed=11)
    shortest = 2 if name == "kuhn-poker" else 30  # decisions a game, at least on average
    assert tally.games == GAMES[name] and tally.decisions >= shortest * tally.games
    assert_none(tally)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hanabi_plays_as_openspiels_at_every_table_size(players: int) -> None:
    tally = run("hanabi", 100, seed=players, params={"players": players})
    assert tally.decisions >= 30 * tally.games
    assert_none(tally)


def test_the_biased_players_reach_the_rare_endings() -> None:
    gin, spades = run("gin-rummy", 100, seed=3), run("spades", 50, seed=3)
    for move in ("knock", "wall_stop", "lay_off", "meld", "lay"):
        assert gin.moves[move] > 0, move
    assert spades.moves["bid"] == 200


def deck_order(*groups: list[str], rest_seed: int = 0) -> list[int]:
    """OpenSpiel's chance outcomes: the named cards first, in the order given, then the
    others in an order of the seed's."""
    named = [gin_card(c) for group in groups for c in group]
    rest = [c for c in range(52) if c not in named]
    random.Random(rest_seed).shuffle(rest)
    return named + rest


def meld(*cards: str) -> int:
    return 56 + gin_meld_id(list(cards))


GIN = MATCHED["gin-rummy"]
KNOCKER = ["3D", "4H", "AS", "JD", "QD", "KD", "2S", "3S", "4S", "5S"]


def knocked(other: list[str], upcard: str, melds: list[int], seed: int = 1) -> Tally:
    """Seat 1 holds KNOCKER, takes the upcard, knocks, throws it away and lays `melds`;
    then both play on as the biased players do."""
    tally = Tally()
    order = deck_order(KNOCKER, other, [upcard], rest_seed=seed)
    opening = [52, 55, gin_card(upcard), *melds, 54]
    Lockstep(GIN).play(seed, tally, order=order, opening=opening)
    return tally


def test_the_knocker_lays_nothing_off_on_its_own_melds() -> None:
    """The knocker could lay AS on its own 2S-5S: neither game asks it to."""
    other = ["6C", "7C", "8H", "9H", "10H", "2C", "2D", "2H", "KC", "QC"]
    for seed in range(5):
        assert_none(knocked(other, "KS", [meld("JD", "QD", "KD"), meld("2S", "3S", "4S", "5S")],
                            seed))


def test_a_card_that_fits_two_melds_counts_on_both() -> None:
    """6C fits the set 6D-6H-6S and the run 3C-4C-5C: laid off, it lets 7C follow on the run
    (OpenSpiel's way with openspiel=true), and a run takes two at most at each end."""
    knocker = ["6D", "6H", "6S", "3C", "4C", "5C", "AD", "AH", "2H", "3S"]
    other = ["6C", "7C", "8C", "2C", "JH", "QH", "9S", "10S", "KD", "KH"]
    tally = Tally()
    order = deck_order(knocker, other, ["KS"], rest_seed=4)
    opening = [52, 55, gin_card("KS"), meld("6D", "6H", "6S"), meld("3C", "4C", "5C"), 54,
               gin_card("6C"), gin_card("7C"), gin_card("2C"), 54]
    Lockstep(GIN).play(4, tally, order=order, opening=opening)
    assert_none(tally)
    step = Lockstep(GIN)  # ... and 8C, a third card at the top end, is offered by neither
    game = step.game.new_initial_state()
    for card in order[:21]:
        game.apply_action(card)
    for action in opening[:-1]:
        while game.is_chance_node():
            game.apply_action(order[21])
        game.apply_action(action)
    assert gin_card("8C") not in game.legal_actions()


@pytest.mark.parametrize(("hand", "knock_card"), [
    # Two groupings meld as much; OpenSpiel takes the one first in its order and then drops
    # the highest card left out, which here leaves 1 where the best discard leaves 0.
    (["3S", "3C", "4C", "5C", "6C", "AD", "2D", "3D", "4D", "5D", "6D"], 0),
    # ... 11 where it leaves 9: at the default knock card, OpenSpiel offers no knock
    (["AS", "5S", "6S", "3C", "4C", "5C", "6C", "3D", "4H", "5H", "6H"], 10),
    (["8S", "6C", "6D", "7D", "8D", "6H", "7H", "8H", "9H", "10H", "JH"], 6),
])
def test_whether_a_knock_is_offered_when_groupings_tie(hand: list[str], knock_card: int) -> None:
    step = Lockstep(GIN, {"knock_card": str(knock_card)}, {"knock_card": knock_card})
    tally = Tally()
    rest = [c for c in range(52) if c not in {gin_card(h) for h in hand}]
    order = [gin_card(c) for c in hand[:10]] + rest[:10] + [gin_card(hand[10])] + rest[10:]
    step.play(1, tally, order=order, opening=[52])
    assert_none(tally)


def test_gin_meld_numbers_are_openspiels() -> None:
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    names = {gin_card(n): n for n in (r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8",
                                                       "9", "10", "J", "Q", "K")
                                      for s in "SCDH")}
    for number in range(185):
        cards = utils.int_to_meld[number]
        assert gin_meld_id([names[c] for c in cards]) == number


# Kuhn poker's every betting sequence, in OpenSpiel's actions (0 pass: a check or a fold; 1 bet:
# a bet or a call): check-check, check-bet-fold, check-bet-call, bet-fold, bet-call.
KUHN_SEQUENCES = [[0, 0], [0, 1, 0], [0, 1, 1], [1, 0], [1, 1]]


@pytest.mark.parametrize("order", list(itertools.permutations(["JS", "QS", "KS"])),
                         ids="-".join)
def test_kuhn_poker_plays_every_deal_and_sequence_as_openspiels_does(order: tuple[str, ...],
                                                                      ) -> None:
    """All 6 deals (seat 1's card, seat 2's, the one left out) with all 5 betting sequences:
    the same seat to move and legal set at every decision, the same returns at the end."""
    step = Lockstep(MATCHED["kuhn-poker"])
    tally = Tally()
    for seed, sequence in enumerate(KUHN_SEQUENCES):
        step.play(seed, tally, order=[kuhn_card(c) for c in order], opening=sequence)
    assert tally.games == 5 and tally.decisions == 12
    assert_none(tally)
