"""The generic engine: runs any compiled Ruleset, knowing nothing of any one game.

    engine = Engine(load_ruleset("golf6"))
    state = engine.new_game(players=4, seed=7)
    while not state.over:
        action = random.choice(engine.legal_actions(state))
        engine.apply(state, action)
    engine.results(state)

The engine owns the flow: rounds (gather, setup, phases, end, scoring), phases
(each player once, or rotating until the round ends), steps (with repeats and
jumps), triggers and the match's end. An action is a tuple (move name, *args);
legal_actions lists them in a fixed order and apply refuses anything else.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from cardrules.errors import (
    CardrulesError,
    GameError,
    IllegalAction,
    RuleFault,
    RuleRuntimeError,
)
from cardrules.model import Action, Ruleset

from . import deal as dealing
from . import domains, runtime, sight
from .deal import Deal, Probe
from .runtime import SIGNAL_GAME, SIGNAL_PHASE, SIGNAL_ROUND, SIGNAL_TURN
from .state import GameState
from .view import house_view, owners, public_variables

END_OF_TURN = -1
_KEPT_ESTIMATES = 100_000  # estimates an engine keeps before it starts afresh
PASS: Action = ("pass",)  # the answer of a seat that lets a reaction window go by
PASS_TEXT = "Pass: let this chance go by"  # how a pass reads, in every listing and log

# What each generated function of a ruleset does, for a fault's message.
_ROLES = {"setup": "in the round's setup", "round_end": "at the round's end",
          "after_setup": "in a trigger after the setup", "after_move": "in a trigger after a move",
          "after_turn": "in a trigger after a turn", "after_round": "in a trigger after a round",
          "score": "in the scoring", "evaluate": "in the evaluation", "until": "in `until`"}


class Engine:
    """Plays games of one ruleset. Stateless itself: every game lives in its GameState."""

    def __init__(self, ruleset: Ruleset, compiled: bool = True,
                 watch: Callable[[GameState, int, Action], None] | None = None,
                 watch_round: Callable[[GameState], None] | None = None):
        """`compiled`: apply actions with the ruleset's compiled flow (one generated handler
        per move); without it, with the engine's generic flow, which interprets the phases,
        steps and turns at every action (the reference the compiled flow is tested against).
        `watch(state, seat, action)` is told of every action about to be applied, forced ones
        included (for transcripts); `watch_round(state)` of every round that has just been
        scored, before the next one is dealt."""
        self.rules = ruleset
        self.watch = watch
        self.watch_round = watch_round
        self._unwatched: Engine | None = None
        self.compiled = compiled and all(m.handle is not None for p in ruleset.phases
                                         for s in p.steps for m in s.moves)
        self.board: runtime.Board = ruleset.board
        self.moves = ruleset.moves
        # Zones whose order tells their unseen cards apart (piles), by name, for place_of.
        self._stacked = {z.name: z.layout == "stack" for z in ruleset.zones}
        # Flow facts known before any game, looked up on every action instead of derived:
        # each step's legal-actions function and repeat count, and where each move leads.
        self._legal = [[step.legal for step in phase.steps] for phase in ruleset.phases]
        self._repeat = [[step.repeat for step in phase.steps] for phase in ruleset.phases]
        self._each_once = [phase.turns == "each_once" for phase in ruleset.phases]
        self._automatic = [[step.automatic for step in phase.steps] for phase in ruleset.phases]
        self._before_turn = ruleset.before_turn
        self._skipping = [phase.skip_turn is not None for phase in ruleset.phases]
        self.open_moves = frozenset(m.name for m in ruleset.moves.values() if "words" in m.kinds)
        # Moves with a parameter naming cards (which a search relabels between samples).
        self.card_moves = frozenset(m.name for m in ruleset.moves.values() if any(m.names_cards))
        self._after_move = ruleset.after_move
        self._after_turn = ruleset.after_turn
        self._direction = ruleset.direction
        # zone indices whose cards stay from one round to the next (`keep: true`)
        self._kept = frozenset(z for zone in ruleset.zones if zone.keep
                               for seat in range(ruleset.owners if zone.owned else 1)
                               for z in zone.instances(seat))
        # move name -> (its function, whether it jumps, the step it leads to or END_OF_TURN)
        self._flow: dict[str, tuple[Any, bool, int]] = {}
        for phase in ruleset.phases:
            for index, step in enumerate(phase.steps):
                following = index + 1 if index + 1 < len(phase.steps) else END_OF_TURN
                for move in step.moves:
                    jump = move.then is not None
                    target = move.then if move.then is not None else following
                    self._flow[move.name] = (move.run, jump, target)
        self.step = self._make_compiled_step() if self.compiled else self._make_step()
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
        s.ruleset, s.seed = rules.name, seed
        house = rules.house.index if rules.house is not None else -1
        s.seat_count(count, house)
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
        for var in rules.variables:
            if var.scope == "game":
                s.vars[var.name] = self._call(var.initial, s)
            elif var.scope == "player":
                s.pvars[var.name] = [self._call(var.initial, s) for _ in range(count)]
                if house >= 0:
                    self._house_value(var.initial, s, var.name)
        s.deal = deal
        self._start_round(s)
        return s

    def _house_value(self, initial: Any, s: GameState, name: str) -> None:
        """The house's starting value of a player variable, at its player number (the places
        between, of seats this table does not have, unused)."""
        s.pvars[name] += [None] * (s.house - s.n) + [self._call(initial, s)]

    # ------------------------------------------------------------------ query
    def to_move(self, state: GameState) -> int | None:
        """The seat that must decide now, or None when the game is over."""
        if state.over:
            return None
        return state.window[0] if state.window else state.current

    def legal_actions(self, state: GameState) -> list[Action]:
        """The actions the seat to move may take, in a fixed order (empty when over)."""
        cache = state.legal_cache
        if cache is not None and cache[0] == state.version:
            return cache[1]
        if state.over:
            return []
        if state.window:
            if self._next_reaction(state):
                assert state.legal_cache is not None
                return state.legal_cache[1]
            state.window = []
        return self._decide(state)

    def is_choice(self, state: GameState) -> bool:
        """Whether the game waits for a seat to decide now (not for a forced action)."""
        return not state.forcing

    def is_over(self, state: GameState) -> bool:
        return state.over

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
            out["cut_off"] = self.cut_off_note()
        if self.rules.house is not None:
            out["house"] = {"name": self.rules.house.name, "total": state.house_total,
                            "round_scores": list(state.house_scores),
                            "winner": state.over and state.house_won}
        return out

    def round_score(self, state: GameState, seat: int) -> int:
        """A seat's round score by the ruleset's scoring, as the state stands now."""
        return sum(self._call(self.rules.score, state, seat))

    def estimate(self, state: GameState, seat: int) -> int:
        """The ruleset's own mid-round estimate of a seat's round score (`scoring.evaluate`).
        Where the estimate reads only the seat's own zones, it is kept by what lies there:
        a search asks for it on many states that differ only elsewhere."""
        rules = self.rules
        if rules.evaluate is None:
            return self.round_score(state, seat)
        if rules.evaluate_key is None:
            return int(self._call(rules.evaluate, state, seat))
        key = rules.evaluate_key(state, seat)
        found = self._estimates.get(key)
        if found is None:
            if len(self._estimates) >= _KEPT_ESTIMATES:
                self._estimates.clear()
            found = self._estimates[key] = int(self._call(rules.evaluate, state, seat))
        return found

    def describe(self, action: Action, state: GameState | None = None,
                 seat: int | None = None, namer: Callable[[int], str] | None = None) -> str:
        """An action in the ruleset's own words: its label with the choices filled in.

        With a state, a card is named only if `seat` knows it (with no seat: if everyone
        does); any other card is described by where it lies, so that a description shown
        to a player, or written to the public log, gives nothing away. `namer` (a card ->
        its words) decides instead, where the words are told after the action
        (interpreter/told.py).
        """
        if action == PASS:
            return PASS_TEXT
        move = self.moves.get(action[0]) if action else None
        if move is None:
            return repr(action)
        values = {p: self.value_text(kind, v, state, seat, namer)
                  for p, kind, v in zip(move.params, move.kinds, action[1:])}
        return move.render(values)

    def value_text(self, kind: str, value: Any, state: GameState | None = None,
                   seat: int | None = None, namer: Callable[[int], str] | None = None) -> str:
        """A move parameter's value in words, by its type."""
        cards = self.rules.cards
        if kind == "card":
            return namer(value) if namer is not None else self.name_of(value, state, seat)
        if kind == "player":
            return self.player_name(value)
        if kind == "rank":
            return cards.rank_names[value]
        if kind == "suit":
            return cards.suit_names[value]
        if kind == "colour":
            return ("red", "black", "none")[value]
        if kind == "words" and state is not None and seat is None:
            return "(written, not shown)"  # a typed value stays its writer's, in public
        if isinstance(value, (list, tuple)):  # a list of cards, or of groups of cards
            inner = [self.value_text("card" if isinstance(v, int) else kind, v, state, seat,
                                     namer) for v in value]
            return " ".join(inner) if all(isinstance(v, int) for v in value) \
                else " | ".join(inner)
        return str(value)

    def player_name(self, p: int) -> str:
        """A player in words: 'seat 2', or the house's name."""
        house = self.rules.house
        if house is not None and p == house.index:
            return house.name
        return f"seat {p + 1}"

    def name_of(self, value: int, state: GameState | None = None,
                seat: int | None = None) -> str:
        """A card's name, or its place if the seat does not know it."""
        if state is not None:
            known = state.known[value]
            if not (known == state.everyone if seat is None else known >> seat & 1):
                return self.place_of(state, value, seat)
        return self.rules.cards.names[value]

    def place_of(self, state: GameState, card: int, seat: int | None = None) -> str:
        """Where a card lies, in plain words, from `seat`'s side (None: the table's): 'the
        face-down card of seat 2's grid at row 1, column 3', 'an unseen card from seat 3's
        hand', 'the unseen card 2 from the top of the stock'."""
        z = state.where[card]
        board = self.board
        owner, name = board.owner[z], board.names[z]
        if owner < 0:
            zone = f"the {name}"
        elif owner == state.house:
            zone = f"{self.player_name(owner)}'s {name}"
        else:
            zone = f"your {name}" if owner == seat else f"seat {owner + 1}'s {name}"
        cards = state.zones[z]
        index = cards.index(card)
        if board.grid[z]:
            width = board.width[z]
            return f"the face-down card of {zone} at row {index // width + 1}, " \
                   f"column {index % width + 1}"
        if self._stacked.get(name, True):  # a pile: where in it is what tells cards apart
            depth = len(cards) - index
            return f"the unseen top card of {zone}" if depth == 1 \
                else f"the unseen card {depth} from the top of {zone}"
        return f"an unseen card from {zone}"

    # ------------------------------------------------------------------ apply
    def apply(self, state: GameState, action: Action) -> GameState:
        """Apply a legal action; raise IllegalAction (state unchanged) for any other."""
        self.step(state, action)
        return state

    def advance(self, state: GameState, action: Action) -> None:
        """Apply a legal action, as `apply`, but leave the next decision's legal actions
        unlisted until `legal_actions` is asked (search that only values the position
        reached saves the listing). Ask `legal_actions` before `to_move`: a reaction window
        is opened, but seats with nothing to react with are passed over only then."""
        self.step(state, action, False)

    def _make_step(self) -> Callable[..., list[Action]]:
        """Build `step(state, action) -> the next legal actions` ([] once the game is over):
        `apply` for drivers that loop over actions, with what it looks up bound once.

        It runs for every action of every game, so it is written for speed: after the
        move come the triggers, then the next decision (a jump, a repeat, the next step
        or the turn's end) and that decision's legal actions, kept in the state.
        """
        check, flow, log_action = self._check, self._flow, self._log_action
        after_move, on_signal, end_turn = self._after_move, self._on_signal, self._end_turn
        repeat, located, tail, react = self._repeat, self._located, self.tail, self._react
        watch, most, cut_off = self.watch, self.rules.max_actions, self._cut_off

        open_moves = self.open_moves

        def step(state: GameState, action: Action, listing: bool = True) -> list[Action]:
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
                out = react(state, action, listing)
                return cut_off(state) if state.actions >= most and not state.over else out
            run, jump, target = flow[action[0]]
            me = state.current
            if state.log is not None:
                log_action(state, me, action)
            try:
                run(state, me, action)
                state.version += 1
                state.actions += 1
                if after_move is not None:
                    after_move(state, me)
                if state.signal:
                    on_signal(state, me)
                elif jump:
                    state.step = target
                    state.reps = repeat[state.phase][target]
                elif state.reps > 1:
                    state.reps -= 1
                elif target == END_OF_TURN:
                    end_turn(state, me)
                else:
                    state.step = target
                    state.reps = repeat[state.phase][target]
                out = tail(state, me, listing)
                return cut_off(state) if state.actions >= most and not state.over else out
            except CardrulesError as exc:
                raise located(exc, action, me) from None
            except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
                raise located(exc, action, me) from exc

        return step

    def _make_compiled_step(self) -> Callable[..., list[Action]]:
        """`step` with the compiled flow: after the checks every action needs, the move's own
        handler applies it and takes the game to the next decision."""
        check, log_action, located, react = self._check, self._log_action, self._located, \
            self._react
        handlers = {m.name: m.handle for m in self.moves.values() if m.handle is not None}
        open_moves, watch = self.open_moves, self.watch
        most, cut_off = self.rules.max_actions, self._cut_off

        def step(state: GameState, action: Action, listing: bool = True) -> list[Action]:
            cache: Any = state.legal_cache  # as in the generic step
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
                out: list[Action] = react(state, action, listing)
                return cut_off(state) if state.actions >= most and not state.over else out
            me = state.current
            if state.log is not None:
                log_action(state, me, action)
            try:
                out = handlers[action[0]](state, me, action, self, listing)
                return cut_off(state) if state.actions >= most and not state.over else out
            except CardrulesError as exc:
                raise located(exc, action, me) from None
            except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
                raise located(exc, action, me) from exc

        return step

    # The compiled flow hands the rare turns of the game to these (one generic implementation).
    def tail(self, s: GameState, me: int, listing: bool) -> list[Action]:
        """After an action of `me` and the flow it set off: the next decision's legal actions
        (a reaction window first, where the ruleset has one), or [] once the game is over."""
        if s.over:
            return []
        reactions = self.rules.reactions is not None
        if not listing:  # advance(): listed when asked for
            if reactions:
                self._open_window(s, me, False)
            s.legal_cache = None
            return []
        if reactions and self._open_window(s, me):
            return s.legal_cache[1]  # type: ignore[index]
        return self._decide(s)

    def signalled(self, s: GameState, me: int, listing: bool) -> list[Action]:
        """A rule said end turn, end phase, end round, end game or win."""
        self._on_signal(s, me)
        return self.tail(s, me, listing)

    def round_done(self, s: GameState, me: int, listing: bool) -> list[Action]:
        self._end_round(s)
        return self.tail(s, me, listing)

    def phase_done(self, s: GameState, me: int, listing: bool) -> list[Action]:
        self._next_phase(s)
        return self.tail(s, me, listing)

    def skip_turns(self, s: GameState, seat: int) -> int:
        return self._skip_turns(s, seat)

    def next_seat(self, s: GameState, me: int) -> int:
        """Who plays after the turn that ends: the seat a rule named (`turn to`), else the
        next in play order (either way, the next one still in)."""
        direction = self._direction
        if s.next_turn is not None:
            named, s.next_turn = s.next_turn, None
            return named if s.active[named] else runtime.next_seat(s, named, direction)
        nxt = (s.current + direction) % s.n
        return nxt if s.active[nxt] else runtime.next_seat(s, s.current, direction)

    def begin_turn(self, s: GameState) -> None:
        """A turn begins (s.current's): the triggers `before: turn` run. One that ends the
        turn at once hands it on, and the next seat's turn begins in turn."""
        if self._before_turn is None:
            return
        for _ in range(4 * s.n + 4):
            self._call(self._before_turn, s, s.current)
            if not s.signal:
                return
            if s.signal & (SIGNAL_ROUND | SIGNAL_GAME):
                self._end_round(s)
                return
            if s.signal & SIGNAL_PHASE:
                self._next_phase(s)
                return
            where = (s.round, s.phase)
            self._end_turn(s, s.current, begin=False)  # the turn ends before it is played
            if s.over or (s.round, s.phase) != where:
                return
        raise RuleRuntimeError(f"{self.rules.path}: every player's turn ends as it begins "
                               "(a trigger before each turn keeps saying `end turn`)")

    def stuck(self, s: GameState) -> None:
        """Raise the error of a step where the seat to move has no legal action."""
        self._decide(s)

    # -------------------------------------------------------------- reactions
    def _open_window(self, s: GameState, actor: int, listing: bool = True) -> bool:
        """After an action, offer the reaction moves to every seat still in, in play order
        from the one after the actor (the actor last). False if nobody has one (without
        `listing`, whether anybody is asked; the seats with none are passed over later)."""
        seats = runtime.others(s, actor, self._direction)
        s.window = seats + [actor] if s.active[actor] else seats
        return self._next_reaction(s) if listing else bool(s.window)

    def _next_reaction(self, s: GameState) -> bool:
        """Move the window on to the next seat that has a reaction; False when it is shut."""
        reactions = self.rules.reactions
        assert reactions is not None
        while s.window:
            seat = s.window[0]
            legal = self._listed(reactions.legal, s, seat, "the reactions") \
                if s.active[seat] else []
            if legal:
                s.legal_cache = (s.version, [*legal, PASS])
                return True
            s.window.pop(0)
        return False

    def _react(self, s: GameState, action: Action, listing: bool = True) -> list[Action]:
        """Apply one seat's answer in a reaction window, then ask the next seat, or go on."""
        seat = s.window.pop(0)
        if s.log is not None:
            self._log_action(s, seat, action)
        s.version += 1
        s.actions += 1
        if action != PASS:
            try:
                self.moves[action[0]].run(s, seat, action)
                if self._after_move is not None:
                    self._after_move(s, seat)
            except CardrulesError as exc:
                raise self._located(exc, action, seat) from None
            except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
                raise self._located(exc, action, seat) from exc
            if s.signal:
                s.window = []
                self._on_signal(s, s.current)
        if s.over:
            return []
        if not listing:  # advance(): listed when asked for
            s.legal_cache = None
            return []
        if s.window and self._next_reaction(s):
            assert s.legal_cache is not None
            return s.legal_cache[1]
        s.window = []
        return self._decide(s)

    def _located(self, exc: Exception, action: Action, seat: int) -> Exception:
        """A failure while an action was applied, pointing at the rule text that failed."""
        if isinstance(exc, CardrulesError) and not isinstance(exc, RuleFault):
            return exc  # already located (a step with no legal move, say)
        return self.fault(exc, f"in move '{action[0]}' (seat {seat + 1})")

    def fault(self, exc: BaseException, context: str) -> RuleRuntimeError:
        """`exc`, raised by generated code, as a located RuleRuntimeError."""
        diagnostic = self.rules.locate(exc, context)
        return RuleRuntimeError(diagnostic.message, diagnostic)

    def _log_action(self, state: GameState, me: int, action: Action) -> None:
        """Log an action before it is applied, in the words the table and each seat read
        of it (interpreter/told.py, which imports this module)."""
        from .told import tell

        assert state.log is not None
        told = tell(self, state, me, action)
        state.log.append({"event": "action", "seat": me + 1, "move": action[0],
                          "action": told.public, "told": list(told.seats)})

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
        for candidate in legal:
            if candidate == action and all(type(a) is type(b) for a, b in zip(candidate, action)):
                if domains.is_open(candidate):
                    raise IllegalAction(f"{self.describe_move(action[0])}: fill in "
                                        + ", ".join(str(a) for a in candidate[1:]
                                                    if isinstance(a, domains.Words)))
                return candidate
        problems = [domains.matches(t, action) for t in legal
                    if t[0] == action[0] and domains.is_open(t)]
        if None in problems:
            return action  # it fills in an open parameter with an allowed value
        if problems:
            raise IllegalAction(f"{self.describe_move(action[0])}: {problems[0]}")
        raise IllegalAction(f"not a legal action now: {action!r}")

    def describe_move(self, name: str) -> str:
        """A move's label up to its first choice ('Predict' for 'Predict {prediction}')."""
        move = self.moves.get(name)
        if move is None:
            return name
        first = move.label_parts[0] if move.label_parts else ("param", "")
        return (first[1].strip() if first[0] == "text" else "") or move.name

    def _call(self, fn: Any, s: GameState, *args: Any) -> Any:
        """Call a rule function outside a move (setup, scoring...), locating its failures."""
        try:
            return fn(s, *args)
        except CardrulesError as exc:
            if not isinstance(exc, RuleFault):
                raise
            raise self.fault(exc, self._role(fn)) from None
        except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
            raise self.fault(exc, self._role(fn)) from exc

    def _listed(self, legal: Any, s: GameState, seat: int, what: str) -> list[Action]:
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

    @staticmethod
    def _role(fn: Any) -> str:
        name = getattr(fn, "__name__", "")
        if name.startswith("init_"):
            return f"the initial value of '{name[5:]}'"
        if name.startswith(("skip_", "on_skip_")):
            return "when a turn is missed"
        return _ROLES.get(name, "in a rule")

    # ------------------------------------------------------------------- flow
    def _decide(self, s: GameState) -> list[Action]:
        """Work out the legal actions of the decision the game now waits for (playing it at
        once, where the step is `automatic` and it has a single action)."""
        step = self.rules.phases[s.phase].steps[s.step]
        legal: list[Action] = self._listed(step.legal, s, s.current, f"step '{step.name}'")
        if not legal:
            raise RuleRuntimeError(
                f"{step.location}: seat {s.current + 1} has no legal move in step "
                f"'{step.name}' of phase '{self.rules.phases[s.phase].name}'")
        s.legal_cache = (s.version, legal)
        if len(legal) == 1 and step.automatic and not s.forcing:
            return self._forced(s, legal)
        return legal

    def _forced(self, s: GameState, legal: list[Action]) -> list[Action]:
        """Play single legal actions of automatic steps until a decision is left (or the
        game's end); each counts as forced, not as a decision of its seat."""
        s.forcing = True
        try:
            while len(legal) == 1 and not s.over and not s.window \
                    and self._automatic[s.phase][s.step] and not domains.is_open(legal[0]):
                s.forced += 1
                legal = self.step(s, legal[0])
        finally:
            s.forcing = False
        return legal

    def _on_signal(self, s: GameState, me: int) -> None:
        """A rule said `end turn`, `end phase`, `end round`, `end game` or `win`."""
        if s.signal & (SIGNAL_ROUND | SIGNAL_GAME):
            self._end_round(s)
        elif s.signal & SIGNAL_PHASE:
            self._next_phase(s)
        else:
            self._end_turn(s, me)

    def _enter_step(self, s: GameState, index: int) -> None:
        s.step = index
        s.reps = self.rules.phases[s.phase].steps[index].repeat

    def _end_turn(self, s: GameState, me: int, begin: bool = True) -> None:
        s.turns += 1
        if s.signal:
            s.signal &= ~SIGNAL_TURN
        if self._after_turn is not None:
            self._after_turn(s, me)
            if s.signal & (SIGNAL_ROUND | SIGNAL_GAME):
                self._end_round(s)
                return
        nxt = self.next_seat(s, me)
        if self._skipping[s.phase]:
            nxt = self._skip_turns(s, nxt)
        if self._each_once[s.phase]:
            s.turns_in_phase += 1
            if s.turns_in_phase >= sum(s.active):
                s.signal |= SIGNAL_PHASE
        if s.signal & SIGNAL_PHASE:
            self._next_phase(s)
        elif nxt == s.stop_before:
            self._end_round(s)
        else:
            s.current = nxt
            s.step = 0
            s.reps = self._repeat[s.phase][0]
            if begin:
                self.begin_turn(s)

    def _skip_turns(self, s: GameState, seat: int) -> int:
        """The next seat that does not miss its turn (the phase's `skip_turn`)."""
        phase = self.rules.phases[s.phase]
        assert phase.skip_turn is not None and phase.on_skip is not None
        for _ in range(4 * s.n + 4):
            if not self._call(phase.skip_turn, s, seat):
                return seat
            self._call(phase.on_skip, s, seat)
            s.turns += 1
            if s.log is not None:
                s.log.append({"event": "skip", "seat": seat + 1})
            seat = runtime.next_seat(s, seat, self._direction)
        message = (f"phase '{phase.name}': every player keeps missing turns (does on_skip "
                   "change what skip_turn tests?)")
        site = phase.skip_site
        if site is None or site.location is None:
            raise RuleRuntimeError(f"{self.rules.path}: {message}")
        raise RuleRuntimeError(message, replace(site, message=message))

    def _next_phase(self, s: GameState) -> None:
        s.signal &= ~(SIGNAL_PHASE | SIGNAL_TURN)
        if not self._enter_phase(s, s.phase + 1):
            self._end_round(s)

    def _enter_phase(self, s: GameState, index: int) -> bool:
        """Begin the first phase from `index` on whose `when` holds; False if none is left."""
        phases = self.rules.phases
        while index < len(phases) and phases[index].when is not None \
                and not self._call(phases[index].when, s, s.first):
            index += 1
        if index >= len(phases):
            return False
        phase = phases[index]
        s.phase = index
        s.turns_in_phase = 0
        first = s.first if phase.first is None else \
            self._seat(self._call(phase.first, s, s.first), s, f"phase '{phase.name}': first")
        s.current = first if s.active[first] else runtime.next_seat(s, first,
                                                                    self.rules.direction)
        self._enter_step(s, 0)
        self.begin_turn(s)
        return True

    # ----------------------------------------------------------------- rounds
    def _gather(self, s: GameState) -> None:
        """A new round where some zones keep their cards (`keep: true`): every other card
        returns to the deck's zone, face down and unknown, in card order, on top of what that
        zone keeps; kept cards stay where and as they are."""
        kept = self._kept
        home = self.rules.home_zone
        for z, zone in enumerate(s.zones):
            if z not in kept:
                zone.clear()
        back = [c for c in range(s.n_cards) if s.where[c] not in kept]
        s.zones[home].extend(back)
        for c in back:
            s.where[c], s.face_up[c], s.known[c], s.by[c] = home, False, 0, None
        sight.forget_cards(s, back)

    def _start_round(self, s: GameState) -> None:
        rules = self.rules
        s.round += 1
        s.dealer = runtime.next_seat(s, s.dealer, rules.direction)
        s.first = runtime.next_seat(s, s.dealer, rules.direction)
        if self._kept and s.round > 1:
            self._gather(s)
        else:
            for zone in s.zones:
                zone.clear()
            home = s.zones[rules.home_zone]
            home.extend(range(s.n_cards))
            s.where[:] = [rules.home_zone] * s.n_cards
            s.face_up[:] = [False] * s.n_cards
            s.known[:] = [0] * s.n_cards
            s.by[:] = [None] * s.n_cards
            sight.forget_all(s, len(s.zones))
        s.stop_before = None
        s.next_turn = None
        s.signal = 0
        for var in rules.variables:
            if var.scope == "round":
                s.vars[var.name] = self._call(var.initial, s)
            elif var.scope == "player_round":
                s.pvars[var.name] = [self._call(var.initial, s) for _ in range(s.n)]
                if s.house >= 0:
                    self._house_value(var.initial, s, var.name)
        if s.log is not None:
            s.log.append({"event": "round", "round": s.round, "dealer": s.dealer + 1})
        s.current = s.first
        self._call(rules.setup, s, s.first)
        if rules.after_setup is not None:
            self._call(rules.after_setup, s, s.first)
        if rules.round_first is not None:
            s.first = self._seat(self._call(rules.round_first, s, s.first), s, "round.first")
        s.version += 1
        s.legal_cache = None  # the first decision is listed when asked for
        if not self._enter_phase(s, 0):
            raise RuleRuntimeError(f"{rules.path}: round {s.round}: no phase is played (every "
                                   "phase's `when` is false)")

    def _seat(self, p: int, s: GameState, what: str) -> int:
        """A player who is to take a turn: a seat, never the house."""
        if p >= s.n:
            raise RuleRuntimeError(f"{self.rules.path}: {what} gives the house, which is not "
                                   "a seat and never takes a turn")
        return p

    def _end_round(self, s: GameState) -> None:
        rules = self.rules
        self._call(rules.round_end, s, s.current)
        scores = self._round_scores(s)
        for p in range(s.n):
            s.totals[p] += scores[p]
        s.round_scores.append(scores)
        if s.house >= 0:
            house_score = sum(self._call(rules.score, s, s.house))
            s.house_total += house_score
            s.house_scores.append(house_score)
        scored, won, active = list(s.totals), s.winners, list(s.active)
        parts = self._score_parts(s) if s.log is not None else None
        if rules.after_round is not None:
            self._call(rules.after_round, s, s.current)
        over = bool(s.signal & SIGNAL_GAME) or s.round >= s.rounds_total \
            or sum(s.active) == 0 or (rules.until is not None and self._call(rules.until, s))
        if s.log is not None:  # the public log: player variables as the views show them
            event = {"event": "round_end", "round": s.round, "scores": scores,
                     "totals": list(s.totals), "zones": self.layout(s, public=True),
                     "player_variables": public_variables(rules, s, over, round_over=True)}
            if parts:
                event["score_parts"] = parts
            if s.house >= 0:
                event["house"] = self._house_account(s, over)
            event.update(self._round_account(s, scored, won, active))
            s.log.append(event)
        if self.watch_round is not None:
            self.watch_round(s)
        s.version += 1
        if over:
            self._finish(s)
        else:
            self._start_round(s)

    def _house_account(self, s: GameState, over: bool) -> dict[str, Any]:
        """The house's part of a round's account: its score and total, and its variables as
        every seat may see them."""
        seen = house_view(self.rules, s, None, over, round_over=True)
        return {"score": s.house_scores[-1], "total": s.house_total,
                "variables": seen["variables"]}

    def _round_account(self, s: GameState, scored: list[int], won: list[int] | None,
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

    def _score_parts(self, s: GameState) -> dict[str, list[int]] | None:
        """Each score entry apart, for the round's account, where there are several."""
        rules = self.rules
        if len(rules.score_names) < 2 or rules.score_by != "player":
            return None
        each = [self._call(rules.score, s, p) if s.active[p] else (0,) * len(rules.score_names)
                for p in range(s.n)]
        return {name: [e[i] for e in each] for i, name in enumerate(rules.score_names)}

    def _round_scores(self, s: GameState) -> list[int]:
        """Each seat's score for the round; by team, the team's (worked out for its first
        seat) counts for each member."""
        rules = self.rules
        if rules.score_by == "team":
            team = [sum(self._call(rules.score, s, t)) for t in range(rules.teams)]
            return [team[p % rules.teams] for p in range(s.n)]
        return [sum(self._call(rules.score, s, p)) if s.active[p] else 0 for p in range(s.n)]

    def _cut_off(self, s: GameState) -> list[Action]:
        """The game reached the ruleset's bound on actions: it ends here, with no winner."""
        s.over, s.cut_off, s.winners = True, True, []
        s.window = []
        s.legal_cache = None
        if s.log is not None:
            s.log.append({"event": "game_end", "totals": list(s.totals), "winners": [],
                          "cut_off": self.cut_off_note()})
        return []

    def cut_off_note(self) -> str:
        """What a game cut off by its bound on actions says about its end."""
        return (f"no winner: the game reached its bound of {self.rules.max_actions:,} actions "
                "(max_actions) before it ended")

    def _finish(self, s: GameState) -> None:
        s.over = True
        if s.winners is None and self.rules.winner == "none":
            s.winners = []  # only `win` makes winners: the game ended without one
        if s.winners is None:
            seats = [p for p in range(s.n) if s.active[p]] or list(range(s.n))
            pick = min if self.rules.winner == "lowest" else max
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
            s.log.append(event)

    # ----------------------------------------------------------------- layout
    def layout(self, s: GameState, public: bool = False) -> dict[str, Any]:
        """Every zone's cards by name, face up or not: the whole truth; with `public`, only
        the cards everyone knows are named (the others are None), as the event log shows."""
        names = self.rules.cards.names
        out: dict[str, Any] = {}
        for zone in self.rules.zones:
            def cards(z: int) -> list[str | None]:
                return [names[c] if c >= 0 and (not public or s.known[c] == s.everyone)
                        else None for c in s.zones[z]]
            if zone.groups:
                out[zone.name] = {owner: [cards(z) for z in zone.instances(p)]
                                  for owner, p in owners(s)}
            elif zone.owned:
                out[zone.name] = {owner: cards(zone.zone_of(p)) for owner, p in owners(s)}
            else:
                out[zone.name] = cards(zone.index)
        return out
