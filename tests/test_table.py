"""What makes a screen feel like a table, without a screen: the sentences each seat reads,
what came of an action, a reaction's plausible choices first, and how a person meets
reaction windows (passed unless asked for, bounded by a clock the test moves)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardrules.cli.main import main
from cardrules.cli.parts import Narrowing, part_name
from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.sessions.events import drain, round_ends
from cardrules.interpreter.sessions.windows import Windows
from cardrules.interpreter.sight import knowers_seen
from cardrules.interpreter.words import cards_of, sentence, tell
from cardrules.present import render
from cardrules.present.account import round_account
from cardrules.present.choices import offered_order, plausible_first
from cardrules.present.lines import choice_texts
from cardrules.present.news import news
from cardrules.present.render import standings


def parts(label: str) -> tuple[tuple[str, str], ...]:
    """A label's parts as the compiler gives them ('{x}' a parameter)."""
    out: list[tuple[str, str]] = []
    for i, piece in enumerate(label.replace("}", "{").split("{")):
        if piece:
            out.append(("param", piece) if i % 2 else ("text", piece))
    return tuple(out)


def test_other_seats_actions_are_told_in_the_third_person() -> None:
    said = {
        "Put a hand card into your field instead":
            "seat 3 puts a hand card into their field instead",
        "Draw from the stock, then discard or put a hand card into your field":
            "seat 3 draws from the stock, then discards or puts a hand card into their field",
        "Ask {target} for the {colour} {rank}": "seat 3 asks seat 1 for the red A",
        "Play {card} and call {suit}": "seat 3 plays QH and calls hearts",
        "Pass the trick": "seat 3 passes the trick",
        "Carry {card}": "seat 3 carries QH",
        "Done laying down": "seat 3 is done laying down",
        "No more lay-offs": "seat 3: no more lay-offs",
        "{card} goes": "seat 3: QH goes",
    }
    values = {"target": "seat 1", "colour": "red", "rank": "A", "card": "QH",
              "suit": "hearts"}
    for label, third in said.items():
        assert sentence(parts(label), values, "seat 3", own=False) == third
    assert sentence(parts("Put a hand card into your field instead"), values, "seat 3",
                    own=True) == "you put a hand card into your field instead"
    assert sentence(parts("Done laying down"), values, "seat 3", own=True) == \
        "you are done laying down"


def test_each_seat_reads_an_action_and_what_came_of_it_in_its_own_words() -> None:
    engine = Engine(load_ruleset("golf6", {"rounds": "1"}))
    state = engine.new_game(2, 3, log=round_ends())
    for _ in range(4):  # both seats turn two cards
        engine.apply(state, engine.legal_actions(state)[0])
    drain(state.log)
    take = ("take_stock",)
    told = tell(engine.words, state, 0, take)
    assert told.public == "Take the top card of the stock"
    assert told.seats == ("you take the top card of the stock",
                          "seat 1 takes the top card of the stock")
    engine.apply(state, take)
    events = drain(state.log)
    held = engine.rules.cards.names[state.zones[engine.board.names.index("holding")][0]]
    assert [n.lines() for n in news(engine.rules, events, 0)] == [
        ["you take the top card of the stock",
         f"  {held} goes from the stock to your holding"]]
    assert [n.lines() for n in news(engine.rules, events, 1)] == [
        ["seat 1 takes the top card of the stock",
         "  a card goes from the stock to seat 1's holding"]]


def test_a_reactions_plausible_choices_come_first_and_none_is_left_out() -> None:
    engine = Engine(load_ruleset("geohash"))
    state = engine.new_game(3, 5)
    engine.apply(state, next(a for a in engine.legal_actions(state) if a[0] == "ask"))
    legal = engine.legal_actions(state)
    seat = engine.to_move(state)
    assert seat is not None and PASS in legal
    ordered = plausible_first(engine, state, seat, legal)
    assert Counter(ordered) == Counter(legal) and ordered[-1] == PASS
    cards = engine.rules.cards
    known = {(cards.rank[c], cards.suit[c]) for c in range(state.n_cards)
             if state.known[c] >> seat & 1}

    def sees(action: tuple) -> bool:  # names a card the seat knows
        return (action[1], action[2]) in known or (action[3], action[4]) in known

    flags = [sees(a) for a in ordered[:-1]]
    assert not flags[0] and any(flags)
    assert flags == sorted(flags)  # every plausible one before any other
    assert engine.reactions(state, seat) == legal[:-1]  # what the seat may react with


def test_a_persons_windows_pass_unless_they_asked_and_wait_a_bounded_time() -> None:
    engine = Engine(load_ruleset("geohash"))
    state = engine.new_game(3, 5)
    engine.apply(state, next(a for a in engine.legal_actions(state) if a[0] == "ask"))
    engine.legal_actions(state)
    seat = engine.to_move(state)
    assert seat is not None and state.window
    windows = Windows.of([seat])
    assert windows.passes(state, seat)
    windows.want(seat)
    assert not windows.passes(state, seat)
    assert not windows.expired(state, seat, now=100.0, wait=20.0)
    assert windows.left(state, seat, now=110.0, wait=20.0) == 10.0
    assert not windows.expired(state, seat, now=119.9, wait=20.0)
    assert windows.expired(state, seat, now=120.0, wait=20.0)
    windows.answered(state, seat)  # their answer in a window fulfils the wish
    assert windows.passes(state, seat)
    windows.set_stop(seat, True)
    assert not windows.passes(state, seat)
    assert not Windows.of([]).passes(state, seat)  # a bot's seat: not the people's to pass


