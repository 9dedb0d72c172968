"""The KCSC text converter (``bench/kcsc_structure.py``) rebuilds clause headings from the standard's own 목차.

Synthetic flattened texts in the shape of the KCSC dump: front matter, a 목차 with page numbers, then a body with
inline headings — numbered, written without numbers, retitled, or without any 목차 at all.
"""

from __future__ import annotations

from bench.kcsc_structure import clause_of_quote, parse_toc, split_body, split_definitions

FRONT = "KDS 99 10 10 : 2021 시험 설계기준 2021년 5월 개정 http://www.kcsc.re.kr 건설기준 연혁 ∙ 제정 (2016.6) "
TOC = ("목 차 1. 일반사항 1 1.1 목적 1 1.2 적용범위 1 1.3 용어의 정의 1 2. 재료 2 3. 설계 2 3.1 휨부재 2 "
       "3.2 압축부재 3 ")


def headings(text: str, part: bool = False) -> list[str]:
    return [b.heading_line for b in split_body(text, part).blocks if b.kind == "h"]


def test_toc_entries_and_body_start() -> None:
    body = "1. 일반사항 1.1 목적 (1) 이 기준은 시험용이다."
    entries, end = parse_toc(FRONT + TOC + body)
    assert [e.label for e in entries] == ["1 일반사항", "1.1 목적", "1.2 적용범위", "1.3 용어의 정의", "2 재료",
                                          "3 설계", "3.1 휨부재", "3.2 압축부재"]
    assert (FRONT + TOC + body)[end:].strip().startswith("1. 일반사항 1.1 목적")


def test_numbered_body_places_every_listed_heading_and_deeper_ones() -> None:
    body = ("1. 일반사항 1.1 목적 (1) 이 기준은 3.2의 규정과 함께 적용한다. 1.2 적용범위 (1) 모든 부재에 적용한다. "
            "1.3 용어의 정의 ∙ 휨부재: 휨을 받는 부재 2. 재료 (1) 재료는 KS에 따른다. 3. 설계 3.1 휨부재 "
            "3.1.1 일반 (1) (2)와 (3)의 방법 중 하나로 설계한다. 3.1.2 1방향 슬래브 (1) 두께는 100 mm 이상으로 한다. "
            "(2) 4.1 및 3.2 규정에 따른다. 3.2 압축부재 (1) 기둥의 최소 치수는 200 mm로 한다.")
    st = split_body(FRONT + TOC + body)
    assert (st.listed, len(st.found), st.missing) == (8, 8, [])
    assert headings(FRONT + TOC + body) == ["1. 일반사항", "1.1 목적", "1.2 적용범위", "1.3 용어의 정의", "2. 재료",
                                            "3. 설계", "3.1 휨부재", "3.1.1 일반", "3.1.2 1방향 슬래브", "3.2 압축부재"]
    # a sentence quoting (2) and (3) stays one paragraph; quotes fall under their deepest heading
    assert any(b.text.startswith("(1) (2)와 (3)의 방법") for b in st.blocks)
    assert clause_of_quote(st.blocks, "두께는 100 mm 이상으로 한다") == "3.1.2"
    assert clause_of_quote(st.blocks, "기둥의 최소 치수는 200 mm") == "3.2"


def test_body_without_heading_numbers_takes_the_toc_numbers() -> None:
    body = ("일반사항 목적 이 기준은 시험용이다. 적용범위 (1) 모든 부재의 적용범위는 넓다. 용어의 정의 내용 없음 "
            "재료 재료는 KS에 따른다. 설계 휨부재 (1) 휨부재의 폭은 250 mm 이상으로 한다. "
            "압축부재 (1) 기둥은 200 mm 이상.")
    st = split_body(FRONT + TOC + body)
    assert st.unnumbered
    assert len(st.found) == 8
    assert clause_of_quote(st.blocks, "휨부재의 폭은 250 mm") == "3.1"
    assert clause_of_quote(st.blocks, "기둥은 200 mm") == "3.2"


def test_retitled_heading_is_found_by_its_number() -> None:
    body = ("1. 일반사항 1.1 목적 (1) 시험용이다. 1.2 적용 대상 (1) 모든 부재. 1.3 용어의 정의 (1) 없음. "
            "2. 재료 (1) KS. 3. 설계 3.1 휨부재 (1) 폭 250 mm. 3.2 압축부재 (1) 기둥 200 mm.")
    st = split_body(FRONT + TOC + body)
    assert st.missing == []
    assert "1.2 적용 대상" in headings(FRONT + TOC + body)


def test_part_file_counts_listed_headings_after_its_end_apart() -> None:
    body = "1. 일반사항 1.1 목적 (1) 시험용이다. 1.2 적용범위 (1) 모든 부재. 1.3 용어의 정의 (1) 없음. 2. 재료 (1) 강재"
    st = split_body(FRONT + TOC + body, part_only=True)
    assert len(st.found) == 5
    assert [e.label for e in st.beyond] == ["3 설계", "3.1 휨부재", "3.2 압축부재"]
    assert st.missing == []


def test_without_toc_a_list_of_chapter_names_is_no_heading() -> None:
    text = (FRONT + "1. 총설 이 기준은 다음 절로 이루어진다. 1. 총설 2. 착수정 3. 응집지 4. 침전지 "
            "1.1 기본사항 (1) 정수시설은 중추시설이다. 1.2 시설규모 (1) 장래 확장분을 고려한다. "
            "2. 착수정 2.1 구조 (1) 착수정은 2지 이상으로 한다.")
    assert headings(text) == ["1. 총설", "1.1 기본사항", "1.2 시설규모", "2. 착수정", "2.1 구조"]


