"""Lettering drawn as vector outlines, and scanned pages, read by OCR and put back into the page's lines.

``pdf_outlines`` finds rows of outline lettering (one row per line of a caption, heading or table cell); here each
row is rendered at ``ocr.DPI`` and read as one line of text, and every word becomes a ``Run`` at its place on the
page, so the rest of the layout (headings, paragraphs, tables by their rules) treats it as if the PDF had a text
layer there. A row on the line of a text-layer line (a Korean label beside an equation ``U``) joins that line.
A scanned page (no text layer, mostly image) is read whole, its words grouped into lines.

Every span of OCR text is marked: ``ocr_rects`` maps (page, rectangle) of each OCR'd word to its confidence, and
``pdf_layout`` copies it onto the blocks' ``Span.ocr`` and ``TableCell.ocr`` (a value read this way is never
confirmed by the verifier). Rows the engine could not read stay unreadable regions.

Rendering needs the open PyMuPDF document: ``PageOcr`` is made by ``pdf.py`` (the only PyMuPDF owner) and passed to
the layout; it reports progress per page and stops between pages when told to (``Cancelled``).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kdsdesk.errors import Cancelled
from kdsdesk.ingest import ocr as ocr_engine
from kdsdesk.ingest import pdf_outlines, pua
from kdsdesk.ingest.ocr_lexicon import Lexicon
from kdsdesk.ingest.pdf_page import PageData
from kdsdesk.ingest.pdf_text import Line, PageStats, Run, assemble
from kdsdesk.records import RectT, UnreadableRegion

INK_PER_SIZE = 0.85  # outlined Hangul ink height ≈ this × font size
PAD = 0.4  # white margin around a rendered row, × its height
IMAGE_COPY = 0.5  # an image this much inside a row's render is a picture of its lettering, left out of the render
SAME_LINE = 0.4  # an OCR row joins a text line whose centre is within this × size of its own

Progress = Callable[[int, int], None]  # (rows or pages read, total)
Word = tuple[str, RectT, float]  # text, box in PDF points, confidence 0–1
_ITEM_NO = re.compile(r"\(\s*(\d{1,2})\s*\)")  # "( 1)" → "(1)": item markers as the text layer writes them
_STRAY = re.compile(r"(?:^|\s)[_|~]+(?=\s|$)")  # a lone underscore or bar: a rule or a speck read as a letter


def clean(text: str) -> str:
    """OCR text as the text layer would have it: item numbers without inner spaces, no lone rule marks."""
    return " ".join(_STRAY.sub(" ", _ITEM_NO.sub(r"(\1)", text)).split())


@dataclass(slots=True)
class PageOcr:
    """Reads rectangles of one open PyMuPDF document with the process's OCR engine, loaded on first need (a file
    without outlines or scans never loads it)."""

    doc: Any
    engine: ocr_engine.OcrEngine | None
    progress: Progress | None = None
    cancelled: Callable[[], bool] | None = None
    ocr_rects: dict[tuple[int, RectT], float] = field(default_factory=dict)
    rows_read: int = 0
    pages_read: int = 0
    _lists: dict[int, Any] = field(default_factory=dict)  # page → display list (rendered once, clipped per row)
    _images: dict[int, list[RectT]] = field(default_factory=dict)  # page → its images' rectangles
    _bare: dict[int, tuple[Any, Any]] = field(default_factory=dict)  # page → (copy without images, its display list)

    def _check(self) -> None:
        if self.cancelled is not None and self.cancelled():
            raise Cancelled()

    def ready(self) -> bool:
        """Whether the engine is (now) loaded."""
        if self.engine is None:
            self.engine = ocr_engine.engine()
        return self.engine is not None

    def _display_list(self, page_index: int, clip: RectT | None) -> Any:
        """The page's display list; for outline lettering (``clip``) that holds most of an image (``_copy_of``),
        that of a copy of the page without its images: 한글 exports some labels twice, as outlines and as a picture
        of them a few points lower, and read together the two copies' strokes are other syllables ("자유몰룰한"
        for 자유돌출판)."""
        if page_index not in self._lists:
            self._lists.clear()
            self._bare.clear()
            self._lists[page_index] = self.doc[page_index].get_displaylist()
            self._images = {page_index: [
                tuple(info["bbox"]) for info in self.doc[page_index].get_image_info()
            ]}
        if clip is None or not any(_copy_of(r, clip) for r in self._images[page_index]):
            return self._lists[page_index]
        if page_index not in self._bare:
            import pymupdf

            mu: Any = pymupdf
            bare = mu.open()
            bare.insert_pdf(self.doc, from_page=page_index, to_page=page_index)
            for img in bare[0].get_images():
                bare[0].delete_image(img[0])
            self._bare[page_index] = (bare, bare[0].get_displaylist())  # the list needs its document open
        return self._bare[page_index][1]

    def _render(self, page_index: int, clip: RectT, dpi: int, lettering: RectT | None) -> tuple[Any, RectT]:
        """``clip`` rendered grey at ``dpi``; ``lettering``: the outline lettering it belongs to (a row, a label
        written downwards), whose picture, if the page has one, is left out; ``None`` for a scanned page."""
        import pymupdf

        dl = self._display_list(page_index, lettering)
        mu: Any = pymupdf
        rect = mu.Rect(*clip) & dl.rect
        zoom = dpi / 72.0
        pix = dl.get_pixmap(matrix=mu.Matrix(zoom, zoom), clip=rect, colorspace=mu.csGRAY, alpha=False)
        return pix, (float(rect.x0), float(rect.y0), float(rect.x1), float(rect.y1))

    def _words(
        self, page_index: int, clip: RectT, whole: bool, dpi: int, erase: Sequence[RectT] = ()
    ) -> list[Word]:
        """Words in PDF points; syllables Tesseract printed without a space between them are one word. ``erase``:
        rectangles of text-layer characters, painted white first (they are read from the text layer, and OCR
        would read them a second time: "((비세장판 단면))")."""
        pix, (cx0, cy0, cx1, cy1) = self._render(page_index, clip, dpi, None if whole else clip)
        if pix.width < 4 or pix.height < 4:
            return []
        if erase:
            import pymupdf

            mu: Any = pymupdf
            z = dpi / 72.0
            ox, oy = pix.x, pix.y  # a pixmap's rectangles are in the zoomed page's pixel coordinates
            for x0, y0, x1, y1 in erase:
                if x1 > cx0 and x0 < cx1 and y1 > cy0 and y0 < cy1:
                    box = mu.IRect(
                        ox + round((x0 + 0.3 - cx0) * z), oy + round((y0 - cy0) * z),
                        ox + round((x1 - 0.3 - cx0) * z), oy + round((y1 - cy0) * z),
                    )
                    pix.set_rect(box & pix.irect, (255,))
        engine = self.engine
        assert engine is not None, "ready() first"
        read = engine.read_page if whole else engine.read_line
        sx, sy = (cx1 - cx0) / pix.width, (cy1 - cy0) / pix.height
        out: list[Word] = []
        for w in read(pix.samples, pix.width, pix.height, pix.stride, dpi):
            text = clean(w.text)
            if not text:
                continue
            box = (cx0 + w.box[0] * sx, cy0 + w.box[1] * sy, cx0 + w.box[2] * sx, cy0 + w.box[3] * sy)
            last = out[-1] if out else None
            if last is not None and not w.space and box[0] >= last[1][0]:
                b = last[1]
                out[-1] = (last[0] + text, (b[0], min(b[1], box[1]), max(b[2], box[2]), max(b[3], box[3])),
                           min(last[2], w.conf))
            else:
                out.append((text, box, w.conf))
        return out

    def read_rows(self, page_index: int, rows: Sequence[RectT], text: Sequence[RectT] = ()) -> list[list[Word]]:
        """Words of each row (outline lettering), in PDF points; ``text``: the page's text-layer run rectangles."""
        self._check()
        out = []
        for x0, y0, x1, y1 in rows:
            pad = PAD * (y1 - y0) + 1.0
            clip = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
            near = [r for r in text if r[2] > clip[0] and r[0] < clip[2] and r[3] > clip[1] and r[1] < clip[3]]
            out.append(self._words(page_index, clip, False, ocr_engine.DPI, near))
        self.rows_read += len(rows)
        return out

    def read_stack(self, page_index: int, boxes: Sequence[RectT]) -> list[Word]:
        """A label written downwards (its syllables' ``boxes``, top to bottom) read as one line: each syllable
        rendered alone and the images set side by side, so the engine reads the word (one ``Word`` over the
        label's rectangle)."""
        self._check()
        self.rows_read += 1
        engine = self.engine
        assert engine is not None, "ready() first"
        if not boxes:
            return []
        rect = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        images = []
        for x0, y0, x1, y1 in boxes:  # the shape alone: a table's rules beside it would be read as "|"
            pix, _ = self._render(page_index, (x0 - 0.3, y0 - 0.3, x1 + 0.3, y1 + 0.3), ocr_engine.DPI, rect)
            images.append((pix.width, pix.height, pix.stride, bytes(pix.samples)))
        inner = max(h for _, h, _, _ in images)
        margin = round(PAD * inner) + 2
        height = inner + 2 * margin
        width = sum(w for w, _, _, _ in images) + margin * (len(images) + 1)
        white = b"\xff" * margin
        lines = [b"\xff" * width] * margin
        for y in range(inner):
            lines.append(white + white.join(
                data[y * stride : y * stride + w] if y < h else b"\xff" * w for w, h, stride, data in images
            ) + white)
        lines += [b"\xff" * width] * margin
        words = engine.read_line(b"".join(lines), width, height, width, ocr_engine.DPI)
        text = clean("".join(w.text for w in words)).replace(" ", "")
        if not text:
            return []
        return [(text, rect, min(w.conf for w in words))]

    def read_page(self, page_index: int, rect: RectT, dpi: int) -> list[Word]:
        """Words of a whole scanned page, in PDF points."""
        self._check()
        self.pages_read += 1
        return self._words(page_index, rect, True, dpi)


