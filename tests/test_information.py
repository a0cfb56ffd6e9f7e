"""Information sets, for every ruleset: what a seat sees depends only on what it observed.

Two games that differ only in what a seat could not observe must look the same to that seat,
in every word and number it is given: its view, the words it reads of every action and of
what came of it (the event log, each effect naming a card to the seats that know it), its own
choices, what its page in the browser is sent (the reaction control and a reaction's order
among them), what the research adapters observe for it (text, tensor, recall, the ids it may
choose), and a bot's hint for its decision (the last test). The tests build such
pairs from the rulesets themselves, in three ways, each from random games at random points:

- traded cards: a copy in which two cards the seat knows nothing of have traded identities
  (each in the other's place, with what every other party knew of it and what clues told
  of that place); both games go on with
  the same actions (a card an action names traded too);
- a hidden choice: another seat's two moves that differ only in which of the face-down cards
  of its hand they take;
- a hidden order: a copy in which two face-down cards of another seat's hand have changed
  places (which a random draw from that hand then tells apart); both go on alike.

A pair is compared after every action while the actions stay legal in both, neither traded
card is seen by the seat, and the rules do not set the games apart in what is public (a card
moved in one only, a seat put out in one, a card turned up): that is, while the games are
alike in all the seat could observe. A difference in what the seat is told is then a leak.
At a round's end, where the table is shown the same in both games, so must the scores be:
pairs are also made a few actions before a round's end to see it.

A ruleset is covered the moment its file lands: the lists are globs (rulesets/, and the small
games of tests/games/), with the cookbook's games (docs/grammar.md 15).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from cookbook import cookbook_file, cookbook_files  # (tests/cookbook.py)
from depth import deep  # (tests/depth.py)
from trades import exchanged_action, traded  # (tests/trades.py)

from cardrules.dsl.loader import load_ruleset
from cardrules.errors import NoLegalMove
from cardrules.interpreter.domains import fill
from cardrules.interpreter.effects import SEATS_OWN
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import RandomBot, make_bot
from cardrules.interpreter.players.external import args_of
from cardrules.interpreter.players.hint import hint
from cardrules.interpreter.players.knowledge import (
    determinize_with_map,
    translate,
    unknown_positions,
)
from cardrules.interpreter.runtime import HIDDEN, OTHERS, OWNER
from cardrules.interpreter.sight import whereabouts
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import card_places, held_order, player_view
from cardrules.interpreter.words import tell
from cardrules.model import Action

try:  # the research adapters' observations too, where numpy is installed
    from cardrules.adapters.match import Match
    from cardrules.adapters.observe import TensorPlan, tensor_of
    from cardrules.adapters.table import Table
    from cardrules.adapters.texts import observation_text
    ADAPTERS = True
except ImportError:  # pragma: no cover - the test extra installs numpy
    ADAPTERS = False
try:  # and what a seat's page in the browser is sent, where the web extra is installed
    from cardrules.interpreter.sessions.record import Record
    from cardrules.web.game import Game
    from cardrules.web.payload import seat_payload
    WEB = True
    PAGE_RECORD = Record("ruleset", "digest", {}, 1, 0, ["human"])  # (never read here)
except ImportError:  # pragma: no cover - the test extra installs the web extra
    WEB = False

RULESETS = sorted((Path(__file__).resolve().parent.parent / "rulesets").glob("*.yaml"))
# The small games the tests play (tests/games/), each showing a feature of the language: held
# to the same promise, since a rule author may copy any of them.
GAMES = sorted((Path(__file__).resolve().parent / "games").glob("*.yaml"))
# and a small game whose hands keep the default layout, a stack (tests/data/mini.yaml)
MINI = Path(__file__).resolve().parent / "data" / "mini.yaml"
PAIRS = deep(5)  # games per ruleset in which pairs are made at a random point
DECISIONS = deep(1000)  # decisions per ruleset whose hidden choices are tried
FOLLOWED = 120  # actions a pair is followed for, at most
# Actions played before a pair is made: from the deal to mid-game, and shorter for some
# games (a short game may be over before a long lead-in ends).
LEAD_INS = ((0, 200), (0, 25), (0, 0))
# What a round's end event says that the scoring works out (the rest is the table as shown)
SCORED = {"scores", "totals", "parts", "after_round", "house"}
ROUND_ENDS = deep(3)  # games per ruleset whose first round's end is reached by pairs


# ------------------------------------------------------------------ what is public
def skeleton(engine: Engine, state: GameState, seat: int) -> tuple[Any, ...]:
    """What anyone at the table sees of a game, and `seat` of its own hands, whatever it
    remembers: each zone's places (empty, face down, or the card where it is face up),
    another's hand as a heap (its order is its holder's), whose turn it is,
    who is in, the scores and the variables that hold no card. Two games whose skeletons differ
    for a seat may look different to it: the rules set them apart."""
    rules = engine.rules
    board = rules.board
    names = rules.cards.names
    zones = []
    for z, cards in enumerate(state.zones):
        vis, owner = board.visibility[z], board.owner[z]
        if vis == HIDDEN:
            zones.append(len(cards))
            continue
        mine = vis == OWNER and owner == seat
        if vis == OTHERS:  # every seat sees it but its holder, in its order
            mine = owner != seat
        places = tuple(None if c < 0 else (state.face_up[c], names[c] if mine or
                                           state.face_up[c] else "?") for c in cards)
        zones.append(tuple(sorted(places, key=repr)) if vis == OWNER and not mine
                     else places)
    # what clues told, by place (a hand another holds alone by its size: its order is its
    # holder's)
    told = sorted((state.where[c], -1 if board.visibility[state.where[c]] == OWNER and
                   board.owner[state.where[c]] != seat else state.zones[state.where[c]].index(c),
                   mask) for c, mask in state.told.items())
    plain = {v.name for v in rules.variables if "card" not in (v.kind, v.item_kind)}
    variables = sorted((name, repr(value)) for name, value in {**state.vars, **state.pvars}
                       .items() if name in plain)
    return (tuple(zones), tuple(state.active), state.current, state.phase, state.step,
            tuple(state.window), tuple(state.totals), repr(state.round_scores), state.over,
            repr(state.winners), tuple(variables), state.actions, tuple(told))


def seat_side(engine: Engine, state: GameState, seat: int) -> dict[str, Any]:
    """Everything `seat` is given of a game now: its view, and its choices if it decides;
    and what the research adapters observe for it (its observation as text and as a tensor,
    the ids it may choose)."""
    side: dict[str, Any] = {"view": player_view(engine.rules, state, seat)}
    legal = engine.legal_actions(state)
    if legal and engine.to_move(state) == seat:
        side["choices"] = sorted(engine.words.describe(a, state, seat) for a in legal)
    if ADAPTERS:
        match = adapter_match(engine, state)
        side["observation"] = observation_text(match, seat)
        side["tensor"] = tensor_of(TensorPlan.of(match.table, False), match, seat).tobytes()
        if match.to_move() == seat:
            side["ids"] = match.legal()
    if WEB:
        page = Game("game", PAGE_RECORD, engine, state, [None] * state.n, [None] * state.n)
        side["page"] = seat_payload(page, seat, full=True)
    return side


def adapter_match(engine: Engine, state: GameState) -> Any:
    """A research adapters' Match of the game as it stands (its table made once)."""
    key = (engine.rules.name, state.n)
    table = TABLES.get(key)
    if table is None:
        path = engine.rules.path
        table = TABLES[key] = Table(str(path), (), state.n)
    match = Match(table)
    match.state = state
    return match