def test_a_flattened_definition_list_becomes_one_paragraph_per_term() -> None:
    body = ("1. 일반사항 1.1 목적 (1) 시험용이다. 1.2 적용범위 (1) 모든 부재. 1.3 용어의 정의 극한지지력 : 흙에서 "
            "전단파괴가 생기는 하중 (단위 : kN/m2) 기초 피어 : 높이가 폭의 4배 미만인 수직기초 부재 "
            "사수위(Dead Storage Level, DSL): 저수기능이 상실된 수위 2. 재료 (1) 재료는 KS. 기초 피어는 조적조로 한다. "
            "3. 설계 3.1 휨부재 (1) 폭 250 mm. 3.2 압축부재 (1) 기둥 200 mm.")
    st = split_body(FRONT + TOC + body)
    defs = [b.text for b in st.blocks if b.kind == "p" and ":" in b.text]
    assert defs == ["극한지지력 : 흙에서 전단파괴가 생기는 하중 (단위 : kN/m2)",
                    "기초 피어 : 높이가 폭의 4배 미만인 수직기초 부재",
                    "사수위(Dead Storage Level, DSL): 저수기능이 상실된 수위"]


def test_a_flattened_definition_list_keeps_terms_of_several_words() -> None:
    # "…을 말한다. 설계 압력(design pressure): …": the term is every word since the sentence before it ended
    par = (
        "냉매 펌프(refrigerant pump): 액체 냉매를 이송하는 장치를 말한다. 설계 압력(design pressure): 최대 상용 "
        "압력을 말한다. 이중 릴리프 밸브(dual pressure relief device): 두 릴리프 장치를 말한다."
    )
    heads = [p.split("(")[0] for p in split_definitions(par)]
    assert heads == ["냉매 펌프", "설계 압력", "이중 릴리프 밸브"]


def test_a_toc_whose_pages_are_those_of_a_book_is_read() -> None:
    """A standard printed inside a book: its 목차 starts at page 38, not 1; the body's headings are still the
    목차's, so their titles end where the 목차 says."""
    toc = "목 차 1. 총론 38 1.1 기본사항 39 1.2 법규의 준수 39 2. 설비 40 2.1 수전설비 40 "
    body = ("1. 총론 하수도시설의 설비는 계획하여야 한다. 1.1 기본사항 설비의 계획은 다음을 고려한다. "
            "1.2 법규의 준수 설계에서는 법령을 검토한다. 2. 설비 2.1 수전설비 수전은 22.9 kV로 한다.")
    st = split_body(FRONT + toc + body)
    assert (st.listed, len(st.found)) == (5, 5)
    assert headings(FRONT + toc + body)[:3] == ["1. 총론", "1.1 기본사항", "1.2 법규의 준수"]


def test_deeper_headings_written_against_their_title_or_with_a_stop_after_it() -> None:
    """"1.3.2용어의 정의" (no space after the number) and "3.1.2 배수펌프. 배수펌프의 …" (a stop after the
    title) are headings; a clause number cited in a sentence ("3.1.1절", "3.1.1이나") is not."""
    body = ("1. 일반사항 1.1 목적 (1) 시험용이다. 1.2 적용범위 (1) 모든 부재. 1.3 용어의 정의 1.3.1용어의 선택 "
            "KDS 99 00 00을 따른다. 1.3.2용어의 정의 공사: 계약에 따른 일을 말한다. 2. 재료 (1) KS. 3. 설계 "
            "3.1 휨부재 3.1.1 일반 휨부재는 3.1.1절 또는 3.1.1이나 3.2를 따른다. 3.1.2 배수펌프. 배수펌프의 유량은 "
            "30 분 이내에 배출하는 용량으로 한다. 3.2 압축부재 (1) 기둥 200 mm.")
    st = split_body(FRONT + TOC + body)
    found = headings(FRONT + TOC + body)
    assert "1.3.2 용어의 정의" in found
    assert "3.1.2 배수펌프" in found
    assert not any(h.startswith(("3.1.1 절", "3.1.1 이나")) for h in found)
    assert clause_of_quote(st.blocks, "공사: 계약에 따른 일을 말한다") == "1.3.2"
    assert clause_of_quote(st.blocks, "배수펌프의 유량은 30 분 이내에") == "3.1.2"


def test_a_chapter_and_its_first_clause_with_one_title_written_once() -> None:
    """"4. 수리설계" and "4.1 수리설계" in the 목차, the body (without numbers) writing "수리설계" once: the text
    is the clause's, not the chapter's."""
    toc = "목 차 1. 일반사항 1 1.1 목적 1 2. 재료 2 3. 수리설계 3 3.1 수리설계 3 3.2 구조설계 5 "
    body = ("일반사항 목적 (1) 이 기준은 시험용이다. 재료 내용 없음 수리설계 일반사항 (1) 수로의 평균유속은 "
            "0.7 m/s 이상으로 한다. 구조설계 (1) 벽체는 안전하게 설계한다.")
    st = split_body(FRONT + toc + body)
    assert st.unnumbered
    assert clause_of_quote(st.blocks, "수로의 평균유속은 0.7 m/s 이상") == "3.1"
    assert clause_of_quote(st.blocks, "벽체는 안전하게") == "3.2"
