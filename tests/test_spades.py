"""rulesets/spades.yaml: partnerships, bids with nil, tricks with spades trump, bags.

Scoring is checked on constructed deals; the rules of play (follow suit, leading spades, who
takes a trick and leads the next) on every card of many random deals, against a reading of
the rules written here.
"""

from __future__ import annotations

import random
import zlib

import pytest

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players import hint as hints
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.sessions.events import drain, round_ends
from cardrules.interpreter.state import GameState
from cardrules.present.account import round_account
from cardrules.present.render import round_summary

OPENSPIEL = {"one_deal": "true", "first_bidder": "seat1", "first_lead": "seat1",
             "spades_broken": "never", "team_bid_limit": "true"}


def deal_scored(bids: list[int], tricks: list[int], bags: list[int] | None = None,
                **options: str) -> list[int]:
    """Each seat's score for a deal with these bids and tricks (and carried bags)."""
    engine = Engine(load_ruleset("spades", options or None))
    state = engine.new_game(4, 1)
    state.pvars["bid"] = list(bids)
    state.pvars["tricks"] = list(tricks)
    state.pvars["bags"] = list(bags or [0, 0, 0, 0])
    return [engine.round_score(state, seat) for seat in range(4)]


@pytest.mark.parametrize(("bids", "tricks", "bags", "scores"), [
    # 9 bid, 10 taken: 90 + 1 bag; 5 bid with a nil made, 3 taken: -50 + 100.
    ([4, 5, 5, 0], [5, 3, 5, 0], [0, 0, 0, 0], [91, 50, 91, 50]),
    # 13 bid with a nil missed, 5 taken: -130 - 100; 6 bid, 8 taken: 60 + 2 bags.
    ([13, 5, 0, 1], [4, 6, 1, 2], [0, 0, 0, 0], [-230, 62, -230, 62]),
    # 6 bid, 9 taken, 9 bags carried: 60 + 3 - 100 (12 bags: one penalty); 5 bid, 4 taken.
    ([3, 3, 3, 2], [4, 2, 5, 2], [9, 0, 9, 0], [-37, -50, -37, -50]),
    # Both partners nil, both made: 200 and the contract of 0 made.
    ([0, 4, 0, 4], [0, 6, 0, 7], [0, 0, 0, 0], [200, 85, 200, 85]),
])
def test_a_deal_is_scored_for_the_partnership(bids: list[int], tricks: list[int],
                                              bags: list[int], scores: list[int]) -> None:
    assert deal_scored(bids, tricks, bags) == scores


def test_options_change_nil_and_bags() -> None:
    assert deal_scored([4, 5, 5, 0], [5, 3, 5, 0], nil_points="50") == [91, 0, 91, 0]
    assert deal_scored([1, 1, 1, 1], [6, 0, 7, 0], bag_limit="5", bag_penalty="50") == \
        [20 + 11 - 100, -20, 20 + 11 - 100, -20]


