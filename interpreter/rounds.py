"""Rounds: the deal of a new one, its end (scoring, the round's account, triggers after
it), and the game's end (winners, or a game cut off by its bound on actions).

Called by the turn flow (interpreter/flow.py), which begins each round's first phase after
`deal` and the next round after `score`. Every rule the ruleset gives for them is called
through the flow's `call`, so a failure points at the rule text.
"""

from __future__ import annotations

from typing import Any

from cardrules.errors import RuleRuntimeError
from cardrules.model import Action

from . import sight
from .interface import Flow
from .runtime import MOST_VALUE, SIGNAL_GAME, next_seat
from .state import GameState, Seen
from .view import house_view, public_variables, seen_apart, seen_values, table_cards


def game_variables(F: Flow, s: GameState) -> None:
    """The game's own variables and the players', as a game starts."""
    for var in F.rules.variables:
        if var.scope == "game":
            s.vars[var.name] = F.call(var.initial, s)
        elif var.scope == "player":
            s.pvars[var.name] = [F.call(var.initial, s) for _ in range(s.n)]
            if s.house >= 0:
                _house_value(F, var.initial, s, var.name)


def _house_value(F: Flow, initial: Any, s: GameState, name: str) -> None:
    """The house's starting value of a player variable, at its player number (the places
    between, of seats this table does not have, unused)."""
    s.pvars[name] += [None] * (s.house - s.n) + [F.call(initial, s)]


def deal(F: Flow, s: GameState) -> None:
    """A new round, up to its first phase: the deal passes on, every card gathers (but those
    a zone keeps), the round's variables start afresh, and the setup runs."""
    rules = F.rules
    s.round += 1
    s.dealer = next_seat(s, s.dealer, rules.direction)
    s.first = next_seat(s, s.dealer, rules.direction)
    if F.kept and s.round > 1:
        _gather(F, s)
    else:
        for zone in s.zones:
            zone.clear()
        home = s.zones[rules.home_zone]
        home.extend(range(s.n_cards))
        s.where[:] = [rules.home_zone] * s.n_cards
        s.face_up[:] = [False] * s.n_cards
        s.by[:] = [None] * s.n_cards
        if s.knowing:
            s.known[:] = [0] * s.n_cards
            sight.forget_all(s, len(s.zones))
    s.stop_before = None
    s.next_turn = None
    s.direction = rules.direction  # (a round turned round by its rules starts as ever)
    s.signal = 0
    s.seen = Seen()  # (a position of another round is never met again)
    for var in rules.variables:
        if var.scope == "round":
            s.vars[var.name] = F.call(var.initial, s)
        elif var.scope == "player_round":
            s.pvars[var.name] = [F.call(var.initial, s) for _ in range(s.n)]
            if s.house >= 0:
                _house_value(F, var.initial, s, var.name)
    if s.log is not None:
        s.log.append({"event": "round", "round": s.round, "dealer": s.dealer + 1})
    s.current = s.first
    F.call(rules.setup, s, s.first)
    if rules.after_setup is not None:
        F.call(rules.after_setup, s, s.first)
    if rules.round_first is not None:
        s.first = a_seat(F, F.call(rules.round_first, s, s.first), s, "round.first")
    s.version += 1
    s.legal_cache = None  # the first decision is listed when asked for


def _gather(F: Flow, s: GameState) -> None:
    """A new round where some zones keep their cards (`keep: true`): every other card
    returns to the deck's zone, face down and unknown, in card order, on top of what that
    zone keeps; kept cards stay where and as they are."""
    kept = F.kept
    home = F.rules.home_zone
    for z, zone in enumerate(s.zones):
        if z not in kept:
            zone.clear()
    back = [c for c in range(s.n_cards) if s.where[c] not in kept]
    s.zones[home].extend(back)
    for c in back:
        s.where[c], s.face_up[c], s.by[c] = home, False, None
    if s.knowing:
        for c in back:
            s.known[c] = 0
        sight.forget_cards(s, back)