TABLES: dict[tuple[str, int], Any] = {}


def told_to(engine: Engine, state: GameState, me: int, action: Action, seat: int) -> str:
    """`me`'s action, about to be applied, as `seat` is told it: in words, and as the
    adapters' recall tells it, and their record of it in a sample made for the seat."""
    words = tell(engine.words, state, me, action).seats[seat]
    if ADAPTERS:
        match = adapter_match(engine, state)
        record = match.record_of(me, action)
        words += " | " + match.recall_line(record, seat) + " | " + \
            repr(match.as_seen(record, seat))
    return words


def read_log(log: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The event log as `seat` reads it: every event, of the fields each seat has its own
    entry of (an action's words, the cards it names) the seat's own."""
    out = []
    for event in log:
        event = dict(event)
        for key in SEATS_OWN:
            own = event.pop(key, None)
            if own is not None:
                event[key] = own[seat]
        out.append(event)
    return out


def told_truly(engine: Engine, state: GameState) -> bool:
    """Whether every card lies where the clues told it may (a trade may put a card where a
    clue said no such card lies: the seat heard that clue, so the games are not alike)."""
    face = engine.rules.board.face
    return all(mask >> face[c] & 1 for c, mask in state.told.items())


def seen_by(state: GameState, seat: int, cards: tuple[int, ...]) -> bool:
    """Whether `seat` knows any of `cards` now, exactly or partly."""
    partly = whereabouts(state, seat)
    return any(state.known[c] >> seat & 1 or c in partly for c in cards)


# ------------------------------------------------------------------ following a pair
class Pair:
    """Two games a seat should not tell apart, played on side by side."""

    def __init__(self, way: str, engine: Engine, a: GameState, b: GameState, seat: int,
                 cards: tuple[int, ...] = (), trade: dict[int, int] | None = None) -> None:
        self.way = way
        self.engine, self.a, self.b, self.seat = engine, a, b, seat
        self.cards = cards  # cards the seat must not have seen for the pair to be alike
        self.trade = trade or {}  # how an action of game a reads in game b
        a.log, b.log = [], []

    def alike(self) -> bool:
        """Whether the games are alike in all the seat could observe."""
        engine, seat = self.engine, self.seat
        return not seen_by(self.a, seat, self.cards) and not seen_by(self.b, seat, self.cards) \
            and told_truly(engine, self.b) \
            and skeleton(engine, self.a, seat) == skeleton(engine, self.b, seat)

    def check(self, words: tuple[str, str] | None = None) -> None:
        """The seat is told the same of both games (`words`: of the last action)."""
        engine, a, b, seat = self.engine, self.a, self.b, self.seat
        where = (engine.rules.name, seat + 1, a.actions)
        if words is not None:
            assert words[0] == words[1], (where, words)
        assert read_log(a.log or [], seat) == read_log(b.log or [], seat), where
        assert seat_side(engine, a, seat) == seat_side(engine, b, seat), where
        a.log, b.log = [], []

    def step(self, action: Action) -> bool:
        """Play `action` in a and its counterpart in b; whether they are still alike (and so
        were compared)."""
        engine, a, b = self.engine, self.a, self.b
        mirror = counterpart(engine, b, exchanged_action(engine, action, self.trade))
        if not legal_in(engine, b, mirror):
            # a hand's order sets apart no choice of its holder's (a list of its cards comes
            # in the deck's order); else the two games part: the rules tell them apart
            assert self.way != "hidden order", (engine.rules.name, self.seat + 1, action)
            return False
        me = engine.to_move(a)
        if me != engine.to_move(b):
            # b's rules left its next mover one choice where a's left two (a hand that can
            # follow suit with one card, an automatic step): the games part, each as a table
            # would play it (what the seat is told of each is checked as they go on)
            return False
        assert me is not None
        words = (told_to(engine, a, me, action, self.seat), told_to(engine, b, me, mirror,
                                                                     self.seat))
        rounds = len(a.round_scores)
        engine.apply(a, action)
        engine.apply(b, mirror)
        if len(a.round_scores) != rounds and self.way == "hidden order":
            # the round's end turns up the same cards in both: the table is told which, not
            # where each lay in the holder's hand (in its account, or as they are turned)
            assert read_log(a.log or [], self.seat) == read_log(b.log or [], self.seat), \
                (engine.rules.name, self.seat + 1, a.actions)
        if len(a.round_scores) != rounds:
            self.check_round_end()
            return False  # the next round is dealt afresh
        if not self.alike():
            return False  # the rules set them apart
        self.check(words)
        return True

    def check_round_end(self) -> None:
        """At a round's end: where the table was shown the same in both games (the cards laid
        open, the variables), the scores and the round's account are the same too: a score
        may not count a card nobody was shown."""
        ends = [[e for e in read_log(game.log or [], self.seat) if e.get("event") == "round_end"]
                for game in (self.a, self.b)]
        if not ends[0] or not ends[1]:
            return
        end_a, end_b = ends[0][-1], ends[1][-1]
        shown = {key: value for key, value in end_a.items() if key not in SCORED}
        if shown == {key: value for key, value in end_b.items() if key not in SCORED}:
            assert end_a == end_b, (self.engine.rules.name, self.seat + 1, self.cards, end_a,
                                    end_b)

    def follow(self, bot: RandomBot, rng: random.Random, counts: dict[str, int]) -> None:
        """Play both on with the bot's actions while they stay alike, comparing after each;
        before each, try game a's hidden choices as well. Counts what was compared."""
        engine = self.engine
        for _ in range(FOLLOWED):
            legal = engine.legal_actions(self.a)
            if not legal:
                break
            counts["hidden choice"] += try_hidden_choice(engine, self.a, self.seat, rng)
            if not self.step(playing(engine, bot.choose(engine, self.a, legal), rng)):
                break
            counts[self.way] += 1


def counterpart(engine: Engine, state: GameState, action: Action) -> Action:
    """`action` as `state` lists it: the same cards, a list of them in the order `state`
    gives it (a hand's cards come in the deck's order, which two traded cards need not keep
    in the other game), where that is the one difference."""
    legal = engine.legal_actions(state)
    if action in legal:
        return action
    unordered = [action[0], *map(_unordered, action[1:])]
    same = [m for m in legal if [m[0], *map(_unordered, m[1:])] == unordered]
    return same[0] if len(same) == 1 else action


def _unordered(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(sorted((_unordered(v) for v in value), key=repr))
    return value


def legal_in(engine: Engine, state: GameState, action: Action) -> bool:
    legal = engine.legal_actions(state)
    return action in legal or (action[0] in engine.open_moves
                               and any(m[0] == action[0] for m in legal))


def playing(engine: Engine, action: Action, rng: random.Random) -> Action:
    """`action` with any text it leaves open written (at random)."""
    return fill(action, rng) if action[0] in engine.open_moves else action


def traded_cards(engine: Engine, state: GameState, seat: int,
                 rng: random.Random, held: bool = False, apart: bool = False) -> Pair | None:
    """The game, and a copy in which two cards the seat knows nothing of have traded
    identities: each lies where the other did, face up or down as that place was, known to
    whoever knew the card there; every party's partial knowledge and every variable that
    held one holds the other. With `held`, one of the two lies in another's hand, where
    there is such a card (what that seat may do hangs on it); with `apart`, the two lie in
    different zones where they can (a hand's sum then changes)."""
    partly = whereabouts(state, seat)
    unseen = [state.zones[z][i] for z, i in unknown_positions(state, seat)]
    unseen = [c for c in unseen if c not in partly]
    if len(unseen) < 2:
        return None
    board = engine.rules.board
    others = [c for c in unseen if board.visibility[state.where[c]] == OWNER
              and board.owner[state.where[c]] != seat] if held else []
    if others or apart:
        x = rng.choice(others or unseen)
        elsewhere = [c for c in unseen if state.where[c] != state.where[x]] if apart else []
        y = rng.choice(elsewhere or [c for c in unseen if c != x])
    else:
        x, y = rng.sample(unseen, 2)
    other = traded(engine, state, x, y)
    return Pair("traded cards", engine, state, other, seat, (x, y), {x: y, y: x})


def held_by_another(engine: Engine, state: GameState, seat: int) -> list[int]:
    """The zones another party holds (seen by it alone) with two or more face-down cards."""
    board = engine.rules.board
    return [z for z, cards in enumerate(state.zones)
            if board.visibility[z] == OWNER and board.owner[z] != seat
            and sum(1 for c in cards if c >= 0 and not state.face_up[c]) >= 2]


def hidden_order(engine: Engine, state: GameState, seat: int,
                 rng: random.Random) -> Pair | None:
    """The game, and a copy in which two face-down cards of another's hand have changed
    places in it."""
    zones = held_by_another(engine, state, seat)
    if not zones:
        return None
    z = rng.choice(zones)
    places = [i for i, c in enumerate(state.zones[z]) if c >= 0 and not state.face_up[c]]
    known = [i for i in places if state.known[state.zones[z][i]] >> seat & 1]
    i = rng.choice(known or places)  # a card the seat knows there, if any: a leak shows it
    j = rng.choice([k for k in places if k != i])
    other = state.copy()
    other.zones[z][i], other.zones[z][j] = other.zones[z][j], other.zones[z][i]
    other.legal_cache = None
    other.version += 1
    return Pair("hidden order", engine, state, other, seat)


def hidden_choices(engine: Engine, state: GameState, seat: int,
                   rng: random.Random) -> list[tuple[Action, Action]]:
    """Pairs of moves of the seat to play that differ only in which face-down card of a hand
    it holds they take (the seat looking on being another), in a random order."""
    mover = engine.to_move(state)
    if mover is None or mover == seat:
        return []
    held = set(held_by_another(engine, state, seat))
    alike: dict[tuple[Any, ...], list[Action]] = {}  # the rest of a move -> its variants
    for action in engine.legal_actions(state):
        move = engine.moves.get(action[0])
        if move is None:
            continue
        for k, (value, names_card) in enumerate(zip(action[1:], move.names_cards), 1):
            if names_card and isinstance(value, int) and value >= 0 \
                    and state.where[value] in held:
                rest = (*action[:k], None, *action[k + 1:], state.where[value])
                alike.setdefault(rest, []).append(action)
    pairs = []
    names = engine.rules.cards.names
    for group in alike.values():
        if len(group) > 1:
            # a card the onlooker knows first: a leak would name it, or show it stay
            group.sort(key=lambda a: not any(isinstance(v, int) and v >= 0 and
                                             state.known[v] >> seat & 1 for v in a[1:]))
            # and with it a copy of that card, if the hand holds one (several decks): which
            # of the two went is never seen, even where the card is shown
            one = group[0]
            twins = [a for a in group[1:] if len({names[c] for c in chosen(one, a)}) == 1]
            pairs.append((one, twins[0] if twins else group[1 + rng.randrange(len(group) - 1)]))
    rng.shuffle(pairs)
    pairs.sort(key=lambda pair: not any(state.known[c] >> seat & 1 for c in chosen(*pair)))
    return pairs


def chosen(one: Action, two: Action) -> tuple[int, int]:
    """The cards two hidden choices differ in."""
    k = next(k for k, (u, v) in enumerate(zip(one, two)) if u != v)
    return one[k], two[k]


def try_hidden_choice(engine: Engine, state: GameState, seat: int, rng: random.Random) -> int:
    """Compare the seat's side after two hidden choices of the seat to play, for the first
    few such pairs until one stays alike; 1 if one was compared, else 0."""
    return int(any(hidden_choice_alike(engine, state, seat, one, two)
                   for one, two in hidden_choices(engine, state, seat, rng)[:4]))


def hidden_choice_alike(engine: Engine, state: GameState, seat: int, one: Action,
                        two: Action) -> bool:
    """Play each of two hidden choices on a copy; if the seat cannot have seen which was
    made, compare its side of both (True), else False."""
    pair = Pair("hidden choice", engine, state.copy(), state.copy(), seat)
    mover = engine.to_move(pair.a)
    assert mover is not None
    words = (told_to(engine, pair.a, mover, one, seat), told_to(engine, pair.b, mover, two,
                                                                  seat))
    rounds = len(pair.a.round_scores)
    engine.apply(pair.a, one)
    engine.apply(pair.b, two)
    took_one, took_two = chosen(one, two)
    names = engine.rules.cards.names
    if (pair.a.known[took_one] >> seat & 1 or pair.b.known[took_two] >> seat & 1) \
            and names[took_one] != names[took_two]:
        # the card taken was shown to the seat (played face up): it saw which, unless the
        # two are copies of one card
        return False
    if len(pair.a.round_scores) != rounds or not pair.alike():
        return False
    pair.check(words)
    return True


# ------------------------------------------------------------------------ the tests
def positions(engine: Engine) -> list[tuple[GameState, int, random.Random]]:
    """Random games at random points (not over), each with a seat to look on."""
    out = []
    for game in range(PAIRS):
        rng = random.Random(game)
        state = engine.new_game(None, seed=game, log=True)
        bot = RandomBot(game)
        for _ in range(rng.randint(*LEAD_INS[game % len(LEAD_INS)])):
            legal = engine.legal_actions(state)
            if not legal:
                break
            engine.apply(state, playing(engine, bot.choose(engine, state, legal), rng))
        if not state.over:
            out.append((state, rng.randrange(state.n), rng))
    return out


# Every ruleset shipped, the small one, and the cookbook's games (docs/grammar.md 15), which
# rule authors copy: written to a test's folder, `cookbook:NAME`.
COOKBOOK = [f"cookbook:{name}" for name, _ in cookbook_files()]
COOKBOOK_IDS = [f"cookbook-{name}" for name, _ in cookbook_files()]


def rule_file(which: Path | str, folder: Path) -> Path:
    """The rule file a test's parameter names (a cookbook game written to `folder`)."""
    if isinstance(which, str):
        return cookbook_file(which.removeprefix("cookbook:"), folder)
    return which


@pytest.mark.parametrize("path", [*RULESETS, MINI, *COOKBOOK, *GAMES],
                         ids=[*(p.stem for p in RULESETS), "mini", *COOKBOOK_IDS,
                              *(f"games-{p.stem}" for p in GAMES)])
def test_a_seat_cannot_tell_apart_games_that_differ_in_what_it_did_not_see(
        path: Path | str, tmp_path: Path) -> None:
    engine = Engine(load_ruleset(rule_file(path, tmp_path)))
    compared = {"traded cards": 0, "hidden order": 0, "hidden choice": 0}
    hidden = False  # whether any position hid a card from its seat (a patience hides none)
    for state, seat, rng in positions(engine):
        hidden = hidden or any(not known >> seat & 1 for known in state.known)
        for make in (traded_cards, hidden_order):
            pair = make(engine, state.copy(), seat, rng)
            if pair is not None and pair.alike():
                pair.check()
                compared[pair.way] += 1
                pair.follow(RandomBot(rng.random()), random.Random(1), compared)
    compared["hidden choice"] += hidden_choices_in_games(engine,
                                                         random.Random(engine.rules.name))
    assert compared["traded cards"] > 0 or not hidden, \
        f"no pair of games was compared: {compared}"


@pytest.mark.parametrize("path", [*RULESETS, *COOKBOOK, *GAMES],
                         ids=[*(p.stem for p in RULESETS), *COOKBOOK_IDS,
                              *(f"games-{p.stem}" for p in GAMES)])
def test_a_rounds_scores_count_only_cards_the_table_was_shown(path: Path | str,
                                                              tmp_path: Path) -> None:
    """Pairs made a few actions before a round's end and played through it: the score may
    hang on a card the seat never saw only where the round's end shows it (gin rummy's
    deadwood, once counted face down, is laid open)."""
    engine = Engine(load_ruleset(rule_file(path, tmp_path)))
    made = ended = 0
    for game in range(ROUND_ENDS):
        rng = random.Random(game)
        bot = RandomBot(game)
        state = engine.new_game(None, seed=game, log=True)
        actions: list[Action] = []
        while not state.round_scores and not state.over:
            action = playing(engine, bot.choose(engine, state, engine.legal_actions(state)), rng)
            actions.append(action)
            engine.apply(state, action)
        for back in (1, 2, 5):
            if back > len(actions):
                continue
            start = engine.new_game(None, seed=game, log=True)
            for action in actions[:-back]:
                engine.apply(start, action)
            for seat in range(start.n):
                pair = traded_cards(engine, start.copy(), seat, rng, held=True, apart=True)
                if pair is None or not pair.alike():
                    continue
                for action in actions[-back:]:
                    if exchanged_action(engine, action, pair.trade) != action:
                        break  # it names a traded card (geohash's accusation names it aloud)
                    try:
                        if not pair.step(action):
                            break
                    except NoLegalMove:  # a trade into the hand of the seat whose turn has
                        break  # begun: no deal reaches that game (its start was checked)
                made += 1
                ended += bool(pair.a.round_scores)
    if not ended:  # (scopa: every card is played face up before the round can end)
        pytest.skip(f"none of {made} pairs stayed alike to its round's end")


def hidden_choices_in_games(engine: Engine, rng: random.Random) -> int:
    """Whole random games, DECISIONS decisions in all (many short games, or a few long
    ones), every decision's hidden choices tried for a seat looking on; how many compared."""
    compared = decisions = 0
    while decisions < DECISIONS:
        game = engine.new_game(None, seed=rng.randrange(2**32), log=True)
        bot = RandomBot(rng.random())
        while not game.over and decisions < DECISIONS:
            legal = engine.legal_actions(game)
            mover = engine.to_move(game)
            assert mover is not None
            onlooker = (mover + 1 + rng.randrange(game.n - 1)) % game.n if game.n > 1 else mover
            compared += try_hidden_choice(engine, game, onlooker, rng)
            engine.apply(game, playing(engine, bot.choose(engine, game, legal), rng))
            decisions += 1
    return compared


# --------------------------------------------------------------------- hints
def hinted(engine: Engine, state: GameState, seat: int, kind: str) -> tuple[Any, ...]:
    """A hint for `seat`'s decision as the seat is told it: the bot's pick and every
    estimate, in the seat's words."""
    advice = hint(engine, state, kind)
    words = engine.words.describe
    return (words(advice.pick, state, seat),
            tuple((words(e.action, state, seat), e.value, e.words) for e in advice.estimates))


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_a_hint_depends_only_on_what_the_seat_saw(path: Path) -> None:
    """A bot's hint for the seat to move is the same in two games that differ only in
    cards it has not seen (traded) or in the order of another's hand (which its samples
    must not keep: the seat does not see it), from either search bot."""
    engine = Engine(load_ruleset(path))
    compared = 0
    hidden = False  # whether any position hid a card from its seat (a patience hides none)
    for state, _, rng in positions(engine)[:4]:
        seat = engine.to_move(state)
        assert seat is not None
        hidden = hidden or any(not known >> seat & 1 for known in state.known)
        for make in (traded_cards, hidden_order):
            pair = make(engine, state.copy(), seat, rng)
            if pair is not None and pair.alike():
                for kind in ("greedy:2", "ismcts:24"):
                    assert hinted(engine, pair.a, seat, kind) == \
                        hinted(engine, pair.b, seat, kind), (path.stem, pair.way, kind)
                compared += 1
    assert compared > 0 or not hidden


# A small game whose move shows an effect that hangs on a hidden card (tests/data/peek.yaml)
PEEK = Path(__file__).resolve().parent / "data" / "peek.yaml"
BOT_DECISIONS = 4  # the search bot's decisions a pair is followed for, at most


@pytest.mark.parametrize("path", [*RULESETS, PEEK], ids=[*(p.stem for p in RULESETS), "peek"])
def test_a_search_bots_play_depends_only_on_what_its_seat_saw(path: Path) -> None:
    """Two games a seat cannot tell apart (traded cards, one of them held by another seat),
    played on side by side with a search bot in that seat (one per game, seeded alike) and
    random seats elsewhere: while the games stay alike, the bot makes the same choices in
    both (up to the traded cards). Unlike a hint, this follows the bot over several
    decisions, with its memory of the positions it has seen: where a move would lead is
    worked out on a sample, never on the game (tests/data/peek.yaml, where probing changes
    the table only if another's hidden card is an ace)."""
    engine = Engine(load_ruleset(path))
    compared = 0
    hidden = False
    for state, seat, rng in positions(engine):
        hidden = hidden or any(not known >> seat & 1 for known in state.known)
        pair = traded_cards(engine, state.copy(), seat, rng, held=True)
        if pair is None or not pair.alike():
            continue
        bots = [make_bot("greedy:1", 7, seat) for _ in range(2)]
        others = RandomBot(rng.random())
        decisions = 0
        while decisions < BOT_DECISIONS:
            legal = engine.legal_actions(pair.a)
            if not legal:
                break
            if engine.to_move(pair.a) == seat:
                one = bots[0].choose(engine, pair.a, legal)
                two = bots[1].choose(engine, pair.b, engine.legal_actions(pair.b))
                assert translate(engine, one, pair.trade) == two, \
                    (path.stem, seat + 1, pair.a.actions)
                decisions += 1
                action = one
            else:
                action = playing(engine, others.choose(engine, pair.a, legal), rng)
            mirror = translate(engine, action, pair.trade)
            if not legal_in(engine, pair.b, mirror):
                break
            rounds = len(pair.a.round_scores)
            engine.apply(pair.a, action)
            engine.apply(pair.b, mirror)
            if len(pair.a.round_scores) != rounds or not pair.alike():
                break
        compared += decisions
    assert compared > 0 or not hidden


def test_a_search_bots_samples_keep_no_order_of_anothers_hand() -> None:
    """dou-dizhu: the card turned up at the deal lies in another's hand, known to all. Two
    games in which it lies in different places of that hand look the same to the seat to
    bid (its view hides the holder's order): both search bots hint the same in both."""
    engine = Engine(load_ruleset("dou-dizhu"))
    compared = 0
    for seed in range(6):
        a = engine.new_game(3, seed)
        shown = a.vars["shown"]
        if engine.to_move(a) == engine.rules.board.owner[a.where[shown]]:
            engine.apply(a, ("no_bid",))
        seat = engine.to_move(a)
        assert seat is not None
        b = a.copy()
        hand = b.zones[b.where[shown]]
        i = hand.index(shown)
        j = (i + 5) % len(hand)
        hand[i], hand[j] = hand[j], hand[i]
        b.legal_cache = None
        b.version += 1
        pair = Pair("hidden order", engine, a, b, seat)
        assert pair.alike()
        for kind in ("greedy:2", "ismcts:40"):
            assert hinted(engine, a, seat, kind) == hinted(engine, b, seat, kind), (seed, kind)
            compared += 1
    assert compared == 12


SET_ASIDE = """cardrules: 1
name: aside
title: Set aside
players: {min: 2, max: 2, default: 2}
deck: {ranks: [A, "2", "3"], suits: [spades, hearts, diamonds, clubs], zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: aside, visibility: hidden}
variables:
  - {name: secret, scope: round, initial: none, type: card}
  - {name: guess, scope: round, initial: 0}
round:
  setup: [shuffle stock, set secret = top(stock), move top(stock) to aside face down]
  first: seat(1)
  phases:
    - name: guessing
      turns: rotate
      steps:
        - name: guess
          moves:
            - {name: spades, do: ["set guess = 1", end round]}
            - {name: hearts, do: ["set guess = 2", end round]}
            - {name: diamonds, do: ["set guess = 3", end round]}
            - {name: clubs, do: ["set guess = 4", end round]}
scoring:
  winner: highest
  round:
    - name: right
      score: "if p == seat(1) and guess == position(secret.suit, suits()) + 1 then 1 else 0"
"""


def test_a_search_bots_samples_relabel_a_variable_naming_a_hidden_card(tmp_path: Path) -> None:
    """A variable names the card set aside face down, which no seat has seen: a sample
    that re-deals the hidden cards must make it name the card now lying there, or the
    bots read the suit through it. Two games that differ only in which card lies aside
    get the same hints, and the bots' guesses are right about a quarter of the time."""
    path = tmp_path / "aside.yaml"
    path.write_text(SET_ASIDE, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    right = {"greedy:2": 0, "ismcts:40": 0}
    for seed in range(24):
        a = engine.new_game(2, seed)
        secret = a.vars["secret"]
        pair = traded_cards(engine, a, 0, random.Random(seed))
        while pair is None or secret not in pair.cards:
            pair = traded_cards(engine, a, 0, random.Random(seed := seed + 100))
        for kind in right:
            advice = hinted(engine, pair.a, 0, kind)
            assert advice == hinted(engine, pair.b, 0, kind), (seed, kind)
            suit = engine.rules.cards.suit_names[engine.rules.cards.suit[secret]]
            right[kind] += advice[0].lower().startswith(suit)
    assert all(count <= 14 for count in right.values()), right


def test_a_label_value_reads_no_card_the_seat_has_not_seen() -> None:
    """tests/games/ferry.yaml labels a card laid from hand with its colour and worth
    (`{card.colour}`, `{card.worth}`): two games that differ only in cards another seat has
    not seen, its hand among them, give that seat the same labels, each value it may not
    read shown as '?'; the holder reads them."""
    engine = Engine(load_ruleset(Path(__file__).resolve().parent / "games" / "ferry.yaml"))
    names = engine.rules.board.names
    from_hand = 0
    for seed in range(8):
        state = engine.new_game(2, seed)
        engine.apply(state, ("land",))  # seat 1 now lays, banks or turns: its hand is labelled
        pair = traded_cards(engine, state, 1, random.Random(seed))
        assert pair is not None
        from_hand += any(names[state.where[c]] == "hand" for c in pair.cards)
        read = [sorted(engine.words.describe(x, game, 1) for x in engine.legal_actions(game))
                for game in (pair.a, pair.b)]
        assert read[0] == read[1]
        assert any(text.endswith("a ? card worth ?") for text in read[0])
        own = [engine.words.describe(x, pair.a, 0) for x in engine.legal_actions(pair.a)
               if x[0] == "lay"]
        assert own and not any("?" in text for text in own)
    assert from_hand > 0  # some pair differs in the hand the labels read


def test_a_label_value_of_a_card_the_move_shows_is_told() -> None:
    """A card laid face up from hand: once the move is done the other seat reads its worth
    as it reads its name ('a red card worth 7 - it was 7D'), never '?' beside the card it
    names; before the move it could not (the legal actions' labels above)."""
    engine = Engine(load_ruleset(Path(__file__).resolve().parent / "games" / "ferry.yaml"))
    cards = engine.rules.cards
    told = 0
    for seed in range(6):
        state = engine.new_game(2, seed)
        engine.apply(state, ("land",))
        for action in engine.legal_actions(state):
            if action[0] != "lay":
                continue
            words = tell(engine.words, state, 0, action)
            worth = engine.rules.cards.values["worth"][action[1]]
            for text in (words.public, words.seats[1]):
                assert "?" not in text and f"worth {worth}" in text, text
            assert cards.names[action[1]] in words.seats[1]
            told += 1
    assert told


def test_a_label_value_of_a_card_that_leaves_a_hand_unseen_is_not_told() -> None:
    """tests/games/buried.yaml: a card shown from seat 1's hand, then a card buried face down
    from it (`Bury {card}, a {card.rank}`). The other seat knew the card shown, but not which
    card went: the words tell it by its place, and its rank as '?', whichever card it was."""
    engine = Engine(load_ruleset(Path(__file__).resolve().parent / "games" / "buried.yaml"))
    for seed in range(4):
        state = engine.new_game(2, seed)
        shown = engine.legal_actions(state)[0]
        engine.apply(state, shown)
        for action in engine.legal_actions(state):
            words = tell(engine.words, state, 0, action)
            assert words.seats[1].endswith("from seat 1's hand, a ?"), words.seats[1]
            assert words.public.endswith("a ?"), words.public
            assert words.seats[0].endswith(engine.rules.cards.rank_names[
                engine.rules.cards.rank[action[1]]]), words.seats[0]


def test_a_variable_holding_cards_in_lists_names_only_those_the_seat_knows(
        tmp_path: Path) -> None:
    """A variable that starts as `[]` takes its items' type from what the rules store in it,
    and a list of lists of cards is a list of lists of cards: another seat sees each card of
    them as it knows it (never a card's number, which would say which card it is), and a
    search's sample names the cards it dealt in their places."""
    base = (Path(__file__).resolve().parent / "data" / "mini.yaml").read_text(encoding="utf-8")
    text = base.replace("    initial: 0\n", "    initial: 0\n"
                        "  - {name: held, scope: round, initial: \"[]\"}\n"
                        "  - {name: nest, scope: round, initial: none}\n", 1).replace(
        "                - set drawn += 1\n", "                - set drawn += 1\n"
        "                - set held = select(c for c in hand[me])\n"
        "                - set nest = [select(c for c in hand[me]), [top(hand[me])]]\n", 1)
    path = tmp_path / "nested.yaml"
    path.write_text(text, encoding="utf-8")
    rules = load_ruleset(path)
    assert {v.name: v.shape for v in rules.variables if v.name in ("held", "nest")} == \
        {"held": ("list", "card"), "nest": ("list", "list", "card")}
    engine = Engine(rules)
    state = engine.new_game(2, 3)
    me = state.current
    engine.apply(state, ("take",))
    seen = player_view(rules, state, 1 - me)["variables"]
    assert seen["held"] == [None, None, None] and seen["nest"] == [[None] * 3, [None]]
    own = player_view(rules, state, me)["variables"]
    hand_zone = rules.zone("hand").zone_of(me)
    assert own["nest"][1] == [rules.cards.names[state.zones[hand_zone][-1]]]
    sample, mapping = determinize_with_map(engine, state, 1 - me, random.Random(1))
    hand = sample.zones[hand_zone]
    held = sample.vars["held"]  # (the hand listed in the deck's order: the sample's names)
    assert sorted(held) == sorted(hand) and sample.vars["nest"] == [held, [hand[-1]]]
    assert [mapping[c] for c in state.vars["held"]] == held
    assert [mapping[c] for c in state.zones[hand_zone]] == hand


@pytest.mark.parametrize("laid", [
    "\"move cards(hand[me]) to discard face up\"",
    "\"move select(c for c in hand[me]) to discard face up\"",
    "\"let cs = select(c for c in hand[me])\", \"move cs to discard face up\"",
    "{for: \"cs in combinations(cards(hand[me]), 3)\", do: [\"move cs to discard face up\"]}"],
    ids=["zone", "select", "let", "combinations"])
def test_a_hand_shown_or_laid_down_whole_keeps_its_holders_order_to_itself(
        tmp_path: Path, laid: str) -> None:
    """A rule shows a hand to all, then lays it face up on the discard pile (the zone's
    cards, a list made of them, a name for such a list, the one way to choose 3 of 3): in two
    games that differ only in the order of that hand (which the others never saw), the
    others read the same log and see the same pile (the cards go in the deck's order)."""
    base = (Path(__file__).resolve().parent / "data" / "mini.yaml").read_text(encoding="utf-8")
    text = base.replace("triggers:\n", "triggers:\n  - name: show\n    after: move\n"
                        "    when: \"size(hand[me]) == 3\"\n    do: [\"reveal cards(hand[me])\", "
                        f"{laid}]\n", 1)
    path = tmp_path / "shown.yaml"
    path.write_text(text, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    hand = engine.rules.zone("hand")
    for seed in range(4):
        a = engine.new_game(2, seed, log=True)
        me = a.current
        b = a.copy()
        b.zones[hand.zone_of(me)].reverse()
        b.legal_cache = None
        b.version += 1
        a.log, b.log = [], []
        other = 1 - me
        assert player_view(engine.rules, a, other) == player_view(engine.rules, b, other)
        for game in (a, b):
            engine.apply(game, ("take",))  # three cards in hand: shown, then laid down
        assert read_log(a.log, other) == read_log(b.log, other)
        assert player_view(engine.rules, a, other) == player_view(engine.rules, b, other)


def test_a_variable_stored_from_another_takes_its_type_and_hides_its_cards(
        tmp_path: Path) -> None:
    """`set b = a`, `set n = [a, a]`, `set m = [[]] + [a]`, `set x = y`: each variable
    stored from another whose type a first reading found takes that type, so another seat
    sees no card's number through it."""
    base = (Path(__file__).resolve().parent / "data" / "mini.yaml").read_text(encoding="utf-8")
    names = ("a", "b", "n", "m", "x", "y")
    text = base.replace("    initial: 0\n", "    initial: 0\n" + "".join(
        f"  - {{name: {v}, scope: round, initial: none}}\n" for v in names), 1).replace(
        "                - set drawn += 1\n", "                - set drawn += 1\n" + "".join(
            f"                - {stmt}\n" for stmt in (
                "set a = select(c for c in hand[me])", "set b = a", "set n = [a, a]",
                "set m = [[]] + [a]", "set y = top(hand[me])", "set x = y")), 1)
    path = tmp_path / "passed_on.yaml"
    path.write_text(text, encoding="utf-8")
    rules = load_ruleset(path)
    assert {v.name: v.shape for v in rules.variables if v.name in names} == {
        "a": ("list", "card"), "b": ("list", "card"), "n": ("list", "list", "card"),
        "m": ("list", "list", "card"), "x": ("card",), "y": ("card",)}
    engine = Engine(rules)
    state = engine.new_game(2, 3)
    me = state.current
    engine.apply(state, ("take",))
    seen = player_view(rules, state, 1 - me)["variables"]
    assert seen["b"] == [None] * 3 and seen["n"] == [[None] * 3] * 2
    assert seen["m"] == [[], [None] * 3] and seen["x"] is None


def several_cards(action: Action) -> bool:
    """Whether an action names a list of two or more cards (or a list of such lists)."""
    return any(isinstance(v, tuple) and (len(v) > 1 or any(isinstance(x, tuple) for x in v))
               for v in action[1:])


@pytest.mark.parametrize("name", ["dou-dizhu", "grandma"])
def test_a_choice_of_several_cards_from_a_hand_keeps_its_holders_order_to_itself(
        name: str) -> None:
    """Random games played up to a decision with a choice of several cards of the hand
    (a pair, a trio with a kicker, a chain; melds laid down): in a copy that differs only in
    the order the holder got that hand, the same actions are listed, and each of them is
    told to the others in the same words, leaves the same log and the same table (the
    cards of a choice listed in the deck's order: which was drawn last is the holder's)."""
    engine = Engine(load_ruleset(name))
    hand = engine.rules.zone("hand")
    tried = 0
    for seed in range(6):
        rng = random.Random(seed)
        a = engine.new_game(None, seed, log=True)
        legal = engine.legal_actions(a)
        while legal and tried < 40:
            me = engine.to_move(a)
            assert me is not None
            several = [x for x in legal if several_cards(x)]
            if several:
                b = a.copy()
                b.zones[hand.zone_of(me)].reverse()  # the hand as if got the other way round
                b.legal_cache = None
                b.version += 1
                assert sorted(legal) == sorted(engine.legal_actions(b))
                for action in rng.sample(several, min(3, len(several))):
                    x, y = a.copy(), b.copy()
                    x.log, y.log = [], []
                    told = [tell(engine.words, game, me, action).seats for game in (x, y)]
                    engine.apply(x, action)
                    engine.apply(y, action)
                    for seat in range(a.n):
                        if seat != me:
                            assert told[0][seat] == told[1][seat], (seed, action)
                            assert read_log(x.log or [], seat) == read_log(y.log or [], seat)
                            assert player_view(engine.rules, x, seat) == \
                                player_view(engine.rules, y, seat)
                    tried += 1
            legal = engine.play(a, rng.choice(legal))
    assert tried >= 20


def how_known(state: GameState, seat: int, c: int) -> str:
    """What `seat` knows of card c: "exactly" which card lies in its place, "partly" (that
    it may lie in its zone: sight.py), or "not" at all."""
    if state.known[c] >> seat & 1:
        return "exactly"
    z = state.where[c]
    if any(c in cards and mask >> z & 1 for mask, cards in state.maybe[seat].items()):
        return "partly"
    return "not"


def copies_in_a_hand(engine: Engine, state: GameState, seat: int, kinds: tuple[str, str]
                     ) -> tuple[Action, Action] | None:
    """Two moves of the seat to play that differ only in which of two copies of one card
    (several decks) they take from its hand, the onlooker `seat` knowing the one as the
    first of `kinds` says and the other as the second (how_known): at a table it cannot
    tell the two apart."""
    mover = engine.to_move(state)
    if mover is None or mover == seat:
        return None
    names, board = engine.rules.cards.names, engine.rules.board
    by_face: dict[tuple[Any, ...], dict[str, Action]] = {}
    for action in engine.legal_actions(state):
        move = engine.moves.get(action[0])
        if move is None or len(action) != 2 or not move.names_cards[0]:
            continue
        c = action[1]
        if not isinstance(c, int) or board.visibility[state.where[c]] != OWNER \
                or board.owner[state.where[c]] != mover or state.face_up[c]:
            continue
        by_face.setdefault((action[0], names[c]), {})[how_known(state, seat, c)] = action
    for found in by_face.values():
        if kinds[0] in found and kinds[1] in found:
            return found[kinds[0]], found[kinds[1]]
    return None


class Unhurried(RandomBot):
    """A random seat that knocks only when it can do nothing else (czech-golf's knock, open
    at every turn, would end most games before anyone has copies to tell apart)."""

    def choose(self, engine: Engine, state: GameState, legal: list[Action]) -> Action:
        return super().choose(engine, state, [a for a in legal if a[0] != "knock"] or legal)


@pytest.mark.parametrize(("name", "players", "kinds"), [
    ("czech-golf", 4, ("exactly", "not")), ("grandma", 3, ("exactly", "not")),
    ("trio", 3, ("exactly", "not")), ("czech-golf", 4, ("partly", "exactly")),
    ("czech-golf", 4, ("partly", "not")), ("grandma", 4, ("partly", "exactly")),
    ("grandma", 4, ("partly", "not")), ("trio", 3, ("partly", "not"))],
    ids=lambda value: "-".join(value) if isinstance(value, tuple) else str(value))
def test_which_copy_of_a_card_left_a_hand_is_never_told(name: str, players: int,
                                                        kinds: tuple[str, str]) -> None:
    """A game of several decks: seat 2 saw a 6D go into seat 3's hand, which holds another 6D
    it did not see. Whichever of the two seat 3 gives up (discarded, buried, laid off),
    seat 2 is told the same (its view, the words, the log, the adapters' observation), and
    the two games, the copies' names traded in the second, are played on alike and compared
    after every action while they stay alike. Likewise where seat 2 knows one of them only
    partly (it saw it go into the stock, reshuffled, and seat 3 draw from the stock): the
    copy it tracked may be the one that went. One pair from each of several games."""
    path = Path(__file__).resolve().parent / "games" / "trio.yaml" if name == "trio" else name
    engine = Engine(load_ruleset(path))
    compared = followed = 0
    for game in range(200):
        rng = random.Random(game)
        state = engine.new_game(players, seed=game, log=True)
        bot = Unhurried(game)
        pair_of = None
        while not state.over and pair_of is None:
            mover = engine.to_move(state)
            assert mover is not None
            for seat in range(state.n):
                pair_of = copies_in_a_hand(engine, state, seat, kinds)
                if pair_of is None:
                    continue
                one, two = pair_of
                counts = {"copies": 0, "hidden choice": 0}
                pair = Pair("copies", engine, state.copy(), state.copy(), seat,
                            trade={one[1]: two[1], two[1]: one[1]})
                words = (told_to(engine, pair.a, mover, one, seat),
                         told_to(engine, pair.b, mover, two, seat))
                engine.apply(pair.a, one)
                engine.apply(pair.b, two)
                pair.check(words)
                pair.follow(Unhurried(game), random.Random(game), counts)
                compared += 1
                followed += counts["copies"]
                break
            legal = engine.legal_actions(state)
            engine.apply(state, playing(engine, bot.choose(engine, state, legal), rng))
        if compared >= 3:
            break
    assert compared >= 3
    assert followed >= 10, followed  # (the pairs were played on, not only compared once)


TRIO = Path(__file__).resolve().parent / "games" / "trio.yaml"  # three decks shuffled together


def trio_opening(engine: Engine, twins: int) -> tuple[GameState, list[int], int]:
    """A two-player game of trio in which seat 2 holds `twins` copies of one face and seat 1
    the other, dealt so; seat 2 then sheds its copies one by one and seat 1 takes each into
    its hand, face down, the table remembering them. The game, seat 1's copies (those it
    took first) and the one it was dealt."""
    names = engine.rules.cards.names
    for seed in range(500):
        state = engine.new_game(2, seed=seed, log=True)
        one, two = state.zones[3], state.zones[4]
        for face in sorted({names[c] for c in two}):
            mine = [c for c in two if names[c] == face]
            his = [c for c in one if names[c] == face]
            if len(mine) == twins and len(his) == 3 - twins:
                break
        else:
            continue
        for c in mine:
            # seat 1 draws and sheds something else; seat 2 draws and sheds the copy
            apply_all(engine, state, [("draw",), ("shed", other_than(state, 3, names, face))])
            apply_all(engine, state, [("draw",), ("shed", c)])
            engine.apply(state, ("take", c))
            engine.apply(state, ("shed", other_than(state, 3, names, face)))
            apply_all(engine, state, [("draw",), ("shed", other_than(state, 4, names, face))])
        return state, mine, his[0]
    raise AssertionError("no deal of trio gives the copies")


def other_than(state: GameState, zone: int, names: list[str], face: str) -> int:
    return next(c for c in state.zones[zone] if names[c] != face)


def apply_all(engine: Engine, state: GameState, actions: list[Action]) -> None:
    for action in actions:
        engine.apply(state, action)


def test_a_copy_turned_up_or_given_up_is_one_face_whatever_the_hands_order() -> None:
    """Three decks (tests/games/trio.yaml), two players. Seat 2 saw copies of one card go into
    seat 1's hand; seat 1 holds another copy seat 2 did not see. (1) Seat 1 buries one copy
    face down in the cellar, the one seat 2 saw or the other, and later turns it up: seat 2
    cannot tell which it was, then or when it lies face up, nor when it looks at it where it
    lies. (2) Seat 2 knows two copies in
    seat 1's hand, in an order it never saw; seat 1 sheds the third copy, then buries and
    turns up one of the two: the games that differ only in the order of the two in seat 1's
    hand look alike to seat 2 all along."""
    engine = Engine(load_ruleset(TRIO))
    names = engine.rules.cards.names

    def compare(a: GameState, b: GameState, steps: list[tuple[Action, Action]]) -> None:
        a.log, b.log = [], []
        for one, two in steps:
            me = engine.to_move(a)
            assert me is not None and me == engine.to_move(b)
            words = (told_to(engine, a, me, one, 1), told_to(engine, b, me, two, 1))
            engine.apply(a, one)
            engine.apply(b, two)
            assert words[0] == words[1], (one, two, words)
            assert read_log(a.log or [], 1) == read_log(b.log or [], 1), (one, two)
            assert seat_side(engine, a, 1) == seat_side(engine, b, 1), (one, two)
            a.log, b.log = [], []

    # (1) one copy seen going into the hand, one not: bury either, turn it up
    state, (seen,), unseen = trio_opening(engine, 1)
    assert how_known(state, 1, seen) == "exactly" and how_known(state, 1, unseen) == "not"
    a, b = state.copy(), state.copy()
    mine = other_than(a, 4, names, names[seen])
    compare(a, b, [(("draw",), ("draw",)), (("bury", seen), ("bury", unseen)),
                   (("draw",), ("draw",)), (("shed", mine), ("shed", mine)),
                   (("draw",), ("draw",)), (("turn",), ("turn",))])
    # ... or seat 2 looks at it where it lies, face down: it sees the face, not which copy
    a, b = state.copy(), state.copy()
    compare(a, b, [(("draw",), ("draw",)), (("bury", seen), ("bury", unseen)),
                   (("draw",), ("draw",)), (("look",), ("look",))])
    mine = other_than(a, 3, names, names[seen])
    compare(a, b, [(("draw",), ("draw",)), (("shed", mine), ("shed", mine))])

    # (2) two copies seen going into the hand, the third there unseen: the hand's order
    state, (first, second), third = trio_opening(engine, 2)
    assert [how_known(state, 1, c) for c in (first, second, third)] == \
        ["exactly", "exactly", "not"]
    a, b = state.copy(), state.copy()
    hand = b.zones[3]
    i, j = hand.index(first), hand.index(second)
    hand[i], hand[j] = hand[j], hand[i]
    b.legal_cache = None
    b.version += 1
    steps: list[tuple[Action, Action]] = [(("draw",), ("draw",)), (("shed", third),) * 2]
    compare(a, b, steps)
    mine = other_than(a, 4, names, names[first])
    compare(a, b, [(("draw",),) * 2, (("shed", mine),) * 2, (("draw",),) * 2,
                   (("bury", first),) * 2])
    mine = other_than(a, 4, names, names[first])
    compare(a, b, [(("draw",),) * 2, (("shed", mine),) * 2, (("draw",),) * 2,
                   (("turn",),) * 2])


ASIDE = Path(__file__).resolve().parent / "games" / "aside.yaml"


def test_a_back_laid_beside_a_face_up_card_does_not_tell_its_place_in_the_deck() -> None:
    """tests/games/aside.yaml: seat 1 lays two cards of its hand in a public row, one face up
    (shown to the table) and one face down, each keeping its facing. A hand's cards are listed
    in the deck's order, so in the choice the face-down card comes before the face-up one or
    after it as it is lower or higher in the deck. Game b is game a with that face-down card
    traded for a card of the stock on the other side of the face-up one: seat 2, which saw
    neither, must be shown the row, the log, the action's words, recall and record alike."""
    engine = Engine(load_ruleset(ASIDE))
    hand, stock = engine.rules.zone("hand"), engine.rules.zone("stock").index
    names = engine.rules.cards.names
    compared = 0
    for seed in range(40):
        a = engine.new_game(2, seed=seed, log=True)
        me = engine.to_move(a)
        assert me is not None
        held = a.zones[hand.zone_of(me)]
        up = next(c for c in held if a.face_up[c])
        down = next(c for c in held if not a.face_up[c])
        other = next((c for c in a.zones[stock] if (c < up) != (down < up)), None)
        if other is None:
            continue
        pair = Pair("traded cards", engine, a, traded(engine, a, down, other), 1 - me,
                    (down, other), {down: other, other: down})
        assert pair.alike()
        lay = next(m for m in engine.legal_actions(a) if m[0] == "lay" and set(m[1]) == {up, down})
        mirror = counterpart(engine, pair.b, exchanged_action(engine, lay, pair.trade))
        assert pair.step(lay), seed  # alike after it, and told alike (step checks)
        # a program in a seat is told a choice's cards so too: those it knows first
        assert args_of(engine, a, 1 - me, lay) == [[names[up], None]] == \
            args_of(engine, pair.b, 1 - me, mirror)
        compared += 1
    assert compared >= 10, compared


def test_the_backs_of_anothers_hand_come_in_an_order_that_tells_nothing_of_it() -> None:
    """The cards a seat does not know in another's hand are shown (and offered, and placed
    on a page) in an order drawn afresh at every action, not the hand's own: a card given
    to the hand lies at its end there, and an order that kept it there would let the seat
    follow it. Reordering the hand changes nothing the seat sees of it."""
    engine = Engine(load_ruleset(GAMES[[p.stem for p in GAMES].index("blind")]))
    state = engine.new_game(3, 4)
    board = engine.rules.board
    z = engine.rules.zone("hand").zone_of(1)
    seen = held_order(board, state, state.zones[z], 0)
    state.zones[z].reverse()
    assert held_order(board, state, state.zones[z], 0) == seen
    state.zones[z].append(state.zones[z].pop(0))
    assert held_order(board, state, state.zones[z], 0) == seen
    ends = 0
    for action in range(30):  # the hand's last card is not the last back, most actions
        state.actions = action
        ends += held_order(board, state, state.zones[z], 0)[-1] == state.zones[z][-1]
    assert ends < 10
    # nor is any card before another more often than by chance, over games and actions
    first, second = sorted(state.zones[z])[:2]
    before = 0
    for game in range(400):
        state.seed, state.actions = game * 7919, game % 37
        order = held_order(board, state, state.zones[z], 0)
        before += order.index(first) < order.index(second)
    assert 140 < before < 260, before


SECRET_GRID = """
cardrules: 1
name: secret-grid
players: {min: 2, max: 2}
deck: {ranks: [A, "2", "3", "4", "5", "6"], suits: [spades, hearts], zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: grid, owner: each, visibility: owner, layout: grid, rows: 2, columns: 2}
  - {name: table, visibility: public, layout: row}
round:
  setup: [shuffle stock, deal 4 from stock to each grid face down]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: act
          moves:
            - name: take
              label: "Take {card}"
              when: "size(grid[next_player(me)]) > 0"
              choose: {card: "grid[next_player(me)]"}
              do: ["move card to table face up"]
scoring:
  winner: highest
  round:
    - {name: none, score: "0"}
"""


def test_a_grid_only_its_owner_sees_keeps_its_places_for_the_others(tmp_path: Path) -> None:
    """A grid's places are its own, whoever sees its cards: to another seat, another's grid
    shows its backs where they lie, an empty place empty, and a choice of one of them
    names the place a page finds it at (not a hand's order, known cards first)."""
    path = tmp_path / "grid.yaml"
    path.write_text(SECRET_GRID, encoding="utf-8")
    rules = load_ruleset(str(path))
    engine = Engine(rules)
    state = engine.new_game(2, 5)
    for _ in range(3):
        engine.apply(state, engine.legal_actions(state)[0])
    seat = engine.to_move(state)
    assert seat is not None
    z = rules.zone("grid").zone_of(1 - seat)
    assert -1 in state.zones[z]  # (a place left empty)
    shown = player_view(rules, state, seat)["zones"]["grid"][str(2 - seat)]["cards"]
    assert [entry is None for entry in shown] == [c == -1 for c in state.zones[z]]
    places = card_places(rules, state, seat)
    for action in engine.legal_actions(state):
        assert places[action[1]][-1] == state.zones[z].index(action[1])