def _copy_of(image: RectT, clip: RectT) -> bool:
    """Whether an image lies mostly (``IMAGE_COPY`` of its area) inside the rendered ``clip`` of a row: a picture
    of that lettering, not a page-wide one it crosses (KCSC's watermark)."""
    w = min(image[2], clip[2]) - max(image[0], clip[0])
    h = min(image[3], clip[3]) - max(image[1], clip[1])
    area = (image[2] - image[0]) * (image[3] - image[1])
    return w > 0 and h > 0 and w * h >= IMAGE_COPY * area


def _size(height: float) -> float:
    return round(height / INK_PER_SIZE * 2) / 2


def _runs(words: list[Word], row: RectT | None) -> list[Run]:
    """One run per word; an outline row's words share the row's top and bottom (one line)."""
    out = []
    for text, (x0, y0, x1, y1), _conf in words:
        if row is not None:
            y0, y1 = row[1], row[3]
        size = _size(y1 - y0)
        out.append(Run(text, x0, y0, x1, y1, size, y1, cy=(y0 + y1) / 2))
    return out


def _join(lines: list[Line], runs: list[Run]) -> Line | None:
    """The text line the runs of one OCR row belong to (centres on one line), or ``None``. A line's centre and size
    are its runs' median ones: a tall equation on the line ("√(E/F_y)" beside "① 압연 H형강") does not move them;
    or those of its runs beside the row (within a letter of it, across): a line of the text layer may hold runs
    of several cells, a digit between the row's words ("열당 3개", the 3 in the text layer) on a line whose other
    runs, an equation of the next cell, stand lower."""
    cy = statistics.fmean(r.cy for r in runs)
    size = max(r.size for r in runs)
    x0, x1 = min(r.x0 for r in runs) - size, max(r.x1 for r in runs) + size
    best: tuple[float, Line] | None = None
    for ln in lines:
        if ln.runs:
            ln_cy, ln_size = statistics.median(r.cy for r in ln.runs), statistics.median(r.size for r in ln.runs)
        else:
            ln_cy, ln_size = (ln.y0 + ln.y1) / 2, ln.size
        d = abs(ln_cy - cy)
        beside = [r.cy for r in ln.runs if r.x1 > x0 and r.x0 < x1]
        if beside:
            d = min(d, abs(statistics.median(beside) - cy))
        if d <= SAME_LINE * max(size, ln_size) and (best is None or d < best[0]):
            best = (d, ln)
    return best[1] if best is not None else None


