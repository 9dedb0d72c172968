"""Equations of the text layer that a tall fraction or radical spreads over more than one line height: rows of a
table packed a line apart (``0.38√(E/F_y)`` per row), a tall fraction between such rows, a radical in a
denominator, a line of text right above a display fraction, tall brackets around a radical of a fraction. Each
fraction bar and vinculum takes only its own numerator, denominator or radicand, and the equation stays on the line
of its coefficient."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.ingest.pdf import parse_pdf
from tests.data import pdf_builder as pb
from tests.data import pdf_equation_docs as ed


def _text(path: Path) -> list[str]:
    return [b.text for b in parse_pdf(path, use_ocr=False).blocks]


@pytest.mark.parametrize("pitch", [22.0, 24.0])
def test_rows_of_radicals_packed_a_line_apart_keep_their_own_radicands(tmp_path: Path, pitch: float) -> None:
    """A bar's reach (1.5 × its size) spans the next row's numerator; each run joins the bar nearest to it."""
    draws: list[pb.Draw] = []
    y = 200.0
    for row in (("2.26", "3.00"), ("3.00", "5.70")):
        for k, coef in enumerate(row):
            draws += ed.radical_of_fraction(coef, "E", "F", 100 + 90 * k, y)[0]
        y += pitch
    for k, num in enumerate(("0.09E", "0.31E")):
        draws += ed.fraction(num, "F", 100 + 90 * k, y, sub="y")[0]
    assert _text(ed.write(tmp_path / "rows.pdf", draws)) == [
        "2.26√(E/F_y) 3.00√(E/F_y) 3.00√(E/F_y) 5.70√(E/F_y) (0.09E)/F_y (0.31E)/F_y"
    ]


def test_radical_of_a_fraction_sits_on_its_coefficients_line(tmp_path: Path) -> None:
    """The group lies on its fraction bar's line, not on its vinculum's a storey higher, where a label line
    beside it would take it (``(E/F_y)̅ … 1.40√``)."""
    draws: list[pb.Draw] = []
    y = 200.0
    for coef in ("1.40", "1.49"):
        draws += pb.korean("플랜지", 60, y - 9, 8.5)[0] + pb.korean("판요소", 60, y + 4, 8.5)[0]
        draws += ed.radical_of_fraction(coef, "E", "F", 150, y)[0]
        y += 40
    text = " ".join(_text(ed.write(tmp_path / "label.pdf", draws)))
    assert "1.40√(E/F_y)" in text
    assert "1.49√(E/F_y)" in text
    assert "\u0305" not in text


def test_tall_fraction_between_rows_takes_neither_row(tmp_path: Path) -> None:
    """A wide bar reaches the rows above and below; what does not stand on it (or on its numerator or
    denominator) is not its own, and an equation a numerator stands in front of belongs to the row above."""
    s = 8.0
    y = 245.0
    draws = ed.radical_of_fraction("3.76", "E", "F", 150, 200)[0]
    draws += ed.radical_of_fraction("", "E", "F", 152, y - 13)[0]
    den, dx = ed.fraction("M", "N", 150, y + 14)
    draws += den + pb.eq_text("−0.09", dx, y + 14)[0] + [ed.rule(148, 190, y - pb.AXIS * s, s)]
    draws += pb.eq_text("≤λ", 192, y)[0] + ed.radical_of_fraction("1.12", "E", "F", 150, y + 45)[0]
    assert _text(ed.write(tmp_path / "tall.pdf", draws)) == ["3.76√(E/F_y) (√(E/F_y))/(M/N−0.09)≤λ 1.12√(E/F_y)"]


def test_radical_in_a_denominator_joins_its_fraction(tmp_path: Path) -> None:
    """A narrower vinculum under a fraction bar is taken by the bar with its √ (``4/√(h/t)``), not the reverse."""
    base = 300 - pb.AXIS * 8
    rad, end = ed.radical("h/t", 152, base + 0.96 * 8)
    draws = pb.eq_text("k=", 140, 300)[0] + pb.eq_text("4", 160, base - 0.31 * 8)[0] + rad
    assert _text(ed.write(tmp_path / "den.pdf", [*draws, ed.rule(151, end, base, 8)])) == ["k=4/(√(h/t))"]


@pytest.mark.parametrize("gap", [20.0, 22.0])
def test_text_line_above_a_display_fraction_keeps_its_symbol(tmp_path: Path, gap: float) -> None:
    """``… 0.6F_y를 초과 …`` right above ``F_cr = (1.60E)/(D/t)``: the subscript is the sentence's, not the
    numerator's."""
    d, x = pb.korean("큰 값을 사용하되 ", 72, 200, 11)
    d2, x = pb.scripted("F", x, 200, 11, sub="y")
    draws = d + d2 + pb.korean("를 초과할 수 없다.", x, 200, 11)[0]
    y = 200 + gap
    e, x = pb.scripted("F", 150, y, 11, sub="cr")
    e2, x = pb.eq_text("=", x + 2, y, 11)
    den, end = pb.eq_text("(D/t)", x + 4, y - 0.3 * 11 + 0.96 * 11, 11)
    draws += e + e2 + pb.eq_text("1.60E", x + 8, y - 0.3 * 11 - 0.31 * 11, 11)[0] + den
    draws.append(ed.rule(x + 2, end + 2, y - 0.3 * 11, 11))
    assert _text(ed.write(tmp_path / "above.pdf", draws)) == [
        "큰 값을 사용하되 F_y를 초과할 수 없다.", "F_cr=(1.60E)/(D/t)"
    ]


