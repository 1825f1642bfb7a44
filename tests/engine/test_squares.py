"""One test (or a few) per square of RULES.md section 5, named by the square."""

from __future__ import annotations

import pytest

from robinson.engine import Phase, legal_actions, to_text
from robinson.engine.events import Chorus
from tests.engine.helpers import kinds, play, text_after, transfers

S = "standard,30,10,half"


def test_square_1_every_living_player_pays_the_bank_one_lander_first() -> None:
    state, events = play(f"{S} 30 1r 5/20 0/20 42/20/x 9/20", 1)
    assert transfers(events) == [
        (1, None, 1, 1, "travel"),
        (3, None, 1, 1, "travel"),
        (0, None, 1, 1, "travel"),
    ]
    assert to_text(state) == f"{S} 33 3r 5/19 1/19 42/20/x 9/19"


def test_square_1_payers_in_turn_order_and_empty_purses_pay_nothing() -> None:
    state, events = play(f"{S} 30 1r 5/0 0/20 9/20", 1)
    assert transfers(events) == [
        (1, None, 1, 1, "travel"),
        (2, None, 1, 1, "travel"),
        (0, None, 0, 1, "travel"),
    ]
    assert to_text(state) == f"{S} 32 2r 5/0 1/19 9/19"


@pytest.mark.parametrize(
    ("square", "amount"), [(3, 1), (11, 1), (14, 2), (18, 4), (33, 3), (40, 4)]
)
def test_receive_squares_3_11_14_18_33_40(square: int, amount: int) -> None:
    start = square - 2
    state, events = play(f"{S} 20 0r {start}/20 0/20", 2)
    assert transfers(events) == [(None, 0, amount, amount, "square")]
    assert to_text(state) == f"{S} {20 - amount} 1r {square}/{20 + amount} 0/20"


@pytest.mark.parametrize(("square", "amount"), [(8, 3), (15, 2), (26, 3)])
def test_pay_squares_8_15_26(square: int, amount: int) -> None:
    state, events = play(f"{S} 20 0r {square - 2}/20 0/20", 2)
    assert transfers(events) == [(0, None, amount, amount, "square")]
    assert to_text(state) == f"{S} {20 + amount} 1r {square}/{20 - amount} 0/20"


def test_square_8_a_short_purse_pays_what_it_has_and_the_rest_is_forgiven() -> None:
    state, events = play(f"{S} 20 0r 6/2 0/20", 2)
    assert transfers(events) == [(0, None, 2, 3, "square")]
    assert to_text(state) == f"{S} 22 1r 8/0 0/20"


def test_square_3_the_bank_pays_at_most_what_it_holds() -> None:
    state, events = play(f"{S} 0 0r 1/20 0/20", 2)
    assert transfers(events) == [(None, 0, 0, 1, "square")]
    assert to_text(state) == f"{S} 0 1r 3/20 0/20"


def test_square_4_shipwreck_mark_then_the_next_roll_offers_restart_or_move() -> None:
    state, events = play(f"{S} 20 0r 0/20 0/20", 4)
    assert "shipwrecked" in kinds(events)
    assert to_text(state) == f"{S} 20 1r 4/20/m 0/20"
    state, _ = play(state, 2, 5)
    assert to_text(state) == f"{S} 20 0w5 4/20/m 2/20"
    assert [str(a) for a in legal_actions(state)] == ["choose restart", "choose move"]


def test_square_4_restart_counts_the_roll_from_zero_and_removes_the_mark() -> None:
    assert text_after(f"{S} 20 0w5 4/20/m 1/20", "restart") == f"{S} 20 1r 5/20 1/20"


def test_square_4_move_counts_from_four_and_removes_the_mark() -> None:
    # 4 + 5 = 9: a story square.
    assert text_after(f"{S} 20 0w5 4/20/m 1/20", "move") == f"{S} 20 1r 9/20 1/20"


def test_square_4_restart_with_a_four_lands_on_the_wreck_again() -> None:
    assert text_after(f"{S} 20 0w4 4/20/m 1/20", "restart") == f"{S} 20 1r 4/20/m 1/20"


def test_square_4_restart_resolves_the_square_landed_on() -> None:
    # Restart with a 1 lands on square 1: travel money for everybody.
    assert text_after(f"{S} 20 0w1 4/20/m 1/20", "restart") == f"{S} 22 1r 1/19 1/19"


