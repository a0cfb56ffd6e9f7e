"""Lockstep: a ruleset and OpenSpiel's own game played side by side, decision by decision.

For each ruleset written to reproduce one of OpenSpiel's games (`MATCHED`), a game is played
in both at once: OpenSpiel's chance outcomes are drawn first, as one order of the deck (and,
for Dou Dizhu, the place of the card turned up), and become the ruleset's given deal
(interpreter/deal.py); then, before every decision, the seat
to move and the whole legal set must agree (each of the ruleset's legal actions translated
into OpenSpiel's action ids, one for one); a player picks one of OpenSpiel's actions, which
is applied in both. Where the ruleset plays a single legal action by itself (an `automatic`
step), OpenSpiel must offer that action alone. At the end both games must be over, with the
same returns. A game stops at its first difference, which is counted by kind:

    seat      another seat is to move
    legal     the legal sets differ (or two of the ruleset's actions are one of OpenSpiel's)
    forced    the ruleset played an action by itself that OpenSpiel does not offer alone
    end       one game is over and the other is not
    returns   both are over, with other returns
    error     the ruleset failed (a rule's fault)

Players are random, biased toward the rare endings a uniform player seldom reaches (nil
bids, knocking as soon as it may, laying off, bombs and long combinations), so those paths
are played too; Kuhn poker's
five endings need no bias. Another game is matched by a table entry: its ruleset and
options, OpenSpiel's name, how a card's name reads as OpenSpiel's card id, how the drawn
outcomes make the deal, how an action translates, and how the biased player picks.

Needs open_spiel (`pip install '.[openspiel]'`).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardrules.dsl.loader import load_ruleset
from cardrules.errors import CardrulesError
from cardrules.interpreter.deal import parse_deal_data
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.state import GameState
from cardrules.model import Action, Ruleset

KINDS = ("seat", "legal", "forced", "end", "returns", "error")

Translate = Callable[[Ruleset, GameState, Action], int]  # (the game the action is made in)
Chooser = Callable[[Any, list[int], random.Random], int]
# (the deck as OpenSpiel's card ids in the order drawn, their names, the game's generator,
#  the number of players)
#   -> (the ruleset's given deal as data, OpenSpiel's chance outcomes in turn)
Dealer = Callable[[list[int], list[str], random.Random, int],
                  tuple[dict[str, Any], list[int]]]


@dataclass(frozen=True)
class Matched:
    """A ruleset that plays one of OpenSpiel's games, and how the two are compared."""

    ruleset: str
    options: dict[str, str]
    game: str  # OpenSpiel's name for it (with its default parameters)
    card: Callable[[str], int]  # a card's name -> OpenSpiel's card id
    deal: Dealer  # the deck drawn -> the ruleset's deal and OpenSpiel's chance outcomes
    translate: Translate  # one of the ruleset's actions -> OpenSpiel's action id
    choose: Chooser  # a biased player: (OpenSpiel state, its legal ids, rng) -> an id
    # the chance outcomes of a whole deal (OpenSpiel's ids, each as often as it is dealt),
    # where they are not each card of one deck once (Hanabi deals faces, by count)
    deck: Callable[[], list[int]] | None = None
    params: dict[str, Any] = field(default_factory=dict)  # OpenSpiel's game's parameters


@dataclass
class Tally:
    """What a run compared: games, decisions, and differences by kind (with the first
    example of each, to reproduce it)."""

    games: int = 0
    decisions: int = 0
    differences: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    moves: Counter[str] = field(default_factory=Counter)  # the ruleset's moves made, by name

    def add(self, kind: str, note: str) -> None:
        self.differences[kind] += 1
        self.examples.setdefault(kind, note)


# ------------------------------------------------------------------ cards and actions
_OS_SUITS = {"spades": "SCDH", "gin": "SCDH"}
_GIN_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SPADES_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _split(name: str) -> tuple[str, str]:
    return name[:-1], name[-1]


