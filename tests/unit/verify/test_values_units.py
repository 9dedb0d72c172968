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
