"""Any cardrules ruleset as an OpenSpiel game (`pip install 'cardrules[openspiel]'`).

    import pyspiel
    import cardrules.openspiel  # registers the game "cardrules"

    game = pyspiel.load_game("cardrules", {"ruleset": "golf6", "players": 4})
    game = pyspiel.load_game("cardrules(ruleset=golf6,options=rounds:4;stock_runs_out:end_round)")

Parameters: `ruleset` (a built-in name or a rule file; default golf6), `players` (0 for the
ruleset's default), `options` (the ruleset's options, NAME:VALUE or NAME=VALUE separated
by ';'; a game string allows only ':'), `actions` (`auto`, `whole` or `parts`: how
actions are chosen, below) and `returns` (`auto`, `win`, `points`, `chips`).

The game is sequential and of imperfect information. Its returns come at the end, and are
what the ruleset plays for (`scoring.stakes`) or what `returns` asks: for a win, zero-sum,
each of k winners 1/k - 1/n and every other seat -1/n (0 to all if nobody wins, or if the
match reaches the bound of 10,000 actions per round, which ends it with no winner); points,
general-sum (identical where the table scores as one); chips, zero-sum. Each loaded game's
type says which (docs/adapters.md, section 4).

Chance is explicit: the game starts with 4 chance nodes, each a byte of a 32-bit seed,
uniformly. The deal and every later shuffle or random draw come from a generator seeded
with it and kept in the state, so they are not chance nodes of their own: they are
decided, unseen, by those first four outcomes. `resample_from_infostate(player, sampler)`
re-deals everything the player does not know (knowledge.determinize) and reseeds the
generator, so nothing to come is foreseen either; OpenSpiel's Python ISMCTS
(open_spiel.python.algorithms.ismcts) runs on it unchanged. A sample's seed and the chance
outcomes its history begins with are its own, never the game's (which would deal the true
hands); no seed deals a sample, so its history does not replay it.

Actions are whole where the ruleset's table of whole actions has at most 4,096 ids (one id
per move and values of its parameters, a card named by its place), else chosen in parts
(adapters/table.py, docs/adapters.md): first the move, then each parameter (lists element
by element and texts letter by letter, each closed by `end`). The ids offered at each part
are those that begin at least one whole legal action. The table of ids is fixed for a
ruleset, table size and `actions`: `num_distinct_actions` ids, labelled by
`action_to_string`.

Observations are the player's own view: `observation_string` its player view as JSON,
`information_state_string` that and its recall of every action as it saw it;
`observation_tensor` and `information_state_tensor` the encoding of adapters/observe.py.
Only the default observation types are offered (one player's private and public
information); another is refused. States serialize (OpenSpiel's pickling of Python games
carries the cardrules state as JSON).
"""

from __future__ import annotations

import base64
import pickle
import random
from typing import Any

import numpy as np
import pyspiel

from cardrules.interpreter.domains import fill
from cardrules.interpreter.runtime import MOST_VALUE

from .match import SEED_BASE, SEED_PARTS, Match, stakes_returns, totals_worth
from .observe import TensorPlan, tensor_items, tensor_of
from .table import AdapterError, Table, option_pairs, table
from .texts import information_text, observation_text, truth_text

SHORT_NAME = "cardrules"
CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
# A state's Python attributes as OpenSpiel serializes them, none: a sample's are set after.
NO_ATTRIBUTES = base64.b64encode(pickle.dumps({})).decode("ascii")
PARAMETERS: dict[str, Any] = {"ruleset": "golf6", "players": 0, "options": "",
                              "actions": "auto", "returns": "auto"}

# The type registered for every ruleset: zero-sum, as a game played for a win (the default)
# is; each loaded game's own type (`game_type`) says what its stakes make it.
GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="A card game described by a cardrules ruleset",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=16,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def game_type(utility: Any) -> pyspiel.GameType:
    """GAME_TYPE with another utility: a game's stakes say which its returns are."""
    fields = ("short_name", "long_name", "dynamics", "chance_mode", "information",
              "reward_model", "max_num_players", "min_num_players",
              "provides_information_state_string", "provides_information_state_tensor",
              "provides_observation_string", "provides_observation_tensor",
              "parameter_specification")
    return pyspiel.GameType(utility=utility, **{f: getattr(GAME_TYPE, f) for f in fields})


