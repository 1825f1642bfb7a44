"""The numbers behind `robinson report --record FILE`: the report of one position, the one after a
game record's last action.

- its chances: `robinson.analysis.odds.position_odds`, the very JSON of `robinson odds` (exact
  for at most four living players, simulated from the position with 95% intervals for five to
  eight), with each option's chance at a pending decision;
- the chances over the game so far, turn by turn, and the turns that swung them most
  (`robinson.analysis.odds.history`);
- the rest of the game, simulated from the position by the fast simulator with everybody eager
  (after the pending decision, taken as the policy takes it): how many more turns the winner
  needs, who dies on 42, the purses at the end; and, exact where the chain holds the position
  (at most four living), every seat's turns still to come (`length.turns_from`). Nothing of it
  when the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from robinson.analysis.length import turns_from
from robinson.analysis.odds import DEFAULT_GAMES, check_policy, position_odds
from robinson.analysis.odds.exact import choice
from robinson.analysis.odds.history import (
    CHART_GAMES,
    Point,
    Swing,
    biggest_swings,
    chances_over_game,
)
from robinson.analysis.policy import EAGER_OPTION
from robinson.analysis.report.data import Progress
from robinson.analysis.sim.batch import Setup
from robinson.analysis.sim.run import simulate
from robinson.engine import Choose, GameRecord, Phase, State, apply

REST_POLICY = "eager"  # how the rest of the game is played out (the fast simulator's policy)


@dataclass(frozen=True)
class PositionData:
    record: GameRecord
    state: State  # after the record's last action
    policy: str
    games: int
    seed: int
    odds: dict[str, Any]  # the JSON of `robinson odds` for the position
    taken: str | None  # at a pending decision: the option the policy takes
    points: list[Point]  # the chances at the start of every turn so far, and at the end
    chart_games: int  # games per point when those are simulated
    swings: list[Swing]
    rest: dict[str, Any] | None  # `Summary.to_json()` of the games played on; None: over
    rest_turns: float | None = None  # every seat's turns to come, exact; None: not in the chain


def taken_option(state: State, odds: dict[str, Any]) -> str | None:
    """The option the chances assume at a pending decision (None when there is none): the
    policy's choice, eager when the chances were simulated (played eager)."""
    if "options" not in odds:
        return None
    return choice(state, odds.get("policy_played", odds["policy"]), odds["options"])


def played_on(state: State, option: str) -> State:
    """The position after `option`, and after eager choices at any decision it leads to: the
    roll the rest of the game starts from (or the end of the game)."""
    state = apply(state, Choose(option))[0]
    while not state.over and state.phase is not Phase.ROLL:
        state = apply(state, Choose(EAGER_OPTION[state.phase]))[0]
    return state


def collect_position(
    record: GameRecord,
    policy: str = "eager",
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    progress: Progress | None = None,
) -> PositionData:
    """Everything the report of the record's last position shows: `games` games where the
    figures are simulated (at most 20,000 per point of the chart)."""
    say = progress or (lambda _: None)
    check_policy(policy)
    if type(games) is not int or games < 2:
        raise ValueError(f"games must be a whole number of at least 2, got {games!r}")
    state = record.replay()
    say("the chances of the position")
    odds = position_odds(state, policy, games, seed)
    taken = taken_option(state, odds)
    say("the chances over the game")
    chart_games = min(games, CHART_GAMES)
    points = chances_over_game(record, policy, chart_games, seed)
    rest = rest_turns = None
    start = state if taken is None else played_on(state, taken)
    if not start.over:
        say("the rest of the game")
        setup = Setup(state.ruleset, len(state.players), seed=seed, position=start)
        rest = simulate(setup, games, REST_POLICY, progress=False).summary.to_json()
        rest_turns = turns_from(start)
    return PositionData(
        record, state, policy, games, seed, odds, taken, points, chart_games,
        biggest_swings(points), rest, rest_turns,
    )  # fmt: skip