def gin_card(name: str) -> int:
    """OpenSpiel's gin_rummy card id: suits spades, clubs, diamonds, hearts; ace low."""
    rank, suit = _split(name)
    return "SCDH".index(suit) * 13 + _GIN_RANKS.index(rank)


def spades_card(name: str) -> int:
    """OpenSpiel's spades card id: suits clubs, diamonds, hearts, spades; ace high."""
    rank, suit = _split(name)
    return "CDHS".index(suit) * 13 + _SPADES_RANKS.index(rank)


def gin_meld_id(names: Sequence[str]) -> int:
    """OpenSpiel's number for a gin meld (its action is 56 plus this): the sets first, five
    numbers a rank (the four three-card sets, by the suit left out, then the four-card set),
    then the runs of 3, 4 and 5 cards, each by suit and lowest rank."""
    ranks = sorted(_GIN_RANKS.index(_split(n)[0]) for n in names)
    suits = ["SCDH".index(_split(n)[1]) for n in names]
    if ranks[0] == ranks[-1]:  # a set
        missing = [s for s in range(4) if s not in suits]
        return ranks[0] * 5 + (missing[0] if missing else 4)
    size, suit, low = len(names), suits[0], ranks[0]
    first = {3: 65, 4: 65 + 44, 5: 65 + 44 + 40}[size]
    return first + suit * (14 - size) + low


def _name(rules: Ruleset, card: int) -> str:
    return rules.cards.names[card]


def gin_translate(rules: Ruleset, state: GameState, action: Action) -> int:
    """gin-rummy's actions as OpenSpiel's gin_rummy ids."""
    move = action[0]
    fixed = {"take_upcard": 52, "draw_stock": 53, "decline": 54, "wall_stop": 54, "done": 54,
             "no_more": 54, "finish": 54, "knock": 55, "wall_knock": 55}
    if move in fixed:
        return fixed[move]
    if move in ("discard", "knock_discard", "lay_off"):
        return gin_card(_name(rules, action[1]))
    if move in ("lay", "meld"):
        return 56 + gin_meld_id([_name(rules, c) for c in action[1]])
    raise ValueError(f"gin-rummy move '{move}' has no OpenSpiel action")


def kuhn_card(name: str) -> int:
    """OpenSpiel's kuhn_poker card id: the jack 0, the queen 1, the king 2."""
    return "JQK".index(_split(name)[0])


def kuhn_translate(rules: Ruleset, state: GameState, action: Action) -> int:
    """kuhn-poker's actions as OpenSpiel's kuhn_poker ids: its pass (0) is a check or a fold
    here, its bet (1) a bet or a call."""
    return {"check": 0, "fold": 0, "bet": 1, "call": 1}[action[0]]


def spades_translate(rules: Ruleset, state: GameState, action: Action) -> int:
    """spades' actions as OpenSpiel's spades ids: a card is its id, a bid of n is 52 + n
    (nil is 0)."""
    if action[0] == "bid":
        return 52 + int(action[1])
    return spades_card(_name(rules, action[1]))


_HANABI_COLOURS = "RYGWB"  # OpenSpiel's (the Hanabi Learning Environment's) colour order


def hanabi_card(name: str) -> int:
    """OpenSpiel's hanabi chance outcome for a card: colour (R, Y, G, W, B) x 5 + rank - 1."""
    rank, colour = _split(name)
    return _HANABI_COLOURS.index(colour) * 5 + int(rank) - 1


def hanabi_deck() -> list[int]:
    """The 50 cards a game deals, as OpenSpiel's outcomes: per colour three 1s, two 2s, 3s
    and 4s, one 5."""
    return [colour * 5 + rank for colour in range(5) for rank, count in
            enumerate((3, 2, 2, 2, 1)) for _ in range(count)]


