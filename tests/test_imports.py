"""engine/'s modules import one another without a circle: every `import engine.x` and
`from engine.x import y`, at the top of a module or inside a function, is an edge, and the graph
of those edges has no cycle (dependencies flow one way: native, board, search, protocol; match,
review and train on top)."""
from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).parent.parent / "engine"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = ENGINE) -> dict[str, set[str]]:
    """Each module of the package under `root` and the package's modules it names in an import."""
    modules = {module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # `from engine.x import y` names module engine.x.y where y is one, else engine.x
                targets |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                            for a in node.names}
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_engine_has_no_import_circle():
    assert cycles(import_graph()) == []


def test_the_check_finds_a_circle_inside_a_function(tmp_path):
    pkg = tmp_path / "engine"
    (pkg / "a").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a" / "__init__.py").write_text("")
    (pkg / "a" / "one.py").write_text("from engine.a.two import f\n")
    (pkg / "a" / "two.py").write_text("def f():\n    from engine.a import three\n")
    (pkg / "a" / "three.py").write_text("import engine.a.one\n")
    (pkg / "b.py").write_text("from engine.a.one import f\n")
    assert cycles(import_graph(pkg)) == [["engine.a.one", "engine.a.three", "engine.a.two"]]
