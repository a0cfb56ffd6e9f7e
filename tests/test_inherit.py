"""Inheritance (`extends:`): merge by name, replace, remove, insert, chains, cycles, and
errors that point into the file that wrote the offending text."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from cardrules.dsl.diff import diff, flow_text
from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.errors import RulesetError

BASE = """\
cardrules: 1
name: base
players: {min: 2, max: 4, default: 2}
options:
  - {name: alpha, default: 1, doc: first}
  - {name: beta, default: 2, doc: second}
  - {name: gamma, default: 3, doc: third}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
round:
  setup:
    - shuffle stock
    - deal 2 from stock to each hand
  phases:
    - name: play
      turns: each_once
      steps:
        - name: only
          moves:
            - name: keep
              label: Keep
              do: []
            - name: drop
              label: Drop
              when: "size(hand[me]) > 0"
              do: ["move top(hand[me]) to stock"]
scoring:
  round:
    - {name: cards, score: "size(hand[p])"}
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def child(folder: Path, body: str, name: str = "child.yaml", parent: str = "base.yaml") -> Path:
    write(folder, "base.yaml", BASE)
    return write(folder, name, f"cardrules: 1\nextends: {parent}\nname: child\n{body}")


def option_names(path: Path) -> list[str]:
    return [o.name for o in load_ruleset(path).option_defs]


def test_an_entry_with_a_known_name_is_merged_key_by_key(tmp_path: Path) -> None:
    path = child(tmp_path, "options:\n  - {name: beta, default: 20}\n")
    rules = load_ruleset(path)
    beta = next(o for o in rules.option_defs if o.name == "beta")
    assert (beta.default, beta.doc) == (20, "second")  # the doc comes from the parent
    assert option_names(path) == ["alpha", "beta", "gamma"]


def test_replace_true_replaces_the_whole_entry(tmp_path: Path) -> None:
    path = child(tmp_path, "options:\n  - {name: beta, replace: true, default: 5, "
                           "doc: new}\n")
    beta = next(o for o in load_ruleset(path).option_defs if o.name == "beta")
    assert (beta.default, beta.doc) == (5, "new")


def test_replace_drops_the_keys_the_child_does_not_repeat(tmp_path: Path) -> None:
    path = child(tmp_path, "options:\n  - {name: beta, replace: true, default: 5}\n")
    problems = check_files([str(path)])
    assert any("missing required key 'doc'" in d.message for d in problems)


def test_remove_true_removes_an_entry(tmp_path: Path) -> None:
    path = child(tmp_path, "options:\n  - {name: beta, remove: true}\n")
    assert option_names(path) == ["alpha", "gamma"]


def test_insert_before_and_after_place_a_new_entry(tmp_path: Path) -> None:
    path = child(tmp_path, "options:\n"
                           "  - {name: early, default: 0, doc: x, insert_before: alpha}\n"
                           "  - {name: middle, default: 0, doc: y, insert_after: beta}\n"
                           "  - {name: late, default: 0, doc: z}\n")
    assert option_names(path) == ["early", "alpha", "beta", "middle", "gamma", "late"]


def test_a_new_entry_deletes_no_key(tmp_path: Path) -> None:
    """`key: null` deletes a key of the parent's entry; a new entry has none to delete."""
    path = child(tmp_path, "options:\n  - {name: late, default: 0, doc: z, label: null}\n")
    [d] = check_files([str(path)])
    assert d.message.startswith("cannot delete 'label': the parent has no such key ('late' "
                                "is a new entry"), d.format()
    assert d.location is not None and d.location.line == 5


def test_named_lists_merge_at_any_depth(tmp_path: Path) -> None:
    body = ("round:\n  phases:\n    - name: play\n      steps:\n        - name: only\n"
            "          moves:\n            - {name: drop, remove: true}\n"
            "            - {name: pass_on, label: Pass, do: [], insert_before: keep}\n")
    rules = load_ruleset(child(tmp_path, body))
    moves = [m.name for m in rules.phases[0].steps[0].moves]
    assert moves == ["pass_on", "keep"]
    assert rules.phases[0].turns == "each_once"  # untouched keys come from the parent


def test_anything_else_replaces(tmp_path: Path) -> None:
    body = "players: {max: 3}\nround:\n  setup: [shuffle stock]\n"
    rules = load_ruleset(child(tmp_path, body))
    assert (rules.min_players, rules.max_players) == (2, 3)  # mapping merged key by key
    assert rules.data["round"]["setup"] == ["shuffle stock"]  # a statement list replaced