def test_square_4_compulsory_edition_always_restarts() -> None:
    classic = "classic,30,10,half"
    state, events = play(f"{classic} 20 0r 4/20/m 1/20", 5)
    assert to_text(state) == f"{classic} 20 1r 5/20 1/20"
    assert "chose" not in kinds(events)


def test_square_7_optional_each_roll_may_be_refused() -> None:
    state, _ = play(f"{S} 20 0r 7/20 0/20", 3)
    assert to_text(state) == f"{S} 20 0t3 7/20 0/20"
    state, events = play(state, "stay")
    assert to_text(state) == f"{S} 20 1r 7/20 0/20"
    assert kinds(events) == ["chose", "turn_began"]
    # Next time round he may refuse again, or climb down.
    assert text_after(f"{S} 20 0r 7/20 0/20", 3, "move") == f"{S} 20 1r 10/18 0/22"


def test_square_7_compulsory_the_tree_costs_the_next_turn() -> None:
    classic = "classic,30,10,half"
    state, events = play(f"{classic} 20 0r 2/20 0/20", 5)
    assert to_text(state) == f"{classic} 20 1r 7/20/s1 0/20"
    assert "will_skip" in kinds(events)
    # Seat 1 rolls; seat 0 sits out; seat 1 rolls again.
    state, events = play(state, 2)
    assert to_text(state) == f"{classic} 20 1r 7/20 2/20"
    assert kinds(events)[-2:] == ["skipped", "turn_began"]
    # Then seat 0 rolls on from 7 with no decision.
    assert text_after(f"{classic} 20 0r 7/20 2/20", 4) == f"{classic} 19 1r 11/21 2/20"


def test_square_10_pay_the_right_hand_neighbour_two() -> None:
    state, events = play(f"{S} 30 1r 0/20 8/20 0/20", 2)
    assert transfers(events) == [(1, 0, 2, 2, "neighbour")]
    assert to_text(state) == f"{S} 30 2r 0/22 10/18 0/20"


def test_square_10_neighbour_wraps_round_and_skips_the_dead() -> None:
    state, events = play(f"{S} 30 0r 8/20 0/20 42/20/x", 2)
    assert transfers(events) == [(0, 1, 2, 2, "neighbour")]
    assert to_text(state) == f"{S} 30 1r 10/18 0/22 42/20/x"


def test_square_10_no_neighbour_nothing_happens() -> None:
    assert text_after(f"{S} 30 0r 8/20 42/20/x", 2) == f"{S} 30 0r 10/20 42/20/x"


def test_square_10_no_friday_duty_between_players() -> None:
    _state, events = play(f"{S} 30 0r 8/20/f1 0/20", 2)
    assert transfers(events) == [(0, 1, 2, 2, "neighbour")]


def test_square_12_standard_fever_skips_the_next_turn() -> None:
    state, _ = play(f"{S} 20 0r 9/20 0/20", 3)
    assert to_text(state) == f"{S} 20 1r 12/20/s1 0/20"


@pytest.mark.parametrize("edition", ["ca", "classic"])
def test_square_12_skip_editions(edition: str) -> None:
    rules = f"{edition},30,10,half"
    assert text_after(f"{rules} 20 0r 9/20 0/20", 3) == f"{rules} 20 1r 12/20/s1 0/20"


@pytest.mark.parametrize("edition", ["lv", "cs"])
def test_square_12_latvian_and_czech_fever_gives_an_immediate_extra_roll(edition: str) -> None:
    rules = f"{edition},30,10,half"
    state, events = play(f"{rules} 20 0r 9/20 0/20", 3)
    assert to_text(state) == f"{rules} 20 0r 12/20 0/20"
    assert kinds(events) == ["rolled", "moved", "extra_roll"]
    assert to_text(play(state, 2)[0]) == f"{rules} 18 1r 14/22 0/20"


def test_square_17_the_parrot_chorus() -> None:
    state, events = play(f"{S} 20 0r 15/20 0/20", 2)
    assert [e for e in events if isinstance(e, Chorus)] == [Chorus(0)]
    assert to_text(state) == f"{S} 20 1r 17/20 0/20"


