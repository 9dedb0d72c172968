"""Equation layout from glyph positions: scripts, fractions, radicals, stacked brackets, limits, inline placement,
unreadable (ASCII-coded) equations — on hand-made glyphs, on PDFs written with a PUA font, and on real KCSC PDFs."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.ingest import eqfont, pua
from kdsdesk.ingest.pdf_math import UNREADABLE, Glyph, build_lines, linearize
from tests.data import pdf_builder as pb

EQ = "AAAAAJ+HyhwpEQ"


def g(ch: str, x: float, base: float, size: float = 10.0, font: str = EQ, width: float | None = None) -> Glyph:
    """A glyph whose origin is (x, base); box as PyMuPDF reports it (ascender 0.8, descender 0.2)."""
    w = 0.5 * size if width is None else width
    return Glyph(ch, (x, base - 0.8 * size, x + w, base + 0.2 * size), size, font, pua.is_pua(ch), (x, base))


def enc(text: str, x: float, base: float, size: float = 10.0) -> list[Glyph]:
    out = []
    for ch in pb.encode(text):
        out.append(g(ch, x, base, size))
        x += 0.5 * size
    return out


def bar(x0: float, x1: float, line_base: float, size: float = 10.0) -> Glyph:
    """A U+E06D rule for a fraction on ``line_base``: origin 0.615 em below the rule, the rule 0.3 em above the
    baseline."""
    oy = line_base - 0.3 * size + 0.615 * size
    return Glyph("\ue06d", (x0, oy - 0.8 * size, x1, oy + 0.2 * size), 2.5 * size, EQ, True, (x0, oy))


# -- scripts ---------------------------------------------------------------------------------------------------------
def test_subscript_and_superscript() -> None:
    glyphs = [*enc("F", 0, 100), *enc("y", 5, 102.3, 6.8), *enc("+", 10, 100), *enc("x", 15, 100),
              *enc("2", 20, 96, 6.8)]
    assert linearize(glyphs) == "F_y+x^2"


def test_multi_letter_and_operator_scripts() -> None:
    glyphs = [*enc("f", 0, 100), *enc("ck", 5, 102.3, 6.8), *enc("=", 14, 100), *enc("a", 20, 100),
              *enc("n+1", 25, 102.3, 6.8)]
    assert linearize(glyphs) == "f_ck=a_{n+1}"


def test_subscript_and_superscript_on_one_base() -> None:
    glyphs = [*enc("A", 0, 100), *enc("cp", 5, 102.3, 6.8), *enc("2", 5, 96, 6.8)]
    assert linearize(glyphs) == "A_cp^2"


def test_a_script_followed_by_a_letter_keeps_a_space() -> None:
    glyphs = [*enc("A", 0, 100), *enc("v", 5, 102.3, 6.8), *enc("f", 9, 100), *enc("yt", 14, 102.3, 6.8)]
    assert linearize(glyphs) == "A_v f_yt"


def test_limit_under_an_operator() -> None:
    glyphs = [g("l", 0, 100, 13), g("i", 4, 100, 13), g("m", 8, 100, 13, width=11), *enc("h", 0, 108.6, 7.4),
              g("→", 3.8, 108.6, 7.4, width=7.4),
              *enc("0", 11.4, 108.6, 7.4), *enc("x", 22, 100, 11)]
    assert linearize(glyphs) == "lim_{h→0}x"


# -- fractions, radicals, brackets -----------------------------------------------------------------------------------
def test_fraction_from_the_rule_glyph() -> None:
    glyphs = [*enc("V", 0, 100), *enc("c", 5, 102.3, 6.8), *enc("=", 10, 100), bar(16, 36, 100),
              *enc("1", 24, 97 - 3.1), *enc("6", 24, 97 + 9.6), *enc("λ", 38, 100)]
    assert linearize(glyphs) == "V_c=(1/6)λ"


def test_fraction_of_expressions_is_parenthesised() -> None:
    glyphs = [bar(0, 40, 100), *enc("0.038E", 1, 97 - 3.1), *enc("F", 5, 97 + 9.6), *enc("y", 10, 97 + 11.9, 6.8),
              *enc("(D/t)", 14, 97 + 9.6)]
    assert linearize(glyphs) == "(0.038E)/(F_y(D/t))"


def test_fraction_from_a_drawn_rule() -> None:
    glyphs = [*enc("a", 0, 100), *enc("=", 6, 100), *enc("b", 14, 95), *enc("c", 14, 108)]
    assert linearize(glyphs, bars=[(13.0, 96.8, 20.0, 97.2)]) == "a=b/c"


def test_nested_fraction() -> None:
    # 1/(1 − f/F): the inner rule is narrower and is rebuilt first
    outer = bar(0, 40, 100)
    glyphs = [outer, *enc("1", 18, 93.9), *enc("1", 2, 110.4), *enc("−", 8, 110.4),
              bar(16, 24, 110.4), *enc("f", 18, 104.3), *enc("F", 18, 117)]
    assert linearize(glyphs) == "1/(1−f/F)"


def test_radical_with_vinculum() -> None:
    # 0.75√(E/F_y): the rule over the radicand starts where √ ends and has nothing above it
    glyphs = [*enc("0.75", 0, 100), g("\ue05c", 20, 101, 11.4, width=10), *enc("E/F", 30.2, 100),
              *enc("y", 45, 102.3, 6.8)]
    oy = 100 - 0.92 * 10 + 0.615 * 10
    glyphs.append(Glyph("\ue06d", (30.2, oy - 8, 50, oy + 2), 21.9, EQ, True, (30.2, oy)))
    assert linearize(glyphs) == "0.75√(E/F_y)"


def test_tall_brackets_from_pieces() -> None:
    top, bottom = 92.0, 112.0
    pieces = [g(chr(c), x, y) for c, x, y in [(0xE100, 0, top), (0xE101, 0, 102), (0xE103, 0, bottom),
                                              (0xE102, 40, top), (0xE105, 40, 102), (0xE104, 40, bottom)]]
    glyphs = [*pieces, bar(6, 34, 100), *enc("a", 15, 97 - 3.1), *enc("b", 15, 97 + 9.6), *enc("A", 46, 100),
              *enc("g", 51, 102.3, 6.8)]
    stats = pua.PuaStats()
    assert linearize(glyphs, stats=stats) == "[a/b]A_g"
    assert stats.rebuilt == 7
    assert stats.unknown == 0


def test_lone_extender_is_a_bar_and_lone_end_piece_is_counted_unknown() -> None:
    stats = pua.PuaStats()
    text = linearize([*enc("a", 0, 100), g("\ue101", 6, 100), g("\ue07c", 20, 100)], stats=stats)
    assert text == "a|⎛"
    assert stats.unknown == 1


def test_unknown_code_is_a_box() -> None:
    stats = pua.PuaStats()
    assert linearize([*enc("x", 0, 100), g("\ue0c9", 5, 100)], stats=stats) == "x□"
    assert stats.unknown_codes[0xE0C9] == 1


def test_ascii_coded_equation_is_unreadable() -> None:
    glyphs = [g('"', 0, 100, font="AAAAAD+HyhwpEQ"), g("#", 5, 100, font="AAAAAD+HyhwpEQ")]
    assert linearize(glyphs) == UNREADABLE
    (line,) = build_lines([*glyphs, g("값", 20, 100, 11, font="HCRBatang", width=11)])
    assert line.pieces[0].unreadable
    assert line.text.startswith(UNREADABLE)


# -- inline placement ------------------------------------------------------------------------------------------------
def test_build_lines_puts_scripts_and_fractions_in_their_sentence() -> None:
    k = "HCRDotum"
    glyphs = [g("값", 0, 100, 11, k, 11), g(" ", 11, 100, 11, k, 3), *enc("M", 15, 100), *enc("n", 20, 102.3, 6.8),
              g("은", 24, 100, 11, k, 11), bar(40, 50, 100), *enc("1", 42, 93.9), *enc("2", 42, 106.6),
              g("배", 52, 100, 11, k, 11), g("다", 0, 120, 11, k, 11)]
    lines = build_lines(glyphs)
    assert [ln.text for ln in lines] == ["값 M_n은 1/2배", "다"]
    math = [p for p in lines[0].pieces if p.is_math]
    assert [p.text for p in math] == ["M_n", "1/2"]
    assert all(p.glyphs for p in math)


# -- PDFs written with a PUA font ------------------------------------------------------------------------------------
def test_pdf_with_pua_font_round_trip(tmp_path: Path) -> None:
    draws: list[pb.Draw] = []
    d, x = pb.korean("가장 얇은 덧판 두께의 ", 72, 100)
    draws += d
    d, x = pb.eq_text("0.75", x, 100)
    draws += d
    d, x = pb.radical("E/F", x, 100)
    draws += d
    draws += pb.korean("배", x, 100)[0]
    d, x = pb.scripted("V", 72, 150, sub="c")
    draws += d
    d, x = pb.eq_text("=", x, 150)
    draws += d
    d, x = pb.fraction("1", "6", x, 150)
    draws += d
    draws += pb.scripted("f", x, 150, sub="ck")[0]
    draws += pb.tall_brackets("square", 72, 140, 200, 220)
    draws.append(pb.Draw("\uf09f", 72, 260, 10, font="symbol"))
    path = pb.write_pdf(tmp_path / "pua.pdf", [draws])
    glyphs = pb.read_glyphs(path)[0]
    assert any(gl.is_pua and pua.is_hyhwpeq_font(gl.font) for gl in glyphs)  # the PUA codes survive the PDF
    stats = pua.PuaStats()
    texts = [ln.text for ln in build_lines(glyphs, stats=stats)]
    assert texts[:2] == ["가장 얇은 덧판 두께의 0.75√(E/F)배", "V_c=(1/6)f_ck"]
    assert texts[-1] == "•"
    assert stats.unknown == 0
    assert stats.symbol_font == 1
    assert stats.rebuilt == 8  # two rules and six bracket pieces


# -- real KCSC PDFs --------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def kds_1(corpus: Path) -> list[list[Glyph]]:
    return pb.read_glyphs(corpus / "real" / "kds" / "KDS143110-1.pdf")


def test_issue_example_sentence(kds_1: list[list[Glyph]]) -> None:
    """KDS143110-1.pdf, 4th page (printed page 19): the radical lands back in its sentence."""
    texts = [ln.text for ln in build_lines(kds_1[3])]
    assert any(t.startswith("두께의 0.75√(E/F_y)배 및 300 mm") for t in texts), texts[:3]
    assert any("두께의 1.12√(E/F_y)배 그리고 460 mm" in t for t in texts)


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        (5, "A_e=[(0.038E)/(F_y(D/t))+2/3]A_g"),
        (5, "0.11(E/F_y)<D/t<0.45(E/F_y)"),
        (0, "L_c/r는 4[(b_l/b_s)^2−1]을 더하여 증가시킨다."),
        (5, "F_el=(c_2(λ_r/λ))^2 F_y"),
        (4, "λ≤λ_r√(F_y/F_cr)"),
    ],
)
def test_real_equations(kds_1: list[list[Glyph]], page: int, expected: str) -> None:
    assert any(expected in ln.text for ln in build_lines(kds_1[page]))


def test_real_file_is_fully_decoded(kds_1: list[list[Glyph]]) -> None:
    stats = pua.PuaStats()
    for glyphs in kds_1:
        build_lines(glyphs, stats=stats)
    assert stats.unknown == 0
    assert stats.rebuilt > 200
    assert stats.coverage == 1.0


# -- files whose HyhwpEQ font differs from 한글's (the KDS-style samples) ----------------------------------------
def _sample_style_equations() -> list[pb.Draw]:
    """``V_c = 1/6 λ√f_ck b_w d`` and ``0.5(1 + W/23.0)`` as the samples draw them: the rule a chain of unstretched
    glyphs running on over ``λ``, its ink low in the glyph; the parentheses as codes U+E07A/U+E07B."""
    draws, x = pb.scripted("V", 72, 200, 11, sub="c")
    d, x = pb.eq_text("=", x + 2, 200, 11)
    draws += d
    d, x = pb.sample_fraction("1", "6", x + 2, 200)
    draws += d
    d, x = pb.eq_text("λ√", x - 4, 200, 11)  # λ starts under the end of the rule
    draws += d
    d, x = pb.scripted("f", x, 200, 11, sub="ck")
    draws += d
    d, x = pb.scripted("b", x, 200, 11, sub="w")
    draws += d
    draws += pb.eq_text("d", x, 200, 11)[0]
    d, x = pb.eq_text("0.5", 72, 300, 11)
    draws += d
    left = x
    d, x = pb.eq_text("1+", x + 0.6 * 11, 300, 11)
    draws += d
    d, x = pb.sample_fraction("W", "23.0", x + 1, 300)
    return draws + d + pb.whole_brackets(left, x, 300)


def test_sample_style_rule_and_whole_brackets_from_the_embedded_font(tmp_path: Path) -> None:
    path = pb.write_pdf(tmp_path / "s.pdf", [_sample_style_equations()], eq_font=pb.sample_font())
    stats = pua.PuaStats()
    texts = [ln.text for ln in build_lines(pb.read_glyphs(path)[0], stats=stats)]
    assert texts == ["V_c=(1/6)λ√f_ck b_w d", "0.5(1+W/23.0)"]
    assert stats.unknown == 0
    # without the font's outlines the same glyphs read as 한글's: the rule at the wrong height, a lone brace piece
    plain = [ln.text for ln in build_lines(pb.read_glyphs(path, font_shapes=False)[0])]
    assert plain != texts


def test_pdf_parser_reads_the_file_font(tmp_path: Path) -> None:
    """``parse_pdf`` binds the file's fonts: the glyphs that reach the layout carry their outlines."""
    from kdsdesk.ingest.pdf import parse_pdf

    draws = pb.korean("공칭전단강도는 다음과 같다.", 72, 120)[0] + _sample_style_equations()
    doc = parse_pdf(pb.write_pdf(tmp_path / "s.pdf", [draws], eq_font=pb.sample_font()))
    text = "\n".join(b.text for b in doc.blocks)
    assert "V_c=(1/6)λ√f_ck b_w d" in text
    assert "0.5(1+W/23.0)" in text
    assert doc.stats["pua_unknown"] == 0


