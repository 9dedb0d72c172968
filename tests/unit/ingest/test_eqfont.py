"""The embedded HyhwpEQ font of a PDF: ToUnicode → glyph → outline, the rule's ink, what bracket codes draw — on the
real KCSC and 한글 PDFs (pieces as the code table says), the KDS-style samples (whole brackets) and built fonts."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from kdsdesk.ingest import eqfont, pua
from tests.data import pdf_builder as pb
from tests.data.pua_font import build_pua_font


def _outlines(pdf: Path, codes: set[int]) -> dict[int, list[list[tuple[float, float]]]]:
    """Outlines (em) of ``codes`` in the PDF's HyhwpEQ fonts, through the same ToUnicode and glyph-id mapping."""
    import pymupdf
    from fontTools.ttLib import TTFont

    out: dict[int, list[list[tuple[float, float]]]] = {}
    with pymupdf.open(pdf) as doc:
        xrefs = {f[0] for p in range(len(doc)) for f in doc.get_page_fonts(p) if pua.is_hyhwpeq_font(f[3])}
        for xref in xrefs:
            wanted = {u: c for c, u in eqfont._to_unicode(doc, xref).items() if u in codes}
            font: Any = TTFont(io.BytesIO(doc.extract_font(xref)[3]))
            order, glyph_set = font.getGlyphOrder(), font.getGlyphSet()
            for uni, gid in eqfont._glyph_ids(doc, xref, wanted, font).items():
                polys = eqfont.outline(glyph_set, order[gid], font["head"].unitsPerEm)
                if polys:
                    out.setdefault(uni, polys)
    return out


def test_cmap_parser_reads_chars_ranges_and_arrays() -> None:
    cmap = """1 beginbfchar
<08bf> <e06d>
endbfchar
2 beginbfrange
<000b> <000c> <e07a>
<0020> <0021> [<e044> <e045>]
endbfrange"""
    assert eqfont.cmap_to_unicode(cmap) == {0x8BF: 0xE06D, 0xB: 0xE07A, 0xC: 0xE07B, 0x20: 0xE044, 0x21: 0xE045}


@pytest.mark.parametrize(
    ("pdf", "codes"),
    [
        ("kds/KDS143110-2.pdf", (0xE07C, 0xE07D, 0xE07E, 0xE07F, 0xE080, 0xE081, 0xE100, 0xE101, 0xE102, 0xE103,
                                 0xE104, 0xE105)),
        ("hwp-pdf/exam_math_8.pdf", (0xE078, 0xE079, 0xE07A, 0xE07B)),
    ],
)
def test_real_pieces_read_as_the_table_says(corpus: Path, pdf: str, codes: tuple[int, ...]) -> None:
    """한글's own font: every bracket code is a piece (one bent end, a cusp, or a rule) — no override."""
    import pymupdf

    with pymupdf.open(corpus / "real" / pdf) as doc:
        shapes = eqfont.read_shapes(doc)["hyhwpeq"]
    for code in codes:
        assert shapes[code].ink is not None, hex(code)
        assert shapes[code].draws is None, hex(code)


@pytest.mark.parametrize(
    ("code", "char"), [(0xE044, "("), (0xE045, ")"), (0xE049, "["), (0xE04A, "]"), (0xE04B, "{"), (0xE04C, "}")]
)
def test_whole_brackets_of_the_real_font_are_recognised(corpus: Path, code: int, char: str) -> None:
    """Were a piece code to draw one of 한글's whole brackets, the outline says which — for each bracket code role."""
    polys = _outlines(corpus / "real" / "kds" / "KDS143110-4.pdf", {code})[code]
    for piece_code in (0xE078, 0xE079, 0xE07A, 0xE07B, 0xE07C, 0xE07D, 0xE100):
        assert eqfont.classify_bracket(piece_code, polys) == char


