"""Coefficients read from formulas by the question's own symbols."""

from __future__ import annotations

import pytest

from kdsdesk.answer.pipeline import answer_question
from kdsdesk.text.formula import agrees, asked
from tests.data.answer_records import hits, text_chunk

EQS = text_chunk(
    "(1) 부재의 공칭강도 V_c는 식 (5.2-1)에 따라 계산한다.\n"
    "V_c = 1/5 λ√(f_ck)b_w d (5.2-1)\n"
    "(2) 상세한 계산이 필요한 경우에는 식 (5.2-2)에 따라 계산할 수 있다.\n"
    "V_c = (0.2λ√(f_ck) + 15ρ_w)b_w d ≤ 0.33λ√(f_ck)b_w d (5.2-2)\n"
    "(3) 보의 측압은 식 (5.2-3)에 따라 산정한다.\n"
    "p = C_w(8.1 + 950/(T + 20) + (300R)/(T + 20)) (5.2-3)\n"
    "(4) 판의 단면적 A_v는 0.003b_w s 이상, 수평 단면적 A_h는 0.002b_w s_h 이상으로 하여야 한다.",
    "eqs",
)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("상세식에서 V_c의 상한은 λ√fck·bw·d에 얼마를 곱한 값인가요?", "0.33"),
        ("보의 측압 식에서 1/(T+20) 항의 상수는 얼마인가요?", "950"),
        ("판의 단면적 하한은 bw·s에 얼마를 곱한 값인가요?", "0.003"),
    ],
)
def test_the_named_relation_is_read(question: str, value: str) -> None:
    a = answer_question(question, hits(EQS), llm="none")
    assert a.status == "confirmed", (a.value, dict(a.verdict.checks))
    assert a.value == value


def test_relations_and_bounds() -> None:
    up = "V_c의 상한은 λ√fck·bw·d에 얼마를 곱한 값인가요?"
    assert asked(up) is not None
    assert agrees(up, "0.33", "V_c = (0.2λ√(f_ck) + 15ρ_w)b_w d ≤ 0.33λ√(f_ck)b_w d")
    assert not agrees(up, "1/5", "V_c = 1/5 λ√(f_ck)b_w d (5.2-1)")  # not the upper bound
    assert agrees("V_c는 λ√fck·bw·d에 얼마를 곱한 값인가요?", "1/5", "V_c = 1/5 λ√(f_ck)b_w d (5.2-1)")
    assert agrees("λ√fck를 나누는 값은?", "12", "T = (λ√(f_ck))/12(A^2/p)")
    assert not agrees("bw·s에 곱하는 값은?", "0.002", "0.002b_w s_h 이상")  # s_h is not s
    assert agrees("d·t·Fu의 몇 배인가요?", "2.4", "R_n = 1.2L_c tF_u ≤ 2.4dtF_u")
    assert asked("콘크리트의 단위중량은 얼마인가요?") is None
