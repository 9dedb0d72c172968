"""PDF page rendering and text search with PyMuPDF, confined to the render lane's single thread.

``PageRenderer`` is called only from jobs on that lane (PyMuPDF is not thread-safe); it keeps a few documents open
and returns ``RenderedPage`` records holding a ``QImage`` (safe to build off the GUI thread, unlike ``QPixmap``).
Rectangles are PyMuPDF points with a top-left origin, the same system as ``Citation.rects``.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtGui import QImage

from kdsdesk.errors import KnownError
from kdsdesk.records import RectT

MAX_OPEN = 4
MIN_ZOOM, MAX_ZOOM = 0.5, 4.0


@dataclass(frozen=True, slots=True)
class PageRequest:
    """Which page to show, at what zoom, with which highlight (only a verified quote's rectangles)."""

    file: str
    page_index: int  # 0-based
    zoom: float = 1.5
    highlights: tuple[RectT, ...] = ()
    note: str = ""  # why nothing is highlighted (shown above the page)
    label: str = ""  # e.g. "KDS 14 20 22 : 2022  3.1 (1)"


@dataclass(frozen=True, slots=True)
class RenderedPage:
    request: PageRequest
    image: QImage
    n_pages: int
    page_width: float  # points
    page_height: float


class PageRenderer:
    """Thread-confined PyMuPDF: open documents (LRU), render, find."""

    def __init__(self) -> None:
        self._docs: OrderedDict[str, Any] = OrderedDict()

    def _open(self, file: str) -> Any:
        import pymupdf

        mu: Any = pymupdf
        doc = self._docs.pop(file, None)
        if doc is None:
            try:
                doc = mu.open(file)
            except (pymupdf.FileDataError, RuntimeError, OSError) as exc:
                raise KnownError("PDF 파일을 열 수 없습니다. 파일이 옮겨졌거나 손상되었습니다.", path=file) from exc
        self._docs[file] = doc
        while len(self._docs) > MAX_OPEN:
            _, old = self._docs.popitem(last=False)
            old.close()
        return doc

    def render(self, req: PageRequest) -> RenderedPage:
        import pymupdf

        mu: Any = pymupdf
        doc = self._open(req.file)
        n = doc.page_count
        index = min(max(req.page_index, 0), n - 1)
        page = doc[index]
        zoom = min(max(req.zoom, MIN_ZOOM), MAX_ZOOM)
        pix = page.get_pixmap(matrix=mu.Matrix(zoom, zoom), alpha=False)
        image = QImage(pix.samples, pix.width, pix.height, pix.stride, QImage.Format.Format_RGB888).copy()
        if index != req.page_index or zoom != req.zoom:
            kept = req.highlights if index == req.page_index else ()
            req = replace(req, page_index=index, zoom=zoom, highlights=kept)
        return RenderedPage(req, image, n, float(page.rect.width), float(page.rect.height))

    def find(self, file: str, term: str, limit: int = 200) -> list[tuple[int, RectT]]:
        """Rectangles of ``term`` on every page, in page order."""
        term = term.strip()
        if not term:
            return []
        doc = self._open(file)
        out: list[tuple[int, RectT]] = []
        for i in range(doc.page_count):
            for r in doc[i].search_for(term):
                out.append((i, (float(r.x0), float(r.y0), float(r.x1), float(r.y1))))
                if len(out) >= limit:
                    return out
        return out

    def locate(self, file: str, quote: str) -> int:
        """0-based page where (the start of) ``quote`` appears; 0 when not found."""
        words = re.sub(r"\s+", " ", quote).strip().split(" ")
        for n in (8, 5, 3):
            probe = " ".join(words[:n])
            if len(probe) < 4:
                continue
            hits = self.find(file, probe, limit=1)
            if hits:
                return hits[0][0]
        return 0

    def close(self) -> None:
        while self._docs:
            _, doc = self._docs.popitem()
            doc.close()