def a_seat(F: Flow, p: int, s: GameState, what: str) -> int:
    """A player who is to take a turn: a seat, never the house."""
    if p >= s.n:
        raise RuleRuntimeError(f"{F.rules.path}: {what} gives the house, which is not "
                               "a seat and never takes a turn")
    return p


def score(F: Flow, s: GameState) -> bool:
    """The round ends: its end rules, the scores, the account in the log, the triggers after
    it; then, if that was the last, the game's end. Whether the game is over."""
    rules = F.rules
    F.call(rules.round_end, s, s.current)
    scores = round_scores(F, s)
    for p in range(s.n):
        s.totals[p] += scores[p]
    s.round_scores.append(scores)
    house_parts: tuple[int, ...] = ()
    if s.house >= 0:
        house_parts = tuple(F.call(rules.score, s, s.house))
        house_score = sum(house_parts)
        s.house_total += house_score
        s.house_scores.append(house_score)
    _bounded(F, [*s.totals, s.house_total])
    scored, won, active = list(s.totals), s.winners, list(s.active)
    parts = _score_parts(F, s, "player") if s.log is not None else None
    team_parts = _score_parts(F, s, "team") if s.log is not None else None
    if rules.after_round is not None:
        F.call(rules.after_round, s, s.current)
    s.round_totals.append(list(s.totals))
    over = bool(s.signal & SIGNAL_GAME) or s.round >= s.rounds_total \
        or sum(s.active) == 0 or (rules.until is not None and F.call(rules.until, s))
    # A match whose `until` is not met by its last round stops at its limit of rounds, which
    # its end tells (asked only where a log is kept: a playout reads no words)
    limit = over and s.log is not None and rules.until is not None \
        and not s.signal & SIGNAL_GAME and sum(s.active) > 0 and s.round >= s.rounds_total \
        and not F.call(rules.until, s)
    if s.log is not None:  # the public log: player variables as the views show them
        zones = table_cards(rules, s, public=True)
        event = {"event": "round_end", "round": s.round, "scores": scores,
                 "totals": list(s.totals), "zones": zones,
                 "player_variables": public_variables(rules, s, over, round_over=True)}
        # each seat's own (effects.SEATS_OWN): what it can tell of the table beyond that
        # (its own hand, say), for its account, and the variables as its view shows them
        # now, for the news of the action that ended the round (view.with_values)
        event["told"] = [{"zones": seen_apart(zones, table_cards(rules, s, public=True, seat=p)),
                          "values": [[name, owner, value] for (name, owner), value
                                     in seen_values(rules, s, p).items()]}
                         for p in range(s.n)]
        if parts:
            event["score_parts"] = parts
        if team_parts:
            event["team_score_parts"] = team_parts
        if s.house >= 0:
            house = _house_account(F, s, over)
            if parts:  # (each entry apart, as the seats' are)
                house["score_parts"] = dict(zip(rules.score_names, house_parts))
            event["house"] = house
        event.update(_round_account(s, scored, won, active))
        s.log.append(event)
    if F.watch_round is not None:
        F.watch_round(s)
    s.version += 1
    if over:
        finish(F, s, limit)
    return over


def _bounded(F: Flow, numbers: list[int]) -> None:
    """Refuse a match's total beyond MOST_VALUE (a round's score is bounded where the
    scoring works it out; the rounds' scores may add up beyond it)."""
    if any(not -MOST_VALUE <= x <= MOST_VALUE for x in numbers):
        raise RuleRuntimeError(f"{F.rules.path}: a match's total passes {MOST_VALUE:,} "
                               "(2^53 - 1) either side of 0, the most a game holds: its "
                               "rounds' scores add up beyond it")


