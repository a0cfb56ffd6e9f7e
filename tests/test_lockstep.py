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
    dd_card,
    dd_translate,
    gin_card,
    gin_meld_id,
    kuhn_card,
    run,
)

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install '.[openspiel]'): there is "
                       "no OpenSpiel game to play in lockstep with")

GAMES = {"spades": 300, "gin-rummy": 600, "kuhn-poker": 300,  # about 20 s in all, 2 cores
         "dou-dizhu": 60, "hanabi": 200, "holdem": 300}


def assert_none(tally: Tally) -> None:
    assert not tally.differences, tally.examples
    assert set(tally.differences) <= set(KINDS)


@pytest.mark.parametrize("name", sorted(MATCHED))
def test_a_matched_game_plays_as_openspiels_does(name: str) -> None:
    tally = run(name, GAMES[name], seed=11)
    shortest = {"kuhn-poker": 2, "dou-dizhu": 20, "holdem": 8}.get(name, 30)  # a game, on average
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


DOU = MATCHED["dou-dizhu"]


def test_dou_dizhu_names_each_combination_as_openspiel_does() -> None:
    """Twelve 3s to 6s are an airplane of four, or one of three with the fourth trio as its
    kickers, from below or from above: four choices, four of OpenSpiel's actions."""
    lockstep = Lockstep(DOU)
    rules, game = lockstep.rules, lockstep.engine.new_game(3, 0)
    ids = {n: c for c, n in enumerate(rules.cards.names[:54])}
    def cards(*names: str) -> tuple[int, ...]:
        return tuple(ids[n] for n in names)
    trios = {r: cards(*(r + s for s in "CDH")) for r in "3456"}
    actions = [("airplane", trios["3"] + trios["4"] + trios["5"] + trios["6"]),
               ("airplane_solos", trios["3"] + trios["4"] + trios["5"], trios["6"]),
               ("airplane_solos", trios["4"] + trios["5"] + trios["6"], trios["3"]),
               ("trio_pair", trios["3"], cards("RJ", "BJ")[:0] + cards("2C", "2D")),
               ("rocket",), ("bid", 3), ("no_bid",), ("pass_turn",)]
    state = pyspiel.load_game("dou_dizhu").new_initial_state()
    assert [state.action_to_string(0, dd_translate(rules, game, a)) for a in actions] == [
        "333444555666", "333444555-666", "444555666-333", "33322", "(BWJ)(CJ)", "Bid 3",
        "Pass", "Pass"]
    assert [dd_card(n) for n in ("3C", "2C", "3D", "2S", "BJ", "RJ")] == [0, 12, 13, 51, 52, 53]


def test_dou_dizhu_a_bomb_answers_the_rocket_and_a_four_starts_no_chain() -> None:
    """OpenSpiel's own readings, which openspiel=true keeps: seat 3, first to bid, bids 3
    and leads holding four 3s and 4 to 8 (no chain from the 3s is offered), plays the
    rocket, and seat 1 may answer it with its bomb of 9s."""
    named = {0: ["9C", "9D", "9H", "9S"],
             2: ["RJ", "BJ", "3C", "3D", "3H", "3S", "4C", "5C", "6C", "7C", "8C"]}
    taken = {dd_card(n) for names in named.values() for n in names}
    rest = iter(sorted(set(range(54)) - taken))
    order = [0] * 54
    for seat in range(3):
        mine = [dd_card(n) for n in named.get(seat, [])]
        for m in range(17):
            order[3 * m + seat] = mine[m] if m < len(mine) else next(rest)
    order[51:] = [next(rest) for _ in range(3)]
    # games whose card turned up is dealt to seat 3 (adapters/lockstep.py: dd_deal)
    seeds = [s for s in range(60) if random.Random(s).randrange(51) % 3 == 2][:4]
    tally = Tally()
    for seed in seeds:
        Lockstep(DOU).play(seed, tally, order=order, opening=[3, 26_056, 26_043 + 6])
    assert len(seeds) == 4 and tally.moves["rocket"] == 4 and tally.moves["bomb"] >= 4
    assert_none(tally)
