"""The game as a PettingZoo AEC environment: `aec_env(players=4, edition="standard", ...)`.

Agents `player_0` .. `player_{n-1}` are the seats. An agent is selected only where the rules
give it a choice (squares 4, 7, 20, 23 in the editions with optional choices), plus once for the
opening throw of the game (the first player's `roll`), so that a game never ends inside `reset`.
Every other roll is the environment's die, seeded by `reset(seed=...)`; `reset(options={"dice":
[...]})` plays given faces instead (to replay a record). A dead player's agent is terminated at
his death; everybody's is terminated when the game ends. After `max_cycles` agent steps
(default 1000; None: no limit) the agents still playing are truncated, with no reward.

Observation: `{"observation": float32 vector (robinson.rl.match.encode, seen from the agent),
"action_mask": int8 of len(ACTIONS)}`; the mask is all zero for an agent that is not to act.
Reward: +1 to the winner (`reward="win"`), or each player's final purse change (`"tokens"`),
given when the game ends (a dead player's at his death).
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from robinson.engine import RobinsonError, Ruleset
from robinson.rl.match import (
    ACTIONS,
    ROLL,
    Match,
    MatchViews,
    check_reward,
    dice_from,
    encode,
    final_reward,
    legal,
    mask,
    no_die,
    observation_bounds,
    to_action,
)
from robinson.rl.render import render_ansi

RENDER_MODES = ("ansi", "human")  # human: the same board, printed
# The rules set no length limit (players who always stay on the tree may stay for ever): after
# this many agent steps every agent still playing is truncated. A real game of 8 has a few
# dozen decisions; random play rarely passes a hundred.
MAX_CYCLES = 1000


def aec_env(
    players: int = 4,
    edition: str = "standard",
    *,
    reward: str = "win",
    render_mode: str | None = None,
    first: int = 0,
    max_cycles: int | None = MAX_CYCLES,
    **ruleset: Any,
) -> AECEnv:
    """A PettingZoo AEC environment of the game, wrapped in PettingZoo's order check (so using
    it before `reset` is a clear error). `ruleset` takes the options `start_tokens`, `stake` and
    `share`; `env.unwrapped` is the `RobinsonAEC` (its `engine_state` and `record`).
    `max_cycles`: agent steps after which the agents still playing are truncated (None: no
    limit)."""
    env = RobinsonAEC(
        players,
        edition,
        reward=reward,
        render_mode=render_mode,
        first=first,
        max_cycles=max_cycles,
        **ruleset,
    )
    return wrappers.OrderEnforcingWrapper(env)


class RobinsonAEC(MatchViews, AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {
        "name": "robinson_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        edition: str = "standard",
        *,
        reward: str = "win",
        render_mode: str | None = None,
        first: int = 0,
        max_cycles: int | None = MAX_CYCLES,
        **ruleset: Any,
    ) -> None:
        super().__init__()
        self.ruleset = Ruleset(edition, **ruleset)
        self.reward_kind = check_reward(reward)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RobinsonError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise RobinsonError(f"max_cycles must be None or at least 1, got {max_cycles!r}")
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.steps = 0
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._match = Match(players, self.ruleset, first, tuple(self.possible_agents), no_die)
        self.players = players
        self.first = first
        low, high = observation_bounds(players, self.ruleset)
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (len(ACTIONS),), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(len(ACTIONS)) for a in self.possible_agents
        }
        self.np_random = np.random.default_rng()
        self._skip_agent_selection: str | None = None

    # -- the PettingZoo API ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` seeds the die; `options={"dice": [faces]}` plays those faces in
        order instead (other option keys are ignored)."""
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        dice = (options or {}).get("dice")
        die = dice_from(dice) if dice is not None else self._roll
        names = tuple(self.possible_agents)
        self._match = Match(self.players, self.ruleset, self.first, names, die)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.steps = 0
        self.agent_selection = self.possible_agents[self.first]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        name = to_action(action, self._allowed())
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if name == ROLL:
            self._match.throw()
        else:
            self._match.choose(name)
        self._match.play_dice()
        self.steps += 1
        self._settle()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        acting = (
            agent == self.agent_selection
            and not self.terminations.get(agent, True)
            and not self.truncations.get(agent, True)
        )
        return {
            "observation": encode(self._match.state, seat),
            "action_mask": mask(self._allowed() if acting else ()),
        }

    def render(self) -> str | None:
        """The board: returned (`ansi`) or printed (`human`)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() needs render_mode='ansi' or 'human' (aec_env(render_mode=...))"
            )
            return None
        board = render_ansi(self._match.state, self.possible_agents)
        if self.render_mode == "human":
            print(board)
            return None
        return board

    def close(self) -> None:
        pass

    # -- inside ---------------------------------------------------------------------------------

    def _roll(self) -> int:
        return int(self.np_random.integers(1, 7))

    def _allowed(self) -> tuple[str, ...]:
        if self._match.opening:
            return (ROLL,)
        return legal(self._match.state)

    def _settle(self) -> None:
        """After an action: terminate the dead and, at the end, everybody, with their rewards;
        select the agent facing the next decision (terminated agents step first)."""
        state = self._match.state
        for seat, agent in enumerate(self.possible_agents):
            if agent not in self.agents or self.terminations[agent]:
                continue
            if state.over or not state.players[seat].alive:
                self.terminations[agent] = True
                self.rewards[agent] = final_reward(state, seat, self.reward_kind)
            elif self.max_cycles is not None and self.steps >= self.max_cycles:
                self.truncations[agent] = True  # no reward: the game has not ended
        if state.to_move is not None:
            self.agent_selection = self.possible_agents[state.to_move]
        self._deads_step_first()


def raw_env(**kwargs: Any) -> RobinsonAEC:
    return RobinsonAEC(**kwargs)
