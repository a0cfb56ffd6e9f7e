"""The pages of docs/ and the README show what is real: an excerpt of a rule file is that
file's lines, an error example is what cardrules says of that mistake, a link to a heading
finds it. (docs/grammar.md's agreement with the grammar, the built-ins and the schema, and its
stated values, are tests/test_docs.py's.)"""

from __future__ import annotations

import os
import re
import textwrap
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "grammar.md"
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)


@cache
def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


# ------------------------------------------------------- the golf6 family's files
def _section(heading: str, next_heading: str) -> str:
    text = doc_text()
    start = text.index(heading)
    return text[start:text.index(next_heading, start)]


def _in_order(lines: list[str], within: list[str]) -> list[str]:
    """The lines of `lines` that are not lines of `within` in the same order."""
    rest = iter(within)
    return [line for line in lines if not any(line == other for other in rest)]


def test_the_inheritance_chapter_shows_golf6_quick_whole() -> None:
    chapter = _section("## 13. Inheritance", "### 13.1 ")
    shown = re.search(r"the whole of `rulesets/golf6-quick.yaml`.*?^```yaml\n(.*?)^```$", chapter,
                      re.MULTILINE | re.DOTALL)
    assert shown, "chapter 13 no longer shows rulesets/golf6-quick.yaml whole"
    assert shown.group(1) == (ROOT / "rulesets" / "golf6-quick.yaml").read_text(encoding="utf-8")


