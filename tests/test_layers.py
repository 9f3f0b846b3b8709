"""The package's layers point down (docs/reading-guide.md): the rules and kernels know
nothing of search, search nothing of the front ends or the harness, the front ends nothing
of the harness, and no harness package reaches back into a front end.  Read from the
imports of every module, deferred imports inside functions included."""

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine"
FRONT_ENDS = {"gtp", "pbrain"}
HARNESS = {"match", "tsumego", "patterns", "mdp", "reproduce", "bench", "curling"}
# what each folder may not import (a folder absent here is the top: the CLI, warm-up)
FORBIDDEN = {
    "core": {"game", "search", "knowledge", "bandits"} | FRONT_ENDS | HARNESS,
    "game": {"search", "bandits"} | FRONT_ENDS | HARNESS,
    "bandits": {"game", "search"} | FRONT_ENDS | HARNESS,
    "knowledge": {"search"} | FRONT_ENDS | HARNESS,
    "search": FRONT_ENDS | HARNESS,
    "gtp": {"pbrain"} | HARNESS,
    "pbrain": {"gtp"} | HARNESS,
    "match": FRONT_ENDS | {"tsumego", "patterns", "mdp", "reproduce", "bench"},
    "patterns": FRONT_ENDS | {"match", "tsumego", "mdp", "reproduce", "bench"},
    "tsumego": FRONT_ENDS | {"patterns", "mdp", "reproduce", "bench"},
    "mdp": FRONT_ENDS | {"tsumego", "patterns", "reproduce", "bench"},
}


def _folder(module_parts: list[str]) -> str:
    """The top folder (or top-level module) below ``engine`` of a dotted module."""
    return module_parts[0] if module_parts else ""


def imported_folders(path: Path) -> set[str]:
    parts = list(path.relative_to(ENGINE).with_suffix("").parts)
    package = parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - (node.level - 1)]
            target = base + (node.module.split(".") if node.module else [])
            if target:
                found.add(_folder(target))
            else:   # ``from .. import x``: x is a folder or module of engine
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names
                         if a.name.startswith("engine."))
    return found


MODULES = sorted(p for p in ENGINE.rglob("*.py")
                 if len(p.relative_to(ENGINE).parts) > 1
                 and p.relative_to(ENGINE).parts[0] in FORBIDDEN)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_a_module_imports_no_layer_above_its_own(path):
    folder = path.relative_to(ENGINE).parts[0]
    crossing = imported_folders(path) & FORBIDDEN[folder]
    assert not crossing, f"{path.relative_to(ENGINE)} imports {sorted(crossing)}"


def test_the_check_reads_relative_imports():
    module = ENGINE / "search" / "uct.py"
    assert "core" in imported_folders(module)
