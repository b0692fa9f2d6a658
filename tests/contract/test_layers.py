"""The layers of app/: imports point one way, no cycles, Flask's request only in http/.

    app (create_app), app.worker         the composition roots, on top
    app.http.front                       the WSGI fast paths
    app.http                             Flask: routes, schemas, auth, problem handlers
    app.play                             the verbs, framework-free
    app.live | app.webhooks              how a process waits | webhooks (independent)
    app.db                               tables, the hot verbs' SQL, connections, channels
    app.infra                            config, problems, logging, shutdown, gunicorn
    engine                               the rules (imports nothing of app/)

Every import counts, at module level or inside a function: none may point up a layer or
across the independent row, and the modules of app/ form no cycle. There is no list of
exceptions.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"

LAYERS: list[tuple[str, ...]] = [
    ("app", "app.worker"),
    ("app.http.front",),
    ("app.http",),
    ("app.play",),
    ("app.live", "app.webhooks"),
    ("app.db",),
    ("app.infra",),
]
"""Highest first. The packages of a row named in INDEPENDENT may not import each other."""
INDEPENDENT = {("app.live", "app.webhooks")}

FLASK_REQUEST_NAMES = {"request", "g", "Blueprint"}
HTTP_ONLY_MODULES = ("flask_smorest", "marshmallow", "webargs")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in APP.rglob("*.py")}


def imports_of(path: Path, known: dict[str, Path]) -> list[tuple[int, str]]:
    """(line, module of app/) for every import in the file, wherever it stands."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "app"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != "app":
                continue
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.append((node.lineno, full if full in known else node.module))
    return found


def layer_of(name: str) -> tuple[int, str]:
    """(row in LAYERS, the package of that row the module belongs to)."""
    best: tuple[int, str] | None = None
    for row, packages in enumerate(LAYERS):
        for package in packages:
            if package == "app":
                hit = name == "app"
            else:
                hit = name == package or name.startswith(package + ".")
            if hit and (best is None or len(package) > len(best[1])):
                best = (row, package)
    assert best is not None, f"{name} is in no layer"
    return best


def test_app_holds_packages_and_its_two_composition_roots_only() -> None:
    loose = sorted(p.name for p in APP.glob("*.py"))
    assert loose == ["__init__.py", "worker.py"]
    for folder in (p for p in APP.iterdir() if p.is_dir() and p.name != "__pycache__"):
        if any(folder.rglob("*.py")):
            layer_of(module_name(folder / "__init__.py"))  # every package has a layer


def test_no_import_points_up_a_layer_or_across_a_row() -> None:
    known = modules()
    wrong = []
    for name, path in sorted(known.items()):
        row, package = layer_of(name)
        for line, target in imports_of(path, known):
            target_row, target_package = layer_of(target)
            up = target_row < row
            across = (target_row == row and target_package != package
                      and LAYERS[row] in INDEPENDENT)
            if up or across:
                wrong.append(f"{path.relative_to(ROOT)}:{line} {name} -> {target}")
    assert wrong == []


def test_the_modules_of_app_form_no_cycle() -> None:
    known = modules()
    graph = {name: {t for _, t in imports_of(path, known) if t in known and t != name}
             for name, path in known.items()}
    # a package's __init__ importing its own modules is no cycle of ideas: leave it out
    for name in graph:
        graph[name] = {t for t in graph[name] if not t.startswith(name + ".")}
    cycles = [c for c in _strongly_connected(graph) if len(c) > 1]
    assert cycles == []


def test_flask_requests_and_schemas_only_in_http() -> None:
    wrong = []
    for name, path in sorted(modules().items()):
        if name in ("app",) or name.startswith("app.http"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "flask":
                names = {a.name for a in node.names} & FLASK_REQUEST_NAMES
                if names:
                    wrong.append(f"{name}:{node.lineno} flask {sorted(names)}")
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = ([a.name for a in node.names] if isinstance(node, ast.Import)
                        else [node.module or ""])
                wrong += [f"{name}:{node.lineno} {m}" for m in mods
                          if m.split(".")[0] in HTTP_ONLY_MODULES]
    assert wrong == []


def test_the_engine_imports_nothing_of_the_app() -> None:
    wrong = []
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            mods = ([a.name for a in node.names] if isinstance(node, ast.Import)
                    else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            wrong += [f"{path.relative_to(ROOT)}:{node.lineno} {m}" for m in mods
                      if m.split(".")[0] in ("app", "flask", "sqlalchemy", "flask_sqlalchemy")]
    assert wrong == []


def test_the_contract_sees_an_upward_import() -> None:
    """The checker itself: a module of db importing one of play is found."""
    assert layer_of("app.db.models") > layer_of("app.play.moves")
    assert layer_of("app.http.front.view")[0] < layer_of("app.http.auth")[0]
    assert layer_of("app.live.hub")[0] == layer_of("app.webhooks.outbox")[0]
    assert ["a", "b"] in _strongly_connected({"a": {"b"}, "b": {"a"}, "c": {"a"}})


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the strongly connected components of `graph`."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found
