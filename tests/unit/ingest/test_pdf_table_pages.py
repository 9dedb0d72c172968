"""Tables cut by a page break: the part at the top of the next page joins the numbered table it continues (header
repeated or not), and only when it is one; a table split on one page by a merged first-column cell stays whole;
a running header rule does not become a table's first rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.ingest.pdf import parse_pdf
from kdsdesk.records import Block, ParsedDoc, Table
from tests.data import real_pdfs
from tests.data.pdf_table_docs import HEADER, ROWS_1, ROWS_2, continued_table_pdf


def _tables(parsed: ParsedDoc) -> list[Block]:
    return [b for b in parsed.blocks if b.table is not None]


def _table(block: Block) -> Table:
    assert block.table is not None
    return block.table


@pytest.mark.parametrize("repeat_header", [True, False])
def test_continuation_joins_the_numbered_table(tmp_path: Path, repeat_header: bool) -> None:
    parsed = parse_pdf(continued_table_pdf(tmp_path / "t.pdf", repeat_header=repeat_header))
    (block,) = _tables(parsed)
    table = block.table
    assert table is not None
    assert (table.number, table.page_index, block.pages) == ("2.1-1", 0, (0, 1))
    assert table.header_rows == 1
    assert table.origin_grid() == [list(HEADER), *map(list, ROWS_1), *map(list, ROWS_2)]
    assert not any(c.is_header for c in table.cells if c.row >= 1)
    assert parsed.stats["tables"] == 1
    # every row record names the table and the column headers, also for the rows of the second page
    last = "표 2.1-1 구조용 강재의 강도 | 강재 종류: SM395 · 항복강도(MPa): 395 · 인장강도(MPa): 560"
    assert table.row_records()[-1] == last
    # spans point at the right page
    for s in block.spans:
        word = block.text[s.start : s.end]
        if word.startswith("SM"):
            assert s.page_index == 1
        elif word.startswith("SS"):
            assert s.page_index == 0
    assert {s.page_index for s in block.spans} == {0, 1}
    assert block.text.count("강재 종류") == 1


def test_caption_with_the_same_number_continues_too(tmp_path: Path) -> None:
    path = continued_table_pdf(tmp_path / "t.pdf", caption2="표 2.1-1 구조용 강재의 강도 (계속)")
    (block,) = _tables(parse_pdf(path))
    assert block.table is not None
    assert block.table.n_rows == 1 + len(ROWS_1) + len(ROWS_2)
    assert block.text.splitlines()[0] == "표 2.1-1 구조용 강재의 강도"


def test_text_between_the_parts_keeps_them_apart(tmp_path: Path) -> None:
    parsed = parse_pdf(continued_table_pdf(tmp_path / "t.pdf", text_between=True))
    first, second = _tables(parsed)
    assert (_table(first).number, first.pages, _table(second).number, second.pages) == ("2.1-1", (0,), "", (1,))


def test_other_columns_are_another_table(tmp_path: Path) -> None:
    first, second = _tables(parse_pdf(continued_table_pdf(tmp_path / "t.pdf", other_columns=True)))
    assert (_table(first).n_cols, _table(second).n_cols) == (3, 4)
    assert first.pages == (0,)


def test_own_caption_is_another_table(tmp_path: Path) -> None:
    first, second = _tables(parse_pdf(continued_table_pdf(tmp_path / "t.pdf", caption2="표 2.1-2 용접 구조용 강재")))
    assert (_table(first).number, _table(second).number) == ("2.1-1", "2.1-2")


@pytest.mark.slow
def test_real_kds_table_across_a_page_break(corpus: Path) -> None:
    """KDS 14 31 05 표 3.1-1: a first-column cell merged down several rows (rules under the other columns only)
    and a page break with the header repeated; one table, numbered, over both pages."""
    parsed = real_pdfs.parsed("KDS143105.pdf")
    blocks = [b for b in _tables(parsed) if b.table is not None and b.table.number == "3.1-1"]
    assert len(blocks) == 1
    block = blocks[0]
    assert block.table is not None
    assert block.pages == (41, 42)
    assert "SPA-H, SPA-C" in block.text  # last row, second page
    assert "KS D 3003" in block.text  # the row under the merged first-column cell, first page
    assert block.text.count("강재기호") == 1
    assert not any(b.table is not None and not b.table.number and 41 in b.pages for b in parsed.blocks)


@pytest.mark.slow
def test_running_header_rule_is_not_a_table_rule(corpus: Path) -> None:
    """KDS 14 31 10-1: the header rule (on every page with drawings, which are the only pages whose rules are
    read) used to open the tables at the top of a page, swallowing the outlined caption number above the table."""
    parsed = real_pdfs.parsed("KDS143110-1.pdf")
    numbers = {b.table.number for b in _tables(parsed) if b.table is not None}
    assert {"4.3-1", "4.3-2", "4.3-3"} <= numbers
    for b in _tables(parsed):
        bbox = _table(b).bbox
        assert bbox is not None
        assert bbox[1] > 0.12 * 842
