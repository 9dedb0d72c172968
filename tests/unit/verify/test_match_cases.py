"""The verifier's slot checks against a reading, by class of input: a negated case, a parenthesis that gives
another value's case, a symbol asked alone, an aside in the question."""

from __future__ import annotations

from dataclasses import replace

from kdsdesk.verify.align import Match, match
from kdsdesk.verify.need import read_need
from kdsdesk.verify.readings import reading_of_value
from tests.data.answer_records import text_chunk


def _match(question: str, text: str, value: str) -> Match:
    chunk = text_chunk(text)
    readings = reading_of_value(chunk, 0, len(text), value)
    assert readings, f"no reading of {value} in {text}"
    return match(read_need(question), readings[0])


def test_a_case_the_question_negates_is_not_the_plain_case_of_the_text() -> None:
    text = "(2) 도장된 강재의 부식 여유두께는 최소 1 mm로 한다."
    assert not _match("도장되지 않은 강재의 부식 여유두께는 최소 몇 mm인가요?", text, "1").checks["own_cases"]
    assert _match("도장된 강재의 부식 여유두께는 최소 몇 mm인가요?", text, "1").checks["own_cases"]


def test_a_parenthesis_with_another_value_is_that_values_case() -> None:
    text = "(1) 창고 건축물은 바닥면적 500 m2(소화설비 설치 시 1,000 m2) 이내마다 구획하여야 한다."
    stated = "소화설비를 설치한 창고 건축물은 바닥면적 몇 m2 이내마다 구획하나요?"
    assert not _match(stated, text, "500").checks["own_cases"]
    assert _match("창고 건축물은 바닥면적 몇 m2 이내마다 구획하나요?", text, "500").checks["own_cases"]
    assert _match(stated, text, "1,000").checks["own_cases"]


def test_a_symbol_asked_alone_must_be_the_numbers_own() -> None:
    mention = "가. 지반의 5 % 감쇠비에 대한 응답은 증폭계수(F_a, F_v)로부터 구한다."
    assert not _match("단주기 증폭계수 Fa는?", mention, "5").checks["subject"]
    own = "(3) 단주기 증폭계수 F_a = 1.2로 한다."
    assert _match("단주기 증폭계수 Fa는?", own, "1.2").checks["subject"]


def test_an_aside_in_parentheses_is_not_part_of_the_subject() -> None:
    need = read_need("교대 상부 표면(받침 거치면 제외)의 경사는 최소 몇 %인가요?")
    assert ")" not in need.subject
    assert "제외" not in need.subject
    assert need.head == "경사"
    assert "제외" in need.terms  # still a word of the question


def test_an_aside_that_narrows_the_question_is_a_condition() -> None:
    need = read_need("소규모 건축 기준(벽으로 지지되는 슬래브)에서 슬래브 단변 경간은 몇 m 이하인가요?")
    assert "벽으로 지지되는 슬래브" in need.conditions
    for aside in ("(표 4.2-1)", "(최소 피복두께, mm)", "(용접부 제외)"):
        assert not any(aside.strip("()") in c for c in read_need(f"피복두께{aside}는 몇 mm인가요?").conditions)


def test_an_exception_sentence_goes_on_about_the_subject_before_it() -> None:
    text = (
        "(3) 보강재의 정착길이는 300 mm 이상으로 한다. 다만, 에폭시 도막 보강재를 사용하는 경우에는 450 mm "
        "이상으로 한다."
    )
    chunk = text_chunk(text)
    r = reading_of_value(chunk, 0, len(text), "450")[0]
    r = replace(r, before=text[: text.index(" 다만")])
    m = match(read_need("에폭시 도막 보강재를 쓰는 경우 정착길이는 몇 mm 이상인가요?"), r)
    assert m.checks["subject"]
