"""HWP-exported PDF → ``ParsedDoc``: open safely, read every page, and hand the lines to the layout stage.

``parse_pdf`` owns the PDF-level concerns: Korean ``KnownError``s for files we cannot read (damaged/truncated,
encrypted, scanned without a text layer, no pages), page-by-page reading with PyMuPDF (``rawdict`` text with
character boxes, ``get_bboxlog`` boxes for rules and vector-outline glyphs, image coverage), the statistics and
the document code/title/year (``clauses.detect_doc_meta``). Lines come from ``pdf_text``; running headers/footers,
headings, paragraphs, equations and tables are assembled by ``pdf_layout`` and ``pdf_tables``. Lettering drawn as
vector outlines and scanned pages are read by OCR (``pdf_ocr``, ``ocr``) when the engine is installed; the
document stays open until the layout has read them.

Run it through ``kdsdesk.ingest.isolate`` to bound the time a hostile file may take.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kdsdesk.errors import KnownError
from kdsdesk.ingest import eqfont, ocr, pua
from kdsdesk.ingest.clauses import detect_doc_meta
from kdsdesk.ingest.pdf_layout import RUNNING_BAND, PageData, layout_document
from kdsdesk.ingest.pdf_ocr import PageOcr, scan_lines
from kdsdesk.ingest.pdf_table_geometry import horizontal_rules, vertical_rules
from kdsdesk.ingest.pdf_text import PageStats, build_lines, extract_runs
from kdsdesk.records import DocRef, ParsedDoc, RectT, UnreadableRegion

log = logging.getLogger(__name__)

# Bump whenever the blocks produced for the same file may change: libraries re-index PDF files.
PARSER_VERSION = "12"
SCAN_DPI = 300  # a scanned page is read whole at this resolution
SCAN_SHARE = 0.5  # a page with no text layer and at least this share of image is a scan

OcrProgress = Callable[[str, int, int], None]  # (Korean stage, done, total)


def version() -> str:
    """The parser's version with the OCR engine's (``ocr.engine_version``): installing, upgrading or removing the
    engine or its Korean model makes a library read its PDFs again."""
    return f"{PARSER_VERSION}+ocr-{ocr.engine_version()}"

MIN_TEXT_CHARS = 20  # fewer characters in the whole file and images covering its pages: a scan


def _check_complete(path: Path) -> None:
    """A PDF ends with ``%%EOF``; without it the file was cut off (a broken download or copy). Bytes after the
    last ``%%EOF`` are accepted when they hold no PDF objects (padding, a signature, a mail client's junk); objects
    after it are an update cut off before its own ``%%EOF``."""
    import mmap

    with path.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        end = mm.rfind(b"%%EOF")
        complete = end >= 0 and all(mm.find(token, end) < 0 for token in (b" obj", b"xref", b"trailer"))
    if not complete:
        raise KnownError(
            "PDF 파일의 끝부분이 잘려 있습니다(다운로드나 복사가 중간에 끊긴 파일). 원본 파일을 다시 받아 주세요.",
            path=str(path),
        )


def _open(path: Path) -> Any:
    import pymupdf

    _check_complete(path)
    opener: Any = pymupdf.open
    try:
        doc: Any = opener(path, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as exc:
        raise KnownError(
            "PDF 파일이 손상되었거나 내용이 잘려 있어 열 수 없습니다. 원본 파일을 다시 받아 주세요.", path=str(path)
        ) from exc
    if doc.needs_pass and not doc.authenticate(""):
        doc.close()
        raise KnownError(
            "암호로 보호된 PDF입니다. PDF 프로그램에서 암호를 해제한 사본을 만든 뒤 추가하세요.", path=str(path)
        )
    if doc.page_count == 0:
        doc.close()
        raise KnownError("PDF에 페이지가 없습니다. 파일이 손상되었을 수 있습니다.", path=str(path))
    return doc


@functools.cache
def _path_log_device() -> Any:
    """A MuPDF device class that records what ``Page.get_bboxlog()`` records for paths and images, with the same
    bounds (``fz_bound_path`` with the stroke state, the image's unit square transformed), and no callback for
    text: the drawing log of a text-heavy page at about 60 % of ``get_bboxlog``'s cost."""
    from pymupdf import mupdf

    class PathLog(mupdf.FzDevice2):  # type: ignore[misc]
        def __init__(self, out: list[tuple[str, Any]]) -> None:
            super().__init__()
            self.out = out
            self.use_virtual_fill_path()
            self.use_virtual_stroke_path()
            self.use_virtual_fill_image()
            self.use_virtual_fill_image_mask()

        def fill_path(self, ctx: Any, path: Any, even_odd: Any, ctm: Any, *args: Any) -> None:
            self.out.append(("fill-path", mupdf.ll_fz_bound_path(path, None, ctm)))

        def stroke_path(self, ctx: Any, path: Any, stroke: Any, ctm: Any, *args: Any) -> None:
            self.out.append(("stroke-path", mupdf.ll_fz_bound_path(path, stroke, ctm)))

        def fill_image(self, ctx: Any, image: Any, ctm: Any, *args: Any) -> None:
            unit = mupdf.FzRect(mupdf.FzRect.Fixed_UNIT)
            self.out.append(("fill-image", mupdf.ll_fz_transform_rect(unit.internal(), ctm)))

        def fill_image_mask(self, ctx: Any, image: Any, ctm: Any, *args: Any) -> None:
            self.out.append(("fill-imgmask", mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm)))

    return PathLog


def _drawing_log(page: Any) -> list[tuple[str, RectT]]:
    """``(kind, bbox)`` of the page's paths and images in drawing order, as ``page.get_bboxlog()`` gives them
    (text entries left out)."""
    from pymupdf import mupdf

    if page.rotation != 0:  # get_bboxlog un-rotates the page while it runs
        return [(k, tuple(b)) for k, b in page.get_bboxlog() if "path" in k or "im" in k]
    found: list[tuple[str, Any]] = []
    dev = _path_log_device()(found)
    mupdf.fz_run_page(page.this, dev, mupdf.FzMatrix(), mupdf.FzCookie())
    mupdf.fz_close_device(dev)
    return [(k, (r.x0, r.y0, r.x1, r.y1)) for k, r in found]


def _read_page(page: Any, index: int, stats: PageStats, pstats: pua.PuaStats) -> PageData:
    """One page: ``rawdict`` text with character boxes, and the drawing log's path boxes (rules, outline glyphs)
    and image boxes. The log is read only where the text page's vector blocks (``TEXT_COLLECT_VECTORS``; too
    coarse to use directly: stacked rules merge, outline glyphs split) show drawings in the body, or the page has
    almost no text."""
    import pymupdf

    flags = (pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES) | pymupdf.TEXT_COLLECT_VECTORS
    raw = page.get_text("rawdict", flags=flags)
    before = stats.chars
    runs = extract_runs(raw, stats, pstats)
    lines = build_lines(runs, pstats, stats)
    width, height = float(page.rect.width), float(page.rect.height)
    top, bottom = RUNNING_BAND * height, (1 - RUNNING_BAND) * height
    drawn = any(b.get("type") == 3 and b["bbox"][3] > top and b["bbox"][1] < bottom for b in raw.get("blocks", ()))
    if not drawn and stats.chars - before >= MIN_TEXT_CHARS:  # plain text page: no rules, outlines or scan
        return PageData(index, width, height, lines, [], [], 0.0)
    log_boxes = _drawing_log(page)
    glyph_boxes = []
    image_area = 0.0
    for kind, box in log_boxes:
        x0, y0, x1, y1 = box
        w, h = x1 - x0, y1 - y0
        if kind == "fill-path" and 2.0 <= h <= 24.0 and 0.3 <= w <= 1.6 * h + 1.0:
            glyph_boxes.append((float(x0), float(y0), float(x1), float(y1)))
        elif "image" in kind:
            image_area += max(0.0, min(x1, width) - max(x0, 0.0)) * max(0.0, min(y1, height) - max(y0, 0.0))
    rules = horizontal_rules(log_boxes, width)
    return PageData(
        index, width, height, lines, rules, glyph_boxes, image_area / (width * height or 1.0), vertical_rules(log_boxes)
    )


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """The parse makes hundreds of thousands of small acyclic objects that all live until it ends; the cyclic
    collector would walk them again and again and free nothing (about 12 % of the parse's CPU time)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def parse_pdf(
    path: Path, *, use_ocr: bool = True, progress: OcrProgress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ParsedDoc:
    """Parse one HWP-exported PDF. Raises ``KnownError`` (Korean) for files that cannot be read.

    ``use_ocr``: read outline lettering and scanned pages when the OCR engine is installed; ``progress`` hears
    about OCR work (rows or pages read), and ``cancelled`` is asked between pages (``Cancelled`` is raised)."""
    from kdsdesk.hashing import sha256_of

    path = Path(path).resolve()
    sha = sha256_of(path)
    doc = _open(path)
    with _gc_paused():
        return _parse_open(doc, path, sha, use_ocr, progress, cancelled)


def _reader(
    doc: Any, use_ocr: bool, progress: OcrProgress | None, cancelled: Callable[[], bool] | None
) -> PageOcr | None:
    if not use_ocr or ocr.engine_version() == "none":  # tesserocr or the Korean model missing
        return None
    report = None
    if progress is not None:
        tell = progress

        def report(done: int, total: int) -> None:
            tell("문자 인식", done, total)

    return PageOcr(doc, None, report, cancelled)


def _read_scans(pages: list[PageData], reader: PageOcr, stats: PageStats) -> None:
    """Pages with no text layer that are mostly image: read whole by OCR."""
    scans = [p for p in pages if not p.lines and p.image_share > SCAN_SHARE]
    if scans and not reader.ready():
        return
    for k, p in enumerate(scans):
        words = reader.read_page(p.index, (0.0, 0.0, p.width, p.height), SCAN_DPI)
        p.lines = scan_lines(p.index, words, reader.ocr_rects, stats)
        stats.chars += sum(len(ln.text) for ln in p.lines)
        if reader.progress is not None:
            reader.progress(k + 1, len(scans))


def _parse_open(
    doc: Any, path: Path, sha: str, use_ocr: bool = True, progress: OcrProgress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ParsedDoc:
    stats = PageStats()
    pstats = pua.PuaStats()
    pages: list[PageData] = []
    broken: list[UnreadableRegion] = []
    fonts = eqfont.bind(doc)  # the file's HyhwpEQ outlines (rule ink, bracket codes) travel with its glyphs
    try:
        for i in range(doc.page_count):
            try:
                pages.append(_read_page(doc[i], i, stats, pstats))
            except (RuntimeError, ValueError) as exc:  # a damaged page (truncated stream, bad object)
                log.warning("page %d of %s unreadable: %s", i + 1, path, exc)
                broken.append(UnreadableRegion(i, None, "손상되어 읽을 수 없는 페이지입니다"))
        n_pages = doc.page_count
        reader = _reader(doc, use_ocr, progress, cancelled) if pages else None
        if reader is not None:
            _read_scans(pages, reader, stats)
        return _finish(path, sha, pages, broken, n_pages, stats, pstats, reader)
    finally:
        eqfont.unbind(fonts)
        doc.close()


def _finish(
    path: Path, sha: str, pages: list[PageData], broken: list[UnreadableRegion], n_pages: int, stats: PageStats,
    pstats: pua.PuaStats, reader: PageOcr | None,
) -> ParsedDoc:
    if not pages:
        raise KnownError("PDF의 모든 페이지가 손상되어 읽을 수 없습니다. 원본 파일을 다시 받아 주세요.", path=str(path))
    if (stats.chars < MIN_TEXT_CHARS and any(p.image_share > 0.3 for p in pages)) or stats.chars == 0:
        if any(p.image_share > 0.3 for p in pages):
            raise KnownError(
                "스캔한 이미지로 된 PDF입니다(글자 정보 없음). 문자 인식(OCR) 엔진이나 한국어 모델이 설치되어 있지 "
                "않거나 글자를 읽지 못했습니다. 한글(HWP)에서 PDF로 저장한 파일이나 HWPX 파일을 추가하세요.",
                path=str(path),
            )
        raise KnownError("PDF에 읽을 수 있는 글자가 없습니다.", path=str(path))
    first_lines = [ln.text for p in pages[:2] for ln in p.lines][:60]  # before running lines are removed
    code, title, year = detect_doc_meta(first_lines, path.name)
    if not year and len(pages) > 2:  # KCSC PDFs draw their cover as outlines; the colophon repeats "KDS … : 2017"
        last_code, last_title, last_year = detect_doc_meta([ln.text for ln in pages[-1].lines][:60], path.name)
        if last_year and last_code == code:
            year, title = last_year, title or last_title
    result = layout_document(pages, pstats, stats, reader)
    unreadable = tuple(sorted(broken + result.unreadable, key=lambda u: (u.page_index, u.rect or (0, 0, 0, 0))))
    total = pstats.hyhwpeq_total
    out_stats: dict[str, float] = {
        "pages": float(n_pages),
        "chars": float(stats.chars),
        "pua_total": float(total),
        "pua_decoded": float(pstats.decoded),
        "pua_rebuilt": float(pstats.rebuilt),
        "pua_unknown": float(pstats.unknown),
        "pua_symbol": float(pstats.symbol_font),
        "pua_coverage": pstats.coverage,
        "equations": float(stats.equations),
        "unreadable_equations": float(stats.unreadable_equations),
        "tables": float(sum(1 for b in result.blocks if b.table is not None)),
        "headings": float(sum(1 for b in result.blocks if b.kind == "heading")),
        "running_lines_removed": float(result.running_removed),
        "unreadable_regions": float(len(unreadable)),
        "rotated_chars": float(stats.rotated_chars),
        "ocr_rows": float(reader.rows_read if reader is not None else 0),
        "ocr_pages": float(reader.pages_read if reader is not None else 0),
        "ocr_words": float(len(reader.ocr_rects) if reader is not None else 0),
    }
    return ParsedDoc(
        doc=DocRef(str(path), sha, "pdf", code, title, year),
        blocks=tuple(result.blocks),
        n_pages=n_pages,
        page_labels=result.page_labels,
        unreadable=unreadable,
        stats=out_stats,
        ocr_engine=reader.engine.name if reader is not None and reader.engine is not None and reader.ocr_rects else "",
    )
