"""Hostile and odd single files through ``parse_file`` (files generated at test time by ``tests.data.hostile``):
each ends in a correct result or a Korean ``KnownError`` — never a traceback, a hang or a blown-up grid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kdsdesk.errors import KnownError
from kdsdesk.ingest.dispatch import parse_file, sniff
from kdsdesk.ingest.guard import as_utf8
from kdsdesk.ingest.sanitize import REPLACEMENT, clean_parsed, clean_text
from kdsdesk.records import Block, DocRef, ParsedDoc, Span, Table, TableCell
from tests.data import hostile
from tests.data.pdf_docs import standard_pdf


def _all_text(parsed: ParsedDoc) -> str:
    parts = [parsed.doc.title, parsed.doc.doc_code]
    for b in parsed.blocks:
        parts += [b.text, b.clause, *b.clause_path]
        if b.table is not None:
            parts += [c.text for c in b.table.cells]
    return "\n".join(parts)


def test_lone_surrogate_from_a_tounicode_map_never_leaves_the_parser(tmp_path: Path) -> None:
    parsed = parse_file(hostile.surrogate_pdf(tmp_path / "s.pdf"))
    text = _all_text(parsed)
    text.encode("utf-8")  # would raise on a lone surrogate
    json.dumps(text, ensure_ascii=False).encode("utf-8")
    assert REPLACEMENT in text
    assert "Design standard" in text


def test_clean_text_keeps_length_and_offsets() -> None:
    bad = "ab\ud800c\x00d\uffff"
    out = clean_text(bad)
    assert len(out) == len(bad)
    assert out == f"ab{REPLACEMENT}c{REPLACEMENT}d{REPLACEMENT}"
    assert clean_text("정상 텍스트") == "정상 텍스트"


def test_clean_parsed_reaches_tables_and_keeps_spans() -> None:
    table = Table("1", "표 1 \udc80", 1, 1, (TableCell(0, 0, "x\ud800"),))
    doc = DocRef("/x.pdf", "h", "pdf", title="제목\ud801")
    block = Block("table", "x\ud800", clause_path=("1 \ud800",), spans=(Span(0, 2, 0),), table=table)
    parsed = clean_parsed(ParsedDoc(doc, (block,)))
    assert _all_text(parsed).encode("utf-8")
    assert parsed.blocks[0].spans == block.spans
    assert parsed.blocks[0].table is not None
    assert parsed.blocks[0].table.caption == f"표 1 {REPLACEMENT}"
    clean = ParsedDoc(DocRef("/y.pdf", "h", "pdf"), (Block("text", "좋은 글"),))
    assert clean_parsed(clean) is clean


def test_a_page_tree_that_loops_is_a_korean_error(tmp_path: Path) -> None:
    with pytest.raises(KnownError, match="구조가 손상"):
        parse_file(hostile.looping_pages_pdf(tmp_path / "loop.pdf"))


def test_bytes_after_eof_are_accepted(tmp_path: Path) -> None:
    base = standard_pdf(tmp_path / "std.pdf", n_pages=1)
    parsed = parse_file(hostile.trailing_bytes_pdf(tmp_path / "trail.pdf", base))
    assert parsed.doc.doc_code == parse_file(base).doc.doc_code
    assert parsed.blocks


def test_a_truncated_update_is_still_refused(tmp_path: Path) -> None:
    base = standard_pdf(tmp_path / "std.pdf", n_pages=1)
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(base.read_bytes() + b"\n9 0 obj\n<< /Type /Page >>\nendobj\nxref\n0 1\n")  # an update, cut off
    with pytest.raises(KnownError, match="잘려"):
        parse_file(cut)


def test_a_text_file_that_mentions_pdf_is_not_a_pdf(tmp_path: Path) -> None:
    memo = hostile.text_mentioning_pdf(tmp_path / "memo.txt")
    with pytest.raises(KnownError, match="지원하지 않는 파일 형식"):
        sniff(memo)


def test_utf16_section_with_bom_is_read(tmp_path: Path) -> None:
    parsed = parse_file(hostile.utf16_hwpx(tmp_path / "u16.hwpx"))
    assert parsed.doc.doc_code == "KDS 99 00 01"
    assert any("시험에 적용한다" in b.text for b in parsed.blocks)


def test_utf16_xml_meets_the_dtd_check() -> None:
    xml = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>'
    data = as_utf8(xml.encode("utf-16"))
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    assert b"<!ENTITY" in data


def test_a_cell_claiming_a_huge_span_covers_only_the_real_table(tmp_path: Path) -> None:
    parsed = parse_file(hostile.huge_span_hwpx(tmp_path / "span.hwpx", span=3000))
    (table,) = list(parsed.tables())
    assert (table.n_rows, table.n_cols) == (1, 1)
    assert table.grid() == [[table.cells[0]]]


def test_a_cell_at_an_impossible_address_is_placed_in_reading_order(tmp_path: Path) -> None:
    parsed = parse_file(hostile.far_address_hwpx(tmp_path / "far.hwpx", at=30000))
    (table,) = list(parsed.tables())
    assert table.n_rows * table.n_cols <= 4
    assert [c.text for c in table.cells] == ["머리", "값"]


def test_an_ordinary_big_table_is_read_whole(tmp_path: Path) -> None:
    parsed = parse_file(hostile.big_table_hwpx(tmp_path / "big.hwpx", rows=600, cols=12))
    (table,) = list(parsed.tables())
    assert (table.n_rows, table.n_cols) == (600, 12)
    records = table.row_records()
    assert len(records) == 599
    assert "머리11: 598.11" in records[-1]
