"""Tables flattened into running text (``kdsdesk.text.flat_tables``), by class of layout."""

from __future__ import annotations

from kdsdesk.answer.pipeline import answer_question
from kdsdesk.text.facts import chunk_facts
from kdsdesk.text.flat_tables import flat_cells, row_words, table_text_start
from tests.data.answer_records import hits, text_chunk

TEMPERATURES = (
    "(1) 온도조건은 다음과 같이 적용한다. 구분 최저온도 ℃ 표준온도 ℃ 최고온도 ℃ "
    "내륙 -25 10 40 해안 -20 15 40 터널 -5 15 30"
)


def test_rows_and_columns_of_a_flattened_table_are_read_back() -> None:
    cells = {(c.row_label, c.column): (c.value, c.unit) for c in flat_cells(TEMPERATURES)}
    assert cells[("해안", "최저온도 ℃")] == ("-20", "℃")
    assert cells[("터널", "최고온도 ℃")] == ("30", "℃")
    assert cells[("내륙", "표준온도 ℃")] == ("10", "℃")


def test_headers_that_cannot_be_aligned_leave_the_columns_unread() -> None:
    # an empty "비고" column and a row label that runs into the headers: no column is guessed
    text = "표 4.2-1 설계안전율 구분 검토항목 평상시 지진 시 비고 외적 안정 활 동 1.5 1.1 전도 1.5 1.1 지지력 2.5 2.0"
    cells = flat_cells(text)
    assert cells
    assert not any(c.column for c in cells)


def test_codes_clause_and_equation_numbers_are_no_cells() -> None:
    text = "관련 기준 ∙ KDS 14 20 10 해석 원칙 ∙ KDS 14 20 20 휨 설계 ∙ KDS 14 20 22 전단 설계 4.2.1 식 (4.1-2)"
    assert flat_cells(text) == []


def test_a_flattened_cell_is_a_cell_fact_and_a_table_answer() -> None:
    facts = [f for f in chunk_facts("text", TEMPERATURES, None) if f.kind == "cell"]
    assert ("-20", ("해안", "최저온도 ℃")) in [(f.value, f.cases) for f in facts]
    a = answer_question("해안의 최저온도는 몇 ℃인가?", hits(text_chunk(TEMPERATURES)), llm="none")
    assert a.status == "warning"  # a cell: shown with a request to check the table
    assert a.draft.value == "-20"
    b = answer_question("해안의 온도는 몇 ℃인가?", hits(text_chunk(TEMPERATURES)), llm="none")
    assert b.status not in ("confirmed", "warning")  # no column stated: several values fit


def test_one_value_per_row_is_read_under_its_row_label() -> None:
    text = (
        "표 4.3-2 목재의 탄성계수의 변이계수 구 분 COV_E 육안등급구조재 0.25 기계등급구조재(MSR) 0.11 집성재 0.10 "
        "(2) 다음 문장은 표가 아니다."
    )
    cells = {c.row_label: c.value for c in flat_cells(text)}
    assert cells == {"육안등급구조재": "0.25", "기계등급구조재(MSR)": "0.11", "집성재": "0.10"}
    a = answer_question("집성재의 탄성계수 변이계수 COV_E 값은?", hits(text_chunk(text)), llm="none")
    assert a.draft.value == "0.10"
    assert a.status == "warning"
    # label-value pairs in a sentence without a row-header word give no column
    assert not any(c.column for c in flat_cells("(1) 보의 폭 300 높이 450 두께 200 으로 한다."))


def test_a_header_row_of_a_symbols_values_heads_the_columns() -> None:
    text = (
        "표 4.2-1 계수 δ h/l 0.1 0.2 0.3 고정 0.360 0.390 0.440 2힌지 0.524 0.594 0.711 1힌지 0.484 0.514 0.562"
    )
    cells = {(c.row_label, c.column_value): c.value for c in flat_cells(text)}
    assert cells[("2힌지", "0.3")] == "0.711"
    assert cells[("1힌지", "0.2")] == "0.514"
    assert not any(c.row_label == "h/l" for c in flat_cells(text))  # the header row is no data row
    a = answer_question("2힌지 아치에서 h/l=0.3일 때 계수 δ는?", hits(text_chunk(text)), llm="none")
    assert a.draft.value == "0.711"
    assert a.status == "warning"
    b = answer_question("2힌지 아치의 계수 δ는?", hits(text_chunk(text)), llm="none")
    assert b.status not in ("confirmed", "warning")  # no column's number stated: three values fit


