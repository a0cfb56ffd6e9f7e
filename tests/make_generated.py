"""Write the generated code of every shipped ruleset to tests/generated/, as reviewed
snapshots: tests/test_compiler.py fails when the generator's output changes, so that a change
to the generator shows as a readable diff. Regenerate on purpose, then review the diff:

    python tests/make_generated.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from cardrules.dsl.loader import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = Path(__file__).resolve().parent / "generated"


def main() -> int:
    SNAPSHOTS.mkdir(exist_ok=True)
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        out = SNAPSHOTS / (path.stem + ".py.txt")
        out.write_text(load_ruleset(path).python, encoding="utf-8")
        print(f"{out.relative_to(ROOT)}: {len(out.read_text(encoding='utf-8').splitlines())} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
