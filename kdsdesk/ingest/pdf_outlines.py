"""Lettering drawn as vector outlines (no text layer) → unreadable regions, so later stages can warn.

한글's PDF export sometimes draws captions, table cells, headings and running headers as filled glyph outlines.
``pdf.py`` collects glyph-sized filled paths from the drawing log of pages with drawings; here they become rows:

- a path that recurs at the same place on most pages, or that overlaps a text line, is left out;
- paths on one centre line with letter-like gaps form a row; a row counts as lettering only when it is text-like:
  two or more shapes of letter height (at least ``MIN_GLYPH_H``), most of them of about the median height and
  standing on one baseline (bottoms aligned), not one shape repeated — hatching, arrowheads at different
  heights, dots and dashes of a figure are not;
- rows inside the running header/footer bands whose line recurs on half the pages with outlines or more (a
  header or footer drawn as outlines, and the page number beside it) are running lettering, not content;
- a page with no text and mostly image is a scan;
- a table is unreadable (``table_outlined``) when outline rows make up most of the ink inside it, or when its
  label cells (header rows and first column) hold no letter at all — only digits, punctuation or stray jamo, the
  rest of Korean labels drawn as outlines — while outline rows sit inside it.
"""

from __future__ import annotations

import bisect
import re
import statistics
from collections.abc import Iterable, Sequence

from kdsdesk.ingest.pdf_page import PageData
from kdsdesk.ingest.pdf_text import Line
from kdsdesk.records import RectT, Table, UnreadableRegion

OUTLINE_REASON = "글자가 벡터 윤곽선으로 그려져 있어 읽을 수 없습니다"
SCAN_REASON = "스캔 이미지로 된 페이지입니다(문자 인식 미지원)"
TABLE_REASON = "표의 글자가 그림(윤곽선)으로 되어 있어 읽을 수 없습니다"
TABLE_SHARE = 0.5  # outline lettering's share of the ink inside a table above which the table is unreadable
JUNK_LABELS = 0.8  # share of label cells with no letter at all (digits, punctuation, stray jamo) ...
MIN_JUNK_LABELS = 3  # ... among at least this many label cells
_LETTER = re.compile(r"[가-힣A-Za-z\u0370-\u03ff\u2160-\u217f]")  # Hangul syllables, Latin, Greek, Roman numerals
MIN_GLYPH_H = 3.5  # points: the median shape of a row at least this tall (≈5 pt type)
LONE_H = 0.15  # a one-shape row is a syllable when its height is the page's letter height within this share ...
LONE_W = (0.5, 1.3)  # ... and its width this many times its height
BAND = 0.12  # top/bottom share of the page for running headers/footers (as ``pdf_layout.RUNNING_BAND``)
STACK_DX = 0.3  # the syllables of a label written downwards share their centre x within this × letter height ...
STACK_GAP = 1.6  # ... and stand at most this many letter heights apart, one under the other ...
MIN_STACK = 3  # ... at least this many of them, each alone on its line (nothing within STACK_ALONE letter heights)
STACK_ALONE = 0.6
ON_TEXT = 0.5  # a shape overlapping a text run by this share of the narrower of the two (across and down) is that text


def _on_text(box: RectT, lines: list[Line], tops: list[float], tallest: float) -> bool:
    """Whether ``box`` overlaps the text of a line (one of its runs: a line of a table row may have text at both
    ends of a cell whose lettering between is outlines) by at least half of the narrower of the two, across and
    down: a run's box is its characters' advance, which reaches a fraction of a point into the outlined syllable
    beside it (the "," after an outlined 강 or 로: "ㄱ형강," had lost its 강); ``lines`` sorted by top edge
    (``tops``), none taller than ``tallest``."""
    x0, y0, x1, y1 = box
    for k in range(bisect.bisect_left(tops, y0 - tallest - 1.0), len(lines)):
        ln = lines[k]
        if ln.y0 >= y1:
            break
        if x0 < ln.x1 and x1 > ln.x0 and y0 < ln.y1 and any(
            min(x1, r.x1) - max(x0, r.x0) > ON_TEXT * min(x1 - x0, r.x1 - r.x0)
            and min(y1, r.y1) - max(y0, r.y0) > ON_TEXT * min(y1 - y0, r.y1 - r.y0)
            for r in ln.runs
        ):
            return True
    return False


