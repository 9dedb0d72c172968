"""The embedded HyhwpEQ font of one PDF: what its structural glyphs really draw.

The layout in ``kdsdesk.ingest.pdf_math`` rebuilds fractions from the rule U+E06D and tall brackets from pieces.
Two things about those glyphs depend on the font a file embeds, not on the code:

- where the rule's ink lies: 한글's own font draws it 0.6 em above the origin across the advance, other fonts
  lower and inset (PyMuPDF's character box is the em box either way, never the ink);
- what a bracket-piece code draws: in 한글's font U+E07A is the bottom piece of a tall ``{``, but a file may carry
  a font whose glyph for that code is a whole ``(``.

This module reads the outlines (fontTools) of the codes that matter — the rule and ``pua.BRACKET_PIECES`` — and
gives ``GlyphShape`` per font and code: the ink box in em, and for a bracket code what the outline is
(``classify_bracket``: a whole bracket when both ends bend to the same side, ``None`` = the piece the table says,
``pua.UNKNOWN`` when it is neither a piece nor a bracket we recognise — never a guess).
``bind(doc)`` makes a document's shapes visible to every ``pdf_math.Glyph`` created until ``unbind``; glyphs keep
their shape, so later layout (table cells) sees it too. Without a font (or for a font that cannot be read) the
layout falls back to its measured defaults.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from kdsdesk.ingest import pua

log = logging.getLogger(__name__)

RectT = tuple[float, float, float, float]
SHAPED = frozenset({pua.FRACTION_BAR, *pua.BRACKET_PIECES})  # codes whose outline the layout needs
_BEND = 0.05  # an end bends when its stroke moves this share of the glyph height sideways
_ARM = 1.8  # an end is an arm (square bracket) when its ink is this many times wider than the middle stroke
_ROWS = 40  # raster rows over the glyph's ink height

FontShapes = Mapping[str, Mapping[int, "GlyphShape"]]  # font key → code → shape


@dataclass(frozen=True, slots=True)
class GlyphShape:
    """A glyph of the embedded font: ``ink`` = outline bounds in em relative to the origin (x0, y0, x1, y1; y up,
    ``None`` for an empty glyph), ``advance`` in em; ``draws`` for a bracket-piece code: ``None`` = the piece the
    table says, a bracket character = a whole bracket, ``pua.UNKNOWN`` = not recognised."""

    ink: RectT | None
    advance: float
    draws: str | None = None


_ACTIVE: contextvars.ContextVar[FontShapes | None] = contextvars.ContextVar("kdsdesk_eqfont", default=None)


def font_key(name: str) -> str:
    """Font name as PyMuPDF spans and PDF BaseFonts both give it, without subset prefix, case and spaces."""
    return re.sub(r"^[A-Z]{6}\+", "", name or "").replace(" ", "").replace("#20", "").lower()


def active_shape(font: str, code: int) -> GlyphShape | None:
    """The shape of ``code`` in ``font`` of the bound document, if any (called by ``pdf_math.Glyph``)."""
    shapes = _ACTIVE.get()
    if not shapes:
        return None
    return shapes.get(font_key(font), {}).get(code)


def bind(doc: Any) -> contextvars.Token[FontShapes | None]:
    """Read ``doc``'s HyhwpEQ fonts and make their shapes active; give the token back to ``unbind``."""
    return _ACTIVE.set(read_shapes(doc))


def unbind(token: contextvars.Token[FontShapes | None]) -> None:
    _ACTIVE.reset(token)


@contextmanager
def shapes_active(shapes: FontShapes) -> Iterator[None]:
    token = _ACTIVE.set(shapes)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


