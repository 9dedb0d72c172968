"""The source viewer: a PDF page (rendered on the render lane) with the verified quote highlighted, or an HWPX
clause as formatted text (tables as grids with merged cells) with the quote highlighted.

Only a verified quote is highlighted; otherwise the page is shown unhighlighted and the note says why. Zoom, page
navigation and Ctrl+F (find in the PDF) work on the page; the viewer asks the controller for pages, never renders.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from html import escape

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QKeySequence, QPainter, QPaintEvent, QPen, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QStyle,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from kdsdesk.records import Chunk, Citation, DocInfo, RectT, Table
from kdsdesk.ui.answer_view import source_label
from kdsdesk.ui.render import PageRequest, RenderedPage

MARK = "#ffeb3b"


def _tool(text: str) -> QToolButton:
    b = QToolButton()
    b.setText(text)
    return b


class PageCanvas(QWidget):
    """Paints a rendered page and rectangles (points, scaled by the zoom)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image = QImage()
        self.zoom = 1.0
        self.highlights: tuple[RectT, ...] = ()
        self.found: tuple[RectT, ...] = ()
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def set_page(self, image: QImage, zoom: float, highlights: Sequence[RectT], found: Sequence[RectT]) -> None:
        self.image, self.zoom = image, zoom
        self.highlights, self.found = tuple(highlights), tuple(found)
        self.setFixedSize(image.size())
        self.update()

    def scaled(self, r: RectT) -> QRectF:
        z = self.zoom
        return QRectF(r[0] * z, r[1] * z, (r[2] - r[0]) * z, (r[3] - r[1]) * z)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("white"))
        if not self.image.isNull():
            p.drawImage(0, 0, self.image)
        fill = QColor(255, 213, 0, 90)
        p.setPen(QPen(QColor(230, 120, 0), 1.5))
        for r in self.highlights:
            p.fillRect(self.scaled(r).adjusted(-2, -2, 2, 2), fill)
            p.drawRect(self.scaled(r).adjusted(-2, -2, 2, 2))
        p.setPen(QPen(QColor(25, 118, 210), 2))
        for r in self.found:
            p.drawRect(self.scaled(r).adjusted(-1, -1, 1, 1))
        p.end()


def table_html(table: Table, mark: set[tuple[int, int]]) -> str:
    """A table as an HTML grid with rowspan/colspan; cells in ``mark`` highlighted."""
    rows: dict[int, list[str]] = {}
    for c in sorted(table.cells, key=lambda c: (c.row, c.col)):
        tag = "th" if c.is_header or c.row < table.header_rows else "td"
        style = f' style="background:{MARK}"' if (c.row, c.col) in mark else ""
        span = f' rowspan="{c.rowspan}"' if c.rowspan > 1 else ""
        span += f' colspan="{c.colspan}"' if c.colspan > 1 else ""
        rows.setdefault(c.row, []).append(f"<{tag}{span}{style}>{escape(c.text)}</{tag}>")
    body = "".join(f"<tr>{''.join(cells)}</tr>" for _, cells in sorted(rows.items()))
    caption = f"<p align='center'><b>{escape(table.caption)}</b></p>" if table.caption else ""
    return f"{caption}<table border='1' cellspacing='0' cellpadding='5' width='100%'>{body}</table>"


def marked_cells(table: Table, quote: str) -> set[tuple[int, int]]:
    """Cells of the first row holding every ``|``-separated part of the quote (a cell quote: that cell)."""
    parts = [p.strip() for p in quote.split("|") if p.strip()]
    by_row: dict[int, list[tuple[int, str]]] = {}
    for c in table.cells:
        by_row.setdefault(c.row, []).append((c.col, c.text.strip()))
    for row, cells in sorted(by_row.items()):
        texts = [t for _, t in cells]
        if parts and all(p in texts for p in parts):
            return {(row, col) for col, t in cells if t in parts}
    return {(c.row, c.col) for c in table.cells if c.text.strip() and c.text.strip() == quote.strip()}


def chunk_html(chunk: Chunk, quote: str, start: int = -1, end: int = -1) -> str:
    """An HWPX clause (the cited chunk) as formatted text with the quote highlighted."""
    head = escape(" › ".join(chunk.clause_path) or chunk.clause)
    html = [f"<h3>{head}</h3>"]
    if chunk.table is not None:
        html.append(table_html(chunk.table, marked_cells(chunk.table, quote)))
    else:
        text = chunk.text
        if not (0 <= start < end <= len(text)):
            start = text.find(quote) if quote else -1
            end = start + len(quote)
        if start >= 0:
            body = (escape(text[:start]) + f"<span style='background:{MARK}'>" + escape(text[start:end])
                    + "</span>" + escape(text[end:]))
        else:
            body = escape(text)
        html.append("<p style='line-height:150%'>" + body.replace("\n", "<br>") + "</p>")
    return "".join(html)


