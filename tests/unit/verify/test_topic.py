"""The topic check: the word a question is about must be written in the cited chunks."""

from __future__ import annotations

import pytest

from kdsdesk.verify.values import topic_found, topic_head


@pytest.mark.parametrize(
    ("topic", "head"),
    [
        ("정착길이", "정착길이"),
        ("인장 이형철근의 정착길이", "정착길이"),
        ("세장비 L/r 한계", "세장비"),
        ("제곱근 값", "제곱근"),
        ("하한값", ""),
        ("", ""),
    ],
)
def test_topic_head(topic: str, head: str) -> None:
    assert topic_head(topic) == head


def test_another_quantity_with_shared_words_is_not_the_topic() -> None:
    ev = ["(2) 겹침이음의 최소 겹침길이는 얇은 쪽 판 두께의 5배 이상, 25 mm 이상으로 하여야 한다."]
    assert not topic_found("정착길이", ev)
    assert topic_found("겹침길이", ev)
    assert topic_found("최소 겹침 길이", ev)  # spacing differs from the document


def test_table_about_another_quantity() -> None:
    ev = ["표 4.1-2 거푸집 및 동바리 부재의 강도감소계수", "알루미늄 합금 | 휨, 압축 및 전단 | 0.80"]
    assert not topic_found("탄성계수", ev)
    assert topic_found("강도감소계수", ev)


def test_no_topic_or_a_sign_written_for_the_word() -> None:
    assert topic_found("", ["아무 문장"])
    assert topic_found("값", ["아무 문장"])
    assert topic_found("제곱근 값", ["√f_ck 는 8.4 MPa를 초과하지 않아야 한다"])
