"""The turn flow, written once: what follows a move, how a turn, a phase and a round end.

The engine plays every action through these functions. The code generator specialises the
common ones (`@inlinable`: a move made, the next step, a turn's end) for each move, as it
specialises the card rules (interpreter/runtime.py, dsl/inline.py): what it knows of the
move before any game (its step, where it leads, the phase's way of passing turns, which
triggers the ruleset has: `FlowFacts`, and each step's listing function) is put in, and the
branches it decides are dropped. What is rare (a rule's signal, a phase's or a round's end,
turns missed, reaction windows, forced moves) stays a call to the functions below, which the
engine's own path calls as well. One definition, two uses: the compiled flow and the
interpreted one cannot drift apart.

Generated code meets the flow through one declared interface: the `Flow` it is handed (`F`,
interpreter/interface.py: the ruleset's facts, its listing functions, its triggers) and the
functions of `EXPORTED`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from cardrules.errors import CardrulesError, NoLegalMove, RuleRuntimeError
from cardrules.model import PASS, Action

from . import domains, rounds
from .interface import Flow
from .positions import position, shows_a_card
from .runtime import (
    SIGNAL_GAME,
    SIGNAL_PHASE,
    SIGNAL_ROUND,
    SIGNAL_TURN,
    Fact,
    inlinable,
    next_seat,
    others,
)
from .state import GameState

INLINABLE: dict[str, Callable[..., Any]] = {}  # filled by @inlinable below

ENDS_ROUND = SIGNAL_ROUND | SIGNAL_GAME


# ------------------------------------------------------------- the common path
@inlinable
def move_made(F: Flow, S: GameState, me: int, listing: bool, phase: int, step: int,
              then: int | None) -> list[Action]:
    """What follows a move of `step` of `phase` (`then`: the step its `then` names, or
    None): its triggers, then a rule's signal, the step again, the next step or the turn's
    end, and the next decision's legal actions."""
    caching: Fact = F.facts.caching
    if caching:
        S.version += 1
    S.actions += 1
    triggered: Fact = F.facts.after_move
    if triggered:
        F.after_move(S, me)
    if S.signal:
        ending: Fact = F.facts.ends_turns
        if ending and S.signal == SIGNAL_TURN:  # `end turn` alone: as after the last step
            S.signal = 0
            return turn_over(F, S, me, listing, phase)
        return signalled(F, S, me, listing)
    if then is not None:
        return next_step(F, S, me, listing, phase, then)
    if F.facts.repeat[phase][step] > 1 and S.reps > 1:
        S.reps -= 1
        return decision(F, S, me, listing, phase, step)
    if step + 1 < len(F.facts.repeat[phase]):
        return next_step(F, S, me, listing, phase, step + 1)
    return turn_over(F, S, me, listing, phase)


@inlinable
def next_step(F: Flow, S: GameState, me: int, listing: bool, phase: int,
              step: int) -> list[Action]:
    """Step `step` of `phase` begins: its count of repeats, and its legal actions."""
    S.step = step
    S.reps = F.facts.repeat[phase][step]
    return decision(F, S, me, listing, phase, step)


@inlinable
def decision(F: Flow, S: GameState, me: int, listing: bool, phase: int,
             step: int) -> list[Action]:
    """The legal actions of the seat to play in step `step` of `phase`, kept in the state
    (a reaction window to `me`'s action first, where the ruleset has them: `tail`); a single
    one of an automatic step is played at once (`forced`), as `decide` does."""
    if F.facts.reactions:
        return tail(F, S, me, listing)
    caching: Fact = F.facts.caching
    if not listing:
        if caching:
            S.legal_cache = None
        return []
    out = F.legal[phase][step](S, S.current)
    forbid: Fact = F.facts.forbid_repetition
    if forbid:
        out = unrepeated(F, S, out)
    if not out:
        stuck(F, S)
    if caching:
        S.legal_cache = (S.version, out)
    automatic: Fact = F.facts.automatic[phase][step]
    if automatic and len(out) == 1 and not S.forcing:
        return forced(F, S, out)
    return out


