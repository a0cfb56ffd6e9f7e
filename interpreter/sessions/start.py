"""What a person's new game starts from: a seed nobody at the table knows, and a save file
named without it.

A seed is the whole deal: whoever knows it can deal the game again and read every hidden
card. So a seed cardrules picks for a person's game is drawn from the system's secure
source among more values than anyone could try, is never shown while the game is on (the
person sees it once the game is over, to play the deal again), and never names a file.
"""

from __future__ import annotations

import secrets
from pathlib import Path

SAVE_SUFFIX = ".cardrules-save"
SEEDS = 2**53  # seeds cardrules picks from (a number a browser holds exactly)


def fresh_seed() -> int:
    """A seed for a game whose person did not choose one."""
    return secrets.randbelow(SEEDS)


def free_path(folder: Path, stem: str) -> Path:
    """A save file in `folder` named after `stem` (a ruleset's name) that no file has yet."""
    path = folder / f"{stem}{SAVE_SUFFIX}"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}{SAVE_SUFFIX}"
        number += 1
    return path
