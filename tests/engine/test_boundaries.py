"""The boundaries of the project, read off the source (an `ast` scan, no imports run):

- the engine imports nothing of the rest of the project, and only the standard library;
- each package imports only the packages of lower layers (`LAYERS`), never one beside or above
  it, and the rest of the project reaches the engine only through its package (`__all__`), never
  its submodules;
- there are no import cycles among the project's modules (imports inside functions and under
  `TYPE_CHECKING` count too: a loop hidden in a function is still a loop).
"""

from __future__ import annotations

import ast
import functools
import graphlib
import sys
from pathlib import Path

import robinson
import robinson.engine

ROOT = Path(robinson.__file__).parent
ENGINE = Path(robinson.engine.__file__).parent

# Lowest first. A package may import the packages of lower layers only; `fairdice` is the dice
# scheme shared by the web server and `robinson verify`; the analysis' report speaks the
# languages of `i18n`; `rl` (learning environments) sits above the interfaces whose boards it
# draws.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"engine"}),
    frozenset({"fairdice", "i18n"}),
    frozenset({"analysis"}),
    frozenset({"bots"}),
    frozenset({"tui", "web"}),
    frozenset({"rl"}),
    frozenset({"cli"}),
)
LEVEL = {package: level for level, layer in enumerate(LAYERS) for package in layer}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in ROOT.rglob("*.py")}


def _imports(path: Path) -> list[str]:
    """The project modules `path` imports: `from robinson.x import y` counts as robinson.x.y when
    that is a module, else as robinson.x."""
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path.parent)
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "robinson"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            if module.split(".")[0] != "robinson":
                continue
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                found.append(sub if sub in MODULES else module)
    return found


@functools.cache
def graph() -> dict[str, list[str]]:
    """Each module's project imports: parsed on first use (0.8 s), not at collection in every
    xdist worker."""
    return {name: sorted(set(_imports(path)) - {name}) for name, path in MODULES.items()}


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_engine_imports_only_itself_and_the_standard_library() -> None:
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top == "robinson":
                    assert name.startswith("robinson.engine"), f"{path.name} imports {name}"
                else:
                    assert top in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_every_package_has_a_layer() -> None:
    packages = {_package(m) for m in MODULES} - {""}
    packages = {p for p in packages if (ROOT / p).is_dir() or (ROOT / f"{p}.py").is_file()}
    unplaced = sorted(p for p in packages if p not in LEVEL)
    assert not unplaced, f"put the package(s) {unplaced} in a layer of LAYERS"


def test_packages_import_only_lower_layers() -> None:
    wrong = []
    for module, targets in graph().items():
        source = _package(module)
        for target in targets:
            dest = _package(target)
            if not dest or dest == source or source not in LEVEL:
                continue
            if dest not in LEVEL or LEVEL[dest] >= LEVEL[source]:
                wrong.append(f"{module} -> {target}")
    allowed = {p: sorted(q for q in LEVEL if LEVEL[q] < LEVEL[p]) for p in LEVEL}
    assert not wrong, f"imports against the layers {allowed}: {wrong}"


def test_the_engine_is_reached_through_its_package() -> None:
    inside = []
    for module, path in MODULES.items():
        if _package(module) == "engine":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            inside += [f"{module} -> {n}" for n in names if n.startswith("robinson.engine.")]
    assert not inside, f"import these from robinson.engine (its __all__) instead: {inside}"


def test_the_engine_exports_what_it_is_imported_for() -> None:
    missing = []
    for module, path in MODULES.items():
        if _package(module) == "engine":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "robinson.engine":
                missing += [a.name for a in node.names if a.name not in robinson.engine.__all__]
    assert not missing, f"robinson.engine.__all__ lacks {sorted(set(missing))}"


def test_no_import_cycles_among_the_project_modules() -> None:
    # A package's __init__ importing its own submodules is how a package is put together, and a
    # submodule naming its package (`from robinson.engine import board`) resolves to the
    # submodule above; what remains must be a DAG.
    sorter = graphlib.TopologicalSorter(graph())
    try:
        sorter.prepare()
    except graphlib.CycleError as e:
        raise AssertionError(f"import cycle: {' -> '.join(e.args[1])}") from None


def test_the_scan_sees_the_project() -> None:
    """The checks above are only as good as the scan: it must find known edges."""
    assert "robinson.engine" in graph()["robinson.bots.simple"]
    assert "robinson.analysis.exact.optimal" in graph()["robinson.analysis.policy"]
    assert "robinson.fairdice" in graph()["robinson.cli.verify"]
