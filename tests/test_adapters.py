"""The adapters' core (adapters/): the action table, choosing in parts, and what a seat is
shown. The OpenSpiel and PettingZoo wrappers have their own tests; these need only numpy."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the adapters need numpy (an optional extra)")

from trades import traded  # noqa: E402  (tests/trades.py)

from cardrules.adapters import recall  # noqa: E402
from cardrules.adapters import table as tables  # noqa: E402
from cardrules.adapters.decision import Decision  # noqa: E402
from cardrules.adapters.match import Match, Record  # noqa: E402
from cardrules.adapters.observe import SeatTensor, TensorPlan, tensor_of  # noqa: E402
from cardrules.adapters.table import AdapterError, option_pairs, table  # noqa: E402
from cardrules.adapters.texts import information_text, observation_text  # noqa: E402
from cardrules.errors import IllegalAction  # noqa: E402
from cardrules.interpreter.runtime import OWNER  # noqa: E402
from cardrules.interpreter.sight import whereabouts  # noqa: E402
from cardrules.interpreter.view import held_order, player_view  # noqa: E402
from cardrules.interpreter.words import tell  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
GAMES = Path(__file__).resolve().parent / "games"


def started(name: str, seed: int = 1, players: int | None = None,
            actions: str = "auto") -> Match:
    match = Match(table(name, (), players, actions))
    match.start(seed)
    return match


def play_randomly(match: Match, rng: random.Random, parts: int) -> None:
    for _ in range(parts):
        if match.is_over():
            return
        match.apply(rng.choice(match.legal()))


# ------------------------------------------------------------------------- the table
def test_the_table_is_fixed_and_labelled() -> None:
    first, again = tables.Table("golf6"), tables.Table("golf6")
    assert first.parts.labels == again.parts.labels
    labels = first.parts.labels
    assert labels[:6] == ["reveal", "take_stock", "take_discard", "swap", "discard", "end"]
    assert "grid 2 row 1 column 3" in labels and "discard card 1" in labels
    # Zones kept for seats beyond the table have no ids: 8 grids declared, 4 in play.
    assert "grid 5 row 1 column 1" not in labels
    assert len(tables.Table("golf6", (), 3).parts) < len(labels)
    sections = [name for name, _, _ in first.parts.sections()]
    assert sections == ["moves", "end", "places"]
    geohash = [name for name, _, _ in table("geohash").parts.sections()]
    assert geohash == ["moves", "end", "places", "players", "ranks", "suits", "colours"]
    assert "pass" in table("geohash").parts.moves  # the answer in a reaction window


def test_whole_actions_where_the_table_is_small_enough() -> None:
    """golf6's whole actions number 699 at four seats: one id each, labelled by their parts;
    grandma's lay-downs (lists) and geohash's 353,777 whole actions are chosen in parts."""
    golf = table("golf6")
    assert golf.whole is golf.actions and len(golf.actions) == golf.whole_count == 699
    places = sum(place.capacity for place in golf.places)
    assert golf.actions.labels[0] == "reveal " + golf.parts.labels[golf.parts.place_base]
    assert "swap grid 2 row 1 column 3" in golf.actions.labels
    assert golf.actions.labels[places:places + 2] == ["take_stock", "take_discard"]
    assert golf.actions.labels[-1] == "discard"
    assert table("golf6", (), None, "parts").actions is table("golf6", (), None, "parts").parts
    assert table("geohash").whole is None and table("geohash").whole_count == 353_777
    assert table("grandma").whole is None and table("grandma").whole_count is None
    with pytest.raises(AdapterError, match="grandma's table of whole actions is unbounded"):
        tables.Table("grandma", (), None, "whole")
    with pytest.raises(AdapterError, match="actions: expected one of auto, whole, parts"):
        tables.Table("golf6", (), None, "flat")


@pytest.mark.parametrize("name", ["golf6", "spades"])
def test_whole_ids_play_the_same_game_as_parts(name: str) -> None:
    """Each legal whole action has the id of its parts, read as one number; the same choices
    whole or in parts play the same game."""
    rng = random.Random(4)
    whole, parts = started(name, 5), started(name, 5, actions="parts")
    ids = whole.table.actions
    assert isinstance(ids, tables.WholeActions)
    for _ in range(120):
        if whole.is_over():
            break
        decision = Decision(parts)
        offered = {ids.id_of(action, parts.card_token()): action
                   for _, action in decision.whole()}
        assert whole.legal() == sorted(offered)
        token = rng.choice(whole.legal())
        with pytest.raises(IllegalAction):
            whole.apply(next(t for t in range(len(ids)) if t not in offered))
        tokens = next(seq for seq, action in decision.whole() if action == offered[token])
        assert ids.labels[token] == " ".join(parts.label(t) for t in tokens)
        whole.apply(token)
        for t in tokens:
            parts.apply(t)
        assert whole.records[-1] == parts.records[-1]
    assert whole.state is not None and parts.state is not None
    assert whole.state.to_json() == parts.state.to_json()


def test_a_kind_the_table_cannot_hold_is_refused_at_load(tmp_path: Path) -> None:
    text = (DATA / "mini.yaml").read_text(encoding="utf-8").replace(
        "            - name: keep\n              label: Keep every card\n",
        "            - name: keep\n              label: \"Keep, saying {word}\"\n"
        "              choose: {word: \"['yes', 'no']\"}\n")
    path = tmp_path / "words.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AdapterError, match="move 'keep' chooses 'word', a text value, which is "
                                           "not supported by this adapter"):
        tables.Table(str(path))



def test_a_negative_number_a_choice_writes_is_encoded() -> None:
    """ninety-nine's ten played for -10 or 10 (`ten: either`): the numbers begin at the least
    a choice's rules write, so every legal action has its ids, and games play to their end."""
    either = table("ninety-nine", option_pairs("ten:either"))
    labels = either.parts.labels
    assert labels[either.parts.number(-10)] == "number -10"
    assert labels[either.parts.number(10)] == "number 10"
    with pytest.raises(AdapterError, match=r"the number -11 .* \(-10 to 52\)"):
        either.parts.number(-11)
    minus = either.parts.number(-10)
    chosen = 0
    for seed in range(6):
        match = Match(either)
        match.start(seed)
        rng = random.Random(seed)
        while not match.is_over():
            legal = match.legal()
            chosen += minus in legal
            match.apply(rng.choice(legal))
    assert chosen  # (a ten was offered for -10)