def test_chains_of_variants(tmp_path: Path) -> None:
    child(tmp_path, "options:\n  - {name: alpha, default: 10}\n")
    grand = write(tmp_path, "grand.yaml", "cardrules: 1\nextends: child.yaml\nname: grand\n"
                                          "options:\n  - {name: gamma, default: 30}\n")
    defaults = {o.name: o.default for o in load_ruleset(grand).option_defs}
    assert defaults == {"alpha": 10, "beta": 2, "gamma": 30}


def test_a_cycle_is_an_error_that_names_the_files(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "cardrules: 1\nextends: b.yaml\nname: a\n")
    write(tmp_path, "b.yaml", "cardrules: 1\nextends: a.yaml\nname: b\n")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(tmp_path / "a.yaml")
    message = str(caught.value)
    assert "cycle" in message and "a.yaml" in message and "b.yaml" in message


def test_an_unknown_parent_is_located_at_extends(tmp_path: Path) -> None:
    path = write(tmp_path, "orphan.yaml", "cardrules: 1\nextends: nowhere.yaml\nname: x\n")
    (problem,) = check_files([str(path)])
    assert problem.location is not None
    assert (problem.location.line, problem.location.column) == (2, 10)
    assert "nowhere.yaml" in problem.message


def test_an_error_in_inherited_text_points_into_the_parent(tmp_path: Path) -> None:
    broken = BASE.replace("size(hand[p])", "size(hnad[p])")
    write(tmp_path, "base.yaml", broken)
    path = write(tmp_path, "child.yaml", "cardrules: 1\nextends: base.yaml\nname: child\n")
    (problem,) = check_files([str(path)])
    assert problem.location is not None
    assert problem.location.path.endswith("base.yaml")
    line = broken.splitlines().index('    - {name: cards, score: "size(hnad[p])"}') + 1
    assert problem.location.line == line
    assert "hnad" in problem.message and "did you mean 'hand'" in problem.message


def test_an_error_in_the_child_points_into_the_child(tmp_path: Path) -> None:
    path = child(tmp_path, "options:\n  - {name: delta, insert_after: nothing, default: 1, "
                           "doc: x}\n")
    problems = check_files([str(path)])
    assert problems and problems[0].location is not None
    assert problems[0].location.path.endswith("child.yaml")
    assert "no entry 'nothing'" in problems[0].message


def test_removing_an_unknown_entry_is_an_error(tmp_path: Path) -> None:
    path = child(tmp_path, "options:\n  - {name: delta, remove: true}\n")
    (problem,) = check_files([str(path)])
    assert "cannot remove 'delta'" in problem.message


def test_a_built_in_parent_by_name() -> None:
    rules = load_ruleset("golf6-quick")
    assert rules.options["rounds"] == 4
    assert "extends" not in rules.data  # resolved away


def test_diff_lists_entries_by_name() -> None:
    a, b = load_ruleset("golf6"), load_ruleset("golf6-family")
    changes = {c.path: c for c in diff(a.data, b.data)}
    assert changes["options.bonus"].kind == "added"
    assert changes["scoring.round.house_bonus"].kind == "added"
    assert changes["scoring.round.columns.score"].kind == "changed"
    assert "options.rounds" not in changes  # unchanged entries are not listed
    assert list(diff(a.data, a.data)) == []


def test_diff_keeps_each_difference_on_one_line() -> None:
    """A summary of several lines is shown quoted, its line breaks written \\n."""
    a, b = load_ruleset("golf6"), load_ruleset("spades")
    lines = [c.format() for c in diff(a.data, b.data)]
    assert all("\n" not in line and line.isprintable() for line in lines)
    summary = next(line for line in lines if line.startswith("~ summary: "))
    assert summary.startswith('~ summary: "Keep a face-down') and "\\n" in summary


def test_diff_writes_values_as_a_rule_file_does() -> None:
    """An added entry is written in YAML's flow style, which reads back as that entry (no
    Python notation: True, None, quotes around every name)."""
    a, b = load_ruleset("golf6-jokers5"), load_ruleset("golf6-pairs10")
    [added] = [c for c in diff(a.data, b.data) if c.kind == "added"]
    line = added.format()
    assert line.startswith("+ options.pair_points: {name: pair_points, label: A column pair ")
    assert "'" not in line and "True" not in line and "False" not in line
    entry = {"name": "x", "on": True, "off": None, "texts": ["2", "yes", "a: b", "l1\nl2"],
             "when": "size(stock) > 0 and mode == 'fast'"}
    assert yaml.safe_load(flow_text(entry)) == entry


