"""Czech Golf (rulesets/czech-golf.yaml): the deal, the peeks, the four kinds of turn, what
each player may know, the two ways the game ends, and the scoring of the written rules' example.

The generic invariants (cards conserved, views leak nothing, JSON round trips) are checked
for every ruleset by tests/test_rulesets.py; these tests check the rules of this game.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.cli.main import main as cli
from cardrules.cli.parts import Narrowing
from cardrules.cli.screen import Style, view_section
from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.errors import GameError, IllegalAction
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions.play import play_game
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view
from cardrules.model import Action

RULESET = "czech-golf"
RULE_FILE = str(Path(__file__).resolve().parent.parent / "rulesets" / "czech-golf.yaml")
EMPTY = -1
# Far more actions than any game needs (a draw from the stock, the only thing that brings
# the end nearer without a knock, comes a third of the time in random play).
MAX_ACTIONS = 3000
TURN_CHOICES = [("take_discard",), ("draw",), ("knock",)]


@functools.cache
def engine_for(**options: Any) -> Engine:
    return Engine(load_ruleset(RULESET, options=options or None))


DEFAULT = engine_for()
RULES = DEFAULT.rules


# --------------------------------------------------------------------- helpers
def draw_then_discard(engine: Engine, state: GameState) -> None:
    """Draw from the stock meaning to discard (one decision by default, with the option
    choose_before_drawing the turn's own choice)."""
    choose_first = ("draw_to_discard",) in engine.legal_actions(state)
    engine.apply(state, ("draw_to_discard",) if choose_first else ("draw",))


def draw_then_field(engine: Engine, state: GameState) -> None:
    """Draw from the stock and go on to put a hand card into the field."""
    if ("draw_to_field",) in engine.legal_actions(state):
        engine.apply(state, ("draw_to_field",))
    else:
        engine.apply(state, ("draw",))
        engine.apply(state, ("to_field",))


def zone(state: GameState, name: str, seat: int | None = None) -> list[int]:
    """The card list of a zone (an owned zone needs its seat)."""
    z = RULES.zone(name)
    return state.zones[z.zone_of(seat if seat is not None else 0)]


def names(cards: list[int]) -> list[str]:
    return [RULES.cards.names[c] for c in cards]


def end_setup(engine: Engine, state: GameState) -> list[tuple[int, int]]:
    """Play the peek phase (each player's first unknown field cards); the peeks made."""
    peeks = []
    while engine.legal_actions(state)[0][0] == "peek":
        action = engine.legal_actions(state)[0]
        peeks.append((state.current, action[1]))
        engine.apply(state, action)
    return peeks


def arrange(engine: Engine, state: GameState, placed: dict[tuple[str, int | None], list[str]]
            ) -> None:
    """Rebuild the table: the named cards in the given zones (a field lists its six slots in
    reading order), every other card face down in the stock, nobody knowing anything."""
    rules = engine.rules
    free: dict[str, list[int]] = {}
    for c in range(state.n_cards):
        free.setdefault(rules.cards.names[c], []).append(c)
    for cards in state.zones:
        cards.clear()
    used: set[int] = set()
    for (name, seat), wanted in placed.items():
        z = rules.zone(name).zone_of(seat if seat is not None else 0)
        for card_name in wanted:
            c = free[card_name].pop()
            state.zones[z].append(c)
            state.where[c] = z
            used.add(c)
    stock = rules.zone("stock").index
    for c in range(state.n_cards):
        state.face_up[c] = False
        state.known[c] = 0
        if c not in used:
            state.zones[stock].append(c)
            state.where[c] = stock


def all_revealed(state: GameState) -> bool:
    """Whether every field and hand card lies face up (what the round's end does)."""
    return all(state.face_up[c] for part in ("field", "hand") for seat in range(state.n)
               for c in zone(state, part, seat))


def score(engine: Engine, state: GameState, seat: int) -> tuple[int, ...]:
    return tuple(engine.rules.score(state, seat))


def rarely_knock(rng: random.Random, legal: list[tuple[Any, ...]], knock_chance: float
                 ) -> tuple[Any, ...]:
    """A random legal action; a knock only with the given chance, so games run longer."""
    others = [a for a in legal if a[0] != "knock"]
    if not others or (("knock",) in legal and rng.random() < knock_chance):
        return ("knock",) if ("knock",) in legal else legal[0]
    return rng.choice(others)


# ------------------------------------------------------------- the rule file
def test_the_file_validates_and_the_cli_plays_it() -> None:
    assert check_files([RULE_FILE]) == []
    runner = CliRunner()
    checked = runner.invoke(cli, ["validate", RULE_FILE])
    assert checked.exit_code == 0, checked.output
    for args in ([], ["-p", "4", "-s", "5"], ["-p", "3", "-o", "knock_ends=now"]):
        played = runner.invoke(cli, ["run", RULESET, "--plain", *args])
        assert played.exit_code == 0, played.output
        assert "Czech Golf" in played.output and "inner" in played.output  # Winner / winners


def test_the_options_settle_the_vague_points_with_stated_defaults() -> None:
    defaults = {o.name: o.default for o in RULES.option_defs}
    assert defaults == {"peeks": 3, "two_decks_from": 4, "knock_ends": "lap",
                        "discard_taken_card": True, "no_number_card": "zero",
                        "choose_before_drawing": False}
    assert all(o.doc for o in RULES.option_defs)
    assert (RULES.min_players, RULES.default_players, RULES.max_players) == (2, 2, 4)
    assert RULES.winner == "highest"
    with pytest.raises(GameError):
        DEFAULT.new_game(5, 0)
    with pytest.raises(GameError):
        DEFAULT.new_game(1, 0)


# ----------------------------------------------------------------- the deal
@pytest.mark.parametrize("seed", range(5))
def test_two_players_one_deck_and_a_29_card_stock_after_setup(seed: int) -> None:
    state = DEFAULT.new_game(2, seed)
    assert state.n_cards == 52 and len(set(names(list(range(52))))) == 52
    assert len(zone(state, "discard")) == 1 and state.face_up[zone(state, "discard")[0]]
    for seat in range(2):
        field, hand = zone(state, "field", seat), zone(state, "hand", seat)
        assert len(field) == 6 and EMPTY not in field
        assert not any(state.face_up[c] for c in field)
        assert len(hand) == 5 and not any(state.face_up[c] for c in hand)
        assert all(state.known[c] == 1 << seat for c in hand)
        assert not any(state.known[c] for c in field)
    assert len(zone(state, "stock")) == 29
    end_setup(DEFAULT, state)
    assert len(zone(state, "stock")) == 29
    assert state.current == 0 and DEFAULT.legal_actions(state) == TURN_CHOICES


@pytest.mark.parametrize("seed", range(3))
def test_four_players_use_two_decks(seed: int) -> None:
    state = DEFAULT.new_game(4, seed)
    assert state.n_cards == 104
    assert set(Counter(names(list(range(104)))).values()) == {2}
    for seat in range(4):
        assert len(zone(state, "field", seat)) == 6
        assert len(zone(state, "hand", seat)) == 5
    assert len(zone(state, "discard")) == 1
    assert len(zone(state, "stock")) == 104 - 4 * 11 - 1
    assert sum(len(z) for z in state.zones) == 104


def test_three_players_share_one_deck_unless_the_option_says_two() -> None:
    one = DEFAULT.new_game(3, 0)
    assert one.n_cards == 52 and len(zone(one, "stock")) == 52 - 33 - 1
    two = engine_for(two_decks_from=3).new_game(3, 0)
    assert two.n_cards == 104 and len(two.zones[RULES.zone("stock").index]) == 104 - 33 - 1


def test_each_player_peeks_at_three_different_own_field_cards() -> None:
    for players in (2, 4):
        state = DEFAULT.new_game(players, 1)
        for seat in range(players):
            for n in range(3):
                assert state.current == seat
                legal = DEFAULT.legal_actions(state)
                field = zone(state, "field", seat)
                assert [a[0] for a in legal] == ["peek"] * (6 - n)
                assert {a[1] for a in legal} == {c for c in field if not state.known[c] >> seat & 1}
                DEFAULT.apply(state, legal[-1])
            known = [c for c in zone(state, "field", seat) if state.known[c] >> seat & 1]
            assert len(known) == 3
            assert not any(state.face_up[c] for c in zone(state, "field", seat))
        assert DEFAULT.legal_actions(state) == TURN_CHOICES


# ------------------------------------------------------------------ scoring
def test_the_written_example_scores_18() -> None:
    state = DEFAULT.new_game(2, 0)
    arrange(DEFAULT, state, {
        ("field", 0): ["AS", "KS", "JS", "JH", "QS", "9S"],
        ("hand", 0): ["4C", "7C", "7D", "9D", "AD"],
        ("field", 1): ["2C", "3C", "5C", "6C", "8C", "10C"],
        ("hand", 1): ["2D", "3D", "5D", "6D", "8D"],
        ("discard", None): ["10D"],
    })
    assert score(DEFAULT, state, 0) == (13, 1, 4)  # field, hand faces, lowest number card
    assert sum(score(DEFAULT, state, 0)) == 18
    assert score(DEFAULT, state, 1) == (0, 0, 2)


@pytest.mark.parametrize("option, expected", [("zero", (0, 5, 0)), ("lowest_card", (0, 5, 1))])
def test_a_hand_without_a_number_card(option: str, expected: tuple[int, ...]) -> None:
    engine = engine_for(no_number_card=option)
    state = engine.new_game(2, 0)
    arrange(engine, state, {
        ("field", 0): ["2C", "3C", "4C", "5C", "6C", "7C"],
        ("hand", 0): ["KD", "QD", "JD", "AD", "KH"],
        ("field", 1): ["2H", "3H", "4H", "5H", "6H", "7H"],
        ("hand", 1): ["10S", "KS", "9S", "AS", "10H"],
    })
    assert score(engine, state, 0) == expected
    assert score(engine, state, 1) == (0, 2, 9)


def test_court_cards_score_by_place() -> None:
    state = DEFAULT.new_game(2, 0)
    arrange(DEFAULT, state, {
        ("field", 0): ["QC", "QD", "QH", "QS", "KC", "AC"],
        ("hand", 0): ["JC", "2C", "JD", "10C", "3D"],
        ("field", 1): ["4C", "4D", "4H", "4S", "5C", "5D"],
        ("hand", 1): ["6C", "6D", "6H", "6S", "5H"],
    })
    assert score(DEFAULT, state, 0) == (5 * 4 + 3 + 1, 2, 2)
    assert score(DEFAULT, state, 1) == (0, 0, 5)


# ------------------------------------------------------------- the four turns
def started(engine: Engine = DEFAULT, players: int = 2, seed: int = 3) -> GameState:
    state = engine.new_game(players, seed)
    end_setup(engine, state)
    return state


def test_take_discard_leads_only_to_a_discard() -> None:
    state = started()
    top = zone(state, "discard")[-1]
    DEFAULT.apply(state, ("take_discard",))
    hand = zone(state, "hand", 0)
    assert top in hand and len(hand) == 6 and not zone(state, "discard")
    legal = DEFAULT.legal_actions(state)
    assert legal == [("discard", c) for c in hand]
    assert state.known[top] == 0b11  # everyone saw it taken
    with pytest.raises(IllegalAction):
        DEFAULT.apply(state, ("place", top, zone(state, "field", 0)[0]))
    gone = hand[0]
    DEFAULT.apply(state, ("discard", gone))
    assert zone(state, "discard") == [gone] and state.face_up[gone]
    assert len(zone(state, "hand", 0)) == 5 and state.current == 1
    assert DEFAULT.legal_actions(state) == TURN_CHOICES


def test_the_card_taken_is_the_turns_own() -> None:
    """The next seat's turn begins with nothing taken: its view never reads the card the
    seat before took from the discard pile."""
    state = started()
    top = zone(state, "discard")[-1]
    DEFAULT.apply(state, ("take_discard",))
    assert state.vars["taken"] == top
    DEFAULT.apply(state, ("discard", zone(state, "hand", 0)[0]))
    assert state.current == 1 and state.vars["taken"] is None
    shown = player_view(DEFAULT.rules, state, 1)["variables"]
    assert shown.get("taken") is None, shown


def test_the_taken_discard_may_be_refused_as_a_discard_by_option() -> None:
    engine = engine_for(discard_taken_card=False)
    state = started(engine)
    top = zone(state, "discard")[-1]
    engine.apply(state, ("take_discard",))
    legal = engine.legal_actions(state)
    assert len(legal) == 5 and ("discard", top) not in legal
    # ... but on a later turn it may go.
    engine.apply(state, legal[0])
    draw_then_discard(engine, state)
    engine.apply(state, engine.legal_actions(state)[0])
    draw_then_discard(engine, state)
    assert ("discard", top) in engine.legal_actions(state)


def test_draw_to_discard() -> None:
    state = started()
    drawn = zone(state, "stock")[-1]
    draw_then_discard(DEFAULT, state)
    hand = zone(state, "hand", 0)
    assert drawn in hand and len(zone(state, "stock")) == 28
    assert state.known[drawn] == 0b01 and not state.face_up[drawn]
    assert DEFAULT.legal_actions(state) == [("discard", c) for c in hand] + [("to_field",)]
    DEFAULT.apply(state, ("discard", drawn))
    assert zone(state, "discard")[-1] == drawn and state.face_up[drawn]
    assert state.known[drawn] == 0b11 and state.current == 1


def test_draw_to_field_swaps_a_hand_card_into_the_field() -> None:
    state = started()
    discard_top = zone(state, "discard")[-1]
    draw_then_field(DEFAULT, state)
    hand, field = list(zone(state, "hand", 0)), list(zone(state, "field", 0))
    legal = DEFAULT.legal_actions(state)
    assert legal == [("place", c, old) for c in hand for old in field]
    assert all(a[1] != discard_top for a in legal)
    card, old = hand[2], field[4]
    DEFAULT.apply(state, ("place", card, old))
    assert zone(state, "field", 0)[4] == card and not state.face_up[card]
    assert state.known[card] == 0b01  # its owner put it there; the other player never saw it
    assert zone(state, "discard")[-1] == old and state.face_up[old] and state.known[old] == 0b11
    assert len(zone(state, "hand", 0)) == 5 and card not in zone(state, "hand", 0)
    assert state.current == 1 and DEFAULT.legal_actions(state) == TURN_CHOICES


def test_no_move_ever_puts_the_discard_straight_into_the_field() -> None:
    """Over random games: a `place` only ever moves a hand card, never in a turn that took
    the discard, and every step offers exactly the moves it should."""
    for seed in range(40):
        players = 2 + seed % 3
        state = DEFAULT.new_game(players, seed)
        rng = random.Random(seed)
        took_discard = False
        while not state.over:
            assert state.actions < MAX_ACTIONS, "the game does not end"
            legal = DEFAULT.legal_actions(state)
            kinds = {a[0] for a in legal}
            me = state.current
            if kinds == {"peek"}:
                pass
            elif "knock" in kinds:
                took_discard = False
                assert legal == TURN_CHOICES  # the stock is never empty when a turn starts
            elif kinds == {"place"}:
                assert not took_discard
                hand, field = set(zone(state, "hand", me)), set(zone(state, "field", me))
                assert all(a[1] in hand and a[2] in field for a in legal)
                assert len(legal) == 36
            else:  # after a draw from the stock, the field is still open
                assert kinds == ({"discard"} if took_discard else {"discard", "to_field"})
                assert {a[1] for a in legal if a[0] == "discard"} == set(zone(state, "hand", me))
            action = rarely_knock(rng, legal, 0.05)
            if action == ("take_discard",):
                took_discard = True
            DEFAULT.apply(state, action)


# ------------------------------------------------------------------ knowledge
class Sight:
    """What each seat should know of the others' hands, kept from the actions alone: the
    cards it saw taken from the discard pile into a hand (`exact`), and those it has lost
    track of since that hand put a card face down into its field (`partly`: each in the
    hand or the field). Two decks: where a hand discards a card of a face of which the seat
    was tracking copies there (known exactly, or partly), it cannot tell which copy went:
    one fewer is left to track (all the others if it tracked the one that went, else all
    but the highest numbered), and if it tracked any partly, those left are known partly."""

    def __init__(self, players: int) -> None:
        self.exact = [[set() for _ in range(players)] for _ in range(players)]
        self.partly = [[set() for _ in range(players)] for _ in range(players)]
        self.copies_seen = 0  # the times a seat saw a copy of a face it was tracking go

    def before(self, state: GameState, action: Action) -> None:
        me = state.current
        if action == ("take_discard",):
            for seat in range(state.n):
                self.exact[seat][me].add(zone(state, "discard")[-1])
        if action[0] == "discard":
            for seat in range(state.n):
                if seat != me:
                    self.copy_seen(seat, me, action[1])
        if action[0] == "place":
            for seat in range(state.n):
                if seat != me:
                    # the field card goes straight to the discard pile: of the copies the
                    # seat knew to lie maybe in the field, one fewer is left
                    self.copy_seen(seat, me, action[2], from_hand=False)
                    # then which hand card went into the field is seen by its owner alone
                    self.partly[seat][me] |= self.exact[seat][me]
                    self.exact[seat][me] = set()

    def copy_seen(self, seat: int, holder: int, seen: int, from_hand: bool = True) -> None:
        """`seat` sees card `seen` come out of `holder`'s hand (or, not `from_hand`, out of
        the holder's field) to the discard pile."""
        names = RULES.cards.names
        exact, partly = self.exact[seat][holder], self.partly[seat][holder]
        if not from_hand:  # (the copies it knows in the hand are not where the card was)
            exact = set()
        tracked = seen in exact or seen in partly
        self.copies_seen += any(c != seen and names[c] == names[seen] for c in exact | partly)
        some_partly = seen in partly or any(names[c] == names[seen] for c in partly)
        left = {c for c in exact | partly if c != seen and names[c] == names[seen]}
        if left and not tracked:
            gone = max(left)
            left.discard(gone)
            exact.discard(gone)
            partly.discard(gone)
        if some_partly:
            partly |= left
            exact -= left

    def after(self, state: GameState) -> None:
        """Cards shown on the discard pile are known wherever they went before."""
        shown = set(zone(state, "discard"))
        for rows in (self.exact, self.partly):
            for row in rows:
                for cards in row:
                    cards -= shown


def unknown_in(state: GameState, cards: list[int], seat: int) -> bool:
    """Whether a zone holds a card the seat does not know (else no card it knows only partly
    can be there)."""
    return any(c != EMPTY and not state.known[c] >> seat & 1 for c in cards)


def check_knowledge(state: GameState, mine: list[set[int]], sight: Sight) -> None:
    """During play, each seat's view of every field: a face-down card shows its name exactly
    when that seat peeked at it or put it there (its own field only). A card everyone saw on
    the discard pile is known in its taker's hand, but once a card goes face down from that
    hand into the field, the others cannot tell which card it was: the cards they knew there
    are then listed as maybe in the hand, maybe in the field."""
    names = RULES.cards.names
    for seat in range(state.n):
        view = player_view(RULES, state, seat)
        for owner in range(state.n):
            field = view["zones"]["field"][str(owner + 1)]
            for c, entry in zip(zone(state, "field", owner), field["cards"]):
                assert entry["up"] is False  # nothing in a field is turned up during play
                expected = owner == seat and c in mine[seat]
                assert (entry["card"] is not None) == expected, (seat, owner, c)
                if expected:
                    assert entry["card"] == names[c]
            partly = sorted(sight.partly[seat][owner], key=lambda c: (names.index(names[c]), c)) \
                if unknown_in(state, zone(state, "field", owner), seat) else []
            assert field.get("maybe", []) == [names[c] for c in partly]
        # The own hand is always in sight; other hands show the cards seen going in.
        for owner in range(state.n):
            hand = view["zones"]["hand"][str(owner + 1)]
            assert all(entry["up"] is False for entry in hand["cards"])
            shown = sorted(names.index(e["card"]) for e in hand["cards"] if e["card"])
            expected = zone(state, "hand", owner) if owner == seat \
                else sight.exact[seat][owner]
            assert shown == sorted(names.index(names[c]) for c in expected), (seat, owner)
            partly = sorted(sight.partly[seat][owner], key=lambda c: (names.index(names[c]), c)) \
                if unknown_in(state, zone(state, "hand", owner), seat) else []
            assert hand.get("maybe", []) == [names[c] for c in partly], (seat, owner)


def test_four_players_know_of_two_decks_copies_as_the_model_says() -> None:
    """Four players, two decks, nobody knocking: a seat that tracked copies of a card in
    another's hand (known exactly or partly) and sees one go knows what the model says, the
    same whichever copy it was, in games where that happens many times."""
    assert sum(played_checking(seed, 4, 0.0)[1].copies_seen for seed in range(12)) >= 20


def played_checking(seed: int, players: int, knock_chance: float
                    ) -> tuple[GameState, Sight, list[set[int]]]:
    """A game of random seats (knocking with the chance given) played to its end, each
    seat's view checked against the model after every action (check_knowledge); the game,
    the model and the field cards each seat peeked at or put there."""
    state = DEFAULT.new_game(players, seed)
    rng = random.Random(seed)
    mine: list[set[int]] = [set() for _ in range(players)]
    sight = Sight(players)
    check_knowledge(state, mine, sight)
    while not state.over:
        assert state.actions < MAX_ACTIONS, "the game does not end"
        me = state.current
        action = rarely_knock(rng, DEFAULT.legal_actions(state), knock_chance)
        if action[0] in ("peek", "place"):
            mine[me].add(action[1])
        sight.before(state, action)
        DEFAULT.apply(state, action)
        sight.after(state)
        if not state.over:
            check_knowledge(state, mine, sight)
            if action[0] == "peek":
                assert sum(state.known[c] >> me & 1 for c in zone(state, "field", me)) \
                    == len(mine[me] & set(zone(state, "field", me)))
    return state, sight, mine


@settings(max_examples=30, deadline=None, database=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]),
       knock_chance=st.sampled_from([0.0, 0.02, 0.3]))