# a table whose row labels are long descriptions: no reader splits it into cells, its numbers stay in running text
SAFETY = (
    "(1) 동바리의 안전율은 지지형식에 따라 표 1.8-1의 값 이상이어야 한다. 표 1.8-1 압축부재의 안전율 "
    "표 1.8-1 압축부재의 안전율 지지형식 안전율 시공형태 지주형식 동바리 단품 동바리 3 강재 및 알루미늄 "
    "합금재 파이프 서포트, 강관과 같이 개개품을 이용하여 거푸집을 지지하는 동바리 조립식 동바리 2.5 시스템 "
    "동바리, 틀형 동바리와 같이 각각의 부재를 현장에서 조립하여 거푸집을 지지하는 동바리 (2) 다음 항목이다."
)


def test_a_tables_text_runs_from_its_caption_to_the_next_item() -> None:
    at = SAFETY.index("단품 동바리 3") + len("단품 동바리 ")
    assert table_text_start(SAFETY, at) == SAFETY.index("표 1.8-1 압축부재")
    assert table_text_start(SAFETY, SAFETY.index("다음 항목")) == -1  # after "(2)": prose again
    row = row_words(SAFETY, SAFETY.index("2.5"))
    assert row is not None
    assert "조립식 동바리" in row.own
    assert "단품" in row.head
    assert "시스템" in row.others
    # a table named inside a sentence is a reference, not a caption
    ref = "다만, 연결로가 2차로인 경우 감속차로의 길이는 표 4.2-11 길이의 1.2배 이상으로 하여야 한다."
    assert table_text_start(ref, ref.index("1.2")) == -1
    # a caption written twice right after another table's last row starts a table all the same
    two = "표 1.6-1 계수 A 구분 값 가 1.0 나 1.2 표 1.6-2 첨가물 계수 표 1.6-2 첨가물 계수 시멘트 1종 시멘트 1.0"
    assert table_text_start(two, len(two) - 3) == two.index("표 1.6-2 첨가물")


def test_a_number_in_a_tables_text_answers_only_the_row_its_own_words_name() -> None:
    other_row = answer_question("조립식 동바리의 안전율은?", hits(text_chunk(SAFETY)), llm="none")
    assert other_row.status not in ("confirmed", "warning") or other_row.draft.value == "2.5"
    own_row = answer_question("단품 동바리의 안전율은?", hits(text_chunk(SAFETY)), llm="none")
    assert own_row.status != "confirmed"  # a number in a table's text is a cell: at most a warning
    if own_row.status == "warning":
        assert own_row.draft.value == "3"


def test_a_table_written_across_reads_each_value_under_the_number_heading_its_column() -> None:
    text = (
        "표 3.1-2 램프 접속부의 최소 곡선반지름 설계속도 (km/h) 100 90 80 70 60 "
        "최소 곡선반지름 (m) 420 360 280 210 150"
    )
    cells = {c.column_value: c.value for c in flat_cells(text) if c.read}
    assert cells == {"100": "420", "90": "360", "80": "280", "70": "210", "60": "150"}
    a = answer_question("설계속도 80 km/h일 때 램프 접속부의 최소 곡선반지름은?", hits(text_chunk(text)), llm="none")
    assert (a.status, a.value) == ("warning", "280")  # a cell read back from flattened text: shown, to be checked
    missing = answer_question("설계속도 85 km/h일 때 램프 접속부 최소 곡선반지름은?", hits(text_chunk(text)))
    assert missing.status not in ("confirmed", "warning")  # no column is headed by 85
    two_rows = "온도 구분 내륙 15 20 25 해안 10 12 14"  # two rows with no unit over the first: not a header
    assert not any(c.column_value for c in flat_cells(two_rows))