def hanabi_translate(rules: Ruleset, state: GameState, action: Action) -> int:
    """hanabi's actions as OpenSpiel's hanabi ids: a discard of the card at place i of the
    hand is i, a play hand_size + i; a clue to the player `offset` seats on, of a colour or
    a rank, comes after, colours before ranks (OpenSpiel's move order)."""
    size = 5 if state.n <= 3 else 4
    move, me = action[0], state.current
    if move in ("discard", "play"):
        place = state.zones[state.where[action[1]]].index(action[1])
        return place + (size if move == "play" else 0)
    offset = (action[1] - me) % state.n
    if move == "tell_colour":
        colour = _HANABI_COLOURS.index(rules.cards.suit_names[action[2]][0].upper())
        return 2 * size + (offset - 1) * 5 + colour
    return 2 * size + (state.n - 1) * 5 + (offset - 1) * 5 + int(action[2])


_POKER_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def holdem_card(name: str) -> int:
    """OpenSpiel's universal_poker card id: rank (2 to the ace) x 4 + suit (clubs, diamonds,
    hearts, spades)."""
    rank, suit = _split(name)
    return _POKER_RANKS.index(rank) * 4 + "CDHS".index(suit)


def holdem_translate(rules: Ruleset, state: GameState, action: Action) -> int:
    """holdem's actions as universal_poker's ids: fold 0, check or call 1, bet or raise 2."""
    return {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}[action[0]]


# Heads-up limit hold'em as universal_poker plays it (the ACPC's game): the first player the
# big blind, the second the small blind and the dealer, who acts first before the flop and
# second after it; bets of 2 then 4; three raises of the big blind before the flop, a bet and
# three raises after (holdem's cap of 4 bets); stacks no limit game reaches.
HOLDEM_PARAMS: dict[str, Any] = {
    "betting": "limit", "numPlayers": 2, "numRounds": 4, "blind": "2 1",
    "firstPlayer": "2 1 1 1", "maxRaises": "3 4 4 4", "raiseSize": "2 2 4 4",
    "numSuits": 4, "numRanks": 13, "numHoleCards": 2, "numBoardCards": "0 3 1 1",
    "stack": "20000 20000"}


# ------------------------------------------------------------------ deals
def gin_zones(outcomes: list[str], players: int) -> dict[str, list[str]]:
    """OpenSpiel deals ten cards to the first player, ten to the second, the upcard, then
    each card drawn from the stock in turn: the stock's order from the top."""
    return {"hand[1]": outcomes[:10], "hand[2]": outcomes[10:20], "upcard": [outcomes[20]],
            "stock": outcomes[21:]}


def spades_zones(outcomes: list[str], players: int) -> dict[str, list[str]]:
    """OpenSpiel deals the cards round the table, the first to the first player."""
    return {f"hand[{p + 1}]": outcomes[p::4] for p in range(4)}


def hanabi_zones(outcomes: list[str], players: int) -> dict[str, list[str]]:
    """OpenSpiel deals the first player's whole hand, then the next player's, then each card
    drawn in turn: the stock's order from the top."""
    size = 5 if players <= 3 else 4
    hands = {f"hand[{p + 1}]": outcomes[p * size:(p + 1) * size] for p in range(players)}
    return {**hands, "stock": outcomes[players * size:]}


def kuhn_zones(outcomes: list[str], players: int) -> dict[str, list[str]]:
    """OpenSpiel deals the first player's card, then the second's; the third stays out."""
    return {"hand[1]": outcomes[:1], "hand[2]": outcomes[1:2], "stock": outcomes[2:]}


def holdem_zones(outcomes: list[str], players: int) -> dict[str, list[str]]:
    """universal_poker deals the first player's two cards, the second's, then the board's
    cards as they are turned: the stock's order from the top."""
    return {"hand[1]": outcomes[:2], "hand[2]": outcomes[2:4], "stock": outcomes[4:]}


