"""Text rendering for people: cards with suit symbols, zones, round summaries, standings."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from cardrules.interpreter.view import LAID, laid_names
from cardrules.model import Ruleset, ZoneDef

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

# Terminal escape sequences: CSI (ESC [ ... or its one-byte form), OSC (ESC ] ... ended by BEL
# or ST) and the other two-character ESC sequences.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]?|\x9b[0-?]*[ -/]*[@-~]?"
                      r"|[\x1b\x9d]\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -~]?")
# Control characters other than the line break (C0, DEL, C1), and the invisible marks that
# reorder or hide text (bidirectional controls, zero-width characters).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e"
                       "\u2060-\u2069\ufeff]")


def printable(text: str) -> str:
    """Text from a rule file or a saved game, safe to print at a terminal: escape sequences
    and control characters removed (a tab becomes a space), so that no title, label or name
    can move the cursor, clear the screen, set the window's title or hide what follows."""
    if text.isprintable():
        return text
    return _CONTROLS.sub("", _ESCAPES.sub("", text.replace("\t", " ")))


def quoted(text: str, width: int = 40) -> str:
    """What a person typed, to quote back in a message: each character that is not printable
    written as an escape ('\\x1b'), and clipped to `width` characters."""
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return text if len(text) <= width else text[:width - 3] + "..."


def printable_lines(lines: Iterable[str]) -> list[str]:
    return [printable(line) for line in lines]


def card_text(name: str | None, plain: bool = False) -> str:
    """'QH' -> 'Q♥' (or 'QH' when plain); None (a card not seen) -> '##'."""
    if name is None:
        return "##"
    if plain or name == "JK":
        return "Jk" if name == "JK" else name
    suit = SUIT_SYMBOLS.get(name[-1])
    return name[:-1] + suit if suit else name


def cards_text(names: Sequence[str | None], plain: bool = False) -> str:
    return " ".join(card_text(c, plain).rjust(3) for c in names) if names else "(none)"


def zone_text(zone: ZoneDef, names: Sequence[str | None], plain: bool = False) -> str:
    """A zone's cards on one line; a grid's rows separated by ' / '."""
    if zone.layout == "grid":
        rows = [names[i:i + zone.columns] for i in range(0, len(names), zone.columns)]
        return " / ".join(cards_text(r, plain) for r in rows)
    if zone.layout == "stack" and zone.visibility == "public" and names:
        count = f"{len(names)} card" + ("s" if len(names) != 1 else "")
        return f"{card_text(names[-1], plain)} on top ({count})"
    return cards_text(names, plain)


def groups_text(rules: Ruleset, zone: ZoneDef, groups: Sequence[Sequence[str | None]],
                plain: bool = False, empty: str = "-") -> str:
    """A grouped zone's non-empty groups, numbered from 1: '1: AS 2S | 3: KH'; a laid run
    as a view shows it ('2: 4H 2C=5H 6H 7H': view.laid_names)."""
    shown = [f"{i}: {group_text(rules, zone, g, plain)}" for i, g in enumerate(groups, 1) if g]
    return " | ".join(shown) or empty


def group_text(rules: Ruleset, zone: ZoneDef, names: Sequence[str | None],
               plain: bool = False) -> str:
    """One group's cards; a laid run (of a layout runs are read in) as it climbs, a wild
    card in a gap with the card it stands for."""
    run = laid_names(rules, names) if zone.layout in LAID else None
    if run is None:
        return cards_text(names, plain)
    return " ".join((card_text(name, plain) + ("=" + card_text(stands, plain) if stands
                                               else "")).rjust(3) for name, stands in run)


def table_lines(rules: Ruleset, layout: dict[str, Any], plain: bool = False) -> list[str]:
    """The whole table, every card named (view.table_cards): shared zones, then each seat's."""
    lines = [f"    {zone.name}: " + (groups_text(rules, zone, layout[zone.name], plain)
                                     if zone.groups else zone_text(zone, layout[zone.name], plain))
             for zone in rules.zones if not zone.owned]
    seats = sorted({seat for zone in rules.zones if zone.owned for seat in layout[zone.name]},
                   key=lambda seat: int(seat) if seat.isdigit() else 1 << 30)
    for seat in seats:
        parts = []
        for zone in rules.zones:
            if zone.owned and zone.groups:
                parts.append(f"{zone.name}: "
                             + groups_text(rules, zone, layout[zone.name][seat], plain))
            elif zone.owned:
                parts.append(f"{zone.name}: {zone_text(zone, layout[zone.name][seat], plain)}")
        who = house_name(rules) if seat == "house" else f"seat {seat}"
        lines.append(f"    {who}  " + "   ".join(parts))
    return printable_lines(lines)


