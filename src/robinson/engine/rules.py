"""The rules of RULES.md as pure functions: `new_game`, `legal_actions`, `chance_outcomes`, `apply`.

`apply` never mutates its input: it copies the state into a `_Table` (plain lists, so a turn's
many small changes stay cheap and readable), resolves the action there, and freezes the result.
Either the whole action is applied or, on an error, nothing is.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter

from robinson.engine import board
from robinson.engine.actions import FACES, Action, Choose, Roll
from robinson.engine.board import Board, Effect
from robinson.engine.decisions import DECISION_OF, DECISIONS
from robinson.engine.errors import BadRuleset, IllegalAction
from robinson.engine.events import (
    BecameFriday,
    Bounced,
    Chorus,
    Chose,
    Died,
    Event,
    ExtraRoll,
    FridayReleased,
    GameOver,
    Moved,
    Reason,
    Rolled,
    Shipwrecked,
    Skipped,
    Swapped,
    Transfer,
    TurnBegan,
    WillSkip,
    Won,
)
from robinson.engine.ruleset import Fever, Ruleset, check_player_count
from robinson.engine.state import Phase, Player, State

_DIE_PROBABILITY = 1 / len(FACES)
_ROLLS = tuple(Roll(f) for f in FACES)
_OUTCOMES = tuple((r, _DIE_PROBABILITY) for r in _ROLLS)
_CHOICES = {phase: tuple(Choose(o) for o in options) for phase, options in DECISIONS.items()}
# A seat's fields, read by `_Table` from every player of the state on every action.
_POSITION, _PURSE, _ALIVE = attrgetter("position"), attrgetter("purse"), attrgetter("alive")
_FRIDAY, _SKIPS, _MARKED = attrgetter("friday"), attrgetter("skips"), attrgetter("shipwrecked")


def _decision_square(board_: Board, phase: Phase) -> int:
    """The square the pending decision belongs to, on this board (for events and messages)."""
    return board_.square_of(DECISION_OF[phase].effect)


def new_game(players: int, ruleset: Ruleset | None = None, first: int = 0) -> State:
    """The position before the first roll: stakes paid, every pawn on 0, `first` to move."""
    ruleset = ruleset or Ruleset()
    check_player_count(players)
    if type(first) is not int or not 0 <= first < players:
        raise BadRuleset(
            f"first must be a seat from 0 to {players - 1}, got {first!r}",
            key="record.first",
            fields={"last": players - 1, "got": first},
        )
    purse = ruleset.start_tokens - ruleset.stake
    return State(
        ruleset=ruleset,
        players=tuple(Player(purse=purse) for _ in range(players)),
        bank=players * ruleset.stake,
        to_move=first,
        phase=Phase.ROLL,
    )


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action allowed now: the six faces at a chance node, the options at a decision."""
    if state.phase is Phase.ROLL:
        return _ROLLS
    if state.phase is Phase.OVER:
        return ()
    return _CHOICES[state.phase]


def chance_outcomes(state: State) -> tuple[tuple[Roll, float], ...]:
    """At a chance node, each face with its probability; elsewhere nothing."""
    if state.phase is not Phase.ROLL:
        return ()
    return _OUTCOMES


def expected(state: State) -> str:
    """In words, what `apply` accepts now (used by error messages)."""
    if state.phase is Phase.OVER:
        return "nothing: the game is over"
    if state.phase is Phase.ROLL:
        return f"a roll (1 to 6) for seat {state.to_move}"
    a, b = DECISIONS[state.phase]
    square = _decision_square(state.ruleset.board, state.phase)
    seen = f" with a roll of {state.pending_roll}" if state.pending_roll is not None else ""
    return f"a choice of {a!r} or {b!r} for seat {state.to_move} on square {square}{seen}"


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """The state after `action`, and the events it produced. Raises `IllegalAction` if the action
    is not allowed now; the input state is never changed."""
    if type(action) is Roll:  # the common case, without comparing it to six rolls
        legal = state.phase is Phase.ROLL and action.face in FACES
    else:
        legal = action in legal_actions(state)
    if not legal:
        raise IllegalAction(
            f"{action} is not allowed now: expected {expected(state)}",
            expected=tuple(str(a) for a in legal_actions(state)),
            key="illegal",
            fields={"action": action, "legal": legal_actions(state)},
        )
    table = _Table(state)
    if isinstance(action, Roll):
        table.roll(action.face)
    else:
        table.choose(action.option)
    return table.freeze(), tuple(table.events)