# -- reading the fonts ---------------------------------------------------------------------------------------------
def read_shapes(doc: Any) -> dict[str, dict[int, GlyphShape]]:
    """Shapes of the ``SHAPED`` codes in every HyhwpEQ font of a PyMuPDF document. Several fonts under one name
    (subsets) are merged; a code they draw differently is left out (the layout's defaults apply)."""
    out: dict[str, dict[int, GlyphShape]] = {}
    clash: dict[str, set[int]] = {}
    for xref, basefont in _hyhwpeq_fonts(doc):
        try:
            names, shapes = _font_shapes(doc, xref)
        except Exception as exc:  # noqa: BLE001 - a hostile or odd font must never stop the parse
            log.debug("HyhwpEQ font %s (xref %d) unreadable: %s", basefont, xref, exc)
            continue
        for key in {font_key(basefont), *(font_key(n) for n in names)}:  # spans carry one of these names
            have = out.setdefault(key, {})
            for code, shape in shapes.items():
                if code in have and have[code] != shape:
                    clash.setdefault(key, set()).add(code)
                have.setdefault(code, shape)
    for key, codes in clash.items():
        for code in codes:
            out[key].pop(code, None)
    return out


def _hyhwpeq_fonts(doc: Any) -> list[tuple[int, str]]:
    """(xref, BaseFont) of the document's top-level HyhwpEQ font objects (Type0 or simple TrueType; a Type0's
    descendant carries the same BaseFont and is skipped). Walking the object table is ~6× cheaper than asking
    every page for its fonts (56 vs 356 ms over 800 pages)."""
    out: list[tuple[int, str]] = []
    for xref in range(1, doc.xref_length()):
        kind, name = doc.xref_get_key(xref, "BaseFont")
        if kind != "name" or not pua.is_hyhwpeq_font(name.lstrip("/").replace("#20", " ")):
            continue
        if doc.xref_get_key(xref, "Subtype")[1] in ("/Type0", "/TrueType"):
            out.append((xref, name.lstrip("/")))
    return out


def _to_unicode(doc: Any, xref: int) -> dict[int, int]:
    """Character code → Unicode of the font's ToUnicode CMap (single BMP characters only)."""
    kind, value = doc.xref_get_key(xref, "ToUnicode")
    if kind != "xref":
        return {}
    return cmap_to_unicode(doc.xref_stream(int(value.split()[0])).decode("latin-1"))


def cmap_to_unicode(text: str) -> dict[int, int]:
    """``bfchar``/``bfrange`` entries of a ToUnicode CMap → {character code: Unicode} (single BMP characters)."""
    out: dict[int, int] = {}
    for body in re.findall(r"beginbfchar(.*?)endbfchar", text, re.S):
        for src, dst in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", body):
            if len(dst) == 4:
                out[int(src, 16)] = int(dst, 16)
    for body in re.findall(r"beginbfrange(.*?)endbfrange", text, re.S):
        for lo, hi, dst in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])", body):
            start, end = int(lo, 16), int(hi, 16)
            if end - start > 0xFFFF:
                continue
            if dst.startswith("<"):
                if len(dst) == 6:
                    for k in range(end - start + 1):
                        out[start + k] = int(dst[1:-1], 16) + k
            else:
                for k, item in enumerate(re.findall(r"<([0-9A-Fa-f]+)>", dst)):
                    if len(item) == 4:
                        out[start + k] = int(item, 16)
    return out


def _glyph_ids(doc: Any, xref: int, codes: dict[int, int], font: Any) -> dict[int, int]:
    """Unicode → glyph id for the wanted codes (``codes``: Unicode → character code)."""
    subtype = doc.xref_get_key(xref, "Subtype")[1]
    out: dict[int, int] = {}
    if subtype == "/Type0":
        kind, value = doc.xref_get_key(xref, "DescendantFonts")
        cid_map: bytes | None = None
        if kind == "array":
            desc = int(value.strip("[]").split()[0])
            mkind, mvalue = doc.xref_get_key(desc, "CIDToGIDMap")
            if mkind == "xref":
                cid_map = doc.xref_stream(int(mvalue.split()[0]))
        for uni, cid in codes.items():
            if cid_map is None:
                out[uni] = cid
            elif 2 * cid + 1 < len(cid_map):
                out[uni] = int.from_bytes(cid_map[2 * cid : 2 * cid + 2], "big")
        return out
    order = font.getGlyphOrder()
    tables = font["cmap"].tables if "cmap" in font else []
    for uni, code in codes.items():
        for table in tables:
            name = table.cmap.get(0xF000 + code) or table.cmap.get(code)
            if name is not None:
                out[uni] = order.index(name)
                break
    return out