def house_name(rules: Ruleset) -> str:
    """The house's name, as people see it ('' for a ruleset without a house)."""
    return rules.house.name if rules.house is not None else ""


def owned_parts(rules: Ruleset, zones: dict[str, Any], owner: str,
                plain: bool = False) -> list[str]:
    """An owner's zones in a round's account ('1'... or 'house'), those with a card known."""
    parts = []
    for zone in rules.zones:
        if zone.owned and zone.groups:
            if any(zones[zone.name][owner]):
                grouped = groups_text(rules, zone, zones[zone.name][owner], plain)
                parts.append(f"{zone.name}: {grouped}")
        elif zone.owned:
            cards = zones[zone.name][owner]
            if any(c is not None for c in cards):
                parts.append(f"{zone.name}: {zone_text(zone, cards, plain)}")
    return parts


def round_summary(rules: Ruleset, event: dict[str, Any], plain: bool = False) -> list[str]:
    """The lines for one finished round: every seat's zones and score, then shared zones."""
    lines = [f"Round {event['round']}"]
    zones = event["zones"]
    scores, totals = event["scores"], event["totals"]
    for seat, score in enumerate(scores):
        parts = owned_parts(rules, zones, str(seat + 1), plain)
        for name, values in event.get("player_variables", {}).items():
            if written(values[seat]):
                parts.append(f"{name}: {value_words(rules, name, values[seat], none='?')}")
        lines.append(f"  seat {seat + 1}  " + "   ".join(parts)
                     + f"   score {score:>4}{score_parts(event, seat, rules.teams)}  "
                     f"total {totals[seat]:>5}")
    house = event.get("house")
    if house is not None:
        parts = owned_parts(rules, zones, "house", plain)
        parts += [f"{name}: {'?' if value is None else value}"
                  for name, value in house["variables"].items()]
        lines.append(f"  {house_name(rules)}  " + "   ".join(parts)
                     + f"   score {house['score']:>4}  total {house['total']:>5}")
    for zone in rules.zones:  # shared zones, when anything in them is known to all
        if zone.owned:
            continue
        if zone.groups:
            if any(c is not None for g in zones[zone.name] for c in g):
                lines.append(f"  {zone.name}: {groups_text(rules, zone, zones[zone.name], plain)}")
        elif any(c is not None for c in zones[zone.name]):
            lines.append(f"  {zone.name}: {zone_text(zone, zones[zone.name], plain)}")
    return printable_lines(lines + after_round_lines(rules, event))


def seat_parts(event: dict[str, Any], teams: int) -> dict[str, list[int]]:
    """A round's score entry by entry, each a list of every seat's (by teams, each seat's are
    its team's), from a `round_end` event."""
    parts: dict[str, list[int]] = event.get("score_parts") or {}
    by_team = event.get("team_score_parts")
    if by_team and teams:
        return {name: [values[p % teams] for p in range(len(event["scores"]))]
                for name, values in by_team.items()}
    return parts


def score_parts(event: dict[str, Any], seat: int, teams: int = 0) -> str:
    """' (columns 17, house_bonus -20)': a seat's score entry by entry (by `teams`, its
    team's), when an entry other than the first scored; '' otherwise."""
    values = [(name, v[seat]) for name, v in seat_parts(event, teams).items()]
    if not any(v for _, v in values[1:]):
        return ""
    return " (" + ", ".join(f"{name} {v}" for name, v in values if v) + ")"


def after_round_lines(rules: Ruleset, event: dict[str, Any], last: bool = False) -> list[str]:
    """What the rules after a round changed, and those rules' own words for why. In the
    `last` round, the one the game ends with, seats put out are not said: the game is over
    for every seat, and what put them out is then no rule of play."""
    after = event.get("after_round") or {}
    said = [f"seat {seat}'s total {was} -> {now}"
            for seat, (was, now) in after.get("totals", {}).items()]
    if "winners" in after:
        said.append(", ".join(winner_names(after["winners"], rules.teams)) + " won the match")
    if after.get("out") and not last:
        said.append(", ".join(f"seat {p}" for p in after["out"]) + " out of the game")
    if not said:
        return []
    lines = ["  after the round: " + "; ".join(said)]
    docs = trigger_docs(rules)
    for trigger in rules.data.get("triggers") or []:
        name = str(trigger.get("name")) if isinstance(trigger, dict) else ""
        if isinstance(trigger, dict) and trigger.get("after") == "round" and name in docs:
            lines.append(f"    ({name}: {docs[name]})")
    return lines