# ------------------------------------------------------------ the terminal's words
def cli(args: list[str], typed: str = "", **env: str) -> str:
    """What `cardrules ARGS` prints with `typed` as its input (the terminal COLUMNS wide)."""
    result = CliRunner().invoke(main, args, input=typed, prog_name="cardrules",
                                env={"COLUMNS": "200", **env})
    return result.stdout


def test_seats_with_equal_standing_share_a_rank() -> None:
    """Tied winners are both first, and seats with the same total after them share the
    next rank (1, 1, 3), at the end of a game as in the standings alone."""
    out = cli(["run", "gin-rummy", "--seed", "1", "--plain"])
    assert "     1     1      0     0\n     1     2      0     0\nTied winners: seat 1, " \
        "seat 2" in out
    results = {"rounds": 1, "totals": [5, 9, 9, 20], "round_scores": [[5, 9, 9, 20]],
               "winners": [1]}
    ranks = [line.split()[:2] for line in standings(results, "lowest")[2:6]]
    assert ranks == [["1", "1"], ["2", "2"], ["2", "3"], ["4", "4"]]


def test_a_team_that_wins_is_told_as_a_team_not_a_tie() -> None:
    out = cli(["play", "spades", "--seed", "1", "--plain", "-o", "one_deal=true"], "1\n" * 400)
    # (one deal of a match to 500: it stops at its limit of rounds, and says so)
    end = re.search(r"the game is over after 1 round, the most it plays: winners team (\d) "
                    r"\(seats (\d), (\d)\)\n", out)
    assert end, out[-2000:]
    team, first, second = map(int, end.groups())
    assert (first, second) == (team, team + 2)
    assert f"Winners: team {team} (seats {first}, {second})" in out
    assert "tied winners seat" not in out


def test_a_card_a_variable_holds_is_shown_as_the_zones_show_cards() -> None:
    """During play as at the end: suit symbols, or letters with --plain."""
    out = cli(["play", "gin-rummy", "--seed", "1"], "1\n" * 3)
    screens = out.split("=" * 72)
    assert "Upcard taken: 2♦" in screens[2] and "2D" not in screens[2]
    plain = cli(["play", "gin-rummy", "--seed", "1", "--plain"], "1\n" * 3)
    assert "Upcard taken: 2D" in plain.split("=" * 72)[2]


def test_the_first_rounds_setup_is_news_before_the_first_decision() -> None:
    first = cli(["play", "geohash", "--seed", "1", "--plain"], "quit\nn\n").split("=" * 72)[1]
    # (news before the person's first decision is since the game began)
    assert "Since the game began:\n  before play:\n    7D 7H JD JH go from your hand to " \
        "the heap\n" in first
    assert "Since your last decision" not in first


def news_sections(out: str) -> list[list[str]]:
    """The news each decision's screen shows, line by line (without their indent)."""
    sections = []
    for screen in out.split("=" * 72)[1:]:
        heading = re.search(r"Since (your last decision|the game began):\n", screen)
        if heading:
            told = screen.split(heading.group(0))[1].split("\n")
            end = next(i for i, line in enumerate(told) if not line.startswith("  "))
            sections.append([line[2:] for line in told[:end]])
        else:
            sections.append([])
    return sections


def test_a_rounds_account_is_shown_whole_and_log_tells_all_the_news() -> None:
    """However much happened since a person's last decision, a round's account is on their
    screen whole, with the action that ended the round before it, the lines left out are
    said, and `log` shows every line they have been told, as they were told it."""
    out = cli(["play", "golf6", "--seed", "1", "-p", "6", "--plain"], "1\n" * 50)
    screen = next(s for s in out.split("=" * 72) if "Round 1 over" in s)
    account = screen[screen.index("Round 1 over"):screen.index("Round 2 of 9")]
    for seat in range(1, 7):
        assert f"\n    seat {seat} " in account and f"\n    seat {seat}: grid:" in account
    assert "round 2 begins: seat 1 deals" in account
    # lines left out, but never the action that ended the round, just before its account
    before = screen[:screen.index("Round 1 over")]
    assert re.search(r"\n  \(\d+ lines not shown: type log to read them\)\n", before)
    last = before.rstrip("\n ").rsplit("\n  ", 1)[1]
    assert not last.startswith("(") and "turned face up" in last
    typed = "1\n" * 4 + "log\n" + "log 3\n" + "log x\nquit\nn\n"
    out = cli(["play", "golf6", "--seed", "3", "-p", "2", "--plain"], typed)
    told = [line for section in news_sections(out)[:5] for line in section]
    assert len(told) > 10
    log = out.split("What you have been told of this game")[1]
    assert log.split("\n")[1:len(told) + 1] == ["  " + line for line in told]
    assert log.startswith(f" ({len(told)} lines):\n")
    last = out.split("What you have been told of this game")[2]
    assert last.startswith(f" (3 lines; {len(told) - 3} earlier):\n")
    assert last.split("\n")[1:4] == ["  " + line for line in told[-3:]]
    assert "refused: type log, or log and a number of lines (log 20)" in out


