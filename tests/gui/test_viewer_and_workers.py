"""Page viewer on the bundled PDF (highlight only a verified quote), HWPX clause view, workers and lanes."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

from kdsdesk.records import Alternative, Answer, Chunk, Citation, DocRef, Draft, Progress, Table, TableCell, Verdict
from kdsdesk.ui.answer_view import AnswerView, citation_text
from kdsdesk.ui.page_viewer import PageViewer, chunk_html, marked_cells
from kdsdesk.ui.render import PageRenderer
from kdsdesk.ui.workers import Lane

QUOTE = "보행자용 난간의 상단에 작용하는 수평 등분포하중"


def _pdf_citation(pdf: Path, verified: bool) -> Citation:
    import pymupdf

    with pymupdf.open(pdf) as doc:
        page = next(i for i in range(doc.page_count) if doc[i].search_for(QUOTE))
        rects = tuple((page, *tuple(r)) for r in doc[page].search_for(QUOTE))
    doc_ref = DocRef(str(pdf), "0" * 64, "pdf", "예시 14 20 22", "예시 콘크리트 보 설계기준", "2024")
    chunk = Chunk("c1", doc_ref, "text", f"(1) {QUOTE} ω는 1.2 kN/m로 한다.", "3.1", ("3 설계", "3.1 난간 하중"),
                  "(1)", (page,))
    return Citation(chunk, QUOTE, verified, page, rects if verified else ())


def test_viewer_highlights_a_verified_quote_on_its_page(qtbot, sample_pdf: Path) -> None:
    viewer = PageViewer()
    qtbot.addWidget(viewer)
    renderer = PageRenderer()
    lane = Lane("render", latest_wins=True)
    pages: list[object] = []
    viewer.page_requested.connect(lambda req: lane.submit(lambda: renderer.render(req), pages.append))
    citation = _pdf_citation(sample_pdf, verified=True)
    viewer.show_citation(citation)
    qtbot.waitUntil(lambda: bool(pages))
    viewer.show_page(pages[-1])  # type: ignore[arg-type]
    assert viewer.request is not None
    assert viewer.request.page_index == citation.page_index
    shown = viewer.highlight_rects()
    assert shown
    assert all(r == c[1:] for r, c in zip(shown, citation.rects, strict=True))
    assert not viewer.note.isVisibleTo(viewer)
    # an unverified quote: the page, no highlight, and the reason
    pages.clear()
    viewer.show_citation(_pdf_citation(sample_pdf, verified=False))
    qtbot.waitUntil(lambda: bool(pages))
    viewer.show_page(pages[-1])  # type: ignore[arg-type]
    assert viewer.highlight_rects() == ()
    assert "강조하지 않았습니다" in viewer.note.text()
    lane.submit(renderer.close)
    assert lane.wait(10000)


def test_hwpx_table_shows_merged_cells_and_marks_the_quoted_row() -> None:
    cells = (
        TableCell(0, 0, "노출 조건", rowspan=2, is_header=True), TableCell(0, 1, "두께", colspan=2, is_header=True),
        TableCell(1, 1, "보", is_header=True), TableCell(1, 2, "슬래브", is_header=True),
        TableCell(2, 0, "실내"), TableCell(2, 1, "30"), TableCell(2, 2, "20"),
        TableCell(3, 0, "옥외"), TableCell(3, 1, "40"), TableCell(3, 2, "30"),
    )
    table = Table("2.1-1", "표 2.1-1 피복", 4, 3, cells, header_rows=2)
    assert marked_cells(table, "옥외 | 40 | 30") == {(3, 0), (3, 1), (3, 2)}
    doc = DocRef("/x.hwpx", "0" * 64, "hwpx", "예시 14 20 22")
    html = chunk_html(Chunk("t", doc, "table", "", "2.1", ("2 재료",), table=table), "옥외 | 40 | 30")
    assert 'rowspan="2"' in html
    assert 'colspan="2"' in html
    assert "background" in html


def test_copy_as_citation_names_source_clause_symbol_and_value(qtbot) -> None:
    doc = DocRef("/x.pdf", "0" * 64, "pdf", "KDS 24 12 21", "", "2021")
    chunk = Chunk("c", doc, "text", "(2) 수평하중 ω는 12.7 kN/m로 한다.", "3.6.1", (), "(2)")
    cit = Citation(chunk, "(2) 수평하중 ω는 12.7 kN/m로 한다.", True, 0)
    answer = Answer("q", Draft("numeric", "12.7", "kN/m", alternatives=(Alternative("다른 조건", "10", "kN/m"),)),
                    Verdict("confirmed"), citations=(cit,))
    assert citation_text(answer) == "KDS 24 12 21 : 2021  3.6.1 (2)  ω = 12.7 kN/m"
    view = AnswerView()
    qtbot.addWidget(view)
    view.show_answer(answer)
    assert view.value.text() == "12.7 kN/m"
    assert view.alternatives.rowCount() == 1
    assert view.copy_citation() == "KDS 24 12 21 : 2021  3.6.1 (2)  ω = 12.7 kN/m"
    warned = Answer("q", Draft("numeric", "12.7", "kN/m"), Verdict("warning", reason="확인 필요"), citations=(cit,))
    view.show_answer(warned)
    assert view.value.text() == ""
    assert "원문" in view.body.text()
    assert citation_text(warned).endswith("[원문 확인 필요]")


def test_cancel_closes_the_generator_between_yields(qtbot) -> None:
    closed: list[bool] = []

    def job() -> Generator[Progress, None, int]:
        try:
            for i in range(10_000_000):
                yield Progress("work", i, 10_000_000)
            return 1
        finally:
            closed.append(True)

    lane = Lane("t")
    results: list[object] = []
    done: list[bool] = []
    seen: list[Progress] = []
    worker = lane.submit(job, results.append, on_progress=seen.append, on_done=done.append)
    qtbot.waitUntil(lambda: bool(seen))
    worker.cancel()
    qtbot.waitUntil(lambda: bool(done))
    assert done == [True]
    assert results == []
    assert closed == [True]
    assert lane.wait(5000)


def test_latest_wins_drops_superseded_results(qtbot) -> None:
    import threading

    gate = threading.Event()
    lane = Lane("t", latest_wins=True)
    results: list[str] = []
    lane.submit(lambda: gate.wait(5) and "old", results.append)
    lane.submit(lambda: "queued", results.append)
    lane.submit(lambda: "new", results.append)
    gate.set()
    qtbot.waitUntil(lambda: not lane.busy())
    assert results == ["new"]


def test_bundled_samples_are_found() -> None:
    from kdsdesk.ui.controller import sample_files

    assert {p.suffix for p in sample_files()} == {".pdf", ".hwpx"}