def trigger_docs(rules: Ruleset) -> dict[str, str]:
    """Each trigger's doc, by its name, in one line (those without one left out)."""
    return {str(t["name"]): " ".join(str(t["doc"]).split())
            for t in rules.data.get("triggers") or []
            if isinstance(t, dict) and t.get("name") and t.get("doc")}


def winner_words(winner: str) -> str:
    """How a game is won (a ruleset's `scoring.winner`), in the words every front end shows:
    'lowest total wins', 'only a win decides'."""
    return "only a win decides" if winner == "none" else f"{winner} total wins"


def standings(results: dict[str, Any], winner_rule: str, teams: int = 0,
              width: int | None = None) -> list[str]:
    """The final table: seats by rank, totals and per-round scores, then the winner. With
    `teams`, partners are ranked together and the winners are named as a team. Without a
    `width`, a line a seat (as a transcript keeps it); with one, the rounds are numbered
    and the table is broken into blocks of rounds that fit in `width` columns."""
    totals = results["totals"]
    rounds = results["round_scores"]
    winners = results["winners"]
    # The winners rank first, whatever their totals (a rule's `win` decides over them), then
    # the others by total as the rule says (with `winner: none` totals decide nothing);
    # partners together, in seat order.
    sign = {"highest": -1, "lowest": 1}.get(winner_rule, 0)

    def standing(p: int) -> tuple[bool, int]:  # seats equal in it share a rank
        return p + 1 not in winners, sign * totals[p]

    order = sorted(range(len(totals)),
                   key=lambda p: (*standing(p), p % teams if teams else 0, p))
    # A seat's rank is one more than the seats (with `teams`, the teams) ahead of it: a tie
    # takes the places it fills (1, 1, 3), and partners fill one place (1, 1, 2, 2).
    ranked = [(1 + len({p % teams if teams else p for p in order if standing(p) < standing(seat)}),
               seat) for seat in order]  # (rank, seat) in order
    lines = [f"Standings after {results['rounds']} round{'s' if results['rounds'] != 1 else ''}"
             f" ({winner_words(winner_rule)})"]
    if width is not None:
        if len(lines[0]) > width:  # (the rule on a line of its own)
            lines = [lines[0].split(" (")[0] + ":", f"  {winner_words(winner_rule)}"]
        lines += _round_blocks(results, ranked, teams, width)
        return lines + _outcome(results, teams)
    team_head = "  team" if teams else ""
    lines.append(f"  rank{team_head}  seat   total   rounds")
    for rank, seat in ranked:
        per_round = " ".join(f"{r[seat]:>4}" for r in rounds)
        team = f"  {seat % teams + 1:>4}" if teams else ""
        lines.append(f"  {rank:>4}{team}  {seat + 1:>4}  {totals[seat]:>6}   {per_round}")
    house = results.get("house")
    if house is not None:  # the house's line (it is not a seat, so it is not ranked)
        per_round = " ".join(f"{r:>4}" for r in house["round_scores"])
        lines.append(f"  {_clip(house['name'], 10):>10}  {house['total']:>6}   {per_round}")
    return lines + _outcome(results, teams)


