"""Regenerate tests/broken/*.yaml from tests/data/mini.yaml, one mistake each:

    python tests/make_broken.py

Each case edits a few lines of the base file and names where the error is: a line and a
token on it. The expected column is that token's position in the text (not whatever the
code under test says), written on the first line as `# expect-error: LINE:COL message`.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent
base = (ROOT / "data" / "mini.yaml").read_text(encoding="utf-8").splitlines(keepends=True)

# The term of expression_600_terms (from 0) the error points at: the sum is left-nested, so
# the 599 additions nest 599 deep, the first term deepest; the first part of the text nested
# too deep is told, here the first term.
# One procedure, for the cases of its calls.
REFILL = 'procedures: [{name: refill, params: {p: player}, do: ["move top(stock) to hand[p]"]}]'
# name: (edits [(line, old, new)], (line, token, occurrence) of the error, substring)
CASES = {
    "malformed_yaml": ([(4, "title: Mini", "title: Mini: the game")], (4, ":", 1),
                       "malformed YAML:"),  # then the YAML library's own words
    "control_character": ([(4, "title: Mini", "title: Mi\x01ni")], (4, "\x01", 0),
                          "a control character that a rule file cannot hold (U+0001): delete "
                          'it, or, inside a double-quoted text, write it as "\\x01"'),
    # YAML reads U+2028 as a line break where editors do not: every line after would be
    # numbered apart from the editor's
    "line_separator": ([(4, "title: Mini", "title: Mi\u2028ni")], (4, "\u2028", 0),
                       "a line separator (U+2028), which YAML reads as a line break and "
                       'editors do not: break the line, or, inside a double-quoted text, '
                       'write it as "\\u2028"'),
    # `tricks:` says how a trick reads a card: reading one as a trick does asks itself again
    "tricks_reading_tricks": ([(4, "title: Mini", 'tricks: {suit: "led_suit([card])"}')],
                              (4, "led_suit", 0), "`tricks: suit` says how a trick reads a "
                              "card; it cannot call led_suit, which reads cards as `tricks:` "
                              "says"),
    "duplicate_key": ([(4, "title: Mini", "name: mini")], (4, "name", 0),
                      "duplicate key 'name'"),
    "unknown_top_key": ([(4, "title: Mini", "titel: Mini")], (4, "titel", 0),
                        "unknown key 'titel': did you mean 'title'?"),
    "unknown_move_key": ([(36, "label:", "lable:")], (36, "lable", 0),
                         "unknown key 'lable': did you mean 'label'?"),
    "wrong_enum": ([(18, "visibility: hidden", "visibility: hiden")], (18, "hiden", 0),
                   "'hiden' is not allowed here: expected one of public, owner, others, "
                   "hidden; did you mean 'hidden'?"),
    "missing_required_key": ([(23, "scope: round", "doc: Cards drawn.")], (22, "name", 0),
                             "missing required key 'scope'"),
    # A trigger runs after something or before a turn: one of the two keys, never both or
    # neither (neither is not "missing 'after'", as if `before` did not exist).
    "trigger_without_after_or_before": ([(59, "after: move", "doc: Out of cards.")],
                                        (58, "name", 0), "expected exactly one of: after, before"),
    "trigger_after_and_before": ([(60, 'when: "size(stock) == 0"', "before: turn")],
                                 (58, "name", 0), "expected exactly one of: after, before"),
    # `after P` comes before `face up|down`: said so, with the order to write
    "deal_after_after_facing": ([(28, "to each hand", "to each hand face down after dealer")],
                                (28, "after", 0), "unexpected 'after': the statement looks "
                                "complete before it (a deal says whom it starts after before "
                                "how the cards face: deal 5 from stock to each hand after "
                                "dealer face down)"),
    "unknown_zone_deal": ([(28, "to each hand", "to each hnd")], (28, "hnd", 0),
                          "unknown zone 'hnd': did you mean 'hand'?"),
    "unknown_zone_move": ([(53, "to discard", "to dicard")], (53, "dicard", 0),
                          "unknown zone 'dicard': did you mean 'discard'?"),
    "unknown_name_did_you_mean": ([(39, "top(stock)", "top(stok)")], (39, "stok", 0),
                                  "'stok': did you mean 'stock'?"),
    "owned_zone_without_owner": ([(39, "hand[me]", "hand")], (39, "hand", 0),
                                 "zone 'hand' belongs to each player: write hand[me] or hand[p]"),
    "unknown_card_attribute": ([(67, "c.points", "c.pionts")], (67, "pionts", 0),
                               "a card has no attribute 'pionts': did you mean 'points'?"),
    "unknown_function": ([(37, "size(stock)", "sise(stock)")], (37, "sise", 0),
                         "unknown function 'sise': did you mean 'size'?"),
    "wrong_arity": ([(60, "size(stock)", "size(stock, discard)")], (60, "size", 0),
                    "size() takes 1 argument, got 2"),
    "type_error_and": ([(60, "size(stock) == 0", "size(stock) and true")], (60, "size", 0),
                       "each side of 'and' must be true or false, but this is a number"),
    "type_error_card_number": ([(52, "card.rank != 'K'", "card != 3")], (52, "!=", 0),
                               "comparing a card with a number is always false"),
    "type_error_set": ([(40, "set drawn += 1", "set drawn = true")], (40, "true", 0),
                       "drawn"),
    "incomplete_expression": ([(60, "size(stock) == 0", "size(stock) == 0 and")],
                              (60, '"', 1), "incomplete expression: expected"),
    "single_equals": ([(60, "size(stock) == 0", "size(stock) = 0")], (60, "=", 0),
                      "(to compare, write ==)"),
    "slice_of_a_number": ([(67, "hand[p]", "size(hand[p])[1:]")], (67, "size", 0),
                          "cannot slice a number: expected a zone or a list"),
    "slice_bound_text": ([(67, "hand[p]", "hand[p]['K':]")], (67, "'K'", 0),
                         "a slice's bound must be a number, but this is a text"),
    "position_never_there": ([(52, "card.rank != 'K'", "position(2, hand[me]) > 0")],
                             (52, "2", 0),
                             "position() looks for a number in a list of cards: it is never "
                             "there"),
    "group_of_shared_zone_unindexed": ([(19, "layout: stack", "layout: stack, groups: 2"),
                                        (47, "[move top(stock) to discard face up]",
                                         "[\"move top(stock) to discard[0] face up\"]")],
                                       (53, "discard", 0),
                                       "zone 'discard' has 2 groups: write discard[i], i from 0"),
    "sorted_cards": ([(67, "hand[p]", "sorted(hand[p])")], (67, "hand", 0),
                     "sorted() orders numbers, ranks, suits or lists of numbers, but this is "
                     "list of cards: write sorted_by(c.number for c in ...)"),
    "max_by_of_cards": ([(52, "card.rank != 'K'", "card == max_by(c for c in hand[me])")],
                        (52, "c for", 0),
                        "the value of max_by() must be a number, a rank, a suit or a list of "
                        "numbers, but this is a card"),
    "score_text": ([(40, "set drawn += 1", "score 'one' to me")], (40, "'one'", 0),
                   "the points scored must be a number, but this is a text"),
    "points_in_play_taken": ([(22, "- name: drawn", "- name: points_in_play"),
                              (40, "set drawn += 1", "score 1 to me")],
                             (22, "points_in_play", 0),
                             "a variable is named 'points_in_play', the name of the points a "
                             "`score` statement gives: rename it"),
    "aggregate_of_two_fors": ([(40, "set drawn += 1",
                                "let n = count(c for p in players for c in hand[p])")],
                              (40, "for", 1),
                              "unexpected 'for': expected one of ')', 'if' (an aggregate takes "
                              "one `for`: write a second inside it, any(any(... for c in "
                              "hand[p]) for p in players))"),
    "set_through_a_call": ([(40, "set drawn += 1", "set next_player(me).drawn += 1")],
                           (40, "(", 0),
                           "unexpected character '(': what is set is a variable or P.name with "
                           "P one name; name the player first (let q = ..., then set q.name "
                           "...)"),
    "set_an_item": ([(40, "set drawn += 1", "set drawn[0] = 1")], (40, "[", 0),
                    "unexpected character '[': what is set is a variable or P.name, never an "
                    "item of a list; set the list whole (set xs = ...)"),
    "zone_indexed": ([(40, "set drawn += 1", "let v = hand[me][0]")], (40, "hand[me][0]", 0),
                     "cannot index zone 'hand' by a card's place: a card of a zone by place "
                     "is an item of its cards, cards(Z)[i] (or a slice, Z[i:j]; the top card, "
                     "top(Z))"),
    "score_to_a_number": ([(40, "set drawn += 1", "score 1 to 2")], (40, "2", 0),
                          "who scores must be a player, but this is a number"),
    "procedure_calls_itself": ([(4, "title: Mini",
                                 'procedures: [{name: again, do: ["again()"]}]')],
                               (4, "again()", 0),
                               "'again' is declared later, or is the procedure being written: a "
                               "procedure calls only those declared before it, so that none "
                               "calls itself"),
    "function_calls_itself": ([(4, "title: Mini", 'functions: [{name: deep, params: {n: number}, '
                                'value: "if n <= 0 then 0 else deep(n - 1)"}]')],
                              (4, "deep(n", 0),
                              "'deep' is the function being written: a function calls only "
                              "those declared above it, so that none calls itself"),
    "procedure_named_like_a_statement": ([(4, "title: Mini",
                                           'procedures: [{name: win, params: {p: player}, '
                                           'do: ["score 7 to p"]}]')],
                                         (4, "win", 0),
                                         "'win' begins a statement (move deal shuffle flip swap "
                                         "set let peek end turn win eliminate reveal score): "
                                         "`win(...)` would be read as that statement, never as "
                                         "a call of this procedure; choose another name"),
    "procedure_as_a_value": ([(4, "title: Mini", REFILL),
                              (37, "size(stock) > 0", "refill(me)")], (37, "refill", 0),
                             "'refill' is a procedure, which does something and gives no value: "
                             "an expression calls a function (`functions:`)"),
    "words_outside_choose": ([(40, "set drawn += 1", "let w = words('UD', 1, 3)")],
                             (40, "words", 0),
                             "words(...) is a domain of texts a player writes: it has meaning "
                             "only as a move's `choose` domain"),
    "deck_zone_owned": ([(14, "zone: stock", "zone: hand")], (14, "hand", 0),
                        "the deck's zone must be a shared zone, not 'hand', which each player "
                        "owns: the shared zones are stock, discard"),
    "procedure_unknown": ([(4, "title: Mini", REFILL),
                           (40, "set drawn += 1", "refil(me)")], (40, "refil", 0),
                          "unknown procedure 'refil': did you mean 'refill'?"),
    "procedure_argument": ([(4, "title: Mini", REFILL),
                            (40, "set drawn += 1", "refill(3)")], (40, "3", 0),
                           "the argument of refill() must be a player, but this is a number"),
    "procedure_arity": ([(4, "title: Mini", REFILL),
                         (40, "set drawn += 1", "refill(me, 2)")], (40, "refill", 0),
                        "refill() takes 1 argument, got 2"),
    "colours_unknown_suit": ([(13, "suits: [clubs, diamonds, hearts, spades]",
                               "colours: {clubs: red, coins: red}")],
                             (13, "coins", 0),
                             "deck.colours: no suit 'coins' in this deck"),
    "joker_names_count": ([(13, "suits: [clubs, diamonds, hearts, spades]",
                            "joker_names: [RJ]")], (13, "RJ", 0),
                          "deck.joker_names names 1 joker, but a copy of the deck has 0"),
    "tricks_suit_a_rank": ([(4, "title: Mini", 'tricks: {suit: "card.rank"}')],
                           (4, "card.rank", 0),
                           "a card's suit in a trick must be a suit, but this is a rank"),
    "bad_statement": ([(27, "shuffle stock", "shufle stock")], (27, "shufle", 0),
                      "expected a statement"),
    "deal_to_each_indexed": ([(28, "to each hand", "to each hand[me]")], (28, "[", 0),
                             "unexpected character '[': 'to each hand' takes no index, as it "
                             "deals to every player's own (to give one player cards, move them "
                             "to that player's zone)"),
    "comma_in_flow_text": ([(20, "visibility: owner}", "visibility: owner, doc: Yours, to keep}")],
                           (20, "to keep", 0), "unknown key 'to keep': a comma inside { } ends "
                           "a value; if this is the rest of doc's text, put that text in quotes"),
    # a name whose value failed its check: its uses are not a second error
    "let_of_a_fault": ([(39, "move top(stock) to hand[me]", "let n = sise(stock)"),
                        (40, "set drawn += 1", "set drawn += n")], (39, "sise", 0),
                       "unknown function 'sise': did you mean 'size'?"),
    "for_over_a_fault": ([(53, "[move card to discard face up]",
                           '[{for: "c in hnd[me]", do: [move c to discard face up]}]')],
                         (53, "hnd", 0), "unknown zone 'hnd': did you mean 'hand'?"),
    "others_visibility_shared": ([(19, "visibility: public", "visibility: others")],
                                 (19, "{", 0), "zone 'discard' has visibility 'others', which "
                                 "needs a holder: a zone each player owns (owner: each)"),
    "tell_of_players": ([(53, "move card to discard face up",
                          "tell me which q in players where q == me")], (53, "players", 0),
                        "a clue tells of cards, but this is list of players"),
    "tell_not_a_player": ([(53, "move card to discard face up",
                            "tell card which c in discard where c.face_up")],
                          (53, "card", 0), "who is told must be a player, but this is a card"),
    "tell_reads_the_place": ([(53, "move card to discard face up",
                               "'tell me which c in discard where c in hand[me]'")],
                             (53, "c in hand", 0),
                             "a clue's condition may read only what a card is (its rank, suit, "
                             "colour, number, value tables) against what everyone knows (the "
                             "move's choices, the options, public variables): this reads 'c' "
                             "itself, not what it is (its rank, suit, colour...)"),
    "unknown_rank": ([(52, "'K'", "'Kx'")], (52, "'Kx'", 0),
                     "'Kx' is not a rank of this deck: expected A, 2, 3, K"),
    "option_choices_of_two_kinds": ([(9, "choices: [fast, slow]", "choices: [fast, slow, 3]")],
                                    (9, "3", 0),
                                    "an option's choices are of one kind: the first, fast, is a "
                                    "text, and 3 is a number: write them all alike (in quotes, "
                                    "every one is a text)"),
    "option_one_choice": ([(9, "choices: [fast, slow]", "choices: [fast]")], (9, "[fast]", 0),
                          "choices: expected a list of at least 2 items, found 1"),
    "option_choice": ([(37, "'fast'", "'fsat'")], (37, "'fsat'", 0),
                      "option 'mode' is never 'fsat': its choices are fast, slow"),
    "label_unknown_parameter": ([(51, "{card}", "{crd}")], (51, "crd", 0),
                                "the label names '{crd}', but the move chooses card"),
    "then_unknown_step": ([(46, "then: drop", "then: dorp")], (46, "dorp", 0),
                          "no step 'dorp' in this phase: did you mean 'drop'?"),
    "set_unknown_variable": ([(40, "set drawn", "set drwan")], (40, "drwan", 0),
                             "unknown variable 'drwan': did you mean 'drawn'?"),
    "duplicate_move": ([(54, "name: keep", "name: drop")], (54, "drop", 0),
                       "move 'drop' is declared twice"),
    "duplicate_step": ([(46, "then: drop", "then: draw"), (48, "name: drop", "name: draw")],
                       (48, "draw", 0),
                       "step 'draw' is declared twice in phase 'play'"),
    "block_scalar": ([(45, "and mode", "and moed")], (45, "moed", 0),
                     "unknown name 'moed': did you mean 'mode'?"),
    "block_scalar_indented": ([(45, "                and mode", "                  and moed")],
                              (45, "moed", 0), "unknown name 'moed': did you mean 'mode'?"),
    "folded_scalar": ([(43, "when: |", "when: >"), (45, "and mode", "and moed")],
                      (45, "moed", 0), "unknown name 'moed': did you mean 'mode'?"),
    "double_quoted_escapes": ([(37, "\"size(stock) > 0 and mode == 'fast'\"",
                                 '"mode == \\"fast\\" and sise(stock) > 0"')], (37, "sise", 0),
                              "unknown function 'sise': did you mean 'size'?"),
    "single_quoted_escapes": ([(37, "\"size(stock) > 0 and mode == 'fast'\"",
                                 "'mode == ''fast'' and sise(stock) > 0'")], (37, "sise", 0),
                              "unknown function 'sise': did you mean 'size'?"),
    "plain_multiline": ([(43, "when: |", "when:"), (45, "and mode", "and moed")],
                        (45, "moed", 0), "unknown name 'moed': did you mean 'mode'?"),
    "double_quoted_multiline": ([(43, "when: |", 'when: "size(stock) > 0'),
                                 (44, "size(stock) > 0", "and size(discard) >= 0"),
                                 (45, "and mode == 'slow'", "and moed == 'slow'\"")],
                                (45, "moed", 0), "unknown name 'moed': did you mean 'mode'?"),
    "values_missing_rank": ([(16, ', K: 0}', '}')], (16, "{", 0),
                            "values 'points' gives no number for: K"),
    "values_unknown_rank": ([(16, 'K: 0', 'Kx: 0, K: 0')], (16, "Kx", 0),
                            "'Kx' is not a rank of this deck: did you mean 'K'?"),
    "players_bounds": ([(5, "default: 2", "default: 5")], (5, "{", 0),
                       "players: expected min <= default <= max"),
    "language_version": ([(2, "cardrules: 1", "cardrules: 2")], (2, "2", 0),
                         "expected 1, found 2"),
    "teams_uneven": ([(4, "title: Mini", "teams: 2")], (4, "2", 0),
                     "2 teams cannot share 3 players equally: the player counts must be "
                     "multiples of 2"),
    "team_without_teams": ([(67, "sum(c.points for c in hand[p])", "size(team(p))")],
                           (67, "team", 0), "this ruleset declares no teams (`teams:`)"),
    "scoring_by_team_without_teams": ([(63, "winner: lowest", "by: team")], (63, "team", 0),
                                      "scoring by team needs `teams:`"),
    "turn_to_a_number": ([(56, "do: []", "do: [turn to 3]")], (56, "3", 0),
                         "whose turn is next must be a player, but this is a number"),
    "compare_with_none": ([(60, "size(stock) == 0", "size(stock) == none")], (60, "==", 0),
                          "comparing a number with none is always false"),
    "layout_trick_misspelt": ([(19, "layout: stack", "layout: trik")], (19, "trik", 0),
                              "'trik' is not allowed here: expected one of stack, row, grid, "
                              "spread, trick; did you mean 'trick'?"),
    # Inputs that once ended in a traceback: each now gets one clean, located message.
    "number_too_long_in_yaml": ([(5, "default: 2", "default: " + "9" * 5000)], (5, "9", 0),
                                "this number is far too long"),
    "number_too_long_in_expression": ([(60, "size(stock) == 0", "size(stock) == " + "9" * 5000)],
                                      (60, "9", 0), "this number has 5,000 digits"),
    "label_nested_braces": ([(51, "{card}", "{card:{card}}")], (51, ":", 1),
                            "unexpected ':': expected '}'"),
    "label_lone_brace": ([(51, "Drop {card}", "Drop }")], (51, "}", 0), "unexpected '}'"),
    "label_value_reads_zone": ([(51, "{card}", "{card} of {size(hand[me])}")],
                               (51, "hand", 0), "a label's value is worked out from the "
                               "move's choices alone, but this reads zone 'hand'"),
    "label_value_reads_variable": ([(51, "{card}", "{card} after {drawn + 1}")],
                                   (51, "drawn", 0), "a label's value is worked out from the "
                                   "move's choices alone, but this reads variable 'drawn'"),
    "label_value_a_card": ([(51, "{card}", "{top(discard)}")], (51, "top", 0),
                           "a label shows a number, a text, a rank, a suit, a colour or a "
                           "player, not a card: name a chosen card by its parameter alone "
                           "('{card}')"),
    "label_value_unknown_name": ([(51, "{card}", "{card} for {crd.points}")], (51, "crd", 0),
                                 "unknown name 'crd': did you mean 'card'?"),
    "colour_without_colours": ([(13, "spades]", "bells]"),
                                (52, "card.rank != 'K'", "card.colour == 'red'")],
                               (52, "colour", 0), "the deck gives suit 'bells' no colour: name "
                               "the colour of each suit in deck.colours (bells: red or black)"),
    "repetition_misspelt": ([(4, "title: Mini", "repetition: forbidden")], (4, "forbidden", 0),
                            "'forbidden' is not allowed here: expected one of allow, forbid; "
                            "did you mean 'forbid'?"),
    "repetition_true": ([(4, "title: Mini", "repetition: true")], (4, "true", 0),
                        "the boolean true is not allowed here: expected one of allow, forbid"),
    "colour_of_a_card": ([(52, "card.rank != 'K'", "colour(card) == 'red'")],
                         (52, "card", 1),
                         "the argument of colour() must be a suit, but this is a card"),
    "name_tagged_int": ([(3, "name: mini", "name: !!int x")], (3, "!!int", 0),
                        "'x' is not a valid whole number, as its tag !!int says it is"),
    "expression_600_terms": ([(60, "size(stock) == 0",
                               "size(stock) == " + " + ".join(["1"] * 600))],
                             (60, "1", 0),
                             "this expression is nested more than 100 levels deep"),
    "parent_name_too_long": ([(4, "title: Mini", "extends: " + "x" * 300 + ".yaml")],
                             (4, "xxx", 0), "cannot use the parent ruleset 'xxx"),
    "name_ends_in_newline": ([(22, "  - name: drawn", '  - name: "drawn\\n"')], (22, "drawn", 0),
                             "'drawn' is written with spaces or line breaks around it"),
    "players_min_above_max": ([(5, "min: 2", "min: 65")], (5, "{", 0),
                              "players: expected min <= default <= max"),
    "suit_name_empty": ([(13, "spades]", '""]')], (13, '"', 1),
                        "the suits of a deck are names of 1 to 20 characters"),
    "rank_name_of_5000_digits": ([(12, 'K]', 'K, "' + "9" * 5000 + '"]')], (12, '9', 0),
                                 "the ranks of a deck are names of 1 to 20 characters"),
    "meld_ace_on_set": ([(4, "title: Mini",
                          "melds: {kinds: [{name: trio, kind: set, ace: low}]}")], (4, "low", 0),
                        "ace: only a run has an order for the ace to stand in"),
    "meld_value_unknown": ([(4, "title: Mini", "melds: {value: pionts, kinds: [{name: run, "
                                               "kind: run}]}")], (4, "pionts", 0),
                           "melds: no value table 'pionts' (a table of `values:`, or number): "
                           "did you mean 'points'?"),
    "meld_max_below_min": ([(4, "title: Mini", "melds: {kinds: [{name: run, kind: run, min: 4, "
                                             "max: 3}]}")], (4, "3", 0),
                           "max 3 is below min 4"),
    "meld_too_long": ([(4, "title: Mini", "melds: {kinds: [{name: run, kind: run, min: 30}]}")],
                      (4, "30", 0),
                      "min: 30; a meld kind's min is 1 to 24"),
    "meld_ace_misspelt": ([(4, "title: Mini", "melds: {kinds: [{name: run, kind: run, "
                                            "ace: hihg}]}")], (4, "hihg", 0),
                          "ace: 'hihg' is not one of low, high, both, wrap: did you mean "
                          "'high'?"),
    "meld_size_not_static": ([(4, "title: Mini", "melds: {kinds: [{name: run, kind: run, "
                                               "min: 'size(stock)'}]}")], (4, "size", 0),
                             "a meld kind's min may only use numbers, texts and options"),
    "goal_kind_unknown": ([(4, "title: Mini", "melds: {kinds: [{name: trio, kind: set}]}"),
                           (37, "size(stock) > 0", "can_lay_down(hand[me], ['tiro'])")],
                          (37, "'tiro'", 0),
                          "no meld kind 'tiro' (the kinds: trio): did you mean 'trio'?"),
    "goal_layouts_retired": ([(37, "size(stock) > 0", "meets_goal(hand[me], 2, 0, true)")],
                             (37, "meets_goal", 0),
                             "meets_goal() is no longer a built-in: declare the kinds of meld "
                             "(`melds:`) and use can_lay_down(cards, goal)"),
    "meld_kind_twice": ([(4, "title: Mini", "melds: {kinds: [{name: m, kind: run}, "
                                            "{name: m, kind: set}]}")], (4, "m, kind: set", 0),
                        "the meld kind 'm' is declared twice"),
    "loop_without_limit": ([(40, "- set drawn += 1",
                             "- {while: 'drawn < 0', do: [set drawn += 1]}")],
                           (40, "drawn <", 0),
                           "a while block needs `limit: N`, the most times its body runs"),
    "loop_limit_too_large": ([(40, "- set drawn += 1",
                               "- {until: 'drawn > 2', limit: 5000, do: [set drawn += 1]}")],
                             (40, "5000", 0), "limit: at most 1000"),
    "max_actions_too_large": ([(4, "title: Mini", "max_actions: 20000000")],
                              (4, "20000000", 0), "max_actions: at most 10,000,000"),
    "meld_function_undeclared": ([(37, "size(stock) > 0", "can_meld(hand[me])")],
                                 (37, "can_meld", 0),
                                 "can_meld() needs the kinds of meld declared (`melds:`)"),
    "left_out_undeclared": ([(37, "size(stock) > 0", "size(left_out(hand[me])) > 0")],
                            (37, "left_out", 0),
                            "left_out() needs the kinds of meld declared (`melds:`)"),
    "house_undeclared": ([(39, "hand[me]", "hand[house]")], (39, "house", 0),
                         "this ruleset declares no house: `house` needs a top-level `house:`"),
    "turn_to_house": ([(4, "title: Mini", "house: {name: Bank}"),
                       (40, "set drawn += 1", "turn to house")], (40, "house", 0),
                      "the house is not a seat and never takes a turn: `turn to` names a seat"),
    "house_name_clash": ([(4, "title: Mini", "house: {name: Bank}"),
                          (40, "- set drawn += 1",
                           "- {for: house in players, do: [set drawn += 1]}")],
                         (40, "house", 0),
                         "'house' names the house in this ruleset (`house:`); choose another "
                         "name"),
    "house_with_teams": ([(4, "title: Mini", "house: {name: Bank}"),
                          (5, "players: {min: 2, max: 4, default: 2}", "teams: 2")],
                         (5, "2", 0), "a ruleset with a house (`house:`) cannot play in "
                         "partnerships (`teams:`)"),
    "secret_until_not_secret": ([(22, "- name: drawn",
                                  "- {name: drawn, scope: round, initial: 0, "
                                  "secret_until: round_end}"),
                                 (23, "  scope: round", "# scope and initial: above"),
                                 (24, "  initial: 0", "#")],
                                (22, "round_end", 0),
                                "`secret_until` says until when a secret stays secret: it "
                                "needs `visibility: owner`"),
    "secret_until_round_end_on_player": ([(22, "- name: drawn",
                                           "- {name: guess, scope: player, initial: 0, "
                                           "visibility: owner, secret_until: round_end}"),
                                          (23, "  scope: round",
                                           "- {name: drawn, scope: round, initial: 0}"),
                                          (24, "  initial: 0", "#")],
                                         (22, "round_end", 0),
                                         "`secret_until: round_end` is for a variable of scope "
                                         "player_round, whose value lasts one round (this one "
                                         "is player)"),
    "work_nested_numbers": ([(67, "sum(c.points for c in hand[p])",
                              "sum(sum(i * j for j in numbers(1, 10000)) "
                              "for i in numbers(1, 10000))")],
                            (67, "sum", 0),
                            "score 'hand' may take up to 400,040,006 steps, more than the "
                            "10,000,000 a rule may take"),
    "work_nested_loops": ([(40, "- set drawn += 1",
                            "- {while: 'drawn < 5', limit: 1000, do: [{until: 'drawn > 2', "
                            "limit: 1000, do: [{until: 'drawn > 3', limit: 1000, do: "
                            "[set drawn += 1]}]}]}")],
                          (40, "drawn < 5", 0),
                          "move 'take' may take up to"),
    "work_nested_subsets": ([(52, "hand[me] where card.rank != 'K'",
                              "hand[me] where any(any(size(s) > size(t) for t in "
                              "subsets(hand[me])) for s in subsets(hand[me]))")],
                            (52, "any", 1),
                            "this goes through subsets or combinations of cards in play inside "
                            "another loop through such a list"),
    # What other languages write, and YAML's own readings of a text not in quotes: each
    # message says what to write instead.
    "else_if_key": ([(53, "do: [move card to discard face up]",
                      'do: [{if: "true", then: [], elif: []}]')], (53, "elif", 0),
                    "unknown key 'elif': an `if` block has `then` and `else`: write the next "
                    "test as an `if` block inside `else`"),
    "brackets_in_a_flow_mapping": ([(52, "\"hand[me] where card.rank != 'K'\"", "hand[me]")],
                                   (52, "[", 0),
                                   "inside { }, a value holding [ ], { } or a comma must be in "
                                   "quotes"),
    "label_of_a_placeholder_alone": ([(51, '"Drop {card}"', "{card}")], (51, "{", 0),
                                     "expected a string, found a mapping; YAML reads { } at a "
                                     "value's start as a mapping: put the text in quotes"),
    "name_read_as_a_truth_value": ([(22, "name: drawn", "name: on")], (22, "on", 0),
                                   "found the boolean true; YAML reads yes, no, on, off, true "
                                   "and false as truth values: put the text in quotes"),
    "when_reads_what_is_chosen": ([(53, "do: [move card to discard face up]",
                                    "when: \"card.rank != 'K'\"")],
                                  (53, "card", 0),
                                  "'card' is chosen by this move (`choose`), and a move's "
                                  "`when` is tested before anything is chosen: test the choice "
                                  "in the `where` of card's list"),
    "variable_named_as_a_zone": ([(22, "- name: drawn",
                                   "- {name: hand, scope: round, initial: 0}"),
                                  (23, "    scope: round",
                                   "  - {name: drawn, scope: round, initial: 0}"),
                                  (24, "    initial: 0", "  # (drawn: above)")], (22, "hand", 0),
                                 "the name 'hand' is already taken by a zone"),
    # an aggregate counts three levels: Python could not compile 80 nested ones
    "aggregates_nested_too_deep": ([(60, "size(stock) == 0", "any(" * 34 + "x > 0"
                                     + " for x in numbers(1, 1))" * 34)], (60, "any", 33),
                                   "nested more than 100 levels deep (an aggregate, `any(... "
                                   "for ...)`, counts 3)"),
    # each whole action listed is kept in the list: a million of them at most
    "listing_a_million_actions": ([(52, "choose: {card: \"hand[me] where card.rank != 'K'\"}",
                                    'choose: {card: "hand[me]", a: "numbers(1, 1000)", '
                                    'b: "numbers(1, 1000)"}')], (50, "name", 0),
                                  "move 'drop' (listing its choices) may take up to"),
    # Python compiles 20 blocks inside one another in a function, with the flow's own
    "loops_nested_too_deep": ([(53, "do: [move card to discard face up]",
                                "do: [" + "".join(f'{{for: "x{i} in numbers(1, 1)", do: ['
                                                  for i in range(17))
                                + "move card to discard face up" + "]}" * 17 + "]")],
                              (53, "x16", 0),
                              "blocks that loop (for, while, until) nest at most 16 deep in "
                              "one rule"),
    "rank_compared_with_a_number": ([(52, "card.rank != 'K'", "card.rank != 8")],
                                    (52, "!=", 0),
                                    "comparing a rank with a number is always false: a rank is "
                                    "named as a text, write '8'"),
}
# Files cut short: name: (the last line kept, (line, token, occurrence), substring).
CUTS = {
    "cut_before_round": (24, (2, "cardrules", 0), "missing required key 'round'"),
}


def column(line: str, token: str, occurrence: int) -> int:
    at = -1
    for _ in range(occurrence + 1):
        at = line.index(token, at + 1)
    return at + 1


def write(name: str, lines: list[str], line_no: int, token: str, occ: int, message: str) -> None:
    col = column(lines[line_no - 1], token, occ)
    lines[0] = f"# expect-error: {line_no}:{col} {message}\n"
    (ROOT / "broken" / f"{name}.yaml").write_text("".join(lines), encoding="utf-8")
    print(f"{name}: {line_no}:{col}")


def main() -> None:
    for name, (edits, (line_no, token, occ), message) in CASES.items():
        lines = list(base)
        for ln, old, new in edits:
            assert lines[ln - 1].count(old) == 1, (name, ln, old, lines[ln - 1])
            lines[ln - 1] = lines[ln - 1].replace(old, new)
        write(name, lines, line_no, token, occ, message)
    for name, (last, (line_no, token, occ), message) in CUTS.items():
        write(name, list(base[:last]), line_no, token, occ, message)


if __name__ == "__main__":
    main()