def test_a_rounds_account_shows_each_seat_the_cards_it_knows_and_the_log_file_none(
        tmp_path: Path) -> None:
    """A gin rummy hand that ends at the wall leaves both hands unshown: each seat's account
    names its own hand (and what it saw of the other's), the other seat's shows it as backs,
    and the log file, the table's, names neither."""
    rules = load_ruleset("gin-rummy")
    engine = Engine(rules)
    state = engine.new_game(None, 0, log=True)
    legal = engine.legal_actions(state)
    bots = [make_bot("random", 0, seat) for seat in range(state.n)]
    while legal:
        legal = engine.play(state, bots[state.current].choose(engine, state, legal))
    assert state.log is not None
    end = next(e for e in state.log if e.get("event") == "round_end")
    hand = sorted(rules.cards.names[c] for c in state.zones[rules.zone("hand").zone_of(0)])
    mine, theirs = (news(rules, state.log, seat) for seat in (0, 1))
    line = next(x for item in mine if item.kind == "account" for x in item.then
                if x.startswith("seat 1: hand:"))
    assert sorted(line.split(":", 2)[2].split()) == hand
    line = next(x for item in theirs if item.kind == "account" for x in item.then
                if x.startswith("seat 1: hand:"))
    shown = line.split(":", 2)[2].split()
    assert "##" in shown and set(shown) - {"##"} < set(hand)
    assert [c for c in end["zones"]["hand"]["1"] if c] == [c for c in shown if c != "##"]
    log = tmp_path / "gin.log"
    cli(["run", "gin-rummy", "--seed", "0", "--log", str(log)])
    ends = [json.loads(x) for x in log.read_text().splitlines() if '"round_end"' in x]
    assert ends and all("told" not in e for e in ends)
    assert ends[0]["zones"]["hand"]["1"] == end["zones"]["hand"]["1"]


def test_what_the_action_that_ends_a_round_changed_is_told_with_it() -> None:
    """Ninety-nine's deal ends when a player cannot play: the action before it takes the
    running total to 99, and the rule that ends the deal costs the player a token. Those
    changes are told under that action, before the round's account (which tells the rest),
    and a variable that holds a player names the seat."""
    out = cli(["run", "ninety-nine", "--seed", "1", "--view", "1", "--plain"])
    block = out[:out.index("Round 1 over")].rsplit("\n  seat ", 1)[1]
    assert "the round ends (cannot play" in block
    total = re.search(r"\n    Running total: (\d+) -> (\d+)\n", block)
    assert total is not None and int(total.group(2)) > int(total.group(1))
    loser = re.search(r"\n    Lost a token: none -> (seat \d|you)\n", block)
    assert loser is not None
    assert re.search(r"Tokens: 3 -> 2\n", block)


def test_the_rounds_printed_by_run_say_a_truth_value_in_words() -> None:
    """`run` prints each round's variables as the views do: yes or no, not Python's words."""
    out = cli(["run", "grandma", "--seed", "2", "--plain"])
    assert re.search(r"down: (yes|no) ", out) and "True" not in out and "False" not in out


def test_a_part_is_asked_for_in_words_and_cards_as_the_hand_shows_them() -> None:
    """A part chosen on its own is named in words, not by its parameter ('rank1' is the
    first rank, 'other' the other card), and the cards to choose among come in the order
    the seat's view shows its hand, not the order the hand holds them in."""
    assert [part_name(n, k) for n, k in [("rank1", "rank"), ("suit_2", "suit"),
                                         ("other", "card"), ("field_card", "card"),
                                         ("target", "player"), ("tricks", "number")]] == \
        ["first rank", "second suit", "other card", "field card", "target player", "tricks"]
    engine = Engine(load_ruleset("geohash"))
    state = engine.new_game(4, 3)
    legal = engine.legal_actions(state)
    seat = engine.to_move(state)
    assert seat is not None
    narrowing = Narrowing(engine, state, seat, [a for a in legal if a[0] == "declare_two"])
    order = render.deck_order(engine.rules)
    names = [engine.rules.cards.names[c] for c in narrowing.options()]
    assert len(names) > 3 and names == sorted(names, key=order.__getitem__)
    held = [engine.rules.cards.names[c]
            for c in state.zones[engine.rules.zone("hand").zone_of(seat)]]
    assert held != sorted(held, key=order.__getitem__)  # (the hand holds them otherwise)


def test_a_number_folded_into_a_line_opens_that_line_and_refusals_name_the_screen() -> None:
    """geohash's first screen folds 27 asks into line 1: typing 5 opens that line part by
    part, never plays a choice the person did not see; a number that is no choice is
    refused naming the numbers shown; once every choice is listed (all), 5 is choice 5."""
    out = cli(["play", "geohash", "--seed", "1", "--plain", "--bots", "random"],
              "5\nback\n0\n99\nall\n5\n")
    screens = out.split("=" * 72)
    first = screens[1]
    assert "   1. Ask ... for the ... ... (27 choices: type 1 to choose it part by part)\n" \
        "  28. Declare" in first and "  37. Declare ... and" in first
    after = first.split("seat 1> ")[1]
    assert after.startswith("Choice 5 is one of the 27 on line 1: choose it part by part.\n"
                            "Ask ... for the ... ...\nChoose the target player:\n")
    assert "refused: there is no choice 0: type a number from 1 to 37\n" in first
    assert "refused: there is no choice 99: type a number from 1 to 37\n" in first
    listed = re.search(r"\n   5\. (Ask seat \d for the \w+ \w+)\n", first)
    assert listed, first
    assert f"you {listed.group(1)[0].lower()}{listed.group(1)[1:]}" in screens[2]


