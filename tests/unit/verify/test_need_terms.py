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
    ],
)
def test_term_asked_by_a_definition_question(question: str, term: str) -> None:
    from kdsdesk.verify.need import term_asked

    assert term_asked(question) == term


def test_generic_quantity_words_are_not_the_topic() -> None:
    from kdsdesk.verify.values import topic_head

    assert topic_head("벽체 거푸집 긴결재 간격 최대값") == "간격"
