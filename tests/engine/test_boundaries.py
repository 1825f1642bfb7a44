"""The engine imports nothing of the rest of the project, and only the standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import robinson.engine

ENGINE = Path(robinson.engine.__file__).parent


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
