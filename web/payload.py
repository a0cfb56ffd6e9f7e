"""What one seat's page is sent: its player view, its legal actions, and public news.

The page draws the table from the ruleset's declarations (`table_info`: zones with their
layouts, variables, how card names look) and one seat's `player_view`. A choice carries
its words (Engine.describe for that seat), the places of the cards it names (so a click
on a card can pick it) and what must be written for it; never a card's number. Nothing
here reads a card the seat does not know except through player_view and describe.
"""

from __future__ import annotations

from typing import Any

from cardrules.interpreter.domains import Words, is_open
from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.view import card_places, player_view
from cardrules.model import Action
from cardrules.present.lines import choice_text

from .game import Game

NEWS_SHOWN = 40


def table_info(engine: Engine) -> dict[str, Any]:
    """The ruleset's declarations a page draws with: the same for every seat and game."""
    rules = engine.rules
    return {
        "name": rules.name,
        "title": rules.title,
        "summary": " ".join(rules.summary.split()),
        "winner": rules.winner,
        "zones": [{"name": z.name, "owned": z.owned, "visibility": z.visibility,
                   "layout": z.layout, "rows": z.rows, "columns": z.columns,
                   "groups": z.groups} for z in rules.zones],
        "variables": [{"name": v.name, "scope": v.scope, "visibility": v.visibility}
                      for v in rules.variables],
        "faces": faces(engine),
    }


def faces(engine: Engine) -> dict[str, dict[str, Any]]:
    """How each card name of the deck looks: its rank, suit and colour in words. (Names
    only: it says what a card is called, never where one lies.)"""
    cards = engine.rules.cards
    out: dict[str, dict[str, Any]] = {}
    for c, name in enumerate(cards.names):
        if name not in out:
            out[name] = {"rank": engine.words.value_text("rank", cards.rank[c]),
                         "suit": engine.words.value_text("suit", cards.suit[c]),
                         "colour": engine.words.value_text("colour", cards.colour[c]),
                         "joker": bool(cards.joker[c])}
    return out


def seat_payload(game: Game, seat: int, full: bool = False) -> dict[str, Any]:
    """Everything `seat`'s page is sent now; with `full`, the table's declarations too."""
    engine, state = game.engine, game.state
    legal = game.legal()
    mover = engine.to_move(state)
    mine = legal if mover == seat else []
    places = card_places(engine.rules, state, seat) if mine else {}
    out: dict[str, Any] = {
        "game": game.id,
        "version": game.version,
        "seat": seat + 1,
        "seats": [{"seat": p + 1, "kind": kind} for p, kind in enumerate(game.seats)],
        "view": player_view(engine.rules, state, seat),
        "news": [line if isinstance(line, str) else line[seat]
                 for line in game.news[-NEWS_SHOWN:]],
        "reaction": PASS in mine,
        "choices": [choice(engine, game, seat, index, action, places)
                    for index, action in enumerate(mine)],
        "results": results(game) if state.over else None,
    }
    if full:
        out["table"] = table_info(engine)
    return out


def results(game: Game) -> dict[str, Any]:
    """How the game ended: the engine's results, and the seats that forfeited, if any."""
    out = game.engine.results(game.state)
    if game.forfeited:
        out["forfeited"] = [seat + 1 for seat in game.forfeited]
    return out


def choice(engine: Engine, game: Game, seat: int, index: int, action: Action,
           places: dict[int, list[Any]]) -> dict[str, Any]:
    """One legal action as `seat` may read it, with the places of the cards it names and
    what is still to be written for it."""
    state = game.state
    words = engine.words.describe(action, state, seat) if is_open(action) \
        else choice_text(engine, action, state, seat)
    move = engine.moves.get(action[0])
    texts = []
    if move is not None:
        texts = [{"at": i + 1, "name": name, "about": str(value)}
                 for i, (name, value) in enumerate(zip(move.params, action[1:]))
                 if isinstance(value, Words)]
    return {"index": index, "text": words, "move": action[0], "pass": action == PASS,
            "cards": [places[c] for c in named_cards(engine, action) if c in places],
            "texts": texts}


def named_cards(engine: Engine, action: Action) -> list[int]:
    """The cards an action names (a card parameter, or a list of cards, or of groups)."""
    move = engine.moves.get(action[0])
    if move is None:
        return []
    flags = getattr(move, "names_cards", ()) or tuple(kind == "card" for kind in move.kinds)
    out: list[int] = []
    for value, names in zip(action[1:], flags):
        if names:
            out.extend(_cards_in(value))
    return out


def _cards_in(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, (list, tuple)):
        return [c for part in value for c in _cards_in(part)]
    return []