def test_a_player_knows_only_the_field_cards_peeked_at_or_put_there(
        seed: int, players: int, knock_chance: float) -> None:
    state = played_checking(seed, players, knock_chance)[0]
    # The end reveals everything to everyone.
    for seat in range(players):
        view = player_view(RULES, state, seat)
        for part in ("field", "hand"):
            for owner in range(players):
                entries = view["zones"][part][str(owner + 1)]["cards"]
                assert all(e["up"] and e["card"] is not None for e in entries)


def test_the_knowledge_check_can_fail() -> None:
    state = started()
    mine: list[set[int]] = [set(), set()]
    with pytest.raises(AssertionError):  # seat 1 peeked, but the check is told nothing
        check_knowledge(state, mine, Sight(2))
    opponent_card = zone(state, "field", 1)[0]
    state.known[opponent_card] |= 1  # a leak: seat 1 learns a card of seat 2's field
    mine = [{c for c in zone(state, "field", s) if state.known[c] >> s & 1} for s in (0, 1)]
    with pytest.raises(AssertionError):
        check_knowledge(state, mine, Sight(2))


# -------------------------------------------------------------- the game's end
def test_knock_ends_the_game_at_once_by_option() -> None:
    engine = engine_for(knock_ends="now")
    for players in (2, 4):
        state = started(engine, players)
        engine.apply(state, ("knock",))
        assert state.over and engine.legal_actions(state) == []
        assert len(state.round_scores) == 1
        assert len(zone(state, "stock")) == {2: 29, 4: 59}[players]
        assert all_revealed(state)