def by_zones(zones: Callable[[list[str], int], dict[str, list[str]]]) -> Dealer:
    """Where OpenSpiel's chance outcomes are the cards dealt, one by one: the ruleset's deal
    names the zones they make (`zones`: the drawn cards' names and the number of players ->
    each zone's)."""
    def deal(order: list[int], names: list[str], rng: random.Random, players: int,
             ) -> tuple[dict[str, Any], list[int]]:
        return {"zones": zones(names, players)}, order
    return deal


# ------------------------------------------------------------------ dou dizhu
_DD_RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
_DD_JOKERS = {"BJ": 52, "RJ": 53}  # OpenSpiel's black-and-white joker, then its coloured one


def dd_card(name: str) -> int:
    """OpenSpiel's dou_dizhu card id: suits clubs, diamonds, hearts, spades, ranks from 3 up
    to 2 in each; then the black joker (52) and the red one (53)."""
    if name in _DD_JOKERS:
        return _DD_JOKERS[name]
    rank, suit = _split(name)
    return "CDHS".index(suit) * 13 + _DD_RANKS.index(rank)


def dd_deal(order: list[int], names: list[str], rng: random.Random, players: int,
            ) -> tuple[dict[str, Any], list[int]]:
    """OpenSpiel first draws the place (0 to 50) of a card turned up, then deals 51 cards
    round the table from its first player, the card at that place making its holder the
    first bidder; the three cards it does not deal are the landlord's. The ruleset sets the
    three aside, turns up the next card, shuffles the rest again and deals from seat 1 (the
    seat after the first dealer): its first shuffle puts those four on top, its second is
    OpenSpiel's order of the 51 dealt."""
    place = rng.randrange(51)
    rest = [n for i, n in enumerate(names[:51]) if i != place]
    first = [*names[51:], names[place], *rest]
    return {"shuffles": [first, names[:51]]}, [place] + [51 + card for card in order[:51]]


_DD_STRINGS: dict[str, int] = {}


def _dd_rank_text(name: str) -> str:
    if name in _DD_JOKERS:
        return "(BWJ)" if name == "BJ" else "(CJ)"
    return "3456789TJQKA2"[_DD_RANKS.index(_split(name)[0])]


def _dd_order(name: str) -> int:
    return _DD_JOKERS.get(name, 0) or _DD_RANKS.index(_split(name)[0])


def dd_text(rules: Ruleset, action: Action) -> str:
    """An action of dou-dizhu as OpenSpiel writes its own: "Pass", "Bid 2", the ranks played
    from the lowest ("33344", "(BWJ)(CJ)"), an airplane with kickers as its trios, a dash
    and the kickers ("333444-57")."""
    move = action[0]
    if move in ("no_bid", "pass_turn"):
        return "Pass"
    if move == "bid":
        return f"Bid {action[1]}"
    if move == "rocket":
        return "(BWJ)(CJ)"
    parts = [sorted((_name(rules, c) for c in part), key=_dd_order) for part in action[1:]]
    if move in ("airplane_solos", "airplane_pairs"):
        return "".join(map(_dd_rank_text, parts[0])) + "-" + \
            "".join(map(_dd_rank_text, parts[1]))
    return "".join(map(_dd_rank_text, sorted(sum(parts, []), key=_dd_order)))


def dd_translate(rules: Ruleset, state: GameState, action: Action) -> int:
    """dou-dizhu's actions as OpenSpiel's dou_dizhu ids: each action's text (dd_text) is
    looked up among the texts of OpenSpiel's 26,057 actions, one text each."""
    if not _DD_STRINGS:
        import pyspiel
        state = pyspiel.load_game("dou_dizhu").new_initial_state()
        texts = {state.action_to_string(0, a): a for a in range(26_057)}
        assert len(texts) == 26_057, "two of OpenSpiel's actions read the same"
        _DD_STRINGS.update(texts)
    return _DD_STRINGS[dd_text(rules, action)]


# ------------------------------------------------------------------ biased players
_GIN_UTILS: list[Any] = []


