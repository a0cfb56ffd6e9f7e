"""A round's account for people: what each seat scored, entry by entry, and why.

Made from the round's `round_end` event, which is public (every card named in it is one
every seat knows, and a secret variable is shown only once the rules say so), and, for one
seat, the event's own entry for that seat (`told`: the cards it can tell besides, such as its
own hand left unshown): the same account at the terminal and in the browser. The rules'
words are used throughout: a score entry by its name and `doc`, a variable by its `label`,
the way the game is won as `winner_rule` says it (the one description every front end
shows).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardrules.interpreter.view import secret
from cardrules.model import Ruleset

from . import render
from .render import printable, printable_lines


def winner_rule(rules: Ruleset) -> str:
    """How the game is won, in words: 'lowest total wins', 'only a win decides'."""
    return render.winner_words(rules.winner)


@dataclass(frozen=True)
class Account:
    """A round's account: a title, a table (a header and a row per seat, the house last)
    and lines under it (the cards every seat can see, the rules' words for each entry,
    what happened after the round)."""

    round: int
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...]

    def headline(self) -> str:
        return self.title

    def lines(self) -> list[str]:
        """The account as text, its table in columns (the title is the headline); a table
        wider than TABLE_WIDTH in blocks of columns that fit, each with the seats' column."""
        widths = [max(len(row[i]) for row in (self.header, *self.rows))
                  for i in range(len(self.header))]
        blocks: list[list[int]] = [[]]
        for i in range(1, len(widths)):
            used = widths[0] + sum(2 + widths[j] for j in blocks[-1])
            if blocks[-1] and used + 2 + widths[i] > TABLE_WIDTH:
                blocks.append([])
            blocks[-1].append(i)
        out = []
        for block in blocks:
            out += ["  ".join([row[0].ljust(widths[0]), *(row[i].rjust(widths[i])
                                                          for i in block)]).rstrip()
                    for row in (self.header, *self.rows)]
        return printable_lines(out + list(self.notes))

    def to_data(self) -> dict[str, Any]:
        return {"round": self.round, "title": self.title, "header": list(self.header),
                "rows": [list(row) for row in self.rows], "notes": list(self.notes)}


TABLE_WIDTH = 56  # characters of an account's table line: it fits 60 columns, news-indented


def round_account(rules: Ruleset, event: dict[str, Any], last: bool = False,
                  seat: int | None = None) -> Account:
    """The account of the round a `round_end` event ends (`last`: the game ends with it), as
    every seat reads it, or as `seat` (from 0) does: with the cards it can tell besides."""
    scores, totals = event["scores"], event["totals"]
    parts = render.seat_parts(event, rules.teams)  # (by teams, each seat's its team's)
    entries = list(parts) if len(parts) > 1 else []
    labels = {var.name: var.title for var in rules.variables}
    shown = [name for name, values in event.get("player_variables", {}).items()
             if any(v is not None for v in values)]
    header = ("", *(_entry_title(name) for name in entries), "score", "total",
              *(labels.get(name, name) for name in shown))
    # A value the account does not give is '?': another's secret, or a card the reader has
    # not seen; the values as the reader's view holds them (the event's `told`), its own
    # value of none told as such, as its news tells it.
    unsure = {var.name for var in rules.variables
              if secret(var, last, round_over=True) or var.names_cards}
    told = event.get("told")
    own = {(name, owner): value for name, owner, value in told[seat]["values"]} \
        if seat is not None and told and seat < len(told) else {}
    rows = []
    for p, score in enumerate(scores):
        values = []
        for name in shown:
            value = event["player_variables"][name][p]  # (what all see, a secret shown at
            if value is None:  # the round's end among it), else what the reader's view held
                value = own.get((name, p))
            none = "none" if p == seat and (name, p) in own or name not in unsure else "?"
            values.append(render.value_words(rules, name, value,
                                             None if seat is None else seat + 1, none))
        row = [f"seat {p + 1}", *(str(parts[name][p]) for name in entries),
               str(score), str(totals[p]), *values]
        rows.append(tuple(row))
    house = event.get("house")
    if house is not None:
        kept = house.get("score_parts", {})
        rows.append((render.house_name(rules), *(str(kept.get(name, "")) for name in entries),
                     str(house["score"]), str(house["total"]), *("" for _ in shown)))
    # (what each entry counts, said once: with the first round's account)
    notes = _entry_docs(rules, entries or list(parts)) if event["round"] == 1 else []
    notes += _cards(rules, event, _seen_by(event, seat))
    notes += [line.strip() for line in render.after_round_lines(rules, event, last)]
    title = f"Round {event['round']} over ({winner_rule(rules)})"
    return Account(event["round"], printable(title), tuple(printable(h) for h in header),
                   tuple(tuple(printable(c) for c in row) for row in rows),
                   tuple(printable(n) for n in notes))


def ends_game(events: Sequence[dict[str, Any]], index: int) -> bool:
    """Whether the game ends with the round whose `round_end` is `events[index]` (its end
    is logged right after it)."""
    return index + 1 < len(events) and events[index + 1].get("event") == "game_end"


def _entry_title(name: str) -> str:
    return name.replace("_", " ")


def _entry_docs(rules: Ruleset, names: list[str]) -> list[str]:
    """Each score entry's own words, as the rule file gives them (its `doc`)."""
    docs = {str(e.get("name")): " ".join(str(e.get("doc") or "").split())
            for e in (rules.data.get("scoring") or {}).get("round") or []
            if isinstance(e, dict)}
    return [f"{_entry_title(name)}: {docs[name]}" for name in names if docs.get(name)]


def _seen_by(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The zones of a `round_end` event as `seat` can tell them (every seat's, for None)."""
    zones: dict[str, Any] = event["zones"]
    told = event.get("told")
    if seat is None or not isinstance(told, list) or not 0 <= seat < len(told):
        return zones
    own: dict[str, Any] = told[seat]["zones"]
    return {name: {**cards, **own[name]} if isinstance(cards, dict) and name in own
            else own.get(name, cards) for name, cards in zones.items()}


def _cards(rules: Ruleset, event: dict[str, Any], zones: dict[str, Any]) -> list[str]:
    """The cards that can be seen at the round's end (`zones`): each seat's, then the
    shared."""
    out = []
    for seat in range(len(event["scores"])):
        parts = render.owned_parts(rules, zones, str(seat + 1), plain=True)
        if parts:
            out.append(f"seat {seat + 1}: " + "   ".join(parts))
    if event.get("house") is not None:
        parts = render.owned_parts(rules, zones, "house", plain=True)
        if parts:
            out.append(f"{render.house_name(rules)}: " + "   ".join(parts))
    for zone in rules.zones:
        if zone.owned:
            continue
        if zone.groups:  # the table's piles
            if any(c is not None for g in zones[zone.name] for c in g):
                grouped = render.groups_text(rules, zone, zones[zone.name], True)
                out.append(f"{zone.name}: {grouped}")
        elif any(c is not None for c in zones[zone.name]):
            out.append(f"{zone.name}: {render.zone_text(zone, zones[zone.name], True)}")
    return out