def test_choices_naming_a_card_of_ones_hand_come_in_the_hands_order() -> None:
    """The view shows a hand sorted; the choices that each name one of its cards come in
    that order too (and the number typed plays the card it is shown with)."""
    out = cli(["play", "spades", "--seed", "1", "--plain", "--bots", "random"], "1\n1\n")
    screen = next(s for s in out.split("=" * 72) if "Your turn (play: play)" in s)
    hand = re.search(r"seat 1 \(you\)  hand: (.*?)   ", screen)
    assert hand, screen
    held = [card.strip("()") for card in hand.group(1).split()]
    played = re.findall(r"^ +\d+\. Play (\S+)$", screen, re.M)
    assert len(played) > 1 and played == [card for card in held if card in played]
    assert f"you play {played[0]}" in out.split("Your turn (play: play)")[1]


def test_cards_a_move_lays_face_up_are_named_and_unseen_ones_counted_once() -> None:
    """A meld laid down is told by its cards, which the move shows everyone; a list of
    cards a reader cannot see is counted once, with the zone they lie in."""
    out = cli(["play", "grandma", "--seed", "1", "--plain", "--bots", "greedy"], "1\n" * 10)
    laid = re.search(r"\n  seat 2 lays down ((?:\S+ )+\| (?:\S+ ?)+)\n", out)
    assert laid, out
    assert re.fullmatch(r"(?:(?:10|[2-9AJQK])[CDHS] ?)+\| (?:(?:10|[2-9AJQK])[CDHS] ?)+",
                        laid.group(1))
    assert "unseen card" not in out.split("seat 2 lays down")[1].split("\n")[0]
    engine = Engine(load_ruleset("grandma"))
    state = engine.new_game(3, 1)
    hand = state.zones[engine.rules.zones[[z.name for z in engine.rules.zones].index("hand")]
                       .zone_of(0)]
    assert engine.words.cards_text(hand[:3], state, 1) == "3 unseen cards from seat 1's hand"
    assert engine.words.cards_text(hand[:3], state, 0) == " ".join(
        engine.rules.cards.names[c] for c in hand[:3])


def test_what_an_action_says_is_not_told_again_and_a_swap_is_one_line() -> None:
    """A card the action's line names (turned up, looked at: '- it was 9C') is not told
    again as turned or looked at; two cards that change places are one line."""
    out = cli(["play", "golf6", "--seed", "1", "-p", "3", "--plain"], "1\n" * 8)
    turned = re.search(r"\n  you turn the face-down card of your grid at row 1, column 1 face "
                       r"up - it was (\S+)\n(.*)\n", out)
    assert turned and turned.group(1) not in turned.group(2), out
    swap = re.search(r"\n  you put the card in place of (\S+)\n    \1 in your grid and (\S+) "
                     r"in your holding change places\n    \2 is turned face up in your grid\n"
                     r"    \1 goes from your holding to the discard\n", out)
    assert swap, out
    assert "a card in seat 2's grid and a card in seat 2's holding change places" in out
    czech = cli(["play", "czech-golf", "--seed", "1", "--plain"], "1\n" * 2)
    look = re.search(r"\n  you look at the face-down card of your field at row 1, column 1 - "
                     r"it was (\S+)\n(.*)\n", czech)
    assert look and "you look at" not in look.group(2), czech


def test_another_seats_look_is_told_in_one_line() -> None:
    """A look that is the action's own (the line named the card to the seat that looked) is
    its line alone, to the others too; a look that is not (a rule's, after the line) is
    told, to the others as a card looked at."""
    czech = cli(["play", "czech-golf", "--seed", "1", "--plain"], "1\n" * 4)
    lines = czech.splitlines()
    looks = [i for i, line in enumerate(lines) if re.fullmatch(
        r"  seat 2 looks at the face-down card of seat 2's field at row \d, column \d", line)]
    assert len(looks) == 3 and not any(lines[i + 1].startswith("    ") for i in looks), czech
    assert "looks at a card" not in czech
    rules = load_ruleset("czech-golf")
    action = {"event": "action", "seat": 2, "move": "draw", "action": "Draw",
              "told": ["seat 2 draws", "you draw"], "named": [[], []]}
    peek = {"effect": "peek", "seat": 2, "zone": "stock", "told": [None, "9C"],
            "named": [[], [7]]}
    assert news(rules, [action, peek], 0)[0].then == ("seat 2 looks at a card (stock)",)
    assert news(rules, [action, peek], 1)[0].then == ("you look at 9C (stock)",)
    own = {**action, "named": [[], [7]]}  # the line named the card to the looker
    assert news(rules, [own, peek], 0)[0].then == news(rules, [own, peek], 1)[0].then == ()


