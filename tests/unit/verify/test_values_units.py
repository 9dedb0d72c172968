"""A value must hold a number of its own: the power of a unit written inline is not one."""

from __future__ import annotations

import pytest

from kdsdesk.verify.values import value_in_quote

QUOTE = "E : 강재의 탄성계수 (N/mm2) 는 210,000 N/mm2 로 한다. 콘크리트 24 kN/m3, 0.375h 이하, d/2 이하"


@pytest.mark.parametrize("value", ["(N/mm2", "N/mm2", "kN/m3", "mm2"])
def test_unit_fragment_is_not_a_value(value: str) -> None:
    assert not value_in_quote(value, QUOTE)


@pytest.mark.parametrize("value", ["210,000", "24", "0.375h 이하", "d/2 이하"])
def test_values_with_their_own_numbers(value: str) -> None:
    assert value_in_quote(value, QUOTE)


def test_unit_in_parentheses_after_an_equations_number() -> None:
    from kdsdesk.verify.values import unit_ok

    assert unit_ok("200,000", "MPa", "E_s = 200,000 (MPa) (4.3-5)")
    assert not unit_ok("200,000", "mm", "E_s = 200,000 (MPa) (4.3-5)")


def test_a_unit_written_as_one_compatibility_character_is_read() -> None:
    from kdsdesk.answer.pipeline import answer_question
    from tests.data.answer_records import hits, text_chunk

    text = "(3) 관수로의 평균유속은 1.5 ㎧ 이하로 한다."
    a = answer_question("관수로 평균유속은 몇 m/s 이하로 하나요?", hits(text_chunk(text)), llm="none")
    assert a.status == "confirmed"
    assert a.value.startswith("1.5")


def test_a_length_written_as_a_multiple_of_another_length_answers_a_length_asked_without_a_unit() -> None:
    from kdsdesk.answer.pipeline import answer_question
    from tests.data.answer_records import hits, text_chunk

    text = "(3) 주열대 하부철근의 최소 연장길이는 슬래브 두께의 3.5배 이상으로 한다."
    a = answer_question("주열대 하부철근 최소 연장길이", hits(text_chunk(text)), llm="none")
    assert a.status == "confirmed"
    assert a.value.startswith("3.5")
    mm = answer_question("주열대 하부철근 최소 연장길이는 몇 mm?", hits(text_chunk(text)), llm="none")
    assert mm.status not in ("confirmed", "warning")  # millimetres asked: a multiple is not that
    both = "(1) 보강재의 길이는 벽체높이의 0.7배 이상이어야 하며 최소 2.5 m 이상이어야 한다."
    b = answer_question("보강재 길이의 최솟값", hits(text_chunk(both)), llm="none")
    assert not b.value.startswith("0.7")  # the sentence writes the length itself