def test_square_20_optional_bread_again_or_stop() -> None:
    state, _ = play(f"{S} 20 0r 18/20 0/20", 2)
    assert to_text(state) == f"{S} 20 0b 20/20 0/20"
    assert text_after(state, "stop") == f"{S} 20 1r 20/20 0/20"
    again, events = play(state, "again")
    assert to_text(again) == f"{S} 20 0r 20/20 0/20"
    assert kinds(events) == ["chose", "extra_roll"]


def test_square_20_beware_of_a_five_it_leads_to_the_footprint_and_back_to_14() -> None:
    state, events = play(f"{S} 20 0b 20/20 0/20", "again", 5)
    assert to_text(state) == f"{S} 18 1r 14/22 0/20"
    moves = [(e.start, e.end, e.cause) for e in events if e.kind == "moved"]  # type: ignore[attr-defined]
    assert moves == [(20, 25, "roll"), (25, 14, "footprint")]


def test_square_20_compulsory_rolls_again_at_once() -> None:
    classic = "classic,30,10,half"
    state, events = play(f"{classic} 20 0r 18/20 0/20", 2)
    assert to_text(state) == f"{classic} 20 0r 20/20 0/20"
    assert kinds(events)[-1] == "extra_roll"


def test_square_23_optional_canoe_jump_or_stay() -> None:
    state, _ = play(f"{S} 20 0r 21/20 0/20", 2)
    assert to_text(state) == f"{S} 20 0c 23/20 0/20"
    assert text_after(state, "jump") == f"{S} 20 1r 27/20 0/20"
    assert text_after(state, "stay") == f"{S} 20 1r 23/20 0/20"


def test_square_23_compulsory_canoe_moves_to_27() -> None:
    classic = "classic,30,10,half"
    assert text_after(f"{classic} 20 0r 21/20 0/20", 2) == f"{classic} 20 1r 27/20 0/20"


def test_square_25_footprint_back_to_14_and_two_glasses_of_wine() -> None:
    state, events = play(f"{S} 20 0r 22/20/f1 0/20", 3)
    assert transfers(events) == [(None, 0, 2, 2, "square"), (None, 1, 1, 1, "duty")]
    assert to_text(state) == f"{S} 17 1r 14/22/f1 0/21"


def test_square_29_neighbour_pays_two_and_becomes_friday() -> None:
    state, events = play(f"{S} 30 1r 0/20 27/20 0/20", 2)
    assert transfers(events) == [(0, 1, 2, 2, "friday")]
    assert to_text(state) == f"{S} 30 2r 0/18 29/22/f0 0/20"
    assert kinds(events) == ["rolled", "moved", "transfer", "became_friday", "turn_began"]


def test_square_29_a_new_friday_replaces_the_old_one() -> None:
    state, events = play(f"{S} 30 1r 0/20 27/20/f2 0/20", 2)
    assert to_text(state) == f"{S} 30 2r 0/18 29/22/f0 0/20"
    bound = [e for e in events if e.kind == "became_friday"]
    assert bound[0].to_json() == {"kind": "became_friday", "master": 1, "friday": 0, "replaced": 2}


def test_square_29_a_poor_neighbour_pays_what_he_has_and_still_serves() -> None:
    assert text_after(f"{S} 30 1r 0/1 27/20 0/20", 2) == f"{S} 30 2r 0/0 29/21/f0 0/20"


def test_square_29_two_players_may_be_each_others_friday() -> None:
    assert text_after(f"{S} 30 1r 0/20/f1 27/20 0/20", 2) == f"{S} 30 2r 0/18/f1 29/22/f0 0/20"


def test_square_29_no_neighbour_nothing_happens() -> None:
    assert text_after(f"{S} 30 0r 27/20 42/20/x", 2) == f"{S} 30 0r 29/20 42/20/x"


def test_square_32_rescue_without_friday_everybody_pays_the_lander_one() -> None:
    state, events = play(f"{S} 30 1r 0/20 30/20 0/20 0/20", 2)
    assert transfers(events) == [
        (2, 1, 1, 1, "rescue"),
        (3, 1, 1, 1, "rescue"),
        (0, 1, 1, 1, "rescue"),
    ]
    assert to_text(state) == f"{S} 30 2r 0/19 32/23 0/19 0/19"