def test_a_card_put_in_place_of_its_copy_is_told_to_every_seat() -> None:
    """What an action's line named is known by card face (interpreter/words.py: Told.named,
    the event's `named`: copies of a card are one face, which no seat tells apart), not read
    from its words: with golf6's two decks, a held 4H put in place of the other 4H of the
    grid is told to every seat, the two changing places, the card left going to the
    discard."""
    engine = Engine(load_ruleset("golf6"))
    rules, names = engine.rules, engine.rules.cards.names
    state = engine.new_game(6, 1, log=round_ends())
    bots = [make_bot("random", 1, seat) for seat in range(6)]
    legal = engine.legal_actions(state)
    for _ in range(500):
        seat = engine.to_move(state)
        assert seat is not None
        held = [c for z, cards in enumerate(state.zones) if rules.board.names[z] == "holding"
                and rules.board.owner[z] == seat for c in cards]
        twins = [a for a in legal if a[0] == "swap" and held and a[1] != held[0]
                 and names[a[1]] == names[held[0]]]
        drain(state.log)
        legal = engine.play(state, twins[0] if twins else
                            bots[seat].choose(engine, state, legal))
        if twins:
            break
    assert twins, "no card was put in place of its twin"
    name, events = names[held[0]], drain(state.log)
    for reader in range(6):
        whose = "your" if reader == seat else f"seat {seat + 1}'s"
        told = news(rules, events, reader)[0]
        assert name in told.text, told
        assert told.then == (f"{name} in {whose} grid and {name} in {whose} holding change "
                             f"places", f"{name} goes from {whose} holding to the discard"), told


def test_a_trick_says_who_played_each_card_and_whose_it_becomes() -> None:
    out = cli(["play", "spades", "--seed", "1", "--plain", "--bots", "random"], "1\n" * 8)
    assert re.search(r"\n  trick: \S+ by seat \d(, \S+ by seat \d)*\n", out)
    taken = re.search(r"\n    (?:\S+ ){3}\S+ go from the trick to (seat \d's|your) taken\n",
                      out)
    assert taken, out


def test_a_lone_choice_is_played_for_the_person_unless_it_needs_their_words() -> None:
    """A decision with one choice is not asked: it is played, and told as the person's only
    choice; one that needs a text written (a prediction) is still asked."""
    out = cli(["play", "grandma", "--seed", "1", "--plain"], "1\n" * 200)
    assert re.search(r"\n  your only choice: Discard \S+\n    \S+ goes from your hand to "
                     r"the discard\n", out), out
    for screen in out.split("=" * 72)[1:]:
        listed = re.findall(r"^ +(\d+)\. ", screen.split("Choose:")[-1], re.M)
        assert len(listed) != 1, screen
    out = cli(["play", "precognition", "--seed", "1", "--plain"], "1\nUUD\nquit\nn\n")
    first = out.split("=" * 72)[1]
    assert re.search(r"\n  1\. Predict .* \(you write it next\)\n", first)
    assert "Write the prediction:" in out


def test_a_rule_that_ends_the_round_or_the_game_is_told_with_its_name() -> None:
    """golf6's last lap: the seat that turns its last card gives every other seat one more
    turn, and each person is told so; geohash's stalemate says why the game has no winner.
    The log holds the same, with the rule, for every seat alike."""
    out = cli(["play", "golf6", "--seed", "1", "-p", "6", "--plain"], "1\n" * 60)
    assert re.search(r"\n    the round ends before (seat \d's|your) next turn \(last lap\): every "
                     r"other seat has one more turn\n", out), out
    out = cli(["play", "geohash", "--seed", "1", "-o", "turn_limit=2", "--plain"], "1\n" * 40)
    assert re.search(r"\n    the game ends \(stalemate\)\n(?:.*\n)*?  the game is over: no "
                     r"winner\n", out), out[-3000:]


def test_the_log_names_the_rule_that_ends_a_round(tmp_path: Path) -> None:
    log = tmp_path / "golf6.log"
    cli(["run", "golf6", "--seed", "1", "-o", "rounds=1", "--log", str(log)])
    events = [json.loads(line) for line in log.read_text().splitlines()]
    scheduled = [e for e in events if e.get("effect") == "end round before"]
    assert len(scheduled) == 1 and scheduled[0]["trigger"] == "last_lap"
    assert scheduled[0]["seat"] == scheduled[0]["turn"]


def test_the_screen_fits_the_terminals_width() -> None:
    """With COLUMNS=40, no line of a whole game is wider (the prompts aside, which a piped
    input leaves without a line end): hands, news and the rule are broken or cut, and the
    standings' rounds fold under each other, their columns in line."""
    out = cli(["play", "golf6", "--seed", "1", "-p", "3"], "1\n" * 400, COLUMNS="40")
    lines = [re.sub(r"^((seat \d|game over)> )+", "", line) for line in out.split("\n")]
    assert max(len(line) for line in lines) <= 40, [line for line in lines if len(line) > 40]
    assert "=" * 40 in lines and "  seat 1 (you)  grid:" in out
    wide = cli(["play", "golf6", "--seed", "1", "-p", "3"], "1\n" * 400, COLUMNS="200")
    assert max(len(line) for line in wide.split("\n")) > 40  # (the same game, unbroken)
    play, end = out.split("Standings after"), wide.split("Standings after")
    assert " ".join(play[0].split()) == " ".join(end[0].split()).replace("=" * 72, "=" * 40)
    assert len(blocks(play[1])) == 2 and len(blocks(end[1])) == 1
    assert standings_scores(play[1]) == standings_scores(end[1])


