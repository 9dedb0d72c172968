"""A formula answer is the equation itself with the lines that explain its symbols, never only its lead-in."""

from __future__ import annotations

from kdsdesk.answer.pipeline import answer_question
from kdsdesk.answer.requirements import symbol_lines
from kdsdesk.answer.sentences import Unit, units
from kdsdesk.records import Hit
from tests.data.answer_records import hits, text_chunk

BLOCK = text_chunk(
    "(1) 전단력을 받는 부재의 각 단면은 식 (4.1-1)을 만족하도록 설계하여야 한다.\n"
    "V_u ≤ φV_n (4.1-1)\n"
    "(2) 공칭전단강도 V_n은 콘크리트에 의한 공칭전단강도와 전단철근에 의한 공칭전단강도의 합으로서 식 (4.1-2)에 "
    "따라 계산한다.\n"
    "V_n=V_c+V_s (4.1-2)\n"
    "여기서, V_u : 고려하는 단면에서의 계수전단력(N)\n"
    "φ : 강도감소계수\n"
    "V_n : 공칭전단강도(N)\n"
    "V_c : 콘크리트에 의한 공칭전단강도(N)\n"
    "V_s : 전단철근에 의한 공칭전단강도(N)\n"
    "(3) 받침부 내면에서 거리 d 이내에 위치한 단면은 거리 d에서 구한 계수전단력 V_u를 사용하여 설계할 수 있다.",
    "shear",
    clause="4.1.1",
    clause_path=("4 설계", "4.1 일반사항", "4.1.1 설계 원칙"),
)
INTRO = text_chunk(
    "(1) 보강토옹벽의 보강재 인발저항력 P_r은 다음 식으로 산정한다.\n"
    "P_r = 2 L_e σ_v F* α (5.2-1)\n"
    "여기서, L_e : 저항영역 내 보강재 길이(m)\n"
    "σ_v : 유효연직응력(kPa)\n"
    "(2) 보강재의 설계인장강도는 장기설계인장강도를 적용한다.",
    "pullout",
    clause="5.2",
    clause_path=("5 설계", "5.2 보강재 인발"),
)


def _unit(chunk_hits: list[Hit], startswith: str) -> Unit:
    return next(u for u in units(chunk_hits, 1) if u.text.startswith(startswith))


def test_symbol_lines_are_those_that_explain_the_equations_own_symbols() -> None:
    eq = _unit(hits(BLOCK), "V_n=V_c")
    lines = [u.text for u in symbol_lines(eq)]
    assert lines == [
        "V_n : 공칭전단강도(N)",
        "V_c : 콘크리트에 의한 공칭전단강도(N)",
        "V_s : 전단철근에 의한 공칭전단강도(N)",
    ]  # V_u and φ belong to the equation before it


def test_an_equation_without_a_symbol_block_has_no_symbol_lines() -> None:
    eq = _unit(hits(BLOCK), "V_u ≤")
    assert symbol_lines(eq) == []  # the next line is a sentence, not "X : 설명"


def test_a_formula_answer_holds_the_equation_and_its_symbol_lines() -> None:
    a = answer_question("공칭전단강도 V_n은 어떤 식으로 계산하나요?", hits(BLOCK), llm="none")
    reqs = a.requirements
    assert any(r.startswith("V_n=V_c+V_s") for r in reqs)
    assert "V_c : 콘크리트에 의한 공칭전단강도(N)" in reqs
    assert not any(r.startswith("V_u :") for r in reqs)
    assert a.status == "confirmed"


def test_a_lead_in_without_an_equation_number_brings_the_equation_after_it() -> None:
    a = answer_question("보강재 인발저항력 P_r은 어떤 식으로 산정하나요?", hits(INTRO), llm="none")
    reqs = a.requirements
    assert any(r.startswith("P_r = 2 L_e") for r in reqs)
    assert "σ_v : 유효연직응력(kPa)" in reqs


def test_a_formula_question_is_not_answered_by_the_lead_in_alone() -> None:
    only_lead = text_chunk(
        "(1) 보강토옹벽의 보강재 인발저항력 P_r은 다음 식으로 산정한다.\n(2) 보강재는 부식에 강한 재료로 한다.",
        "lead",
        clause="5.2",
    )
    a = answer_question("보강재 인발저항력 P_r은 어떤 식으로 산정하나요?", hits(only_lead), llm="none")
    assert a.status != "confirmed"
    assert not any("다음 식으로 산정한다" in r for r in a.requirements)
