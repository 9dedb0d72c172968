"""The best passages on the answer card (관련 본문) and the cases table (경우별 값): shown when nothing is confirmed
and below a warning, each with code, clause path and page and the question's words marked; a click opens the page
with the passage highlighted."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from kdsdesk.records import Alternative, Answer, Citation, DocRef, Draft, Passage, Verdict
from kdsdesk.ui.answer_view import AnswerView
from kdsdesk.ui.passage_list import HTML_ROLE, marked_html, passage_citation
from kdsdesk.verify.quotes import rects_for
from tests.data.answer_records import DOC, text_chunk

from .test_window import LONG, index_and_wait

TEXT = (
    "(1) 보의 주철근 순간격은 25 mm 이상으로 하여야 한다.\n"
    "(2) 용접의 저항계수는 표 4.1-1에 따른다.\n"
    "(3) 필릿용접의 유효목두께는 필릿 치수의 0.7배로 한다."
)


def _passages() -> tuple[Passage, ...]:
    chunk = text_chunk(TEXT, "c1", clause="4.1.2", clause_path=("4 설계", "4.1 일반", "4.1.2 저항계수"))
    line = TEXT.split("\n")[1]
    start = TEXT.index(line)
    second = text_chunk("(1) 고력볼트의 구멍 치수는 표 4.3-1의 값 이하로 한다.", "c2", clause="4.3.1",
                        clause_path=("4 설계", "4.3 볼트"))  # fmt: skip
    return (
        Passage(chunk, line, start, 0, marks=((4, 6), (8, 12)), score=0.9),
        Passage(second, second.text, 0, 0, marks=((4, 8),), score=0.5),
    )


def _answer(status: str, passages: tuple[Passage, ...], **draft: object) -> Answer:
    reason = "" if status == "confirmed" else "값을 확정할 수 없음"
    return Answer("용접의 저항계수는?", Draft("numeric", **draft), Verdict(status, reason=reason),  # type: ignore[arg-type]
                  passages=passages)  # fmt: skip


def test_marked_html_highlights_the_ranges_and_escapes_the_rest() -> None:
    html = marked_html("a<b 용접의 저항계수", [(4, 6), (8, 12), (9, 11), (40, 50)])
    assert html.startswith("a&lt;b ")
    assert html.count("<span") == 2  # overlapping and out-of-range marks are clipped
    assert ">용접</span>" in html
    assert ">저항계수</span>" in html


def test_a_restricted_answer_lists_the_passages_and_a_click_opens_the_passage(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = AnswerView()
    qtbot.addWidget(view)
    view.resize(480, 800)
    view.show()
    passages = _passages()
    view.show_answer(_answer("restricted", passages))
    lst = view.passages
    assert lst.isVisible()
    assert view.passages_title.isVisible()
    assert "관련 본문" in view.passages_title.text()
    assert lst.count() == len(passages)
    first = str(lst.item(0).data(HTML_ROLE))
    assert DOC.doc_code in first
    assert "4.1 일반 › 4.1.2 저항계수" in first
    assert "1쪽" in first  # page_index 0 shown 1-based
    assert ">용접</span>" in first
    assert ">저항계수</span>" in first
    assert not view.value.isVisible()
    assert not view.citations.isVisible()  # no citation: the passages are the evidence

    rect = lst.visualItemRect(lst.item(0))
    with qtbot.waitSignal(view.citation_activated) as opened:
        qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    c = opened.args[0]
    assert isinstance(c, Citation)
    p = passages[0]
    assert c.chunk is p.chunk
    assert c.verified
    assert c.quote == p.text
    assert c.page_index == p.page_index == 0
    assert (c.start, c.end) == (p.start, p.start + len(p.text))
    assert c.rects == rects_for(p.chunk, c.start, c.end)
    assert c.rects
    # the rectangles are those of the passage's line, not the chunk's first line
    first_line = rects_for(p.chunk, 0, TEXT.index("\n"))
    assert all(r[2] > first_line[0][4] for r in c.rects)

    rect = lst.visualItemRect(lst.item(1))
    with qtbot.waitSignal(view.citation_activated) as opened:
        qtbot.keyClick(lst, Qt.Key.Key_Down)
        qtbot.keyClick(lst, Qt.Key.Key_Return)
    assert opened.args[0].chunk is passages[1].chunk


def test_passages_show_below_a_warning_and_not_under_a_confirmed_value(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = AnswerView()
    qtbot.addWidget(view)
    view.show()
    passages = _passages()
    view.show_answer(_answer("warning", passages, value="0.75"))
    assert view.passages.isVisible()
    assert view.passages.count() == 2
    view.show_answer(_answer("confirmed", passages, value="0.75"))
    assert not view.passages.isVisible()
    assert not view.passages_title.isVisible()
    assert view.value.text() == "0.75"
    view.show_answer(_answer("unverified", passages))
    assert view.passages.isVisible()
    view.show_answer(_answer("restricted", ()))
    assert not view.passages.isVisible()


def test_cases_the_verifier_listed_are_a_value_condition_table(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = AnswerView()
    qtbot.addWidget(view)
    view.show()
    cases = (Alternative("용접 · 필릿용접의 전단", "0.75"), Alternative("용접 · 완전용입 그루브용접", "0.90", "MPa"))
    view.show_answer(_answer("restricted", _passages(), alternatives=cases))
    assert view.cases.isVisible()
    assert "경우별 값" in view.cases_title.text()
    assert [view.cases.horizontalHeaderItem(k).text() for k in range(2)] == ["값", "조건"]
    assert view.cases.rowCount() == 2
    rows = [(view.cases.item(r, 0).text(), view.cases.item(r, 1).text()) for r in range(2)]
    assert rows == [("0.75", "용접 · 필릿용접의 전단"), ("0.90 MPa", "용접 · 완전용입 그루브용접")]
    assert not view.alternatives.isVisible()  # not "other conditions" of a shown value
    assert not view.value.isVisible()
    view.show_answer(_answer("restricted", _passages()))
    assert not view.cases.isVisible()


def test_passage_citation_of_an_hwpx_clause_has_offsets_and_no_page() -> None:
    hwpx = DocRef("/x.hwpx", "0" * 64, "hwpx", "KDS 99 00 00")
    chunk = text_chunk(TEXT, "h", doc=hwpx, spans=())
    p = Passage(chunk, TEXT[10:30], 10, None)
    c = passage_citation(p)
    assert (c.page_index, c.rects, c.start, c.end) == (None, (), 10, 30)


def _text_under(pdf: Path, page_index: int, rects: tuple[tuple[float, float, float, float], ...]) -> str:
    """The page's text under ``rects`` (spaces removed)."""
    import pymupdf

    with pymupdf.open(pdf) as doc:
        page = doc[page_index]
        return "".join("".join(page.get_textbox(pymupdf.Rect(*r)).split()) for r in rects)


