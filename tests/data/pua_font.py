"""Builds a small TrueType font whose cmap maps Private-Use-Area codes (U+E000…) to glyphs, like 한글's HyhwpEQ.

Embedded in a PDF by PyMuPDF, text in this font extracts back as the same PUA codes — the situation of a 한글
export. Glyph shapes are simple: a box per character, a wide thin rule for U+E06D (the fraction bar; 512 × 41
units as in the real font, 0.615 em above its origin), a thin vertical rule for the bracket extenders.
Used by ``tests/data/pdf_builder.py``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

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


def build_pua_font(
    codes: Iterable[int] | None = None, family: str = "HyhwpEQ", extra_chars: str = " ≤≥×→lim"
) -> bytes:
    """TTF bytes: ``codes`` (default ``default_codes()``) plus a few plain characters HyhwpEQ also carries."""
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
            _box(pen, 0, 595, 512, 636)  # 0.615 em above the origin, as measured in real exports
            width = 512
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