def test_the_golf6_family_excerpts_are_lines_of_their_files() -> None:
    """Each excerpt under a variant's name in 13.3 is made of that file's lines, in order
    (lines may be left out, none changed)."""
    section = _section("### 13.3 The golf6 family", "### 13.4 ")
    parts = re.split(r"^- \*\*`", section, flags=re.MULTILINE)[1:]
    seen, wrong = [], []
    for part in parts:
        name = part[:part.index("`")]
        file_lines = (ROOT / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8").splitlines()
        for _, block in re.findall(r"^( *)```yaml\n(.*?)^\1```$", part, re.MULTILINE | re.DOTALL):
            seen.append(name)
            wrong += [f"{name}: {line}" for line in _in_order(
                textwrap.dedent(block).splitlines(), file_lines)]
    assert seen == ["golf6-jokers5", "golf6-pairs10", "golf6-family"], seen
    assert not wrong, "lines of 13.3 that are not their file's, in order:\n" + "\n".join(wrong)


# -------------------------------------------------------------------- links
_HEADING = re.compile(r"^#{1,6} +(.+?)[ #]*$", re.MULTILINE)
_LINK = re.compile(r"\]\(([^)\s#]*)#([^)\s]+)\)")
LINKING_PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of a page: lower case, every character but
    letters, digits, `_`, `-` and spaces dropped, spaces made hyphens; a repeated one gets
    `-1`, `-2`..."""
    found, times = set(), dict[str, int]()
    for heading in _HEADING.findall(_FENCE.sub("", page.read_text(encoding="utf-8"))):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(f"{slug}-{times[slug]}" if slug in times else slug)
        times[slug] = times.get(slug, 0) + 1
    return found


def test_every_link_to_a_heading_finds_it() -> None:
    """Every `](#anchor)` of the README and docs/*.md, and every `](page.md#anchor)` between
    them, names a heading the page has: a heading renamed breaks no link silently."""
    broken = []
    for page in LINKING_PAGES:
        for target, anchor in _LINK.findall(_FENCE.sub("", page.read_text(encoding="utf-8"))):
            linked = (page.parent / target).resolve() if target else page
            if linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{page.name}: ]({target}#{anchor})")
    assert not broken, "links to headings that do not exist:\n" + "\n".join(broken)


def test_anchors_are_githubs() -> None:
    assert {"22-option-name-default-choices-min-max-doc", "11-error-messages",
            "card-patterns-is_set-is_flush-is_run-is_run_high"} <= anchors(DOC)


# ------------------------------------------------------------ error examples
# Every example of a located message in docs/grammar.md and README.md is what cardrules says
# of a real mistake. An HTML comment just before the example's block (unseen when the page is
# rendered) names the mistakes, in the order of the block, each in one of these forms:
#
#   <!-- error examples (tests/test_doc_pages.py makes each mistake and compares):
#   - {ruleset: golf6, line: 89, replace: "discard face up", with: "discrd face up"}
#   -->
#
# - {ruleset: R, line: N, replace: OLD, with: NEW}: the shipped rulesets/R.yaml with OLD (the
#   first time on line N; "" for the line's start) replaced, as `cardrules validate` checks it;
#   with `play: SEED`, a mistake that shows only in a game: random bots play it with that seed;
# - {ruleset: R, options: {NAME: VALUE}}: a value given for an option of rulesets/R.yaml;
# - {file: F, text: T}: a whole rule file F (one that extends a shipped ruleset, say);
# - {deal: F, ruleset: R, players: N, text: T}: a deal file F (`--deal`) for R.
#
# A message about a shipped ruleset's own file names it `<cardrules>/rulesets/R.yaml`.
EXAMPLE_PAGES = (DOC, ROOT / "README.md")
_PACKAGE = Path(str(resources.files("cardrules.rulesets"))).parent  # what <cardrules> stands for
_EXAMPLES = re.compile(r"^<!-- error examples[^\n]*\n(.*?)^-->\n", re.MULTILINE | re.DOTALL)
_LOCATED = re.compile(r"^[ \t]*(?:<cardrules>/)?[\w./-]+\.ya?ml:\d+:\d+: ", re.MULTILINE)


def _block_after(text: str, start: int) -> tuple[int, int]:
    """The span of the code block (fenced, or indented by four spaces) starting after `start`,
    past blank lines."""
    while text.startswith("\n", start):
        start += 1
    if text.startswith("```", start):
        body = text.index("\n", start) + 1
        return body, text.index("\n```", body - 1) + 1
    end = last = start
    while last < len(text) and (text.startswith("    ", last) or text.startswith("\n", last)):
        last = text.index("\n", last) + 1
        if text[last - 2] != "\n":  # (a trailing blank line is not part of it)
            end = last
    return start, end


def error_examples() -> list[tuple[str, list[dict[str, Any]], str]]:
    """(where, the mistakes, the documented messages) for every marked block."""
    found = []
    for page in EXAMPLE_PAGES:
        text = page.read_text(encoding="utf-8")
        for mark in _EXAMPLES.finditer(text):
            start, end = _block_after(text, mark.end())
            shown = textwrap.dedent(text[start:end]).strip("\n").splitlines()
            line = text.count("\n", 0, start) + 1
            found.append((f"{page.name}:{line}", yaml.safe_load(mark.group(1)),
                          "\n".join(s for s in shown if not s.startswith("$ "))))
    return found


def test_every_error_example_is_marked_with_its_mistakes() -> None:
    """Every line of the pages that starts like a located message is in a marked block."""
    unmarked = []
    for page in EXAMPLE_PAGES:
        text = page.read_text(encoding="utf-8")
        blocks = [_block_after(text, mark.end()) for mark in _EXAMPLES.finditer(text)]
        unmarked += [f"{page.name}:{text.count(chr(10), 0, m.start()) + 1}"
                     for m in _LOCATED.finditer(text)
                     if not any(start <= m.start() < end for start, end in blocks)]
    assert not unmarked, f"error examples without the mistakes they show: {unmarked}"
    assert len(error_examples()) >= 9


def _made(example: dict[str, Any], tmp_path: Path) -> list[str]:
    """What cardrules says of one mistake, each message formatted as `validate` prints it
    (made in tmp_path, the current folder)."""
    from cardrules.dsl.deal_file import parse_deal
    from cardrules.errors import RuleRuntimeError, RulesetError

    if "deal" in example:
        try:
            parse_deal(example["text"], example["deal"], load_ruleset(example["ruleset"]),
                       example["players"])
        except RulesetError as problem:
            return [d.format() for d in problem.diagnostics]
        return []
    if "file" in example:
        (tmp_path / example["file"]).write_text(example["text"], encoding="utf-8")
        return [d.format() for d in check_files([example["file"]])]
    path = Path("rulesets") / f"{example['ruleset']}.yaml"
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines(keepends=True)
    if "line" in example:
        at = example["line"] - 1
        assert example["replace"] in lines[at], f"line {at + 1} of {path} has no {example}"
        lines[at] = lines[at].replace(example["replace"], example["with"], 1)
    (tmp_path / "rulesets").mkdir(exist_ok=True)
    (tmp_path / path).write_text("".join(lines), encoding="utf-8")
    try:
        if "options" in example:
            load_ruleset(path, {k: str(v) for k, v in example["options"].items()})
        elif "play" in example:
            _play(load_ruleset(path), example["play"])
        else:
            return [d.format() for d in check_files([str(path)])]
    except RulesetError as problem:
        return [d.format() for d in problem.diagnostics]
    except RuleRuntimeError as fault:
        return [str(fault)]
    return []


def _play(rules: Any, seed: int) -> None:
    engine = Engine(rules)
    state = engine.new_game(None, seed)
    bots = [make_bot("random", seed, p) for p in range(state.n)]
    while not engine.is_over(state):
        seat = engine.to_move(state)
        assert seat is not None
        engine.apply(state, bots[seat].choose(engine, state, engine.legal_actions(state)))


@pytest.mark.parametrize(("where", "mistakes", "shown"), error_examples(),
                         ids=[where for where, _, _ in error_examples()])
def test_every_error_example_is_what_cardrules_says(where: str, mistakes: list[dict[str, Any]],
                                                    shown: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    said = []
    for mistake in mistakes:
        messages = _made(mistake, tmp_path)
        assert messages, f"{where}: cardrules finds nothing wrong with {mistake}"
        said += messages
    real = "\n".join(said).replace(f"{_PACKAGE}{os.sep}", "<cardrules>/")
    assert real == shown, f"{where}: the block should read\n{real}"


# ------------------------------------------------------------ the README's Python
def test_the_readme_python_runs_and_lists_the_actions_it_says() -> None:
    """The README's example from Python runs, and its first legal actions are those its
    comment lists."""
    import ast

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [block] = [found for found in re.findall(r"^```python\n(.*?)^```$", readme,
                                             re.MULTILINE | re.DOTALL)
               if "legal_actions(state)" in found]
    said = re.search(r"actions = .*# (\[.*), \.\.\.\]", block)
    assert said, "the comment on the legal actions lists none"
    names: dict[str, Any] = {}
    exec(compile(block, "README.md", "exec"), names)  # the README's own text, nothing else
    stated = ast.literal_eval(said.group(1) + "]")
    assert names["actions"][:len(stated)] == stated


def test_the_readme_excerpts_are_lines_of_their_files() -> None:
    """A block of YAML that the paragraph before it says is from `rulesets/NAME.yaml` is made
    of that file's lines, in order (all indented alike, if it is shown from further left)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.findall(r"`(rulesets/[a-z0-9-]+\.yaml)`[^\n]*(?:\n[^\n]+)*\n\n```yaml\n(.*?)^```$",
                       readme, re.MULTILINE | re.DOTALL)
    assert len(shown) >= 2, shown
    wrong = []
    for path, block in shown:
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
        first = block.splitlines()[0]
        # (an excerpt from deep inside the file is shown from its own indentation)
        indent = next((line[:-len(first)] for line in lines
                       if line.endswith(first) and not line[:-len(first)].strip()), "")
        wrong += [f"{path}: {line}" for line in _in_order(
            [indent + line if line else line for line in block.splitlines()], lines)]
    assert not wrong, "README lines not their file's, in order:\n" + "\n".join(wrong)
