"""Write what each stage of the compiler makes of the fixture game tests/stages/constructs.yaml
(its syntax tree, its checked program, its generated code) to tests/stages/, as reviewed
outputs: tests/test_stages.py fails when a stage's output changes, so that the change shows as
a readable diff. Regenerate on purpose, then review the diff:

    python tests/make_stages.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from test_stages import FIXTURE, expected_path, outputs  # noqa: E402


def main() -> int:
    for stage, text in outputs(FIXTURE).items():
        out = expected_path(stage)
        out.write_text(text, encoding="utf-8")
        print(f"{out.relative_to(HERE.parent)}: {len(text.splitlines())} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
