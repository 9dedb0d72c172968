"""Coverage of a question's words in a text (``kdsdesk.text.match``), by class of wording."""

from __future__ import annotations

from kdsdesk.text.match import words_covered


def test_exceeding_written_either_way_is_one_word() -> None:
    # "넘을" in a question, "초과할" in the text (and the other way round)
    assert words_covered("돌계단 높이가 2 m를 넘을", "(6) 돌계단의 높이가 2 m를 초과할 경우 계단참을 설치한다.") == 1.0
    assert words_covered("항복강도가 400 MPa을 초과하는", "항복강도가 400 MPa을 넘는 철근") == 1.0


def test_a_one_syllable_noun_before_a_word_is_found_on_its_own() -> None:
    text = "댐 설계기준 (3) 계측기기 설치수량은 운영실적을 참고하여 정한다."
    assert words_covered("댐 계측기기", text) == 1.0
    # a prefix is part of its word: "복 래티스재" is not "래티스재", whatever else starts with 복
    assert words_covered("복 래티스재", "래티스재는 복부재로 쓴다") == 0.0