def _reassemble(lines: Sequence[Line], stats: PageStats) -> None:
    scratch = PageStats(linear=stats.linear)  # equations already counted when the text lines were first assembled
    for ln in lines:
        ln.runs.sort(key=lambda r: r.x0)
        ln.y0, ln.y1 = min(r.y0 for r in ln.runs), max(r.y1 for r in ln.runs)
        ln.text, ln.spans, ln.trail, ln.unreadable = assemble(ln.runs, pua.PuaStats(), scratch)
        ln.measure()


def add_rows(
    lines: list[Line], page_index: int, rows: Sequence[RectT], words: Sequence[list[Word]],
    ocr_rects: dict[tuple[int, RectT], float], stats: PageStats, lexicon: Lexicon | None = None,
    glyphs: Sequence[int] | None = None,
) -> list[RectT]:
    """Put the OCR'd ``words`` of each outline row into ``lines`` (joining a text line on the same centre line, or
    as a line of their own), syllables the model lacks restored by ``lexicon`` (also one it dropped, when the row's
    count of drawn ``glyphs`` says one is missing); return the rows nothing could be read from."""
    touched: list[Line] = []
    unread: list[RectT] = []
    for k, (row, found) in enumerate(zip(rows, words, strict=True)):
        if not found:
            unread.append(row)
            continue
        if lexicon is not None:
            found = [(lexicon.correct(t), b, c) for t, b, c in found]
            if glyphs is not None:
                texts = lexicon.restore([t for t, _b, _c in found], glyphs[k])
                found = [(t, b, c) for t, (_t, b, c) in zip(texts, found, strict=True)]
        runs = _runs(found, row)
        for r, (_t, _b, conf) in zip(runs, found, strict=True):
            ocr_rects[(page_index, r.rect)] = conf
        if pdf_outlines.vertical(row):  # a label written downwards: a line of its own, of its syllables' size
            for r in runs:
                r.size = _size(r.x1 - r.x0)
            target = None
        else:
            target = _join(lines, runs)
        if target is None:
            target = Line(runs, row[1], row[3], row[1], row[3], x0=runs[0].x0)
            lines.append(target)
        else:
            target.runs.extend(runs)
        if all(t is not target for t in touched):
            touched.append(target)
    _reassemble(touched, stats)
    lines.sort(key=lambda ln: (ln.y0, ln.x0))
    return unread


