"""The page learns the decisions from the engine's table through /api/meta, and the server accepts
exactly the moves that table names (plus the roll)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robinson.engine import DECISION_TABLE, OPTIONS

if TYPE_CHECKING:
    from tests.web.conftest import Server


def test_meta_lists_the_engines_decisions_table(server: Server) -> None:
    meta = server.get("/api/meta").json()
    assert meta["decisions"] == [d.to_json() for d in DECISION_TABLE]
    tree = next(d for d in meta["decisions"] if d["phase"] == "tree")
    assert tree == {
        "phase": "tree",
        "square": 7,
        "offered": "roll_in_view",
        "options": ["stay", "move"],
        "forward": "move",
    }


def test_the_schema_names_the_moves_of_the_table(server: Server) -> None:
    schema = server.get("/openapi.json").json()
    enums = [s.get("enum") for s in _walk(schema) if isinstance(s, dict) and "enum" in s]
    assert ["roll", *OPTIONS] in enums


def _walk(node: object) -> list[object]:
    out = [node]
    if isinstance(node, dict):
        for v in node.values():
            out += _walk(v)
    elif isinstance(node, list):
        for v in node:
            out += _walk(v)
    return out
