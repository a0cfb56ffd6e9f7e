"""What a seat may see, as text, for any ruleset (as a tensor: observe.py).

The observation is the seat's player view (interpreter/view.py) as JSON, plus the parts it
has chosen so far of the action it is choosing; the information state adds its recall of
every action (match.py). The whole truth, every hidden card, is for debugging alone.
"""

from __future__ import annotations

import json

from .match import Match

EMPTY = -1  # a grid's empty place


def observation_text(match: Match, seat: int) -> str:
    """What `seat` sees now: its player view as JSON, and the parts it has chosen so far."""
    if match.dealt is None:
        return f"seat {seat + 1}: the cards are being shuffled"
    mine = bool(match.prefix) and match.to_move() == seat
    return match.memo(("observation", seat, tuple(match.prefix) if mine else ()),
                      lambda: _observation_text(match, seat, mine))


def _observation_text(match: Match, seat: int, mine: bool) -> str:
    text = json.dumps(match.view(seat), separators=(",", ":"), ensure_ascii=False)
    if mine:
        text += "\nchoosing: " + ", ".join(match.label(t) for t in match.prefix)
    return text


def information_text(match: Match, seat: int) -> str:
    """The observation and the seat's recall of every action so far."""
    return observation_text(match, seat) + "\n" + match.recall(seat)


def truth_text(match: Match) -> str:
    """The whole game, hidden cards included (for debugging, never for a seat): every zone
    that holds a card, `(X)` for a face-down card; then totals and the parts chosen."""
    if match.dealt is None:
        return "seed bytes drawn: " + " ".join(str(b) for b in match.seed_parts)
    return match.memo(("truth", tuple(match.prefix)), lambda: _truth_text(match))


def _truth_text(match: Match) -> str:
    s = match.state
    assert s is not None
    names = match.table.rules.cards.names
    lines = [f"{match.table.rules.name}: {match.actions} actions, "
             + ("over" if match.is_over() else f"seat {(match.to_move() or 0) + 1} to move")]
    for place, cards in zip(match.table.places, s.zones):
        if cards:
            shown = ["--" if c == EMPTY else names[c] if s.face_up[c] else f"({names[c]})"
                     for c in cards]
            lines.append(f"  {place.label}: {' '.join(shown)}")
    lines.append("  totals: " + " ".join(str(t) for t in s.totals))
    if match.prefix:
        lines.append("  choosing: " + ", ".join(match.label(t) for t in match.prefix))
    return "\n".join(lines)
