"""External bots: a program in a seat, speaking JSON lines over its stdin and stdout.

A seat kind `cmd:COMMAND` runs COMMAND (split as a shell would split it, run without a
shell) for one game. `cmd[timeout=2,start=10,fallback=random]:COMMAND` sets the seconds
allowed per answer (default 5), the seconds more allowed for the first answer, while the
program starts (default 10), and what happens when an answer is bad, late or missing:
`forfeit` (the default: the seat loses and the game ends there) or `random` (a random
player takes the seat for the rest of the game).

Each message is one JSON object on one line. The program is sent:

    {"type": "start", "protocol": "cardrules-bot/1", "ruleset": ..., "title": ...,
     "players": n, "seat": k, "winner": "lowest" | "highest", "timeout": seconds,
     "moves": {name: {"label": ..., "params": [...], "kinds": [...]}}}
    {"type": "decide", "decision": i, "view": <the seat's player view>,
     "legal": [{"index": 0, "move": name, "text": <the action in the seat's words>,
                "args": [...], "fill": [...]}, ...]}
    {"type": "end", "results": {...}}

and answers each `decide` with {"index": i}, adding {"fill": ["UDDS"]} for an action with a
text to write (`fill` in the legal entry lists, per text, its "letters", "shortest" and
"longest"). It is sent only what its seat may know: the view, and each legal action's
description and arguments in the seat's own words, a card it does not know being null
(the description says where it lies); the game's seed and card ids are never sent. The
legal actions are listed by move, then by description, so their order tells nothing
either.
"""

from __future__ import annotations

import json
import os
import queue
import random
import re
import select
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

from cardrules.errors import GameError
from cardrules.model import Action

from ..domains import Words, fill
from ..engine import Engine
from ..state import GameState
from ..view import player_view

PROTOCOL = "cardrules-bot/1"
DEFAULT_TIMEOUT = 5.0
DEFAULT_START = 10.0  # more seconds for the first answer: the program may be starting up
SETTINGS = ("timeout", "start", "fallback")
MAX_LINE = 1 << 20  # characters of one line a program may write (an answer is far shorter)
KEPT_LINES = 16  # lines of the program's read ahead of the game (then it waits to write)
TOO_LONG = "(a line too long)\n"  # what the reader passes on for a line past MAX_LINE
FALLBACKS = ("forfeit", "random")
PREFIX = "cmd"


class Forfeit(GameError):
    """A seat's program answered badly and the seat forfeits the game."""

    def __init__(self, seat: int, reason: str):
        super().__init__(f"seat {seat + 1} forfeits: {reason}")
        self.seat = seat
        self.reason = reason


@dataclass(frozen=True)
class CommandSeat:
    """A parsed `cmd:` seat kind."""

    kind: str  # as written
    argv: tuple[str, ...]
    timeout: float = DEFAULT_TIMEOUT
    start: float = DEFAULT_START
    fallback: str = "forfeit"


def is_command(kind: str) -> bool:
    """Whether a seat kind names an external program (`cmd:...` or `cmd[...]:...`)."""
    return kind.startswith(PREFIX + ":") or kind.startswith(PREFIX + "[")


def parse(kind: str) -> CommandSeat:
    """Read `cmd:COMMAND` or `cmd[timeout=S,start=S,fallback=random|forfeit]:COMMAND`;
    GameError says what is wrong and how to write it."""
    rest = kind[len(PREFIX):]
    settings: dict[str, str] = {}
    if rest.startswith("["):
        close = rest.find("]")
        if close < 0:
            raise GameError(f"seat kind '{kind}': ']' missing after the settings "
                            "(cmd[timeout=2,fallback=random]:COMMAND)")
        for item in rest[1:close].split(","):
            if not item.strip():
                continue
            name, sep, value = item.partition("=")
            name, value = name.strip(), value.strip()
            if not sep or name not in SETTINGS:
                raise GameError(f"seat kind '{kind}': unknown setting '{item.strip()}' "
                                "(expected timeout=SECONDS, start=SECONDS or "
                                "fallback=random|forfeit)")
            settings[name] = value
        rest = rest[close + 1:]
    if not rest.startswith(":") or not rest[1:].strip():
        raise GameError(f"seat kind '{kind}': expected the command after 'cmd:' "
                        "(cmd:python my_bot.py)")
    try:
        argv = tuple(shlex.split(rest[1:]))
    except ValueError as exc:
        why = "a quote is opened and never closed (it takes in any commas after it)" \
            if "closing quotation" in str(exc) else str(exc)
        raise GameError(f"seat kind '{kind}': the command cannot be split into words: "
                        f"{why}") from None
    timeout = _seconds(kind, settings, "timeout", DEFAULT_TIMEOUT, 0.0)
    start = _seconds(kind, settings, "start", DEFAULT_START, -1.0)
    fallback = settings.get("fallback", "forfeit")
    if fallback not in FALLBACKS:
        raise GameError(f"seat kind '{kind}': fallback must be 'random' or 'forfeit', not "
                        f"'{fallback}'")
    return CommandSeat(kind, argv, timeout, start, fallback)