def blocks(standings: str) -> list[list[str]]:
    """The blocks of the standings' table (from its title on, to the winner's line),
    each from its line of round numbers on, its rows of equal length: columns in line."""
    out: list[list[str]] = []
    for line in standings.split("\n"):
        if line.strip() == "round":
            out.append([])
        elif out and line.startswith("  "):
            out[-1].append(line)
        elif out:
            break
    assert all(len({len(row) for row in block}) == 1 for block in out), out
    return out


def standings_scores(standings: str) -> dict[str, dict[int, int]]:
    """Each seat's score by round, from the numbered rounds of the standings' blocks."""
    scores: dict[str, dict[int, int]] = {}
    for head, *rows in blocks(standings):
        names = head.split()
        numbers = [int(n) for n in names[names.index("seat") + 1 + ("total" in names):]]
        for row in rows:  # (read from the right: the house's line has no rank nor team)
            words = row.split()
            seat = words[-len(numbers) - 1 - ("total" in names)]
            scores.setdefault(seat, {}).update(
                zip(numbers, (int(w) for w in words[-len(numbers):])))
    return scores


def test_the_standings_number_the_rounds_and_fit_a_narrow_terminal() -> None:
    """At 60 columns a long match's standings are blocks of numbered rounds, each line
    within the width; every seat's every score is under its round's number."""
    results = {"totals": [245, 294, 309, 330], "rounds": 12, "winners": [1],
               "round_scores": [[10 * r + p for p in range(4)] for r in range(1, 13)]}
    lines = standings(results, "lowest", width=60)
    assert max(len(line) for line in lines) <= 60, lines
    assert lines[2].split()[:5] == ["rank", "seat", "total", "1", "2"]
    text = "\n".join(lines)
    assert standings_scores(text) == {str(p + 1): {r: 10 * r + p for r in range(1, 13)}
                                      for p in range(4)}
    assert len(blocks(text)) == 2 and lines[-1] == "Winner: seat 1"
    teams = standings({**results, "house": {"name": "Bank", "total": 3, "winner": False,
                                            "round_scores": [0] * 12}}, "lowest", 2, 60)
    assert max(len(line) for line in teams) <= 60, teams
    assert "Bank" in standings_scores("\n".join(teams))


def test_a_choice_a_hint_names_is_on_the_screen() -> None:
    """A hint lists choices by their numbers: one folded into a line is then played by its
    number, as any choice shown."""
    out = cli(["play", "geohash", "--seed", "1", "--plain", "--bots", "random"], "hint\n2\n")
    assert "Hint from greedy: 2. Ask seat 2 for the black 2\n" in out
    assert "Choice 2 is one of" not in out
    assert "\n  you ask seat 2 for the black 2\n" in out.split("=" * 72)[2]


@pytest.mark.parametrize("columns", ["60", "200"])
def test_help_and_rules_are_broken_to_the_terminals_width_once(columns: str) -> None:
    """The help and the rules are broken by the screen alone: at 60 columns no line is wider
    and no part is broken twice (a short piece of a line followed by its rest); at 200 each
    of the rules' texts is one line."""
    out = cli(["play", "geohash", "--seed", "1", "--plain"], "help\nrules\n",
              COLUMNS=columns)
    lines = [re.sub(r"^((seat \d|game over)> )+", "", line) for line in out.split("\n")]
    assert max(len(line) for line in lines) <= int(columns)
    summary = " ".join(load_ruleset("geohash").summary.split())
    if columns == "200":
        assert any(summary[:150] in line for line in lines)
    else:
        start = next(i for i, line in enumerate(lines) if summary[:30] in line)
        told = lines[start:start + 12]
        assert all(len(line) > 40 for line in told[:-1] if line.startswith("      ")), told


def test_standings_to_a_pipe_keep_a_line_a_seat_and_a_narrow_title_breaks() -> None:
    """Output that is no terminal's (no COLUMNS either) keeps the standings a line a seat,
    as a script reading it expects; at 40 columns the title breaks before its rule."""
    import os

    from cardrules.present import render

    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    out = CliRunner().invoke(main, ["run", "golf6", "-s", "1"], env={**env, "COLUMNS": ""},
                             catch_exceptions=False).stdout.splitlines()
    head = out.index("  rank  seat   total   rounds")
    assert [len(line.split()) for line in out[head + 1:head + 5]] == [12] * 4
    results = Engine(load_ruleset("golf6")).results(Engine(load_ruleset("golf6")).new_game(4, 1))
    lines = render.standings({**results, "rounds": 17}, "highest", 0, 40)
    assert lines[:2] == ["Standings after 17 rounds:", "  highest total wins"]


