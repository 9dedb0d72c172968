"""Sentence ranges by class of input: Korean endings and item marks, and a glossary flattened into one paragraph."""

from __future__ import annotations

from kdsdesk.text.sentences import sentence_ranges, split_sentences, split_units


def _texts(text: str, ranges: list[tuple[int, int]]) -> list[str]:
    return [text[a:b].strip() for a, b in ranges]


def test_sentences_end_on_korean_endings_and_before_item_marks() -> None:
    text = "(1) 간격은 300 mm 이하로 한다. (2) 두께는 200 mm 이상으로 한다."
    assert _texts(text, split_sentences(text)) == ["(1) 간격은 300 mm 이하로 한다.", "(2) 두께는 200 mm 이상으로 한다."]


def test_a_glossary_in_one_paragraph_is_cut_before_each_term() -> None:
    text = "지간：받침 중심 사이의 거리 유효폭：응력이 고르게 분포한다고 보는 폭 순단면：구멍을 뺀 단면"
    assert _texts(text, split_units(text)) == [
        "지간：받침 중심 사이의 거리", "유효폭：응력이 고르게 분포한다고 보는 폭", "순단면：구멍을 뺀 단면",
    ]  # fmt: skip
    assert _texts(text, sentence_ranges(text)) == _texts(text, split_units(text))


def test_two_colons_or_ratios_and_symbol_lines_are_no_glossary() -> None:
    ratio = "경사는 1 : 1.5 (최대 1 : 1)로 하고 비탈면 보호공을 둔다. 비고：시공 여건에 따라 조정한다."
    assert split_units(ratio) == split_sentences(ratio)
    where = "여기서, V_c : 콘크리트의 전단강도 b_w : 복부 폭 d : 유효깊이"
    assert split_units(where) == split_sentences(where)
    # the chunker keeps its sentences: a glossary stays one piece there
    glossary = "지간：받침 중심 사이의 거리 유효폭：고르게 분포한다고 보는 폭 순단면：구멍을 뺀 단면"
    assert len(split_sentences(glossary)) == 1
