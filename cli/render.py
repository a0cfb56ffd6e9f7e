"""Text rendering for people: cards with suit symbols, zones, round summaries, standings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardrules.dsl.model import Ruleset, ZoneDef

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


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
        return f"{card_text(names[-1], plain)} on top ({len(names)} cards)"
    return cards_text(names, plain)


def round_summary(rules: Ruleset, event: dict[str, Any], plain: bool = False) -> list[str]:
    """The lines for one finished round: every seat's zones and score, then shared zones."""
    lines = [f"Round {event['round']}"]
    zones = event["zones"]
    scores, totals = event["scores"], event["totals"]
    for seat, score in enumerate(scores):
        parts = []
        for zone in rules.zones:
            if zone.owned:
                cards = zones[zone.name][str(seat + 1)]
                if any(c is not None for c in cards):
                    parts.append(f"{zone.name}: {zone_text(zone, cards, plain)}")
        lines.append(f"  seat {seat + 1}  " + "   ".join(parts)
                     + f"   score {score:>4}  total {totals[seat]:>5}")
    for zone in rules.zones:
        if not zone.owned and zone.visibility == "public" and zones[zone.name]:
            lines.append(f"  {zone.name}: {zone_text(zone, zones[zone.name], plain)}")
    return lines


def standings(results: dict[str, Any], winner_rule: str) -> list[str]:
    """The final table: seats by rank, totals and per-round scores, then the winner."""
    totals = results["totals"]
    rounds = results["round_scores"]
    order = sorted(range(len(totals)), key=lambda p: totals[p],
                   reverse=(winner_rule == "highest"))
    lines = [f"Standings after {results['rounds']} round{'s' if results['rounds'] != 1 else ''}"
             f" ({winner_rule} total wins)", "  rank  seat   total   rounds"]
    for rank, seat in enumerate(order, 1):
        per_round = " ".join(f"{r[seat]:>4}" for r in rounds)
        lines.append(f"  {rank:>4}  {seat + 1:>4}  {totals[seat]:>6}   {per_round}")
    winners = results["winners"]
    label = "Winner" if len(winners) == 1 else "Tied winners"
    lines.append(f"{label}: " + ", ".join(f"seat {w}" for w in winners))
    return lines
