"""A one-line text form of a position, for tests and bug reports (like chess's FEN).

    standard,30,10,half 30 0r 4/20/m 12/20/s1 29/22/f0 42/18/x

Four space-separated parts:
1. the ruleset: `edition,start_tokens,stake,share`;
2. the bank;
3. the status: `<seat>r` (seat to roll), `<seat>w<roll>` (shipwreck decision with that roll in
   view), `<seat>t<roll>` (tree decision), `<seat>b` (bread decision), `<seat>c` (canoe
   decision), `#<seat>` (over, won by seat) or `#-` (over, no winner);
4. one token per seat: `position/purse` then any flags: `/f<seat>` (his Friday), `/s<n>`
   (skips), `/m` (shipwreck mark), `/x` (dead).
"""

from __future__ import annotations

import re

from robinson.engine.errors import BadPosition, RobinsonError
from robinson.engine.ruleset import Ruleset, check_player_count
from robinson.engine.state import Phase, Player, State

_PHASE_LETTER = {
    Phase.ROLL: "r",
    Phase.SHIPWRECK: "w",
    Phase.TREE: "t",
    Phase.BREAD: "b",
    Phase.CANOE: "c",
}
_LETTER_PHASE = {v: k for k, v in _PHASE_LETTER.items()}
_STATUS = re.compile(r"^(?:(\d)([rbc])|(\d)([wt])([1-6])|#(\d|-))$")


def to_text(state: State) -> str:
    r = state.ruleset
    ruleset = f"{r.edition},{r.start_tokens},{r.stake},{r.share}"
    if state.phase is Phase.OVER:
        status = f"#{'-' if state.winner is None else state.winner}"
    else:
        status = f"{state.to_move}{_PHASE_LETTER[state.phase]}"
        if state.pending_roll is not None:
            status += str(state.pending_roll)
    return " ".join([ruleset, str(state.bank), status, *(_player(p) for p in state.players)])


def _player(p: Player) -> str:
    parts = [str(p.position), str(p.purse)]
    if p.friday is not None:
        parts.append(f"f{p.friday}")
    if p.skips:
        parts.append(f"s{p.skips}")
    if p.shipwrecked:
        parts.append("m")
    if not p.alive:
        parts.append("x")
    return "/".join(parts)


def from_text(text: str) -> State:
    """Parse `to_text`'s form. Raises `BadPosition` naming the part that is wrong."""
    fields = text.split()
    if len(fields) < 5:
        raise BadPosition(
            f"expected 'ruleset bank status player player...', got {len(fields)} part(s)"
        )
    rules, bank_text, status, *seats = fields
    try:
        edition, start, stake, share = rules.split(",")
        ruleset = Ruleset(edition, int(start), int(stake), share)
        check_player_count(len(seats))
    except (ValueError, RobinsonError) as e:
        raise BadPosition(f"bad ruleset part {rules!r}: {e}") from None
    if not bank_text.isdigit():
        raise BadPosition(f"the bank is a whole number of tokens, got {bank_text!r}")
    players = tuple(_parse_player(tok, len(seats)) for tok in seats)
    m = _STATUS.match(status)
    if not m:
        raise BadPosition(f"bad status {status!r}: expected e.g. 0r, 1w3, 2t5, 0b, 1c, #2 or #-")
    to_move: int | None
    pending: int | None = None
    winner: int | None = None
    if m.group(6) is not None:
        phase, to_move = Phase.OVER, None
        winner = None if m.group(6) == "-" else int(m.group(6))
    elif m.group(1) is not None:
        to_move, phase = int(m.group(1)), _LETTER_PHASE[m.group(2)]
    else:
        to_move, phase, pending = int(m.group(3)), _LETTER_PHASE[m.group(4)], int(m.group(5))
    for seat in (to_move, winner):
        if seat is not None and (seat >= len(players) or not players[seat].alive):
            raise BadPosition(f"status {status!r} names seat {seat}, which is not a living seat")
    return State(ruleset, players, int(bank_text), to_move, phase, pending, winner)


def _parse_player(token: str, n: int) -> Player:
    expected = "position/purse then flags /f<seat> /s<n> /m /x"
    parts = token.split("/")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        raise BadPosition(f"bad player {token!r}: expected {expected}")
    position, purse = int(parts[0]), int(parts[1])
    if position > 45:
        raise BadPosition(f"bad player {token!r}: a position is 0 to 45")
    friday: int | None = None
    skips, marked, alive = 0, False, True
    for flag in parts[2:]:
        if flag.startswith("f") and flag[1:].isdigit() and int(flag[1:]) < n:
            friday = int(flag[1:])
        elif flag.startswith("s") and flag[1:].isdigit():
            skips = int(flag[1:])
        elif flag == "m":
            marked = True
        elif flag == "x":
            alive = False
        else:
            raise BadPosition(f"bad flag {flag!r} in player {token!r}: expected {expected}")
    return Player(position, purse, alive, friday, skips, marked)