def gin_choose(state: Any, legal: list[int], rng: random.Random) -> int:
    """Knock whenever it may (at the wall too), lay off and meld nearly always, take the
    upcard half the time, and mostly discard the card that leaves the least deadwood (by
    OpenSpiel's own count), so that hands come near a knock often; otherwise uniform."""
    cards = [a for a in legal if a < 52]
    melds = [a for a in legal if a >= 56]
    if 55 in legal and rng.random() < 0.7:
        return 55
    hand = list(state.hands()[state.current_player()])
    if len(hand) == 11 and cards and 54 not in legal and rng.random() < 0.8:
        if not _GIN_UTILS:
            import pyspiel
            _GIN_UTILS.append(pyspiel.gin_rummy.GinRummyUtils(13, 4, 10))
        least = _GIN_UTILS[0].min_deadwood
        return min(cards, key=lambda c: (least([h for h in hand if h != c]), rng.random()))
    if 54 in legal and (cards or melds) and 52 not in legal and rng.random() < 0.85:
        return rng.choice(cards or melds)
    if 52 in legal and 53 in legal:
        return 52 if rng.random() < 0.5 else 53
    return rng.choice(legal)


def spades_choose(state: Any, legal: list[int], rng: random.Random) -> int:
    """Bid nil a third of the times it may; otherwise uniform."""
    if 52 in legal and rng.random() < 0.3:
        return 52
    return rng.choice(legal)


def holdem_choose(state: Any, legal: list[int], rng: random.Random) -> int:
    """Fold one time in twenty it may, else call or raise alike: most hands reach the
    showdown, where the two games' hand rankings are compared (a uniform player folds a
    third of its hands before the flop)."""
    if 0 in legal and rng.random() >= 0.05:
        legal = [a for a in legal if a != 0]
    return rng.choice(legal)


def dd_choose(state: Any, legal: list[int], rng: random.Random) -> int:
    """Bid 3 now and then, pass less than a uniform player would, play a bomb or the rocket
    half the times one may, so that doublings and springs come up, and a chain, a trio or
    an airplane half the times one may, so that long combinations are followed too;
    otherwise uniform."""
    if legal[:4] == [0, 1, 2, 3] and rng.random() < 0.2:
        return 3
    plays = [a for a in legal if a > 3]  # (in the bidding, none)
    bombs = [a for a in plays if a >= _DD_BOMBS]
    if bombs and rng.random() < 0.5:
        return rng.choice(bombs)
    long = [a for a in plays if _DD_CHAINS <= a < _DD_PAIRS or a >= _DD_PAIR_CHAINS]
    if long and rng.random() < 0.5:
        return rng.choice(long)
    if 0 in legal and plays and rng.random() < 0.7:
        return rng.choice(plays)
    return rng.choice(legal)


# Where OpenSpiel's table of actions puts the chains of solos, the pairs, the chains of pairs
# (then trios, trios with kickers, airplanes), and the bombs and the rocket, which end it.
_DD_CHAINS, _DD_PAIRS, _DD_PAIR_CHAINS, _DD_BOMBS = 19, 55, 68, 26_057 - 14


def hanabi_choose(state: Any, legal: list[int], rng: random.Random) -> int:
    """Play a card that fits (read from OpenSpiel's whole state, which a player could not
    see: the point is to reach long games) two times in three when there is one, any card
    one time in ten, else a discard or a clue: so fireworks are built and completed, and
    games reach the spent stock and its last round (a uniform player burns its fuses
    within a few turns)."""
    size = 5 if state.num_players() <= 3 else 4
    plays = [a for a in legal if size <= a < 2 * size]
    fitting = [size + i for i in _hanabi_fitting(str(state), state.current_player())]
    if fitting and rng.random() < 2 / 3:
        return rng.choice([a for a in fitting if a in legal] or legal)
    if plays and rng.random() < 0.1:
        return rng.choice(plays)
    return rng.choice([a for a in legal if a not in plays] or legal)