_SECONDS = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6})?")


def _seconds(kind: str, settings: dict[str, str], name: str, default: float,
             above: float) -> float:
    if name not in settings:
        return default
    text = settings[name]  # ASCII digits, with a point: as every number a flag takes
    value = float(text) if _SECONDS.fullmatch(text) else above
    if not above < value <= 3600:
        least = "above 0" if above == 0 else "from 0"
        raise GameError(f"seat kind '{kind}': {name} must be a number of seconds {least} "
                        f"(at most 3600), not '{settings[name]}'")
    return value


def split_seats(text: str) -> list[str]:
    """`--seats` text split into seat kinds at commas that are outside quotes and brackets,
    so that `cmd[timeout=2,fallback=random]:python bot.py --name "a, b"` stays one seat."""
    kinds: list[str] = []
    current: list[str] = []
    quote: str | None = None
    depth = 0
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            kinds.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    kinds.append("".join(current).strip())
    return kinds


class ExternalBot:
    """A seat played by a program (see the module's docstring for the protocol)."""

    name = "cmd"

    def __init__(self, spec: CommandSeat, seed: Any, seat: int):
        self.spec = spec
        self.seat = seat
        self.rng = random.Random(seed)  # the random player's, if it takes over
        self.decisions = 0
        self.problem: str | None = None  # what went wrong, once it has
        self.forfeited = False
        self.process: subprocess.Popen[str] | None = None
        # the program's lines, read ahead of the game a few at most (None: no more)
        self.lines: queue.Queue[str | None] = queue.Queue(KEPT_LINES)
        self.reader: threading.Thread | None = None
        self.started = False
        self.deaf: float | None = None  # the seconds a line to it was not read within
        self.stopped = threading.Event()  # the seat is done with the program
        self.heard = False  # whether it read the start message

    # ---------------------------------------------------------------- the program
    def _start(self, engine: Engine, state: GameState) -> None:
        self.started = True
        try:
            self.process = subprocess.Popen(
                list(self.spec.argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                text=True, encoding="utf-8", errors="replace", bufsize=1)
        except OSError as exc:
            raise GameError(f"seat {self.seat + 1}: cannot start '{shlex.join(self.spec.argv)}'"
                            f": {exc.strerror or exc}") from None
        self.reader = threading.Thread(target=self._read, args=(self.process,), daemon=True)
        self.reader.start()
        if self.process.stdin is not None:  # (written with a deadline: _send)
            os.set_blocking(self.process.stdin.fileno(), False)
        rules = engine.rules
        self.heard = self._send(
            {"type": "start", "protocol": PROTOCOL, "ruleset": rules.name,
             "title": rules.title, "players": state.n, "seat": self.seat + 1,
             "winner": rules.winner, "timeout": self.spec.timeout,
             "moves": {m.name: {"label": m.label, "params": list(m.params),
                                "kinds": list(m.kinds)} for m in rules.moves.values()}},
            timeout=self.spec.timeout + self.spec.start)

    def _read(self, process: subprocess.Popen[str]) -> None:
        """Pass the program's lines on, a few ahead at most; a line longer than MAX_LINE
        ends what is read of it (the game is told it as a line too long)."""
        assert process.stdout is not None
        while True:
            line = process.stdout.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE:
                self._pass_on(TOO_LONG)
                break
            self._pass_on(line)
        self._pass_on(None)

    def _pass_on(self, line: str | None) -> None:
        """Put a line read in the queue, waiting while it is full; once the seat has
        stopped, drop it (the reader reads on to the output's end, and ends)."""
        while not self.stopped.is_set():
            try:
                self.lines.put(line, timeout=0.1)
                return
            except queue.Full:
                continue

    def _send(self, message: dict[str, Any], timeout: float | None = None) -> bool:
        """Write one line within `timeout` seconds (the seat's own by default); False if
        the program is no longer listening, or has not read its input for that long."""
        process = self.process
        if process is None or process.stdin is None:
            return False
        data = (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8")
        deadline = time.monotonic() + (self.spec.timeout if timeout is None else timeout)
        try:
            fd = process.stdin.fileno()
            while data:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [fd], [], left)[1]:
                    self.deaf = self.spec.timeout if timeout is None else timeout
                    return False
                try:
                    data = data[os.write(fd, data):]
                except BlockingIOError:
                    continue
            return True
        except (OSError, ValueError):
            return False

    def _answer(self, timeout: float) -> str:
        """The program's next line; GameError saying why there is none."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise GameError(f"no answer within {timeout:g} s") from None
        if line is None:
            raise GameError(self._ended())
        if line is TOO_LONG:
            raise GameError(f"the program wrote a line of more than {MAX_LINE:,} characters")
        return line

    def _ended(self) -> str:
        """Why the program stopped listening: it ended (with its exit code), or it closed its
        input."""
        if self.deaf is not None:
            return f"the program did not read its input within {self.deaf:g} s"
        code = None
        if self.process is not None:
            try:
                code = self.process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                return "the program is no longer reading its input"
        return "the program ended without answering" + (
            f" (exit code {code})" if code is not None else "")

    def stop(self) -> None:
        """End the program: close its input, then kill it if it does not exit at once."""
        process, self.process = self.process, None
        if process is None:
            return
        self.stopped.set()
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self.reader is not None:  # it stops at the end of the program's output
            self.reader.join(timeout=1.0)
        if process.stdout is not None and (self.reader is None or not self.reader.is_alive()):
            process.stdout.close()

    def finish(self, engine: Engine, state: GameState) -> None:
        """Tell the program how the game ended, and stop it."""
        if self.process is not None:
            results = {k: v for k, v in engine.results(state).items() if k != "seed"}
            self._send({"type": "end", "results": results}, timeout=1.0)
        self.stop()

    # ------------------------------------------------------------- decisions
    def choose(self, engine: Engine, state: GameState, legal: list[Action]) -> Action:
        if self.problem is not None:  # a random player has taken over
            return self._random(engine, legal)
        if not self.started:
            self._start(engine, state)
        entries, actions = describe_legal(engine, state, self.seat, legal)
        self.decisions += 1
        timeout = self.spec.timeout + (self.spec.start if self.decisions == 1 else 0.0)
        try:
            if not self.heard or not self._send({
                    "type": "decide", "decision": self.decisions,
                    "view": player_view(engine.rules, state, self.seat), "legal": entries},
                    timeout):  # (its first, with the time it may take to start)
                raise GameError(self._ended())
            return read_choice(self._answer(timeout), entries, actions)
        except GameError as exc:
            return self._give_up(engine, legal, str(exc))

    def _give_up(self, engine: Engine, legal: list[Action], reason: str) -> Action:
        self.problem = reason
        self.stop()
        who = f"seat {self.seat + 1} ({self.spec.kind})"
        if self.spec.fallback == "random":
            report(f"{who}: {reason}; a random player takes the seat for the rest of the game")
            return self._random(engine, legal)
        report(f"{who}: {reason}; the seat forfeits the game")
        self.forfeited = True
        raise Forfeit(self.seat, reason)

    def _random(self, engine: Engine, legal: list[Action]) -> Action:
        action = legal[int(self.rng.random() * len(legal))]
        return fill(action, self.rng) if engine.open_moves else action


def report(message: str) -> None:
    """A line on stderr about a seat's program (a bad answer, what happens next)."""
    print(message, file=sys.stderr, flush=True)


def describe_legal(engine: Engine, state: GameState, seat: int, legal: list[Action],
                   ) -> tuple[list[dict[str, Any]], list[Action]]:
    """The legal actions as `seat` may be told them, sorted by move and description, and the
    engine's actions in the same order."""
    order = {name: i for i, name in enumerate(engine.moves)}
    told = [(order.get(a[0], len(order)), engine.words.describe(a, state, seat), a) for a in legal]
    told.sort(key=lambda t: (t[0], t[1]))
    entries = []
    for index, (_, text, action) in enumerate(told):
        entry: dict[str, Any] = {"index": index, "move": action[0], "text": text,
                                 "args": args_of(engine, state, seat, action)}
        texts = [{"letters": a.alphabet, "shortest": a.shortest, "longest": a.longest}
                 for a in action[1:] if isinstance(a, Words)]
        if texts:
            entry["fill"] = texts
        entries.append(entry)
    return entries, [a for _, _, a in told]


def args_of(engine: Engine, state: GameState, seat: int, action: Action) -> list[Any]:
    """An action's arguments in the seat's words: card names (null for one it does not know),
    seats from 1, rank, suit and colour names, numbers; a text to write as null."""
    move = engine.moves.get(action[0])
    if move is None:
        return []
    known = state.known
    names = engine.rules.cards.names

    def card(value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            # the cards it knows first: where an unknown one lay among them would tell
            # which card it is (by the deck's order of a hand's cards), as in the words
            items = [card(v) for v in value]
            return [v for v in items if whole(v)] + [v for v in items if not whole(v)]
        return names[value] if known[value] >> seat & 1 else None

    def whole(value: Any) -> bool:  # (a name, or a list of names with none unknown)
        return all(map(whole, value)) if isinstance(value, list) else value is not None

    out: list[Any] = []
    for kind, cards, value in zip(move.kinds, move.names_cards, action[1:]):
        if isinstance(value, Words):
            out.append(None)
        elif cards:
            out.append(card(value))
        elif kind in ("player", "rank", "suit", "colour"):
            out.append(engine.words.value_text(kind, value))
        else:
            out.append(value)
    return out


def read_choice(line: str, entries: list[dict[str, Any]], actions: list[Action]) -> Action:
    """The action an answer line chooses; GameError saying what is wrong with it."""
    shown = line.strip()
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    try:
        answer = json.loads(line)
    except json.JSONDecodeError:
        raise GameError(f"the answer is not JSON: '{shown}'") from None
    if not isinstance(answer, dict):
        raise GameError(f"the answer is not a JSON object: '{shown}'")
    index = answer.get("index")
    if type(index) is not int or not 0 <= index < len(actions):
        raise GameError(f"the answer {shown} needs \"index\", a whole number from 0 to "
                        f"{len(actions) - 1}")
    action = actions[index]
    texts = entries[index].get("fill", [])
    given = answer.get("fill", [])
    if not texts:
        return action
    if not isinstance(given, list) or len(given) != len(texts):
        raise GameError(f"action {index} ({entries[index]['text']}) needs \"fill\": a list of "
                        f"{len(texts)} text{'s' if len(texts) != 1 else ''}")
    filled, values = [action[0]], iter(given)
    for arg in action[1:]:
        if isinstance(arg, Words):
            value = next(values)
            problem = arg.problem(value)
            if problem is not None:
                raise GameError(f"action {index}: the text {json.dumps(value)}: {problem}")
            filled.append(value)
        else:
            filled.append(arg)
    return tuple(filled)


def make_external(kind: str, seed: Any, seat: int) -> ExternalBot:
    """The bot of a `cmd:` seat kind (the program starts at its first decision)."""
    return ExternalBot(parse(kind), seed, seat)


def forfeit(engine: Engine, state: GameState, seat: int) -> None:
    """End the game because `seat` forfeits it: it is not among the winners, which are the
    other seats with the best total so far (by the ruleset's `winner`)."""
    others = [p for p in range(state.n) if p != seat]
    if others:
        pick = min if engine.rules.winner == "lowest" else max
        best = pick(state.totals[p] for p in others)
        state.winners = [p for p in others if state.totals[p] == best]
    else:
        state.winners = []
    state.over = True
    if state.log is not None:
        state.log.append({"event": "forfeit", "seat": seat + 1})
        state.log.append({"event": "game_end", "totals": list(state.totals),
                          "winners": [w + 1 for w in state.winners]})
