"""Saved games as replay records: the start of a game and every action taken since.

    record = Record.new("golf6", {"rounds": "2"}, rules, players=3, seed=11,
                        seats=["human", "random", "random"])
    record.actions.append(action_data(action))     # after each action the engine applied
    write(path, record)
    ...
    record = read(path)
    engine, state = start(record)
    replay(record, engine, state)                  # every action, through Engine.apply

A record holds the ruleset reference, a fingerprint of the resolved ruleset and its options,
the options, the number of players, the seed, a given deal if the game had one (the order of
each shuffle it stated: `cardrules run --deal`), each seat's kind, the actions in order (as
JSON) and each bot's random stream. A seat a program played is recorded as `program`, never
with its command: a save is data that anyone may have written, and only the person at the
command line may seat a program, so resuming asks for the command again (`programs_for`).

A record holds no game state: a resumed game is dealt afresh from the seed and every action
is applied again by the engine, so a record, however edited, reaches only positions the
rules allow. A record that does not replay is refused with one line
(GameError). A bot's stream is kept because it only changes which legal action the bot
picks next; its shape is checked strictly.

The seed (or the given deal, written out) determines the deal, so whoever reads a record can
work the hidden cards out: it keeps the rules, not secrets.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shlex
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardrules.errors import GameError, IllegalAction, RulesetError
from cardrules.model import Action, Ruleset

from ..deal import MAX_SHUFFLES, Deal, deal_from_data
from ..domains import Words
from ..engine import Engine
from ..players.bots import BOTS, Bot, asked_kind_problem, check_kind, make_bot
from ..players.external import is_command
from ..runtime import MOST_VALUE
from ..state import GameState
from .files import NewFile

FORMAT = "cardrules-save/3"
OLDER = "cardrules-save/2"  # still resumed: its programs' commands are never read
OLD_FORMATS = ("cardrules-save/1",)
HUMAN = "human"  # the seat kind of a person
PROGRAM = "program"  # what a record holds for a seat played by a program (cmd:)
# What a save holds at most: `read` refuses more, and `write` refuses to write more (a game
# longer than this goes on unsaved, its last save kept), so every save written can be resumed.
MAX_BYTES = 4 * 1024 * 1024  # far above any real game (a long grandma match: ~100 KB)
MAX_ACTIONS = 100_000  # the longest shipped games take a few thousand
MAX_SEED = 2**63  # seeds are at most this in size (either sign)
MAX_TEXT = 10_000  # the longest text in a record: a ruleset path, an option, a typed word
MAX_DEPTH = 4  # an action holds lists of lists of cards at most
MAX_CARDS = 10_000  # the most cards one shuffle of a deal orders (a deck holds far fewer)
MAX_NAME = 16  # the longest card name a deal holds
_STREAM_WORDS = 624  # a Mersenne Twister stream: 624 words and a position
_KEYS = {"format", "ruleset", "digest", "options", "players", "seed", "seats", "actions",
         "bots", "plain", "deal", "reacting"}
_OPTIONAL = {"plain", "deal", "reacting"}
REACTING = ("stop", "wanted")  # a person's way of meeting chances to react (windows.py)


@dataclass
class Record:
    """A game from its start: what a saved game holds."""

    ruleset: str  # a built-in name, or a rule file's absolute path
    digest: str  # fingerprint(rules) when the game started
    options: dict[str, str]
    players: int
    seed: int
    seats: list[str]  # HUMAN, PROGRAM or a built-in bot kind ('greedy', 'ismcts:200')
    actions: list[list[Any]] = field(default_factory=list)  # action_data of each action
    bots: list[list[Any] | None] = field(default_factory=list)  # bot_stream per seat
    plain: bool = False  # the terminal showed cards in letters: it does so again
    older: bool = False  # read from an OLDER save, whose fingerprint left the options out
    # A given deal (interpreter/deal.py): each shuffle's order, top card first; None: the
    # seed deals. Optional in the format, so saves without it (and OLDER ones) still load.
    deal: list[list[str]] | None = None
    # How each person meets chances to react, per seat ({"stop": ..., "wanted": ...}, None
    # for a bot's seat), so that a resumed game asks where the person asked to be asked;
    # None: every person as by default (windows.py). Optional in the format, as `deal`.
    reacting: list[dict[str, bool] | None] | None = None

    @classmethod
    def new(cls, ref: str, options: dict[str, str], rules: Ruleset, players: int, seed: int,
            seats: Sequence[str], plain: bool = False,
            deal: list[list[str]] | None = None) -> Record:
        """The record of a game about to start (`ref` as given: a name or a file; `deal`
        its given deal's data, if any: dealt_from)."""
        path = Path(ref)
        try:  # the file the rules came from (a built-in's name means the built-in, even
            # where the current folder holds a file of that name)
            saved_ref = str(path.resolve()) if path.is_file() and \
                path.resolve() == Path(rules.path).resolve() else ref
        except (OSError, ValueError):  # a name the system refuses is no file
            saved_ref = ref
        recorded = [PROGRAM if is_command(kind) else kind for kind in seats]
        return cls(saved_ref, fingerprint(rules), dict(options), players, seed, recorded,
                   plain=plain, deal=deal)

    def to_data(self) -> dict[str, Any]:
        """The record as JSON-ready data."""
        data = {"format": FORMAT, "ruleset": self.ruleset, "digest": self.digest,
                "options": self.options, "players": self.players, "seed": self.seed,
                "seats": self.seats, "plain": self.plain, "bots": self.bots,
                "actions": self.actions}
        if self.deal is not None:  # (written only for a given deal)
            data["deal"] = self.deal
        if self.reacting is not None:  # (and only where a person's setting is not the default)
            data["reacting"] = self.reacting
        return data

    def programs_for(self, commands: dict[int, str]) -> list[str]:
        """Each seat's kind to play on with: a seat recorded as a program takes its command
        from `commands` (seat number from 0 -> 'cmd:...', given at the command line), and a
        bot given more than a saved game may seat by itself (bots.ASKED_BUDGETS: a search of
        minutes a decision, say) plays only if the command line names it again, the same;
        GameError, saying how to give it, if one is missing or names a seat that no program
        played."""
        kinds = list(self.seats)
        for seat, command in sorted(commands.items()):
            if not 0 <= seat < len(kinds):
                raise GameError(f"there is no seat {seat + 1}: the saved game has "
                                f"{len(kinds)} seats")
            if kinds[seat] != PROGRAM and command == kinds[seat]:
                continue  # (a bot named again)
            if kinds[seat] != PROGRAM or not is_command(command):
                raise GameError(f"seat {seat + 1} was played by '{kinds[seat]}': a resumed "
                                "game takes a program's command (cmd:COMMAND) for a program's "
                                "seat, and a bot's own kind again for a bot's")
            check_kind(command, programs=True)
            kinds[seat] = command
        for seat, kind in enumerate(kinds):
            if kind == PROGRAM or is_command(kind) or commands.get(seat) == kind:
                continue  # (a program's seat: below; one named again: seated)
            problem = asked_kind_problem(kind) if kind != HUMAN else None
            if problem is not None:
                raise GameError(f"seat {seat + 1} is '{kind}' in the saved game, more than a "
                                f"saved game may seat by itself (it {problem}): name it "
                                f"again to resume (--seat {seat + 1}={kind})")
        missing = [p + 1 for p, kind in enumerate(kinds) if kind == PROGRAM]
        if missing:
            flags = " ".join(f"--seat {p}=cmd:COMMAND" for p in missing)
            raise GameError(f"seat {missing[0]} was played by a program, and a saved game never "
                            f"holds the command to run: name it again to resume ({flags})")
        return kinds

    def keep_streams(self, bots: Sequence[Bot | None]) -> None:
        """Note each bot's random stream as it is now (before writing the record)."""
        self.bots = [bot_stream(bot) for bot in bots]


def named_again(kind: str) -> bool:
    """Whether a seat of this kind plays on in a resumed game only if the command line names
    it again (`Record.programs_for`): a program (a save never holds its command), or a bot
    given more than a save may seat by itself (bots.ASKED_BUDGETS)."""
    return kind == PROGRAM or is_command(kind) or \
        (kind != HUMAN and asked_kind_problem(kind) is not None)


# ----------------------------------------------------------------- fingerprints
def fingerprint(rules: Ruleset, with_options: bool = True) -> str:
    """A fingerprint of the resolved rule file and the options it was loaded with, to notice
    a ruleset, or a save's options, changed since a save (OLDER saves left the options
    out)."""
    data: Any = {"rules": rules.data, "options": rules.options} if with_options else rules.data
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def action_data(action: Action) -> list[Any]:
    """An action as JSON data: its tuples as lists (a typed text stays a text)."""
    def plain(value: Any) -> Any:
        if isinstance(value, (tuple, list)):
            return [plain(v) for v in value]
        if value is None or isinstance(value, (bool, int, str)):
            return value
        raise TypeError(f"an action holds {type(value).__name__}, which a record cannot keep")
    return plain(list(action))


def bot_stream(bot: Bot | None) -> list[Any] | None:
    """A bot's random stream as JSON lists (None for a person, or a bot without one)."""
    rng = getattr(bot, "rng", None)
    if rng is None:
        return None
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def make_bots(seats: Sequence[str], seed: int) -> list[Bot | None]:
    """One bot per seat that is not a person's, seeded from the game's seed and the seat
    (`seats` as played: a program's seat with its command, see Record.programs_for)."""
    return [None if kind == HUMAN else make_bot(kind, seed, p) for p, kind in enumerate(seats)]


# ------------------------------------------------------------------ reading
def read(path: Path) -> Record:
    """The record saved in `path`; GameError (one line, naming the file) if it is not one."""
    try:
        if path.exists() and not path.is_file():  # (a pipe's opening waits for a writer)
            raise GameError(f"{path}: is not a file (a folder, a device, or a pipe), not a "
                            "saved game")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise GameError(f"{path}: too large for a saved game ({size / 2**20:.1f} MB; at "
                            f"most {MAX_BYTES // 2**20} MB)")
        with path.open("rb") as file:  # at most that much: a device may never end
            data = file.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise GameError(f"{path}: too large for a saved game (at most "
                            f"{MAX_BYTES // 2**20} MB)")
        text = data.decode("utf-8")
    except OSError as exc:
        raise GameError(f"{path}: cannot read the saved game: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise GameError(f"{path}: not a cardrules saved game (not text)") from None
    try:
        return loads(text)
    except GameError as exc:
        raise GameError(f"{path}: {exc}") from None


def too_large(size: int, actions: int) -> str | None:
    """Why a save of `size` characters holding `actions` actions is too large to be read
    (the bounds the reader and the writer share), or None."""
    if size > MAX_BYTES:
        return f"too large for a saved game (at most {MAX_BYTES // 2**20} MB)"
    if actions > MAX_ACTIONS:
        return f"too long for a saved game ({actions:,} actions; a save holds at most " \
            f"{MAX_ACTIONS:,})"
    return None


def loads(text: str) -> Record:
    """A record from its JSON text; GameError if the text is not a record of this format."""
    problem = too_large(len(text), 0)
    if problem is not None:
        raise GameError(problem)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise GameError("not a cardrules saved game (not JSON: damaged, or cut short?)") \
            from None
    except ValueError:  # an integer of thousands of digits
        raise GameError("a damaged saved game (a number far too large)") from None
    return from_data(data)


def from_data(data: Any) -> Record:
    """A record from JSON data, every entry checked for its type and size."""
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, OLDER):
        old = data.get("format") if isinstance(data, dict) else None
        if old in OLD_FORMATS:
            raise GameError(f"a game saved by an older cardrules ('{old}', which kept the "
                            "whole table rather than the moves): it cannot be resumed; start "
                            "the game again")
        raise GameError(f"not a cardrules saved game (no '{FORMAT}' format mark)")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise GameError(f"a damaged saved game (an entry a save never has: '{unknown[0]}')")
    missing = sorted(_KEYS - _OPTIONAL - set(data))
    if missing:
        raise GameError(f"a damaged saved game (no '{missing[0]}')")
    seats = data["seats"]
    record = Record(_text(data["ruleset"], "ruleset"), _text(data["digest"], "digest"),
                    _options(data["options"]), _whole(data["players"], 1, 64, "players"),
                    _whole(data["seed"], -MAX_SEED, MAX_SEED, "seed"), _seats(seats),
                    _actions(data["actions"]), [], _flag(data.get("plain", False)),
                    older=data["format"] == OLDER)
    if len(record.seats) != record.players:
        raise GameError(f"a damaged saved game ({len(record.seats)} seats for "
                        f"{record.players} players)")
    record.bots = _streams(data["bots"], record.seats)
    if "deal" in data:
        record.deal = _deal(data["deal"])
    if "reacting" in data:
        record.reacting = _reacting(data["reacting"], record.seats)
    return record


def _damaged(what: str) -> GameError:
    return GameError(f"a damaged saved game (its {what})")


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_TEXT:
        raise _damaged(what)
    return value


def _whole(value: Any, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value < high:
        raise _damaged(what)
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _damaged("display setting")
    return value


def _deal(value: Any) -> list[list[str]]:
    """A deal's shape (lists of short texts, bounded); its cards are checked against the
    ruleset once it is loaded (`start`)."""
    if not isinstance(value, list) or not 0 < len(value) <= MAX_SHUFFLES or not all(
            isinstance(order, list) and len(order) <= MAX_CARDS
            and all(isinstance(name, str) and len(name) <= MAX_NAME for name in order)
            for order in value):
        raise _damaged("deal")
    return [list(order) for order in value]


def _reacting(value: Any, seats: Sequence[str]) -> list[dict[str, bool] | None]:
    """Each seat's way of meeting chances to react: for a person's seat, whether they are
    asked at each (`stop`) and at the next (`wanted`); None for any other seat's."""
    if not isinstance(value, list) or len(value) != len(seats):
        raise _damaged("reaction settings (one per seat)")
    for setting, kind in zip(value, seats):
        if setting is None and kind != HUMAN:
            continue
        if kind != HUMAN or not isinstance(setting, dict) or set(setting) != set(REACTING) \
                or not all(isinstance(flag, bool) for flag in setting.values()):
            raise _damaged("reaction settings")
    return value


def dealt_from(state: GameState) -> list[list[str]] | None:
    """A game's given deal as a record keeps it (None: dealt by its seed)."""
    deal = state.deal
    return deal.data() if isinstance(deal, Deal) else None


def _options(value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or len(value) > 100 or not all(
            isinstance(v, str) and len(k) <= MAX_TEXT and len(v) <= MAX_TEXT
            for k, v in value.items()):
        raise _damaged("options")
    return dict(value)


def _seats(value: Any) -> list[str]:
    """Each seat's kind, checked without making anything: a person, a program (an OLDER
    save's `cmd:...` is read as one, its command never kept), or a built-in bot."""
    if not isinstance(value, list) or not 1 <= len(value) <= 64:
        raise _damaged("seats")
    kinds = []
    for kind in value:
        if not isinstance(kind, str) or len(kind) > MAX_TEXT:
            raise _damaged("seats")
        if is_command(kind):
            kind = PROGRAM
        elif kind not in (HUMAN, PROGRAM):
            try:
                check_kind(kind)
            except GameError as exc:  # an unknown kind, or a budget over its bound
                known = kind.partition(":")[0] in BOTS and len(kind) <= 80
                raise GameError("a damaged saved game ("
                                + (str(exc) if known else f"unknown seat kind "
                                   f"'{_short(kind)}'") + ")") from None
        kinds.append(kind)
    return kinds


def _actions(value: Any) -> list[list[Any]]:
    if not isinstance(value, list):
        raise _damaged("actions")
    problem = too_large(0, len(value))
    if problem is not None:
        raise GameError(problem)
    for number, action in enumerate(value, 1):
        if not (isinstance(action, list) and action and isinstance(action[0], str)
                and _json_action(action, MAX_DEPTH)):
            raise GameError(f"a damaged saved game (action {number} is not an action)")
    return value


def _json_action(value: Any, depth: int) -> bool:
    """Whether `value` is made only of what an action holds, nested at most `depth` deep."""
    if isinstance(value, list):
        return depth > 0 and len(value) <= 1000 and all(_json_action(v, depth - 1)
                                                        for v in value)
    if isinstance(value, str):
        return len(value) <= MAX_TEXT
    return value is None or isinstance(value, bool) or (
        isinstance(value, int) and abs(value) <= MOST_VALUE)


def _streams(value: Any, seats: Sequence[str]) -> list[list[Any] | None]:
    """Each seat's random stream: None for a person, a Mersenne Twister state for a bot."""
    if not isinstance(value, list) or len(value) != len(seats):
        raise _damaged("random streams (one per seat)")
    for stream, kind in zip(value, seats):
        if (stream is None) != (kind == HUMAN) or (stream is not None
                                                   and not _stream_shape(stream)):
            raise _damaged("random streams")
    return value


def _stream_shape(stream: Any) -> bool:
    """[3, 624 words and a position, None or a float]: what random.Random.getstate gives."""
    if not (isinstance(stream, list) and len(stream) == 3 and stream[0] == 3
            and type(stream[0]) is int):
        return False
    internal, gauss = stream[1], stream[2]
    if not (isinstance(internal, list) and len(internal) == _STREAM_WORDS + 1
            and all(type(w) is int and 0 <= w < 2**32 for w in internal)
            and internal[-1] <= _STREAM_WORDS):
        return False
    return gauss is None or (type(gauss) is float and math.isfinite(gauss))


def restore_streams(bots: Sequence[Bot | None], streams: Sequence[list[Any] | None]) -> None:
    """Set each bot's random stream to the one recorded (shapes checked by `from_data`)."""
    for bot, stream in zip(bots, streams):
        rng = getattr(bot, "rng", None)
        if rng is not None and stream is not None:
            version, internal, gauss = stream
            rng.setstate((version, tuple(internal), gauss))


# ------------------------------------------------------------------ replaying
# cardrules.dsl.loader.load_referenced: a save names a built-in ruleset or a rule file, checked
# as one before it is read
Loader = Callable[[str, dict[str, str]], Ruleset]


def start(record: Record, loader: Loader,
          log: bool | list[dict[str, Any]] = False) -> tuple[Engine, GameState]:
    """The record's ruleset loaded (by `loader`) and checked against its fingerprint, and its
    game dealt."""
    engine = Engine(ruleset(record, loader))
    return engine, new_game(record, engine, log)


def resumable(record: Record, loader: Loader) -> str | None:
    """Why a save of `record`'s game could never be resumed, or None: its ruleset is not
    one a save may name (a rule file whose name does not end in .yaml or .yml, say), checked
    before the game starts as `start` checks it when the game resumes."""
    try:
        ruleset(record, loader)
    except GameError as exc:
        return str(exc)
    return None


def ruleset(record: Record, loader: Loader) -> Ruleset:
    """The record's ruleset loaded (by `loader`), checked against its fingerprint and
    number of players; GameError if it cannot be."""
    try:
        rules = loader(record.ruleset, record.options)
    except RulesetError as exc:
        cause = exc.diagnostics[0].message if exc.diagnostics else "invalid"
        raise GameError(f"its ruleset '{record.ruleset}' cannot be loaded: {cause}") from None
    if fingerprint(rules, with_options=not record.older) != record.digest:
        raise GameError(f"the ruleset '{record.ruleset}' or the save's options have changed "
                        "since this game was saved")
    if not rules.min_players <= record.players <= rules.max_players:
        raise _damaged("number of players")
    return rules


def new_game(record: Record, engine: Engine,
             log: bool | list[dict[str, Any]] = False) -> GameState:
    """The record's game dealt afresh by `engine` (its ruleset's): from its seed, or from the
    deal it was given (the one way a recorded game starts: resumed, or dealt again to take
    a decision back)."""
    deal = None if record.deal is None else deal_from_data(record.deal, engine.rules,
                                                             record.players, "its deal")
    return engine.new_game(record.players, record.seed, log=log, deal=deal)


def replay(record: Record, engine: Engine, state: GameState,
           advance: Callable[[int, Action], None] | None = None) -> None:
    """Apply every recorded action to the freshly dealt `state`, in order. `advance(seat,
    action)` applies one (default: Engine.apply), for a caller that follows the game as it
    goes; whatever it does, the action is the engine's own legal one."""
    def apply(seat: int, action: Action) -> None:
        engine.apply(state, action)

    step = advance or apply
    for number, data in enumerate(record.actions, 1):
        try:
            action = find_action(engine, state, data)
        except IllegalAction as exc:
            raise GameError(f"action {number} of the saved game cannot be played: {exc}") \
                from None
        seat = engine.to_move(state)
        assert seat is not None  # find_action refuses every action once the game is over
        step(seat, action)


def find_action(engine: Engine, state: GameState, data: Any) -> Action:
    """The legal action that `data` (an action as JSON data) stands for, with any typed
    text filled in; IllegalAction if there is none (the game is over, or it is not legal)."""
    if state.over:
        raise IllegalAction("the game is over")
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise IllegalAction("not an action")
    wanted = json.dumps(data)
    near: list[tuple[Action, list[Any]]] = []  # the move's actions, as the record writes them
    for candidate in engine.legal_actions(state):
        if candidate[0] != data[0] or len(candidate) != len(data):
            continue
        filled = _filled(candidate, data)
        if filled is None:
            continue
        written = action_data(filled)
        if json.dumps(written) == wanted:
            return filled
        near.append((filled, written))
    # A save written before a hand's cards were listed in the deck's order names a choice
    # of several cards in the order its holder had them: the one action of those cards.
    unordered = json.dumps(_unordered(data))  # (as text: 5.0 is no card 5)
    alike = [action for action, written in near if json.dumps(_unordered(written)) == unordered]
    if len(alike) == 1:
        return alike[0]
    raise IllegalAction(f"not a legal action now: {_short(wanted)}")


def _unordered(data: list[Any]) -> list[Any]:
    """An action's data with each list of numbers (cards chosen together) in order."""
    return [sorted(part) if isinstance(part, list) and all(type(x) is int for x in part)
            else part for part in data]


def _filled(candidate: Action, data: list[Any]) -> Action | None:
    """`candidate` with its open parameters set from `data`, or None if a value does not
    belong to its domain."""
    if not any(isinstance(part, Words) for part in candidate):
        return candidate
    parts = list(candidate)
    for index, part in enumerate(candidate):
        if isinstance(part, Words):
            if part.problem(data[index]) is not None:
                return None
            parts[index] = data[index]
    return tuple(parts)


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


# ------------------------------------------------------------------ writing
def overwrite_problem(path: Path, record: Record) -> str | None:
    """Why `record`'s game may not be saved to `path`, or None: nothing is there, or a save
    of this same game at this point or an earlier one (the game being resumed). Anything
    else would be lost: a file that is no save (the rule file itself, say), or a save of
    another game."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return f"will not save to {path}: it is not a file (a device or a pipe)"
    except (OSError, ValueError):  # nothing there (or the save says why when written)
        return None
    try:
        saved = read(path)
    except GameError as exc:
        why = str(exc).removeprefix(f"{path}: ")
        return f"will not write over {path}: {why}; choose another file"
    if not _same_game(saved, record):
        return f"will not write over {path}: it holds another saved game; resume that one " \
               f"(cardrules resume {shlex.quote(str(path))}), or choose another file (or " \
               "remove it first)"
    return None


def _same_game(saved: Record, record: Record) -> bool:
    """Whether `saved` is `record`'s game, at its point or an earlier one."""
    start = ("ruleset", "digest", "options", "players", "seed", "seats", "deal")
    return all(getattr(saved, name) == getattr(record, name) for name in start) \
        and saved.actions == record.actions[:len(saved.actions)]


def dumps(record: Record) -> str:
    """The record as one line of JSON."""
    return json.dumps(record.to_data(), separators=(",", ":")) + "\n"


def write(path: Path, record: Record) -> None:
    """Save the record, readable by its owner alone (files.py: made anew beside `path`, then
    put in its place); a failed write leaves any earlier save as it was. A record that
    `read` would refuse (a game too long for a save: more than MAX_ACTIONS actions or
    MAX_BYTES) is not written: GameError says why, and the earlier save stays."""
    text = dumps(record)
    # The reader's own bounds and its check of each action (a save is not parsed again
    # after every action: the rest of what it holds is the program's own)
    problem = too_large(len(text), len(record.actions))
    if problem is None and not all(_json_action(a, MAX_DEPTH) for a in record.actions):
        problem = "an action holds what a saved game cannot (a number beyond 2^53, a list " \
                  "of over 1,000 items or a text over its bound)"
    if problem is not None:
        raise GameError(f"cannot save the game to {path}: {problem}; a save there is left as "
                        "it was")
    try:
        with NewFile(path, private=True) as out:
            out.write(text)
    except OSError as exc:
        raise GameError(f"cannot save the game to {path}: {exc.strerror or exc}") from None
