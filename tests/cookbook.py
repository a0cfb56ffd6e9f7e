"""The cookbook's games: every whole rule file in chapter 15 of docs/grammar.md, as a rule
author would copy it. tests/test_docs.py plays them; tests/test_information.py holds them to
what a seat may know, as it does the shipped rulesets."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "grammar.md"
_YAML_BLOCK = re.compile(r"^```yaml\n(cardrules: 1\n.*?)^```$", re.MULTILINE | re.DOTALL)


@cache
def cookbook_files() -> tuple[tuple[str, str], ...]:
    """(name, text) of every whole rule file in the cookbook chapter, in its order."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## 15. Cookbook")
    chapter = text[start:text.index("\n## ", start + 1)]
    found = []
    for block in _YAML_BLOCK.findall(chapter):
        name = re.search(r"^name: (\S+)$", block, re.MULTILINE)
        assert name, block[:200]
        found.append((name.group(1), block))
    return tuple(found)


def cookbook_file(name: str, folder: Path) -> Path:
    """The cookbook's game `name` written to `folder` as `name`.yaml."""
    path = folder / f"{name}.yaml"
    path.write_text(dict(cookbook_files())[name], encoding="utf-8")
    return path
