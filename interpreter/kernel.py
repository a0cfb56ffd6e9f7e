"""The playout kernel: the same rules, compiled a second time for playing many games fast.

    kernel = Kernel(load_ruleset("golf6"))
    state = kernel.new_game(players=4, seed=7)
    legal = kernel.legal_actions(state)
    while legal:
        legal = kernel.play(state, random.choice(legal))
    kernel.results(state)

A Kernel is an Engine (the same questions, the same answers) whose rules are the ruleset's
kernel compilation (`Ruleset.kernel`): the one generator, the one turn flow and the one set of
card rules (interpreter/flow.py, interpreter/effects.py), specialised with other facts. Its
games keep no event log, no cache of legal actions and no partial knowledge, and who knows
each card only where a rule asks (`knows`); its `play` trusts its caller to hand back one of
the actions it listed (a kernel serves bots, simulations and searches, never a person). For
the same seed and the same actions, a kernel's game and the engine's are the same game:
tests/test_kernel.py plays every shipped ruleset both ways, action by action.

Every whole action a game of a kernel meets has a small integer (`id_of`, `action_of`),
fixed by the order actions are first met: the same ids for the same actions in one kernel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardrules.errors import CardrulesError
from cardrules.model import Action, Ruleset

from . import flow, rounds
from .engine import Engine
from .state import GameState

_KEPT = 16  # kernels kept for the engines that asked (kernel_for)
_KERNELS: dict[int, tuple[Ruleset, Kernel]] = {}


def kernel_for(engine: Engine) -> Kernel:
    """The kernel of an engine's rules (made once per Ruleset, kept for the last few): what
    a search plays its imagined games on. A kernel is its own."""
    if isinstance(engine, Kernel):
        return engine
    found = _KERNELS.get(id(engine.rules))
    if found is None or found[0] is not engine.rules:
        if len(_KERNELS) >= _KEPT:
            _KERNELS.pop(next(iter(_KERNELS)))
        found = _KERNELS[id(engine.rules)] = (engine.rules, Kernel(engine.rules))
    return found[1]


class Kernel(Engine):
    """Plays games of one ruleset on its kernel compilation."""

    sight = False  # its games keep nothing partly known

    def __init__(self, ruleset: Ruleset):
        """`ruleset`: the ruleset as loaded (its kernel is compiled here, once per Ruleset)."""
        if ruleset.kernel is None:
            raise ValueError(f"{ruleset.name}: these rules are a kernel's already")
        self.engine_rules = ruleset
        self._ids: dict[Action, int] = {}
        self._actions: list[Action] = []
        super().__init__(ruleset.kernel())

    def unwatched(self) -> Kernel:
        return self

    def adopt(self, state: GameState, until_round_end: bool = False) -> GameState:
        """A game of the engine (a search's sample of it, say), made one of this kernel's:
        from here on it keeps what this kernel keeps; with `until_round_end`, it is played no
        further than its round's end (the next round is not dealt). Returns the same state."""
        state.until_round_end = until_round_end
        state.knowing = self.rules.knowing
        state.sight = False
        state.log = None
        state.legal_cache = None
        return state

    # ------------------------------------------------------------------ query
    # The actions the seat to move may take: a kernel keeps no cache, so they are the turn
    # flow's listing itself (no call in between, on the playouts' hottest path).
    legal_actions = Engine.listed

    def id_of(self, action: Action) -> int:
        """The action's integer in this kernel (given the first time it is asked for)."""
        found = self._ids.get(action)
        if found is None:
            found = self._ids[action] = len(self._actions)
            self._actions.append(action)
        return found

    def action_of(self, number: int) -> Action:
        """The action an integer of `id_of` stands for."""
        return self._actions[number]

    # ------------------------------------------------------------------ apply
    def play_randomly(self, state: GameState, uniforms: list[Callable[[], float]]) -> None:
        """Play `state` to its end, each seat choosing uniformly among the legal actions with
        its own stream (`uniforms[seat]()`, a float in [0, 1)): what `play` does action by
        action, in one loop (a ruleset without reaction windows or open moves)."""
        F, located, most = self.flow, self._located, self.rules.max_actions
        handlers: dict[str, Any] = {m.name: m.handle for m in self.moves.values()}
        legal = self.legal_actions(state)
        action: Action = ()
        me = 0
        try:
            while legal:
                me = state.current
                action = legal[int(uniforms[me]() * len(legal))]
                legal = handlers[action[0]](state, me, action, F, True)
                if state.actions >= most and not state.over:
                    legal = rounds.cut_off(F, state)
        except CardrulesError as exc:
            raise located(exc, action, me) from None
        except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
            raise located(exc, action, me) from exc

    def _make_play(self) -> Callable[..., list[Action]]:
        """`play(state, action) -> the next legal actions`, for an action this kernel listed:
        the move's kernel handler, and nothing else on the common path."""
        if not self.compiled:
            return super()._make_play()
        F, located, most = self.flow, self._located, self.rules.max_actions
        handlers: dict[str, Any] = {m.name: m.handle for m in self.moves.values()}
        react, cut_off = flow.react, rounds.cut_off

        def play(state: GameState, action: Action, listing: bool = True) -> list[Action]:
            if state.window:
                out: list[Action] = react(F, state, action, listing, located)
            else:
                me = state.current
                try:
                    out = handlers[action[0]](state, me, action, F, listing)
                except CardrulesError as exc:
                    raise located(exc, action, me) from None
                except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
                    raise located(exc, action, me) from exc
            if state.actions >= most and not state.over:
                return cut_off(F, state)
            return out

        return play
