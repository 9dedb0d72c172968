"""Writes PDFs that look like 한글 exports: equation glyphs as HyhwpEQ Private-Use-Area codes, laid out the way
한글 draws them (smaller lowered/raised scripts, a stretched U+E06D rule for fraction bars and radicals, tall
brackets stacked from pieces), next to Korean body text.

Stable API (the PDF parser's tests use it too):

- ``encode(text)`` — plain characters → HyhwpEQ PUA codes (``"F"`` → U+E005); characters without a code stay.
- ``Draw`` — one string at a baseline point in a font role (``"eq"``, ``"korean"``, ``"latin"``, ``"symbol"``);
  ``stretch`` scales it horizontally (fraction bars).
- Layout helpers returning ``list[Draw]`` and the x where the next glyph goes: ``eq_text``, ``scripted``,
  ``fraction``, ``radical``, ``tall_brackets``; ``korean`` for body text. The KDS-style samples' way:
  ``sample_font()`` (rule ink low and inset, U+E07A/U+E07B whole brackets), ``sample_fraction``,
  ``whole_brackets``.
- ``write_pdf(path, pages)`` — pages of ``Draw``; ``read_glyphs(path)`` — the glyphs back as
  ``pdf_math.Glyph`` per page (PyMuPDF ``rawdict``, raw PUA kept, outline facts of the embedded font attached).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from kdsdesk.ingest import eqfont, pua
from kdsdesk.ingest.pdf_math import Glyph
from tests.data.pua_font import build_pua_font

FontRole = Literal["eq", "korean", "latin", "symbol"]
SCRIPT = 0.68  # script size / base size in 한글 (6.78 / 10.02 in KCSC PDFs)
_ENCODE = {ch: chr(code) for code, ch in pua.HYHWPEQ.items() if code != 0xE101} | {"|": "\ue101"}


def encode(text: str) -> str:
    """Plain text → HyhwpEQ PUA codes, as 한글 writes equation glyphs (unknown characters are kept)."""
    return "".join(_ENCODE.get(ch, ch) for ch in text)


@dataclass(frozen=True)
class Draw:
    """``text`` with its baseline origin at (x, y)."""

    text: str
    x: float
    y: float
    size: float = 10.0
    font: FontRole = "eq"
    stretch: float = 1.0


def _advance(text: str, size: float) -> float:
    """Advance of ``text`` in the test PUA font (500 units a glyph, 512 for the rule, 300 for a space)."""
    return sum((0.3 if ch == " " else 0.512 if ord(ch) == pua.FRACTION_BAR else 0.5) * size for ch in text)


def eq_text(plain: str, x: float, y: float, size: float = 10.0) -> tuple[list[Draw], float]:
    """Equation characters on the baseline, encoded to PUA."""
    code = encode(plain)
    return [Draw(code, x, y, size)], x + _advance(code, size)


def scripted(
    base: str, x: float, y: float, size: float = 10.0, sub: str = "", sup: str = ""
) -> tuple[list[Draw], float]:
    """``base`` with a lowered subscript and/or a raised superscript in script size (``F_y``, ``x^2``)."""
    draws, nx = eq_text(base, x, y, size)
    small = SCRIPT * size
    end = nx
    if sub:
        d, e = eq_text(sub, nx, y + 0.23 * size, small)
        draws += d
        end = max(end, e)
    if sup:
        d, e = eq_text(sup, nx, y - 0.4 * size, small)
        draws += d
        end = max(end, e)
    return draws, end


def fraction(num: str, den: str, x: float, y: float, size: float = 10.0) -> tuple[list[Draw], float]:
    """A stacked fraction on baseline ``y``: numerator above, a stretched U+E06D rule, denominator below."""
    width = max(_advance(num, size), _advance(den, size)) + 0.2 * size
    bar_y = y - AXIS * size
    draws = [Draw(chr(pua.FRACTION_BAR), x, bar_y + 0.615 * size, size, stretch=width / (0.512 * size))]
    d, _ = eq_text(num, x + (width - _advance(num, size)) / 2, bar_y - 0.31 * size, size)
    draws += d
    d, _ = eq_text(den, x + (width - _advance(den, size)) / 2, bar_y + 0.96 * size, size)
    draws += d
    return draws, x + width + 0.1 * size


AXIS = 0.3  # a fraction bar lies this many em above the main baseline


def radical(content: str, x: float, y: float, size: float = 10.0) -> tuple[list[Draw], float]:
    """``√`` then its radicand under a U+E06D vinculum."""
    draws = [Draw(encode("√"), x, y + 0.1 * size, size * 1.14)]
    rx = x + 0.5 * size * 1.14
    width = _advance(content, size) + 0.1 * size
    bar_y = y - 0.92 * size
    draws.append(Draw(chr(pua.FRACTION_BAR), rx, bar_y + 0.615 * size, size, stretch=width / (0.512 * size)))
    d, _ = eq_text(content, rx + 0.05 * size, y, size)
    draws += d
    return draws, rx + width + 0.1 * size


def tall_brackets(
    family: Literal["paren", "square"], x0: float, x1: float, top: float, bottom: float, size: float = 10.0
) -> list[Draw]:
    """Left column at ``x0`` and right column at ``x1``: top piece, extender, bottom piece (baselines given)."""
    codes = {"paren": (0xE07C, 0xE07D, 0xE07E, 0xE07F, 0xE080, 0xE081),
             "square": (0xE100, 0xE101, 0xE103, 0xE102, 0xE105, 0xE104)}[family]
    lt, le, lb, rt, re_, rb = (chr(c) for c in codes)
    mid = (top + bottom) / 2
    return [
        Draw(lt, x0, top, size), Draw(le, x0, mid, size), Draw(lb, x0, bottom, size),
        Draw(rt, x1, top, size), Draw(re_, x1, mid, size), Draw(rb, x1, bottom, size),
    ]


# -- the way the KDS-style sample PDFs draw (another font embedded under the HyhwpEQ name) ---------------------
SAMPLE_BAR = (106, 274, 732, 353, 838)  # rule ink 0.27–0.35 em above the origin, inset in an advance of 0.838 em
SAMPLE_WHOLE = {0xE07A: "(", 0xE07B: ")"}  # codes of 한글's brace pieces drawn as whole round brackets


def sample_font() -> bytes:
    """A PUA font like the samples' embedded one: the rule low and inset, U+E07A/U+E07B whole ``(``/``)``."""
    return build_pua_font(bar=SAMPLE_BAR, whole=SAMPLE_WHOLE)