def test_hwp_font_brace_piece_alone_stays_a_piece(tmp_path: Path) -> None:
    """In 한글's font U+E07A is the bottom of a tall ``{``: alone it is not read as ``(`` (□ counted, no guess)."""
    draws = pb.eq_text("1+", 72, 100, 11)[0] + [pb.Draw("\ue07a", 60, 100, 14.3)]
    path = pb.write_pdf(tmp_path / "h.pdf", [draws])
    stats = pua.PuaStats()
    text = linearize(pb.read_glyphs(path)[0], stats=stats)
    assert "(" not in text
    assert "\u23a9" in text
    assert stats.unknown == 1


def test_glyph_under_an_overlong_rule_is_not_its_denominator() -> None:
    """The rule's ink (from the font) runs on over ``λ``, whose body it crosses: ``λ`` stays on the main row."""
    shape = eqfont.GlyphShape((0.106, 0.274, 0.732, 0.353), 0.838)
    rule = [
        Glyph("\ue06d", (x, 700.57, x + 7.83, 711.45), 9.35, EQ, True, (x, 709.25), shape) for x in (282.41, 290.25)
    ]
    glyphs = [
        *enc("=", 270.4, 712, 11), g("\ue034", 283.41, 704.3, 9.35), g("\ue039", 283.41, 720.25, 9.35), *rule,
        g("\ue0a7", 290.36, 712, 11), g("\ue0e8", 297.4, 712, 11),
    ]
    assert linearize(glyphs) == "=(1/6)λd"


def test_script_set_after_the_other_script() -> None:
    """``A_cp`` then a raised ``2`` after it (not above): ``A_cp^2``."""
    glyphs = [*enc("A", 0, 100), *enc("cp", 6.7, 102.3, 6.8), *enc("2", 13.5, 96, 6.8)]
    assert linearize(glyphs) == "A_cp^2"
