"""Money (RULES.md 6): Friday duties, caps, conservation; winning and the payout (8)."""

from __future__ import annotations

from robinson.engine import to_text
from tests.engine.helpers import play, transfers

S = "standard,30,10,half"


def test_friday_pays_one_when_his_master_pays_the_bank() -> None:
    state, events = play(f"{S} 20 0r 6/20/f1 0/20", 2)  # 8: pay 3
    assert transfers(events) == [(0, None, 3, 3, "square"), (1, None, 1, 1, "duty")]
    assert to_text(state) == f"{S} 24 1r 8/17/f1 0/19"


def test_friday_receives_one_after_his_master_receives() -> None:
    state, events = play(f"{S} 20 0r 16/20/f1 0/20", 2)  # 18: receive 4
    assert transfers(events) == [(None, 0, 4, 4, "square"), (None, 1, 1, 1, "duty")]
    assert to_text(state) == f"{S} 15 1r 18/24/f1 0/21"


def test_the_duty_is_owed_even_when_the_master_pays_less_than_named() -> None:
    state, events = play(f"{S} 20 0r 6/0/f1 0/20", 2)  # 8: master has nothing
    assert transfers(events) == [(0, None, 0, 3, "square"), (1, None, 1, 1, "duty")]
    assert to_text(state) == f"{S} 21 1r 8/0/f1 0/19"


def test_the_duty_is_owed_even_when_the_bank_pays_less_than_named() -> None:
    _state, events = play(f"{S} 1 0r 16/20/f1 0/20", 2)
    assert transfers(events) == [(None, 0, 1, 4, "square"), (None, 1, 0, 1, "duty")]


def test_a_penniless_friday_pays_nothing() -> None:
    _state, events = play(f"{S} 20 0r 6/20/f1 0/0", 2)
    assert transfers(events) == [(0, None, 3, 3, "square"), (1, None, 0, 1, "duty")]


def test_no_duty_chains_between_two_players_who_are_each_others_friday() -> None:
    state, events = play(f"{S} 20 0r 6/20/f1 0/20/f0", 2)
    assert transfers(events) == [(0, None, 3, 3, "square"), (1, None, 1, 1, "duty")]
    assert to_text(state) == f"{S} 24 1r 8/17/f1 0/19/f0"


def test_a_friday_of_several_masters_owes_a_duty_to_each_transfer() -> None:
    # Seats 0 and 2 both have seat 1 as Friday; square 1 makes everybody pay.
    state, events = play(f"{S} 30 0r 0/20/f1 5/20 9/20/f1", 1)
    assert transfers(events) == [
        (0, None, 1, 1, "travel"),
        (1, None, 1, 1, "duty"),
        (1, None, 1, 1, "travel"),
        (2, None, 1, 1, "travel"),
        (1, None, 1, 1, "duty"),
    ]
    assert to_text(state) == f"{S} 35 1r 1/19/f1 5/17 9/19/f1"


def test_payout_with_a_living_friday_the_friday_gets_a_third() -> None:
    state, events = play(f"{S} 40 0r 40/20/f2 30/20 20/20", 5)
    assert transfers(events) == [(None, 0, 40, 40, "bank"), (0, 2, 13, 13, "friday_share")]
    assert to_text(state) == f"{S} 0 #0 45/47/f2 30/20 20/33"


def test_payout_no_friday_duty_on_the_bank() -> None:
    _state, events = play(f"{S} 40 0r 40/20 30/20/f0 20/20", 5)
    # Seat 0 is seat 1's Friday, but the payout carries no duty; the nearest is seat 1.
    assert transfers(events) == [(None, 0, 40, 40, "bank"), (0, 1, 20, 20, "nearest_share")]


def test_payout_nearest_share_ties_split_and_odd_tokens_stay_with_the_winner() -> None:
    state, events = play(f"{S} 41 0r 40/20 30/20 30/20 10/20", 5)
    # X = 41, half = 20, two tied on 30: 10 each; the winner keeps 21.
    assert transfers(events) == [
        (None, 0, 41, 41, "bank"),
        (0, 1, 10, 10, "nearest_share"),
        (0, 2, 10, 10, "nearest_share"),
    ]
    assert to_text(state) == f"{S} 0 #0 45/41 30/30 30/30 10/20"


def test_payout_share_third_option() -> None:
    third = "standard,30,10,third"
    state, events = play(f"{third} 40 1r 30/20 40/20 30/20", 5)
    # X = 40, a third = 13, two tied: 6 each, in turn order after the winner.
    assert transfers(events)[1:] == [(1, 2, 6, 6, "nearest_share"), (1, 0, 6, 6, "nearest_share")]
    assert to_text(state) == f"{third} 0 #1 30/26 45/48 30/26"


def test_payout_the_dead_are_not_the_nearest_participant() -> None:
    _state, events = play(f"{S} 40 0r 40/20 42/20/x 10/20", 5)
    assert transfers(events)[1:] == [(0, 2, 20, 20, "nearest_share")]


def test_payout_nobody_left_the_winner_keeps_everything() -> None:
    state, events = play(f"{S} 40 0r 40/20 42/20/x", 5)
    assert transfers(events) == [(None, 0, 40, 40, "bank")]
    assert to_text(state) == f"{S} 0 #0 45/60 42/20/x"


def test_payout_a_dead_friday_no_longer_counts() -> None:
    # Seat 1 died as seat 0's Friday: the relation ended, so seat 0 shares with the nearest.
    state, _ = play(f"{S} 40 1r 40/20/f1 42/20 10/20", 6)
    assert to_text(state) == f"{S} 40 2r 40/20 42/20/x 10/20"
    state, events = play(state, 2, 5)  # seat 2 to 12 (no money), seat 0 home
    assert transfers(events)[-1] == (0, 2, 20, 20, "nearest_share")


def test_payout_of_an_empty_bank() -> None:
    state, events = play(f"{S} 0 0r 40/20 30/20", 5)
    assert transfers(events) == [(None, 0, 0, 0, "bank"), (0, 1, 0, 0, "nearest_share")]
    assert state.winner == 0