@inlinable
def turn_over(F: Flow, S: GameState, me: int, listing: bool, phase: int) -> list[Action]:
    """`me`'s turn in `phase` ends: the triggers after it, who plays next (the seat a rule
    named, else the next one in), turns missed, the phase's or the round's end, and the next
    seat's first decision."""
    S.turns += 1
    after: Fact = F.facts.after_turn
    if after:
        F.after_turn(S, me)
        if S.signal & ENDS_ROUND:
            return round_over(F, S, me, listing)
    # Who plays next (whose_turn, written out here): the seat a rule named (`turn to`), else
    # the next in play order; either way the next one still in. (Where rules turn play
    # round, `reverse direction`, which way it goes is the game's.)
    direction: Fact = F.facts.direction if F.facts.direction else S.direction
    named: Fact = F.facts.turn_to
    if named and S.next_turn is not None:
        nxt = S.next_turn
        S.next_turn = None
        if not S.active[nxt]:
            nxt = next_seat(S, nxt, direction)
    else:
        nxt = (me + direction) % S.n
        if not S.active[nxt]:
            nxt = next_seat(S, me, direction)
    if F.facts.skipping[phase]:
        nxt = skip_turns(F, S, nxt)
    if F.facts.each_once[phase]:
        S.turns_in_phase += 1
        if S.turns_in_phase >= sum(S.active):
            S.signal |= SIGNAL_PHASE
    if S.signal & SIGNAL_PHASE:
        return phase_over(F, S, me, listing)
    if nxt == S.stop_before:
        return round_over(F, S, me, listing)
    S.current = nxt
    S.step = 0
    S.reps = F.facts.repeat[phase][0]
    begins: Fact = F.facts.before_turn
    if begins:
        begin_turn(F, S)
        return tail(F, S, me, listing)
    return decision(F, S, me, listing, phase, 0)


# ------------------------------------------------------------------ rounds
def new_round(F: Flow, s: GameState) -> None:
    """A round is dealt and its first phase begins."""
    rounds.deal(F, s)
    if not enter_phase(F, s, 0):
        message = f"round {s.round}: no phase is played (every phase's `when` is false)"
        site = next((p.when_site for p in F.rules.phases if p.when_site is not None
                     and p.when_site.location is not None), None)
        if site is None:
            raise RuleRuntimeError(f"{F.rules.path}: {message}")
        raise RuleRuntimeError(message, replace(site, message=message))  # (the first's)


def end_round(F: Flow, s: GameState) -> None:
    """The round ends and is scored; the next one is dealt unless the game is over (or the
    game is a search's, played to its round's end: `until_round_end`)."""
    if not rounds.score(F, s):
        if s.until_round_end:  # nothing is left to play; what a deal would clear, cleared
            s.between_rounds = True
            s.signal, s.stop_before, s.next_turn, s.window = 0, None, None, []
        else:
            new_round(F, s)


# ------------------------------------------------------------------ the rest
def signalled(F: Flow, s: GameState, me: int, listing: bool) -> list[Action]:
    """A rule said `end turn`, `end phase`, `end round`, `end game` or `win`."""
    on_signal(F, s, me)
    return tail(F, s, me, listing)


def on_signal(F: Flow, s: GameState, me: int) -> None:
    if s.signal & ENDS_ROUND:
        end_round(F, s)
    elif s.signal & SIGNAL_PHASE:
        next_phase(F, s)
    else:
        end_turn(F, s, me)


def round_over(F: Flow, s: GameState, me: int, listing: bool) -> list[Action]:
    end_round(F, s)
    return tail(F, s, me, listing)


def phase_over(F: Flow, s: GameState, me: int, listing: bool) -> list[Action]:
    next_phase(F, s)
    return tail(F, s, me, listing)