def scan_lines(
    page_index: int, words: list[Word], ocr_rects: dict[tuple[int, RectT], float],
    stats: PageStats,
) -> list[Line]:
    """Lines of a scanned page from its OCR'd words (words whose centres share a line, left to right)."""
    lines: list[Line] = []
    for text, box, conf in sorted(words, key=lambda w: ((w[1][1] + w[1][3]) / 2, w[1][0])):
        (run,) = _runs([(text, box, conf)], None)
        ocr_rects[(page_index, run.rect)] = conf
        last = lines[-1] if lines else None
        if last is not None and abs((last.y0 + last.y1) / 2 - run.cy) <= SAME_LINE * max(run.size, last.size):
            last.runs.append(run)
            last.y0, last.y1 = min(last.y0, run.y0), max(last.y1, run.y1)
        else:
            lines.append(Line([run], run.y0, run.y1, run.y0, run.y1, x0=run.x0))
    _reassemble(lines, stats)
    return [ln for ln in lines if ln.text]


def glyph_count(boxes: Sequence[RectT], row: RectT) -> int:
    """Outline shapes (one per drawn glyph) whose centre lies in ``row``."""
    x0, y0, x1, y1 = row
    return sum(
        1 for b in boxes if x0 - 0.5 <= (b[0] + b[2]) / 2 <= x1 + 0.5 and y0 - 0.5 <= (b[1] + b[3]) / 2 <= y1 + 0.5
    )