def test_real_rule_ink(corpus: Path) -> None:
    import pymupdf

    with pymupdf.open(corpus / "real" / "kds" / "KDS143110-1.pdf") as doc:
        bar = eqfont.read_shapes(doc)["hyhwpeq"][pua.FRACTION_BAR]
    assert bar.ink is not None
    x0, y0, x1, y1 = bar.ink
    assert (x0, x1) == pytest.approx((0.0, 0.5), abs=0.01)
    assert (y0 + y1) / 2 == pytest.approx(0.604, abs=0.01)  # the measured BAR_RISE of 한글's font


def test_samples_font_draws_whole_brackets_and_a_low_rule(samples: Path) -> None:
    import pymupdf

    with pymupdf.open(samples / "dev-kds-14-20-22.pdf") as doc:
        shapes = eqfont.read_shapes(doc)["hyhwpeqitalic"]
    assert shapes[0xE07A].draws == "("
    assert shapes[0xE07B].draws == ")"
    ink = shapes[pua.FRACTION_BAR].ink
    assert ink is not None
    assert 0.25 < (ink[1] + ink[3]) / 2 < 0.35  # half as high as 한글's rule
    assert ink[0] > 0.05  # inset in its box
    assert ink[2] < shapes[pua.FRACTION_BAR].advance - 0.05


def test_built_fonts_classify_like_the_real_ones(tmp_path: Path) -> None:
    import pymupdf

    hwp = pb.write_pdf(tmp_path / "hwp.pdf", [pb.tall_brackets("paren", 72, 140, 200, 220)])
    sample = pb.write_pdf(tmp_path / "s.pdf", [pb.whole_brackets(72, 140, 200)], eq_font=pb.sample_font())
    with pymupdf.open(hwp) as doc:
        assert all(s.draws is None for s in eqfont.read_shapes(doc)["hyhwpeq"].values())
    with pymupdf.open(sample) as doc:
        got = eqfont.read_shapes(doc)["hyhwpeq"]
    assert (got[0xE07A].draws, got[0xE07B].draws) == ("(", ")")


def test_a_box_where_a_piece_belongs_is_unknown() -> None:
    """Neither the piece the table says nor a bracket: □, never a guess."""
    from fontTools.ttLib import TTFont

    font: Any = TTFont(io.BytesIO(build_pua_font(codes=[0xE07A, 0xE07B, 0xE041])))
    glyph_set = font.getGlyphSet()
    box = eqfont.outline(glyph_set, "uE041", 1000)  # a plain box glyph
    assert eqfont.classify_bracket(0xE07A, box) == pua.UNKNOWN
    assert eqfont.classify_bracket(0xE07B, box) is None  # a filled box reads as a straight rule: an extender


def test_unreadable_font_gives_no_shapes(tmp_path: Path) -> None:
    """A PDF whose HyhwpEQ font has no ToUnicode: no shapes, no error (the layout's defaults apply)."""
    import pymupdf

    path = pb.write_pdf(tmp_path / "eq.pdf", [pb.fraction("1", "2", 72, 100)[0]])
    with pymupdf.open(path) as doc:
        assert any(eqfont.read_shapes(doc).values())
        for xref in {f[0] for f in doc.get_page_fonts(0) if pua.is_hyhwpeq_font(f[3])}:
            doc.xref_set_key(xref, "ToUnicode", "null")
        assert not any(eqfont.read_shapes(doc).values())


def test_shapes_bind_to_glyphs_made_while_bound() -> None:
    from kdsdesk.ingest.pdf_math import Glyph

    shape = eqfont.GlyphShape((0.0, 0.3, 0.5, 0.35), 0.5)
    with eqfont.shapes_active({"hyhwpeq": {pua.FRACTION_BAR: shape}}):
        inside = Glyph("\ue06d", (0, 0, 5, 10), 10, "AAAAAJ+HyhwpEQ", True, (0, 8))
    outside = Glyph("\ue06d", (0, 0, 5, 10), 10, "AAAAAJ+HyhwpEQ", True, (0, 8))
    assert inside.shape == shape
    assert outside.shape is None
