"""A constant stated by the equation a topic sentence points to: "X는 다음 식 (N)의 값" + "X = v (unit) (N)"."""

from __future__ import annotations

from kdsdesk.answer.constants import constant_read
from kdsdesk.answer.pipeline import answer_question
from kdsdesk.answer.sentences import units
from tests.data.answer_records import hits, text_chunk

TEXT = (
    "(2) 철근의 탄성계수는 다음 식 (4.3-5)의 값을 표준으로 하여야 한다.\n"
    "E_s = 200,000 (MPa) (4.3-5)\n"
    "(3) 긴장재의 탄성계수는 다음 식 (4.3-6)의 값을 표준으로 하여야 한다.\n"
    "E_ps = 200,000 (MPa) (4.3-6)\n"
    "(4) 콘크리트의 탄성계수는 다음 식 (4.3-7)에 따라 계산한다.\n"
    "E_c = 8,500 ∛f_cm (MPa) (4.3-7)"
)


def _read(question: str, first: str) -> tuple[str, str] | None:
    hs = hits(text_chunk(TEXT))
    u = next(v for v in units(hs) if v.text.startswith(first))
    r = constant_read(question, u, hs)
    return (r[0], r[1]) if r else None


def test_constant_of_the_named_topic() -> None:
    assert _read("철근의 탄성계수 Es는 얼마인가요?", "(2)") == ("200,000", "MPa")


def test_topic_not_in_question_reads_nothing() -> None:
    assert _read("철근의 탄성계수 Es는 얼마인가요?", "(3)") is None


def test_a_formula_is_not_a_constant() -> None:
    assert _read("콘크리트의 탄성계수는 얼마인가요?", "(4)") is None


def test_constant_answer_is_verified_with_unit_in_parentheses() -> None:
    a = answer_question("철근의 탄성계수는 몇 MPa인가요?", hits(text_chunk(TEXT)), llm="none")
    assert a.status in ("confirmed", "warning")
    assert a.value == "200,000"
    assert a.unit == "MPa"
