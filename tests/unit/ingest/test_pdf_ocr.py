"""Lettering drawn as vector outlines and scanned pages, read by the real OCR engine (Tesseract, Korean model):
an outlined table becomes cells, OCR text is marked on its spans and cells, a scan is read instead of refused,
progress is reported and a cancel stops the parse; without OCR the old fallback (unreadable regions) stays."""

from __future__ import annotations

from pathlib import Path

import pytest
from rapidfuzz import fuzz

from kdsdesk.errors import Cancelled, KnownError
from kdsdesk.ingest import ocr
from kdsdesk.ingest.pdf import parse_pdf
from kdsdesk.ingest.pdf_ocr import Word, clean
from kdsdesk.ingest.pdf_outlines import OUTLINE_REASON, TABLE_REASON
from kdsdesk.ingest.pdf_tables import UNREADABLE_MARK
from kdsdesk.ingest.pdf_text import Line, Run
from kdsdesk.records import ParsedDoc, RectT, Table
from tests.data import real_pdfs
from tests.data.outline_docs import (
    CAPTION_TITLE,
    HEADER,
    ROWS,
    SCAN_LINES,
    TOUCHING_LABELS,
    VERTICAL_LABEL,
    VERTICAL_ROWS,
    outlined_table_pdf,
    scanned_pdf,
    touching_comma_table_pdf,
    vertical_label_table_pdf,
)


@pytest.fixture(scope="module", autouse=True)
def _engine() -> None:
    assert ocr.engine() is not None, f"OCR engine missing ({ocr.status()}): run `make venv`"


def _table(parsed: ParsedDoc) -> Table:
    (table,) = [t for t in parsed.tables()]
    return table


def _like(a: str, b: str) -> bool:
    return fuzz.ratio(a.replace(" ", ""), b.replace(" ", "")) >= 80


def test_outlined_table_becomes_cells_marked_ocr(tmp_path: Path) -> None:
    parsed = parse_pdf(outlined_table_pdf(tmp_path / "t.pdf"))
    t = _table(parsed)
    assert t.number == "4.1-1"
    assert _like(t.title, CAPTION_TITLE)
    grid = t.origin_grid()
    assert len(grid) == 1 + len(ROWS)
    assert t.n_cols == 2
    assert all(_like(got or "", want) for got, want in zip(grid[0], HEADER, strict=True))
    for row, (label, value) in zip(grid[1:], ROWS, strict=True):
        assert _like(row[0] or "", label)
        assert row[1] == value  # the text layer's value, not OCR
    cells = {(c.row, c.col): c for c in t.cells}
    assert all(cells[(r, 0)].ocr for r in range(len(grid)))
    assert not any(cells[(r, 1)].ocr for r in range(1, len(grid)))
    (block,) = [b for b in parsed.blocks if b.table is t]
    ocr_spans = [s for s in block.spans if s.ocr is not None]
    assert ocr_spans
    assert all(0.0 <= (s.ocr or 0) <= 1.0 for s in ocr_spans)
    assert any(block.text[s.start : s.end] == ROWS[0][1] and s.ocr is None for s in block.spans)
    assert parsed.ocr_engine.startswith("Tesseract")
    assert not parsed.unreadable
    body = [b for b in parsed.blocks if b.kind == "text"]
    assert body
    assert all(s.ocr is None for b in body for s in b.spans)


def test_without_ocr_outlines_stay_unreadable(tmp_path: Path) -> None:
    parsed = parse_pdf(outlined_table_pdf(tmp_path / "t.pdf"), use_ocr=False)
    assert any(u.reason == OUTLINE_REASON for u in parsed.unreadable)
    assert not parsed.ocr_engine
    assert all(s.ocr is None for b in parsed.blocks for s in b.spans)


def test_scanned_page_is_read_and_marked(tmp_path: Path) -> None:
    path = scanned_pdf(tmp_path / "scan.pdf")
    parsed = parse_pdf(path)
    text = "\n".join(b.text for b in parsed.blocks)
    for line in SCAN_LINES[:2]:
        assert fuzz.partial_ratio(line.replace(" ", ""), text.replace(" ", "")) >= 85
    assert all(s.ocr is not None for b in parsed.blocks for s in b.spans)
    assert parsed.stats["ocr_pages"] == 1
    assert any(b.kind == "heading" and b.clause == "1" for b in parsed.blocks)
    with pytest.raises(KnownError, match="스캔"):
        parse_pdf(path, use_ocr=False)


def test_progress_and_cancel(tmp_path: Path) -> None:
    path = outlined_table_pdf(tmp_path / "t.pdf")
    seen: list[tuple[str, int, int]] = []
    parse_pdf(path, progress=lambda stage, done, total: seen.append((stage, done, total)))
    assert seen
    assert seen[-1][1] == seen[-1][2] > 0
    assert [d for _, d, _ in seen] == sorted(d for _, d, _ in seen)
    with pytest.raises(Cancelled):
        parse_pdf(path, cancelled=lambda: True)