def test_the_persons_own_action_stays_on_screen_however_long_the_news() -> None:
    """News longer than a screen shows keeps the latest items and leaves earlier ones to
    `log`, but never the person's own action and what came of it (geohash: a card asked for
    and shown, then a pair laid on the heap, before the bots' many moves)."""
    from cardrules.cli.screen import SHOWN_EVENTS, shown_news
    from cardrules.cli.table import news_lines
    from cardrules.present.news import News

    mine = News("you ask seat 4 for the black Q", ("QC goes from seat 4's hand to your hand",
                                                   "QC QS go from your hand to the heap"),
                seat=1)
    others = [News(f"seat {2 + i % 3} asks for a card", ("a card changes hands",),
                   seat=2 + i % 3) for i in range(SHOWN_EVENTS)]
    lines = [line for item in (mine, *others) for line in news_lines(item, 0)]
    shown = shown_news(lines)
    assert shown[:3] == mine.lines() and "not shown: type log" in shown[3]
    assert shown[-2:] == others[-1].lines() and len(shown) <= SHOWN_EVENTS + 3 + 1
    # to another seat it is news like any other: left out first
    theirs = shown_news([line for item in (mine, *others) for line in news_lines(item, 1)])
    assert "not shown: type log" in theirs[0] and mine.text not in theirs
    # and it is kept among what the person is to read, however many lines come after it
    from types import SimpleNamespace

    from cardrules.cli.table import KEPT_EVENTS, Table
    table: Any = SimpleNamespace(pending={0: []}, history={}, forgotten={})
    Table.say(table, 0, news_lines(mine, 0))
    for item in others * (KEPT_EVENTS // len(others) + 1):
        Table.say(table, 0, news_lines(item, 0))
    assert shown_news(table.pending[0])[:3] == mine.lines()


SECRET_TALLY = """\
cardrules: 1
name: tally
players: {min: 3, max: 3, default: 3}
deck: {ranks: [A, "2", "3", "4"], suits: [clubs, diamonds, hearts, spades], zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
variables:
  - {name: aces, label: "Aces asked for", scope: player, initial: 0, visibility: owner}
round:
  setup: [shuffle stock, deal 2 from stock to each hand face down]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: act
          moves:
            - name: ask
              label: "Ask {target} about aces"
              choose: {target: "players where target != me"}
              do:
                - if: "any(c.rank == 'A' for c in hand[target])"
                  then: ["set target.aces += 1"]
max_actions: 6
scoring:
  round:
    - {name: tally, score: "p.aces"}
"""


def test_a_change_of_a_secret_is_news_to_its_owner_alone(tmp_path: Path) -> None:
    """Seat 1 asks seat 2 about aces; seat 2's secret tally rises if it holds one. Seat 2 is
    told its tally changed; seat 1 and seat 3 read the same news whatever seat 2 holds."""
    from cardrules.web.game import Game
    from cardrules.web.payload import seat_news

    path = tmp_path / "tally.yaml"
    path.write_text(SECRET_TALLY, encoding="utf-8")
    told: dict[bool, set[tuple[str, ...]]] = {True: set(), False: set()}
    for seed in range(12):
        game = Game.new(str(path), {}, 3, seed, None)
        aces = any(game.engine.rules.cards.names[c].startswith("A")
                   for c in game.state.zones[game.engine.rules.zone("hand").zone_of(1)])
        game.play(0, ("ask", 1))
        for seat in (0, 2):
            told[aces].add(tuple(seat_news(game, seat)[-1]["then"]))
        owner = seat_news(game, 1)[-1]["then"]
        assert ("your Aces asked for: 0 -> 1" in owner) == aces, owner
    assert told[True] == told[False] == {("nothing comes of it",)}, told


def test_a_long_list_that_changed_is_told_by_its_size() -> None:
    """A variable holding a long list is told to have changed, with its size: never written
    out whole under every action (a served game keeps thousands of actions' news)."""
    from cardrules.present.news import VALUE_TEXT, values_text

    rules = load_ruleset("golf6")
    short = {"effect": "values", "changed": [[["scores", -1, [1, 2], [1, 2, 3]]]]}
    long = {"effect": "values", "changed": [[["scores", 0, list(range(VALUE_TEXT)),
                                             list(range(VALUE_TEXT + 1))]]]}
    assert values_text(rules, short, 0) == ["Scores: 1 2 -> 1 2 3"]
    assert values_text(rules, long, 0) == [f"your scores changed: {VALUE_TEXT + 1} items"]


WHISPER = """\
cardrules: 1
name: whisper
players: {min: 3, max: 3, default: 3}
deck: {ranks: [A, "2", "3"], suits: [clubs, hearts], zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
variables:
  - {name: heard, scope: player, initial: "''"}
round:
  setup: [shuffle stock, deal 2 from stock to each hand face down]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: act
          moves:
            - name: whisper
              label: "Whisper to {target}: {text}"
              choose: {target: "players where target != me", text: "words('AB', 1, 1)"}
              do: ["set target.heard = text"]
max_actions: 6
scoring:
  round:
    - {name: heard, score: "if p.heard == 'A' then 1 else 0"}
"""


def test_a_hint_of_a_text_to_write_names_the_choice_it_is_written_for(tmp_path: Path) -> None:
    """Two choices the person writes a text for (to seat 2, to seat 3): each text the bot
    tried goes by the number of its own choice, and says what to write."""
    path = tmp_path / "whisper.yaml"
    path.write_text(WHISPER, encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(path), "--seed", "3", "--plain"],
                                input="hint\nquit\nn\n")
    out = result.stdout
    offered = dict(re.findall(r"  (\d)\. Whisper to (seat \d)", out))
    named = re.findall(r"(\d)\. Whisper to (seat \d): ([AB]) \(type (\d), then ([AB])\)", out)
    assert len(offered) == 2 and {seat for _, seat, *_ in named} == {"seat 2", "seat 3"}, out
    for number, seat, text, typed, written in named:
        assert offered[number] == seat and typed == number and written == text