def test_square_32_rescue_with_friday_each_payer_pays_lander_then_friday() -> None:
    # Seat 1's Friday is seat 0. Payers in turn order after the lander: 2, 3 (0 is the Friday).
    state, events = play(f"{S} 30 1r 0/20 30/20/f0 0/20 0/1", 2)
    assert transfers(events) == [
        (2, 1, 1, 1, "rescue"),
        (2, 0, 1, 1, "rescue"),
        (3, 1, 1, 1, "rescue"),
        (3, 0, 0, 1, "rescue"),
    ]
    assert to_text(state) == f"{S} 30 2r 0/21 32/22/f0 0/18 0/0"


def test_square_33_receive_three_with_friday_duty_after_the_master() -> None:
    state, events = play(f"{S} 3 0r 31/20/f1 0/20", 2)
    assert transfers(events) == [(None, 0, 3, 3, "square"), (None, 1, 0, 1, "duty")]
    assert to_text(state) == f"{S} 0 1r 33/23/f1 0/20"


def test_square_36_swap_with_the_player_on_41() -> None:
    state, events = play(f"{S} 30 0r 34/20 41/20 10/20", 2)
    assert to_text(state) == f"{S} 30 1r 41/20 36/20 10/20"
    assert kinds(events) == ["rolled", "moved", "moved", "moved", "swapped", "turn_began"]


def test_square_36_swaps_with_every_player_on_41_and_triggers_nothing() -> None:
    assert text_after(f"{S} 30 0r 34/20 41/20 41/20", 2) == f"{S} 30 1r 41/20 36/20 36/20"


def test_square_36_nobody_on_41_nothing_happens() -> None:
    assert text_after(f"{S} 30 0r 34/20 40/20 10/20", 2) == f"{S} 30 1r 36/20 40/20 10/20"


def test_square_42_landing_is_harmless() -> None:
    assert text_after(f"{S} 30 0r 39/20 0/20", 3) == f"{S} 30 1r 42/20 0/20"


def test_square_42_a_six_kills_and_nothing_else_happens() -> None:
    state, events = play(f"{S} 30 0r 42/20/s0 5/20", 6)
    assert to_text(state) == f"{S} 30 1r 42/20/x 5/20"
    assert kinds(events) == ["rolled", "died", "turn_began"]


@pytest.mark.parametrize("face", [1, 2])
def test_square_42_other_rolls_move_on(face: int) -> None:
    assert text_after(f"{S} 30 0r 42/20 0/20", face) == f"{S} 30 1r {42 + face}/20 0/20"


def test_square_42_a_three_reaches_home() -> None:
    assert play(f"{S} 30 0r 42/20 0/20", 3)[0].winner == 0


def test_square_42_death_ends_every_friday_relation_of_the_dead() -> None:
    state, events = play(f"{S} 30 1r 10/20/f1 42/20/f2 10/20/f1", 6)
    assert to_text(state) == f"{S} 30 2r 10/20 42/20/x 10/20"
    released = [(e.master, e.friday) for e in events if e.kind == "friday_released"]  # type: ignore[attr-defined]
    assert released == [(1, 2), (0, 1), (2, 1)]


def test_square_42_the_last_living_player_dies_no_winner_bank_unclaimed() -> None:
    state, events = play(f"{S} 30 1r 42/20/x 42/20", 6)
    assert state.over and state.winner is None and state.phase is Phase.OVER
    assert to_text(state) == f"{S} 30 #- 42/20/x 42/20/x"
    assert kinds(events)[-1] == "game_over"


def test_square_45_bounce_back_by_the_overshoot() -> None:
    state, events = play(f"{S} 30 0r 43/20 0/20", 5)  # 48 -> 42
    assert to_text(state) == f"{S} 30 1r 42/20 0/20"
    assert [e.to_json() for e in events if e.kind == "bounced"] == [
        {"kind": "bounced", "seat": 0, "overshoot": 3}
    ]


def test_square_45_a_bounce_landing_is_a_normal_landing() -> None:
    # 44 + 6 = 50 -> 40: receive 4.
    assert text_after(f"{S} 30 0r 44/20 0/20", 6) == f"{S} 26 1r 40/24 0/20"


def test_square_45_exact_landing_wins_and_takes_the_bank() -> None:
    state, events = play(f"{S} 40 0r 40/20 30/20 20/20", 5)
    assert state.over and state.winner == 0
    # X = 40: nearest participant (seat 1 on 30) gets half.
    assert transfers(events) == [(None, 0, 40, 40, "bank"), (0, 1, 20, 20, "nearest_share")]
    assert to_text(state) == f"{S} 0 #0 45/40 30/40 20/20"