def test_clean_writes_item_numbers_as_the_text_layer() -> None:
    assert clean("( 1) 이 기준은") == "(1) 이 기준은"
    assert clean("( 2 ) _ 강재의") == "(2) 강재의"
    assert clean("b_f ≥ 2/3d") == "b_f ≥ 2/3d"


def test_engine_version_follows_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kdsdesk.index.indexer import parser_version

    base = ocr.engine_version()
    assert base.startswith("tesserocr-")
    assert base in parser_version("pdf")
    model = ocr.find_model()
    assert model is not None
    other = tmp_path / "tessdata"
    other.mkdir()
    (other / ocr.MODEL).write_bytes(model.read_bytes() + b"\0")
    monkeypatch.setenv("KDSDESK_TESSDATA", str(other))
    assert ocr.engine_version() not in (base, "none")
    monkeypatch.setenv("KDSDESK_TESSDATA", str(tmp_path / "empty"))
    monkeypatch.setattr(ocr, "_system_dirs", list)
    monkeypatch.setattr(ocr, "resource", lambda *parts: tmp_path / "none")
    monkeypatch.setattr(ocr.sys, "prefix", str(tmp_path))
    assert ocr.find_model() is None
    assert ocr.engine_version() == "none"
    assert "없습니다" in ocr.status()


@pytest.mark.slow
def test_real_kds_outlined_tables_have_cells(corpus: Path) -> None:
    """KDS 14 31 10: the tables whose Korean labels are outlines (표 4.1-1, 4.2-1, 4.2-2, 4.2-3) are tables again,
    numbered, with OCR'd cells marked, and no longer unreadable regions."""
    parsed = real_pdfs.parsed("KDS143110.pdf")
    by_number = {t.number: t for t in parsed.tables()}
    for number in ("4.1-1", "4.2-1", "4.2-2", "4.2-3"):
        t = by_number[number]
        assert t.n_rows >= 4
        assert t.cells
        assert any(c.ocr for c in t.cells)
        assert any(not c.ocr for c in t.cells)
        assert UNREADABLE_MARK not in "".join(c.text for c in t.cells)
    assert not any(u.reason == TABLE_REASON for u in parsed.unreadable)
    grid = by_number["4.2-3"].origin_grid()
    assert any(row[0] is not None and "계값" in row[0] and row[1:3] == ["0.65", "0.8"] for row in grid)


def test_a_row_single_line_mode_reads_nothing_from_is_read_as_a_raw_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tesseract's single-line mode returns nothing for some short rows; the raw-line mode is then asked."""
    engine = ocr.engine()
    assert engine is not None
    asked = []

    def words(gray: bytes, width: int, height: int, stride: int, dpi: int, psm: object, lines: bool = False):  # type: ignore[no-untyped-def]
        asked.append(psm)
        return [] if psm == engine._t.PSM.SINGLE_LINE else [ocr.OcrWord("받는", (0, 0, 9, 9), 0.9)]

    monkeypatch.setattr(engine, "_words", words)
    assert [w.text for w in engine.read_line(b"\xff" * 100, 10, 10, 10)] == ["받는"]
    assert asked == [engine._t.PSM.SINGLE_LINE, engine._t.PSM.RAW_LINE]


def test_glyph_count_of_a_row() -> None:
    from kdsdesk.ingest.pdf_ocr import glyph_count

    boxes = [(100.0, 100.0, 108.0, 108.0), (109.0, 100.0, 117.0, 108.0), (300.0, 100.0, 308.0, 108.0)]
    assert glyph_count(boxes, (99.5, 100.0, 117.5, 108.0)) == 2


def _joined(runs: list[Run], size: float, row: RectT, words: list[Word]) -> list[Line]:
    """The page's lines after the OCR'd ``words`` of ``row`` were added to one text line of ``runs``."""
    from kdsdesk.ingest.pdf_ocr import add_rows
    from kdsdesk.ingest.pdf_text import PageStats

    line = Line(runs, min(r.y0 for r in runs), max(r.y1 for r in runs))
    line.text, line.size = " ".join(r.text for r in runs), size
    lines = [line]
    rects: dict[tuple[int, RectT], float] = {}
    add_rows(lines, 0, [row], [words], rects, PageStats())
    return lines


def test_an_ocr_row_joins_a_text_line_made_tall_by_an_equation() -> None:
    """"압연" read from outlines between "①" and "H" of the text layer joins their line although a two-storey
    equation further right ("√(E/F_y)") makes that line tall: its centre is its runs' median one."""
    runs = [Run("①", 100.8, 170.1, 109.0, 181.8, 10.0, 179.0, cy=175.95),
            Run("H", 137.5, 170.1, 143.0, 181.8, 10.0, 179.0, cy=175.95),
            Run("E", 305.9, 170.8, 330.0, 196.2, 14.3, 190.0, cy=183.5)]
    row = (116.8, 172.4, 134.0, 180.8)
    lines = _joined(runs, 14.3, row, [("압연", row, 0.9)])
    assert len(lines) == 1
    assert lines[0].text.startswith("① 압연 H")