def test_a_negative_number_a_choice_reads_of_a_value_table_is_encoded(tmp_path: Path) -> None:
    """The same, with the -10 read of the ten's `adds` rather than written: the numbers
    begin at the least the value tables the choice reads hold."""
    text = (RULESETS / "ninety-nine.yaml").read_text(encoding="utf-8")
    assert "then [-10, 10]" in text
    path = tmp_path / "ninety-nine-adds.yaml"
    path.write_text(text.replace("then [-10, 10]", "then [card.adds, 10]"), encoding="utf-8")
    either = tables.Table(str(path), option_pairs("ten:either"))
    assert either.parts.least_number == -10
    match = Match(either)
    match.start(3)
    rng = random.Random(3)
    while not match.is_over():
        match.apply(rng.choice(match.legal()))

def test_options_as_text_or_dict() -> None:
    assert option_pairs("rounds=4;stock_runs_out:end_round") == (
        ("rounds", "4"), ("stock_runs_out", "end_round"))
    assert option_pairs({"rounds": 4, "discard_taken_card": False}) == (
        ("discard_taken_card", "false"), ("rounds", "4"))
    with pytest.raises(AdapterError, match="expected NAME=VALUE or NAME:VALUE"):
        option_pairs("rounds")
    assert table("golf6", option_pairs("rounds:2")).rounds == 2