class CardrulesGame(pyspiel.Game):
    """One ruleset, with its options, at one table size."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**PARAMETERS, **(params or {})}
        players = int(params["players"])
        if players < 0:
            raise AdapterError(f"players: expected 0 (the ruleset's default) or more, "
                               f"not {players}")
        self.table: Table = table(str(params["ruleset"]), option_pairs(params["options"]),
                                  players or None, str(params["actions"]),
                                  str(params["returns"]))
        n, stakes = self.table.players, self.table.stakes
        utility = pyspiel.GameType.Utility
        # The returns' kind and bounds, by the stakes (docs/adapters.md, section 4): a win
        # shared is zero-sum in [-1/n, 1 - 1/n] (alone at the table, 1 or 0); chips change
        # hands, zero-sum; points are each seat's own, one score for all where the table
        # scores as one; a total is bounded only by the most a game holds.
        if stakes == "win" and n > 1:
            kind, low, high, total = utility.ZERO_SUM, -1.0 / n, 1.0 - 1.0 / n, 0.0
        elif stakes == "win":
            kind, low, high, total = utility.GENERAL_SUM, 0.0, 1.0, None
        else:
            kind = utility.ZERO_SUM if stakes == "chips" else utility.IDENTICAL \
                if self.table.rules.score_by == "table" else utility.GENERAL_SUM
            low, high = -float(MOST_VALUE), float(MOST_VALUE)
            total = 0.0 if stakes == "chips" else None
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.table.actions),
            max_chance_outcomes=SEED_BASE,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=self.table.max_actions * self.table.max_parts,
        )
        super().__init__(game_type(kind), info, params)

    def new_initial_state(self) -> CardrulesState:
        return CardrulesState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Observer:
        return Observer(self.table, iig_obs_type, params)

    def max_chance_nodes_in_history(self) -> int:
        return SEED_PARTS


class CardrulesState(pyspiel.State):
    """A game in progress: the cardrules match and the parts of the action being chosen."""

    def __init__(self, game: CardrulesGame):
        super().__init__(game)
        self.match = Match(game.table)
        self.player = CHANCE  # asked very often: kept up to date rather than worked out
        # (move number, seen by, dropped) and what _played() made of them
        self._played_at: tuple[tuple[int, int, int], int, str] = ((-1, -1, -1), 0, "")

    def current_player(self) -> int:
        return self.player

    def _player(self) -> int:
        m = self.match
        if m.is_chance():
            return CHANCE
        seat = m.to_move()
        return TERMINAL if seat is None else seat

    # What Python asks of a state most often is answered here, in Python: through OpenSpiel's
    # C++ State, legal_actions() asks current_player three times and is_terminal once, each a
    # call from C++ back into Python, before it reaches _legal_actions. C++ callers (OpenSpiel's
    # own algorithms and checks) still go that way, to the same answers.
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The ids `player` (by default the one to move) may take now, ascending; at a chance
        node, its outcomes; none at the end."""
        current = self.player
        if current == TERMINAL:
            return []
        if current == CHANCE:
            return [outcome for outcome, _ in self.match.chance_outcomes()]
        if player is None or player == current:
            return list(self.match.legal())
        if player < 0:  # as OpenSpiel's State refuses it
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        return self.player == CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        return self.match.legal() if player == self.player and player >= 0 else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.match.is_chance():  # as OpenSpiel's games refuse it
            raise pyspiel.SpielError("chance_outcomes: this state is not a chance node")
        return self.match.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        match = self.match
        if match.dealt is None:
            match.apply_chance(int(action))
        elif match.table.whole is not None:
            seat = match.play_id(action)
            self.player = TERMINAL if seat is None else seat
            return
        else:
            match.apply(int(action))
        self.player = self._player()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return self.match.label(int(action))

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    # The tensors of the default observers, likewise written here: through C++, each call
    # also deals a new game to learn the tensor's size.
    def observation_tensor(self, player: int | None = None) -> list[float]:
        """`player`'s (by default the one to move) observation as the default observer
        writes it (flat)."""
        return self._tensor(player, False)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """`player`'s (by default the one to move) information state as the perfect-recall
        observer writes it (flat)."""
        return self._tensor(player, True)

    def _tensor(self, player: int | None, recall: bool) -> list[float]:
        table = self.match.table
        if player is None:
            player = self.player
        if not 0 <= player < table.players:  # as OpenSpiel's State refuses it
            raise pyspiel.SpielError(f"player {player} is not at the table (players 0 to "
                                     f"{table.players - 1})")
        return tensor_items(TensorPlan.of(table, recall), self.match, player)

    def returns(self) -> list[float]:
        return self.match.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardrulesState:
        """A state `player_id` cannot tell from this one: the cards it does not know re-dealt,
        the generator reseeded (from the sampler's draws), and the seed its own: its history
        begins with the sample's seed parts, not the game's, and lists the actions no more
        than the player saw them (another's text without its letters)."""
        if not 0 <= player_id < self.match.table.players:
            raise AdapterError(f"player {player_id} is not at the table (players 0 to "
                               f"{self.match.table.players - 1})")
        rng = random.Random(int(probability_sampler() * 2 ** 53))
        match = self.match.resample(player_id, rng)
        # The sample's history is its own: its seed parts, then the game's actions as the
        # player saw them, less the parts of an action the sample's chooser begins afresh.
        # (No seed deals the sample, so replaying the history deals another game: see
        # docs/adapters.md.)
        count, played = self._played(player_id, len(self.match.prefix) - len(match.prefix))
        history = [f"{CHANCE}:{b}" for b in match.seed_parts] + ([played] if played else [])
        other = self.get_game().deserialize_state(
            f"history={','.join(history)}\nmove_number={len(match.seed_parts) + count}\n"
            f"__dict__={NO_ATTRIBUTES}")
        other.match = match
        other.player = other._player()
        return other

    def _played(self, seen_by: int, dropped: int) -> tuple[int, str]:
        """The actions after the deal's chance outcomes as `seen_by` saw them, less the last
        `dropped`, as OpenSpiel serializes a history (`player:action`, separated by commas),
        and how many there are. A letter of another seat's text is that seat's own: left out
        (the sample's records say only that it wrote one); a card another seat took from its
        own hand is named by the hand alone. Kept while the state stays as it
        is (a search resamples one state again and again), as text, which a copy shares."""
        key = (self.move_number(), seen_by, dropped)
        if self._played_at[0] != key:
            made = self.full_history()[len(self.match.seed_parts):]
            if dropped:
                made = made[:-dropped]
            table = self.match.table
            parts, seen_id = table.parts, table.seen_id
            if table.whole is None and parts.letter_base >= 0:
                made = [a for a in made if a.player == seen_by or parts.letter_of(a.action) is None]
            # Another seat's card from its own hand is named by the hand alone: where it lay
            # there is the holder's order, which `seen_by` never saw.
            ids = [a.action if a.player in (seen_by, CHANCE) else seen_id(a.action, seen_by)
                   for a in made]
            self._played_at = (key, len(made), ",".join(
                f"{a.player}:{i}" for a, i in zip(made, ids)))
        return self._played_at[1], self._played_at[2]

    def __str__(self) -> str:
        return truth_text(self.match)


