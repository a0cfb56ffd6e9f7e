"""What a position is worth to each seat, as the search bots weigh it: a standing from the
totals and the round so far (the ruleset's own `scoring.evaluate`, else its scoring as it
stands), and a reward in [0, 1] per seat from it, or from the result at the game's end.
"""

from __future__ import annotations

from cardrules.errors import RuleRuntimeError

from ..engine import Engine
from ..state import GameState

# A shared score (`by: table`) as a reward in [0, 1]: 0.5 + 0.5 v / (|v| + SHARED_SCALE),
# so that a score of SHARED_SCALE points is three quarters of the way.
SHARED_SCALE = 10.0


def seat_values(engine: Engine, state: GameState, in_round: bool = True) -> list[float]:
    """Each seat's standing, higher is better: its total so far plus (with `in_round`) its
    round so far, by the ruleset's `scoring.evaluate` if it has one, else by its own scoring
    as it stands (when that can be computed mid-round); negated for 'lowest'.

    Just after a round has ended, `in_round=False` leaves out the fresh deal of the next
    round, which nobody has played yet and which would only add noise."""
    rules = engine.rules
    sign = -1.0 if rules.winner == "lowest" else 1.0
    values = []
    for p in range(state.n):
        value = float(state.totals[p])
        if in_round and not state.over:
            if rules.evaluate is not None:  # the ruleset's own estimate of the round so far
                value += float(engine.estimate(state, p))
            else:
                value += _score_so_far(engine, state, p)
        values.append(sign * value)
    return values


def _score_so_far(engine: Engine, state: GameState, p: int) -> float:
    """A seat's round score by the round's own scoring, as it stands; 0 where that scoring
    cannot be worked out before the round's end (a rule that needs the round's last card,
    say): the scoring was written for the end of the round, not for the middle."""
    try:
        return float(engine.round_score(state, p))
    except RuleRuntimeError:
        return 0.0


def rewards(engine: Engine, state: GameState, in_round: bool = True) -> list[float]:
    """A reward in [0, 1] per seat. At the game's end: 0.8/k to each of k winners, 0 to the
    others, plus 0.2 times the standing. Otherwise the standing (seat_values): 1/k to each
    of the k best, 0 to the worst, the others linearly between (below 1/2, so a clear best
    is worth more)."""
    n = state.n
    if engine.rules.score_by == "table":  # a shared score: no seat gains at another's cost
        value = seat_values(engine, state, in_round)[0]
        return [0.5 + 0.5 * value / (abs(value) + SHARED_SCALE)] * n
    if state.over and state.winners:
        # Mostly the result, plus a little for the margin (a near miss beats a rout).
        share = 1.0 / len(state.winners)
        margin = _standing(engine, state, in_round)
        return [(0.8 * share if p in state.winners else 0.0) + 0.2 * margin[p]
                for p in range(n)]
    return _standing(engine, state, in_round)


def _standing(engine: Engine, state: GameState, in_round: bool = True) -> list[float]:
    n = state.n
    seats = [p for p in range(n) if state.active[p]] or list(range(n))
    values = seat_values(engine, state, in_round)
    best = max(values[p] for p in seats)
    worst = min(values[p] for p in seats)
    if best == worst:
        return [1.0 / len(seats) if p in seats else 0.0 for p in range(n)]
    k = sum(1 for p in seats if values[p] == best)
    out = []
    for p in range(n):
        if p not in seats:
            out.append(0.0)
        elif values[p] == best:
            out.append(1.0 / k)
        else:
            out.append(0.5 * (values[p] - worst) / (best - worst))
    return out