# ------------------------------------------------------------------ choosing in parts
@pytest.mark.parametrize("name", ["golf6", "czech-golf", "geohash", "grandma"])
def test_the_ids_offered_are_the_prefixes_of_whole_legal_actions(name: str) -> None:
    """At each part, exactly the ids that begin a whole legal action; a whole action is
    applied when its ids are all chosen; anything else is refused, the match unchanged."""
    rng = random.Random(3)
    match = started(name, 3, actions="parts")
    checked = 0
    while not match.is_over() and checked < 60:
        whole = dict(Decision(match).whole())
        engine_actions = match.table.engine.legal_actions(match.state)
        assert list(whole.values()) == engine_actions  # every one, in the engine's order
        prefix = tuple(match.prefix)
        expected = sorted({seq[len(prefix)] for seq in whole if seq[:len(prefix)] == prefix})
        assert match.legal() == expected
        refused = next(t for t in range(len(match.table.actions)) if t not in expected)
        with pytest.raises(IllegalAction):
            match.apply(refused)
        assert tuple(match.prefix) == prefix
        match.apply(rng.choice(expected))
        checked += 1


def test_a_layout_of_groups_is_chosen_card_by_card() -> None:
    """grandma's lay_down: the move, each group's cards by their places, `end` after each
    group and after the list; the engine gets the very plan."""
    rng = random.Random(5)
    for seed in range(40):
        match = started("grandma", seed)
        while not match.is_over():
            moves = match.table.actions.moves
            if moves["lay_down"] in match.legal():
                decision = match.decision()
                layouts = [a for a in decision.whole() if a[1][0] == "lay_down"]
                tokens, action = layouts[0]
                groups = action[1]
                assert len(tokens) == 1 + sum(len(g) + 1 for g in groups) + 1
                assert tokens[-1] == tokens[-2] == match.table.actions.end
                before = len(match.records)
                for t in tokens:
                    match.apply(t)
                assert match.records[before].action == action
                return
            match.apply(rng.choice(match.legal()))
    raise AssertionError("no lay-down offered in 40 games")


def test_a_text_is_written_letter_by_letter() -> None:
    """precognition's prediction: letters of its alphabet while the text may grow, `end`
    once it is long enough; the engine gets the text."""
    match = started("precognition", 2)
    ids = match.table.actions
    assert match.legal() == [ids.moves["predict"]]
    match.apply(ids.moves["predict"])
    letters = sorted(ids.letter(ch) for ch in "UDS")
    assert match.legal() == letters  # at least one letter: no `end` yet
    for ch in "UDDS":
        match.apply(ids.letter(ch))
        assert match.legal() == sorted([*letters, ids.end])
    with pytest.raises(IllegalAction):
        match.apply(ids.letter("X"))
    match.apply(ids.end)
    assert match.records[-1].action == ("predict", "UDDS")
    assert "'UDDS'" in match.recall(match.records[-1].seat)
    assert "(written)" in match.recall((match.records[-1].seat + 1) % 3)


# ------------------------------------------------------------ what a seat is shown
@pytest.mark.parametrize("name", ["golf6", "czech-golf", "geohash", "precognition", "grandma"])
def test_a_resample_looks_the_same_to_the_seat(name: str) -> None:
    """Nothing shown to a seat depends on a card it does not know: in a determinization for
    it the ids offered, the texts and the tensors are the same (cards by place, copies of a
    card alike), and so they are once it is pickled and restored."""
    rng = random.Random(11)
    match = started(name, 7)
    observation, information = TensorPlan.of(match.table, False), TensorPlan.of(match.table, True)
    for _ in range(8):
        play_randomly(match, rng, rng.randint(1, 25))
        if match.is_over():
            break
        seat = match.to_move()
        assert seat is not None
        for k in range(4):
            sample = match.resample(seat, random.Random(k))
            assert sample.legal() == match.legal()
            assert information_text(sample, seat) == information_text(match, seat)
            for plan in (observation, information):
                assert np.array_equal(tensor_of(plan, sample, seat),
                                      tensor_of(plan, match, seat))
            # pickled (as OpenSpiel serializes a state), it reads the same and plays on
            restored = pickle.loads(pickle.dumps(sample))
            assert restored.legal() == sample.legal()
            assert observation_text(restored, seat) == observation_text(sample, seat)
            assert information_text(restored, seat) == information_text(match, seat)
            assert restored.made == match.made


