"""How long `cardrules validate` takes to report many problems in one file.

    python benchmarks/diagnostics_speed.py --problems 5000 10000 20000

Each file is tests/data/mini.yaml with one move's `do` list holding N statements that set an
unknown variable: N problems, each located inside its rule text. Reporting them should take
time in proportion to N (each location is found without reading the file again).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from cardrules.dsl.loader import check_files

BASE = Path(__file__).resolve().parent.parent / "tests" / "data" / "mini.yaml"
LINE = "                - set drawn += 1\n"


def broken_file(folder: Path, problems: int) -> Path:
    """mini.yaml with `problems` statements that each name an unknown variable."""
    text = BASE.read_text(encoding="utf-8")
    body = "".join(f"                - set drwan{i % 10} += 1\n" for i in range(problems))
    path = folder / f"problems-{problems}.yaml"
    path.write_text(text.replace(LINE, body), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, nargs="+", default=[5000, 10000, 20000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for count in args.problems:
            path = broken_file(Path(folder), count)
            started = time.perf_counter()
            found = check_files([str(path)])
            seconds = time.perf_counter() - started
            print(f"{count:>7} problems written, {len(found):>7} reported in {seconds:6.2f} s "
                  f"({1000 * seconds / max(len(found), 1):.3f} ms each)")


if __name__ == "__main__":
    main()
