"""What a seat's page may ask besides a move: to react, a hint, a decision taken back.

    POST /api/seat/{token}/react      {"want": bool} react at my next chance (or not);
                                      {"stop": bool} stop at every chance to react (or not)
    POST /api/seat/{token}/hint       {"bot": "greedy"}: a bot's pick and estimates
    POST /api/seat/{token}/takeback   {}: take back my last decision
    POST /api/seat/{token}/log        {}: all I have been told of the game (that is kept)

Each is refused (an HTTP status and one line) where it cannot be: a hint's bot is held to
the lobby's caps (a served game's hints are made in its bots' threads, one at a time for a
seat), a hint is for the seat's own decision, and a take-back for a game with one person,
before they see a card or a bot answers. How a seat meets reactions is its own: setting it
draws its own page again, and neither wakes nor changes the others' pages or choices.
"""

from __future__ import annotations

from typing import Any

from cardrules.errors import GameError
from cardrules.interpreter.domains import is_open, matches
from cardrules.interpreter.players import hint as hints
from cardrules.present.choices import choice_key, offered_order, once_each
from cardrules.present.lines import choice_text, choice_texts

from .game import Game, Refused
from .lobby import check_kind
from .payload import seat_news
from .served import Served


def react(game: Game, seat: int, body: dict[str, Any]) -> dict[str, Any]:
    """Set how the seat meets chances to react: `want` (the next one), `stop` (each)."""
    if game.engine.rules.reactions is None:
        raise Refused(409, "this game has no moves to react with")
    want, stop = body.get("want"), body.get("stop")
    if want is None and stop is None or not all(v is None or isinstance(v, bool)
                                                for v in (want, stop)):
        raise Refused(400, "expected {\"want\": true or false} or {\"stop\": true or false}")
    reacting = game.windows.seats[seat]
    before = (reacting.wanted, reacting.stop)
    if want is not None:
        game.windows.want(seat, want)
    if stop is not None:
        game.windows.set_stop(seat, stop)
    reacting = game.windows.seats[seat]
    if (reacting.wanted, reacting.stop) != before:
        # the seat's own page is drawn again, with the control as it now is; nobody
        # else's: another seat learns of it only from what the seat then does
        game.redrawn[seat] = game.redrawn.get(seat, 0) + 1
        game.write()  # a save keeps it: resumed, the game asks as the person asked
    return {"want": reacting.wanted, "stop": reacting.stop}


async def hint(served: Served, seat: int, body: dict[str, Any]) -> dict[str, Any]:
    """A bot's suggestion for the seat's decision now, worked out in the game's threads on
    a copy of the game: its pick and its estimate of each choice, by the index of the
    seat's choices (where the choice is one of them) and in the seat's words."""
    game = served.game
    kind = body.get("bot", hints.DEFAULT_HINT)
    if not isinstance(kind, str) or len(kind) > 40:
        raise Refused(400, "expected {\"bot\": \"greedy\"} (or ismcts, with a budget)")
    check_kind(kind)  # the lobby's caps
    try:
        hints.check_hint_kind(kind)
    except GameError as exc:
        raise Refused(400, str(exc)) from None
    async with served.lock:
        if game.to_move() != seat:
            raise Refused(409, "a hint is for your own decision: it is not yours now")
        if seat in served.hinting:
            raise Refused(429, "a hint for this seat is being worked out: wait for it")
        version, state, legal = game.version, game.state.copy(), game.legal()
        served.hinting.add(seat)
    engine = game.engine
    try:
        advice = await served.lane.run(hints.hint, engine, state, kind)
    finally:
        served.hinting.discard(seat)

    # the choices the page offers (Game.offered: each by its place in the page's list), by
    # what makes each the choice it is: an estimate of another that is the same choice goes
    # by its place
    order = offered_order(engine, state, seat, legal)
    offered = {choice_key(engine, state, legal[i]): at for at, i in enumerate(order)
               if not is_open(legal[i])}
    said = choice_texts(engine, state, seat, {i: legal[i] for i in order
                                              if not is_open(legal[i])})
    texts = {at: said[i] for at, i in enumerate(order) if i in said}

    def index_of(action: Any) -> int | None:
        return offered.get(choice_key(engine, state, action)) if not is_open(action) else None

    # a move whose text the person writes is offered once: a text the bot wrote goes by
    # that choice's place, and its own words
    writes = [at for at, i in enumerate(order) if is_open(legal[i])]

    def entry(action: Any) -> dict[str, Any]:
        index = index_of(action)
        if index is None:
            return {"index": next((at for at in writes
                                   if matches(legal[order[at]], action) is None), None),
                    "text": choice_text(engine, action, state, seat)}
        return {"index": index, "text": texts[index]}

    estimates = once_each(advice.estimates, lambda e: index_of(e.action))
    return {"version": version, "bot": kind, "pick": entry(advice.pick),
            "estimates": [{**entry(e.action), "words": e.words}
                          for e in estimates[:hints.SHOWN]],
            "more": max(0, len(estimates) - hints.SHOWN)}


def log(game: Game, seat: int) -> dict[str, Any]:
    """Everything the seat has been told of the game, as it was told (the game keeps its
    last NEWS_KEPT entries), the oldest first: what its page's news shows the end of."""
    return {"news": seat_news(game, seat, limit=None)}


async def take_back(served: Served, seat: int) -> dict[str, Any]:
    """Take back the seat's last decision: the game replayed to before it in the game's
    threads (a long game takes a while: every other game goes on meanwhile), then taken
    back, with nothing else let in between."""
    game = served.game
    async with served.lock:
        replayed = await served.lane.run(game.taken_back, seat)
        game.take_back(seat, replayed)
    return {"version": game.version}