def test_a_resample_for_a_seat_not_to_move_is_at_the_games_decision() -> None:
    """Resampled for a seat that is not to move, a spades deal may leave the seat to move
    one card it may play, which the rules play by themselves (an automatic step): such a
    sample would have played on past an action the seat never saw. A sample is at the
    game's decision: the same seat to choose after as many actions, the seat's texts alike."""
    rng = random.Random(0)
    match = started("spades", 1)
    looked = 0
    while not match.is_over() and looked < 150:
        mover = match.to_move()
        for seat in range(4):
            if seat != mover:
                sample = match.resample(seat, rng)
                assert sample.to_move() == mover
                assert sample.playing().actions == match.playing().actions
                assert information_text(sample, seat) == information_text(match, seat)
                looked += 1
        match.apply(rng.choice(match.legal()))
    assert looked >= 150


def test_recall_names_a_card_only_to_the_seats_that_saw_it() -> None:
    match = started("golf6", 4)
    rng = random.Random(1)
    while "swap" not in [r.action[0] for r in match.records]:
        match.apply(rng.choice(match.legal()))
    reveals = [r for r in match.records if r.action[0] == "reveal"]
    first = reveals[0]
    card, known, _ = first.cards[0]
    name = match.table.rules.cards.names[card]
    assert known == (1 << match.table.players) - 1  # turned face up: all see it
    assert f"seat {first.seat + 1}: reveal {name}" in match.recall(0)
    # czech-golf: a seat peeks at a card of its field. It is told the card; the others are
    # told where it lies.
    czech = started("czech-golf", 4)
    czech.apply(czech.legal()[0])  # peek
    czech.apply(czech.legal()[0])  # the first face-down card it may look at
    peek = czech.records[0]
    card, _, place = peek.cards[0]
    name = czech.table.rules.cards.names[card]
    assert czech.recall(peek.seat) == f"seat {peek.seat + 1}: peek {name}\n"
    other = 1 - peek.seat
    assert czech.recall(other) == f"seat {peek.seat + 1}: peek {place}\n"
    assert place.startswith(f"field {peek.seat + 1} row ")


def test_a_match_survives_pickling_and_plays_on_alike() -> None:
    rng = random.Random(2)
    match = started("grandma", 9)
    play_randomly(match, rng, 150)
    copy = pickle.loads(pickle.dumps(match))
    for _ in range(100):
        if match.is_over():
            break
        assert copy.legal() == match.legal()
        assert information_text(copy, 0) == information_text(match, 0)
        token = rng.choice(match.legal())
        match.apply(token)
        copy.apply(token)


def test_a_sample_keeps_nothing_of_a_card_its_seat_did_not_see() -> None:
    """czech-golf: seat 1 peeks at a face-down card of its field. Two games that differ only
    in that card give seat 2 samples that say the same of it, pickled (as OpenSpiel
    serializes a state) or not: where it lay, not which card it is; and the restored sample
    reads to seat 2 as it did."""
    first = started("czech-golf", 4)
    assert first.state is not None
    dealt = first.state.copy()
    first.apply(first.legal()[0])  # peek
    first.apply(first.legal()[0])  # the first face-down card it may look at
    peeked = first.records[0].cards[0][0]
    assert first.records[0].seat == 0
    assert first.recall(0) == f"seat 1: peek {first.table.rules.cards.names[peeked]}\n"
    # another card nobody has seen, to trade with it: the first in the stock
    unseen = next(c for c in range(dealt.n_cards)
                  if dealt.known[c] == 0 and dealt.where[c] != dealt.where[peeked])
    samples = []
    for state in (dealt, traded(first.table.engine, dealt, peeked, unseen)):
        match = Match(first.table)
        match.state = state.copy()
        match.apply(match.legal()[0])
        match.apply(match.legal()[0])
        sample = match.resample(1, random.Random(3))
        told = match.records[0].cards[0][0]
        assert told == (peeked if state is dealt else unseen)  # the true game knows it
        assert all(c != told for r in sample.records for c in _flat_cards(r))
        restored = pickle.loads(pickle.dumps(sample))
        assert restored.records == sample.records
        assert restored.made == sample.made == match.made
        assert information_text(restored, 1) == information_text(sample, 1) \
            == information_text(match, 1)
        assert observation_text(restored, 1) == observation_text(sample, 1)
        assert restored.legal() == sample.legal()
        samples.append(pickle.dumps(sample))
    assert samples[0] == samples[1]