def _trigrams(text: str) -> set[str]:
    s = "".join(text.split())
    return {s[i : i + 3] for i in range(len(s) - 2)}


@pytest.mark.slow
def test_a_declined_question_shows_passages_and_a_click_opens_the_page_highlighted(  # type: ignore[no-untyped-def]
    qtbot, window, sample_pdf: Path
) -> None:
    index_and_wait(qtbot, window, [sample_pdf])
    # a question about a topic the samples do not hold, in their words: declined, never answered
    with qtbot.waitSignal(window.controller.answer_ready, timeout=LONG) as ready:
        window.controller.ask("철근콘크리트 보의 피로 설계에서 전단철근의 응력 범위 한계는 몇 MPa인가요?")
    answer = ready.args[0]
    assert answer.status in ("restricted", "unverified")
    lst = window.answer_view.passages
    assert 3 <= lst.count() == len(answer.passages) <= 5
    p = next(p for p in answer.passages if p.chunk.kind == "text")
    row = answer.passages.index(p)
    lst.scrollToItem(lst.item(row))
    rect = lst.visualItemRect(lst.item(row))
    with qtbot.waitSignal(window.controller.page_ready, timeout=LONG):
        qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.viewer.request is not None
    assert window.viewer.request.page_index == p.page_index
    shown = window.viewer.highlight_rects()
    assert shown
    under = _trigrams(_text_under(sample_pdf, p.page_index, shown))
    own = _trigrams(p.text)
    assert len(own & under) >= 0.6 * len(own)  # the highlight is on the passage's own text
