"""The house's layers: every module imports only modules of its own layer or of layers below.

The layers are listed once, in docs/language-design.md (the block marked ```layers), top to
bottom, each with the folders or files it holds; the design record draws them and this test
reads them from there, so the drawing and the code cannot disagree.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "docs" / "language-design.md"
# Where each import package of cardrules lives in the repository.
PACKAGES = {"cardrules": "cardrules", "cardrules.dsl": "dsl",
            "cardrules.interpreter": "interpreter", "cardrules.present": "present",
            "cardrules.cli": "cli", "cardrules.web": "web", "cardrules.adapters": "adapters",
            "cardrules.lsp": "lsp", "cardrules.rulesets": "rulesets"}


def layers() -> list[tuple[str, list[str]]]:
    """(layer, the paths it holds), top to bottom, as the design record lists them."""
    block = re.search(r"```layers\n(.*?)```", DESIGN.read_text(encoding="utf-8"), re.S)
    assert block, "docs/language-design.md has no ```layers block"
    out = []
    for line in block.group(1).splitlines():
        name, *paths = line.split()
        out.append((name, paths))
    return out


def layer_of(path: str, table: list[tuple[str, list[str]]]) -> int:
    """The index (0: the top) of the layer holding `path`: the longest path that matches."""
    best, depth = -1, -1
    for index, (_, paths) in enumerate(table):
        for prefix in paths:
            if (path == prefix or path.startswith(prefix)) and len(prefix) > depth:
                best, depth = index, len(prefix)
    assert best >= 0, f"{path} is in no layer of docs/language-design.md"
    return best


def module_path(module: str) -> str | None:
    """The repository path of a cardrules module ('cardrules.dsl.loader' -> 'dsl/loader.py',
    a package -> its folder), or None for another library."""
    parts = module.split(".")
    for length in range(len(parts), 0, -1):
        package = ".".join(parts[:length])
        if package in PACKAGES:
            rest = parts[length:]
            base = Path(PACKAGES[package], *rest)
            if (ROOT / base).is_dir():
                return base.as_posix() + "/"
            return base.with_suffix(".py").as_posix()
    return None


def imports(path: Path) -> list[str]:
    """The cardrules modules a source file imports (relative imports resolved)."""
    relative = path.relative_to(ROOT)
    package = next(p for p, folder in PACKAGES.items() if relative.parts[0] == folder)
    here = [package, *relative.parts[1:-1]]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = here[:len(here) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            out.append(base)
            out += [f"{base}.{a.name}" for a in node.names]  # `from . import flow`
    return [m for m in out if m.startswith("cardrules")]


def source_files() -> list[Path]:
    return sorted(p for folder in set(PACKAGES.values()) for p in (ROOT / folder).rglob("*.py"))


def test_every_module_imports_only_its_layer_or_those_below() -> None:
    table = layers()
    wrong = []
    for path in source_files():
        mine = layer_of(path.relative_to(ROOT).as_posix(), table)
        for module in imports(path):
            target = module_path(module)
            if target is None or not ((ROOT / target).exists()):
                continue  # a name imported from a module, or not this project's
            theirs = layer_of(target, table)
            if theirs < mine:
                wrong.append(f"{path.relative_to(ROOT)} ({table[mine][0]}) imports {module} "
                             f"({table[theirs][0]})")
    assert not wrong, "\n".join(wrong)


def test_the_layers_name_every_folder_and_the_test_can_fail() -> None:
    table = layers()
    for path in source_files():
        layer_of(path.relative_to(ROOT).as_posix(), table)  # each file is in some layer
    names = [name for name, _ in table]
    assert names.index("core") > names.index("dsl") > names.index("cli")
    # the check itself: an import from the base up to the terminal would be refused
    assert layer_of("cli/main.py", table) < layer_of("cardrules/model.py", table)