def _flat_cards(record: Record) -> list[int]:
    """The cards a record names: in its action's card parameters, and in its facts."""
    return [c for c, _, _ in record.cards] + [
        v for v in record.action[1:] if isinstance(v, int) and not isinstance(v, bool)]


def test_a_copy_plays_on_apart() -> None:
    match = started("golf6", 3)
    copy = match.copy()
    copy.apply(copy.legal()[0])
    copy.apply(copy.legal()[0])
    assert match.records == [] and len(copy.records) == 2
    assert match.state is not copy.state


@pytest.mark.parametrize("name, actions", [("golf6", "auto"), ("grandma", "auto"),
                                           ("precognition", "auto"), ("geohash", "auto"),
                                           ("czech-golf", "parts")])
def test_a_tensor_rewritten_from_what_changed_is_the_tensor_written_afresh(
        name: str, actions: str) -> None:
    """Each seat's observation tensor is kept and rewritten where the game changed since it
    was last asked for (some actions ago, or a round ago): it is the tensor a new buffer
    gets. And a recall worked out when first asked for is the one told action by action."""
    rng = random.Random(6)
    match = Match(table(name, (), None, actions), recording=False)  # as PettingZoo plays
    match.start(2)
    told = started(name, 2, actions=actions)
    plan = TensorPlan.of(match.table, False)
    for step in range(300):
        if match.is_over():
            break
        for seat in range(match.table.players):
            if rng.random() < 0.3:
                kept = tensor_of(plan, match, seat)
                assert match.state is not None
                fresh = SeatTensor(plan, seat).update(match.state, match)
                assert np.array_equal(kept, fresh), (step, seat)
        token = rng.choice(match.legal())
        match.apply(token)
        told.apply(token)
    assert match.records == told.records and match.recall(1) == told.recall(1)