def end_turn(F: Flow, s: GameState, me: int, begin: bool = True) -> None:
    """`me`'s turn ends after a rule's signal (or before it is played, `begin` False, when a
    trigger before the turn ended it): as `turn_over`, the next decision left unlisted."""
    s.turns += 1
    s.signal &= ~SIGNAL_TURN
    if F.after_turn is not None:
        F.after_turn(s, me)
        if s.signal & ENDS_ROUND:
            end_round(F, s)
            return
    nxt = whose_turn(F, s, me)
    if F.facts.skipping[s.phase]:
        nxt = skip_turns(F, s, nxt)
    if F.facts.each_once[s.phase]:
        s.turns_in_phase += 1
        if s.turns_in_phase >= sum(s.active):
            s.signal |= SIGNAL_PHASE
    if s.signal & SIGNAL_PHASE:
        next_phase(F, s)
    elif nxt == s.stop_before:
        end_round(F, s)
    else:
        s.current = nxt
        s.step = 0
        s.reps = F.facts.repeat[s.phase][0]
        if begin:
            begin_turn(F, s)


def play_direction(F: Flow, s: GameState) -> int:
    """Which way play goes now: +1 in seat order, -1 against it (the ruleset's `direction`,
    or, where its rules turn play round with `reverse direction`, the game's)."""
    return F.facts.direction or s.direction


def whose_turn(F: Flow, s: GameState, me: int) -> int:
    """Who plays after the turn that ends: the seat a rule named (`turn to`), else the
    next in play order (either way, the next one still in)."""
    direction = play_direction(F, s)
    if s.next_turn is not None:
        named, s.next_turn = s.next_turn, None
        return named if s.active[named] else next_seat(s, named, direction)
    nxt = (s.current + direction) % s.n
    return nxt if s.active[nxt] else next_seat(s, s.current, direction)


def skip_turns(F: Flow, s: GameState, seat: int) -> int:
    """The next seat that does not miss its turn (the phase's `skip_turn`)."""
    phase = F.rules.phases[s.phase]
    assert phase.skip_turn is not None and phase.on_skip is not None
    for _ in range(4 * s.n + 4):
        if not F.call(phase.skip_turn, s, seat):
            return seat
        F.call(phase.on_skip, s, seat)
        s.turns += 1
        if s.log is not None:
            s.log.append({"event": "skip", "seat": seat + 1})
        seat = next_seat(s, seat, play_direction(F, s))
    message = (f"phase '{phase.name}': every player keeps missing turns (does on_skip "
               "change what skip_turn tests?)")
    site = phase.skip_site
    if site is None or site.location is None:
        raise RuleRuntimeError(f"{F.rules.path}: {message}")
    raise RuleRuntimeError(message, replace(site, message=message))


def begin_turn(F: Flow, s: GameState) -> None:
    """A turn begins (s.current's): the triggers `before: turn` run. One that ends the
    turn at once hands it on, and the next seat's turn begins in turn."""
    if F.before_turn is None:
        return
    for _ in range(4 * s.n + 4):
        F.call(F.before_turn, s, s.current)
        if not s.signal:
            return
        if s.signal & ENDS_ROUND:
            end_round(F, s)
            return
        if s.signal & SIGNAL_PHASE:
            next_phase(F, s)
            return
        where = (s.round, s.phase)
        end_turn(F, s, s.current, begin=False)  # the turn ends before it is played
        if s.over or s.between_rounds or (s.round, s.phase) != where:
            return
    raise RuleRuntimeError(f"{F.rules.path}: every player's turn ends as it begins "
                           "(a trigger before each turn keeps saying `end turn`)")


def next_phase(F: Flow, s: GameState) -> None:
    s.signal &= ~(SIGNAL_PHASE | SIGNAL_TURN)
    if not enter_phase(F, s, s.phase + 1):
        end_round(F, s)