def test_tall_brackets_around_a_radical_of_a_fraction_stay_one_line(tmp_path: Path) -> None:
    """The bracket's top and bottom pieces lie off the line's centre; they join the line that holds them."""
    d, x = pb.eq_text("F=", 100, 400, 10)
    left = x
    d2, x = pb.eq_text("1.43−0.5", x + 6, 400, 10)
    d3, x = ed.radical_of_fraction("", "F", "E", x, 400, 10, sub="")
    draws = d + d2 + d3 + pb.tall_brackets("square", left, x + 1, 393, 408, 10) + pb.eq_text("F", x + 7, 400, 10)[0]
    assert _text(ed.write(tmp_path / "brackets.pdf", draws)) == ["F=[1.43−0.5√(F/E)]F"]


def test_overbar_over_the_first_glyph_of_a_run_stays_on_it(tmp_path: Path) -> None:
    """"U=1−x̅/l" and "x̅=D/π" printed inline: the overbar is as wide as the ``x`` of a run ``x/l``; the glyph
    under it is its own (``x̅``; as a stacked numerator written ``(x̅)``)."""
    s = 7.0
    draws, x = pb.eq_text("U=1−", 100, 200, s)
    draws += pb.eq_text("x/l", x, 200, s)[0] + [ed.rule(x, x + 0.5 * s, 200 - 0.8 * s, s)]
    d, x = pb.eq_text("x=D/π", 100, 240, s)
    draws += [*d, ed.rule(100, 100 + 0.5 * s, 240 - 0.8 * s, s)]
    num = pb.eq_text("x", 151, 280 - pb.AXIS * s - 0.31 * s, s)[0] + [ed.rule(151, 151 + 0.5 * s, 280 - 1.4 * s, s)]
    draws += pb.eq_text("1−", 140, 280, s)[0] + num + pb.eq_text("l", 151, 280 - pb.AXIS * s + 0.96 * s, s)[0]
    draws.append(ed.rule(150, 156, 280 - pb.AXIS * s, s))
    assert _text(ed.write(tmp_path / "overbar.pdf", draws)) == ["U=1−x̅/l", "x̅=D/π", "1−(x̅)/l"]
