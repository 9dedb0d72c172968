"""Unit scoring: conditions, exceptions, symbol explanations and equation references count."""

from __future__ import annotations

from kdsdesk.answer.sentences import content_words, equation_label, refers_to, score_units, units
from kdsdesk.records import Chunk
from tests.data.answer_records import hits, text_chunk

ITEMS = text_chunk(
    "(1) 벽체 거푸집의 측압은 타설 속도에 따라 다음과 같이 산정한다.\n"
    "① 타설 속도가 2.1 m/h 이상 4.5 m/h 이하인 경우: 식 (4.2-4)를 적용한다.\n"
    "② 타설 속도가 4.5 m/h를 초과하는 경우: 식 (4.2-2)의 액압을 적용한다.",
    "items",
)
RULE = text_chunk(
    "(2) 하나의 접합부에 볼트와 용접을 병용하는 경우에는 용접이 하중 전부를 부담하는 것으로 설계하여야 한다. "
    "다만, 고력볼트를 용접 이전에 조임 완료한 경우에는 볼트와 용접이 하중을 분담하는 것으로 할 수 있다.",
    "rule",
)
SYMBOLS = text_chunk(
    "(1) 전단강도 계산에 사용하는 √f_ck의 값은 8.4 MPa를 초과하지 않도록 하여야 한다.\n"
    "(2) 부재의 공칭강도는 식 (4.1-1)에 따라 계산한다.\n"
    "V_n = 2.5 f_ck b_w d (4.1-1)\n"
    "여기서, f_ck : 콘크리트의 설계기준압축강도(MPa)",
    "symbols",
)


def _order(question: str, chunk: Chunk) -> list[str]:
    return [u.text for u in score_units(question, units(hits(chunk)))]


def _best(question: str, chunk: Chunk) -> str:
    return _order(question, chunk)[0]


def _rank(order: list[str], start: str) -> int:
    return next(i for i, t in enumerate(order) if t.startswith(start))


def test_condition_of_the_question_picks_the_item() -> None:
    order = _order("벽체 타설 속도가 4.5 m/h를 넘으면 측압은 어떻게 산정하나요?", ITEMS)
    assert _rank(order, "②") < _rank(order, "①")
    order = _order("타설 속도가 3.0 m/h일 때 벽체 측압은 어떻게 산정하나요?", ITEMS)
    assert _rank(order, "①") < _rank(order, "②")


def test_an_exception_needs_its_condition_in_the_question() -> None:
    assert _best("볼트와 용접을 함께 쓰는 접합부의 하중 분담은 어떻게 설계하나요?", RULE).startswith("(2)")
    best = _best("고력볼트를 용접 이전에 조임 완료한 경우 하중은 어떻게 분담하나요?", RULE)
    assert best.startswith("다만")


def test_symbol_explanation_is_context() -> None:
    order = _order("콘크리트 설계기준압축강도의 제곱근은 최대 몇 MPa까지 쓰나요?", SYMBOLS)
    assert _rank(order, "(1)") < min(_rank(order, "(2)"), _rank(order, "V_n"))


def test_equation_labels_and_references() -> None:
    assert equation_label("V_n = 2.5 f_ck b_w d (4.1-1)") == "4.1-1"
    assert equation_label("V_n = 2.5 f_ck b_w d") == ""
    assert refers_to("부재의 공칭강도는 식 (4.1-1)에 따라 계산한다.", "4.1-1")
    assert not refers_to("부재의 공칭강도는 식 (4.1-2)에 따라 계산한다.", "4.1-1")


def test_topic_term_is_the_noun_phrase() -> None:
    from kdsdesk.answer.sentences import topic_term

    assert topic_term("비세장판 단면이란 무엇인가요?") == "비세장판 단면"
    assert topic_term("거푸집 설계에서 말하는 작업하중은 어떤 하중인가요?") == "작업하중"


def test_content_words_cut_particles() -> None:
    assert content_words("겹침이음의 최소 겹침길이는 어떻게 정해야 하나요?")[:3] == ["겹침이음", "최소", "겹침길이"]


def test_negated_condition_clauses_agree() -> None:
    from kdsdesk.answer.sentences import negation_agreement

    q = "볼트 구멍의 변형을 설계에 고려하지 않는 경우 계수는?"
    assert negation_agreement(q, "변형이 설계에 고려되지 않는 경우에는 계수를 1.5로 한다.") == 1
    assert negation_agreement(q, "변형이 설계에 고려되는 경우에는 식 (4.3-4)에 따른다.") == -1
    assert negation_agreement(q, "계수는 1.5로 한다.") == 0
