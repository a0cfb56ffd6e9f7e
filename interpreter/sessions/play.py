"""Playing whole games: a loop that asks each seat's bot for an action until the end."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Engine
from ..kernel import Kernel
from ..players.bots import Bot, RandomBot, make_bot
from ..players.external import Forfeit, forfeit
from ..state import GameState


def play(engine: Engine, state: GameState, bots: Sequence[Bot]) -> GameState:
    """Play `state` to its end with one bot per seat; return the finished state. A seat
    whose program forfeits (interpreter/players/external.py) ends the game there, lost."""
    try:
        return _play(engine, state, bots)
    except Forfeit as exc:
        forfeit(engine, state, exc.seat)
        return state
    finally:
        finish(engine, state, bots)


def finish(engine: Engine, state: GameState, bots: Sequence[Bot | None]) -> None:
    """Stop each bot that runs a program, telling it how the game ended if it has (a game
    left unfinished, by a quit or a fault, only stops them)."""
    for bot in bots:
        done = getattr(bot, "finish" if state.over else "stop", None)
        if done is not None:
            done(engine, state) if state.over else done()


def _play(engine: Engine, state: GameState, bots: Sequence[Bot]) -> GameState:
    step = engine.play
    legal = engine.legal_actions(state)
    if engine.rules.reactions is None and not engine.open_moves \
            and all(type(bot) is RandomBot for bot in bots):
        # Simulations of random seats spend most of their time here: the same choices as
        # RandomBot.choose, from the same streams, without a call per action.
        randoms = [bot.uniform for bot in bots]  # type: ignore[attr-defined]
        if isinstance(engine, Kernel) and engine.compiled:
            engine.play_randomly(state, randoms)
            return state
        while legal:
            legal = step(state, legal[int(randoms[state.current]() * len(legal))])
        return state
    choosers = [bot.choose for bot in bots]
    while legal:
        seat = state.window[0] if state.window else state.current  # who decides now
        legal = step(state, choosers[seat](engine, state, legal))
    return state


def play_game(engine: Engine, players: int | None = None, seed: int = 0,
              seats: Sequence[str] | None = None, log: bool = False) -> GameState:
    """A new game played to its end by bots (`seats` names each seat's kind; random)."""
    state = engine.new_game(players, seed, log=log)
    kinds = list(seats) if seats else ["random"] * state.n
    bots = [make_bot(kind, seed, seat) for seat, kind in enumerate(kinds)]
    return play(engine, state, bots)