def test_label_written_downwards_is_read_as_one_word_over_its_rows(tmp_path: Path) -> None:
    """Each syllable of a label drawn one under the other is rendered alone and the images set side by side: the
    engine reads the word, and the cell stands beside the rows it names."""
    t = _table(parse_pdf(vertical_label_table_pdf(tmp_path / "v.pdf")))
    (cell,) = [c for c in t.cells if c.col == 0 and c.row > 0]
    assert _like(cell.text, VERTICAL_LABEL)
    assert cell.ocr
    assert (cell.row, cell.rowspan) == (1, len(VERTICAL_ROWS))
    assert [row[1] for row in t.origin_grid()[1:]] == [label for label, _ in VERTICAL_ROWS]


def test_an_outlined_syllable_a_text_comma_touches_is_read(tmp_path: Path) -> None:
    """Outlined words parted by a comma of the text layer set tight against them ("형강, 강관"): the syllable
    the comma's box reaches into is read with its word, and the comma stays between the words."""
    t = _table(parse_pdf(touching_comma_table_pdf(tmp_path / "c.pdf")))
    labels = [row[0] for row in t.origin_grid()[1:]]
    assert [(label or "").replace(" ", "") for label in labels] == [w.replace(" ", "") for w in TOUCHING_LABELS]


def test_an_ocr_word_box_is_the_outline_shapes_it_holds() -> None:
    """Tesseract's box for "인장력이" stops 2.3 pt inside its last syllable and another reaches over a syllable it
    read as nothing ("경우" of "경우로"): each word's box becomes the union of the drawn shapes whose centres it
    holds, and a shape outside every box goes to the word less than a shape's width away; a far shape (another
    cell's) is nobody's, and a word holding no shape keeps its box."""
    from kdsdesk.ingest.pdf_ocr import fit_words

    glyphs = [(115.0, 154.2, 121.8, 162.5), (123.4, 154.2, 131.5, 162.5), (132.7, 154.2, 139.3, 162.5),
              (141.4, 154.2, 148.1, 162.5), (154.2, 154.4, 162.2, 162.5), (163.1, 154.2, 170.0, 162.5),
              (171.5, 154.6, 179.0, 162.5), (300.0, 154.2, 307.0, 162.5)]
    words = [("인장력이", (115.0, 154.2, 145.8, 162.5), 0.9), ("경우", (154.4, 154.2, 169.5, 162.5), 0.9),
             ("|", (250.0, 154.2, 251.0, 162.5), 0.1)]
    fitted = fit_words(words, glyphs)
    assert [b for _t, b, _c in fitted] == [
        (115.0, 154.2, 148.1, 162.5), (154.2, 154.2, 179.0, 162.5), (250.0, 154.2, 251.0, 162.5)
    ]
    assert [(t, c) for t, _b, c in fitted] == [(t, c) for t, _b, c in words]


def test_an_ocr_row_joins_the_text_line_of_the_runs_beside_it() -> None:
    """"열당 개 이상의" read from outlines, the "3" between its words in the text layer on a line whose other runs
    (an equation of the next cell) stand lower: the row joins that line by the runs beside it, so the digit stands
    between the words ("열당 3개"), not before the row."""
    runs = [Run("3", 220.6, 153.5, 225.5, 165.2, 10.0, 162.0, cy=159.3),
            Run("b", 313.8, 160.9, 316.8, 167.8, 9.0, 166.0, cy=164.3),
            Run("≥2/3d", 320.6, 160.4, 376.7, 167.8, 9.0, 166.0, cy=164.1)]
    words: list[Word] = [("열당", (201.0, 155.8, 219.5, 164.1), 0.9), ("개", (226.1, 155.8, 233.5, 164.1), 0.9),
                         ("이상의", (238.2, 155.8, 262.4, 164.1), 0.9)]
    lines = _joined(runs, 9.0, (201.0, 155.8, 262.4, 164.1), words)
    assert len(lines) == 1
    assert lines[0].text.replace(" ", "").startswith("열당3개이상의")


def test_a_label_also_placed_as_its_picture_is_read_from_its_outlines(tmp_path: Path) -> None:
    """한글 exports some labels twice: as outlines and as a picture of them a few points lower. The picture is left
    out when the outlines are rendered for the engine (read together, the two copies' strokes are other
    syllables: "자유몰룰한" for 자유돌출판)."""
    t = _table(parse_pdf(vertical_label_table_pdf(tmp_path / "v.pdf", picture=7.0)))
    (cell,) = [c for c in t.cells if c.col == 0 and c.row > 0]
    assert cell.text == VERTICAL_LABEL
