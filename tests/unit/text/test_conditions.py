"""Numeric conditions: a question's case against the case an item is written for."""

from __future__ import annotations

from decimal import Decimal

import pytest

from kdsdesk.text.conditions import agreement, conditions, question_conditions

ITEMS = (
    "① 속도가 2.0 m/s 미만이고 높이가 3.0 m 미만인 경우: 식 (5.1-1)을 적용한다.",
    "② 속도가 2.0 m/s 이상 6.0 m/s 이하인 경우: 식 (5.1-2)를 적용한다.",
    "③ 속도가 6.0 m/s를 초과하는 경우: 식 (5.1-3)을 적용한다.",
)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("속도가 6.0 m/s를 넘으면 어떻게 하나요?", (-1, -1, 1)),
        ("속도가 2.0~6.0 m/s인 경우 어떤 식을 쓰나요?", (-1, 1, -1)),
        ("속도가 1.5 m/s일 때는?", (1, -1, -1)),
        ("속도가 6.0 m/s 이하이면?", (0, 0, -1)),  # overlaps ① and ②, contains neither
        ("높이가 3.0 m 이상인 경우는?", (-1, 0, 0)),  # other quantity (unit m) than ②, ③ state
    ],
)
def test_agreement(question: str, expected: tuple[int, int, int]) -> None:
    q = question_conditions(question)
    assert tuple(agreement(q, t) for t in ITEMS) == expected


def test_bounds_ranges_and_negated_words() -> None:
    (c,) = conditions("길이가 2 m를 초과하지 않는 부재")
    assert (c.unit, c.lo, c.hi, c.hi_inc) == ("m", None, Decimal(2), True)
    (r,) = conditions("2.1 m/h 이상 4.5 m/h 이하인 경우")
    assert (r.lo, r.lo_inc, r.hi, r.hi_inc) == (Decimal("2.1"), True, Decimal("4.5"), True)
    (p,) = conditions("두께 12 mm 미만")
    assert (p.hi, p.hi_inc) == (Decimal(12), False)


def test_the_asked_part_states_no_condition() -> None:
    assert question_conditions("전체 깊이가 몇 mm 이하인 보는 제외되나요?") == []
    assert question_conditions("최대 간격은 얼마 이하로 해야 하나요?") == []
    assert agreement([], ITEMS[0]) == 0


def test_half_lines_from_one_end_point_away_from_each_other() -> None:
    q = question_conditions("수심이 3 m 이상인 곳에서는 몇 m 간격으로 측정하나요?")
    assert agreement(q, "수심이 3 m 이내인 곳") == -1  # they share only the end
    assert agreement(q, "수심이 3 m 이상인 곳") == 1
    assert agreement(q, "수심이 8 m 이하인 곳") == 0  # overlaps over 3–8 m: not another case
