"""What one seat's page is sent: its player view, its legal actions, and public news.

The page draws the table from the ruleset's declarations (`table_info`: zones with their
layouts, variables, how card names look) and one seat's `player_view`. A choice carries
its words (Engine.describe for that seat), the places of the cards it names (so a click
on a card can pick it) and what must be written for it; never a card's number. Nothing
here reads a card the seat does not know except through player_view and describe.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cardrules.interpreter.domains import Words, is_open
from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.players.hint import HINT_KINDS
from cardrules.interpreter.view import card_places, player_view
from cardrules.model import Action
from cardrules.present import render
from cardrules.present.lines import choice_texts, rules_parts
from cardrules.present.news import News

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
        "winner_rule": render.winner_words(rules.winner),
        "rules": [{"kind": kind, "text": text} for kind, text in rules_parts(rules)],
        "hints": list(HINT_KINDS),
        "zones": [{"name": z.name, "owned": z.owned, "visibility": z.visibility,
                   "layout": z.layout, "rows": z.rows, "columns": z.columns,
                   "groups": z.groups} for z in rules.zones],
        "variables": [{"name": v.name, "label": v.title, "scope": v.scope,
                       "visibility": v.visibility, "kind": v.kind}
                      for v in rules.variables if not v.internal],
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


def seat_payload(game: Game, seat: int, full: bool = False,
                 left: float | None = None) -> dict[str, Any]:
    """Everything `seat`'s page is sent now; with `full`, the table's declarations too.
    `left`: the seconds a reaction window waiting for the seat has left, if it waits a
    bounded time."""
    engine, state = game.engine, game.state
    legal = game.legal()
    mover = engine.to_move(state)
    mine = legal if mover == seat else []
    # as the terminal offers them: in view order, two choices alike to everyone once, a
    # reaction's the plausible first; each by its place in that list
    order = game.offered(seat)
    places = card_places(engine.rules, state, seat) if mine else {}
    texts = choice_texts(engine, state, seat, {i: mine[i] for i in order
                                               if not is_open(mine[i])})
    out: dict[str, Any] = {
        "game": game.id,
        "version": game.version,
        "seat": seat + 1,
        "seats": [{"seat": p + 1, "kind": kind} for p, kind in enumerate(game.seats)],
        "view": player_view(engine.rules, state, seat),
        "news": seat_news(game, seat),
        "reaction": PASS in mine,
        "react": react_info(game, seat, left),
        "takeback": len(game.people) == 1 and seat in game.people
        and game.takeback.refusal(state, seat, 1) is None,
        "choices": [choice(engine, game, seat, at, index, mine[index], places, texts)
                    for at, index in enumerate(order)],
        "account": game.accounts[-1][seat].to_data() if game.accounts else None,
        "results": results(game) if state.over else None,
    }
    if full:
        out["table"] = table_info(engine)
    return out


def seat_news(game: Game, seat: int, limit: int | None = NEWS_SHOWN) -> list[dict[str, Any]]:
    """The latest things that happened (at most `limit`; None: all the game keeps, the
    whole log), as `seat` read them, the oldest first. A round's account is told whole in
    the whole log, as `log` tells it at the terminal; among the latest, by its headline (the
    page shows the last rounds' accounts beside)."""
    out: list[dict[str, Any]] = []
    for entry in reversed(game.news):
        if isinstance(entry, str):
            out.append(News(entry, kind="game").to_data())
        else:
            out.extend((item if limit is None or item.kind != "account"
                        else replace(item, then=())).to_data() for item in reversed(entry[seat]))
        if limit is not None and len(out) >= limit:
            break
    return out[:limit][::-1]


def react_info(game: Game, seat: int, left: float | None) -> dict[str, Any] | None:
    """The seat's reaction control, in a ruleset with reactions: what reacting is called,
    whether the seat may react (it is still in), whether a window waits for it now, how it
    meets windows (`stop` at each, `wanted` at the next) and, where a window waits a
    bounded time, the seconds left."""
    engine, state = game.engine, game.state
    if engine.rules.reactions is None:
        return None
    reacting = game.windows.seats.get(seat)
    moves = engine.rules.reactions.moves
    names = dict.fromkeys(a[0] for a in engine.reactions(state, seat)) \
        if not state.over else {}
    label = " / ".join(dict.fromkeys(reaction_label(engine, m.name) for m in moves
                                     if m.name in names)) or \
        " / ".join(dict.fromkeys(reaction_label(engine, m.name) for m in moves))
    return {"label": label, "offered": bool(names) and reacting is not None,
            "open": game.windows.in_window(state, seat),
            "stop": bool(reacting and reacting.stop), "wanted": bool(reacting and reacting.wanted),
            "left": None if left is None else round(left, 1)}


def reaction_label(engine: Engine, name: str) -> str:
    """A reaction move as the control names it: its label up to its first choice or colon
    ('Name the hidden cards')."""
    words = engine.words.describe_move(name)
    return words.split(":")[0].strip() or name


def results(game: Game) -> dict[str, Any]:
    """How the game ended: the engine's results, and the seats that forfeited, if any."""
    rules = game.engine.rules
    out = game.engine.results(game.state)
    if game.forfeited:
        out["forfeited"] = [seat + 1 for seat in game.forfeited]
    out["standings"] = render.standings(out, rules.winner, rules.teams)
    return out


def choice(engine: Engine, game: Game, seat: int, at: int, index: int, action: Action,
           places: dict[int, list[Any]], said: dict[int, str]) -> dict[str, Any]:
    """One legal action (`legal()[index]`, the choice at place `at` of those offered) as
    `seat` may read it (`said`: choice_texts of those offered, by index), with the places
    of the cards it names and what is still to be written for it."""
    state = game.state
    words = engine.words.describe(action, state, seat) if is_open(action) else said[index]
    move = engine.moves.get(action[0])
    texts = []
    if move is not None:
        texts = [{"at": i + 1, "name": name, "about": str(value)}
                 for i, (name, value) in enumerate(zip(move.params, action[1:]))
                 if isinstance(value, Words)]
    return {"index": at, "text": words, "move": action[0], "pass": action == PASS,
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
