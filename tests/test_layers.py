"""The layout shows the layers (issue 10 item 6): every module of the library imports only its
own layer and the layers below it, model → io → rules → scoring → settle → app → render → cli,
and nothing but cli/ imports click.

The imports are read from the source (ast), every ``import`` and ``from … import`` wherever it is
written (at the top, inside a function, under ``TYPE_CHECKING``), since a lazy import is still a
dependency. Inside a layer, modules may import each other, but not in a circle.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

PACKAGE = Path(__file__).resolve().parent.parent / "prefcli"
LAYERS = ("model", "io", "rules", "scoring", "settle", "app", "render", "cli")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> Dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


MODULES = _modules()


def imports_of(name: str) -> List[Tuple[str, int]]:
    """Every module `name` imports (resolved: relative imports, `from pkg import module`)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: List[Tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((target, node.lineno))
            out.extend((f"{target}.{a.name}", node.lineno) for a in node.names if f"{target}.{a.name}" in MODULES)
    return out


def layer_of(name: str) -> Optional[str]:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "prefcli" and parts[1] in LAYERS else None


def test_the_layers_are_the_folders():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(LAYERS)


def test_every_import_goes_down_the_layers():
    upward = []
    for name in sorted(MODULES):
        mine = layer_of(name)
        if mine is None:
            continue
        for target, line in imports_of(name):
            theirs = layer_of(target)
            if theirs is not None and LAYERS.index(theirs) > LAYERS.index(mine):
                upward.append(f"{MODULES[name].relative_to(PACKAGE.parent)}:{line}: {mine} imports {target} ({theirs})")
    assert upward == [], "\n".join(upward)


def test_only_the_command_line_imports_click():
    found = []
    for name in sorted(MODULES):
        if layer_of(name) == "cli":
            continue
        for target, line in imports_of(name):
            if target == "click" or target.startswith("click."):
                found.append(f"{MODULES[name].relative_to(PACKAGE.parent)}:{line}")
    assert found == [], found


def _cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components with more than one member (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on: Set[str] = set()
    out: List[List[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_two_layers_import_each_other():
    graph: Dict[str, Set[str]] = {}
    for name in MODULES:
        mine = layer_of(name)
        for target, _ in imports_of(name):
            theirs = layer_of(target)
            if mine and theirs and mine != theirs:
                graph.setdefault(mine, set()).add(theirs)
    assert _cycles(graph) == []


def test_the_presets_import_no_circle():
    """rules/presets: the option tables (common, each family) below the registry that gathers
    them; a module-level circle between a package and its parts makes import order matter."""
    graph: Dict[str, Set[str]] = {}
    for name in MODULES:
        if name.startswith("prefcli.rules.presets"):
            graph[name] = {t for t, _ in imports_of(name) if t.startswith("prefcli.rules.presets") and t != name}
    assert _cycles(graph) == []


def test_the_walk_sees_imports_top_level_lazy_and_relative():
    """The walk itself: a top-level import, one inside a function, and `from pkg import module`."""
    context = {t for t, _ in imports_of("prefcli.rules.context")}
    assert "prefcli.rules.record_facts" in context   # at the top
    assert "prefcli.rules.deal" in context           # inside RecordContext.__init__
    assert "prefcli.rules.presets.russian" in {t for t, _ in imports_of("prefcli.rules.presets")}


def test_no_module_imports_in_a_circle():
    """Not only the layers: no two modules of the package import each other, directly or round a
    longer circle, lazily or under TYPE_CHECKING (an import is a dependency wherever it stands).
    A fact two modules both need lives below them both (the reading and the replay read the
    record's facts, rules/record_facts, not the context that keeps the readings)."""
    graph: Dict[str, Set[str]] = {}
    for name in MODULES:
        graph[name] = {t for t, _ in imports_of(name) if t in MODULES and t != name}
    assert _cycles(graph) == []


#: The most lines a module of the package may have: a longer one mixes concerns that have seams
#: to split along (issue 10 item 6).
MAX_LINES = 600


def test_no_module_is_longer_than_it_should_be():
    long = {str(path.relative_to(PACKAGE.parent)): n for path in sorted(PACKAGE.rglob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"modules over {MAX_LINES} lines (split them along their seams): {long}"
