"""answer_value's choice between a table-cell read and a sentence read."""

from __future__ import annotations

import pytest

from kdsdesk.answer import extractive
from kdsdesk.answer.qtype import QuestionInfo
from kdsdesk.answer.schema import Draft

INFO = QuestionInfo(qtype="numeric", unit="", comparison="", asks_term=False)


def _choose(monkeypatch: pytest.MonkeyPatch, table: Draft, text: Draft) -> Draft:
    monkeypatch.setattr(extractive.formula, "read", lambda q, r: None)
    monkeypatch.setattr(extractive, "_value_from_tables", lambda q, i, h: (table, 1.0))
    monkeypatch.setattr(extractive, "_value_from_text", lambda q, i, r, h=(): text)
    return extractive.answer_value("질문", INFO, [], [])


def test_sure_table_read_beats_unsure_sentence_of_similar_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    table = Draft("numeric", value="5.0", from_table=True, notes={"fit": 0.5})
    text = Draft("numeric", value="25", ambiguous=True, notes={"fit": 0.6})
    assert _choose(monkeypatch, table, text) is table


def test_sure_table_read_that_fits_the_question_poorly_loses(monkeypatch: pytest.MonkeyPatch) -> None:
    # the table shares a word or two with the question ("최소", "타설"); the sentence names what is asked
    table = Draft("numeric", value="5.0", from_table=True, notes={"fit": 0.25})
    text = Draft("numeric", value="25", ambiguous=True, notes={"fit": 0.625})
    chosen = _choose(monkeypatch, table, text)
    assert chosen is text
    assert chosen.ambiguous  # so it ends restricted, with the evidence shown, not as a value


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
    from kdsdesk.answer.requirements import _term_asked

    assert _term_asked(question) == term


def test_generic_quantity_words_are_not_the_topic() -> None:
    from kdsdesk.verify.values import topic_head

    assert topic_head("벽체 거푸집 긴결재 간격 최대값") == "간격"
