"""What a question asks, as the answerer reads it: the term of a definition question, the head of a topic."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("깊은 보의 정의는?", "깊은 보"),  # the topic is the term, not the word 정의
        ("깊은 보란?", "깊은 보"),
        ("역타설이란 어떤 방법인가?", "역타설"),
        ("전단마찰의 뜻", "전단마찰"),
        ("조경 휴게시설 용어 — 퍼걸러의 정의?", "퍼걸러"),  # the setting written before a dash
    ],
)
def test_term_asked_by_a_definition_question(question: str, term: str) -> None:
    from kdsdesk.verify.need import term_asked

    assert term_asked(question) == term


def test_generic_quantity_words_are_not_the_topic() -> None:
    from kdsdesk.verify.values import topic_head

    assert topic_head("벽체 거푸집 긴결재 간격 최대값") == "간격"


@pytest.mark.parametrize(
    ("question", "kind", "subject"),
    [
        ("토목섬유 보강재 강도에 쓰는 최소 평균 롤값(MARV)이 뭐야?", "definition", "최소 평균 롤값"),
        ("GFRP 보강근에서 말하는 크리프 파괴가 뭐야?", "definition", "크리프 파괴"),
        ("기초 최소 근입깊이가 뭐야?", "value", "기초 최소 근입깊이"),  # a quantity named: its value is asked
        ("전기철도 전기방식 원칙이 뭐야?", "requirement", "전기철도 전기방식 원칙"),  # the rule is asked
        ("터널에서 허용편차는 뭘 말하는 거?", "definition", "허용편차"),
        ("터널에서 압착성 지반(Squeezing ground)은 어떤 지반?", "definition", "압착성 지반"),  # a kind of itself
        ("기초 지반은 어떤 지반으로 해야 하나요?", "requirement", "기초 지반"),  # what it must be
    ],
)
def test_a_term_asked_in_everyday_words(question: str, kind: str, subject: str) -> None:
    from kdsdesk.verify.need import read_need

    need = read_need(question)
    assert need.kind == kind
    assert need.subject == subject


@pytest.mark.parametrize(
    ("question", "case"),
    [
        ("다발철근인데 수중에서 콘크리트 치면 피복 몇 mm 이상?", "수중에서 콘크리트"),
        ("보강재로 강봉을 쓰면 최소 지름은?", "강봉"),
        ("건축재료 중 목재를 쓰면 건축수명은 몇 년 이상?", "목재"),  # the member of the group, not the group
    ],
)
def test_a_case_stated_with_an_everyday_verb_and_myeon(question: str, case: str) -> None:
    from kdsdesk.verify.need import question_cases

    assert any(case in c for c in question_cases(question))
    assert not any("건축재료" in c for c in question_cases(question))
    assert question_cases("경사면 기울기는?") == ()  # a noun ending in 면 states no case