def play_watched(options: dict[str, str], seed: int) -> GameState:
    """A random deal in which every card played, forced ones too, is checked against the
    rules of play as the engine is about to apply it."""
    rules = load_ruleset("spades", options)
    suit, rank = rules.cards.suit, rules.cards.rank
    spades = rules.cards.suit_names.index("spades")
    hand, trick_zone = rules.zone("hand"), rules.zone("trick").index
    never = options.get("spades_broken") == "never"
    seen = {"broken": False, "leader": None}

    def watch(state: GameState, seat: int, action: tuple[int, ...]) -> None:
        if action[0] != "play":
            return
        held, trick, card = state.zones[hand.zone_of(seat)], state.zones[trick_zone], action[1]
        if trick:
            led = [c for c in held if suit[c] == suit[trick[0]]]
            allowed = led or held
        else:
            assert seen["leader"] in (None, seat), "the trick's winner leads the next"
            others = [c for c in held if suit[c] != spades]
            allowed = others if others and (never or not seen["broken"]) else held
        assert card in allowed and set(a[1] for a in engine.legal_actions(state)) == set(
            allowed)
        seen["broken"] = seen["broken"] or suit[card] == spades
        played = [*trick, card]
        if len(played) == 4:
            trumps = [c for c in played if suit[c] == spades]
            best = max(trumps or [c for c in played if suit[c] == suit[played[0]]],
                       key=lambda c: rank[c])
            seen["leader"] = (seat - 3 + played.index(best)) % 4

    engine = Engine(rules, watch=watch)
    state = engine.new_game(4, seed)
    rng = random.Random(seed)
    while not state.over:
        legal = engine.legal_actions(state)
        engine.apply(state, legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("options", [None, OPENSPIEL], ids=["standard", "openspiel"])
def test_cards_follow_suit_spades_are_led_once_broken_and_the_winner_leads(
        options: dict[str, str] | None) -> None:
    for seed in range(6):
        assert play_watched(options or {"one_deal": "true"}, seed).over


def test_the_bids_of_a_partnership_may_be_capped_at_13() -> None:
    engine = Engine(load_ruleset("spades", OPENSPIEL))
    state = engine.new_game(4, 1)
    assert state.current == 0  # OpenSpiel: seat 1 bids first
    engine.apply(state, ("bid", 9))
    engine.apply(state, ("bid", 2))
    assert [a[1] for a in engine.legal_actions(state)] == list(range(0, 5))  # 9 + 4 = 13
    free = Engine(load_ruleset("spades", {"one_deal": "true"}))
    state = free.new_game(4, 1)
    free.apply(state, ("bid", 9))
    free.apply(state, ("bid", 2))
    assert len(free.legal_actions(state)) == 14


def test_the_two_of_clubs_leads() -> None:
    """With `first_lead: two_of_clubs` its holder leads the first trick, with that card (the
    house rule as played; the holder was once free to lead any card): its only choice, the
    engine plays it for it once the bids are in. The next lead, the trick's winner's, is free
    again."""
    engine = Engine(load_ruleset("spades", {"first_lead": "two_of_clubs"}))
    rules = engine.rules
    names = rules.cards.names
    trick = rules.zone("trick").zone_of(0)
    for seed in range(4):
        state = engine.new_game(4, seed)
        holder = next(p for p in range(4) if any(
            names[c] == "2C" for c in state.zones[rules.zone("hand").zone_of(p)]))
        for _ in range(4):
            legal = engine.play(state, engine.legal_actions(state)[0])
        assert [names[c] for c in state.zones[trick]] == ["2C"]
        assert state.by[state.zones[trick][0]] == holder
        while state.zones[trick]:
            legal = engine.play(state, legal[0])
        hand = state.zones[rules.zone("hand").zone_of(state.current)]
        assert len(legal) > 1 or len({names[c][-1] for c in hand}) == 1


def test_a_match_is_played_to_the_target_by_partnership() -> None:
    engine = Engine(load_ruleset("spades", {"target": "100"}))
    from cardrules.interpreter.sessions.play import play_game

    state = play_game(engine, 4, 3, seats=["greedy:1"] * 4)
    assert state.totals[0] == state.totals[2] and state.totals[1] == state.totals[3]
    assert max(state.totals) >= 100 or len(state.round_scores) == 60
    assert engine.results(state)["winners"] in ([1, 3], [2, 4])


def test_standings_rank_partners_together_and_name_the_winning_team() -> None:
    from cardrules.present.render import standings
    results = {"rounds": 2, "totals": [120, 310, 120, 310], "round_scores": [[60, 150, 60, 150],
                                                                          [60, 160, 60, 160]],
               "winners": [2, 4]}
    lines = standings(results, "highest", teams=2)
    assert lines[1].split() == ["rank", "team", "seat", "total", "rounds"]
    assert [line.split()[:4] for line in lines[2:6]] == [
        ["1", "2", "2", "310"], ["1", "2", "4", "310"], ["2", "1", "1", "120"],
        ["2", "1", "3", "120"]]
    assert lines[-1] == "Winners: team 2 (seats 2, 4)"


def test_a_hint_measures_against_the_other_team_and_names_its_pick_first() -> None:
    """A greedy hint weighs a choice against the best seat of the other partnership (a
    partner's score is the seat's own), and among choices it thinks equal the one it picks
    is the first listed."""
    engine = Engine(load_ruleset("spades"))
    state = engine.new_game(4, 0)
    rng = random.Random(0)
    ties = 0
    for _ in range(40):
        legal = engine.legal_actions(state)
        if len(legal) > 1:
            advice = hints.hint(engine, state)
            assert advice.estimates[0].action == advice.pick, advice
            assert all("the best other team" in e.words for e in advice.estimates), advice
            ties += sum(e.value == advice.estimates[0].value for e in advice.estimates) > 1
        engine.apply(state, rng.choice(legal))
    assert ties  # (choices it thought equal were met)


def test_a_search_hint_names_its_pick_first() -> None:
    """A search bot picks the choice it tried most, whose tries may not have gone best: its
    hint lists that pick first all the same, not below a choice it did not pick."""
    engine = Engine(load_ruleset("spades"))
    state = engine.new_game(4, 1)
    for _ in range(6):
        advice = hints.hint(engine, state, "ismcts:5")
        assert advice.estimates[0].action == advice.pick, advice
        # the bot's own weighing, as the hint asks it: its pick, the others in its order
        seat = engine.to_move(state)
        seed = zlib.crc32(f"hint/{seat}/{state.actions}/ismcts:5".encode())
        weighed = make_bot("ismcts:5", seed, seat).weigh(  # type: ignore[attr-defined]
            engine, state.copy(), engine.legal_actions(state))
        assert weighed.pick == advice.pick
        order = list(dict.fromkeys(e.action for e in weighed.estimates))
        assert [e.action for e in advice.estimates] == \
            [advice.pick, *(a for a in order if a != advice.pick)]
        engine.apply(state, advice.pick)


def test_a_deals_account_gives_each_partnership_its_scores_parts() -> None:
    """The account of a deal scored by partnership shows each entry apart (nil, contract,
    bags, bag penalty), each seat its team's, adding up to the score."""
    engine = Engine(load_ruleset("spades", {"one_deal": "true"}))
    state = engine.new_game(4, 4, log=round_ends())
    rng = random.Random(4)
    events = []
    while not state.over:
        engine.apply(state, rng.choice(engine.legal_actions(state)))
        events += drain(state.log)
    (end,) = [e for e in events if e.get("event") == "round_end"]
    assert set(end["team_score_parts"]) == {"nil", "contract", "bags", "bag_penalty"}
    account = round_account(engine.rules, end)
    assert account.header[1:6] == ("nil", "contract", "bags", "bag penalty", "score")
    for seat, row in enumerate(account.rows):
        assert sum(int(x) for x in row[1:5]) == int(row[5]) == end["scores"][seat]
        assert row[1:5] == account.rows[seat % 2][1:5]  # partners alike
    # `cardrules run`'s round summary says the same entries for each seat (its team's)
    summary = round_summary(engine.rules, end, plain=True)
    for seat, row in enumerate(account.rows):
        line = next(t for t in summary if t.startswith(f"  seat {seat + 1} "))
        entries = [f"{name} {value}" for name, value in
                   zip(("nil", "contract", "bags", "bag_penalty"), row[1:5]) if value != "0"]
        assert f"score {end['scores'][seat]:>4} ({', '.join(entries)})" in line, line


def test_a_deals_account_fits_sixty_columns_and_says_what_each_entry_counts_once() -> None:
    """The account's table (four entries, the total and three player variables) falls into
    blocks of columns that fit 60 columns with the news' indent, each with the seats; what
    each entry counts is said with the first deal's account, not again each deal."""
    rules = load_ruleset("spades")
    engine = Engine(rules)
    state = engine.new_game(4, 3, log=round_ends())
    rng = random.Random(3)
    ends: list[dict] = []
    while len(ends) < 2 and not state.over:
        legal = engine.legal_actions(state)
        engine.play(state, legal[rng.randrange(len(legal))])
        ends += [e for e in drain(state.log) if e.get("event") == "round_end"]
    first, second = (round_account(rules, e).lines() for e in ends[:2])
    assert all(len("    " + line) <= 60 for line in first[:10]), first
    assert sum(line.lstrip().startswith("seat 1 ") for line in first) == 2  # two blocks
    assert any(line.startswith("contract: ") for line in first)
    assert not any(line.startswith("contract: ") for line in second)


def test_greedy_seats_bid_what_their_hands_look_good_for() -> None:
    """The ruleset's estimate for bots (scoring.evaluate) reads a deal not yet played as its
    hands look (aces, high spades): a greedy seat no longer takes every nil for made and
    bids nil every time; a hand with an ace or a spade never bids nil."""
    engine = Engine(load_ruleset("spades", {"one_deal": "true"}))
    bids: list[int] = []
    for seed in range(3):
        state = engine.new_game(4, seed)
        bots = [make_bot("greedy", seed, seat) for seat in range(4)]
        legal = engine.legal_actions(state)
        while legal and legal[0][0] == "bid":
            seat = state.current
            action = bots[seat].choose(engine, state, legal)
            hand = [engine.rules.cards.names[c]
                    for c in state.zones[engine.rules.zone("hand").zone_of(seat)]]
            if action[1] == 0:
                assert not any(name.endswith("S") or name[0] == "A" for name in hand), hand
            bids.append(action[1])
            legal = engine.play(state, action)
    assert len(bids) == 12 and sum(bid > 0 for bid in bids) >= 9, bids