def sample_fraction(num: str, den: str, x: float, y: float, size: float = 11.0) -> tuple[list[Draw], float]:
    """A fraction as the samples draw it on baseline ``y``: numerator and denominator at 0.85 size, the rule a
    chain of unstretched U+E06D glyphs whose last box (and ink) runs on over the next glyph; returns the x where
    the next glyph goes (under the end of the rule)."""
    small = 0.85 * size
    width = max(_advance(num, small), _advance(den, small))
    oy = y - 0.25 * size
    step = SAMPLE_BAR[4] / 1000 * small
    n = max(1, -(-int(width * 1000) // int(step * 1000)) + 1)  # one more glyph than needed, as in the samples
    draws = [Draw(chr(pua.FRACTION_BAR), x - 0.107 * small + k * step, oy, small) for k in range(n)]
    draws += eq_text(num, x + (width - _advance(num, small)) / 2, oy - 0.53 * small, small)[0]
    draws += eq_text(den, x + (width - _advance(den, small)) / 2, oy + 1.18 * small, small)[0]
    return draws, x + width + 0.1 * size


def whole_brackets(x0: float, x1: float, y: float, size: float = 11.0) -> list[Draw]:
    """The samples' tall ``(`` at ``x0`` and ``)`` at ``x1`` on baseline ``y``: codes U+E07A/U+E07B at 1.3 size."""
    return [Draw("\ue07a", x0, y, 1.3 * size), Draw("\ue07b", x1, y, 1.3 * size)]


def korean(text: str, x: float, y: float, size: float = 11.0) -> tuple[list[Draw], float]:
    """Body text in PyMuPDF's built-in Korean font."""
    import pymupdf

    return [Draw(text, x, y, size, font="korean")], x + pymupdf.get_text_length(text, "korea", size)


def write_pdf(
    path: Path,
    pages: Sequence[Sequence[Draw]],
    *,
    eq_family: str = "HyhwpEQ",
    symbol_family: str = "HCRBatang",
    eq_font: bytes | None = None,
) -> Path:
    """One A4 page per entry. The equation font is a PUA TTF named ``eq_family`` (or ``eq_font``, e.g.
    ``sample_font()``); ``symbol`` draws use a PUA TTF named ``symbol_family`` (Hancom's remapped bullets U+F0xx);
    Korean uses PyMuPDF's built-in CJK font."""
    import pymupdf

    eq_font = eq_font or build_pua_font(family=eq_family)
    sym_font = build_pua_font(codes=[0xF09F, 0xF000, 0xF0A7], family=symbol_family, extra_chars=" ")
    doc = pymupdf.open()
    for draws in pages:
        page = doc.new_page(width=595, height=842)
        page.insert_font(fontname="eqf", fontbuffer=eq_font)
        page.insert_font(fontname="symf", fontbuffer=sym_font)
        for d in draws:
            name = {"eq": "eqf", "symbol": "symf", "korean": "korea", "latin": "helv"}[d.font]
            point = pymupdf.Point(d.x, d.y)
            morph = (point, pymupdf.Matrix(d.stretch, 1)) if d.stretch != 1.0 else None
            page.insert_text(point, d.text, fontname=name, fontsize=d.size, morph=morph)
    doc.save(path)
    doc.close()
    return path


def read_glyphs(path: Path, *, font_shapes: bool = True) -> list[list[Glyph]]:
    """Every glyph of every page as ``Glyph`` (raw PUA kept, origin from ``rawdict``); with ``font_shapes`` the
    equation glyphs carry their outline facts from the file's embedded font, as in the PDF parser."""
    import pymupdf

    pages: list[list[Glyph]] = []
    with pymupdf.open(path) as doc, eqfont.shapes_active(eqfont.read_shapes(doc) if font_shapes else {}):
        for page in doc:
            out: list[Glyph] = []
            raw = page.get_text("rawdict", flags=pymupdf.TEXT_PRESERVE_WHITESPACE)
            for block in raw["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        for ch in span["chars"]:
                            c = ch["c"]
                            out.append(
                                Glyph(c, tuple(ch["bbox"]), span["size"], span["font"], pua.is_pua(c),
                                      tuple(ch["origin"]))
                            )
            pages.append(out)
    return pages