class PageViewer(QWidget):
    """PDF page or HWPX clause, with navigation, zoom, find and a note on the highlight."""

    page_requested = Signal(object)  # PageRequest
    find_requested = Signal(str, str)  # file, term
    twin_requested = Signal(str, str)  # pdf file, quote (open an HWPX citation in the PDF of the same code)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request: PageRequest | None = None
        self.n_pages = 0
        self.zoom = 1.5
        self.found: list[tuple[int, RectT]] = []
        self.current: RenderedPage | None = None
        self._twin: tuple[str, str] | None = None
        self._origin: tuple[str, int, tuple[RectT, ...]] | None = None  # the citation's page and highlight

        self.title = QLabel("원문")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.prev_button = _tool("◀")
        self.next_button = _tool("▶")
        self.page_label = QLabel("")
        self.zoom_out = _tool("−")
        self.zoom_in = _tool("+")
        self.find_box = QLineEdit()
        self.find_box.setPlaceholderText("찾기 (Ctrl+F)")
        self.find_box.setMaximumWidth(180)
        self.prev_button.clicked.connect(lambda: self.go(-1))
        self.next_button.clicked.connect(lambda: self.go(1))
        self.zoom_out.clicked.connect(lambda: self.set_zoom(self.zoom / 1.25))
        self.zoom_in.clicked.connect(lambda: self.set_zoom(self.zoom * 1.25))
        self.find_box.returnPressed.connect(self._find)
        bar = QHBoxLayout()
        for w in (self.prev_button, self.page_label, self.next_button, self.zoom_out, self.zoom_in):
            bar.addWidget(w)
        bar.addStretch(1)
        bar.addWidget(self.find_box)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color:#bf360c;")
        self.twin_button = QPushButton("같은 기준의 PDF에서 이 조항 보기")
        self.twin_button.clicked.connect(self._open_twin)
        self.twin_button.hide()

        self.canvas = PageCanvas()
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidget(self.canvas)
        self.scroll_area.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.scroll_area.setStyleSheet("QScrollArea { background:#eceff1; }")
        self.text = QTextBrowser()
        self.placeholder = QLabel("답변의 근거를 누르면 원문이 여기에 나타납니다.")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(self.scroll_area)
        self.stack.addWidget(self.text)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.title)
        lay.addLayout(bar)
        lay.addWidget(self.note)
        lay.addWidget(self.twin_button)
        lay.addWidget(self.stack, 1)
        for key, slot in (
            (QKeySequence.StandardKey.Find, self.focus_find),
            (QKeySequence.StandardKey.ZoomIn, lambda: self.set_zoom(self.zoom * 1.25)),
            (QKeySequence.StandardKey.ZoomOut, lambda: self.set_zoom(self.zoom / 1.25)),
        ):
            QShortcut(QKeySequence(key), self).activated.connect(slot)
        self._nav_enabled(False)

    # -- showing a citation ------------------------------------------------------------------------------------------
    def show_citation(self, c: Citation, documents: Sequence[DocInfo] = ()) -> None:
        """PDF: request the quote's page, highlighted only when verified. HWPX: the clause as formatted text."""
        doc = c.chunk.doc
        label = source_label(c)
        self.title.setText(f"{label}  —  {doc.title}" if doc.title else label)
        self.found = []
        if doc.kind == "hwpx":
            self._show_hwpx(c, documents)
            return
        self.twin_button.hide()
        page = c.page_index if c.page_index is not None else (c.chunk.pages[0] if c.chunk.pages else 0)
        rects: tuple[RectT, ...] = ()
        note = ""
        if c.verified and c.rects:
            rects = tuple((x0, y0, x1, y1) for p, x0, y0, x1, y1 in c.rects if p == page)
        elif c.verified:
            note = "검증된 인용이지만 원문 위치 정보가 없어 쪽만 표시합니다."
        else:
            note = "인용문을 원문에서 확인하지 못해 강조하지 않았습니다. 쪽 전체를 읽고 확인하세요."
        self._origin = (doc.file, page, rects)
        self.open_page(PageRequest(doc.file, page, self.fit_width_zoom(), rects, note, label))

    def fit_width_zoom(self, page_width: float = 595.0) -> float:
        """The zoom that fits the page width (A4 until a page is known) into the viewer.

        Measured on the stack, not the scroll area: a page of a ``QStackedWidget`` that is not shown keeps a stale
        size (640 px before it was ever shown), which cut the first page's margins. A page is taller than wide, so
        the vertical scroll bar's width is taken off in advance."""
        if self.current is not None:
            page_width = self.current.page_width
        bar = self.scroll_area.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        avail = max(200, self.stack.width() - 2 * self.scroll_area.frameWidth() - bar - 12)
        return round(min(max(avail / page_width, 0.6), 2.5), 2)

    def open_page(self, req: PageRequest) -> None:
        self.request = req
        self.note.setText(req.note)
        self.note.setVisible(bool(req.note))
        self.page_requested.emit(req)

    def _show_hwpx(self, c: Citation, documents: Sequence[DocInfo]) -> None:
        self._nav_enabled(False)
        self.request = None
        self._origin = None
        self.text.setHtml(chunk_html(c.chunk, c.quote if c.verified else "", c.start, c.end))
        self.stack.setCurrentWidget(self.text)
        note = "" if c.verified else "인용문을 원문에서 확인하지 못해 강조하지 않았습니다."
        self.note.setText(note)
        self.note.setVisible(bool(note))
        twin = next((d for d in documents if d.kind == "pdf" and d.doc_code and d.doc_code == c.chunk.doc.doc_code
                     and d.status == "searchable"), None)
        self._twin = (twin.file, c.quote) if twin else None
        self.twin_button.setVisible(twin is not None)

    def _open_twin(self) -> None:
        if self._twin:
            self.twin_requested.emit(*self._twin)

    # -- rendered pages ----------------------------------------------------------------------------------------------
    def show_page(self, page: RenderedPage) -> None:
        req = page.request
        self.current = page
        self.request = req
        self.n_pages = page.n_pages
        self.zoom = req.zoom
        found = [r for p, r in self.found if p == req.page_index]
        self.canvas.set_page(page.image, req.zoom, req.highlights, found)
        self.stack.setCurrentWidget(self.scroll_area)
        self.page_label.setText(f"{req.page_index + 1} / {page.n_pages}쪽")
        self._nav_enabled(True)
        target = req.highlights[0] if req.highlights else (found[0] if found else None)
        if target is not None:
            r = self.canvas.scaled(target)
            self.scroll_area.horizontalScrollBar().setValue(max(0, int(r.left()) - 20))
            margin = int(self.scroll_area.height() / 3)
            self.scroll_area.ensureVisible(int(r.left()), int(r.center().y()), 20, margin)
        else:
            self.scroll_area.verticalScrollBar().setValue(0)

    def highlight_rects(self) -> tuple[RectT, ...]:
        """The rectangles (points) highlighted on the shown page."""
        return self.canvas.highlights if self.stack.currentWidget() is self.scroll_area else ()

    # -- navigation, zoom, find ----------------------------------------------------------------------------------------
    def go(self, delta: int) -> None:
        if self.request is None or not self.n_pages:
            return
        index = min(max(self.request.page_index + delta, 0), self.n_pages - 1)
        if index != self.request.page_index:
            rects = self._origin_rects(self.request.file, index)
            self.open_page(replace(self.request, page_index=index, highlights=rects))

    def _origin_rects(self, file: str, page: int) -> tuple[RectT, ...]:
        """The citation's highlight when ``page`` is the cited page, else nothing."""
        if self._origin and self._origin[0] == file and self._origin[1] == page:
            return self._origin[2]
        return ()

    def set_zoom(self, zoom: float) -> None:
        if self.request is None:
            return
        self.open_page(replace(self.request, zoom=min(max(zoom, 0.5), 4.0)))

    def focus_find(self) -> None:
        self.find_box.setFocus()
        self.find_box.selectAll()

    def _find(self) -> None:
        if self.request is not None and self.find_box.text().strip():
            self.find_requested.emit(self.request.file, self.find_box.text().strip())

    def show_found(self, hits: list[tuple[int, RectT]]) -> None:
        self.found = hits
        if self.request is None:
            return
        if not hits:
            self.note.setText(f"‘{self.find_box.text()}’을(를) 찾지 못했습니다.")
            self.note.show()
            return
        after = [h for h in hits if h[0] >= self.request.page_index]
        page = (after or hits)[0][0]
        self.note.setText(f"찾은 곳 {len(hits)}개")
        self.note.show()
        rects = self._origin_rects(self.request.file, page)
        self.open_page(replace(self.request, page_index=page, highlights=rects, note=self.note.text()))

    def _nav_enabled(self, on: bool) -> None:
        for w in (self.prev_button, self.next_button, self.zoom_in, self.zoom_out, self.find_box):
            w.setEnabled(on)
