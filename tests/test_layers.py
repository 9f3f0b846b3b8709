"""The package's layers point down (docs/reading-guide.md): the search reads the learned
weights through ``engine.knowledge`` and imports nothing of the training package, and the
training package imports nothing of the match harness.  Read from the sources' imports."""

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "engine"


def imported(folder: str) -> set[str]:
    """Every ``engine.*`` module the sources under ``engine/folder`` import."""
    out = set()
    for path in (ENGINE / folder).rglob("*.py"):
        package = ["engine", *path.relative_to(ENGINE).parent.parts]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                out |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package[:len(package) - node.level + 1] if node.level else []
                name = ".".join(base + ([node.module] if node.module else []))
                out |= {name} | {f"{name}.{a.name}" for a in node.names}
    return {m for m in out if m.startswith("engine")}


@pytest.mark.parametrize("folder, below", [("search", "engine.patterns"),
                                           ("core", "engine.patterns"),
                                           ("knowledge", "engine.patterns"),
                                           ("patterns", "engine.match"),
                                           ("knowledge", "engine.search")])
def test_a_layer_does_not_import_one_above_it(folder, below):
    assert not {m for m in imported(folder) if m == below or m.startswith(below + ".")}