def _afresh(plan: TensorPlan, match: Match, seat: int) -> np.ndarray:
    """The observation tensor written afresh from the game, piece by piece as
    adapters/observe.py's docstring lays it out (the seat's player view for the variables),
    sharing no code with the tensor kept up to date."""
    s, t = match.state, match.table
    assert s is not None
    tensor = np.zeros(plan.size, np.float32)
    parts = plan.views(tensor)
    rules, n, players = t.rules, t.n_cards, t.players
    name_of = [int(x) for x in plan.name_of]
    kinds = len(plan.copies)
    mine = [bool(s.known[c] >> seat & 1) for c in range(n)]
    board = rules.board
    for c in range(n):
        if mine[c]:
            z = s.where[c]
            parts["card_zone"][name_of[c], z] += 1
            # who knows it, as far as the seat can tell: of a card in a hand another holds,
            # the holder and the seat alone
            apart = board.visibility[z] == OWNER and not board.grid[z] and board.owner[z] != seat
            for p in range(players):
                if s.known[c] >> p & 1 and (not apart or p in (seat, board.owner[z])):
                    parts["card_known_by"][name_of[c], p] += 1
        else:
            parts["card_zone"][name_of[c], -1] += 1
    for c, mask in whereabouts(s, seat).items():
        for z in range(len(t.places)):
            if mask >> z & 1:
                parts["card_maybe"][name_of[c], z] += 1
    first, shown = 0, {}
    for z, (place, cards) in enumerate(zip(t.places, s.zones)):
        parts["zone_sizes"][z] = sum(c != -1 for c in cards) / n
        others = rules.board.visibility[z] == OWNER and rules.board.owner[z] != seat
        if others and not rules.board.grid[z]:  # (a grid's places are its own)
            cards = held_order(rules.board, s, cards, seat)
        for i, c in enumerate(cards[:place.capacity]):
            shown[c] = first + i
            if c != -1:  # (which way a card lies that only another sees: its back, down)
                parts["slots"][first + i] = (1, s.face_up[c] and (mine[c] or not others),
                                             mine[c], (name_of[c] + 1) / kinds if mine[c]
                                             else 0)
        first += place.capacity
    for c, mask in s.told.items():
        if c in shown and "told" in parts:
            for f in range(n):
                if mask >> f & 1:
                    parts["told"][shown[c], name_of[f]] = 1
    view = player_view(rules, s, seat)
    parts["seats"][seat, 0] = 1
    if view["to_move"] is not None:
        parts["seats"][view["to_move"] - 1, 1] = 1
    parts["seats"][view["dealer"] - 1, 2] = 1
    parts["totals"][:] = s.totals[:players]
    parts["round"][:] = (s.round, s.rounds_total)
    if "direction" in parts:
        parts["direction"][0] = s.direction

    names = list(dict.fromkeys(rules.cards.names))
    places = {"card": names, "rank": list(rules.cards.rank_names),
              "suit": list(rules.cards.suit_names), "colour": ["red", "black", "none"]}

    def number(value: object, kind: str) -> float:
        if value is None:
            return 0.0
        if kind == "player":  # (the view's seat number from 1, or the house)
            return 1.0 if value == "house" else float(value) / (players + 1)  # type: ignore
        if kind in places:
            return (places[kind].index(value) + 1) / len(places[kind])
        if isinstance(value, bool):
            return float(value)
        if isinstance(value, int | float):
            return float(value)
        return float(len(value)) if isinstance(value, str | list | tuple | dict) else 0.0

    numbers: list[float] = []
    for var in rules.variables:
        kind = var.shape[0] if var.shape else "any"
        if var.scope in ("player", "player_round"):
            numbers += [number(v, kind) for v in view["player_variables"].get(
                var.name, [None] * players)]
        else:
            numbers.append(number(view["variables"].get(var.name), kind))
    if numbers:
        parts["variables"][:] = numbers
    for row, (scope, name, owner) in enumerate(plan.texts):
        value = view["player_variables"][name][owner] if scope == "player" \
            else view["variables"].get(name)
        for i, ch in enumerate(value[:tables.TEXT_LIMIT] if isinstance(value, str) else ""):
            parts["texts"][row, i] = max(0, min(96, ord(ch) - 31)) / 96
    if match.prefix and match.to_move() == seat:
        for token in match.prefix:
            parts["choosing"][token] += 1
    return tensor


@pytest.mark.parametrize("name, actions, players", [
    ("golf6", "auto", 4), ("spades", "auto", 4), ("gin-rummy", "auto", 2),
    ("hanabi", "auto", 3), ("holdem", "auto", 2), ("czech-golf", "parts", None),
    ("turnabout", "auto", None)])
def test_a_tensor_kept_up_to_date_is_the_tensor_written_afresh(
        name: str, actions: str, players: int | None) -> None:
    """Over whole games of random choices, each seat asked now and then (a few actions
    apart, or a round apart), the tensor rewritten where the game changed is the tensor
    written afresh from the game by the layout's definition."""
    rng = random.Random(3)
    path = name if name != "turnabout" else str(GAMES / "turnabout.yaml")
    t = table(path, (), players, actions)
    plan = TensorPlan.of(t, False)
    compared, seed = 0, 0
    while compared < 400:
        seed += 1
        assert seed < 50
        match = Match(t, recording=False)
        match.start(seed)
        for step in range(400):
            if match.is_over():
                break
            for seat in range(t.players):
                if seat == match.to_move() or rng.random() < 0.2:
                    kept = tensor_of(plan, match, seat)
                    fresh = _afresh(plan, match, seat)
                    assert np.array_equal(kept, fresh), \
                        (name, seed, step, seat, np.flatnonzero(kept != fresh)[:10])
                    compared += 1
            match.apply(rng.choice(match.legal()))


# ------------------------------------------------------------- docs/adapters.md's table
def _measured(name: str) -> list[str]:
    """A shipped ruleset's row of docs/adapters.md's table, measured at its default seats:
    players, actions, whole actions, ids, the two tensors' sizes, most ids in an action."""
    t = table(name)
    kinds = {kind for move in t.rules.moves.values() for kind in move.kinds}
    whole = f"{t.whole_count:,}" if t.whole_count is not None else \
        "any number (lists)" if "list" in kinds else "any number (a text)"
    return [str(t.players), "whole" if t.whole is not None else "parts", whole,
            f"{len(t.actions):,}", f"{TensorPlan.of(t, False).size:,}",
            f"{TensorPlan.of(t, True).size:,}", f"{t.max_parts:,}"]