def _font_shapes(doc: Any, xref: int) -> tuple[list[str], dict[int, GlyphShape]]:
    """(the font file's own names, shapes of the ``SHAPED`` codes it maps)."""
    import io

    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    wanted = {uni: code for code, uni in _to_unicode(doc, xref).items() if uni in SHAPED}
    if not wanted:
        return [], {}
    _name, _ext, _kind, buf = doc.extract_font(xref)
    if not buf:
        return [], {}
    font = TTFont(io.BytesIO(buf), lazy=True)
    names = [str(r) for r in font["name"].names if r.nameID in (1, 4, 6, 16)] if "name" in font else []
    upm = float(font["head"].unitsPerEm)
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    out: dict[int, GlyphShape] = {}
    for uni, gid in _glyph_ids(doc, xref, wanted, font).items():
        if not 0 < gid < len(order):
            continue
        name = order[gid]
        polys = outline(glyph_set, name, upm)
        advance = font["hmtx"][name][0] / upm
        pts = [p for poly in polys for p in poly]
        ink = (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts)) \
            if pts else None
        draws = classify_bracket(uni, polys) if uni in pua.BRACKET_PIECES else None
        out[uni] = GlyphShape(ink, advance, draws)
    return names, out


def outline(glyph_set: Any, name: str, upm: float) -> list[list[tuple[float, float]]]:
    """A glyph's contours flattened to polygons, in em (y up)."""
    from fontTools.pens.basePen import BasePen  # type: ignore[import-untyped]

    polys: list[list[tuple[float, float]]] = []

    class _Flatten(BasePen):  # type: ignore[misc]
        def _moveTo(self, p: tuple[float, float]) -> None:
            polys.append([p])

        def _lineTo(self, p: tuple[float, float]) -> None:
            polys[-1].append(p)

        def _curveToOne(self, p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float]) -> None:
            (x0, y0) = polys[-1][-1]
            for k in range(1, 9):
                t = k / 8
                a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t**3
                x = a * x0 + b * p1[0] + c * p2[0] + d * p3[0]
                polys[-1].append((x, a * y0 + b * p1[1] + c * p2[1] + d * p3[1]))

        def _qCurveToOne(self, p1: tuple[float, float], p2: tuple[float, float]) -> None:
            (x0, y0) = polys[-1][-1]
            for k in range(1, 9):
                t = k / 8
                a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
                polys[-1].append((a * x0 + b * p1[0] + c * p2[0], a * y0 + b * p1[1] + c * p2[1]))

    glyph_set[name].draw(_Flatten(glyph_set))
    return [[(x / upm, y / upm) for x, y in poly] for poly in polys if len(poly) > 2]


# -- what a bracket code draws ---------------------------------------------------------------------------------------
def _raster(polys: list[list[tuple[float, float]]]) -> tuple[list[list[bool]], float, float]:
    """Non-zero fill of the polygons on a grid of ``_ROWS`` rows (top first); returns (grid, width, height) in em."""
    pts = [p for poly in polys for p in poly]
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    w, h = x1 - x0, y1 - y0
    cols = max(4, min(4 * _ROWS, round(_ROWS * w / h))) if h > 0 else 4
    grid: list[list[bool]] = []
    for r in range(_ROWS):
        y = y1 - (r + 0.5) * h / _ROWS
        crossings: list[tuple[float, int]] = []
        for poly in polys:
            for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1], strict=True):
                if (ay <= y) != (by <= y):
                    crossings.append((ax + (y - ay) * (bx - ax) / (by - ay), 1 if by > ay else -1))
        crossings.sort()
        row: list[bool] = []
        wind = k = 0
        for c in range(cols):  # sweep the column centres left to right, winding as edges pass
            xc = x0 + (c + 0.5) * w / cols
            while k < len(crossings) and crossings[k][0] < xc:
                wind += crossings[k][1]
                k += 1
            row.append(wind != 0)
        grid.append(row)
    return grid, w, h


