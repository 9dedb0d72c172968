"""Rules from the held-out measurement on real KDS text (bench/heldout_qa.jsonl): a number belongs to the word
marked as its subject or owner, a bound written the other way never answers the asked bound, designations and
cut expressions are not values."""

from __future__ import annotations

import pytest

from kdsdesk.answer.extractive import owner_agreement
from kdsdesk.answer.pipeline import answer_question
from kdsdesk.answer.requirements import subject_named
from tests.data.answer_records import hits, text_chunk


def _agree(question: str, text: str, number: str, unit: str = "") -> int:
    a = text.index(number)
    return owner_agreement(text, a, a + len(number) + len(unit), question)


@pytest.mark.parametrize(
    ("question", "text", "number", "unit", "expected"),
    [
        ("압축 이형철근의 정착길이 ld는 최소 몇 mm 이상?", "② 지름이 6 mm 이상이고 나선 간격이", "6", " mm", -1),
        ("압축 이형철근의 정착길이 ld는 최소 몇 mm 이상?", "다만, 이때 구한 l_d 는 항상 200 mm 이상이어야 한다.",
         "200", " mm", 0),
        ("인장지배변형률 한계는 얼마인가요?", "ε_t 가 0.005의 인장지배변형률 한계 이상인 단면", "0.005", "", 1),
        ("인장지배변형률 한계는 얼마인가요?", "φ값을 압축지배단면에 대한 값에서 0.85까지 증가시킨다.", "0.85", "", -1),
        ("보통중량 철근콘크리트의 단위중량은?", "보통중량콘크리트는 24 kN/m³로 하고", "24", " kN/m³", 0),
        ("용접원형철망의 정착길이는 최소 몇 mm?", "정착길이 l_d 는 150 mm 이상이어야 한다.", "150", " mm", 0),
        ("정모멘트 철근은 받침부 내로 몇 mm?", "이러한 철근을 받침부 내로 150 mm 이상 연장한다.", "150", " mm", 0),
        ("보의 폭은?", "압축을 받는 200 mm", "200", " mm", 0),  # "받는" is a verb, not a subject
    ],
)  # fmt: skip
def test_owner_of_a_number(question: str, text: str, number: str, unit: str, expected: int) -> None:
    assert _agree(question, text, number, unit) == expected


def test_another_quantitys_number_is_not_shown() -> None:
    text = "② 지름이 6 mm 이상이고 나선 간격이 100 mm 이하인 나선철근으로 둘러싸인 압축 이형철근의 보정계수 0.75"
    a = answer_question("압축 이형철근의 정착길이는 최소 몇 mm 이상이어야 하나요?", hits(text_chunk(text)), llm="none")
    assert a.status not in ("confirmed", "warning") or a.value.startswith("200")


def test_bound_written_the_other_way_is_not_the_answer() -> None:
    text = "(1) 장선의 순간격은 750 mm 이하로 하여야 한다."
    a = answer_question("장선의 순간격은 최소 몇 mm 이상이어야 하나요?", hits(text_chunk(text)), llm="none")
    assert a.status in ("restricted", "unverified")


def test_designation_and_cut_expression_are_not_values() -> None:
    text = "l_db = 0.6d_〖b〗 f_y (4.1-1) 보정계수 D19 이하의 철근과 이형철선 D22 이상의 철근"
    a = answer_question("상부철근의 보정계수 α는 얼마인가요?", hits(text_chunk(text)), llm="none")
    assert a.status in ("restricted", "unverified")
    assert "D19" not in a.value
    assert not a.value.endswith("_")


Q_REQ = "구조물 및 구조 부재의 설계강도에 대한 요구사항은?"


def test_requirement_whose_topic_the_question_names_wins() -> None:
    assert subject_named(Q_REQ, "(1) 구조물 및 구조 부재는 모든 단면에서 …")
    assert not subject_named(Q_REQ, "(1) 연결부의 설계강도는 …")
    assert not subject_named(Q_REQ, "(1) 이 값은 구조물 및 구조 부재의 …")  # no topic marker in reach


def test_fraction_question_asks_no_unit() -> None:
    from kdsdesk.answer.qtype import unit_asked

    assert unit_asked("철근의 몇 분의 몇 이상을 연장하나요?") == ""  # a fraction, not minutes
    assert unit_asked("양생은 몇 분 이상인가요?") == "분"


def test_setting_opening_a_clause_is_a_case_not_asked() -> None:
    from kdsdesk.answer.extractive import _case_not_asked

    q = "단순부재에서 정모멘트 철근의 몇 분의 몇 이상을 받침부까지 연장하나요?"
    assert _case_not_asked(" 연속부재에서 정모멘트 철근의 ", q)
    assert not _case_not_asked("(1) 단순부재에서 정모멘트 철근의 ", q)


def test_fraction_of_the_setting_asked() -> None:
    text = "(1) 단순부재에서 정모멘트 철근의 1/3 이상, 연속부재에서 정모멘트 철근의 1/4 이상을 연장하여야 한다."
    q = "단순부재에서 정모멘트 철근의 몇 분의 몇 이상을 받침부까지 연장하나요?"
    a = answer_question(q, hits(text_chunk(text)), llm="none")
    assert a.status not in ("confirmed", "warning") or a.value.startswith("1/3")


def test_definition_written_before_the_term() -> None:
    text = (
        "(3) 압축지배변형률 한계는 0.002로 한다.\n"
        "(4) 최외단 인장철근의 순인장변형률이 0.005 이상인 단면을 인장지배단면이라고 한다."
    )
    a = answer_question("인장지배단면이란?", hits(text_chunk(text)), llm="none")
    assert a.status in ("confirmed", "warning")
    assert a.definition == "최외단 인장철근의 순인장변형률이 0.005 이상인 단면"


def test_a_bound_on_the_sentence_before_is_no_case() -> None:
    from kdsdesk.answer.sentences import bounds_parent

    assert bounds_parent("다만, 이때 구한 l_d 는 항상 200 mm 이상이어야 한다.")
    assert bounds_parent("다만, 이 값은 0.043 d_b f_y 이상이어야 한다.")
    assert not bounds_parent("다만, 경량콘크리트를 사용하는 경우에는 1.3배로 한다.")
    assert not bounds_parent("다만, 이때 에폭시 도막 철근인 경우에는 1.2를 곱한다.")


def test_bound_in_a_dangling_exception_answers_for_its_parent() -> None:
    text = (
        "(1) 압축 이형철근의 정착길이 l_d 는 기본정착길이에 보정계수를 곱하여 구하여야 한다. "
        "다만, 이때 구한 l_d 는 항상 200 mm 이상이어야 한다.\n"
        "(2) 지름이 6 mm 이상이고 나선 간격이 100 mm 이하인 나선철근으로 둘러싸인 압축 이형철근 0.75"
    )
    a = answer_question("압축 이형철근의 정착길이는 최소 몇 mm 이상이어야 하나요?", hits(text_chunk(text)), llm="none")
    assert a.status in ("confirmed", "warning")
    assert a.value.startswith("200")
