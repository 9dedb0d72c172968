"""Clause-aware chunks: never across clauses, whole tables, sentence-bounded splits, stable ids, spans kept."""

from __future__ import annotations

from pathlib import Path

from kdsdesk.ingest.hwpx import parse_hwpx
from kdsdesk.records import Block, DocRef, ParsedDoc, Span, Table, TableCell
from kdsdesk.text.chunk import MAX_CHARS, chunk_document, make_chunk_id, split_sentences

SHA = "ab" * 32
DOC = DocRef(file="/x/doc.hwpx", sha256=SHA, kind="hwpx", doc_code="KDS 1 2 3")


def _text(text: str, clause: str, para: int, kind: str = "text") -> Block:
    return Block(kind=kind, text=text, clause=clause, clause_path=(clause,), paragraphs=(para,),  # type: ignore[arg-type]
                 spans=(Span(0, len(text), paragraph=para),))


def _table() -> Block:
    table = Table(number="1-1", caption="표 1-1 값", n_rows=2, n_cols=2,
                  cells=(TableCell(0, 0, "a"), TableCell(0, 1, "b"), TableCell(1, 0, "1"), TableCell(1, 1, "2")))
    text = "표 1-1 값\na | b\n1 | 2"
    return Block(kind="table", text=text, clause="1.1", clause_path=("1.1",), paragraphs=(5, 6),
                 spans=(Span(0, 7, paragraph=5),), table=table)


def test_chunks_never_span_clauses_and_tables_are_whole() -> None:
    blocks = (
        Block(kind="heading", text="1 일반", clause="1", clause_path=("1 일반",), paragraphs=(0,)),
        _text("(1) 첫 문단이다.", "1", 1),
        _text("(2) 둘째 문단이다.", "1", 2),
        _text("(1) 다른 절이다.", "1.1", 3),
        _table(),
        _text("V_u ≤ φV_n (1-1)", "1.1", 7, kind="equation"),
    )
    chunks = chunk_document(ParsedDoc(doc=DOC, blocks=blocks))
    assert [(c.kind, c.clause) for c in chunks] == [("text", "1"), ("text", "1.1"), ("table", "1.1"),
                                                    ("equation", "1.1")]
    assert chunks[0].text == "(1) 첫 문단이다.\n(2) 둘째 문단이다."
    assert chunks[0].paragraphs == (1, 2)
    assert chunks[0].item == ""
    assert chunks[2].table is not None
    assert chunks[2].table_number == "1-1"
    assert chunks[2].text == _table().text
    assert [c.ordinal for c in chunks] == [0, 1, 2, 3]
    assert chunks[1].chunk_id == make_chunk_id(SHA, 1) == f"{SHA[:16]}-00001"
    # spans are offsets into the chunk text, shifted past earlier pieces
    second = chunks[0].spans[1]
    assert chunks[0].text[second.start:second.end] == "(2) 둘째 문단이다."


def test_long_text_is_split_at_sentence_ends_with_spans_rebased() -> None:
    sentence = "이 문장은 충분히 길게 써서 여러 청크로 나뉘도록 만든 시험용 문장이다. "
    text = (sentence * 40).strip()
    chunks = chunk_document(ParsedDoc(doc=DOC, blocks=(_text(text, "2", 9),)))
    assert len(chunks) > 1
    for c in chunks:
        assert len(c.text) <= MAX_CHARS + len(sentence)
        assert c.text.endswith("다.")
        assert c.clause == "2"
        for s in c.spans:
            assert 0 <= s.start < s.end <= len(c.text)
            assert s.paragraph == 9
    assert " ".join(c.text for c in chunks) == text  # sentences of one block stay joined by their space


def test_split_sentences_covers_text() -> None:
    text = "첫째다. 둘째다. (1) 셋째"
    ranges = split_sentences(text)
    assert [text[a:b] for a, b in ranges] == ["첫째다.", "둘째다.", "(1) 셋째"]


def test_sample_chunks_are_stable_and_clause_pure(samples: Path) -> None:
    parsed = parse_hwpx(samples / "dev-kds-14-20-22.hwpx")
    first, second = chunk_document(parsed), chunk_document(parsed)
    assert [c.chunk_id for c in first] == [c.chunk_id for c in second]
    assert len({c.chunk_id for c in first}) == len(first)
    by_para = {q: b.clause for b in parsed.blocks for q in b.paragraphs}
    for c in first:
        assert {by_para[q] for q in c.paragraphs} == {c.clause}
    tables = [c for c in first if c.kind == "table"]
    assert [c.table_number for c in tables] == ["3.1-1", "3.2-1", "4.1-1", "4.2-1", "4.4-1"]


def _part_doc(clause: str, title: str) -> ParsedDoc:
    doc = DocRef("/x/KDS143110-2.pdf", "a" * 64, "pdf", "KDS 14 31 10")
    path = (f"{clause} {title}",)
    return ParsedDoc(doc, (
        Block("text", "(2) 플랜지 국부좌굴강도는 다음과 같다."),
        Block("heading", path[0], clause, path, heading_level=clause.count(".") + 1),
        Block("text", "(1) 각형강관은 다음에 따른다.", clause, path),
    ))


def test_text_before_a_parts_first_heading_has_a_clause() -> None:
    """A later part of a standard: leading text continues the previous part's clause when it is known, else it
    belongs to the parent of the part's first heading; a top-level first heading leaves front matter alone."""
    parsed = _part_doc("4.3.2.1.1.7", "각형강관")
    first = chunk_document(parsed)[0]
    assert (first.clause, first.clause_path) == ("4.3.2.1.1", ("4.3.2.1.1",))
    lead = ("4.3.2.1.1.6", ("4 설계", "4.3 휨부재", "4.3.2.1.1.6 원형강관"))
    first = chunk_document(parsed, lead)[0]
    assert (first.clause, first.clause_path) == lead
    assert chunk_document(parsed, lead)[1].clause == "4.3.2.1.1.7"
    front = chunk_document(_part_doc("1", "일반사항"))[0]
    assert front.clause == ""
    assert chunk_document(_part_doc("1.1", "목적"))[0].clause == ""  # chapter 1's title was not read