def classify_bracket(code: int, polys: list[list[tuple[float, float]]]) -> str | None:
    """What a bracket-piece code's outline draws in this font (see ``_classify``; subsets of one font repeat the
    same outlines, so answers are cached)."""
    return _classify(code, tuple(tuple((round(x, 4), round(y, 4)) for x, y in poly) for poly in polys))


@functools.lru_cache(maxsize=512)
def _classify(code: int, outline_key: tuple[tuple[tuple[float, float], ...], ...]) -> str | None:
    """What a bracket-piece code's outline draws in this font.

    A piece joins the next piece with a straight stem at one end at least; a whole bracket bends both ends to the
    side it opens to (``(``, ``{``) or has arms at both ends (``[``). So: both ends bent the same way → a whole
    bracket (paren when the stroke is a smooth arc, brace when it has a cusp in the middle, ``pua.UNKNOWN`` when
    neither is clear); an extender code that is not a straight rule → ``pua.UNKNOWN``; anything else → ``None``
    (the piece the table says).
    """
    polys = [list(poly) for poly in outline_key]
    if not polys:
        return None
    grid, w, h = _raster(polys)
    if h <= 0 or w <= 0:
        return None
    cols = len(grid[0])
    left: list[float | None] = []
    right: list[float | None] = []
    width: list[float] = []
    for row in grid:
        on = [c for c, v in enumerate(row) if v]
        left.append(on[0] / cols * w if on else None)
        right.append((on[-1] + 1) / cols * w if on else None)
        width.append(len(on) / cols * w)

    def band(a: float, b: float, values: Sequence[float | None]) -> float | None:
        got = [v for v in values[int(a * _ROWS) : max(int(a * _ROWS) + 1, int(b * _ROWS))] if v is not None]
        return sum(got) / len(got) if got else None

    centre: list[float | None] = [
        None if lo is None or hi is None else (lo + hi) / 2 for lo, hi in zip(left, right, strict=True)
    ]
    filled = sum(sum(row) for row in grid) / (_ROWS * cols)
    piece = pua.BRACKET_PIECES[code]
    if filled >= 0.9:  # a straight rule: what an extender draws
        return None if piece.role == "extender" else pua.UNKNOWN
    parts = [band(a, b, centre) for a, b in ((0.0, 0.08), (0.2, 0.3), (0.45, 0.55), (0.7, 0.8), (0.92, 1.0))]
    mid_w = band(0.4, 0.6, width) or 0.0
    arms = [band(a, b, width) or 0.0 for a, b in ((0.0, 0.05), (0.95, 1.0))]
    if any(v is None for v in parts):
        return None if piece.role != "extender" else pua.UNKNOWN
    top_end, top_in, mid, bottom_in, bottom_end = (float(v) for v in parts if v is not None)
    top, bottom = (top_end - top_in) / h, (bottom_end - bottom_in) / h
    if mid_w > 0 and min(arms) >= _ARM * mid_w:  # arms at both ends: [ or ]
        side = (top_end + bottom_end) / 2 - mid
        return "[" if side > 0 else "]" if side < 0 else pua.UNKNOWN
    if top * bottom > 0 and min(abs(top), abs(bottom)) >= _BEND:
        opening = "left" if top > 0 else "right"
        end = (top_end + bottom_end) / 2
        ratio = ((top_in + bottom_in) / 2 - mid) / (end - mid) if end != mid else 0.0
        if ratio <= 0.33:
            return "(" if opening == "left" else ")"
        if ratio >= 0.4:
            return "{" if opening == "left" else "}"
        return pua.UNKNOWN
    return pua.UNKNOWN if piece.role == "extender" else None