def fit_words(words: list[Word], glyphs: Sequence[RectT]) -> list[Word]:
    """``words`` of one outline row with their boxes made the union of the drawn ``glyphs`` (outline shapes) they
    hold: Tesseract's word box can stop short of the word's last syllable ("인장력이" ended 2.3 pt inside its 이,
    a gap wider than the justified line's word spaces, which parted the cell's first line in two) or reach over a
    syllable it dropped, while the shapes are where the word is drawn. A shape belongs to the word whose box holds
    its centre, else to the nearest word less than a shape's width away (a syllable read as nothing: the "로" of
    "경우로"); a word holding no shape keeps its box."""
    boxes = [list(b) for _t, b, _c in words]
    held: list[list[RectT]] = [[] for _ in words]
    for g in glyphs:
        cx, w = (g[0] + g[2]) / 2, g[2] - g[0]
        inside = [k for k, b in enumerate(boxes) if b[0] <= cx <= b[2]]
        if inside:
            held[inside[0]].append(g)
            continue
        gaps = [(max(b[0] - g[2], g[0] - b[2]), k) for k, b in enumerate(boxes)]
        if gaps and min(gaps)[0] < w:
            held[min(gaps)[1]].append(g)
    out = []
    for (text, (x0, y0, x1, y1), conf), own in zip(words, held, strict=True):
        if own:
            x0, x1 = min(g[0] for g in own), max(g[2] for g in own)
        out.append((text, (x0, y0, x1, y1), conf))
    return out


def _inside(boxes: Sequence[RectT], rect: RectT) -> list[RectT]:
    """The outline shapes whose centre lies in ``rect``, top to bottom."""
    x0, y0, x1, y1 = rect
    return sorted(
        (b for b in boxes if x0 - 0.5 <= (b[0] + b[2]) / 2 <= x1 + 0.5 and y0 - 0.5 <= (b[1] + b[3]) / 2 <= y1 + 0.5),
        key=lambda b: b[1],
    )


def read_outlines(
    pages: Sequence[PageData], regions: list[UnreadableRegion], reader: PageOcr, stats: PageStats, outline_reason: str,
) -> list[UnreadableRegion]:
    """OCR every outline row of ``regions`` into its page's lines; the regions left unreadable (rows the engine
    read nothing from, and all other kinds)."""
    rows: dict[int, list[RectT]] = {}
    keep: list[UnreadableRegion] = []
    for u in regions:
        if u.reason == outline_reason and u.rect is not None:
            rows.setdefault(u.page_index, []).append(u.rect)
        else:
            keep.append(u)
    if rows and not reader.ready():
        return regions
    total = sum(len(v) for v in rows.values())
    done = 0
    by_index = {p.index: p for p in pages}
    charset = reader.engine.charset if reader.engine is not None else frozenset()
    lexicon = Lexicon((ln.text for p in pages for ln in p.lines), charset) if rows else None
    for page_index in sorted(rows):
        page = by_index[page_index]
        text = [r.rect for ln in page.lines for r in ln.runs]
        flat = [r for r in rows[page_index] if not pdf_outlines.vertical(r)]
        read = iter(reader.read_rows(page_index, flat, text))
        found = [
            reader.read_stack(page_index, _inside(page.glyph_boxes, r)) if pdf_outlines.vertical(r)
            else fit_words(next(read), _inside(page.glyph_boxes, r))
            for r in rows[page_index]
        ]
        glyphs = [glyph_count(page.glyph_boxes, r) for r in rows[page_index]]
        unread = add_rows(page.lines, page_index, rows[page_index], found, reader.ocr_rects, stats, lexicon, glyphs)
        keep.extend(UnreadableRegion(page_index, r, outline_reason) for r in unread)
        done += len(rows[page_index])
        if reader.progress is not None:
            reader.progress(done, total)
    return sorted(keep, key=lambda u: u.page_index)
