"""The pipeline: a wrong value never ends confirmed, whatever the answerer says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import kdsdesk.answer.llm as llm_mod
from kdsdesk.answer import prompts
from kdsdesk.answer.pipeline import answer_question, find_llm
from kdsdesk.errors import KnownError
from kdsdesk.records import Table, TableCell
from tests.data.answer_records import hits, table_chunk, text_chunk

BODY = text_chunk(
    "(1) 합판 거푸집 널의 최소 두께는 12 mm 이상으로 하여야 한다.\n"
    "(2) 강재 거푸집 표면 강판의 최소 두께는 2.3 mm 이상으로 하여야 한다.\n"
    "(3) 측압: 굳지 않은 콘크리트가 거푸집의 연직면에 수평방향으로 작용하는 압력",
    "body",
    clause_path=("4.1 거푸집 널",),
)
OTHER = text_chunk("(1) 시스템 동바리의 전도에 대한 안전율은 1.5 이상으로 하여야 한다.", "other")
TABLE = table_chunk(
    Table(
        "4.3-1", "표 4.3-1 고력볼트의 구멍 치수(mm)", 3, 3,
        (TableCell(0, 0, "볼트의 호칭", is_header=True), TableCell(0, 1, "표준구멍", is_header=True),
         TableCell(0, 2, "대형구멍", is_header=True), TableCell(1, 0, "M20"), TableCell(1, 1, "22"),
         TableCell(1, 2, "24"), TableCell(2, 0, "M22"), TableCell(2, 1, "24"), TableCell(2, 2, "28")),
    ),
    "table",
)  # fmt: skip
Q = "합판 거푸집 널의 최소 두께는 몇 mm인가요?"


def test_extractive_confirms_a_value_read_from_the_text() -> None:
    a = answer_question(Q, hits(BODY, OTHER), llm="none")
    assert a.status == "confirmed"
    assert (a.value, a.unit) == ("12 mm 이상", "")  # the bound as written: "12 mm" alone reads as exact
    assert a.citations[0].verified
    assert a.citations[0].rects
    assert a.answerer == "extractive"
    assert a.timing_ms["total_ms"] >= 0


def test_table_value_is_a_warning() -> None:
    a = answer_question("M22 볼트의 대형구멍 치수는 몇 mm인가요?", hits(TABLE, BODY), llm="none")
    assert a.status == "warning"
    assert (a.value, a.unit) == ("28", "mm")


def test_nothing_relevant_is_restricted() -> None:
    a = answer_question("용접 루트의 유효목두께는 몇 mm인가요?", hits(OTHER), llm="none")
    assert a.status in ("restricted", "unverified")
    assert a.value == ""


def test_definition_and_requirement() -> None:
    a = answer_question("측압이란 무엇인가요?", hits(BODY), llm="none")
    assert a.status == "confirmed"
    assert a.definition.startswith("굳지 않은 콘크리트")
    r = answer_question("강재 거푸집 표면 강판의 두께는 어떻게 해야 하나요?", hits(BODY), llm="none")
    assert r.status == "confirmed"
    assert "2.3 mm 이상으로 하여야 한다" in r.requirements[0]


def test_qualifiers_stay_with_the_value() -> None:
    ties = text_chunk("(2) 벽체 거푸집 긴결재의 수평 및 연직 간격은 각각 1.0 m 이하로 하여야 한다.", "ties")
    a = answer_question("벽체 거푸집 긴결재의 수평 및 연직 간격은 얼마 이하로 해야 하나요?", hits(ties), llm="none")
    assert a.status == "confirmed"
    assert a.value == "각각 1.0 m 이하"
    assert a.answer_text == "각각 1.0 m 이하"


def test_definition_of_the_topic_word() -> None:
    terms = text_chunk(
        "(1) 거푸집: 타설된 콘크리트가 소정의 형상을 유지하도록 지지하는 가설 구조물\n"
        "(2) 작업하중: 작업원, 경량 장비 등에 의한 하중으로서 고정하중 이외의 연직하중",
        "terms",
    )
    a = answer_question("거푸집 설계에서 말하는 작업하중은 어떤 하중인가요?", hits(terms), llm="none")
    assert a.status == "confirmed"
    assert a.definition.startswith("작업원, 경량 장비")


EQ = text_chunk(
    "(1) 역타설 시의 설계측압은 식 (4.2-5)에 따라 산정하여야 한다.\n"
    "(2) 긴결재의 간격은 식 (4.2-6)에 따라 정한다.\n"
    "여기서, p_r : 역타설 시의 설계측압(kN/m²)",
    "eq-ref",
)
EQ_BLOCK = text_chunk("p_r = (1 + α_r/100)WH (4.2-5)\ns = ⎩1+; (|W)/H (4.2-6)", "eq-block")


def test_a_sentence_citing_an_equation_brings_the_equation() -> None:
    a = answer_question("역타설 시 설계측압은 어떤 식으로 산정하나요?", hits(EQ, EQ_BLOCK), llm="none")
    assert a.status == "confirmed"
    assert a.requirements[-1] == "p_r = (1 + α_r/100)WH (4.2-5)"
    assert {c.chunk.chunk_id for c in a.citations} == {"eq-ref", "eq-block"}


def test_a_formula_asked_for_but_unreadable_is_restricted() -> None:
    a = answer_question("긴결재의 간격은 어떤 식으로 정하나요?", hits(EQ, EQ_BLOCK), llm="none")
    assert a.status == "restricted"
    assert a.requirements == ()


def test_a_compound_requirement_is_cut_into_clauses() -> None:
    holes = text_chunk(
        "(2) 대형구멍은 미끄럼임계접합에만 사용할 수 있으며, 외측 판에 대형구멍을 사용하는 경우에는 와셔를 "
        "사용하여야 한다.",
        "holes",
    )
    a = answer_question("대형구멍은 어떤 접합에만 사용할 수 있나요?", hits(holes), llm="none")
    assert a.status == "confirmed"
    assert a.requirements[0] == "대형구멍은 미끄럼임계접합에만 사용할 수 있다"


def test_respectively_maps_the_named_number() -> None:
    c = text_chunk(
        "(2) 볼트 구멍의 변형이 설계에 고려되지 않는 경우에는 식 (4.3-4)의 계수 1.2와 2.4를 각각 1.5와 3.0으로 한다.",
        "resp",
    )
    q = "볼트 구멍의 변형을 설계에 고려하지 않는 경우 계수 2.4 대신 얼마를 쓰나요?"
    a = answer_question(q, hits(c), llm="none")
    assert (a.status, a.value) == ("confirmed", "3.0")


LATTICE = text_chunk(
    "④ 단일 래티스재의 세장비 L/r은 140 이하로 하며, 복 래티스재의 경우 세장비는 200 이하로 하고, 그 교차점을 "
    "접합한다.\n"
    "⑥ 부재축에 대한 래티스재의 경사각은 다음과 같이 한다.\n"
    "단일 래티스 경우：60° 이상\n"
    "복 래티스 경우：45° 이상\n"
    "(2) 끼움재를 사용한 2개 이상의 형강으로 구성된 조립인장재는 개별부재의 세장비가 가급적 300을 넘지 않도록 한다.",
    "lattice",
)


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("단일 래티스재의 세장비 L/r은 얼마 이하로 하나요?", "140 이하"),  # not 200: that clause is for 복 래티스재
        ("복 래티스인 경우 래티스재의 경사각은 몇 도 이상으로 하나요?", "45° 이상"),  # lines under their lead
        ("끼움재를 사용한 조립인장재에서 개별부재의 세장비는 얼마를 넘지 않도록 하나요?", "300"),  # not "2개 이상"
    ],
)
def test_the_clause_and_bound_of_the_value(question: str, value: str) -> None:
    a = answer_question(question, hits(LATTICE), llm="none")
    assert (a.status, a.value) == ("confirmed", value), dict(a.verdict.checks)


def test_a_list_split_across_chunks_keeps_its_lead() -> None:
    first = text_chunk(
        "(1) 일반 강구조 아이바에 대한 구조제한은 다음과 같다.\n"
        "① 핀 구멍의 직경은 핀 직경보다 1 mm를 초과하여 크면 안 된다.\n"
        "(2) 교량 강구조의 아이바에 대한 구조제한은 다음과 같다.\n"
        "① 아이바의 두께는 13 mm 이상이어야 한다.",
        "part1", clause="4.1.6.2", ordinal=1,
    )  # fmt: skip
    second = text_chunk(
        "② 핀구멍의 직경은 핀의 직경보다 0.8 mm 이상 커서는 안 된다.", "part2", clause="4.1.6.2", ordinal=2
    )
    q = "교량 강구조 아이바에서 핀구멍의 직경은 핀의 직경보다 몇 mm 이상 커서는 안 되나요?"
    a = answer_question(q, hits(first, second), llm="none")
    assert (a.status, a.value) == ("confirmed", "0.8 mm 이상")


# -- a model that lies: every wrong answer must end unverified (or restricted), never confirmed -------------------
@pytest.fixture
def fake_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    gguf = tmp_path / "fake.gguf"
    gguf.write_bytes(b"GGUF")
    box: dict[str, Any] = {}

    def complete_json(path: Path, system: str, user: str, schema: dict[str, Any], **kw: Any) -> llm_mod.LlmResult:
        assert system == prompts.SYSTEM
        box["user"] = user
        out = box["out"]
        text = out if isinstance(out, str) else json.dumps(out, ensure_ascii=False)
        return llm_mod.LlmResult(text, box.get("finish", "stop"), 321, 10, 1.0)

    monkeypatch.setattr(llm_mod, "complete_json", complete_json)

    def ask(out: Any, finish: str = "stop", hs: Any = None) -> Any:
        box["out"], box["finish"] = out, finish
        return answer_question(Q, hs or hits(BODY, OTHER), llm=str(gguf))

    return ask


def _num(value: str, unit: str, quote: str, item: int = 1) -> dict[str, Any]:
    return {"value": value, "unit": unit, "condition": "", "evidence": [{"item": item, "quote": quote}]}


def test_model_right_answer_is_confirmed(fake_model: Any) -> None:
    a = fake_model(_num("12", "mm", "합판 거푸집 널의 최소 두께는 12 mm 이상"))
    assert a.status == "confirmed"
    assert a.prompt_tokens == 321
    assert a.answerer == "fake.gguf"


@pytest.mark.parametrize(
    ("out", "finish"),
    [
        (_num("15", "mm", "합판 거푸집 널의 최소 두께는 12 mm 이상"), "stop"),  # wrong value, true quote
        (_num("12", "cm", "합판 거푸집 널의 최소 두께는 12 mm 이상"), "stop"),  # wrong unit
        (_num("15", "mm", "합판 거푸집 널의 최소 두께는 15 mm 이상"), "stop"),  # forged quote
        (_num("2.3", "mm", "강재 거푸집 표면 강판의 최소 두께는 2.3 mm 이상"), "stop"),  # other sentence, same unit
        (_num("1.5", "", "시스템 동바리의 전도에 대한 안전율은 1.5 이상"), "stop"),  # irrelevant evidence
        (_num("12", "mm", "합판 거푸집 널의 최소 두께는 12 mm 이상"), "length"),  # truncated output
        ('{"value": "12", "unit": "mm"', "stop"),  # broken JSON
        ({"value": "12", "unit": "mm", "condition": "", "evidence": []}, "stop"),  # no evidence
        ({"value": "12", "unit": "mm", "condition": "", "evidence": [], "confidence": 1}, "stop"),  # extra key
    ],
)
def test_model_wrong_answers_are_never_confirmed(fake_model: Any, out: Any, finish: str) -> None:
    a = fake_model(out, finish)
    assert a.status not in ("confirmed", "warning"), (a.status, a.value, dict(a.verdict.checks))
    assert a.value == ""


def test_quote_from_a_chunk_not_retrieved_is_rejected(fake_model: Any) -> None:
    a = fake_model(_num("12", "mm", "합판 거푸집 널의 최소 두께는 12 mm 이상"), hs=hits(OTHER))
    assert a.status == "unverified"


def test_model_gives_nothing_is_restricted(fake_model: Any) -> None:
    a = fake_model(_num("", "", "합판 거푸집 널의 최소 두께는 12 mm 이상"))
    assert a.status == "restricted"


def test_prompt_is_small_and_numbered(fake_model: Any) -> None:
    fake_model(_num("12", "mm", "합판 거푸집 널의 최소 두께는 12 mm 이상"))
    items = prompts.evidence_items(Q, hits(BODY, OTHER, TABLE))
    assert items[0].number == 1
    assert sum(len(i.text) for i in items) <= prompts.EVIDENCE_CHARS + 200


def test_find_llm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert find_llm("none") is None
    with pytest.raises(KnownError):
        find_llm(str(tmp_path / "missing.gguf"))
    d = tmp_path / "models" / "llm"
    d.mkdir(parents=True)
    (d / "b.gguf").write_bytes(b"x")
    monkeypatch.setenv("KDSDESK_MODELS", str(tmp_path / "models"))
    assert find_llm(None) == d / "b.gguf"


def test_a_term_inside_a_glossary_paragraph_is_defined_by_its_own_entry() -> None:
    glossary = text_chunk(
        "교통환기력(Traffic ventilation force): 터널을 주행하는 차량의 피스톤 효과에 의하여 발생하는 환기력. "
        "굴진율(Advance rate): 기계식 굴착장비의 단위 시간당 굴진장을 말하며, 굴진장을 굴진시간으로 나누어 산정.",
        "gloss",
        clause_path=("1.4 용어의 정의",),
    )
    a = answer_question("터널 설계에서 굴진율(Advance rate)이란?", hits(glossary, OTHER), llm="none")
    assert a.status == "confirmed"
    assert a.definition.startswith("기계식 굴착장비의 단위 시간당 굴진장")
    assert "교통환기력" not in a.definition
    assert "교통환기력" not in a.citations[0].quote

