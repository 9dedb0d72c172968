"""Field terms cut from one Kiwi pass: definition lines, table cells and row records (merged cells resolved)."""

from __future__ import annotations

from pathlib import Path

from kdsdesk.index.lexical import LexicalIndex
from kdsdesk.index.terms import cell_offsets, definition_lines, lexdocs
from kdsdesk.records import Chunk, DocRef, Table, TableCell
from kdsdesk.text.korean import tokenize
from kdsdesk.text.symbols import normalize

DOC = DocRef("/x/a.pdf", "ab" * 32, "pdf", "KDS 1", "시험 기준", "2024")
TABLE = Table(
    number="3.2-1",
    caption="표 3.2-1 철근의 항복강도 상한값",
    n_rows=4,
    n_cols=3,
    cells=(
        TableCell(0, 0, "철근 종류", rowspan=2, is_header=True),
        TableCell(0, 1, "상한값(MPa)", colspan=2, is_header=True),
        TableCell(1, 1, "일반 부재", is_header=True),
        TableCell(1, 2, "특수 부재", is_header=True),
        TableCell(2, 0, "수직 스터럽", rowspan=2),
        TableCell(2, 1, "500"),
        TableCell(2, 2, "400"),
        TableCell(3, 1, "600"),
        TableCell(3, 2, "500"),
    ),
    header_rows=2,
)


def _table_chunk() -> Chunk:
    text = "\n".join([TABLE.caption, *TABLE.rows_text()])
    return Chunk("ab-00001", DOC, "table", text, clause="3.2", table=TABLE, ordinal=1)


def test_definition_lines() -> None:
    text = "(1) 깊은 보: 순경간이 짧은 보\n비율은 다음과 같다:\n여기서, A_{v,min} : 최소 전단철근 단면적(mm²)"
    found = [(text[a:b], text[c:d]) for a, b, c, d in definition_lines(text)]
    assert found == [
        ("깊은 보", "(1) 깊은 보: 순경간이 짧은 보"),
        ("A_{v,min}", "여기서, A_{v,min} : 최소 전단철근 단면적(mm²)"),
    ]


def test_cell_offsets_follow_the_chunk_layout() -> None:
    chunk = _table_chunk()
    text = normalize(chunk.text)
    offsets = cell_offsets(text, TABLE)
    assert offsets is not None
    assert text[slice(*offsets[(2, 0)])] == "수직 스터럽"
    assert text[slice(*offsets[(3, 2)])] == "500"
    assert cell_offsets(text + "\n주) 비고", TABLE) is None


def test_row_terms_equal_the_row_records_terms() -> None:
    doc, profile = lexdocs([_table_chunk()])  # the chunk, then the file's profile
    assert profile.chunk_id.startswith("profile:")
    records = TABLE.row_records()
    assert len(doc.rows) == len(records) == 2
    for got, record in zip(doc.rows, records, strict=True):
        expected = [t for t in tokenize(record) if t not in ("표", "3.2-1")]
        assert "".join(got) == "".join(expected)  # same terms in order (Kiwi may split 상한값 by context)
    assert doc.title == tokenize("철근의 항복강도 상한값")
    assert doc.table_no == "3.2-1"


def test_odd_table_text_falls_back_to_cells() -> None:
    chunk = _table_chunk()
    odd = Chunk(chunk.chunk_id, DOC, "table", chunk.text + "\n주) 값은 MPa", clause="3.2", table=TABLE)
    assert lexdocs([odd])[0].rows == lexdocs([chunk])[0].rows


def test_definition_lines_are_sub_documents(tmp_path: Path) -> None:
    text = "(1) 깊은 보: 순경간이 부재 깊이의 4배 이하인 보\n(2) 전단마찰: 균열면을 가로지르는 철근의 마찰력"
    chunk = Chunk("ab-00002", DOC, "text", text, clause="1.4", ordinal=2)
    other = Chunk("ab-00003", DOC, "text", "전단마찰 전단마찰 설계 시 마찰계수를 쓴다.", clause="4.4", ordinal=3)
    docs = lexdocs([chunk, other])
    assert [tokenize("전단마찰")[0] in line.defs for line in docs[0].lines] == [False, True]
    idx = LexicalIndex(tmp_path / "lex")
    idx.replace_file(DOC.file, docs)
    hits = idx.search(tokenize("전단마찰이란?"))
    assert [h.chunk_id for h in hits] == ["ab-00002", "ab-00003"]  # one hit per chunk, the definition first


def test_own_heading_terms_count_twice_in_the_path() -> None:
    """A short clause whose own heading names what a question asks about ("4.2 운행을 위한 한계조건 — KDS 24 10 10
    (4.2)를 따른다.") is found by that heading: its terms are in the path once more than its ancestors'."""
    from kdsdesk.index.terms import own_heading

    assert own_heading(("4 설계", "4.3 보강조적조의 구조세칙", "4.3.2 원형철근")) == "원형철근"
    assert own_heading(("A.1 부록 일반",)) == "부록 일반"
    assert own_heading(()) == ""
    chunk = Chunk("ab-00004", DOC, "text", "(1) KDS 24 10 10 (4.2)를 따른다.", clause="4.2",
                  clause_path=("4 설계", "4.2 운행을 위한 한계조건"), ordinal=4)  # fmt: skip
    path = list(lexdocs([chunk])[0].path)
    assert path.count("한계") == 2
    assert path.count("설계") == 1