def _rows(boxes: list[RectT]) -> list[list[RectT]]:
    """Shapes on one centre line, left to right, with gaps no wider than 1.5 letter heights. Each shape joins the
    row whose last shape ends just left of it on its centre line (of the rows still open at its left edge): glyphs
    of one line whose centres differ by a fraction of a point stay one row ("해당없음", not "해당없" and "음")."""
    rows: list[list[RectT]] = []
    open_rows: list[list[RectT]] = []
    for b in sorted(boxes, key=lambda b: (b[0], b[1])):
        h = b[3] - b[1]
        cy = (b[1] + b[3]) / 2
        best: tuple[float, list[RectT]] | None = None
        keep = []
        for row in open_rows:
            last = row[-1]
            lh = max(last[3] - last[1], h)
            gap = b[0] - last[2] + 0.5
            if gap > 1.5 * lh + 0.5 + 12.0:  # far behind every shape to come: closed
                continue
            keep.append(row)
            d = abs(cy - (last[1] + last[3]) / 2)
            if d <= 0.5 * lh and 0 <= gap <= 1.5 * lh + 0.5 and (best is None or d < best[0]):
                best = (d, row)
        open_rows = keep
        if best is not None:
            best[1].append(b)
        else:
            rows.append([b])
            open_rows.append(rows[-1])
    rows.sort(key=lambda r: (round((r[0][1] + r[0][3]) / 8), r[0][0]))
    return rows