class Observer:
    """What one player may see, as OpenSpiel's Python observers give it."""

    def __init__(self, table: Table, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise AdapterError(f"observation parameters are not supported by this adapter: "
                               f"{params}")
        recall = False
        if iig_obs_type is not None:
            if not iig_obs_type.public_info \
                    or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
                raise AdapterError("this adapter observes as one player sees the game (public "
                                   "and that player's private information) only")
            recall = bool(iig_obs_type.perfect_recall)
        self.recall = recall
        self.plan = TensorPlan.of(table, recall)
        self.tensor = np.zeros(self.plan.size, np.float32)
        self.dict = self.plan.views(self.tensor)

    def set_from(self, state: CardrulesState, player: int) -> None:
        self.tensor[:] = tensor_of(self.plan, state.match, player)

    def string_from(self, state: CardrulesState, player: int) -> str:
        if self.recall:
            return information_text(state.match, player)
        return observation_text(state.match, player)


class RoundRollouts:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots that plays on at random, whole
    actions at a time, to the end of the round (or of the game) and values the position
    reached: at the game's end its returns; else the totals so far, each seat's distance from
    the mean over the spread, signed so that better is higher (zero-sum, within [-1, 1]).

    A whole-match random rollout (OpenSpiel's RandomRolloutEvaluator) costs, in golf6, some
    700 actions (twice as many parts); this one plays about a hundred actions, on the
    kernel."""

    def __init__(self, rollouts: int = 1, seed: int | None = None, max_actions: int = 2000):
        self.rollouts = rollouts
        self.rng = random.Random(seed)
        self.max_actions = max_actions

    def evaluate(self, state: CardrulesState) -> np.ndarray:
        total = np.zeros(state.match.table.players)
        for _ in range(self.rollouts):
            total += self._rollout(state.match)
        return total / self.rollouts

    def prior(self, state: CardrulesState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return [(int(a), p) for a, p in state.chance_outcomes()]
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]

    def _rollout(self, match: Match) -> np.ndarray:
        if match.dealt is None or match.is_over():
            return np.array(match.returns())
        kernel, rng = match.table.kernel, self.rng
        s = match.playing().copy()
        rounds = kernel.results(s)["rounds"]
        legal = kernel.legal_actions(s)
        for _ in range(self.max_actions):
            if not legal or kernel.results(s)["rounds"] != rounds:
                break
            action = legal[int(rng.random() * len(legal))]
            legal = kernel.play(s, fill(action, rng) if kernel.open_moves else action)
        if s.over:
            return np.array(stakes_returns(match.table, s))
        sign = -1.0 if match.table.rules.winner == "lowest" else 1.0
        if match.table.stakes != "win":  # (the totals are the returns' own scale)
            return np.array(totals_worth(match.table, s))
        totals = sign * np.array(s.totals, dtype=float)
        spread = totals.max() - totals.min()
        return (totals - totals.mean()) / spread if spread else np.zeros(len(totals))


def load(ruleset: str = "golf6", players: int | None = None,
         options: dict[str, Any] | None = None, returns: str = "auto") -> Any:
    """The pyspiel game of a ruleset: load("golf6", 4, {"rounds": 4}); `returns` as the
    game parameter of that name (docs/adapters.md, section 4)."""
    params: dict[str, Any] = {"ruleset": ruleset, "players": players or 0}
    if options:
        params["options"] = ";".join(f"{k}:{v}" for k, v in option_pairs(options))
    if returns != "auto":
        params["returns"] = returns
    return pyspiel.load_game(SHORT_NAME, params)


def register() -> None:
    """Register the game with OpenSpiel (done on import; again does nothing)."""
    if SHORT_NAME not in {t.short_name for t in pyspiel.registered_games()}:
        pyspiel.register_game(GAME_TYPE, CardrulesGame)


register()
