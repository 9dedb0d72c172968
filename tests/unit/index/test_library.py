"""The catalog: add/skip/replace/fail/remove, exact chunk round-trip, grouping by code, versions, repair, threads."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kdsdesk.index import indexer
from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import INTERRUPTED_MESSAGE, Catalog
from kdsdesk.index.serial import chunk_from_dict, chunk_to_dict
from kdsdesk.service import drain
from kdsdesk.text.chunk import chunk_document
from tests.data.synthetic_docs import fake_parse, make_library_files, read_spec, write_spec


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return make_library_files(tmp_path / "docs")


@pytest.fixture
def catalog(tmp_path: Path) -> Iterator[Catalog]:
    cat = Catalog(tmp_path / "lib")
    yield cat
    cat.close()


def test_add_then_unchanged_files_are_skipped(catalog: Catalog, files: dict[str, Path]) -> None:
    first = drain(add_files(catalog, list(files.values()), parse=fake_parse))
    assert len(first.added) == 3
    assert not first.failed
    calls: list[Path] = []

    def counting(p: Path):  # type: ignore[no-untyped-def]
        calls.append(p)
        return fake_parse(p)

    second = drain(add_files(catalog, list(files.values()), parse=counting))
    assert len(second.skipped) == 3
    assert not second.added
    assert not second.replaced
    assert calls == []  # skipped by hash, never parsed


def test_folder_is_expanded_and_documents_grouped_by_code(catalog: Catalog, files: dict[str, Path]) -> None:
    drain(add_files(catalog, [files["shear_pdf"].parent], parse=fake_parse))
    docs = catalog.documents()
    assert [d.doc_code for d in docs] == ["KDS 14 20 22", "KDS 14 20 22", "KDS 14 31 25"]
    assert all(d.status == "searchable" and d.n_chunks > 0 for d in docs)
    groups = catalog.documents_by_code()
    assert {d.kind for d in groups["KDS 14 20 22"]} == {"pdf", "hwpx"}
    assert all(d.year == "2022" for d in docs)


def test_changed_file_is_replaced(catalog: Catalog, files: dict[str, Path]) -> None:
    drain(add_files(catalog, [files["steel_pdf"]], parse=fake_parse))
    spec, _ = read_spec(files["steel_pdf"])
    spec["blocks"].append(["4.4.1", "text", "(1) 새로 추가된 미끄럼계수 규정"])
    write_spec(files["steel_pdf"], spec)
    report = drain(add_files(catalog, [files["steel_pdf"]], parse=fake_parse))
    assert report.replaced == (str(files["steel_pdf"].resolve()),)
    clauses = {c.clause for c in catalog.iter_chunks()}
    assert "4.4.1" in clauses
    assert len(catalog.documents()) == 1


def test_failure_is_recorded_and_the_run_goes_on(catalog: Catalog, files: dict[str, Path], tmp_path: Path) -> None:
    bad = write_spec(tmp_path / "docs" / "bad.pdf", {"fail": "암호가 걸린 PDF입니다.", "blocks": []})
    empty = tmp_path / "docs" / "empty.pdf"
    empty.write_bytes(b"")
    report = drain(add_files(catalog, [bad, empty, files["steel_pdf"]], parse=fake_parse))
    assert report.added == (str(files["steel_pdf"].resolve()),)
    failed = dict(report.failed)
    assert failed[str(bad.resolve())] == "암호가 걸린 PDF입니다."
    assert "빈 파일" in failed[str(empty.resolve())]
    by_file = {d.file: d for d in catalog.documents()}
    assert by_file[str(bad.resolve())].status == "failed"
    assert by_file[str(bad.resolve())].message == "암호가 걸린 PDF입니다."


def test_chunks_round_trip_exactly(catalog: Catalog, files: dict[str, Path]) -> None:
    drain(add_files(catalog, [files["shear_pdf"]], parse=fake_parse))
    expected = chunk_document(fake_parse(files["shear_pdf"]))
    stored = list(catalog.iter_chunks())
    assert stored == expected
    assert catalog.chunks([expected[2].chunk_id, "nope", expected[0].chunk_id]) == [expected[2], expected[0]]
    assert catalog.chunk(expected[1].chunk_id) == expected[1]
    table = next(c for c in expected if c.table is not None)
    assert chunk_from_dict(chunk_to_dict(table)) == table
    assert chunk_from_dict(chunk_to_dict(table, with_doc=False), table.doc) == table


def test_remove_file_and_folder(catalog: Catalog, files: dict[str, Path]) -> None:
    drain(add_files(catalog, list(files.values()), parse=fake_parse))
    assert catalog.remove([files["steel_pdf"]]) == 1
    assert catalog.lexical.search(["f13t"]) == []
    assert catalog.remove([files["shear_pdf"].parent]) == 2
    assert catalog.documents() == []
    assert list(catalog.iter_chunks()) == []


def test_version_change_reindexes(catalog: Catalog, files: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    drain(add_files(catalog, [files["steel_pdf"]], parse=fake_parse))
    monkeypatch.setattr(indexer, "tokenizer_version", lambda: "tok-test-next")
    assert indexer.stale_files(catalog) == [files["steel_pdf"].resolve()]
    report = drain(add_files(catalog, [files["steel_pdf"]], parse=fake_parse))
    assert report.replaced == (str(files["steel_pdf"].resolve()),)
    monkeypatch.setattr(indexer, "parser_version", lambda kind: "pdf-99")
    report = drain(add_files(catalog, [files["steel_pdf"]], parse=fake_parse))
    assert report.replaced == (str(files["steel_pdf"].resolve()),)


def test_version_and_source_checks_read_the_catalog_once_whatever_the_number_of_files(
    catalog: Catalog, files: dict[str, Path]
) -> None:
    """``stale_files`` and ``source_changes`` ask the catalog one query for all files (not one per file: a library
    of 350 standards is checked when the window opens and before each answer)."""
    drain(add_files(catalog, list(files.values()), parse=fake_parse))
    catalog.db().execute("UPDATE files SET parser_version = 'pdf-0' WHERE kind = 'pdf'")  # an older app's
    catalog.db().commit()
    selects: list[str] = []

    def traced(sql: str) -> None:
        if sql.lstrip().upper().startswith("SELECT"):
            selects.append(sql)

    catalog.db().set_trace_callback(traced)
    try:
        stale = indexer.stale_files(catalog)
        assert len(selects) == 1
        pdfs = sorted(str(p.resolve()) for p in files.values() if p.suffix == ".pdf")
        assert sorted(map(str, stale)) == pdfs
        selects.clear()
        every = [d.file for d in catalog.documents() if d.status == "searchable"]
        selects.clear()
        Path(every[0]).unlink()
        assert catalog.source_changes([*every, "/not/in/the/catalog.pdf"]) == {every[0]: "missing"}
        assert len(selects) == 1
    finally:
        catalog.db().set_trace_callback(None)


def test_a_lexical_layout_change_reindexes_without_damage(tmp_path: Path, files: dict[str, Path]) -> None:
    """An index of an older layout (``LEXICAL_SCHEMA_VERSION`` bumped) is rebuilt by the next writer: no
    "search index missing" damage, every file re-indexed and searchable again."""
    cat = Catalog(tmp_path / "lib")
    drain(add_files(cat, [files["steel_pdf"]], parse=fake_parse))
    found = [h.chunk_id for h in cat.lexical.search(["f13t"])]
    assert found
    cat.db().execute("UPDATE meta SET value = 'old' WHERE key = 'lexical_schema'")
    cat.db().commit()
    cat.close()
    again = Catalog(tmp_path / "lib")
    report = drain(add_files(again, [files["steel_pdf"]], parse=fake_parse))
    assert report.replaced == (str(files["steel_pdf"].resolve()),)
    assert [h.chunk_id for h in again.lexical.search(["f13t"])] == found
    again.close()


def test_a_file_left_indexing_is_shown_interrupted_and_repaired_by_the_next_writer(
    tmp_path: Path, files: dict[str, Path]
) -> None:
    cat = Catalog(tmp_path / "lib")
    drain(add_files(cat, [files["steel_pdf"], files["shear_pdf"]], parse=fake_parse))
    # simulate a crash after the Tantivy commit of a replacement but before the catalog commit
    key = str(files["steel_pdf"].resolve())
    cat.begin_file(key, "pdf", "x", 1, 1.0)
    cat.close()
    cat = Catalog(tmp_path / "lib")  # a reader: shows the leftover as interrupted, changes nothing
    by_file = {d.file: d for d in cat.documents()}
    assert by_file[key].status == "failed"
    assert by_file[key].message == INTERRUPTED_MESSAGE
    assert by_file[str(files["shear_pdf"].resolve())].status == "searchable"
    assert cat.file_row(key)["status"] == "indexing"  # type: ignore[index]
    with cat.writing():  # the first writer repairs
        assert cat.file_row(key)["status"] == "failed"  # type: ignore[index]
        assert cat.lexical.search(["f13t"]) == []
    report = drain(add_files(cat, [files["steel_pdf"]], parse=fake_parse))
    assert report.added == (key,) or report.replaced == (key,)
    assert cat.lexical.search(["f13t"])
    cat.close()


def test_unanswered_log(catalog: Catalog) -> None:
    catalog.log_unanswered("풍하중  계수는?", "restricted")
    catalog.log_unanswered("풍하중 계수는?", "unverified")
    catalog.log_unanswered("적설하중은?", "restricted")
    rows = catalog.unanswered()
    assert rows[0][0] == "풍하중 계수는?"
    assert rows[0][1] == 2
    assert rows[0][3] == "unverified"
    assert rows[1][:2] == ("적설하중은?", 1)
    assert "T" in rows[0][2]  # ISO time


def test_reads_from_other_threads(catalog: Catalog, files: dict[str, Path]) -> None:
    drain(add_files(catalog, [files["shear_pdf"]], parse=fake_parse))
    ids = [c.chunk_id for c in catalog.iter_chunks()]
    got: list[int] = []

    def reader() -> None:
        got.append(len(catalog.chunks(ids)) + len(catalog.documents()))

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [len(ids) + 1] * 3


def test_spans_are_packed_exactly_and_light_chunks_skip_them(catalog: Catalog, files: dict[str, Path]) -> None:
    from kdsdesk.index.serial import spans_from_blob, spans_to_blob
    from kdsdesk.records import Span

    spans = (Span(0, 3, 2, (0.1, 72.02400207519531, 1e-9, 595.2756)), Span(3, 9, None, None, 17), Span(9, 9))
    assert spans_from_blob(spans_to_blob(spans)) == spans
    drain(add_files(catalog, [files["shear_pdf"]], parse=fake_parse))
    ids = [c.chunk_id for c in catalog.iter_chunks()]
    light = catalog.chunks(ids, light=True)
    full = catalog.chunks(ids)
    assert [c.spans for c in light] == [()] * len(ids)
    assert all(c.spans for c in full)
    assert [(c.text, c.clause, c.table) for c in light] == [(c.text, c.clause, c.table) for c in full]
    assert catalog.chunks(ids[:1], light=True)[0] is full[0]  # a full chunk already loaded serves light requests


def test_catalog_of_schema_1_still_reads(tmp_path: Path, files: dict[str, Path]) -> None:
    import json

    cat = Catalog(tmp_path / "lib")
    drain(add_files(cat, [files["steel_pdf"]], parse=fake_parse))
    expected = list(cat.iter_chunks())
    db = cat.db()
    for c in expected:  # the schema-1 layout: spans inside the JSON, no packed column value
        db.execute(
            "UPDATE chunks SET data = ?, spans = NULL WHERE chunk_id = ?",
            (json.dumps(chunk_to_dict(c, with_doc=False)), c.chunk_id),
        )
    db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    db.commit()
    cat.close()
    again = Catalog(tmp_path / "lib")
    assert list(again.iter_chunks()) == expected
    assert again.meta("schema_version") == "2"
    again.close()


def test_many_spans_are_compressed_exactly() -> None:
    from kdsdesk.index.serial import spans_from_blob, spans_to_blob
    from kdsdesk.records import Span

    spans = tuple(Span(i, i + 1, i // 40, (72.0 + i * 0.1, 100.5, 80.25 + i, 112.0)) for i in range(90))
    blob = spans_to_blob(spans)
    assert len(blob) < 90 * 40
    assert spans_from_blob(blob) == spans
    assert spans_from_blob(spans_to_blob(())) == ()


def test_hwp_files_in_a_folder_are_reported_not_skipped(catalog: Catalog, tmp_path: Path) -> None:
    folder = tmp_path / "한글 문서"
    folder.mkdir()
    (folder / "기준.hwp").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)  # HWP 5 (OLE) header
    (folder / "메모.txt").write_text("색인 대상 아님", encoding="utf-8")
    report = drain(add_files(catalog, [folder]))
    assert [Path(f).name for f, _ in report.failed] == ["기준.hwp"]
    assert "HWPX" in report.failed[0][1]  # says how to save it so it can be read


def test_ocr_provenance_survives_the_catalog(catalog: Catalog, tmp_path: Path) -> None:
    """Spans read by OCR (their confidence), OCR'd table cells and the chunk's engine come back from the catalog."""
    from kdsdesk.ingest.pdf import parse_pdf
    from kdsdesk.records import ParsedDoc
    from tests.data.outline_docs import outlined_table_pdf

    path = outlined_table_pdf(tmp_path / "o.pdf")
    parsed = parse_pdf(path)

    def parse(_p: Path) -> ParsedDoc:
        return parsed

    drain(add_files(catalog, [path], parse=parse))
    stored = list(catalog.iter_chunks())
    assert stored == chunk_document(parsed)
    table = next(c for c in stored if c.table is not None)
    assert table.table is not None
    assert table.ocr.startswith("Tesseract")
    assert any(s.ocr is not None for s in table.spans)
    assert any(c.ocr for c in table.table.cells)
    assert catalog.chunk(table.chunk_id) == table
    assert chunk_from_dict(chunk_to_dict(table)) == table
    assert all(not c.ocr for c in stored if c.table is None)


def test_a_part_continues_the_clause_of_the_previous_part(catalog: Catalog, tmp_path: Path) -> None:
    """KDS143110-1 starts in the middle of 4.2.4 of KDS143110: its leading text gets 4.2.4, whatever order the
    files are given in; the part indexed alone falls back to the parent of its first heading."""
    from kdsdesk.records import Block, DocRef, ParsedDoc

    base, part = tmp_path / "KDS143110.pdf", tmp_path / "KDS143110-1.pdf"
    for i, f in enumerate((base, part)):
        f.write_bytes(b"%PDF-1.7\n" + bytes([i]) * 64 + b"\n%%EOF\n")
    h424 = ("4 설계", "4.2 압축부재", "4.2.4 비틀림좌굴")

    def parse(p: Path) -> ParsedDoc:
        from kdsdesk.hashing import sha256_of

        doc = DocRef(str(p), sha256_of(p), "pdf", "KDS 14 31 10")
        if p == base:
            return ParsedDoc(doc, (Block("heading", h424[-1], "4.2.4", h424, heading_level=3),
                                   Block("text", "(1) 비틀림좌굴강도는 다음과 같다.", "4.2.4", h424)))
        h425 = ("4.2.5 단일ㄱ형강 압축부재",)
        return ParsedDoc(doc, (Block("text", "④ 전단중심으로부터 떨어진 횡지지를 갖는 부재"),
                               Block("heading", h425[0], "4.2.5", h425, heading_level=3),
                               Block("text", "(1) 이 절은 단일ㄱ형강에 적용한다.", "4.2.5", h425)))

    drain(add_files(catalog, [part, base], parse=parse))
    lead = next(iter(catalog.iter_chunks(str(part))))
    assert (lead.clause, lead.clause_path) == ("4.2.4", h424)
    alone = Catalog(tmp_path / "alone")
    try:
        drain(add_files(alone, [part], parse=parse))
        first = next(iter(alone.iter_chunks(str(part))))
        assert first.clause == "4.2"
    finally:
        alone.close()


@pytest.mark.slow
def test_indexing_reports_ocr_progress(catalog: Catalog, tmp_path: Path) -> None:
    """The isolated parser's OCR progress reaches the indexing generator (the window's progress bar)."""
    from tests.data.outline_docs import outlined_table_pdf

    path = outlined_table_pdf(tmp_path / "o.pdf")
    steps = []
    gen = add_files(catalog, [path])
    try:
        while True:
            steps.append(next(gen))
    except StopIteration as stop:
        report = stop.value
    assert report.added == (str(path),)
    ocr_steps = [p for p in steps if p.stage == "문자 인식"]
    assert ocr_steps
    assert ocr_steps[-1].detail == path.name
    assert ocr_steps[-1].total > 0


def test_one_content_at_several_paths_is_listed_at_each_and_survives_removing_one(
    catalog: Catalog, files: dict[str, Path], tmp_path: Path
) -> None:
    import shutil

    from kdsdesk.retrieve.hybrid import search

    original = files["steel_pdf"].resolve()
    copy = Path(shutil.copy2(original, tmp_path / "copy-of-steel.pdf")).resolve()
    drain(add_files(catalog, [original], parse=fake_parse))
    report = drain(add_files(catalog, [copy], parse=fake_parse))
    assert report.duplicates == ((str(copy), str(original)),)
    assert report.skipped == ()  # not "unchanged": a new path with known content
    listed = {d.file: d for d in catalog.documents()}
    assert set(listed) == {str(original), str(copy)}
    assert listed[str(copy)].status == "searchable"
    assert original.name in listed[str(copy)].message
    assert catalog.remove([original]) == 1
    assert [d.file for d in catalog.documents()] == [str(copy)]
    hits = search(catalog, "고력볼트", dense=False)
    assert hits
    assert hits[0].chunk.doc.file == str(copy)  # the copy took its place, searchable
    assert catalog.remove([copy]) == 1
    assert catalog.documents() == []
    assert search(catalog, "고력볼트", dense=False) == []