@pytest.mark.parametrize("players, knocker", [(2, 0), (2, 1), (4, 0), (4, 2), (4, 3)])
def test_by_default_a_knock_lets_the_lap_finish(players: int, knocker: int) -> None:
    state = started(DEFAULT, players)
    for _ in range(knocker):  # the players before the knocker draw and discard
        draw_then_discard(DEFAULT, state)
        DEFAULT.apply(state, DEFAULT.legal_actions(state)[0])
    assert state.current == knocker
    DEFAULT.apply(state, ("knock",))
    for seat in range(knocker + 1, players):  # the rest of the lap plays on
        assert not state.over and state.current == seat
        assert DEFAULT.legal_actions(state) == TURN_CHOICES
        draw_then_discard(DEFAULT, state)
        DEFAULT.apply(state, DEFAULT.legal_actions(state)[0])
    assert state.over  # and the first player gets no further turn
    assert len(zone(state, "stock")) == 52 * (players // 2) - players * 11 - 1 \
        - (players - 1)
    assert all_revealed(state)
    assert state.winners == [p for p in range(players)
                             if state.totals[p] == max(state.totals)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_ends_when_the_stock_runs_out(players: int) -> None:
    state = started(DEFAULT, players, seed=8)
    stock = len(zone(state, "stock"))
    turns = 0
    while not state.over:
        assert state.actions < MAX_ACTIONS, "the game does not end"
        # Never knock; draw to the field every third turn, else to the discard.
        if turns % 3 == 2:
            draw_then_field(DEFAULT, state)
        else:
            draw_then_discard(DEFAULT, state)
        DEFAULT.apply(state, next(a for a in DEFAULT.legal_actions(state) if a[0] != "to_field"))
        turns += 1
        assert state.over == (not zone(state, "stock"))
    assert turns == stock
    assert all_revealed(state)
    results = DEFAULT.results(state)
    assert results["totals"] == [sum(score(DEFAULT, state, p)) for p in range(players)]


def test_taking_the_discard_does_not_use_up_the_stock() -> None:
    state = started()
    stock = len(zone(state, "stock"))
    for _ in range(50):
        DEFAULT.apply(state, ("take_discard",))
        DEFAULT.apply(state, DEFAULT.legal_actions(state)[0])
    assert not state.over and len(zone(state, "stock")) == stock


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_always_finish(players: int) -> None:
    for seed in range(25):
        state = play_game(DEFAULT, players, seed)
        assert state.over and state.winners
        assert len(state.round_scores) == 1
        assert sum(len(z) for z in state.zones) == state.n_cards
    for seed in range(10):  # long games: knocks are rare, so the stock usually runs out
        state = DEFAULT.new_game(players, seed)
        rng = random.Random(seed)
        while not state.over:
            assert state.actions < MAX_ACTIONS, "the game does not end"
            DEFAULT.apply(state, rarely_knock(rng, DEFAULT.legal_actions(state), 0.0))
        assert not zone(state, "stock")


def test_the_number_of_peeks_is_an_option() -> None:
    engine = Engine(load_ruleset("czech-golf", options={"peeks": "2"}))
    state = engine.new_game(2, 5)
    while state.phase == 0:
        engine.apply(state, engine.legal_actions(state)[0])
    for seat in range(2):
        known = [c for c in zone(state, "field", seat) if state.known[c] >> seat & 1]
        assert len(known) == 2


@pytest.mark.parametrize("choose_first", [False, True])
def test_the_drawn_card_is_seen_before_choosing_discard_or_field(choose_first: bool) -> None:
    """By default one draws, sees the card, then discards or goes on to the field; with
    choose_before_drawing the turn names its use before the card is seen."""
    engine = engine_for(choose_before_drawing=choose_first)
    state = started(engine)
    moves = [a[0] for a in engine.legal_actions(state)]
    if choose_first:
        assert moves == ["take_discard", "draw_to_discard", "draw_to_field", "knock"]
        return
    assert moves == ["take_discard", "draw", "knock"]
    drawn = zone(state, "stock")[-1]
    engine.apply(state, ("draw",))
    assert drawn in zone(state, "hand", 0) and state.known[drawn] & 1  # seen before deciding
    assert ("to_field",) in engine.legal_actions(state)
    engine.apply(state, ("to_field",))
    assert {a[0] for a in engine.legal_actions(state)} == {"place"}
    engine.apply(state, ("place", drawn, zone(state, "field", 0)[0]))
    assert zone(state, "field", 0)[0] == drawn and state.current == 1


def test_a_person_reads_no_bookkeeping_and_the_parts_of_a_place_by_their_names() -> None:
    """The card just taken from the discard pile is the rules' bookkeeping: the news says it
    was taken, the view does not list it as a variable. Putting a hand card into the field
    part by part asks for 'the field card', never for 'the old'."""
    state = started()
    top = zone(state, "discard")[-1]
    DEFAULT.apply(state, ("take_discard",))
    assert state.vars["taken"] == top
    seen = "\n".join(view_section(RULES, state, 0, Style(plain=True)))
    assert "Taken" not in seen and "taken" not in seen, seen
    state = started()
    draw_then_field(DEFAULT, state)
    narrowing = Narrowing(DEFAULT, state, 0, DEFAULT.legal_actions(state))
    narrowing.settle()
    assert narrowing.what() == "card"
    narrowing.choose(narrowing.options()[0])
    assert narrowing.what() == "field card"