def _hanabi_fitting(text: str, seat: int) -> list[int]:
    """The places of `seat`'s cards that fit their fireworks, read from OpenSpiel's text of
    the whole state ('Fireworks: R0 Y1 ...', then each hand's cards, 'R1 || ...', the hands
    parted by '-----')."""
    lines = text.splitlines()
    levels = {part[0]: int(part[1:]) for line in lines if line.startswith("Fireworks:")
              for part in line.split()[1:]}
    start = lines.index("Hands:") + 1
    end = next(i for i, line in enumerate(lines) if line.startswith("Deck size"))
    hands: list[list[str]] = [[]]
    for line in lines[start:end]:
        if line.startswith("-----"):
            hands.append([])
        elif "||" in line:
            hands[-1].append(line.split()[0])
    return [i for i, card in enumerate(hands[seat]) if levels[card[0]] + 1 == int(card[1])]


def uniform_choose(state: Any, legal: list[int], rng: random.Random) -> int:
    """Uniform: every ending of a short game is reached often enough as it is."""
    return rng.choice(legal)


MATCHED: dict[str, Matched] = {
    "spades": Matched("spades", {"one_deal": "true", "first_bidder": "seat1",
                                 "first_lead": "seat1", "spades_broken": "never",
                                 "team_bid_limit": "true"}, "spades",
                      spades_card, by_zones(spades_zones), spades_translate, spades_choose),
    "gin-rummy": Matched("gin-rummy", {"openspiel": "true"}, "gin_rummy", gin_card,
                         by_zones(gin_zones), gin_translate, gin_choose),
    "kuhn-poker": Matched("kuhn-poker", {}, "kuhn_poker", kuhn_card, by_zones(kuhn_zones),
                          kuhn_translate, uniform_choose),
    "dou-dizhu": Matched("dou-dizhu", {"openspiel": "true"}, "dou_dizhu", dd_card, dd_deal,
                         dd_translate, dd_choose),
    "hanabi": Matched("hanabi", {"fuse_out": "zero", "empty_clues": "false"}, "hanabi",
                      hanabi_card, by_zones(hanabi_zones), hanabi_translate, hanabi_choose,
                      hanabi_deck),
    "holdem": Matched("holdem", {"hands": "1"}, "universal_poker", holdem_card,
                      by_zones(holdem_zones), holdem_translate, holdem_choose,
                      params=HOLDEM_PARAMS),
}