def test_variants_stay_small() -> None:
    root = Path(__file__).resolve().parent.parent / "rulesets"
    family = (root / "golf6-family.yaml").read_text(encoding="utf-8").splitlines()
    meaningful = [ln for ln in family if ln.strip() and not ln.strip().startswith("#")]
    assert len(meaningful) <= 55  # with its own summary and trigger docs, naming the house rules


@pytest.mark.parametrize(("parent", "content", "cause"), [
    ("./secret.env", "API_KEY=hunter2\n", "a parent's name ends in .yaml or .yml"),
    ("notes.yaml", "password: hunter2\n", "it has no top-level 'cardrules:' key"),
    ("broken.yaml", "password: hunter2\nkey: [unclosed\n", "no top-level 'cardrules:' key"),
    ("other.yml", "- hunter2\n- {x: 1}\n", "no top-level 'cardrules:' key"),
])
def test_a_parent_that_is_not_a_rule_file_is_refused_without_quoting_it(
        tmp_path: Path, parent: str, content: str, cause: str) -> None:
    write(tmp_path, parent, content)
    path = write(tmp_path, "child.yaml", f"cardrules: 1\nextends: {parent}\nname: child\n")
    (problem,) = check_files([str(path)])
    assert problem.location is not None and problem.location.path == str(path)
    assert (problem.location.line, problem.location.column) == (2, 10)
    assert cause in problem.message and "not a rule file" in problem.message
    assert "hunter2" not in problem.format()


def test_a_parent_is_a_built_in_name_or_a_rule_file_never_another_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, ".env", "SECRET=hunter2\n")
    write(tmp_path, "golf6", "SECRET=hunter2\n")  # a file named like a built-in ruleset
    path = write(tmp_path, "child.yaml", "cardrules: 1\nextends: .env\nname: child\n")
    (problem,) = check_files([str(path)])
    assert "no ruleset '.env'" in problem.message and "hunter2" not in problem.format()
    other = write(tmp_path, "quick.yaml", "cardrules: 1\nextends: golf6\nname: quick\n")
    assert load_ruleset(other).title == "6-card Golf"  # the built-in one


