"""The generic engine: runs any compiled Ruleset, knowing nothing of any one game.

    engine = Engine(load_ruleset("golf6"))
    state = engine.new_game(players=4, seed=7)
    while not state.over:
        action = random.choice(engine.legal_actions(state))
        engine.apply(state, action)
    engine.results(state)

An action is a tuple (move name, *args); `legal_actions` lists them in a fixed order and
`apply` refuses anything else. The engine checks each action, logs it and hands it to its
move; what follows a move (the turn flow: steps, turns, phases, rounds, the game's end) is
interpreter/flow.py's and interpreter/rounds.py's, the one definition the compiled move
handlers specialise; the words of actions are interpreter/words.py's (`engine.words`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardrules.errors import CardrulesError, GameError, IllegalAction, RuleFault
from cardrules.model import PASS, PASS_TEXT, Action, Ruleset

from . import deal as dealing
from . import domains, flow, rounds
from .deal import Deal, Probe
from .interface import Flow
from .state import GameState
from .words import Words

__all__ = ["PASS", "PASS_TEXT", "Engine"]  # (the pass is the model's; read here too)

_KEPT_ESTIMATES = 100_000  # estimates an engine keeps before it starts afresh


class Engine:
    """Plays games of one ruleset. Stateless itself: every game lives in its GameState."""

    sight = True  # its games keep what each party knows partly (interpreter/sight.py)

    def __init__(self, ruleset: Ruleset, compiled: bool = True,
                 watch: Callable[[GameState, int, Action], None] | None = None,
                 watch_round: Callable[[GameState], None] | None = None):
        """`compiled`: apply actions with the ruleset's compiled move handlers (the turn flow
        specialised per move); without it, with the flow's own functions, which read the
        ruleset's facts at every action (the reference the compiled flow is tested against).
        `watch(state, seat, action)` is told of every action about to be applied, forced ones
        included (for transcripts); `watch_round(state)` of every round that has just been
        scored, before the next one is dealt."""
        self.rules = ruleset
        self.watch = watch
        self.watch_round = watch_round
        self._unwatched: Engine | None = None
        self.compiled = compiled and all(m.handle is not None for p in ruleset.phases
                                         for s in p.steps for m in s.moves)
        self.board = ruleset.board
        self.moves = ruleset.moves
        self.words = Words(ruleset)
        self.flow = Flow(ruleset, self.words)
        self.flow.watch_round = watch_round
        self.open_moves = self.words.open_moves
        # Moves with a parameter naming cards (which a search relabels between samples).
        self.card_moves = frozenset(m.name for m in ruleset.moves.values() if any(m.names_cards))
        # move name -> (its rules, its phase and step, the step its `then` names or None)
        self._places: dict[str, tuple[Any, int, int, int | None]] = {
            move.name: (move.run, p, i, move.then)
            for p, phase in enumerate(ruleset.phases) for i, step in enumerate(phase.steps)
            for move in step.moves}
        self.play = self._make_play()
        self.flow.play = self.play
        self._estimates: dict[Any, int] = {}

    def unwatched(self) -> Engine:
        """This engine if nothing watches it, else one of the same rules that tells no
        watcher (made once): for playing what is not the watched game, such as a search's
        samples or a look ahead at what an action will do."""
        if self.watch is None and self.watch_round is None:
            return self
        if self._unwatched is None:
            self._unwatched = Engine(self.rules, compiled=self.compiled)
        return self._unwatched

    # ------------------------------------------------------------------ start
    def new_game(self, players: int | None = None, seed: int = 0,
                 log: bool | list[dict[str, Any]] = False,
                 deal: Deal | Probe | None = None) -> GameState:
        """A new game at its first decision, dealt from `seed`; `log` keeps an event log (a
        list of one's own, such as an events.EventStream, is used as the log); `deal` a
        given deal (interpreter/deal.py), whose stated orders its shuffles take."""
        if isinstance(deal, Deal) and deal.zones:
            return dealing.from_zones(self, players, seed, log, deal)
        rules = self.rules
        count = rules.default_players if players is None else players
        if not rules.min_players <= count <= rules.max_players:
            raise GameError(f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                            f"players, not {count}")
        s = GameState()
        s.knowing, s.sight = rules.knowing, self.sight
        s.ruleset, s.seed = rules.name, seed
        s.seat_count(count, rules.house.index if rules.house is not None else -1)
        s.rng = random.Random(seed)
        s.log = log if isinstance(log, list) else [] if log else None
        s.zones = [[] for _ in range(rules.zone_count)]
        s.watchers = [0] * rules.zone_count
        s.n_cards = rules.cards.per_deck * rules.copies[count]
        s.face_up = [False] * s.n_cards
        s.known = [0] * s.n_cards
        s.by = [None] * s.n_cards
        s.where = [rules.home_zone] * s.n_cards
        s.active = [True] * count
        s.totals = [0] * count
        s.rounds_total = rules.rounds[count]
        # Each round passes the deal on before it starts; begin so that in round 1 the seat
        # before seat 1 deals and seat 1 plays first.
        s.dealer = (-2 * rules.direction) % count
        s.direction = rules.direction
        rounds.game_variables(self.flow, s)
        s.deal = deal
        flow.new_round(self.flow, s)
        return s

    # ------------------------------------------------------------------ query
    def to_move(self, state: GameState) -> int | None:
        """The seat that must decide now, or None when the game is over (or its round, for
        a game played to its round's end)."""
        if state.over or state.between_rounds:
            return None
        return state.window[0] if state.window else state.current

    def legal_actions(self, state: GameState) -> list[Action]:
        """The actions the seat to move may take, in a fixed order (empty when over)."""
        cache = state.legal_cache
        if cache is not None and cache[0] == state.version:
            return cache[1]
        return self.listed(state)

    def listed(self, state: GameState) -> list[Action]:
        """The actions the seat to move may take, listed afresh by the turn flow (a reaction
        window's next answer, or the next decision)."""
        if state.over or state.between_rounds:
            return []
        state.work, state.work_at = 0, state.actions  # (a question's work is its own)
        if state.window:
            if flow.next_reaction(self.flow, state):
                assert state.legal_cache is not None
                return state.legal_cache[1]
            state.window = []
        return flow.decide(self.flow, state)

    def reactions(self, state: GameState, seat: int) -> list[Action]:
        """The reaction moves `seat` could make were a reaction window offered to it now
        (without the pass; none in a ruleset without `reactions:`), in the order a window
        lists them. The game is not changed."""
        state.work, state.work_at = 0, state.actions  # (a question's work is its own)
        return flow.reactions_of(self.flow, state, seat)

    def is_choice(self, state: GameState) -> bool:
        """Whether the game waits for a seat to decide now (not for a forced action)."""
        return not state.forcing

    def is_over(self, state: GameState) -> bool:
        """Whether nothing is left to play: the game is over (or its round, for a game
        played to its round's end)."""
        return state.over or state.between_rounds

    def results(self, state: GameState) -> dict[str, Any]:
        """Totals, per-round scores, winners (seats from 1) and how long the game took; for a
        game cut off by its bound on actions, `cut_off` says so."""
        out = {
            "ruleset": self.rules.name,
            "players": state.n,
            "seed": state.seed,
            "over": state.over,
            "rounds": len(state.round_scores),
            "totals": list(state.totals),
            "round_scores": [list(r) for r in state.round_scores],
            "winners": [w + 1 for w in state.winners] if state.winners is not None else [],
            "turns": state.turns,
            "actions": state.actions,
            "forced": state.forced,
        }
        if state.cut_off:
            out["cut_off"] = rounds.cut_off_note(self.rules.max_actions)
        if self.rules.house is not None:
            out["house"] = {"name": self.rules.house.name, "total": state.house_total,
                            "round_scores": list(state.house_scores),
                            "winner": state.over and state.house_won}
        return out

    def round_score(self, state: GameState, seat: int) -> int:
        """A seat's round score by the ruleset's scoring, as the state stands now (a
        question asked between actions, as often as anyone likes: its work is its own)."""
        state.work, state.work_at = 0, state.actions
        return sum(self.flow.call(self.rules.score, state, seat))

    def estimate(self, state: GameState, seat: int) -> int:
        """The ruleset's own mid-round estimate of a seat's round score (`scoring.evaluate`).
        Where the estimate reads only the seat's own zones, it is kept by what lies there:
        a search asks for it on many states that differ only elsewhere."""
        rules = self.rules
        if rules.evaluate is None:
            return self.round_score(state, seat)
        state.work, state.work_at = 0, state.actions  # (its work is its own, as above)
        if rules.evaluate_key is None:
            return int(self.flow.call(rules.evaluate, state, seat))
        key = rules.evaluate_key(state, seat)
        found = self._estimates.get(key)
        if found is None:
            if len(self._estimates) >= _KEPT_ESTIMATES:
                self._estimates.clear()
            found = self._estimates[key] = int(self.flow.call(rules.evaluate, state, seat))
        return found

    # ------------------------------------------------------------------ apply
    def apply(self, state: GameState, action: Action) -> GameState:
        """Apply a legal action; raise IllegalAction (state unchanged) for any other."""
        self.play(state, action)
        return state

    def advance(self, state: GameState, action: Action) -> None:
        """Apply a legal action, as `apply`, but leave the next decision's legal actions
        unlisted until `legal_actions` is asked (search that only values the position
        reached saves the listing). Ask `legal_actions` before `to_move`: a reaction window
        is opened, but seats with nothing to react with are passed over only then."""
        self.play(state, action, False)

    def _make_play(self) -> Callable[..., list[Action]]:
        """Build `play(state, action) -> the next legal actions` ([] once the game is over):
        `apply` for drivers that loop over actions, with what it looks up bound once.

        It runs for every action of every game, so it is written for speed. After the checks
        every action needs, the move's compiled handler applies it and takes the game to the
        next decision; without one (`compiled` False), its rules run and the flow's own
        `move_made` follows, the same definition the handler specialises.
        """
        check, located, watch, F = self._check, self._located, self.watch, self.flow
        open_moves, most = self.open_moves, self.rules.max_actions
        handlers = {m.name: m.handle for m in self.moves.values() if m.handle is not None} \
            if self.compiled else {}
        places, move_made, react = self._places, flow.move_made, flow.react

        def play(state: GameState, action: Action, listing: bool = True) -> list[Action]:
            # Fast path: the very tuple the engine listed (as a bot returns it). Anything
            # else, even an equal-looking value (8.0 for card 8), goes through check().
            cache: Any = state.legal_cache  # None (TypeError below) or (version, actions)
            try:
                legal = cache[1]
                if cache[0] != state.version or legal[legal.index(action)] is not action \
                        or (open_moves and action[0] in open_moves):
                    raise ValueError
            except (TypeError, ValueError):
                action = check(state, action)
            if watch is not None:
                watch(state, state.window[0] if state.window else state.current, action)
            if state.window:
                out: list[Action] = react(F, state, action, listing, located)
                return rounds.cut_off(F, state) if state.actions >= most and not state.over \
                    else out
            me = state.current
            if state.log is not None:
                F.log_action(state, me, action)
            try:
                handle = handlers.get(action[0])
                if handle is not None:
                    out = handle(state, me, action, F, listing)
                else:
                    run, phase, number, then = places[action[0]]
                    run(state, me, action)
                    out = move_made(F, state, me, listing, phase, number, then)
                return rounds.cut_off(F, state) if state.actions >= most and not state.over \
                    else out
            except CardrulesError as exc:
                raise located(exc, action, me) from None
            except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
                raise located(exc, action, me) from exc

        return play

    def _located(self, exc: Exception, action: Action, seat: int) -> Exception:
        """A failure while an action was applied, pointing at the rule text that failed."""
        if isinstance(exc, CardrulesError) and not isinstance(exc, RuleFault):
            return exc  # already located (a step with no legal move, say)
        # A move's code ends by listing the next decision: a fault there is that step's, for
        # the seat it listed (as the flow says it where it lists: Flow.listed).
        listing = self.rules.listing_of(exc.__traceback__)
        if listing is not None:
            step, listed = listing
            return self.flow.fault(exc, f"listing the moves of step '{step}' (seat {listed + 1})")
        return self.flow.fault(exc, f"in move '{action[0]}' (seat {seat + 1})")

    def _check(self, state: GameState, action: Any) -> Action:
        """The legal action `action` stands for, or IllegalAction (nothing is changed).

        What is returned is the engine's own tuple, so a value that only compares equal
        (8.0 for card 8, True for 1) never reaches a rule.
        """
        if state.over:
            raise IllegalAction("the game is over")
        try:
            action = tuple(action)
        except TypeError:
            raise IllegalAction(f"not an action: {action!r}") from None
        if not action:
            raise IllegalAction("an empty action: an action starts with a move's name")
        legal = self.legal_actions(state)
        describe_move = self.words.describe_move
        for candidate in legal:
            if candidate == action and all(type(a) is type(b) for a, b in zip(candidate, action)):
                if domains.is_open(candidate):
                    raise IllegalAction(f"{describe_move(action[0])}: fill in "
                                        + ", ".join(str(a) for a in candidate[1:]
                                                    if isinstance(a, domains.Words)))
                return candidate
        problems = [domains.matches(t, action) for t in legal
                    if t[0] == action[0] and domains.is_open(t)]
        if None in problems:
            return action  # it fills in an open parameter with an allowed value
        if problems:
            raise IllegalAction(f"{describe_move(action[0])}: {problems[0]}")
        raise IllegalAction(f"not a legal action now: {action!r}")