# ------------------------------------------------------------------ playing
class Lockstep:
    """One matched game's engines, ready to play games side by side."""

    def __init__(self, match: Matched, options: dict[str, str] | None = None,
                 params: dict[str, Any] | None = None) -> None:
        """`options` added to the match's, and `params` given to OpenSpiel's game, for a
        variant both have (gin's knock_card)."""
        import pyspiel

        self.match = match
        self.rules = load_ruleset(match.ruleset, {**match.options, **(options or {})})
        self.applied: list[tuple[int, Action]] = []
        self.engine = Engine(self.rules, watch=self._watched)
        self.game = pyspiel.load_game(match.game, {**match.params, **(params or {})})
        deck = self.rules.cards.names[:self.rules.cards.per_deck]
        self.names = {match.card(n): n for n in deck}

    def _watched(self, state: GameState, seat: int, action: Action) -> None:
        self.applied.append((seat, action))

    def play(self, seed: int, tally: Tally, order: Sequence[int] | None = None,
             opening: Sequence[int] = ()) -> None:
        """One game from `seed` (its deal and its players' picks); its decisions and its
        first difference, if any, go to `tally`. `order`: OpenSpiel's chance outcomes, the
        deck in the order it deals it (default: drawn from the seed); `opening`: OpenSpiel
        actions the players make first, before picking for themselves."""
        rng = random.Random(seed)
        if order is None:
            drawn = self.match.deck() if self.match.deck is not None else sorted(self.names)
            rng.shuffle(drawn)
            order = drawn
        data, chance = self.match.deal(list(order), [self.names[c] for c in order], rng,
                                       self.game.num_players())
        tally.games += 1
        history: list[int] = []
        try:
            kind, note = self._play(seed, rng, chance, data, history, tally, list(opening))
        except CardrulesError as exc:
            kind, note = "error", str(exc)
        if kind:
            tally.add(kind, f"game seed {seed}: {note}; OpenSpiel actions {history}")

    def _play(self, seed: int, rng: random.Random, chance: list[int], data: dict[str, Any],
              history: list[int], tally: Tally, opening: list[int]) -> tuple[str, str]:
        deal = parse_deal_data(data, self.rules, self.game.num_players())
        theirs = self.game.new_initial_state()
        drawn = iter(chance)
        ours = self.engine.new_game(self.game.num_players(), seed, deal=deal)
        self._chance(theirs, drawn)
        while not theirs.is_terminal():
            if ours.over:
                return "end", "the ruleset's game is over and OpenSpiel's is not"
            seat = self.engine.to_move(ours)
            if seat != theirs.current_player():
                return "seat", f"seat {seat} to move here, player {theirs.current_player()} there"
            legal = self.engine.legal_actions(ours)
            ids = [self.match.translate(self.rules, ours, a) for a in legal]
            wanted = sorted(theirs.legal_actions())
            tally.decisions += 1
            if sorted(ids) != wanted:
                return "legal", self._differ(ids, wanted, theirs)
            pick = opening.pop(0) if opening else self.match.choose(theirs, wanted, rng)
            if pick not in wanted:
                raise ValueError(f"an opening action {pick} that is not legal")
            history.append(pick)
            self.applied.clear()
            tally.moves[legal[ids.index(pick)][0]] += 1
            self.engine.apply(ours, legal[ids.index(pick)])
            theirs.apply_action(pick)
            self._chance(theirs, drawn)
            for seat, forced in self.applied[1:]:  # what the ruleset then played by itself
                wanted = sorted(theirs.legal_actions()) if not theirs.is_terminal() else []
                own = self.match.translate(self.rules, ours, forced)
                tally.decisions += 1
                if theirs.is_terminal() or seat != theirs.current_player() or wanted != [own]:
                    return "forced", f"the ruleset played {forced} by itself; OpenSpiel " \
                                     f"offers {wanted}"
                history.append(own)
                theirs.apply_action(own)
                self._chance(theirs, drawn)
        if not ours.over:
            return "end", "OpenSpiel's game is over and the ruleset's is not"
        returns = [float(t) for t in ours.totals]
        if returns != list(theirs.returns()):
            return "returns", f"returns {returns} here, {list(theirs.returns())} there"
        return "", ""

    def _chance(self, state: Any, drawn: Any) -> None:
        """Apply OpenSpiel's chance nodes: the next of its drawn outcomes each."""
        while state.is_chance_node():
            state.apply_action(next(drawn))

    def _differ(self, ids: list[int], wanted: list[int], theirs: Any) -> str:
        extra, missing = Counter(ids) - Counter(wanted), Counter(wanted) - Counter(ids)
        def words(found: Counter[int]) -> str:
            return ", ".join(theirs.action_to_string(theirs.current_player(), a)
                             for a in sorted(found.elements())) or "nothing"
        return f"the ruleset also offers {words(extra)}; OpenSpiel also offers {words(missing)}"


def run(name: str, games: int, seconds: float | None = None, seed: int = 1,
        params: dict[str, Any] | None = None) -> Tally:
    """Play up to `games` lockstep games of a matched game (fewer if `seconds` run out);
    `params` for OpenSpiel's game (hanabi's players)."""
    step = Lockstep(MATCHED[name], params=params)
    tally = Tally()
    stop = time.monotonic() + seconds if seconds is not None else None
    for game in range(games):
        if stop is not None and time.monotonic() > stop:
            break
        step.play(seed * 1_000_003 + game, tally)
    return tally