def text_like(row: Sequence[RectT]) -> bool:
    """Two or more letter-height shapes, most of them (all of a pair) of about the median height and standing on
    one baseline, and not one shape repeated five times or more (digits like "111" repeat too)."""
    if len(row) < 2:
        return False
    heights = [b[3] - b[1] for b in row]
    mh = statistics.median(heights)
    if mh < MIN_GLYPH_H:
        return False
    if len(row) >= 5 and all(
        abs(b[3] - b[1] - heights[0]) <= 0.05 and abs((b[2] - b[0]) - (row[0][2] - row[0][0])) <= 0.05 for b in row
    ):
        return False  # one shape repeated: hatching, a dotted or dashed line
    base = statistics.median(b[3] for b in row)
    fit = sum(
        1 for b, h in zip(row, heights, strict=True) if 0.5 * mh <= h <= 1.6 * mh and abs(b[3] - base) <= 0.25 * mh
    )
    return fit >= max(2, -(-3 * len(row) // 5))


def lone_letters(rows: Sequence[Sequence[RectT]], lettering: Sequence[Sequence[RectT]]) -> list[Sequence[RectT]]:
    """Rows of one shape that are a one-syllable word ("절", "예", the "비" wrapped under "폭두께"): of the page's
    letter height (the median shape of its lettering rows, ± ``LONE_H``) and of a syllable's proportions, and on
    the centre line of a lettering row or right above or below one (overlapping it across, within one letter
    height). A lone dot, arrowhead, circle or box of a figure is of another size or stands apart."""
    if not lettering:
        return []
    mh = statistics.median(b[3] - b[1] for row in lettering for b in row)
    rects = [_rect(row) for row in lettering]
    out = []
    for row in rows:
        if len(row) != 1:
            continue
        x0, y0, x1, y1 = row[0]
        h, w = y1 - y0, x1 - x0
        if abs(h - mh) > LONE_H * mh or not LONE_W[0] * h <= w <= LONE_W[1] * h:
            continue
        cy = (y0 + y1) / 2
        if any(
            abs((r[1] + r[3]) / 2 - cy) <= 0.25 * mh
            or (min(x1, r[2]) - max(x0, r[0]) > 0 and max(r[1] - y1, y0 - r[3]) <= mh)
            for r in rects
        ):
            out.append(row)
    return out


def _syllable_sized(b: RectT, mh: float) -> bool:
    h, w = b[3] - b[1], b[2] - b[0]
    return abs(h - mh) <= LONE_H * mh and LONE_W[0] * h <= w <= LONE_W[1] * h


def vertical_stacks(
    rows: Sequence[Sequence[RectT]], lettering: Sequence[Sequence[RectT]], rules: Sequence[tuple[float, float, float]],
    lines: Sequence[Line] = (),
) -> list[list[RectT]]:
    """Labels written downwards, one syllable under the other, in one cell beside the rows they name ("자유돌출판",
    "양연지지판"): ``MIN_STACK`` or more one-shape rows of the page's letter height and a syllable's proportions,
    each alone on its line (no other shape or text run of ``lines`` within ``STACK_ALONE`` letter heights),
    centres on one vertical (within ``STACK_DX`` letter heights), at most ``STACK_GAP`` heights apart, with no
    horizontal rule (``rules``: x0, x1, y) crossing between two of them — one-syllable labels of rows parted by
    rules, or standing in rows beside other words, stay words of their own."""
    if not lettering:
        return []
    mh = statistics.median(b[3] - b[1] for row in lettering for b in row)
    near = STACK_ALONE * mh
    if sum(1 for row in rows if len(row) == 1 and _syllable_sized(row[0], mh)) < MIN_STACK:
        return []
    others = [b for row in rows for b in row] + [r.rect for ln in lines for r in ln.runs]

    def alone(b: RectT) -> bool:
        return not any(
            o is not b and o[1] < b[3] and o[3] > b[1] and b[0] - near < o[2] and o[0] < b[2] + near
            and not (o[0] >= b[0] - 0.5 and o[2] <= b[2] + 0.5 and o[1] >= b[1] - 0.5 and o[3] <= b[3] + 0.5)
            for o in others
        )

    singles = sorted(
        (row[0] for row in rows if len(row) == 1 and _syllable_sized(row[0], mh) and alone(row[0])),
        key=lambda b: b[1],
    )
    stacks: list[list[RectT]] = []
    for b in singles:
        cx = (b[0] + b[2]) / 2
        for st in stacks:
            last = st[-1]
            if (
                abs((last[0] + last[2]) / 2 - cx) <= STACK_DX * mh and 0 <= b[1] - last[3] <= STACK_GAP * mh
                and not any(x0 < cx < x1 and last[3] < y < b[1] for x0, x1, y in rules)
            ):
                st.append(b)
                break
        else:
            stacks.append([b])
    return [st for st in stacks if len(st) >= MIN_STACK]


def vertical(rect: RectT) -> bool:
    """Whether an outline region is a label written downwards (``vertical_stacks``): far taller than wide."""
    return rect[3] - rect[1] > 2.0 * (rect[2] - rect[0])


def _rect(row: Sequence[RectT]) -> RectT:
    return (min(b[0] for b in row), min(b[1] for b in row), max(b[2] for b in row), max(b[3] for b in row))


def _band_key(rect: RectT, height: float) -> tuple[int, int] | None:
    """(0 top / 1 bottom, centre line in 4-point steps) of a row lying wholly inside a running band."""
    if rect[3] <= BAND * height:
        return 0, round((rect[1] + rect[3]) / 8)
    if rect[1] >= (1 - BAND) * height:
        return 1, round((rect[1] + rect[3]) / 8)
    return None


def outline_regions(pages: list[PageData]) -> list[UnreadableRegion]:
    """Unreadable regions: rows of outline lettering that are not running headers/footers, and scanned pages."""
    need = max(2, (len(pages) + 1) // 2)
    counts: dict[tuple[int, int], int] = {}
    for p in pages:
        for key in {(round(g[0]), round(g[1])) for g in p.glyph_boxes}:
            counts[key] = counts.get(key, 0) + 1
    found: list[tuple[PageData, RectT]] = []
    for p in pages:
        if not p.lines and p.image_share > 0.5:
            continue
        lines = sorted(p.lines, key=lambda ln: ln.y0)
        tops = [ln.y0 for ln in lines]
        tallest = max((ln.y1 - ln.y0 for ln in lines), default=0.0)
        boxes = [
            b for b in p.glyph_boxes
            if counts[(round(b[0]), round(b[1]))] < need and not _on_text(b, lines, tops, tallest)
        ]
        rows = _rows(boxes)
        lettering = [row for row in rows if text_like(row)]
        found.extend((p, _rect(row)) for row in lettering)
        stacks = vertical_stacks(rows, lettering, [(r.x0, r.x1, r.y) for r in p.rules], lines)
        stacked = {b for st in stacks for b in st}
        found.extend((p, _rect(st)) for st in stacks)
        found.extend((p, row[0]) for row in lone_letters(rows, lettering) if row[0] not in stacked)
    running = _running_keys(found, sum(1 for p in pages if p.glyph_boxes))
    out: list[UnreadableRegion] = []
    for p in pages:
        if not p.lines and p.image_share > 0.5:
            out.append(UnreadableRegion(p.index, (0.0, 0.0, p.width, p.height), SCAN_REASON))
    for p, rect in found:
        band = _band_key(rect, p.height)
        if band is not None and any((band[0], band[1] + d) in running for d in (-1, 0, 1)):
            continue
        out.append(UnreadableRegion(p.index, rect, OUTLINE_REASON))
    return sorted(out, key=lambda u: u.page_index)


def _running_keys(found: list[tuple[PageData, RectT]], n_pages: int) -> set[tuple[int, int]]:
    """Band lines that hold outline rows on half or more (at least two) of the pages with outlines."""
    pages_of: dict[tuple[int, int], set[int]] = {}
    for p, rect in found:
        band = _band_key(rect, p.height)
        if band is not None:
            pages_of.setdefault(band, set()).add(p.index)
    need = max(2, (n_pages + 1) // 2)
    return {k for k, v in pages_of.items() if len(v) >= need}


def _inside(rect: RectT, box: RectT) -> bool:
    cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
    return box[0] - 2 <= cx <= box[2] + 2 and box[1] < cy < box[3]


def _area(r: RectT) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def table_outlined(table: Table, text_rects: Iterable[RectT], regions: Sequence[UnreadableRegion]) -> bool:
    """Whether ``table`` (its cells' text at ``text_rects``) cannot be read because its lettering is drawn as
    outlines: outline rows (``regions`` of its page) cover at least ``TABLE_SHARE`` of the ink inside it, or at
    least two outline rows lie inside it and its label cells (header rows, first column) are nearly all without a
    letter (``1``, ``.)``, ``( )``, ``ㄱ``: the digits and brackets around labels whose Hangul is outlines)."""
    if table.bbox is None:
        return False
    box = table.bbox
    rows = [u.rect for u in regions if u.rect is not None and u.reason == OUTLINE_REASON and _inside(u.rect, box)]
    if not rows:
        return False
    outline = sum(_area(r) for r in rows)
    text = sum(_area(r) for r in text_rects)
    if outline >= TABLE_SHARE * (outline + text):
        return True
    labels = [c.text for c in table.cells if c.text.strip() and (c.row < table.header_rows or c.col == 0)]
    junk = sum(1 for t in labels if not _LETTER.search(t))
    return len(rows) >= 2 and len(labels) >= MIN_JUNK_LABELS and junk >= JUNK_LABELS * len(labels)
