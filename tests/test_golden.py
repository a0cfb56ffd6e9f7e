"""Golden games: one game of each ruleset in rulesets/, played by random bots from one seed,
kept in tests/golden/ as a transcript a person can read. The test replays the decisions a
transcript records and writes the transcript again from the replay, with the card rules
specialised in the generated code and with them called in the runtime; the two texts must be
the file exactly, so any change to what a game does or says shows as a difference in the file.
After a change that is meant to change games, regenerate them with `python tests/make_golden.py`
(which plays them with this module's code) and review the diff.

A transcript holds, after a header of '#' lines (the ruleset file, the players, the seed):
- each round's start as `cardrules run --reveal` prints it (the dealer and the whole table,
  every card named), then what the round's setup did;
- one line for each action: '>' for a seat's decision, '=' for an action the engine played
  alone (the only legal one), then the seat, the action as JSON (a decision's is what the test
  replays), the action's words as --reveal prints them (every card named), the words the
  event log gives every seat where they differ (after '| the table reads:'), and, after '->', its
  effects as the event log records them (a card shown as ## is one not every seat knows then,
  ##x5 five of them; effects of one kind along one way in a row are one, and a run of effects
  that repeats, such as a deal round the table, is written once with its number of times);
- each round's end: the table as every seat sees it, then the round's account as
  `cardrules run` prints it;
- the standings, and the results as JSON.

The engine has no spectator's view: the table at a round's end is the public one (that of the
event log, view.table_cards with `public`), where a card is named only if every seat knows it:
what any seat sees of the table, less what that seat alone knows (its hand, a card it peeked at).
"""

from __future__ import annotations

import difflib
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardrules.cli.main import revealed_words, round_start_lines
from cardrules.dsl.compiler import compile_document
from cardrules.dsl.loader import load_document, load_ruleset, resolve
from cardrules.dsl.schema import check_structure
from cardrules.errors import IllegalAction
from cardrules.interpreter.effects import SEATS_OWN
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions.events import EventStream
from cardrules.interpreter.state import GameState
from cardrules.model import Action, Ruleset
from cardrules.present import render

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOLDEN = HERE / "golden"
TRANSCRIPTS = sorted(GOLDEN.glob("*.txt"))
SEED = 2024
DECISION, FORCED = ">", "="
PLAIN = True  # cards as letters ('QH'), never suit symbols or colours
UNSEEN = render.card_text(None)  # a card not named: '##'
# The longest run of effects looked for when repeats are written once ('13 times (...)').
LONGEST_REPEAT = 16

# What a seat decides: the engine, the game, its legal actions -> an action (None: stop here).
Choose = Callable[[Engine, GameState, list[Action]], Action | None]

LEGEND = [
    f"# {DECISION} a seat's decision: the seat, the action as JSON (what the test replays), "
    "its words with",
    "#   every card named, what the event log tells every seat where it differs ('| the table",
    "#   reads:'), and after '->' its effects as the event log records them (## is a",
    "#   card that not every seat knows then, ##x5 five of them).",
    f"# {FORCED} the same for an action the engine played alone, the only legal one (not "
    "replayed).",
    "# At each round's end: the table as every seat sees it (a card named only if all know "
    "it),",
    "#   then the round's account as `cardrules run` prints it. At the end: standings, results.",
]
HEADER = re.compile(r"# (ruleset|players|seed): (.+)")
DECISION_LINE = re.compile(re.escape(DECISION) + r" seat \d+  ")


# ------------------------------------------------------------------ the transcript
def play(rules: Ruleset, ruleset_file: str, players: int, seed: int, choose: Choose) -> str:
    """Play a game of `rules` with `choose` deciding for every seat and return its transcript
    (`ruleset_file` as the header names it). A game whose decisions run out (`choose` gives
    None) stops there, its transcript cut short."""
    writer = Writer(rules)
    engine = writer.engine
    state = engine.new_game(players, seed, log=EventStream(writer.event))
    legal = engine.legal_actions(state)
    while legal:
        action = choose(engine, state, legal)
        if action is None:
            break
        legal = engine.play(state, action)
    writer.close()
    return "\n".join(header(rules, ruleset_file, players, seed) + writer.lines
                     + ending(engine, state)) + "\n"


def header(rules: Ruleset, ruleset_file: str, players: int, seed: int) -> list[str]:
    """The transcript's first lines: which game this is, how to make it again, how to read it."""
    return [render.printable(f"# A game of {rules.title} ({rules.name}) played by random bots, "
                             "kept for tests/test_golden.py."),
            f"# ruleset: {ruleset_file}", f"# players: {players}", f"# seed: {seed}",
            "# To write it again after a change meant to change games: "
            "python tests/make_golden.py", *LEGEND]


