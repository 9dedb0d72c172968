"""HWPX parser: text, headings, items, tables (merged cells, captions, nested), equations, sections; the real
corpus and the sample standards against their golden structure."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kdsdesk.errors import KnownError
from kdsdesk.ingest.hwpx import parse_hwpx
from kdsdesk.records import Block, ParsedDoc
from tests.conftest import corpus_files
from tests.data import hwpx_builder as hb
from tests.data.hwpx_builder import Cell, eq, p, para, section, t, tbl


def _parse(tmp_path: Path, *paragraphs: str, **kw: object) -> ParsedDoc:
    return parse_hwpx(hb.write_hwpx(tmp_path / "doc.hwpx", [section(*paragraphs)], **kw))  # type: ignore[arg-type]


def _kinds(doc: ParsedDoc, kind: str) -> list[Block]:
    return [b for b in doc.blocks if b.kind == kind]


def test_text_runs_tabs_line_breaks_and_skipped_layout(tmp_path: Path) -> None:
    doc = _parse(tmp_path, p(t("가나"), t("다\t라"), t("첫 줄\n둘째 줄")))
    (block,) = doc.blocks
    assert block.text == "가나다 라첫 줄\n둘째 줄"
    assert block.paragraphs == (0,)
    assert block.pages == ()
    assert [(s.start, s.end, s.paragraph) for s in block.spans] == [(0, 8, 0), (9, 13, 0)]
    assert "NEWSPAPER" not in block.text


def test_headings_in_separate_runs_build_clause_paths_and_items(tmp_path: Path) -> None:
    doc = _parse(
        tmp_path,
        para("KDS 14 20 22 : 2022"),
        para("콘크리트구조 전단 설계기준"),
        p(t("1"), t(" 일반사항")),
        p(t("1.1"), t("\t목적")),
        para("(1) 이 기준은 보에 적용한다."),
        para("① 세부 항목이다."),
        para("여기서 계속되는 문단이다."),
        p(t("4"), t(" 설계")),
        p(t("4.2"), t(" 전단")),
        p(t("4.2.3"), t(" 전단철근")),
        para("0.75"),
        para("(2) 다음 항목이다."),
    )
    assert (doc.doc.doc_code, doc.doc.title, doc.doc.year) == ("KDS 14 20 22", "콘크리트구조 전단 설계기준", "2022")
    heads = _kinds(doc, "heading")
    assert [h.clause for h in heads] == ["1", "1.1", "4", "4.2", "4.2.3"]
    assert heads[-1].clause_path == ("4 설계", "4.2 전단", "4.2.3 전단철근")
    assert heads[-1].heading_level == 3
    texts = {b.text: b for b in _kinds(doc, "text")}
    assert texts["(1) 이 기준은 보에 적용한다."].item == "(1)"
    assert texts["① 세부 항목이다."].item == "①"
    assert texts["여기서 계속되는 문단이다."].item == "①"  # carried within the clause
    assert texts["0.75"].clause == "4.2.3"
    assert texts["0.75"].item == ""  # a heading resets the item
    assert texts["(2) 다음 항목이다."].clause_path == ("4 설계", "4.2 전단", "4.2.3 전단철근")
    assert texts["KDS 14 20 22 : 2022"].clause == ""


def test_cell_text_is_never_a_heading(tmp_path: Path) -> None:
    doc = _parse(tmp_path, para("1 일반사항"), p(tbl(hb.grid_cells([["2 조사", "3 재료"], ["4 설계", "5 기타"]]))))
    assert [b.clause for b in _kinds(doc, "heading")] == ["1"]


def test_inline_and_display_equations(tmp_path: Path) -> None:
    doc = _parse(
        tmp_path,
        para("1 일반사항"),
        p(t("공칭강도 "), eq("V _{n}"), t("은 다음과 같다.")),
        p(eq("V _{u} LEQ phi V _{n}"), t("\t(4.1-1)")),
        p(eq("{a} over {b}", cdata=True)),
    )
    text = _kinds(doc, "text")
    assert text[0].text == "공칭강도 V_n은 다음과 같다."
    display = _kinds(doc, "equation")
    assert [b.text for b in display] == ["V_u ≤ φV_n (4.1-1)", "(a)/(b)"]
    assert display[0].script == "V _{u} LEQ phi V _{n}"
    assert display[1].script == "{a} over {b}"
    assert display[0].clause == "1"


def test_merged_cells_grid_and_header_rows(tmp_path: Path) -> None:
    cells = [
        Cell("철근 종류", 0, 0, rowspan=2),
        Cell("상한값(MPa)", 0, 1, colspan=2),
        Cell("일반", 1, 1),
        Cell("특수", 1, 2),
        Cell("스터럽", 2, 0),
        Cell("500", 2, 1),
        Cell("400", 2, 2),
    ]
    doc = _parse(tmp_path, para("표 3.2-1 설계기준항복강도 상한값"), p(tbl(cells)))
    (block,) = _kinds(doc, "table")
    table = block.table
    assert table is not None
    assert table.number == "3.2-1"
    assert table.title == "설계기준항복강도 상한값"
    assert (table.n_rows, table.n_cols, table.header_rows) == (3, 3, 2)
    assert table.origin_grid() == [["철근 종류", "상한값(MPa)", None], [None, "일반", "특수"], ["스터럽", "500", "400"]]
    assert table.column_headers(2) == ["상한값(MPa)", "특수"]
    assert block.text.splitlines() == [
        "표 3.2-1 설계기준항복강도 상한값", "철근 종류 | 상한값(MPa)", "일반 | 특수", "스터럽 | 500 | 400"]
    assert table.row_records() == [
        "표 3.2-1 설계기준항복강도 상한값 | 철근 종류: 스터럽 · 상한값(MPa) 일반: 500 · 상한값(MPa) 특수: 400"
    ]
    assert len(doc.blocks) == 1  # the caption paragraph went into the table


def test_header_flag_sets_header_rows(tmp_path: Path) -> None:
    cells = hb.grid_cells([["a", "b"], ["c", "d"], ["e", "f"]], header_flag=True)
    doc = _parse(tmp_path, p(tbl(cells)))
    table = next(doc.tables())
    assert table.header_rows == 1
    assert [c.is_header for c in table.cells] == [True, True, False, False, False, False]


def test_cells_without_addresses_are_placed_in_reading_order(tmp_path: Path) -> None:
    cells = [Cell("A", 0, 0, rowspan=2, with_addr=False), Cell("B", 0, 1, with_addr=False),
             Cell("C", 1, 1, with_addr=False)]
    table = next(_parse(tmp_path, p(tbl(cells))).tables())
    assert table.origin_grid() == [["A", "B"], [None, "C"]]


@pytest.mark.parametrize(("num", "expected"), [(7, "7"), (None, "2")])
def test_hp_caption_with_autonum(tmp_path: Path, num: int | None, expected: str) -> None:
    first = tbl(hb.grid_cells([["x"]]))
    second = tbl(hb.grid_cells([["h1", "h2"], ["1", "2"]]), caption=hb.caption_xml("표 ", " 마찰계수", num))
    doc = _parse(tmp_path, p(first), p(second))
    tables = list(doc.tables())
    assert tables[1].caption == f"표 {expected} 마찰계수"
    assert tables[1].number == expected
    assert tables[0].number == ""


def test_sentence_mentioning_a_table_is_not_a_caption(tmp_path: Path) -> None:
    doc = _parse(tmp_path, para("표 4.1-1에 따른다."), p(tbl(hb.grid_cells([["a", "b"], ["c", "d"]]))))
    assert doc.blocks[0].kind == "text"
    assert next(doc.tables()).caption == ""


def test_nested_table_survives(tmp_path: Path) -> None:
    inner = p(tbl(hb.grid_cells([["안1", "안2"], ["안3", "안4"]])))
    cells = [Cell("바깥", 0, 0), Cell(inner, 0, 1), Cell("아래", 1, 0), Cell("값", 1, 1)]
    doc = _parse(tmp_path, p(tbl(cells)))
    outer, nested = list(doc.tables())
    assert "안1 | 안2 / 안3 | 안4" in outer.origin_grid()[0][1]
    assert nested.origin_grid() == [["안1", "안2"], ["안3", "안4"]]
    assert [b.kind for b in doc.blocks] == ["table", "table"]


def test_sections_follow_the_spine_then_numbers(tmp_path: Path) -> None:
    secs = [section(para(f"구역 {i}")) for i in range(3)]
    doc = parse_hwpx(hb.write_hwpx(tmp_path / "a.hwpx", secs, spine=["section2", "section0", "section1"]))
    assert [b.text for b in doc.blocks] == ["구역 2", "구역 0", "구역 1"]
    many = [section(para(f"구역 {i}")) for i in range(11)]
    doc = parse_hwpx(hb.write_hwpx(tmp_path / "b.hwpx", many, with_hpf=False))
    assert [b.text for b in doc.blocks][-2:] == ["구역 9", "구역 10"]
    assert [b.paragraphs[0] for b in doc.blocks] == list(range(11))


def test_no_manifest_and_doc_meta_from_file_name(tmp_path: Path) -> None:
    path = hb.write_hwpx(tmp_path / "dev-kds-14-20-22.hwpx", [section(para("본문만 있다"))], title="표지 제목")
    doc = parse_hwpx(path)
    assert doc.doc.doc_code == "KDS 14 20 22"
    assert doc.doc.title == "표지 제목"
    assert doc.doc.kind == "hwpx"
    assert len(doc.doc.sha256) == 64


def test_section_without_paragraphs(tmp_path: Path) -> None:
    doc = _parse(tmp_path)
    assert doc.blocks == ()


# -- real documents --------------------------------------------------------------------------------------------
HOSTILE = {"hwpjs__password-12345.hwpx": "암호", "rhwp__hwpx-01.hwpx": "HWPX' 또는 'PDF"}


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_files("*.hwpx"))
def test_every_corpus_hwpx_parses_or_gives_a_korean_error(path: Path) -> None:
    if path.name in HOSTILE:
        with pytest.raises(KnownError, match=re.escape(HOSTILE[path.name])):
            parse_hwpx(path)
        return
    doc = parse_hwpx(path)
    assert doc.blocks
    for b in doc.blocks:
        assert b.paragraphs
        assert b.pages == ()
        assert all(0 <= s.start < s.end <= len(b.text) for s in b.spans)
        if b.table is not None:
            assert all(c.row + c.rowspan <= b.table.n_rows and c.col + c.colspan <= b.table.n_cols
                       for c in b.table.cells)


def _lenient(text: str | None) -> str | None:
    if text is None:
        return None
    text = text.replace("−", "-").replace("\\frac", "").replace("\\sqrt", "").replace("√", "")
    return re.sub(r"[{}\\_\s()/^]", "", text)


def _golden_grid(block: dict[str, object]) -> list[list[str | None]]:
    rows = block["header"] + block["rows"]  # type: ignore[operator]
    return [[c if c is None or isinstance(c, str) else c["text"] for c in row] for row in rows]


@pytest.mark.parametrize("stem", ["dev-kds-14-20-22", "dev-kds-14-31-25", "dev-kds-21-50-00"])
def test_sample_standards_match_golden(samples: Path, stem: str) -> None:
    gold = json.loads((samples / "golden" / f"{stem}.json").read_text(encoding="utf-8"))
    doc = parse_hwpx(samples / f"{stem}.hwpx")
    assert (doc.doc.doc_code, doc.doc.title, doc.doc.year) == (gold["code"], gold["title"], gold["year"])
    assert [b.clause for b in _kinds(doc, "heading")] == [b["no"] for b in gold["blocks"] if b["type"] == "heading"]
    gold_tables = [b for b in gold["blocks"] if b["type"] == "table"]
    tables = list(doc.tables())
    assert [t.number for t in tables] == [b["no"] for b in gold_tables]
    for table, gt in zip(tables, gold_tables, strict=True):
        assert table.title == gt["title"]
        assert table.header_rows == len(gt["header"])
        got = [[_lenient(x) for x in row] for row in table.origin_grid()]
        assert got == [[_lenient(x) for x in row] for row in _golden_grid(gt)], table.number
    # every paragraph and equation, in order, under the right clause
    gold_body = [b for b in gold["blocks"] if b["type"] in ("para", "equation")]
    body = [b for b in doc.blocks if b.kind in ("text", "equation") and b.clause]
    assert len(body) == len(gold_body)
    for mine, g in zip(body, gold_body, strict=True):
        expected = g.get("text") or f"{g['src']} {g.get('label', '')}"
        assert _lenient(mine.text) == _lenient(expected.replace("{{", "").replace("}}", ""))
        assert (mine.kind == "equation") == (g["type"] == "equation")