def round_scores(F: Flow, s: GameState) -> list[int]:
    """Each seat's score for the round; by team, the team's (worked out for its first
    seat) counts for each member."""
    rules = F.rules
    if rules.score_by == "team":
        team = [sum(F.call(rules.score, s, t)) for t in range(rules.teams)]
        return [team[p % rules.teams] for p in range(s.n)]
    if rules.score_by == "table":  # one score, the table's, worked out for its first seat in
        first = next((p for p in range(s.n) if s.active[p]), 0)
        return [sum(F.call(rules.score, s, first))] * s.n
    return [sum(F.call(rules.score, s, p)) if s.active[p] else 0 for p in range(s.n)]


def _house_account(F: Flow, s: GameState, over: bool) -> dict[str, Any]:
    """The house's part of a round's account: its score and total, and its variables as
    every seat may see them."""
    seen = house_view(F.rules, s, None, over, round_over=True)
    return {"score": s.house_scores[-1], "total": s.house_total,
            "variables": seen["variables"]}


def _round_account(s: GameState, scored: list[int], won: list[int] | None,
                   active: list[bool]) -> dict[str, Any]:
    """What the after-round rules changed, for the round's account: totals, winners,
    seats put out."""
    out: dict[str, Any] = {}
    after: dict[str, Any] = {}
    if s.totals != scored:
        after["totals"] = {str(p + 1): [scored[p], s.totals[p]] for p in range(s.n)
                           if s.totals[p] != scored[p]}
    if s.winners is not None and s.winners != won:
        after["winners"] = [w + 1 for w in s.winners]
    if s.active != active:
        after["out"] = [p + 1 for p in range(s.n) if active[p] and not s.active[p]]
    if after:
        out["after_round"] = after
    return out


def _score_parts(F: Flow, s: GameState, by: str) -> dict[str, list[int]] | None:
    """Each score entry apart, for the round's account, where there are several and the
    ruleset scores `by` "player" (per seat) or "team" (per team: team t worked out for its
    first seat, t)."""
    rules = F.rules
    if len(rules.score_names) < 2 or rules.score_by != by:
        return None
    if by == "team":
        each = [F.call(rules.score, s, t) for t in range(rules.teams)]
    else:
        each = [F.call(rules.score, s, p) if s.active[p] else (0,) * len(rules.score_names)
                for p in range(s.n)]
    return {name: [e[i] for e in each] for i, name in enumerate(rules.score_names)}


def finish(F: Flow, s: GameState, limit: bool = False) -> None:
    """The game is over: the winners, by `winner` where no rule named them (`limit`: a
    match stopped at its limit of rounds before its `until` was met, which its end says)."""
    rules = F.rules
    s.over = True
    if s.winners is None and rules.winner == "none":
        s.winners = []  # only `win` makes winners: the game ended without one
    if s.winners is None:
        seats = [p for p in range(s.n) if s.active[p]] or list(range(s.n))
        pick = min if rules.winner == "lowest" else max
        totals = [s.totals[p] for p in seats]
        if s.house >= 0:  # the house is among those with the best total, on a tie too
            totals.append(s.house_total)
        best = pick(totals)
        s.winners = [p for p in seats if s.totals[p] == best]
        s.house_won = s.house >= 0 and s.house_total == best
    if s.log is not None:
        event: dict[str, Any] = {"event": "game_end", "totals": list(s.totals),
                                 "winners": [w + 1 for w in s.winners]}
        if s.house >= 0:
            event["house"] = {"total": s.house_total, "winner": s.house_won}
        if limit:
            event["limit"] = s.rounds_total
        s.log.append(event)


def cut_off(F: Flow, s: GameState) -> list[Action]:
    """The game reached the ruleset's bound on actions: it ends here, with no winner."""
    s.over, s.cut_off, s.winners = True, True, []
    s.window = []
    s.legal_cache = None
    if s.log is not None:
        s.log.append({"event": "game_end", "totals": list(s.totals), "winners": [],
                      "cut_off": cut_off_note(F.rules.max_actions)})
    return []


def cut_off_note(most: int) -> str:
    """What a game cut off by its bound on actions says about its end."""
    return (f"no winner: the game reached its bound of {most:,} actions (max_actions) "
            "before it ended")
