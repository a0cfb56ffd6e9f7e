"""The interface generated code is handed (`F`): one ruleset's turn flow as data (its facts
known before any game, its listing functions and triggers) and what the flow asks of the game
around it (calling rules with their failures located, logging an action in each seat's words).

The turn flow's functions (interpreter/flow.py) and the rounds' (interpreter/rounds.py) take it
as their first argument; neither is imported here, so both can.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from cardrules.errors import CardrulesError, RuleFault, RuleRuntimeError
from cardrules.model import Action, FlowFacts, Ruleset

from .state import GameState
from .words import Words, tell

# What each generated function of a ruleset does, for a fault's message.
_ROLES = {"setup": "in the round's setup", "round_end": "at the round's end",
          "after_setup": "in a trigger after the setup", "after_move": "in a trigger after a move",
          "after_turn": "in a trigger after a turn", "after_round": "in a trigger after a round",
          "score": "in the scoring", "evaluate": "in the evaluation", "until": "in `until`"}

class Flow:
    """One ruleset's turn flow: its facts known before any game, its listing functions and
    triggers, and what the flow asks of the game around it. The interface generated code is
    handed (`F`)."""

    def __init__(self, rules: Ruleset, words: Words) -> None:
        self.rules = rules
        self.words = words
        assert rules.flow is not None  # (the compiler always gives them)
        self.facts: FlowFacts = rules.flow
        # each step's legal actions: fn(S, me) -> list of actions
        self.legal = tuple(tuple(step.legal for step in phase.steps) for phase in rules.phases)
        # the triggers, fn(S, me), or None (called only where the facts say there are some)
        self.after_move: Any = rules.after_move
        self.after_turn: Any = rules.after_turn
        self.before_turn: Any = rules.before_turn
        # zone indices whose cards stay from one round to the next (`keep: true`)
        self.kept = frozenset(z for zone in rules.zones if zone.keep
                              for seat in range(rules.owners if zone.owned else 1)
                              for z in zone.instances(seat))
        # Set by the engine: play one action (a forced one) and return the next legal ones;
        # tell of each round just scored (None: nobody listens).
        self.play: Callable[[GameState, Action], list[Action]] = _unset
        self.watch_round: Callable[[GameState], None] | None = None
        self._quiet: Flow | None = None

    def quiet(self) -> Flow:
        """This flow, telling nobody of the rounds it scores: for playing a move ahead on a
        copy of a game (made once)."""
        if self.watch_round is None:
            return self
        if self._quiet is None:
            self._quiet = copy.copy(self)
            self._quiet.watch_round = None
        return self._quiet

    # ------------------------------------------------------------ calling rules
    def call(self, fn: Any, s: GameState, *args: Any) -> Any:
        """Call a rule function outside a move (setup, scoring...), locating its failures."""
        try:
            return fn(s, *args)
        except CardrulesError as exc:
            if not isinstance(exc, RuleFault):
                raise
            raise self.fault(exc, _role(fn)) from None
        except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
            raise self.fault(exc, _role(fn)) from exc

    def listed(self, legal: Any, s: GameState, seat: int, what: str) -> list[Action]:
        """The legal actions `legal` lists for `seat`, its failures located (a `when` or a
        `choose` domain that cannot be worked out)."""
        try:
            return legal(s, seat)  # type: ignore[no-any-return]
        except CardrulesError as exc:
            if not isinstance(exc, RuleFault):
                raise
            raise self.fault(exc, f"listing the moves of {what} (seat {seat + 1})") from None
        except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
            raise self.fault(exc, f"listing the moves of {what} (seat {seat + 1})") from exc

    def fault(self, exc: BaseException, context: str) -> RuleRuntimeError:
        """`exc`, raised by generated code, as a located RuleRuntimeError."""
        diagnostic = self.rules.locate(exc, context)
        return RuleRuntimeError(diagnostic.message, diagnostic)

    def log_action(self, s: GameState, me: int, action: Action) -> None:
        """Log an action before it is applied, in the words the table and each seat read
        of it (interpreter/words.py)."""
        assert s.log is not None
        told = tell(self.words, s, me, action)
        s.log.append({"event": "action", "seat": me + 1, "move": action[0],
                      "action": told.public, "told": list(told.seats),
                      "named": [list(cards) for cards in told.named]})


def _unset(s: GameState, action: Action) -> list[Action]:  # pragma: no cover - set at once
    raise AssertionError("the engine sets Flow.play")


def _role(fn: Any) -> str:
    name = getattr(fn, "__name__", "")
    if name.startswith("init_"):
        return f"the initial value of '{name[5:]}'"
    if name.startswith(("skip_", "on_skip_")):
        return "when a turn is missed"
    return _ROLES.get(name, "in a rule")
