"""Game records (RULES.md section 10): ruleset, players, first seat and actions. Replaying a
record is the only way a state is ever rebuilt."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from robinson.engine.actions import Action, action_from_json
from robinson.engine.errors import IllegalAction, MalformedInput, RobinsonError
from robinson.engine.events import Event
from robinson.engine.rules import apply, new_game
from robinson.engine.ruleset import Ruleset, check_player_count
from robinson.engine.state import State


@dataclass(frozen=True)
class GameRecord:
    ruleset: Ruleset
    players: tuple[str, ...]
    first: int = 0
    actions: tuple[Action, ...] = field(default_factory=tuple)
    # Free-form data other parts attach (server seed, dice proof, dates); replay ignores it.
    meta: dict[str, Any] = field(default_factory=dict)

    def initial_state(self) -> State:
        return new_game(len(self.players), self.ruleset, self.first)

    def steps(self) -> Iterator[tuple[Action, State, tuple[Event, ...]]]:
        """Each action with the state after it and its events. An illegal action raises
        `IllegalAction` naming its index."""
        state = self.initial_state()
        for index, action in enumerate(self.actions):
            try:
                state, events = apply(state, action)
            except IllegalAction as e:
                raise IllegalAction(
                    f"action {index} ({action}): {e}",
                    expected=e.expected,
                    key="record.illegal",
                    fields={"index": index, "action": action, "legal": e.fields.get("legal", ())},
                ) from None
            yield action, state, events

    def replay(self) -> State:
        state = self.initial_state()
        for _, after, _ in self.steps():
            state = after
        return state

    def with_action(self, action: Action) -> GameRecord:
        return GameRecord(
            self.ruleset, self.players, self.first, (*self.actions, action), self.meta
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "ruleset": self.ruleset.to_json(),
            "players": list(self.players),
            "first": self.first,
            "actions": [a.to_json() for a in self.actions],
        }
        if self.meta:
            data["meta"] = self.meta
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        if not isinstance(data, dict):
            raise MalformedInput(
                "a record is a JSON object with ruleset, players and actions", key="record.object"
            )
        allowed = {"ruleset", "players", "first", "actions", "meta"}
        unknown = set(data) - allowed
        if unknown:
            raise MalformedInput(
                f"unknown record field(s) {sorted(unknown)}: expected {sorted(allowed)}",
                key="record.unknown",
                fields={"unknown": ", ".join(sorted(unknown)), "known": ", ".join(sorted(allowed))},
            )
        for key in ("ruleset", "players"):
            if key not in data:
                raise MalformedInput(
                    f"a record needs {key!r}", key="record.needs", fields={"field": key}
                )
        ruleset = Ruleset.from_json(data["ruleset"])
        players = data["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise MalformedInput(
                "'players' must be a list of names (strings)", key="record.players"
            )
        check_player_count(len(players))
        first = data.get("first", 0)
        if type(first) is not int or not 0 <= first < len(players):
            raise MalformedInput(
                f"'first' must be a seat from 0 to {len(players) - 1}, got {first!r}",
                key="record.first",
                fields={"last": len(players) - 1, "got": first},
            )
        raw = data.get("actions", [])
        if not isinstance(raw, list):
            raise MalformedInput("'actions' must be a list", key="record.actions")
        actions = []
        for index, item in enumerate(raw):
            try:
                actions.append(action_from_json(item))
            except RobinsonError as e:
                raise MalformedInput(
                    f"action {index}: {e}",
                    key="record.action",
                    fields={"index": index, "error": e},
                ) from None
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise MalformedInput("'meta' must be an object", key="record.meta")
        return cls(ruleset, tuple(players), first, tuple(actions), meta)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise MalformedInput(
                f"a record is JSON: {e}",
                key="record.json",
                fields={"line": e.lineno, "column": e.colno},
            ) from None
        return cls.from_json(data)


def state_to_json(state: State, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The `robinson replay --json` object (RULES.md section 10); without `names`, the players
    carry no "name" (for a caller that has the names elsewhere)."""
    if names is not None and len(names) != len(state.players):
        raise ValueError(f"{len(names)} names for {len(state.players)} players")
    players = []
    for i, p in enumerate(state.players):
        player: dict[str, Any] = {} if names is None else {"name": names[i]}
        player.update(
            position=p.position,
            purse=p.purse,
            alive=p.alive,
            friday=p.friday,
            skips=p.skips,
            shipwrecked=p.shipwrecked,
        )
        players.append(player)
    return {
        "over": state.over,
        "winner": state.winner,
        "to_move": state.to_move,
        "phase": state.phase.value,
        "pending_roll": state.pending_roll,
        "bank": state.bank,
        "players": players,
    }
