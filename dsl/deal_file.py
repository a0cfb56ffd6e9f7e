"""Deal files: a given deal (interpreter/deal.py) written by a person, as YAML or JSON.

Read with the rule files' own YAML stage (dsl/source.py: its bounds on size, nesting and
aliases, and the position of every node), so that every problem is reported where it was
written (RulesetError, located, as a rule file's are).
"""

from __future__ import annotations

from pathlib import Path

from cardrules.errors import Diagnostic, RulesetError
from cardrules.interpreter.deal import Deal, DealReader
from cardrules.model import Ruleset

from .source import parse_yaml
from .yaml_bounds import MAX_BYTES


def read_deal(path: Path, rules: Ruleset, players: int) -> Deal:
    """The deal in file `path` for this ruleset and table size, every entry checked."""
    try:
        if path.exists() and not path.is_file():  # (a pipe's opening waits for a writer)
            raise RulesetError([Diagnostic(None, f"{path}: is not a file (a folder, a device, "
                                                 "or a pipe), not a deal file")])
        if path.stat().st_size > MAX_BYTES:
            raise RulesetError([Diagnostic(None, f"{path}: too large for a deal file (at "
                                             f"most {MAX_BYTES // 1000} KB)")])
        with path.open("rb") as file:  # at most that much: a device may never end
            raw = file.read(MAX_BYTES + 1)
        text = raw.decode("utf-8")
    except OSError as exc:
        raise RulesetError([Diagnostic(None, f"{path}: cannot read the deal: "
                                             f"{exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise RulesetError([Diagnostic(None, f"{path}: not a deal file (not UTF-8 "
                                             "text)")]) from None
    return parse_deal(text, str(path), rules, players)


def parse_deal(text: str, name: str, rules: Ruleset, players: int) -> Deal:
    """A deal from the text of a deal file called `name` (for messages)."""
    if len(text) > MAX_BYTES:
        raise RulesetError([Diagnostic(None, f"{name}: too large for a deal file (at most "
                                             f"{MAX_BYTES // 1000} KB)")])
    doc = parse_yaml(text, name)

    def locate(where: tuple[str | int, ...], message: str, key: bool) -> Diagnostic:
        return doc.diagnostic(where, message, key)

    reader = DealReader(doc.data, rules, players, locate, name)
    deal = reader.read()
    if reader.errors:
        raise RulesetError(reader.errors)
    return deal
