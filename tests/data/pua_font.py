"""Builds a small TrueType font whose cmap maps Private-Use-Area codes (U+E000…) to glyphs, like 한글's HyhwpEQ.

Embedded in a PDF by PyMuPDF, text in this font extracts back as the same PUA codes — the situation of a 한글
export. Glyph shapes are simple: a box per character, a wide thin rule for U+E06D (the fraction bar; 512 × 41
units as in the real font, 0.615 em above its origin), a thin vertical rule for the bracket extenders, and the
other bracket pieces as 한글 draws them (a stem with one end bent: top, bottom; a cusp: middle).

Variants, as other exports embed them: ``bar=`` another rule ink box and advance (the sample PDFs: 0.27–0.35 em
above the origin, inset, advance 838), ``whole=`` codes drawn as whole brackets (``{0xE07A: "("}``).
Used by ``tests/data/pdf_builder.py``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping

UPM = 1000
BAR = 0xE06D
RULES = {0xE07B, 0xE07D, 0xE080, 0xE101, 0xE105, 0xE04D}  # vertical rules (extenders, bars)


def default_codes() -> list[int]:
    """Every code of the HyhwpEQ range used by the tests: U+E000–U+E10F."""
    return list(range(0xE000, 0xE110))


def _box(pen: object, x0: int, y0: int, x1: int, y1: int) -> None:
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    assert isinstance(pen, TTGlyphPen)
    pen.moveTo((x0, y0))
    pen.lineTo((x0, y1))
    pen.lineTo((x1, y1))
    pen.lineTo((x1, y0))
    pen.closePath()


Point = tuple[int, int]
# Left-side bracket pieces (role → outline); right-side ones are mirrored. Stems at x 220–280.
_LEFT_PIECES: dict[str, list[Point]] = {
    "top": [(220, -200), (280, -200), (280, 550), (440, 740), (440, 800), (400, 800), (220, 600)],
    "bottom": [(220, 800), (280, 800), (280, 50), (440, -140), (440, -200), (400, -200), (220, 0)],
    "middle": [(220, 800), (280, 800), (280, 360), (180, 300), (280, 240), (280, -200), (220, -200), (220, 230),
               (100, 300), (220, 370)],
    "square-top": [(220, -200), (280, -200), (280, 740), (440, 740), (440, 800), (220, 800)],
    "square-bottom": [(220, 800), (280, 800), (280, -140), (440, -140), (440, -200), (220, -200)],
}


def _paren(left: bool) -> list[Point]:
    """A whole round bracket from −0.2 to 0.8 em: a crescent, thinner at the ends."""
    outer, inner = [], []
    for k in range(21):
        t = (k - 10) / 10  # −1 (bottom) … 1 (top)
        y = round(300 + 500 * t)
        xo = 100 + 300 * t * t
        xi = xo + 70 * (1 - 0.5 * t * t)
        outer.append((round(xo), y))
        inner.append((round(xi), y))
    pts = outer + inner[::-1]
    return pts if left else [(500 - x, y) for x, y in pts][::-1]


def _piece(code: int) -> list[Point] | None:
    from kdsdesk.ingest import pua

    piece = pua.BRACKET_PIECES.get(code)
    if piece is None or piece.role == "extender":
        return None
    role = f"square-{piece.role}" if piece.family == "square" else piece.role
    pts = _LEFT_PIECES[role]
    return pts if piece.side == "left" else [(500 - x, y) for x, y in pts][::-1]


def _polygon(pen: object, pts: list[Point]) -> None:
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    assert isinstance(pen, TTGlyphPen)
    pen.moveTo(pts[0])
    for p in pts[1:]:
        pen.lineTo(p)
    pen.closePath()


def build_pua_font(
    codes: Iterable[int] | None = None,
    family: str = "HyhwpEQ",
    extra_chars: str = " ≤≥×→lim",
    *,
    bar: tuple[int, int, int, int, int] = (0, 595, 512, 636, 512),
    whole: Mapping[int, str] | None = None,
) -> bytes:
    """TTF bytes: ``codes`` (default ``default_codes()``) plus a few plain characters HyhwpEQ also carries.

    ``bar``: the rule's ink box (x0, y0, x1, y1) and advance in units; ``whole``: codes drawn as a whole ``(``
    or ``)`` instead of what 한글's font draws for them."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    cps = sorted(set(codes if codes is not None else default_codes()) | {ord(c) for c in extra_chars})
    names = [".notdef"] + [f"u{cp:04X}" for cp in cps]
    fb = FontBuilder(UPM, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({cp: f"u{cp:04X}" for cp in cps})
    glyphs = {}
    metrics = {}
    for name in names:
        pen = TTGlyphPen(None)
        cp = int(name[1:], 16) if name != ".notdef" else -1
        if cp == ord(" "):
            glyphs[name] = pen.glyph()
            metrics[name] = (300, 0)
            continue
        if cp == BAR:
            _box(pen, *bar[:4])  # default: 0.615 em above the origin, as measured in real exports
            width = bar[4]
        elif whole and cp in whole:
            _polygon(pen, _paren(whole[cp] == "("))
            width = 500
        elif _piece(cp) is not None:
            _polygon(pen, _piece(cp) or [])
            width = 500
        elif cp in RULES:
            _box(pen, 220, -200, 281, 800)
            width = 500
        else:
            _box(pen, 60, 0, 440, 700)
            width = 500
        glyphs[name] = pen.glyph()
        metrics[name] = (width, 0)
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular", "psName": family.replace(" ", "")})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()