class _Table:
    """A mutable working copy of one state, for resolving a single action."""

    # Slots: the attributes are read and written many times per action (the simulator's
    # equivalence tests replay hundreds of thousands of actions through here).
    __slots__ = (
        "alive", "bank", "board", "events", "friday", "marked", "optional", "original",
        "pending_roll", "phase", "position", "purse", "rules", "ruleset", "seat", "skips",
        "squares", "winner",
    )  # fmt: skip

    def __init__(self, state: State) -> None:
        self.original = state
        self.ruleset = state.ruleset
        self.rules = rules = state.ruleset.rules  # the edition, looked up once
        self.optional = rules.optional
        self.board = rules.board
        self.squares = self.board.squares  # a plain tuple: indexed on every roll
        players = state.players
        self.position = list(map(_POSITION, players))
        self.purse = list(map(_PURSE, players))
        self.alive = list(map(_ALIVE, players))
        self.friday = list(map(_FRIDAY, players))
        self.skips = list(map(_SKIPS, players))
        self.marked = list(map(_MARKED, players))
        self.bank = state.bank
        self.seat = state.to_move if state.to_move is not None else 0
        self.phase = state.phase
        self.pending_roll = state.pending_roll
        self.winner = state.winner
        self.events: list[Event] = []

    def freeze(self) -> State:
        over = self.phase is Phase.OVER
        return State(
            ruleset=self.ruleset,
            players=self._players(),
            bank=self.bank,
            to_move=None if over else self.seat,
            phase=self.phase,
            pending_roll=self.pending_roll,
            winner=self.winner,
        )

    def _players(self) -> tuple[Player, ...]:
        """Every seat after the action; a seat's old value itself when nothing of it changed."""
        position, purse, alive = self.position, self.purse, self.alive
        friday, skips, marked = self.friday, self.skips, self.marked
        after = []
        for i, before in enumerate(self.original.players):
            if (
                position[i] == before.position
                and purse[i] == before.purse
                and alive[i] == before.alive
                and friday[i] == before.friday
                and skips[i] == before.skips
                and marked[i] == before.shipwrecked
            ):
                after.append(before)
            else:
                after.append(
                    Player(position[i], purse[i], alive[i], friday[i], skips[i], marked[i])
                )
        return tuple(after)

    # -- seats ---------------------------------------------------------------------------------

    def _seats_after(self, seat: int) -> Iterator[int]:
        """Living seats in turn order, starting after `seat` and not including it (rule 2)."""
        n = len(self.alive)
        for k in range(1, n):
            s = (seat + k) % n
            if self.alive[s]:
                yield s

    def right_neighbour(self, seat: int) -> int | None:
        """The previous living seat, never the player himself (rule 2.2)."""
        n = len(self.alive)
        for k in range(1, n):
            s = (seat - k) % n
            if self.alive[s]:
                return s
        return None

    # -- actions -------------------------------------------------------------------------------

    def roll(self, face: int) -> None:
        seat = self.seat
        self.events.append(Rolled(seat, face))
        here = self.position[seat]
        effect = self.squares[here].effect
        if effect is Effect.GALLOWS and face == board.DEATH_ROLL:
            self.die(seat)
            return
        if self.marked[seat]:
            if self.optional:
                self.await_decision(Phase.SHIPWRECK, face)
                return
            self.marked[seat] = False
            self.move_by(seat, 0, face, cause="restart")
            return
        if effect is Effect.TREE and self.optional:
            self.await_decision(Phase.TREE, face)
            return
        self.move_by(seat, here, face, cause="roll")

    def choose(self, option: str) -> None:
        seat, phase, face = self.seat, self.phase, self.pending_roll
        square = _decision_square(self.board, phase)
        self.events.append(Chose(seat, option, square))
        self.phase, self.pending_roll = Phase.ROLL, None
        onward = option == DECISION_OF[phase].forward  # move, move, again, jump
        if phase is Phase.SHIPWRECK:
            assert face is not None
            self.marked[seat] = False
            start = self.position[seat] if onward else 0
            self.move_by(seat, start, face, cause="roll" if onward else "restart")
        elif phase is Phase.TREE:
            assert face is not None
            if onward:
                self.move_by(seat, self.position[seat], face, cause="roll")
            else:
                self.end_turn()
        elif phase is Phase.BREAD:
            if onward:
                self.events.append(ExtraRoll(seat, square))
            else:
                self.end_turn()
        else:  # Phase.CANOE
            if onward:
                self.jump(seat, self.squares[square].target or square, "canoe")
            self.end_turn()

    def await_decision(self, phase: Phase, face: int | None = None) -> None:
        self.phase, self.pending_roll = phase, face

    # -- movement and squares ------------------------------------------------------------------

    def move_by(self, seat: int, start: int, face: int, cause: str) -> None:
        """Count `face` from `start` (bouncing off 45), land, and resolve the landing (rule 4)."""
        end, bounced = board.target_of(start, face)
        if bounced:
            self.events.append(Bounced(seat, start + face - board.HOME))
        self.events.append(Moved(seat, self.position[seat], end, cause))
        self.position[seat] = end
        self.land(seat, end)

    def jump(self, seat: int, end: int, cause: str) -> None:
        """A move that triggers nothing by itself (canoe, footprint, swap)."""
        self.events.append(Moved(seat, self.position[seat], end, cause))
        self.position[seat] = end

    def land(self, seat: int, square: int) -> None:
        """Resolve the square landed on, then end the turn unless it continues (section 5)."""
        sq = self.squares[square]
        effect = sq.effect
        if effect is Effect.TRAVEL:
            for payer in (seat, *self._seats_after(seat)):
                self.pay_bank(payer, sq.amount, Reason.TRAVEL)
        elif effect is Effect.RECEIVE:
            self.receive_bank(seat, sq.amount, Reason.SQUARE)
        elif effect is Effect.PAY:
            self.pay_bank(seat, sq.amount, Reason.SQUARE)
        elif effect is Effect.SHIPWRECK:
            self.marked[seat] = True
            self.events.append(Shipwrecked(seat))
        elif effect is Effect.TREE:
            if not self.optional:
                self.add_skip(seat, square)
        elif effect is Effect.NEIGHBOUR:
            neighbour = self.right_neighbour(seat)
            if neighbour is not None:
                self.transfer(seat, neighbour, sq.amount, Reason.NEIGHBOUR)
        elif effect is Effect.FEVER:
            if self.rules.fever is Fever.EXTRA_ROLL:
                self.events.append(ExtraRoll(seat, square))
                return
            self.add_skip(seat, square)
        elif effect is Effect.CHORUS:
            self.events.append(Chorus(seat))
        elif effect is Effect.BREAD:
            if self.optional:
                self.await_decision(Phase.BREAD)
            else:
                self.events.append(ExtraRoll(seat, square))
            return
        elif effect is Effect.CANOE:
            if self.optional:
                self.await_decision(Phase.CANOE)
                return
            self.jump(seat, sq.target or square, "canoe")
        elif effect is Effect.FOOTPRINT:
            target = sq.target or square
            self.jump(seat, target, "footprint")
            self.land(seat, target)
            return
        elif effect is Effect.FRIDAY:
            self.bind_friday(seat, sq.amount)
        elif effect is Effect.RESCUE:
            self.rescue(seat, sq.amount)
        elif effect is Effect.SHIP:
            self.swap(seat, square, sq.target or square)
        elif effect is Effect.HOME:
            self.win(seat)
            return
        self.end_turn()

    def add_skip(self, seat: int, square: int) -> None:
        self.skips[seat] += 1
        self.events.append(WillSkip(seat, square, self.skips[seat]))

    def bind_friday(self, seat: int, amount: int) -> None:
        """Square 29: the right-hand neighbour pays and becomes the lander's Friday."""
        neighbour = self.right_neighbour(seat)
        if neighbour is None:
            return
        self.transfer(neighbour, seat, amount, Reason.FRIDAY)
        previous = self.friday[seat]
        self.friday[seat] = neighbour
        replaced = previous if previous != neighbour else None
        self.events.append(BecameFriday(seat, neighbour, replaced))

    def rescue(self, seat: int, amount: int) -> None:
        """Square 32: every other living player pays the lander, then the lander's Friday."""
        friday = self.friday[seat]
        for payer in self._seats_after(seat):
            if payer == friday:
                continue  # the lander and his Friday pay each other nothing
            self.transfer(payer, seat, amount, Reason.RESCUE)
            if friday is not None:
                self.transfer(payer, friday, amount, Reason.RESCUE)

    def swap(self, seat: int, ship: int, target: int) -> None:
        """Square 36: trade places with every living player on 41; nothing is triggered."""
        others = tuple(s for s in self._seats_after(seat) if self.position[s] == target)
        if not others:
            return
        self.jump(seat, target, "swap")
        for other in others:
            self.jump(other, ship, "swap")
        self.events.append(Swapped(seat, others))

    # -- money ---------------------------------------------------------------------------------

    def transfer(self, payer: int, payee: int, owed: int, reason: Reason) -> None:
        """Player to player, capped by the payer's purse; no Friday duty (rule 6.3)."""
        paid = min(owed, self.purse[payer])
        self.purse[payer] -= paid
        self.purse[payee] += paid
        self.events.append(Transfer(payer, payee, paid, owed, reason))

    def pay_bank(self, seat: int, owed: int, reason: Reason) -> None:
        paid = min(owed, self.purse[seat])
        self.purse[seat] -= paid
        self.bank += paid
        self.events.append(Transfer(seat, None, paid, owed, reason))
        friday = self.friday[seat]
        if friday is not None:  # the duty is owed once per transfer, whatever was paid (6.2)
            duty = min(1, self.purse[friday])
            self.purse[friday] -= duty
            self.bank += duty
            self.events.append(Transfer(friday, None, duty, 1, Reason.DUTY))

    def receive_bank(self, seat: int, owed: int, reason: Reason) -> None:
        got = min(owed, self.bank)
        self.bank -= got
        self.purse[seat] += got
        self.events.append(Transfer(None, seat, got, owed, reason))
        friday = self.friday[seat]
        if friday is not None:
            duty = min(1, self.bank)
            self.bank -= duty
            self.purse[friday] += duty
            self.events.append(Transfer(None, friday, duty, 1, Reason.DUTY))

    # -- ends ----------------------------------------------------------------------------------

    def die(self, seat: int) -> None:
        """Rule 7: out of the game, keeping the purse; skips, mark and Friday ties are dropped."""
        self.alive[seat] = False
        self.skips[seat] = 0
        self.marked[seat] = False
        self.events.append(Died(seat, self.position[seat]))
        friday = self.friday[seat]
        if friday is not None:
            self.friday[seat] = None
            self.events.append(FridayReleased(seat, friday))
        for master, f in enumerate(self.friday):
            if f == seat:
                self.friday[master] = None
                self.events.append(FridayReleased(master, seat))
        if not any(self.alive):
            self.finish(None)
            return
        self.end_turn()

    def win(self, seat: int) -> None:
        """Rule 8: take the bank, then share with the Friday or the nearest participant(s)."""
        x = self.bank
        self.events.append(Won(seat, x))
        self.bank = 0
        self.purse[seat] += x
        self.events.append(Transfer(None, seat, x, x, Reason.BANK))
        friday = self.friday[seat]
        if friday is not None:
            self.transfer(seat, friday, x // 3, Reason.FRIDAY_SHARE)
        else:
            others = list(self._seats_after(seat))
            if others:
                furthest = max(self.position[s] for s in others)
                nearest = [s for s in others if self.position[s] == furthest]
                each = x // self.ruleset.share_divisor // len(nearest)
                for s in nearest:
                    self.transfer(seat, s, each, Reason.NEAREST_SHARE)
        self.finish(seat)

    def finish(self, winner: int | None) -> None:
        self.winner = winner
        self.phase, self.pending_roll = Phase.OVER, None
        self.events.append(GameOver(winner))

    def end_turn(self) -> None:
        """Pass to the next living seat, using up pending skips on the way (rules 2.1, 3.1)."""
        self.phase, self.pending_roll = Phase.ROLL, None
        seat = self.seat
        alive, n = self.alive, len(self.alive)
        while True:
            # the next living seat (`_seats_after`, inlined: once per turn); alone: his again
            for k in range(1, n):
                if alive[(seat + k) % n]:
                    seat = (seat + k) % n
                    break
            if self.skips[seat] == 0:
                break
            self.skips[seat] -= 1
            self.events.append(Skipped(seat, self.skips[seat]))
        self.seat = seat
        self.events.append(TurnBegan(seat))