@pytest.mark.parametrize("parent", ["./golf6", "./base"])
def test_a_parent_written_as_a_path_beside_a_file_in_the_working_folder_stays_a_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parent: str) -> None:
    """`./golf6` names a file beside the child (a path holds a `/`), never the built-in
    ruleset golf6, even where the child lies in the working folder and is named without
    one; and a path that is not a rule file's name gets the path's message."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "child.yaml", f"cardrules: 1\nextends: {parent}\nname: child\n")
    (problem,) = check_files(["child.yaml"])
    assert "not a rule file: a parent's name ends in .yaml or .yml" in problem.message
    assert problem.location is not None and (problem.location.line,
                                             problem.location.column) == (2, 10)


def test_a_child_needs_a_name_of_its_own(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", BASE)
    path = write(tmp_path, "child.yaml", "cardrules: 1\nextends: base.yaml\ntitle: Child\n")
    (problem,) = check_files([str(path)])
    assert problem.location is not None and problem.location.path == str(path)
    assert (problem.location.line, problem.location.column) == (2, 10)
    assert "needs a name of its own" in problem.message


def test_an_entry_given_twice_in_a_child_is_refused_where_it_is_given_again(
        tmp_path: Path) -> None:
    path = child(tmp_path, "options:\n  - {name: beta, default: 5}\n"
                           "  - {name: beta, default: 6}\n")
    (problem,) = check_files([str(path)])
    assert problem.location is not None and problem.location.path == str(path)
    assert (problem.location.line, problem.location.column) == (6, 12)
    assert "'beta' is given twice in this list" in problem.message


def test_an_entry_removed_then_added_again_is_moved(tmp_path: Path) -> None:
    path = child(tmp_path, "options:\n  - {name: alpha, remove: true}\n"
                           "  - {name: alpha, insert_after: gamma, default: 9, doc: moved}\n")
    assert option_names(path) == ["beta", "gamma", "alpha"]


def test_a_file_name_too_long_for_the_system_is_a_plain_error(tmp_path: Path) -> None:
    long = "x" * 300 + ".yaml"
    (problem,) = check_files([long])
    assert "no such file" in problem.message and len(problem.message) < 120
    path = write(tmp_path, "child.yaml", f"cardrules: 1\nextends: {long}\nname: child\n")
    (problem,) = check_files([str(path)])
    assert problem.location is not None and problem.location.line == 2


def test_a_chain_of_parents_is_bounded_and_located(tmp_path: Path) -> None:
    """A thousand files extending one another end in one located message (they ended in
    Python's RecursionError), at the `extends:` of the file that passes the bound."""
    write(tmp_path, "f1000.yaml", BASE)
    for number in range(999, 0, -1):
        write(tmp_path, f"f{number}.yaml",
              f"cardrules: 1\nextends: f{number + 1}.yaml\nname: f{number}\n")
    (problem,) = check_files([str(tmp_path / "f1.yaml")])
    assert "more than 16 rulesets extend one another in a chain" in problem.message
    assert problem.location is not None
    assert Path(problem.location.path).name == "f16.yaml"
    assert (problem.location.line, problem.location.column) == (2, 10)
    write(tmp_path, "f16.yaml", BASE.replace("name: base", "name: f16"))
    assert load_ruleset(tmp_path / "f1.yaml").name == "f1"  # 16 files in all are fine


@pytest.mark.parametrize("parent", ["{folder}/base.yaml", "~/base.yaml", "C:\\\\base.yaml"])
def test_a_parent_is_never_named_by_an_absolute_path(tmp_path: Path, parent: str) -> None:
    write(tmp_path, "base.yaml", BASE)
    path = child(tmp_path, "", parent=parent.format(folder=tmp_path))
    (problem,) = check_files([str(path)])
    assert "a parent is named relative to this file" in problem.message
    assert problem.location is not None and (problem.location.line,
                                             problem.location.column) == (2, 10)
    assert load_ruleset(child(tmp_path / ".." / tmp_path.name, "", parent="./base.yaml"))


# What a ruleset may change and still be described by its parent's summary: the words around
# the rules (the names, the texts shown to people), never the rules themselves.
_WORDS_ONLY = ("name", "title", "summary", "doc", "label")


def _children() -> list[tuple[str, str]]:
    """(child, parent) for every shipped ruleset that extends another."""
    root = Path(__file__).resolve().parent.parent / "rulesets"
    found = []
    for path in sorted(root.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "extends" in data:
            found.append((path.stem, str(data["extends"])))
    return found


def test_some_shipped_rulesets_extend_another() -> None:
    children = dict(_children())
    assert {"golf6-quick", "golf6-jokers5", "golf6-pairs10", "golf6-family"} <= children.keys()


@pytest.mark.parametrize(("name", "parent"), _children())
def test_a_child_that_changes_the_rules_has_a_summary_of_its_own(name: str, parent: str) -> None:
    """A summary tells players the rules (`cardrules show`, the `rules` command), and a
    parent's summary tells its own: its points, its number of rounds, its options' defaults.
    So a child whose resolved ruleset differs from its parent's in anything but words (the
    name, title, summary, and the `doc` and `label` texts) must not keep the parent's summary
    unchanged: it states in its own what the child plays. (Whether the new text is true is
    for its reader; that it was not left as the parent's is what a test can hold.)"""
    child_rules, parent_rules = load_ruleset(name), load_ruleset(parent)
    changes = [c.format() for c in diff(parent_rules.data, child_rules.data)
               if not (c.path.rsplit(".", 1)[-1] in _WORDS_ONLY
                       and isinstance(c.old if c.kind == "removed" else c.new, (str, type(None))))]
    if changes and parent_rules.data.get("summary"):
        assert child_rules.data.get("summary") != parent_rules.data["summary"], (
            f"{name} changes its parent's rules ({'; '.join(changes)}) but keeps {parent}'s "
            "summary: give it a summary of its own")


def test_diff_shows_two_long_texts_from_where_they_differ() -> None:
    """Two summaries alike in their first hundred characters: each shown from a little before
    the first difference, so that the line tells them apart."""
    from cardrules.dsl.diff import Change
    start = "Six cards face down in a grid of two rows; " * 4
    line = Change("changed", "summary", start + "jokers score -2.", start + "jokers score -5.")
    old, new = line.format().removeprefix("~ summary: ").split(" -> ")
    assert old != new and old.endswith("jokers score -2.") and new.endswith("jokers score -5.")
    assert old.startswith("...") and len(old) <= 100 and len(new) <= 100
    assert Change("changed", "rounds", 9, 4).format() == "~ rounds: 9 -> 4"