def _round_blocks(results: dict[str, Any], ranked: Sequence[tuple[int, int]], teams: int,
                  width: int) -> list[str]:
    """The standings' rows in blocks of numbered rounds that fit in `width` columns: the
    first with each seat's rank and total, the others with its seat alone (the house, not a
    seat and not ranked, by its name in the seat's column)."""
    rounds, totals = results["round_scores"], results["totals"]
    team = ["team"] if teams else []
    keys = [[str(rank), *([str(seat % teams + 1)] if teams else []), str(seat + 1),
             str(totals[seat])] for rank, seat in ranked]
    scores = [[str(r[seat]) for r in rounds] for _, seat in ranked]
    house = results.get("house")
    if house is not None:
        keys.append(["", *([""] if teams else []), _clip(house["name"], 10),
                     str(house["total"])])
        scores.append([str(r) for r in house["round_scores"]])
    column = max([4, len(str(len(rounds))), *(len(x) for row in scores for x in row)])
    out: list[str] = []
    start = 0
    while start == 0 or start < len(rounds):
        heads = ["rank", *team, "seat", "total"] if start == 0 else [*team, "seat"]
        rows = [row if start == 0 else row[1:-1] for row in keys]
        sizes = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
        lead = sum(size + 2 for size in sizes) + 1  # where the rounds' columns begin
        shown = range(start, min(len(rounds), start + max(1, (width - lead) // (column + 1))))
        if shown:
            out.append(" " * (lead + 1) + "round")
        out.append(_row(heads, sizes, [str(n + 1) for n in shown], column))
        out += [_row(row, sizes, [score[n] for n in shown], column)
                for row, score in zip(rows, scores)]
        start = max(shown.stop, 1)
    return out


def _row(keys: Sequence[str], sizes: Sequence[int], per_round: Sequence[str],
         column: int) -> str:
    """A line of the standings' blocks: its key columns, then its rounds."""
    return ("".join(f"  {key:>{size}}" for key, size in zip(keys, sizes)) + " " +
            "".join(f" {score:>{column}}" for score in per_round)).rstrip()


def _outcome(results: dict[str, Any], teams: int) -> list[str]:
    """The standings' last line: how the game ended, who won."""
    winners = results["winners"]
    lines: list[str] = []
    house = results.get("house")
    if results.get("cut_off"):
        lines.append("Game cut off, " + results["cut_off"])
        return lines
    if house is not None and house["winner"]:
        name = house["name"]
        if not winners:
            lines.append(f"Winner: {name}" if name != "the house" else "The house wins")
        else:
            lines.append("Tied winners: " + ", ".join([name, *(f"seat {w}" for w in winners)]))
        return lines
    if not winners:
        lines.append("No winner")
        return lines
    named = winner_names(winners, teams)
    label = ("Winners" if teams else "Winner") if len(named) == 1 else "Tied winners"
    lines.append(f"{label}: " + ", ".join(named))
    return lines


def winner_names(winners: Sequence[int], teams: int = 0) -> list[str]:
    """The winners (seats from 1) by name: 'seat 2', or with `teams`, each winning team
    with its seats, 'team 1 (seats 1, 3)'."""
    if not teams:
        return [f"seat {w}" for w in winners]
    won = sorted({(w - 1) % teams + 1 for w in winners})
    return [f"team {t} (seats {', '.join(str(w) for w in winners if (w - 1) % teams + 1 == t)})"
            for t in won]


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def seen_card(entry: dict[str, Any] | None, plain: bool = False) -> str:
    """One card of a view: face up as itself, known but face down in brackets, else a back;
    then what clues told of it, if any ('##[red, not 3]'), or the card a wild card stands
    for in a laid run ('2C=5H')."""
    if entry is None:
        return "--"
    told = f"[{entry['told']}]" if "told" in entry else ""
    name = entry["card"]
    if name is None:
        return "##" + told
    text = card_text(name, plain)
    if "as" in entry:
        text += "=" + card_text(entry["as"], plain)
    return (text if entry["up"] else f"({text})") + told


def seen_zone(zone: ZoneDef, seen: dict[str, Any], plain: bool = False,
              order: dict[str, int] | None = None) -> str:
    """A zone as one seat sees it (from a player view). With `order` (card name -> place in
    the deck), a spread such as a hand is shown sorted, its unseen cards last."""
    count = seen["count"]
    if "cards" not in seen:
        return f"{count} card{'s' if count != 1 else ''}"
    entries = seen["cards"]
    if order is not None and zone.layout == "spread":
        last = len(order)
        entries = sorted(entries, key=lambda e: order.get(e["card"], last)
                         if e is not None and e["card"] is not None else last + 1)
    cards = [seen_card(e, plain) for e in entries]
    if any(e is not None and e.get("by") for e in entries):  # a trick: who played each card
        return ", ".join(f"{card} by seat {e['by']}" if e is not None and e.get("by") else card
                         for card, e in zip(cards, entries))
    if zone.layout == "grid":
        rows = [cards[i:i + zone.columns] for i in range(0, len(cards), zone.columns)]
        return " / ".join(" ".join(c.rjust(4) for c in row) for row in rows)
    if not cards:
        return "empty"
    if all(c == "##" for c in cards):
        return f"{count} card{'s' if count != 1 else ''}"
    if zone.layout == "stack" and zone.visibility == "public":
        return f"{cards[-1]} on top ({count} card{'s' if count != 1 else ''})"
    return " ".join(cards)


def seen_owned(zone: ZoneDef, seen: Any, plain: bool = False,
               order: dict[str, int] | None = None) -> str:
    """A seat's zone (or a shared one) in a view; a grouped zone shows its non-empty groups,
    numbered from 1 as rule labels number them."""
    if zone.groups:
        shown = [f"{i}: {seen_zone(zone, g, plain)}" for i, g in enumerate(seen, 1)
                 if g["count"]]
        return " | ".join(shown) if shown else "none"
    return seen_zone(zone, seen, plain, order)


def deck_order(rules: Ruleset) -> dict[str, int]:
    """Each card name's place in the deck's order: a view shows a spread (a hand) in it."""
    return {name: i for i, name in enumerate(dict.fromkeys(rules.cards.names))}


def round_of(rules: Ruleset, number: int, total: int) -> str:
    """'Round 2 of 9'; where the match lasts until a condition holds, its round count is only
    a bound: 'Round 2 (at most 30)'."""
    if rules.until is not None and total > 1:
        return f"Round {number} (at most {total})"
    return f"Round {number} of {total}"


def view_lines(rules: Ruleset, view: dict[str, Any], plain: bool = False) -> list[str]:
    """A player's view as text: shared zones, then each seat's zones, then the scores.

    Face-up cards show as themselves, face-down cards the seat knows as (card), the rest
    as ## backs: exactly what the view holds, nothing more. Variables go by their labels;
    a value the seat may not see is left out.
    """
    seat = view["seat"]
    mover = view["to_move"]
    lines = [f"{round_of(rules, view['round'], view['rounds'])} - seat {seat}'s view - "
             + (f"seat {mover} to move ({view['phase']}, {view['step']})" if mover
                else "game over")
             + (f" - play goes {view['direction']}" if "direction" in view else "")]
    for zone in rules.zones:
        if not zone.owned:
            lines.append(f"  {zone.name}: {seen_owned(zone, view['zones'][zone.name], plain)}")
    order = deck_order(rules)
    titles = {var.name: var.title for var in rules.variables}
    for other in range(1, view["players"] + 1):
        parts = [f"{zone.name}: "
                 f"{seen_owned(zone, view['zones'][zone.name][str(other)], plain, order)}"
                 for zone in rules.zones if zone.owned]
        known = [f"{titles.get(name, name)}: {value_words(rules, name, values[other - 1], seat)}"
                 for name, values in view["player_variables"].items()
                 if values[other - 1] is not None and written(values[other - 1])]
        who = f"seat {other}" + (" (you)" if other == seat else "")
        lines.append(f"  {who:<14}" + "   ".join(parts + known))
    house = view.get("house")
    if house is not None:
        parts = [f"{zone.name}: "
                 f"{seen_owned(zone, view['zones'][zone.name]['house'], plain, order)}"
                 for zone in rules.zones if zone.owned]
        parts += [f"{titles.get(name, name)}: {value_words(rules, name, value, seat)}"
                  for name, value in house["variables"].items()
                  if value is not None and written(value)]
        lines.append(f"  {_clip(house['name'], 14):<14}" + "   ".join(parts))
    shown = [f"{titles.get(name, name)}: {value_words(rules, name, value, seat)}"
             for name, value in view["variables"].items() if value is not None and written(value)]
    if shown:  # (a variable holding a card the seat does not know is not shown)
        lines.append("  " + "   ".join(shown))
    lines.append("  totals: " + "  ".join(
        [f"seat {i + 1}: {t}" for i, t in enumerate(view["totals"])]
        + ([f"{house['name']}: {house['total']}"] if house is not None else [])))
    return printable_lines(lines)


def written(value: Any) -> bool:
    """Whether a variable's value says anything: a text nothing was written in does not
    (hold'em's `shows` before a showdown); the lines that list variables leave it out."""
    return value != ""


def value_words(rules: Ruleset, name: str, value: Any, reader: int | None = None,
                none: str = "none") -> str:
    """Variable `name`'s value as a view holds it, in words (`shown_value`); one holding a
    player, as the seat: 'seat 2', or 'you' to the reader (`reader`, from 1)."""
    kind = next((var.shape[0] for var in rules.variables if var.name == name and var.shape),
                "any")
    if kind == "player" and isinstance(value, int) and not isinstance(value, bool):
        return "you" if value == reader else f"seat {value}"
    if kind == "player" and value == "house" and rules.house is not None:
        return rules.house.name
    return shown_value(value, none)


def shown_value(value: Any, none: str = "none") -> str:
    """A variable's value as a view holds it, in a few characters (`none`: how a value of
    none reads: a round's account writes '?' for a value it does not show)."""
    if value is None:
        return none
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(shown_value(v, none) for v in value) or "-"
    return str(value) or "-"
