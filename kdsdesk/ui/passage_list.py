"""The best passages of an answer (관련 본문): where each is, its text with the question's words marked, and the
click that opens its page.

Shown when nothing is confirmed (and below a warning), so a declined answer still saves the engineer the search.
Each row: the standard's code, the clause path and the 1-based page (PDF; "HWPX" for a clause of an HWPX file),
then the passage with the question's words (``Passage.marks``) highlighted. Activating a row gives the passage as
a :class:`Citation` of its own chunk (:func:`passage_citation`), so the viewer opens it the way it opens a
citation: the page with the passage's rectangles highlighted, or the HWPX clause with the passage marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QApplication,
    QListView,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from kdsdesk.records import Citation, Passage
from kdsdesk.verify.quotes import rects_for

MARK = "#fff176"
HTML_ROLE = Qt.ItemDataRole.UserRole + 1
ModelIndex = QModelIndex | QPersistentModelIndex


def passage_place(p: Passage) -> str:
    """``KDS 14 20 22 : 2022 · 4 설계 › 4.2 전단 · 12쪽`` (1-based page; "HWPX" for an HWPX clause)."""
    doc = p.chunk.doc
    code = doc.doc_code or doc.stem
    code = f"{code} : {doc.year}" if doc.year else code
    path = " › ".join(p.chunk.clause_path[-2:]) or p.chunk.clause
    where = f"{p.page_index + 1}쪽" if p.page_index is not None else ("HWPX" if doc.kind == "hwpx" else "")
    return " · ".join(x for x in (code, path, where) if x)


def marked_html(text: str, marks: Sequence[tuple[int, int]]) -> str:
    """``text`` as HTML with the ranges ``marks`` highlighted (overlapping or out-of-range marks are clipped)."""
    out: list[str] = []
    at = 0
    for a, b in sorted(marks):
        a, b = max(a, at), min(b, len(text))
        if a >= b:
            continue
        out.append(escape(text[at:a]))
        out.append(f"<span style='background:{MARK}; color:#000; font-weight:bold'>{escape(text[a:b])}</span>")
        at = b
    out.append(escape(text[at:]))
    return "".join(out).replace("\n", "<br>")


def passage_html(p: Passage) -> str:
    """A row of the list: the place on one line, the marked passage below."""
    return (f"<div style='color:#37474f'>{escape(passage_place(p))}</div>"
            f"<div>{marked_html(p.text.strip(), _shift(p))}</div>")  # fmt: skip


def _shift(p: Passage) -> tuple[tuple[int, int], ...]:
    """The marks of ``p`` in ``p.text.strip()``."""
    lead = len(p.text) - len(p.text.lstrip())
    return tuple((a - lead, b - lead) for a, b in p.marks)


def passage_citation(p: Passage) -> Citation:
    """The passage as a citation of its own chunk: its text is the chunk's, so its place is known exactly (page,
    rectangles on a PDF page, offsets for the HWPX clause view)."""
    start, end = p.start, p.start + len(p.text)
    pdf = p.chunk.doc.kind == "pdf"
    return Citation(
        chunk=p.chunk, quote=p.text, verified=True, page_index=p.page_index if pdf else None,
        rects=rects_for(p.chunk, start, end) if pdf else (), start=start, end=end,
    )  # fmt: skip


class _HtmlDelegate(QStyledItemDelegate):
    """Paints an item's ``HTML_ROLE`` text wrapped to the view's width."""

    def __init__(self, view: QListWidget) -> None:
        super().__init__(view)
        self.view = view

    def _document(self, option: QStyleOptionViewItem, index: ModelIndex, width: int) -> QTextDocument:
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setDocumentMargin(4)
        doc.setHtml(str(index.data(HTML_ROLE) or ""))
        doc.setTextWidth(max(80, width))
        return doc

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = opt.rect
        doc = self._document(opt, index, rect.width())
        ctx = QAbstractTextDocumentLayout.PaintContext()
        if opt.state & QStyle.StateFlag.State_Selected:
            ctx.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(QPalette.ColorRole.HighlightedText))
        painter.save()
        painter.translate(rect.topLeft())
        painter.setClipRect(rect.translated(-rect.topLeft()))
        doc.documentLayout().draw(painter, ctx)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:
        width = self.view.viewport().width() - 2
        doc = self._document(option, index, width)
        return QSize(width, int(doc.size().height()) + 2)


class PassageList(QListWidget):
    """The passages of an answer; a click (or Enter) emits the passage as a citation to open."""

    passage_activated = Signal(object)  # Citation (passage_citation)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.passages: tuple[Passage, ...] = ()
        self.setItemDelegate(_HtmlDelegate(self))
        self.setWordWrap(True)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.setAlternatingRowColors(True)
        self.itemActivated.connect(self._activated)
        self.itemClicked.connect(self._activated)

    def set_passages(self, passages: Sequence[Passage]) -> None:
        self.clear()
        self.passages = tuple(passages)
        for i, p in enumerate(self.passages):
            item = QListWidgetItem()
            item.setData(HTML_ROLE, passage_html(p))
            item.setData(Qt.ItemDataRole.UserRole, i)
            item.setToolTip(p.chunk.doc.file)
            self.addItem(item)

    def _activated(self, item: QListWidgetItem) -> None:
        i = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(i, int) and 0 <= i < len(self.passages):
            self.passage_activated.emit(passage_citation(self.passages[i]))