def ending(engine: Engine, state: GameState) -> list[str]:
    """The game's end: the standings as `cardrules run` prints them, then the results but the
    round scores (the standings' lines have them, and a long game's would make a long line)."""
    results = engine.results(state)
    rules = engine.rules
    rest = {name: value for name, value in results.items() if name != "round_scores"}
    return ["", *render.standings(results, rules.winner, rules.teams),
            "results but round_scores: " + json.dumps(rest, sort_keys=True)]


class Writer:
    """Writes a game's lines as the engine plays it: told of each action before it is applied
    (the engine's `watch`) and of each event as it is logged (the sink of an EventStream). An
    action's line is finished once its effects are all logged, at the next action or event."""

    def __init__(self, rules: Ruleset) -> None:
        self.engine = Engine(rules, watch=self.action)
        self.lines: list[str] = []
        self.open: str | None = None  # the line whose effects are still being logged
        self.effects: list[dict[str, Any]] = []
        self.dealing = False  # a round has begun and its table is not written yet
        self.words = ""  # the open line's action in words, every card named

    def action(self, state: GameState, seat: int, action: Action) -> None:
        """An action about to be applied: the round's table first if it is the round's first."""
        engine = self.engine
        if self.dealing:
            self.dealing = False
            self.lines += round_start_lines(engine, state, PLAIN)
        self.close()
        mark = DECISION if engine.is_choice(state) else FORCED
        self.words = revealed_words(engine, state, action)
        self.open = f"{mark} {engine.words.player_name(seat)}  {action_json(action)}  {self.words}"

    def event(self, event: dict[str, Any]) -> None:
        """An event of the log: an effect joins the open line; a round's start or end, or the
        game's, finishes it. (An action's own event names its seat and move, as its line does.)"""
        kind = event.get("event")
        if kind == "action" and self.open is not None and event["action"] != self.words:
            self.open += f"  | the table reads: {event['action']}"
        elif kind is None:
            if self.open is None:  # (no rule does anything between two rounds today)
                self.open = "  between rounds"
            self.effects.append(event)
        elif kind == "round":
            self.close()
            self.lines.append("")
            self.dealing = True
            self.open = "  setup"
        elif kind == "round_end":
            self.close()
            self.lines += round_end_lines(self.engine.rules, event)
        elif kind == "game_end":
            self.close()

    def close(self) -> None:
        """Finish the open line with the effects logged since it opened."""
        if self.open is not None and (self.effects or self.open[0] in (DECISION, FORCED)):
            effects = effects_text(self.effects)
            self.lines.append(self.open + (f"  -> {effects}" if effects else ""))
        self.open = None
        self.effects = []


def action_json(action: Action) -> str:
    """An action as JSON, the form the test replays."""
    return json.dumps(list(action), separators=(",", ":"))


def round_end_lines(rules: Ruleset, event: dict[str, Any]) -> list[str]:
    """A round's end, from its event: the public table, then the round's account."""
    return ["", f"Round {event['round']} over; the table as every seat sees it:",
            *render.table_lines(rules, event["zones"], PLAIN),
            *render.round_summary(rules, event, PLAIN)]


def effects_text(effects: list[dict[str, Any]]) -> str:
    """Effects in few words: consecutive moves of cards along one way as one ('move 4H JH 9H
    AH trick>taken'), and a run of effects that repeats written once ('6 times (...)')."""
    return "; ".join(repeats(merged(effects)))


def merged(effects: list[dict[str, Any]]) -> list[str]:
    """Each effect as text, those of one kind along one way in a row as one, cards in order."""
    out: list[tuple[str, list[str], str]] = []  # (kind and seat, cards, zone or way)
    for effect in effects:
        head, card, where = effect_parts(effect)
        if card is not None and out and out[-1][0] == head and out[-1][2] == where \
                and out[-1][1]:
            out[-1][1].append(card)
        else:
            out.append((head, [card] if card is not None else [], where))
    return [" ".join(part for part in (head, *unseen_runs(cards), where) if part)
            for head, cards, where in out]


def unseen_runs(cards: list[str]) -> list[str]:
    """Cards, each run of three or more unseen ones written once with its length ('##x18')."""
    out: list[str] = []
    for card, run in itertools.groupby(cards):
        count = len(list(run))
        out += [f"{card}x{count}"] if card == UNSEEN and count >= 3 else [card] * count
    return out