MATES = """
cardrules: 1
name: mates
players: {min: 2, max: 2}
deck: {ranks: [A, "2"], suits: [spades], zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: public}
variables:
  - {name: mate, scope: player, initial: none, type: player}
round:
  setup: [shuffle stock, deal 1 from stock to each hand face up]
  phases:
    - name: pick
      turns: each_once
      steps:
        - name: pick
          moves:
            - name: pick
              label: "Pick {q}"
              choose: {q: "others"}
              do: ["set me.mate = q"]
scoring:
  winner: highest
  round:
    - {name: none, score: "0"}
"""


def test_a_rounds_account_names_a_seat_a_variable_holds(tmp_path: Path) -> None:
    """A player variable holding a seat is 'seat 2' in a round's account, 'you' to its
    reader, as in the view and the news."""
    path = tmp_path / "mates.yaml"
    path.write_text(MATES, encoding="utf-8")
    rules = load_ruleset(str(path))
    engine = Engine(rules)
    state = engine.new_game(2, 1, log=True)
    legal = engine.legal_actions(state)
    while legal:
        legal = engine.play(state, legal[0])
    assert state.log is not None
    end = next(e for e in state.log if e.get("event") == "round_end")
    rows = {row[0]: row[-1] for row in round_account(rules, end, True, 0).rows}
    assert rows == {"seat 1": "seat 2", "seat 2": "you"}, rows


def test_two_choices_read_alike_only_where_the_seat_cannot_tell_their_cards_apart() -> None:
    """Choices that read alike name, where they differ, cards the seat cannot tell apart:
    copies of one face that it knows alike, or cards of another's hand it has not seen.
    Two copies it knows differently (one another seat gave it) are told apart, whichever
    other cards the choices name besides."""
    engine = Engine(load_ruleset(str(Path(__file__).parent / "games" / "blind.yaml")))
    rules, board = engine.rules, engine.rules.board
    rng = random.Random(2)
    compared = 0
    for seed in range(4):
        state = engine.new_game(3, seed)
        legal = engine.legal_actions(state)
        for _ in range(60):
            if not legal:
                break
            seat = engine.to_move(state)
            assert seat is not None
            order = offered_order(engine, state, seat, legal)
            texts = choice_texts(engine, state, seat, {i: legal[i] for i in order})
            alike: dict[str, list[int]] = {}
            for i in order:
                alike.setdefault(texts[i], []).append(i)
            for group in alike.values():
                for i in group[1:]:
                    for a, b in zip(cards_of(rules, legal[group[0]]), cards_of(rules, legal[i])):
                        if a == b:
                            continue
                        compared += 1
                        unseen = not (state.known[a] >> seat & 1 or state.known[b] >> seat & 1)
                        apart = unseen and state.where[a] == state.where[b] and \
                            board.owner[state.where[a]] not in (-1, seat)
                        copies = board.face[a] == board.face[b] and \
                            knowers_seen(board, state, a, seat) == \
                            knowers_seen(board, state, b, seat)
                        assert apart or copies, (texts[i], rules.cards.names[a],
                                                 rules.cards.names[b])
            legal = engine.play(state, rng.choice(legal))
    assert compared


def test_a_card_turned_the_way_it_already_lay_is_not_told() -> None:
    """golf6: a card taken face up from the discard pile and put in the grid is not 'turned
    face up' there (the log has no flip of a card that lay face up)."""
    engine = Engine(load_ruleset("golf6"))
    state = engine.new_game(2, 3, log=True)
    rng = random.Random(3)
    taken = 0
    while not state.over and taken < 6:
        legal = engine.legal_actions(state)
        took = ("take_discard",) in legal and rng.random() < 0.7
        action = ("take_discard",) if took else rng.choice(legal)
        before = list(state.face_up)
        start = len(state.log)
        engine.apply(state, action)
        flipped = [card for event in state.log[start:] if event.get("effect") == "flip up"
                   for card in event["named"][0]]  # (every card of a flip up is public)
        assert all(not before[card] for card in flipped), (action, state.log[start:])
        taken += took
    assert taken == 6


def test_a_rounds_account_tells_a_value_of_none_from_one_it_does_not_show() -> None:
    """gin rummy's 'Upcard taken' names a card: the account writes '?' where the reader
    cannot tell it (a card it has not seen, or none), but the reader's own value of none is
    'none', as its news says, not '?' as if kept from it."""
    engine = Engine(load_ruleset("gin-rummy"))
    state = engine.new_game(2, 3, log=True)
    bots = [make_bot("random", 3, p) for p in range(2)]
    while not any(e.get("event") == "round_end" for e in state.log):
        seat = engine.to_move(state)
        assert seat is not None
        engine.apply(state, bots[seat].choose(engine, state, engine.legal_actions(state)))
    event = dict(next(e for e in state.log if e.get("event") == "round_end"))
    # seat 1 took none; seat 2 the QH, which everyone saw
    event["player_variables"] = {**event["player_variables"], "taken": [None, "QH"]}
    event["told"] = [{**told, "values": [[name, owner, (None, "QH")[owner] if name == "taken"
                                          else value]
                                         for name, owner, value in told["values"]]}
                     for told in event["told"]]
    column = round_account(engine.rules, event).header.index("Upcard taken")
    rows = {seat: [row[column] for row in round_account(engine.rules, event, seat=seat).rows]
            for seat in (None, 0, 1)}
    assert rows == {None: ["?", "QH"], 0: ["none", "QH"], 1: ["?", "QH"]}, rows
