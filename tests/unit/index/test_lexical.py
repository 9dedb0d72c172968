"""The Tantivy index: term queries only (no syntax errors), field weights, filters, deletes, reopen."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.index.lexical import LexDoc, LexicalIndex


def _docs() -> list[LexDoc]:
    return [
        LexDoc("a-1", "/x/a.pdf", "KDS 1", body=["전단", "철근", "간격"], rows=[["f13t", "260"], ["f10t", "200"]]),
        LexDoc("a-2", "/x/a.pdf", "KDS 1", body=["콘크리트", "강도"], title=["강도", "감소", "계수"], table_no="4.1-1"),
        LexDoc("b-1", "/x/b.pdf", "KDS 2", body=["전단", "마찰"], defs=["전단마찰", "전단", "단마", "마찰"]),
    ]


@pytest.fixture
def index(tmp_path: Path) -> LexicalIndex:
    idx = LexicalIndex(tmp_path / "lex")
    idx.replace_file("/x/a.pdf", _docs()[:2])
    idx.replace_file("/x/b.pdf", _docs()[2:])
    return idx


def test_search_and_filter(index: LexicalIndex) -> None:
    assert {h.chunk_id for h in index.search(["전단"])} == {"a-1", "b-1"}
    assert [h.chunk_id for h in index.search(["전단"], doc_codes=["KDS 2"])] == ["b-1"]
    assert index.by_table_no("4.1-1") == ["a-2"]


def test_query_syntax_characters_are_plain_terms(index: LexicalIndex) -> None:
    for weird in ('"', "(", "AND", "title:x", "*", "\\", "~2", "[1 TO 2]", "-", "+"):
        assert index.search([weird]) == []
    assert index.search([]) == []


def test_stored_title_and_rows_for_routes(index: LexicalIndex) -> None:
    hits = index.search_field("rows", ["f13t"])
    assert hits[0].chunk_id == "a-1"
    assert hits[0].stored["rows"][0].split("\n") == ["f13t 260", "f10t 200"]
    assert index.search_field("title", ["계수"])[0].stored["title"] == ["강도 감소 계수"]


def test_definition_field_outweighs_mere_use(index: LexicalIndex) -> None:
    assert index.search(["마찰"])[0].chunk_id == "b-1"


def test_replace_and_delete(index: LexicalIndex) -> None:
    index.replace_file("/x/a.pdf", [LexDoc("a-9", "/x/a.pdf", "KDS 1", body=["새"])])
    assert index.search(["철근"]) == []
    assert [h.chunk_id for h in index.search(["새"])] == ["a-9"]
    index.delete_files(["/x/a.pdf"])
    assert index.search(["새"]) == []
    assert index.num_docs() == 1


def test_reopen_registers_the_analyzer_again(index: LexicalIndex, tmp_path: Path) -> None:
    index.close()
    again = LexicalIndex(tmp_path / "lex")
    assert {h.chunk_id for h in again.search(["전단"])} == {"a-1", "b-1"}
    again.replace_file("/x/c.pdf", [LexDoc("c-1", "/x/c.pdf", "KDS 3", body=["Upper", "lower"])])
    assert [h.chunk_id for h in again.search(["upper"])] == ["c-1"]
    assert again.doc_freq("body", "전단") == 2