def test_the_docs_table_of_rulesets_has_every_ruleset_as_measured() -> None:
    """Every shipped ruleset is in the table of docs/adapters.md (a row may name several
    that measure alike), with its figures as the adapters measure them now."""
    from cardrules.dsl.loader import builtin_names

    text = (Path(__file__).resolve().parent.parent / "docs" / "adapters.md").read_text(
        encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 8:
            rows.update({name: cells[1:] for name in re.findall(r"`([a-z0-9-]+)`", cells[0])})
    missing = sorted(set(builtin_names()) - set(rows))
    assert not missing, f"docs/adapters.md's table of rulesets leaves out {missing}"
    measured = {name: _measured(name) for name in builtin_names()}
    wrong = {name: (rows[name], figures) for name, figures in measured.items()
             if rows[name] != figures}
    assert not wrong, f"rows that are not what is measured (doc, measured): {wrong}"


@pytest.mark.parametrize("recording", [True, False], ids=["as played", "worked out"])
def test_the_recall_tells_every_action_the_cards_the_engine_played_alone_too(
        recording: bool) -> None:
    """spades plays a seat's only card of the suit led for it: the recall and the moves made
    tell it as a card chosen (left out, its absence told the others that the seat held
    one card it could play)."""
    alone = 0
    for seed in range(4):
        match = Match(table("spades"), recording=recording)
        match.start(seed)
        play_randomly(match, random.Random(seed), 300)
        state = match.state
        assert state is not None
        alone += state.forced
        assert len(match.records) == state.actions == sum(match.made.values()), seed
    assert alone > 0


def test_the_way_play_goes_is_observed_where_rules_turn_it() -> None:
    """A ruleset that turns play round (`reverse direction`) has a `direction` piece, which
    follows the game's; one that never does has none (its tensor is as it was)."""
    turnabout = str(Path(__file__).resolve().parent / "games" / "turnabout.yaml")
    assert "direction" not in dict((n, s) for n, s in TensorPlan.of(table("golf6"), False).pieces)
    match = Match(table(turnabout, (), 4), recording=False)
    match.start(3)
    plan = TensorPlan.of(match.table, False)
    start, _, _ = next((a, b, s) for n, a, b, s in plan.slices if n == "direction")
    rng, seen = random.Random(3), set()
    for _ in range(400):
        if match.is_over():
            break
        assert match.state is not None
        for seat in range(4):
            assert tensor_of(plan, match, seat)[start] == match.state.direction
        seen.add(match.state.direction)
        match.apply(rng.choice(match.legal()))
    assert seen == {1, -1}


def test_a_card_a_variable_holds_is_observed_by_which_card_it_is() -> None:
    """gin-rummy's `taken` (the card just taken from the discard pile, per seat) is in the
    tensor by its name's place among the deck's names, to every seat that knows the card
    (each does: it came from the pile), never by the length of its name (2 for JS and QS)."""
    match = Match(table("gin-rummy"), recording=False)
    match.start(3)
    plan = TensorPlan.of(match.table, False)
    start = next(a for n, a, _, _ in plan.slices if n == "variables")
    names = list(dict.fromkeys(match.table.rules.cards.names))
    at = 0  # where taken's two numbers start: a player variable has one per seat
    for var in match.table.rules.variables:
        if var.name == "taken":
            break
        at += 2 if var.scope in ("player", "player_round") else 1
    rng, seen = random.Random(0), set()
    for _ in range(400):
        if match.is_over():
            break
        state = match.state
        assert state is not None
        taken = state.pvars["taken"]
        for seat in range(2):
            row = tensor_of(plan, match, seat)[start + at:start + at + 2].tolist()
            want = [0.0 if c is None else (names.index(match.table.rules.cards.names[c]) + 1)
                    / len(names) for c in taken]
            assert row == pytest.approx(want)
            seen.update(c for c in taken if c is not None)
        match.apply(rng.choice(match.legal()))
    assert len(seen) > 3


@pytest.mark.parametrize(("name", "actions"), [("spades", "whole"), ("czech-golf", "parts"),
                                               ("golf6", "whole"), ("grandma", "parts")])
def test_an_id_as_a_seat_can_tell_it_names_anothers_hand_card_by_the_hand(
        name: str, actions: str) -> None:
    """Table.seen_id: a card in a hand another party holds is named by that hand's first
    place (the holder's order is theirs); every other id, the viewer's own hand and a grid's
    places (which lie on the table for all to see) included, is itself."""
    t = table(name, players=4 if name != "grandma" else 3, actions=actions)
    board = t.rules.board
    hands = {place.label: z for z, place in enumerate(t.places) if place.zone is not None
             and place.zone.layout != "grid" and board.visibility[z] == OWNER}
    slot = re.compile(r"(\S+ \d+(?:\.\d+)?) card (\d+)")
    labels = t.actions.labels

    def told(m: re.Match[str], viewer: int) -> str:
        z = hands.get(m.group(1))
        hidden = z is not None and board.owner[z] != viewer
        return f"{m.group(1)} card {1 if hidden else m.group(2)}"

    for viewer in range(t.players):
        changed = 0
        for action_id, label in enumerate(labels):
            seen = t.seen_id(action_id, viewer)
            assert labels[seen] == slot.sub(lambda m, v=viewer: told(m, v), label), \
                (label, labels[seen])
            changed += seen != action_id
        assert changed > 0


STEAL = """
cardrules: 1
name: steal
players: {min: 3, max: 3, default: 3}
max_actions: 100
deck: {ranks: [A, "2", "3"], suits: [spades, hearts, clubs], zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner, layout: spread}
  - {name: table, visibility: public, layout: row}
round:
  setup: [shuffle stock, deal all from stock to each hand face down]
  phases:
    - name: give
      turns: each_once
      steps:
        - name: give
          moves:
            - name: give
              label: "Give {card}"
              choose: {card: "hand[me]"}
              do: ["move card to hand[next_player(me)] face down"]
    - name: steal
      turns: each_once
      steps:
        - name: steal
          moves:
            - name: show
              label: "Show {card}"
              choose: {card: "hand[previous_player(me)]"}
              do: ["move card to table face up"]
            - name: peek
              label: "Peek at {card}"
              choose: {card: "hand[previous_player(me)]"}
              do: ["peek card"]
scoring:
  winner: lowest
  round:
    - {name: held, score: "size(hand[p])"}
"""


def test_the_recall_of_a_card_taken_from_anothers_hand_says_what_its_words_say(
        tmp_path: Path) -> None:
    """A seat gave the seat before it a card; the seat after that picks a card of that hand.
    The giver cannot tell it was the card it gave: a look at it is not named to the giver,
    in the action's words nor in the recall's record; but a card laid face up on the table
    is everyone's to see, named in both."""
    path = tmp_path / "steal.yaml"
    path.write_text(STEAL, encoding="utf-8")
    t = table(str(path))
    engine = t.engine
    names = engine.rules.cards.names
    for move, named in (("show", True), ("peek", False)):
        s = engine.new_game(3, 1)
        for _ in range(3):  # each seat gives a card to the next
            engine.apply(s, engine.legal_actions(s)[0])
        while True:  # (a hand out of which no card has gone since it was given one)
            actor = engine.to_move(s)
            assert actor is not None
            holder = (actor - 1) % 3
            giver = (holder - 1) % 3  # (neither the actor nor the holder)
            given = next((c for c in s.zones[engine.rules.zone("hand").zone_of(holder)]
                          if s.known[c] >> giver & 1), None)
            if given is not None:
                break
            engine.apply(s, next(a for a in engine.legal_actions(s) if a[0] == "peek"))
        action = (move, given)
        assert action in engine.legal_actions(s)
        kept = recall.record(t, s, actor, action)
        assert bool(kept.cards[0][1] >> giver & 1) == named, kept
        said = tell(engine.words, s, actor, action).seats[giver]
        assert (names[given] in said) == named, said
