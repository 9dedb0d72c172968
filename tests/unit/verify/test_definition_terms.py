"""Definition questions, by class: a field word written before the term, a term with a long alias, a definition
sentence that ends where the next sentence begins, a definition asked as a search ("X 뜻")."""

from __future__ import annotations

from dataclasses import replace

from kdsdesk import lexicon as lx
from kdsdesk.answer.pipeline import answer_question
from kdsdesk.records import Answer
from kdsdesk.verify.need import term_asked
from tests.data.answer_records import DOC, hits, text_chunk


def _ask(question: str, text: str, title: str) -> Answer:
    chunk = text_chunk(text, clause="4.2", clause_path=("4 설계", "4.2 기본설계"), doc=replace(DOC, title=title))
    return answer_question(question, hits(chunk), llm="none")


def test_a_field_word_before_the_term_is_the_documents_field_not_part_of_the_term() -> None:
    text = "(3) 설계수압은 정수두에 수격압을 더한 것이다. 설계수압은 다음 사항에 유의하여 결정한다."
    a = _ask("관수로 설계수압은 어떻게 정의되나?", text, "농업용 관수로 설계")
    assert a.status == "confirmed"
    assert "정수두에 수격압을 더한 것" in a.answer_text
    # a word the document does not name as its field makes another, narrower term
    b = _ask("이차 설계수압은 어떻게 정의되나?", text, "농업용 관수로 설계")
    assert b.status != "confirmed"


def test_a_term_with_a_long_alias_is_a_definition_line() -> None:
    line = "상당온도차(equivalent temperature differential) : 외기온도와 일사의 영향을 고려하여 정한 실내외 유효온도차"
    assert lx.defined_term(line) == "상당온도차(equivalent temperature differential)"


def test_a_definition_asked_as_a_search_names_its_term() -> None:
    assert term_asked("지반계측 단기계측 뜻") == "지반계측 단기계측"
    assert term_asked("시퀀스 제어 알고리즘 정의") == "시퀀스 제어 알고리즘"


def test_run_together_definitions_are_not_another_definition_of_the_term() -> None:
    text = (
        "2-위치 제어 알고리즘 : 측정값과 설정값의 오차 크기에 따라 두 개의 위치를 제어하는 알고리즘을 말한다. "
        "다위치 제어 알고리즘: 2-위치 동작에서는 편차가 조금만 동작 간격을 벗어나도 조작량이 0% 또는 100%로 변화하여 "
        "제어량이 주기적으로 크게 변동하므로, 조작량을 여러 단계로 나누어 제어량의 변동 폭을 줄이는 방식을 말한다."
    )
    a = _ask("2-위치 제어 알고리즘이란?", text, "중앙관제설비 설계기준")
    assert a.status == "confirmed"
    assert "두 개의 위치를 제어" in a.answer_text