def enter_phase(F: Flow, s: GameState, index: int) -> bool:
    """Begin the first phase from `index` on whose `when` holds; False if none is left."""
    phases = F.rules.phases
    while index < len(phases) and phases[index].when is not None \
            and not F.call(phases[index].when, s, s.first):
        index += 1
    if index >= len(phases):
        return False
    phase = phases[index]
    s.phase = index
    s.turns_in_phase = 0
    s.next_turn = None  # a `turn to` still pending is the old phase's: this one has its first
    first = s.first if phase.first is None else \
        rounds.a_seat(F, F.call(phase.first, s, s.first), s, f"phase '{phase.name}': first")
    s.current = first if s.active[first] else next_seat(s, first, play_direction(F, s))
    s.step = 0
    s.reps = F.facts.repeat[index][0]
    begin_turn(F, s)
    return True


# ------------------------------------------------------- the next decision
def tail(F: Flow, s: GameState, me: int, listing: bool) -> list[Action]:
    """After an action of `me` and the flow it set off: the next decision's legal actions
    (a reaction window first, where the ruleset has one), or [] once the game is over (or
    its round, for a game played to its round's end)."""
    if s.over or s.between_rounds:
        return []
    reactions = F.facts.reactions
    if not listing:  # advance(): listed when asked for
        if reactions:
            open_window(F, s, me, False)
        s.legal_cache = None
        return []
    if reactions and open_window(F, s, me):
        return s.legal_cache[1]  # type: ignore[index]
    return decide(F, s)


def decide(F: Flow, s: GameState) -> list[Action]:
    """Work out the legal actions of the decision the game now waits for (playing it at
    once, where the step is `automatic` and it has a single action)."""
    step = F.rules.phases[s.phase].steps[s.step]
    legal: list[Action] = F.listed(step.legal, s, s.current, f"step '{step.name}'")
    listed = bool(legal)
    if F.facts.forbid_repetition:
        legal = unrepeated(F, s, legal)
    if not legal:
        names = ", ".join(f"'{move.name}'" for move in step.moves)
        why = ("every move it lists would bring back a position the table has seen this "
               "round (`repetition: forbid`); a way on that always changes the game lets it "
               "go on") if listed else \
            (f"of its moves ({names}), each one's `when` is false here or one of its "
             "choices has nothing to choose from; a move for this case (a pass, say) lets "
             "the game go on")
        message = (f"seat {s.current + 1} has no legal move in step '{step.name}' of phase "
                   f"'{F.rules.phases[s.phase].name}': {why}")
        if step.site is None or step.site.location is None:
            raise NoLegalMove(f"{step.location}: {message}")
        raise NoLegalMove(message, replace(step.site, message=message))
    s.legal_cache = (s.version, legal)
    if len(legal) == 1 and step.automatic and not s.forcing:
        return forced(F, s, legal)
    return legal


def unrepeated(F: Flow, s: GameState, legal: list[Action]) -> list[Action]:
    """`legal` without the moves that would return the game to a position the table has seen
    this round (`repetition: forbid`); the position now is remembered as seen. A move's
    position is the game's once the move and what follows it are done, up to the next
    decision (its listing aside), worked out on a copy; a move that fails there, or that
    ends the round, repeats nothing. An open move (a text to fill in) is kept. Nor does a
    move that meets chance (a shuffle: how it falls cannot decide it) or that shows the table
    a card it did not know (which card cannot decide it): what it reaches is news."""
    rules = F.rules
    here = position(rules, s, None)
    s.seen.add(here)
    quiet = F.quiet()
    phase, step = s.phase, s.step
    out = []
    for action in legal:
        if not domains.is_open(action):
            move = rules.moves[action[0]]
            copy = s.copy()
            try:
                move.run(copy, s.current, action)
                move_made(quiet, copy, s.current, False, phase, step, move.then)
            except CardrulesError:
                copy.over = True  # (the move fails when it is made: it is reported there)
            if not copy.over and copy.round == s.round and not copy.between_rounds \
                    and not copy.met_chance_since(s) \
                    and not shows_a_card(s.known, copy.known, s.everyone) \
                    and position(rules, copy, None) in s.seen:
                continue
        out.append(action)
    return out


