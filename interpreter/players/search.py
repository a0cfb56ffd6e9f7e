"""Search bots that know only what their seat knows: greedy one-step and ISMCTS.

Both work from the rules alone. They sample determinizations (knowledge.py): copies of
the game in which the cards the seat does not know are re-dealt at random, consistent
with everything the seat has seen. An action naming a card the seat does not know names
it by its place, so actions are carried between the real game and a sample through the
relabelling the sample made (knowledge.translate).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardrules.errors import IllegalAction
from cardrules.model import Ruleset

from .. import domains
from ..engine import Engine
from ..kernel import Kernel, kernel_for
from ..state import GameState
from .knowledge import determinize_with_map, translate
from .repetition import Memory
from .worth import rewards, seat_values

Action = tuple[Any, ...]


class NotInSample(Exception):
    """An action of the seat's that the rules refuse in a sample: whether it is legal hangs
    on cards the seat does not know, and the sample dealt them otherwise. Not an error of
    the rules: the sample says nothing about that action."""


# ------------------------------------------------------------------- helpers
def _key(action: Action) -> Any:
    """A hashable form of an action (lists become tuples)."""
    return tuple(_freeze(a) for a in action)


def _freeze(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def sample_fill(action: Action, rng: random.Random) -> Action:
    """An open action with its parameters filled: half the time as domains.fill does, half
    the time with a short value (short texts are the likelier sensible ones)."""
    out: list[Any] = [action[0]]
    for arg in action[1:]:
        if isinstance(arg, domains.Words):
            if rng.random() < 0.5:
                out.append(arg.sample(rng))
            else:
                top = min(arg.longest, arg.shortest + rng.randint(0, 5))
                length = rng.randint(arg.shortest, max(arg.shortest, top))
                out.append("".join(rng.choice(arg.alphabet) for _ in range(length)))
        else:
            out.append(arg)
    return tuple(out)


def _decided(state: GameState, seat: int) -> bool:
    """Whether the game is over or the seat is out of it."""
    return state.over or not state.active[seat]


def _mover(state: GameState) -> int:
    return state.window[0] if state.window else state.current


# ------------------------------------------------------------------- weighing
@dataclass(frozen=True)
class Estimate:
    """What a search bot thought of one candidate action: a value (higher is better) and
    that value in words."""

    action: Action
    value: float
    words: str


@dataclass(frozen=True)
class Weighed:
    """A search bot's decision: the action it takes, and its estimate of each candidate it
    weighed, the best first."""

    pick: Action
    estimates: tuple[Estimate, ...]
    ranked: tuple[Action, ...] = ()  # the candidates it would take instead, the best first


def _greedy_words(rules: Ruleset, total: float, tried: int, decisive: bool, won: int) -> str:
    """A greedy estimate in words, as `GreedyBot._value` measures it: the score margin it
    expects over the best other seat (team, with partnerships), the shared score where the
    table has one, or how often it won."""
    if decisive:
        return f"ends the game (or puts you out) in a sample: won {won} of {tried}"
    mean = total / max(tried, 1)
    samples = f"{tried} sample{'s' if tried != 1 else ''}"
    if rules.score_by == "table":
        return f"a shared score of {mean:.1f} ({samples})"
    rival = "the best other team" if rules.teams else "the best other seat"
    if abs(mean) < 0.05:
        return f"level with {rival} ({samples})"
    side = "ahead of" if mean > 0 else "behind"
    return f"{abs(mean):.1f} points {side} {rival} ({samples})"


# ------------------------------------------------------------------- greedy
class GreedyBot:
    """One step of look-ahead, to the end of the seat's own turn.

    Each legal action is tried on a few determinizations. Where the seat then decides again
    in the same turn (discard after drawing, say), it follows through with its best next
    action by the same measure, up to `follow` more actions, so that an action is valued by
    what it makes possible (a lay-off that leaves a better discard). The state reached is
    valued by the ruleset's own score for the seat, relative to the best other seat (of
    another team, with partnerships; a shared score as it is, where the table has one), or by
    the result if the game ends or the seat is out. If the action has set the round's end
    (a knock: the round ends before some seat's next turn), the sample is played to that
    end at random, so the action is valued by how the round then ends.

    An action that ends the game or puts the seat out of it in any sample is decisive: it is
    taken only if it won in at least `sure` of the samples tried and then wins in at least
    `sure` of `confirm` fresh ones (so the hidden cards are named when they are certain or
    very likely, never on a hunch).

    With more than `keep` candidates, all are tried on the first sample and only the best
    `keep` go on to the other samples, so that a decision among hundreds of actions (naming
    any two cards, say) costs about one sample's worth rather than `samples`.
    """

    name = "greedy"
    budget = "samples"  # what a seat kind's number sets: greedy:8

    def __init__(self, seed: Any, samples: int = 4, fills: int = 4, keep: int = 8,
                 follow: int = 3, confirm: int = 16, sure: float = 0.9,
                 max_playout: int = 200):
        self.rng = random.Random(seed)
        self.samples = samples
        self.fills = fills
        self.keep = keep
        self.follow = follow
        self.confirm = confirm
        self.sure = sure
        self.max_playout = max_playout
        self.memory = Memory()  # the positions its seat has seen, not to be returned to

    def choose(self, engine: Engine, state: GameState, legal: list[Action]) -> Action:
        if len(legal) == 1 and not domains.is_open(legal[0]):
            return legal[0]
        weighed = self.weigh(engine, state, legal)
        return self.memory.choose(engine, state, _mover(state), weighed.pick, weighed.ranked)

    def weigh(self, engine: Engine, state: GameState, legal: list[Action]) -> Weighed:
        """The action this bot takes among `legal`, and what it thought of each candidate
        (`choose` is this, with its pick alone)."""
        rng = self.rng
        # Samples are made by an engine that tells no watcher (a transcript, --reveal), and
        # played on its kernel: their actions are imagined, not the game's. Being copies,
        # they keep no event log.
        sampler = engine.unwatched()
        engine = kernel_for(sampler)
        seat = _mover(state)
        candidates = self._candidates(legal)
        totals = [0.0] * len(candidates)
        decisive = [False] * len(candidates)
        won = [0] * len(candidates)  # samples in which the candidate won the game (or shared it)
        tried = [0] * len(candidates)
        alive = list(range(len(candidates)))
        for _ in range(self.samples):
            det, mapping = determinize_with_map(sampler, state, seat, rng)
            engine.adopt(det, until_round_end=True)
            own = self._own_actions(engine, det)
            for i in alive:
                value, ends, wins = self._try(engine, det, own, candidates[i], mapping, seat)
                totals[i] += value
                decisive[i] = decisive[i] or ends
                won[i] += wins
                tried[i] += 1
            if len(alive) > self.keep:  # sort is stable: ties keep the rules' order
                # The best `keep` of those that are not decisive go on, and any decisive one
                # still winning as often as it must to be taken: a decisive action's value
                # (a win's) says nothing of how likely it is, so the way on is kept
                plain = sorted((i for i in alive if not decisive[i]),
                               key=lambda i: -totals[i])[:self.keep]
                bold = [i for i in alive if decisive[i] and won[i] >= self.sure * tried[i]]
                alive = sorted(plain + bold, key=lambda i: -totals[i]) or \
                    sorted(alive, key=lambda i: -totals[i])[:self.keep]  # (all are bold)
        order = sorted(alive, key=lambda i: -totals[i])
        pick = candidates[order[0]]
        for i in order:  # the best that is not decisive, or that wins often enough
            if not decisive[i] or (won[i] >= self.sure * self.samples
                                   and self._sure(engine, state, candidates[i], seat)):
                best = totals[i]
                ties = [candidates[j] for j in order if totals[j] == best
                        and (j == i or not decisive[j])]
                pick = ties[int(rng.random() * len(ties))]
                break
        weighed = sorted(range(len(candidates)), key=lambda i: (i not in alive, -totals[i] /
                                                                max(tried[i], 1)))
        return Weighed(pick, tuple(Estimate(candidates[i], totals[i] / max(tried[i], 1),
                                            _greedy_words(engine.rules, totals[i], tried[i],
                                                          decisive[i], won[i]))
                                   for i in weighed if tried[i]),
                       tuple(candidates[i] for i in order if not decisive[i]))

    def _candidates(self, legal: list[Action]) -> list[Action]:
        out: list[Action] = []
        for action in legal:
            if domains.is_open(action):
                out.extend(sample_fill(action, self.rng) for _ in range(self.fills))
            else:
                out.append(action)
        return out

    @staticmethod
    def _own_actions(engine: Engine, det: GameState) -> dict[Any, Action]:
        """A sample's own action tuples by key, so that play() takes its fast path."""
        return {_key(a): a for a in engine.legal_actions(det)}

    def _try(self, engine: Engine, det: GameState, own: dict[Any, Action], action: Action,
             mapping: dict[int, int], seat: int) -> tuple[float, bool, bool]:
        """(value, decisive, won) of playing `action` in the sample `det` and following
        through: decisive if the game ends or the seat is out, won if it wins the game."""
        try:
            sample, value = self._play(engine, det, own, action, mapping, seat)
        except NotInSample:
            return -1e9, False, False  # not playable in this sample: count it out
        if value is None:
            in_round = len(sample.round_scores) == len(det.round_scores)
            value = self._value(engine, sample, seat, in_round)
        return value, _decided(sample, seat), sample.over and seat in (sample.winners or [])

    def _play(self, engine: Engine, det: GameState, own: dict[Any, Action], action: Action,
              mapping: dict[int, int], seat: int) -> tuple[GameState, float | None]:
        """A copy of the sample after `action`, the seat's best follow-ups in the same turn
        and, if the round's end is now set, the rest of the round at random; with the value
        of the state reached, when following through has already worked it out."""
        sample = det.copy()
        mine = translate(engine, action, mapping)
        # The next decision is listed only if the seat is the one to take it (a reaction
        # window is the others' first), which saves listing it for every candidate.
        try:
            engine.advance(sample, own.get(_key(mine), mine))
        except IllegalAction:
            raise NotInSample(action) from None
        value: float | None = None
        for _ in range(self.follow):
            if sample.window and not sample.over:
                engine.legal_actions(sample)  # passes over the seats with nothing to react with
            if sample.over or sample.window or sample.current != seat \
                    or sample.turns != det.turns:
                break
            rounds = len(sample.round_scores)
            legal = engine.legal_actions(sample)
            if not legal:  # listing played an automatic step that ended the game
                value = None
                break
            sample, value = self._best_next(engine, sample, legal, seat)
            if len(sample.round_scores) != rounds or rounds != len(det.round_scores):
                value = None  # valued from another round's point of view: value it again
        if sample.stop_before is not None and not sample.over:  # a knock: play to the end
            value = None
            legal = engine.legal_actions(sample)
            rounds = len(sample.round_scores)
            for _ in range(self.max_playout):
                if not legal or len(sample.round_scores) != rounds:
                    break
                action = legal[int(self.rng.random() * len(legal))]
                legal = engine.play(sample, sample_fill(action, self.rng)
                                    if domains.is_open(action) else action)
        return sample, value

    def _best_next(self, engine: Engine, sample: GameState, legal: list[Action],
                   seat: int) -> tuple[GameState, float]:
        """The state after the seat's best next action (by immediate value), and its value.
        A follow-up that ends the game or puts the seat out is taken only if every one does:
        picked in a sample it would be a guess made knowing the sample's hidden cards, which
        the seat does not know (its own decisions weigh such actions with `_sure`). Only
        the state kept is listed on (by whoever asks next)."""
        best: tuple[bool, float, GameState] | None = None
        for action in self._candidates(legal):
            after = sample.copy()
            engine.advance(after, action)
            value = self._value(engine, after, seat,
                                len(after.round_scores) == len(sample.round_scores))
            option = (not _decided(after, seat), value, after)
            if best is None or option[:2] > best[:2]:
                best = option
        assert best is not None, "a decision always has a legal action"
        return best[2], best[1]

    def _sure(self, engine: Kernel, state: GameState, action: Action, seat: int) -> bool:
        """Whether a decisive action wins in at least `sure` of `confirm` fresh samples."""
        wins = 0
        for _ in range(self.confirm):
            det, mapping = determinize_with_map(engine, state, seat, self.rng)
            engine.adopt(det, until_round_end=True)
            try:
                sample, _ = self._play(engine, det, self._own_actions(engine, det), action,
                                       mapping, seat)
            except NotInSample:
                continue
            wins += sample.over and seat in (sample.winners or [])
        return wins >= self.sure * self.confirm

    @staticmethod
    def _value(engine: Engine, state: GameState, seat: int, in_round: bool = True) -> float:
        if engine.rules.score_by == "table":  # a shared score: the table's is the seat's
            return seat_values(engine, state, in_round)[seat]
        if state.over:
            winners = state.winners or []
            return 1e6 / len(winners) if seat in winners else -1e6
        if not state.active[seat]:
            return -1e6  # out of the game
        values = seat_values(engine, state, in_round)
        teams = engine.rules.teams
        others = [values[p] for p in range(state.n) if p != seat and state.active[p]
                  and not (teams and p % teams == seat % teams)]  # (a partner is no rival)
        return values[seat] - (max(others) if others else 0.0)


# ------------------------------------------------------------------- ISMCTS
class _Node:
    __slots__ = ("children", "visits", "reward", "avail", "seat")

    def __init__(self, seat: int) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed reward of the seat that made the move into this node
        self.avail = 0
        self.seat = seat


class IsmctsBot:
    """Single-observer information-set Monte Carlo tree search.

    Each iteration samples a determinization, descends a tree keyed by actions (UCB over
    the actions available in that sample, each node valued for the seat that moved into
    it), expands one node and finishes with a random playout to the end of the round (or
    game), bounded by `max_actions`; rewards come from `rewards`.

    The budget per decision is, first that is given: `iterations`; `seconds` of wall time
    (which depends on the machine, so play is no longer determined by the seed); else
    `work`, counted as the actions applied plus the actions listed while searching plus a
    charge per sample. Work tracks time closely enough across rulesets (listing hundreds of
    actions costs about as much as applying hundreds) while staying a pure function of the
    seed: the default, WORK, takes at most about 0.1 s a decision on a 2-core machine.
    Where a rule file's actions go through far more than an action does (the steps its
    game counts, docs/grammar.md §2.18, beyond HEAVY_ACTION an action on average), they
    are charged too, one unit of work for STEPS_PER_WORK steps, and a playout ends once it
    has counted PLAYOUT_STEPS (an action's own bound): a rule file whose every action takes
    a tenth of a second leaves the search a few dozen actions, not thousands. No shipped
    ruleset comes near either.
    """

    name = "ismcts"
    budget = "iterations"  # what a seat kind's number sets: ismcts:200
    timed = True  # ismcts:0.5s sets seconds
    WORK = 10_000
    HEAVY_ACTION = 100_000  # counted steps an imagined action may take at no extra charge
    STEPS_PER_WORK = 1_000  # counted steps beyond them charged as one unit of work
    PLAYOUT_STEPS = 10_000_000  # counted steps that end an iteration's random playout
    # What its imagined games are played on: the rules' kernel (benchmarks/bots_equal_time.py
    # plays them on the engine, to weigh what the kernel buys at equal time).
    playouts: Callable[[Engine], Kernel] = staticmethod(kernel_for)

    def __init__(self, seed: Any, iterations: int | None = None, seconds: float | None = None,
                 work: int | None = None, exploration: float = 0.7, max_actions: int = 200,
                 open_fills: int = 6):
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.work = work if work is not None else self.WORK
        self.c = exploration
        self.max_actions = max_actions
        self.open_fills = open_fills
        self._spent = 0
        self.memory = Memory()  # the positions its seat has seen, not to be returned to

    # The actions available at a node in one sample, as keys in the observer's frame.
    def _available(self, engine: Engine, legal: list[Action], node: _Node,
                   back: dict[int, int]) -> dict[Any, Action]:
        out: dict[Any, Action] = {}
        card_moves = engine.card_moves
        open_moves = engine.open_moves
        for action in legal:
            name = action[0]
            if name not in card_moves and name not in open_moves:
                out[_key(action)] = action  # no cards to relabel
            elif name in open_moves:
                filled = [k for k in node.children
                          if domains.matches(action, k) is None]
                for k in filled:
                    out[k] = k
                if len(filled) < self.open_fills:
                    fresh = sample_fill(action, self.rng)
                    out[_key(fresh)] = fresh
            else:
                mine = translate(engine, action, back)
                out[_key(mine)] = mine
        return out

    def choose(self, engine: Engine, state: GameState, legal: list[Action]) -> Action:
        if len(legal) == 1 and not domains.is_open(legal[0]):
            return legal[0]
        pick, tried = self._pick(self._grow(engine, state, legal), legal)
        ranked = [action for action, child in sorted(tried, key=lambda pair: -pair[1].visits)]
        return self.memory.choose(engine, state, _mover(state), pick, ranked)

    def _grow(self, engine: Engine, state: GameState, legal: list[Action]) -> _Node:
        """The search tree grown from the decision within the budget: its root."""
        # Samples are made by an engine that tells no watcher (a transcript, --reveal), and
        # played on its kernel: their actions are imagined, not the game's. Being copies,
        # they keep no event log.
        sampler = engine.unwatched()
        engine = self.playouts(sampler)
        seat = _mover(state)
        root = _Node(seat)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        self._spent = 0
        while True:
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif deadline is not None:
                if done > 0 and time.perf_counter() >= deadline:
                    break
            elif done > 0 and self._spent >= self.work:
                break
            done += 1
            self._iterate(sampler, engine, state, seat, root)
        return root

    def weigh(self, engine: Engine, state: GameState, legal: list[Action]) -> Weighed:
        """The action this bot takes among `legal`, and what it thought of each of the
        root's actions it tried: its mean reward (a share of the win) and visits."""
        root = self._grow(engine, state, legal)
        best, tried = self._pick(root, legal)
        estimates = sorted(((action, child) for action, child in tried),
                           key=lambda pair: (-pair[1].visits, -pair[1].reward))
        return Weighed(best, tuple(
            Estimate(action, child.reward / child.visits,
                     f"{100 * child.reward / child.visits:.0f}% of a win ({child.visits} "
                     f"tr{'ies' if child.visits != 1 else 'y'})")
            for action, child in estimates if child.visits),
            tuple(action for action, _ in estimates))

    def _pick(self, root: _Node, legal: list[Action]) -> tuple[Action, list[tuple[Action,
                                                                                  _Node]]]:
        """The most visited of the root's moves that are legal in the real game, and each
        of them with its node."""
        rng = self.rng
        real = {_key(a): a for a in legal if not domains.is_open(a)}
        best: Action | None = None
        best_visits = -1
        tried = []
        for k, child in root.children.items():
            if k in real:
                action = real[k]
            elif any(domains.is_open(t) and domains.matches(t, k) is None for t in legal):
                action = k
            else:
                continue
            tried.append((action, child))
            if child.visits > best_visits:
                best, best_visits = action, child.visits
        if best is None:
            best = legal[int(rng.random() * len(legal))]
            if domains.is_open(best):
                best = sample_fill(best, rng)
        return best, tried

    def _iterate(self, sampler: Engine, engine: Kernel, state: GameState, seat: int,
                 root: _Node) -> None:
        rng = self.rng
        det, mapping = determinize_with_map(sampler, state, seat, rng)
        engine.adopt(det, until_round_end=True)
        back = {new: old for old, new in mapping.items()}
        start_rounds = len(det.round_scores)
        start_spent = det.spent
        play = engine.play
        node = root
        path = [root]
        steps = listed = 0
        legal = engine.legal_actions(det)
        listed += len(legal)
        # Selection and expansion.
        while legal and len(det.round_scores) == start_rounds and steps < self.max_actions:
            avail = self._available(engine, legal, node, back)
            untried = [k for k in avail if k not in node.children]
            for k in avail:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            mover = _mover(det)
            if untried:
                k = untried[int(rng.random() * len(untried))]
                child = _Node(mover)
                child.avail = 1
                node.children[k] = child
                legal = play(det, translate(engine, avail[k], mapping))
                steps += 1
                listed += len(legal)
                path.append(child)
                break
            c = self.c
            best_k, best_score = None, -1.0
            for k in avail:
                ch = node.children[k]
                score = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best_k, best_score = k, score
            node = node.children[best_k]
            path.append(node)
            legal = play(det, translate(engine, avail[best_k], mapping))
            steps += 1
            listed += len(legal)
        # Random playout to the round's end (its hottest loop: an action's parts are looked
        # at only where the ruleset has a move with an open part).
        open_moves, uniform, most = engine.open_moves, rng.random, self.max_actions
        heaviest = start_spent + self.PLAYOUT_STEPS
        while legal and len(det.round_scores) == start_rounds and steps < most \
                and det.spent < heaviest:
            action = legal[int(uniform() * len(legal))]
            if open_moves and action[0] in open_moves and domains.is_open(action):
                action = sample_fill(action, rng)
            legal = play(det, action)
            steps += 1
            listed += len(legal)
        result = rewards(engine, det, len(det.round_scores) == start_rounds)
        # Sampling and scoring cost about as much as listing a few dozen actions.
        self._spent += steps + listed + det.n_cards // 2 + 10
        heavy = det.spent - start_spent - self.HEAVY_ACTION * max(steps, 1)
        if heavy > 0:
            self._spent += heavy // self.STEPS_PER_WORK
        for n in path[1:]:
            n.visits += 1
            n.reward += result[n.seat]
        root.visits += 1


def register(bots: dict[str, type]) -> None:
    bots["greedy"] = GreedyBot
    bots["ismcts"] = IsmctsBot
