"""PDF parser on synthetic HWP-style PDFs: structure, joined lines, running lines, tables, equations, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.errors import KnownError
from kdsdesk.ingest.dispatch import parse_file
from kdsdesk.ingest.pdf import parse_pdf
from kdsdesk.records import ParsedDoc
from kdsdesk.text.chunk import chunk_document
from tests.data import pdf_builder as pb
from tests.data.pdf_docs import encrypted_pdf, scanned_pdf, standard_pdf, truncated_pdf


@pytest.fixture(scope="module")
def std(tmp_path_factory: pytest.TempPathFactory) -> ParsedDoc:
    return parse_pdf(standard_pdf(tmp_path_factory.mktemp("pdf") / "std.pdf"))


def test_doc_meta_and_page_labels(std: ParsedDoc) -> None:
    assert (std.doc.doc_code, std.doc.year, std.doc.title) == ("KDS 99 99 99", "2024", "시험 구조 설계기준")
    assert std.n_pages == 3
    assert dict(std.page_labels) == {0: "1", 1: "2", 2: "3"}


def test_running_header_and_footer_removed(std: ParsedDoc) -> None:
    text = "\n".join(b.text for b in std.blocks)
    assert "KDS 99 99 99" not in text
    assert "- 2 -" not in text
    assert std.stats["running_lines_removed"] >= 6


def test_headings_and_clause_paths(std: ParsedDoc) -> None:
    heads = [(b.clause, b.heading_level) for b in std.blocks if b.kind == "heading"]
    assert heads == [("1", 1), ("1.1", 2), ("1.2", 2), ("2", 1), ("3", 1)]
    first = next(b for b in std.blocks if b.kind == "text")
    assert first.clause == "1.1"
    assert first.clause_path == ("1 일반사항", "1.1 목적")


def test_wrapped_lines_join_with_and_without_space(std: ParsedDoc) -> None:
    para = next(b for b in std.blocks if b.text.startswith("(1) 이 기준은"))
    assert para.item == "(1)"
    assert "아주 특별한 강도를 요구하는" in para.text  # broken inside the word: no space
    assert "설계 자는" in para.text  # a trailing space marks a word break


def test_paragraph_continues_on_next_page(std: ParsedDoc) -> None:
    para = next(b for b in std.blocks if b.text.startswith("(2) 이 문장은"))
    assert para.text.endswith("채워 쓴 것이다.")
    assert para.pages == (0, 1)


def test_spans_point_at_the_text(std: ParsedDoc) -> None:
    for b in std.blocks:
        assert b.spans, b.text
        for s in b.spans:
            assert 0 <= s.start < s.end <= len(b.text)
            assert s.page_index is not None
            assert s.rect is not None
            x0, y0, x1, y1 = s.rect
            assert 0 <= x0 < x1 <= 595
            assert 0 <= y0 < y1 <= 842
    para = next(b for b in std.blocks if b.text.startswith("(2) 이 문장은"))
    assert {s.page_index for s in para.spans} == {0, 1}


def test_table_from_caption_and_rules(std: ParsedDoc) -> None:
    (table,) = list(std.tables())
    assert table.number == "1.2-1"
    assert table.title == "하중계수의 예"
    assert table.origin_grid() == [["하중 종류", "계수"], ["고정하중", "1.2"], ["활하중", "1.6"]]
    assert table.header_rows == 1
    assert table.page_index == 0
    assert table.bbox is not None
    block = next(b for b in std.blocks if b.table is table)
    assert block.text == "표 1.2-1 하중계수의 예\n하중 종류 | 계수\n고정하중 | 1.2\n활하중 | 1.6"
    assert table.row_records()[0].startswith("표 1.2-1 하중계수의 예 | 하중 종류: 고정하중")
    cell = next(s for s in block.spans if block.text[s.start : s.end] == "1.6")
    assert cell.rect is not None
    assert cell.rect[1] > 300


def test_chunks_keep_clauses_apart_and_tables_whole(std: ParsedDoc) -> None:
    chunks = chunk_document(std)
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) == 1
    assert tables[0].text.count("\n") == 3
    assert {c.clause for c in chunks} >= {"1.1", "1.2", "2", "3"}
    for c in chunks:
        assert len({b.clause for b in std.blocks if b.text and b.text in c.text and b.kind != "heading"}) <= 1


def test_inline_equation_lands_in_its_sentence(tmp_path: Path) -> None:
    draws, x = pb.korean("가장 얇은 덧판 두께의", 80, 200, 11)
    eq, x = pb.eq_text("0.75", x + 4, 200, 10)
    draws += eq
    rad, x = pb.radical("E", x, 200, 10)
    draws += rad
    tail, _ = pb.korean("배 이하로 한다.", x + 1, 200, 11)
    draws += tail
    path = pb.write_pdf(tmp_path / "eq.pdf", [draws])
    parsed = parse_pdf(path)
    text = " ".join(b.text for b in parsed.blocks)
    assert "두께의 0.75" in text
    assert text.index("0.75") < text.index("배 이하로")
    assert "\ue03d" not in text
    assert "\ue06d" not in text
    assert parsed.stats["pua_total"] > 0


def test_subscript_symbol_written_f_ck(tmp_path: Path) -> None:
    draws, x = pb.korean("강도", 80, 200, 11)
    eq, x = pb.scripted("f", x + 4, 200, 10, sub="ck")
    draws += eq
    tail, _ = pb.korean("의 값", x + 1, 200, 11)
    path = pb.write_pdf(tmp_path / "sub.pdf", [draws + tail])
    text = " ".join(b.text for b in parse_pdf(path).blocks)
    assert "f_ck" in text or "f_{ck}" in text


def test_encrypted_pdf_is_a_known_error(tmp_path: Path) -> None:
    with pytest.raises(KnownError, match="암호"):
        parse_pdf(encrypted_pdf(tmp_path / "enc.pdf"))


def test_truncated_pdf_is_a_known_error(tmp_path: Path) -> None:
    with pytest.raises(KnownError, match="잘려"):
        parse_file(truncated_pdf(tmp_path / "cut.pdf"))


def test_scanned_pdf_says_ocr_is_not_supported(tmp_path: Path) -> None:
    with pytest.raises(KnownError, match="OCR"):
        parse_pdf(scanned_pdf(tmp_path / "scan.pdf"))


def test_empty_file_is_a_known_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(KnownError, match="0바이트"):
        parse_file(empty)


def test_garbage_after_pdf_magic_is_a_known_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 20)
    with pytest.raises(KnownError):
        parse_file(bad)


def test_text_font_prime_joins_its_equation(tmp_path: Path) -> None:
    """``F'_{nt}`` drawn as 한글 does: ``F`` (equation font), ``'`` (text font), ``nt`` lowered (equation font)."""
    draws, x = pb.korean("응력", 80, 200, 11)
    eq, x = pb.eq_text("F", x + 4, 200, 10)
    draws += eq
    draws.append(pb.Draw("'", x, 200, 10, font="latin"))
    x += 1.8
    sub, x = pb.eq_text("nt", x, 200 + 0.23 * 10, pb.SCRIPT * 10)
    draws += sub
    tail, _ = pb.korean("를 쓴다.", x + 1, 200, 11)
    path = pb.write_pdf(tmp_path / "prime.pdf", [draws + tail])
    text = " ".join(b.text for b in parse_pdf(path).blocks)
    assert "F'_nt" in text or "F'_{nt}" in text


def test_quote_after_equation_stays_text(tmp_path: Path) -> None:
    """A closing quote after an equation, followed by text, is not taken into the equation."""
    draws, x = pb.korean("값", 80, 200, 11)
    draws.append(pb.Draw("'", x + 4, 200, 10, font="latin"))
    eq, x = pb.scripted("f", x + 6, 200, 10, sub="ck")
    draws += eq
    draws.append(pb.Draw("'", x, 200, 10, font="latin"))
    tail, _ = pb.korean("의 값", x + 2, 200, 11)
    path = pb.write_pdf(tmp_path / "quote.pdf", [draws + tail])
    parsed = parse_pdf(path)
    text = " ".join(b.text for b in parsed.blocks)
    assert "'f_ck'" in text
    pieces = [b.text[s.start : s.end] for b in parsed.blocks for s in b.spans]
    assert "f_ck" in pieces