def stuck(F: Flow, s: GameState) -> None:
    """Raise the error of a step where the seat to move has no legal action."""
    decide(F, s)


def forced(F: Flow, s: GameState, legal: list[Action]) -> list[Action]:
    """Play single legal actions of automatic steps until a decision is left (or the
    game's end); each counts as forced, not as a decision of its seat."""
    s.forcing = True
    automatic, play, opening = F.facts.automatic, F.play, F.words.open_moves
    try:
        while len(legal) == 1 and not s.over and not s.window \
                and automatic[s.phase][s.step] \
                and not (opening and domains.is_open(legal[0])):
            s.forced += 1
            legal = play(s, legal[0])
    finally:
        s.forcing = False
    return legal


# ------------------------------------------------------------ reaction windows
def open_window(F: Flow, s: GameState, actor: int, listing: bool = True) -> bool:
    """After an action, offer the reaction moves to every seat still in, in play order
    from the one after the actor (the actor last). False if nobody has one (without
    `listing`, whether anybody is asked; the seats with none are passed over later)."""
    seats = others(s, actor, play_direction(F, s))
    s.window = seats + [actor] if s.active[actor] else seats
    return next_reaction(F, s) if listing else bool(s.window)


def next_reaction(F: Flow, s: GameState) -> bool:
    """Move the window on to the next seat that has a reaction; False when it is shut."""
    reactions = F.rules.reactions
    assert reactions is not None
    while s.window:
        seat = s.window[0]
        legal = F.listed(reactions.legal, s, seat, "the reactions") if s.active[seat] else []
        if legal:
            s.legal_cache = (s.version, [*legal, PASS])
            return True
        s.window.pop(0)
    return False


def reactions_of(F: Flow, s: GameState, seat: int) -> list[Action]:
    """The reactions `seat` could make if a window were offered to it now (none once the
    game is over or the seat is out, or in a ruleset without reactions): for showing a
    person what they may react with before their next window comes."""
    reactions = F.rules.reactions
    if reactions is None or s.over or s.between_rounds or not s.active[seat]:
        return []
    return F.listed(reactions.legal, s, seat, "the reactions")


def react(F: Flow, s: GameState, action: Action, listing: bool,
          located: Callable[[Exception, Action, int], Exception]) -> list[Action]:
    """Apply one seat's answer in a reaction window, then ask the next seat, or go on
    (`located`: how a failure of the move is reported)."""
    seat = s.window.pop(0)
    if s.log is not None:
        F.log_action(s, seat, action)
    s.version += 1
    s.actions += 1
    if action != PASS:
        try:
            F.rules.moves[action[0]].run(s, seat, action)
            if F.after_move is not None:
                F.after_move(s, seat)
        except CardrulesError as exc:
            raise located(exc, action, seat) from None
        except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
            raise located(exc, action, seat) from exc
        if s.signal:
            s.window = []
            on_signal(F, s, s.current)
    if s.over or s.between_rounds:
        return []
    if not listing:  # advance(): listed when asked for
        s.legal_cache = None
        return []
    if s.window and next_reaction(F, s):
        assert s.legal_cache is not None
        return s.legal_cache[1]
    s.window = []
    return decide(F, s)


# What generated code may call of the flow (dsl/binding.py binds these names, no others).
EXPORTED = ("move_made", "next_step", "decision", "turn_over", "signalled", "round_over",
            "phase_over", "whose_turn", "skip_turns", "begin_turn", "tail", "stuck",
            "unrepeated", "forced")
