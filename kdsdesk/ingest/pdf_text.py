"""Characters of one PDF page → runs → visual lines, with equation glyphs put back into their sentences.

PyMuPDF's ``rawdict`` gives spans out of reading order where 한글 exported an inline equation (HyhwpEQ glyphs are
separate spans, sub/superscripts smaller and shifted, fractions as a bar of U+E06D glyphs with the numerator above
and the denominator below). This module

- cuts every span into ``Run``s (a run never contains a fraction bar or a wide gap, so table cells stay apart);
  symbol-font PUA (bullets) decoded by ``kdsdesk.ingest.pua``; HyhwpEQ runs keep their raw glyphs;
- groups each U+E06D bar with the equation runs above, below and under it (fraction, radical): a run joins the bar
  nearest to it and only what stands on the bar (or on its numerator/denominator) is taken, so rows of a table
  packed a line apart keep their own equations; the group sits on its fraction bar's line, not its vinculum's;
- clusters runs into visual lines by vertical position (sub/superscripts and fractions join their line; a tall
  bracket's pieces join the line that holds them);
- assembles the text of a line (or of a table cell) with its ``Span`` rectangles; touching equation runs are
  linearised by ``kdsdesk.ingest.pdf_math`` (``F_y``, ``x^2``, ``(num)/(den)``, unknown codes ``□``, never a guess).

Coordinates are PyMuPDF points, top-left origin.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kdsdesk.ingest import pdf_math, pua
from kdsdesk.ingest.pdf_bars import axis, group_bars
from kdsdesk.ingest.pdf_run import BAR as BAR
from kdsdesk.ingest.pdf_run import Run as Run
from kdsdesk.records import RectT

GAP_SPLIT = 0.5  # a gap wider than this × font size (with no space character) starts a new run
MATH_GAP = 0.35  # equation runs closer than this × size form one equation
_PUA = re.compile("[\ue000-\uf8ff]")
PRIMES = frozenset("'\u2019\u2032")  # a prime drawn in the text font: ASCII apostrophe, ’, ′


@dataclass(slots=True)
class Line:
    """A visual line: runs sorted left to right, its text and ``(start, end, rect)`` spans into that text."""

    runs: list[Run]
    y0: float
    y1: float
    core0: float = 0.0  # band of the line's main-size runs (where scripts and fractions attach)
    core1: float = 0.0
    text: str = ""
    spans: list[tuple[int, int, RectT]] = field(default_factory=list)
    trail: bool = False  # the line ends with whitespace in the source
    unreadable: list[RectT] = field(default_factory=list)  # equations printed as ASCII codes
    x0: float = 0.0
    x1: float = 0.0
    size: float = 0.0  # dominant font size (by characters)
    bold: bool = False

    def measure(self) -> None:
        """Extent, dominant size and boldness from the runs (once, after assembly)."""
        self.x0 = min(r.x0 for r in self.runs)
        self.x1 = max(r.x1 for r in self.runs)
        sizes: dict[float, int] = {}
        n = n_bold = 0
        for r in self.runs:
            k = round(r.size, 1)
            sizes[k] = sizes.get(k, 0) + len(r.text)
            n += len(r.text)
            n_bold += len(r.text) if r.bold else 0
        self.size = max(sizes, key=lambda k: sizes[k]) if sizes else 0.0
        self.bold = n > 0 and n_bold * 2 > n

    @property
    def math_share(self) -> float:
        n = sum(len(r.text) for r in self.runs)
        return sum(len(r.text) for r in self.runs if r.math) / n if n else 0.0

    @property
    def rect(self) -> RectT:
        return (self.x0, self.y0, self.x1, self.y1)


@dataclass(slots=True)
class PageStats:
    """Counters of one page (added up per document); PUA glyphs are counted in ``pua.PuaStats``.

    ``linear`` remembers each equation glyph group already linearised in the document (keyed by the glyphs'
    identities; a table's cells re-assemble the runs of lines assembled before): its text and the PUA counts the
    work added, so a repeat gives the same text and the same counts without redoing the layout. ``drawn`` does the
    same for groups drawn alike elsewhere in the document (the same glyphs, fonts and sizes at the same places
    relative to the first glyph: ``F_y`` printed a hundred times is laid out once).
    """

    chars: int = 0
    rotated_chars: int = 0
    equations: int = 0
    unreadable_equations: int = 0
    linear: dict[tuple[int, ...], tuple[str, pua.PuaStats, list[pdf_math.Glyph]]] = field(default_factory=dict)
    drawn: dict[tuple[object, ...], tuple[str, pua.PuaStats]] = field(default_factory=dict)  # by glyphs as drawn

    def add(self, other: PageStats) -> None:
        self.chars += other.chars
        self.rotated_chars += other.rotated_chars
        self.equations += other.equations
        self.unreadable_equations += other.unreadable_equations


def extract_runs(raw: dict[str, Any], stats: PageStats, pstats: pua.PuaStats) -> list[Run]:
    """Runs of a page from PyMuPDF ``get_text("rawdict")`` output (horizontal text only)."""
    out: list[Run] = []
    for block in raw.get("blocks", ()):
        if block.get("type") != 0:
            continue
        for line in block["lines"]:
            d = line.get("dir", (1.0, 0.0))
            if abs(d[1]) > 0.1 or d[0] < 0:
                stats.rotated_chars += sum(len(s["chars"]) for s in line["spans"])
                continue
            for span in line["spans"]:
                if span["chars"]:
                    _span_runs(span, stats, pstats, out)
    return out


def _span_runs(span: dict[str, Any], stats: PageStats, pstats: pua.PuaStats, out: list[Run]) -> None:
    font: str = span["font"]
    chars: list[dict[str, Any]] = span["chars"]
    stats.chars += len(chars)
    size = float(span["size"]) or 1.0
    math = pua.is_hyhwpeq_font(font)
    bold = bool(span["flags"] & 16) or "bold" in font.lower()
    origin_y = float(span["origin"][1])
    _, sy0, _, sy1 = span["bbox"]
    if math:
        _math_runs(chars, font, size, bold, origin_y, sy0, sy1, out)
        return
    text = "".join([ch["c"] for ch in chars])
    if len(text) == len(chars) and _PUA.search(text) is None:
        _plain_runs(chars, text, size, bold, origin_y, sy0, sy1, out)
        return
    gap = GAP_SPLIT * size
    buf: list[str] = []
    glyphs: list[pdf_math.Glyph] = []
    bx0 = bx1 = -1.0  # extent of the non-space characters in buf
    lead = False
    cur_bar = False
    last_x1 = -1e9

    def flush(trail: bool) -> None:
        nonlocal buf, glyphs, bx0, bx1, lead
        text = "".join(buf)
        if text:
            out.append(
                Run(text, bx0, sy0, bx1, sy1, size, origin_y, bold, glyphs if math else None, cur_bar,
                    lead, trail, (sy0 + sy1) / 2)
            )
        elif (lead or trail) and out:
            out[-1].trail = True
        buf, glyphs = [], []
        bx0 = bx1 = -1.0
        lead = False

    for ch in chars:
        c: str = ch["c"]
        bbox = ch["bbox"]
        x0, x1 = bbox[0], bbox[2]
        if c.isspace():
            if buf:
                flush(True)
            else:
                lead = True
            last_x1 = max(last_x1, x1)
            continue
        is_bar = math and c == BAR
        if buf and (is_bar != cur_bar or x0 - last_x1 > gap):
            flush(False)
        cur_bar = is_bar
        raw_pua = "\ue000" <= c <= "\uf8ff"
        if math:
            glyphs.append(pdf_math.Glyph(c, tuple(bbox), size, font, raw_pua, tuple(ch["origin"])))
            if raw_pua:
                c = pua.decode_char(c, font) or ""
        elif raw_pua:
            pstats.symbol_font += 1
            c = pua.decode_char(c, font) or ""
            if not c:
                continue
        if bx0 < 0:
            bx0 = x0
        bx1 = max(bx1, x1)
        last_x1 = max(last_x1, x1)
        buf.append(c or BAR)
    if buf:
        flush(False)
    elif lead and out:
        out[-1].trail = True


def _math_runs(
    chars: list[dict[str, Any]], font: str, size: float, bold: bool, base: float, sy0: float, sy1: float,
    out: list[Run],
) -> None:
    """``_span_runs`` for an equation-font span: runs keep their raw glyphs; U+E06D bars are runs of their own."""
    gap = GAP_SPLIT * size
    cy = (sy0 + sy1) / 2
    buf: list[str] = []
    glyphs: list[pdf_math.Glyph] = []
    bx0 = bx1 = -1.0  # extent of the non-space characters in buf
    lead = cur_bar = False
    last_x1 = -1e9
    for ch in chars:
        c: str = ch["c"]
        bbox = ch["bbox"]
        x0, x1 = bbox[0], bbox[2]
        if c.isspace():
            if buf:
                out.append(Run("".join(buf), bx0, sy0, bx1, sy1, size, base, bold, glyphs, cur_bar, lead, True, cy))
                buf, glyphs = [], []
                bx0 = bx1 = -1.0
                lead = False
            else:
                lead = True
            if x1 > last_x1:
                last_x1 = x1
            continue
        is_bar = c == BAR
        if buf and (is_bar != cur_bar or x0 - last_x1 > gap):
            out.append(Run("".join(buf), bx0, sy0, bx1, sy1, size, base, bold, glyphs, cur_bar, lead, False, cy))
            buf, glyphs = [], []
            bx0 = bx1 = -1.0
            lead = False
        cur_bar = is_bar
        raw_pua = "\ue000" <= c <= "\uf8ff"
        glyphs.append(pdf_math.Glyph(c, tuple(bbox), size, font, raw_pua, tuple(ch["origin"])))
        if raw_pua:
            c = pua.decode_char(c, font) or ""
        if bx0 < 0:
            bx0 = x0
        if x1 > bx1:
            bx1 = x1
        if x1 > last_x1:
            last_x1 = x1
        buf.append(c or BAR)
    if buf:
        out.append(Run("".join(buf), bx0, sy0, bx1, sy1, size, base, bold, glyphs, cur_bar, lead, False, cy))
    elif lead and out:
        out[-1].trail = True


def _plain_runs(
    chars: list[dict[str, Any]], text: str, size: float, bold: bool, base: float, sy0: float, sy1: float,
    out: list[Run],
) -> None:
    """``_span_runs`` for a span of ordinary text (no equation font, no PUA): the same runs, fewer steps."""
    gap = GAP_SPLIT * size
    cy = (sy0 + sy1) / 2
    start = -1  # first character of the current run
    rx0 = rx1 = 0.0  # its extent
    lead = False
    last_x1 = -1e9  # right edge of everything seen so far (spaces included)
    for i, ch in enumerate(chars):
        bbox = ch["bbox"]
        x1 = bbox[2]
        if text[i].isspace():
            if start >= 0:
                out.append(Run(text[start:i], rx0, sy0, rx1, sy1, size, base, bold, None, False, lead, True, cy))
                start = -1
                lead = False
            else:
                lead = True
        elif start < 0:
            start, rx0, rx1 = i, bbox[0], max(-1.0, x1)
        elif bbox[0] - last_x1 > gap:
            out.append(Run(text[start:i], rx0, sy0, rx1, sy1, size, base, bold, None, False, lead, False, cy))
            start, rx0, rx1 = i, bbox[0], max(-1.0, x1)
            lead = False
        else:
            if rx0 < 0:  # as the general loop: a run starting left of the page takes a later x0
                rx0 = bbox[0]
            if x1 > rx1:
                rx1 = x1
        if x1 > last_x1:
            last_x1 = x1
    if start >= 0:
        out.append(Run(text[start:], rx0, sy0, rx1, sy1, size, base, bold, None, False, lead, False, cy))
    elif lead and out:
        out[-1].trail = True


# -- lines ---------------------------------------------------------------------------------------------------------
def cluster_lines(runs: Iterable[Run]) -> list[Line]:
    """Group runs into visual lines: a run joins a line when its centre lies in the line's main band."""
    lines: list[Line] = []
    bigs: list[float] = []  # largest run size of each line so far
    runs = list(runs)
    pieces = [r for r in runs if r.glyphs and r.glyphs[0].char in _PIECES and _bracket_piece(r)]
    if pieces:  # a tall bracket's top and bottom pieces lie off the line's centre: they join it afterwards
        taken = {id(r) for r in pieces}
        runs = [r for r in runs if id(r) not in taken]
    for r in sorted(runs, key=lambda r: (r.cy, r.x0)):
        cy = r.cy
        k = len(lines) - 1
        stop = max(-1, k - 4)
        while k > stop:
            ln = lines[k]
            if ln.core0 - 0.05 <= cy <= ln.core1 + 0.05:
                break
            k -= 1
        if k == stop:
            lines.append(Line([r], r.y0, r.y1, r.y0, r.y1, x0=r.x0))
            bigs.append(r.size)
            continue
        target = lines[k]
        big = bigs[k]
        target.runs.append(r)
        if r.y0 < target.y0:
            target.y0 = r.y0
        if r.y1 > target.y1:
            target.y1 = r.y1
        if r.size > big:
            bigs[k] = r.size
        if r.size > big * 1.05 and not r.bar:
            target.core0, target.core1 = r.y0, r.y1
    if pieces:
        lines = _attach_pieces(lines, pieces)
    for ln in lines:
        ln.runs.sort(key=lambda r: r.x0)
        ln.x0 = ln.runs[0].x0
    lines.sort(key=lambda ln: (ln.y0, ln.x0))
    return lines


def _attach_pieces(lines: list[Line], pieces: list[Run]) -> list[Line]:
    """Each tall bracket's pieces join the line whose band holds them (the tallest one, where a script line of
    the bracket's exponent also holds them); a line left of scripts only, inside that band, joins it too."""
    for r in pieces:
        holders = [ln for ln in lines if ln.y0 <= r.cy <= ln.y1 and ln.core0 <= r.y1 and ln.core1 >= r.y0]
        if not holders:
            lines.append(Line([r], r.y0, r.y1, r.y0, r.y1, x0=r.x0))
            continue
        ln = max(holders, key=lambda ln: ln.core1 - ln.core0)
        ln.runs.append(r)
        ln.y0, ln.y1 = min(ln.y0, r.y0), max(ln.y1, r.y1)
    hosts = [ln for ln in lines if any(_bracket_piece(r) for r in ln.runs)]
    keep = []
    for ln in lines:
        host = next(
            (h for h in hosts if h is not ln and h.y0 <= (ln.y0 + ln.y1) / 2 <= h.y1
             and all(r.glyphs is not None and r.size < 0.85 * max(x.size for x in h.runs) for r in ln.runs)
             and min(x.x0 for x in h.runs) <= min(x.x0 for x in ln.runs)
             and max(x.x1 for x in ln.runs) <= max(x.x1 for x in h.runs)),
            None,
        )
        if host is None:
            keep.append(ln)
        else:
            host.runs.extend(ln.runs)
            host.y0, host.y1 = min(host.y0, ln.y0), max(host.y1, ln.y1)
    return keep


_PIECES = frozenset(chr(code) for code in pua.BRACKET_PIECES)


def _bracket_piece(r: Run) -> bool:
    """An equation run made only of the pieces of a tall bracket (⎡ ⎣ ⎤ ⎦ ⎛ ⎝ …)."""
    return bool(r.glyphs) and not r.bar and all(g.char in _PIECES for g in r.glyphs or ())


def _join_primes(runs: Sequence[Run]) -> None:
    """A lone prime in the text font touching equation runs on both sides (``F`` ``'`` ``nt`` of ``F'_{nt}``)
    becomes an equation run of one text glyph, so the equation is linearised whole (``F'_nt``)."""
    for i in range(1, len(runs) - 1):
        r = runs[i]
        if r.glyphs is not None or r.text not in PRIMES or r.lead or r.trail:
            continue
        left, right = runs[i - 1], runs[i + 1]
        if (
            left.glyphs is None or right.glyphs is None or left.trail or right.lead
            or r.x0 - left.x1 > MATH_GAP * max(r.size, left.size)
            or right.x0 - r.x1 > MATH_GAP * max(r.size, right.size)
        ):
            continue
        r.glyphs = [pdf_math.Glyph(r.text, r.rect, r.size, "", False, (r.x0, r.base))]


def _equation_groups(runs: Sequence[Run]) -> list[list[Run]]:
    """Consecutive runs of a line, equation runs that touch merged into one group."""
    groups: list[list[Run]] = []
    right = 0.0
    for r in runs:
        last = groups[-1] if groups else None
        if (
            last is not None and r.glyphs is not None and last[-1].glyphs is not None and not last[-1].trail
            and not r.lead and r.x0 - right <= MATH_GAP * max(r.size, last[-1].size)
        ):
            last.append(r)
            right = max(right, r.x1)
        else:
            groups.append([r])
            right = r.x1
    return groups


def _linearize(glyphs: list[pdf_math.Glyph], pstats: pua.PuaStats, stats: PageStats) -> str:
    key = tuple(map(id, glyphs))
    known = stats.linear.get(key)
    if known is None:
        x, y = glyphs[0].bbox[0], glyphs[0].bbox[1]
        drawn = tuple(
            (g.char, g.font, g.is_pua, round(g.size, 3), round(g.bbox[0] - x, 3), round(g.bbox[1] - y, 3),
             round(g.bbox[2] - x, 3), round(g.bbox[3] - y, 3),
             None if g.origin is None else (round(g.origin[0] - x, 3), round(g.origin[1] - y, 3)))
            for g in glyphs
        )
        alike = stats.drawn.get(drawn)
        if alike is None:
            counts = pua.PuaStats()
            alike = stats.drawn[drawn] = (pdf_math.linearize(glyphs, (), counts).strip(), counts)
        known = (alike[0], alike[1], glyphs)  # glyphs kept: ids stay unique
        stats.linear[key] = known
    pstats.add(known[1])
    return known[0]


def assemble(
    runs: Sequence[Run], pstats: pua.PuaStats, stats: PageStats
) -> tuple[str, list[tuple[int, int, RectT]], bool, list[RectT]]:
    """Text of runs ordered left to right, ``(start, end, rect)`` per piece, whether it ends in a space, and the
    rectangles of equations printed as ASCII codes.

    A space comes from whitespace in the source or a gap wider than a quarter of the font size. Touching
    equation runs are linearised together by ``pdf_math`` (scripts, fractions, radicals, brackets).
    """
    parts: list[str] = []
    spans: list[tuple[int, int, RectT]] = []
    bad: list[RectT] = []
    n = 0
    prev: Run | None = None
    for group in _equation_groups(runs):
        r = group[0]
        rect: RectT = (
            (r.x0, r.y0, r.x1, r.y1) if len(group) == 1
            else (min(x.x0 for x in group), min(x.y0 for x in group), max(x.x1 for x in group),
                  max(x.y1 for x in group))
        )
        if r.glyphs is not None:
            glyphs = [g for x in group for g in (x.glyphs or ())]
            text = _linearize(glyphs, pstats, stats)
            stats.equations += 1
            if pdf_math.UNREADABLE in text:
                stats.unreadable_equations += 1
                bad.append(rect)
        else:
            text = r.text
        if not text:
            continue
        if parts and (
            r.lead or (prev is not None and (prev.trail or r.x0 - prev.x1 > 0.25 * min(r.size, prev.size)))
        ):
            parts.append(" ")
            n += 1
        parts.append(text)
        spans.append((n, n + len(text), rect))
        n += len(text)
        prev = group[-1]
    trail = bool(runs) and runs[-1].trail
    return "".join(parts), spans, trail, bad


def build_lines(runs: list[Run], pstats: pua.PuaStats, stats: PageStats) -> list[Line]:
    """Bars grouped with their fractions, runs clustered into lines, each line's text and spans assembled."""
    runs = group_bars(runs)
    for r in runs:
        if r.bar and r.glyphs:
            r.cy = axis(r.glyphs)
    lines = cluster_lines(runs)
    for ln in lines:
        if len(ln.runs) > 2:
            _join_primes(ln.runs)
        ln.text, ln.spans, ln.trail, ln.unreadable = assemble(ln.runs, pstats, stats)
        ln.measure()
    return [ln for ln in lines if ln.text]