def effect_parts(effect: dict[str, Any]) -> tuple[str, str | None, str]:
    """An effect of the log as (its kind, and seat if any; its card if it has one; the zone or
    the way it went, 'stock>grid[1]'); any other field as name=value."""
    head = effect["effect"] + (f" seat {effect['seat']}" if "seat" in effect else "")
    card = render.card_text(effect["card"], PLAIN) if "card" in effect else None
    source, target = effect.get("from"), effect.get("to")
    where = str(source if source == target else f"{source}>{target}") \
        if "from" in effect else str(effect.get("zone", ""))
    known = {"effect", "seat", "card", "from", "to", "zone", *SEATS_OWN}  # (each seat's)
    others = " ".join(f"{name}={effect[name]}" for name in sorted(effect) if name not in known)
    return head, card, " ".join(part for part in (where, others) if part)


def repeats(texts: list[str]) -> list[str]:
    """`texts` with each run that repeats (a deal round the table) written once, with the
    number of times: the run that covers the most texts from each place, the shortest of
    those."""
    out: list[str] = []
    i = 0
    while i < len(texts):
        period, times = longest_repeat(texts, i)
        run = texts[i:i + period]
        out.append(f"{times} times ({'; '.join(run)})" if times > 1 else run[0])
        i += period * times
    return out


def longest_repeat(texts: list[str], start: int) -> tuple[int, int]:
    """The run from `start` that repeats over the most texts: (its length, how many times)."""
    best = (1, 1)
    for period in range(1, min(LONGEST_REPEAT, (len(texts) - start) // 2) + 1):
        run = texts[start:start + period]
        times = 1
        while texts[start + times * period:start + (times + 1) * period] == run:
            times += 1
        if times > 1 and period * times > best[0] * best[1]:
            best = (period, times)
    return best


# ----------------------------------------------------------------- reading one back
def recorded(text: str) -> tuple[dict[str, str], list[Action]]:
    """A transcript's header fields (ruleset, players, seed) and its decisions, in order."""
    fields: dict[str, str] = {}
    decisions: list[Action] = []
    decoder = json.JSONDecoder()
    for line in text.splitlines():
        field = HEADER.fullmatch(line)
        if field:
            fields[field.group(1)] = field.group(2)
        decision = DECISION_LINE.match(line)
        if decision:
            decisions.append(replay_action(decoder.raw_decode(line, decision.end())[0]))
    return fields, decisions


def replay_action(action: list[Any]) -> Action:
    """JSON turned tuples into lists: a parameter is a tuple again, at every depth (a subset
    of cards, a layout of melds)."""
    return tuple(_tuples(a) for a in action)


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


class Replay:
    """Makes the recorded decisions in turn (a Choose), and None once they run out."""

    def __init__(self, decisions: list[Action]) -> None:
        self.decisions = decisions
        self.made = 0  # how many were handed to the engine

    def __call__(self, engine: Engine, state: GameState, legal: list[Action]) -> Action | None:
        if self.made == len(self.decisions):
            return None
        self.made += 1
        return self.decisions[self.made - 1]


def ruleset(path: Path, inline: bool = True) -> Ruleset:
    """The ruleset at `path`; without `inline`, its code calls the runtime's card rules
    instead of specialising them in place."""
    if inline:
        return load_ruleset(path)
    doc = load_document(resolve(str(path)))
    assert not list(check_structure(doc))
    return compile_document(doc, inline=False)


def first_differences(expected: str, actual: str, lines: int = 60) -> str:
    """The start of a unified diff from the file to the replay's transcript."""
    diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "the file",
                                "the replay", lineterm="")
    return "\n".join(list(diff)[:lines])


# ------------------------------------------------------------------------ the tests
def test_every_ruleset_has_a_transcript() -> None:
    rulesets = {p.stem for p in (ROOT / "rulesets").glob("*.yaml")}
    assert {p.stem for p in TRANSCRIPTS} == rulesets, "run python tests/make_golden.py"


@pytest.mark.parametrize("inline", [True, False], ids=["specialised", "runtime calls"])
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
def test_a_recorded_game_replays_to_the_same_transcript(path: Path, inline: bool) -> None:
    """Every recorded game, replayed from its decisions, is told in the very same words, with
    the same effects, tables, accounts and results, whether the card rules are specialised in
    the generated code or called in the runtime (one definition)."""
    expected = path.read_text(encoding="utf-8")
    fields, decisions = recorded(expected)
    rules = ruleset(ROOT / fields["ruleset"], inline)
    replay = Replay(decisions)
    refused = None
    try:
        actual = play(rules, fields["ruleset"], int(fields["players"]), int(fields["seed"]),
                      replay)
    except IllegalAction as exc:
        refused = str(exc)
    if refused is not None:  # (failed here, not in the handler: one message, not two)
        pytest.fail(f"{path.name}: its decision {replay.made} "
                    f"({action_json(decisions[replay.made - 1])}) is not legal in the replay: "
                    f"{refused}", pytrace=False)
    if actual != expected:
        pytest.fail(f"{path.name} differs from its replay (python tests/make_golden.py writes "
                    "it again):\n" + first_differences(expected, actual), pytrace=False)
