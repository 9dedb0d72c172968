"""Outline lettering → unreadable regions: text-like rows only (letter height, one baseline, not one shape repeated),
running headers/footers drawn as outlines left out, scans reported."""

from __future__ import annotations

from kdsdesk.ingest.pdf_layout import PageData
from kdsdesk.ingest.pdf_outlines import OUTLINE_REASON, SCAN_REASON, outline_regions, text_like
from kdsdesk.records import RectT

W, H = 595.0, 842.0


def _word(x: float, base: float, n: int, h: float = 8.0, w: float = 7.5, gap: float = 0.6) -> list[RectT]:
    """``n`` Hangul-like glyph boxes standing on ``base``, heights varying a little as real glyphs do."""
    out: list[RectT] = []
    for i in range(n):
        hh = h - 0.4 * (i % 3)
        out.append((x, base - hh, x + w - 0.3 * (i % 2), base))
        x += w + gap
    return out


def test_hangul_row_is_text_like() -> None:
    assert text_like(_word(100, 200, 2))
    assert text_like(_word(100, 200, 6))
    # "(a)": parentheses taller than the letter, still one baseline for most shapes
    assert text_like([(100, 192, 103, 202), (104, 196, 109, 201), (110, 192, 113, 202)])


def test_figure_shapes_are_not_text_like() -> None:
    hatching = [(100 + 3 * i, 300, 101.5 + 3 * i, 304) for i in range(8)]  # one stroke repeated
    assert not text_like(hatching)
    arrows = [(100, 300, 106, 306), (107, 309, 113, 315), (114, 318, 120, 324)]  # no common baseline
    assert not text_like(arrows)
    dots = [(100, 300, 102.5, 302.5), (103, 300, 105.5, 302.5)]  # below letter height
    assert not text_like(dots)
    assert not text_like(_word(100, 200, 1))
    assert text_like(_word(100, 200, 3, h=7.9, w=4.0))  # "111": a short repeat is still a number


def _page(i: int, boxes: list[RectT]) -> PageData:
    return PageData(i, W, H, [], [], boxes, 0.0)


def test_running_outline_header_and_page_number_are_left_out() -> None:
    pages = []
    for i in range(4):
        boxes = _word(72, 66, 6) + _word(400 + 2 * i, 66, 3)  # header drawn as outlines (text beside shifts)
        boxes += _word(80, 802, 5) + _word(510 - 3 * i, 803, 2, h=11.0)  # footer and a page number that changes
        if i == 2:
            boxes += _word(150, 400, 4)  # a table cell label drawn as outlines
        pages.append(_page(i, boxes))
    pages.append(_page(4, []))  # a page without drawings read
    regions = outline_regions(pages)
    assert [(u.page_index, u.reason) for u in regions] == [(2, OUTLINE_REASON)]
    assert regions[0].rect is not None
    assert regions[0].rect[0] == 150


def test_band_rows_on_few_pages_are_kept() -> None:
    """Lettering in the top band of one page only (a title drawn as outlines) is content, not a running header."""
    pages = [_page(0, _word(200, 80, 5)), _page(1, _word(150, 400, 3)), _page(2, _word(150, 500, 3))]
    assert len(outline_regions(pages)) == 3


def test_scanned_page_is_reported() -> None:
    scan = PageData(0, W, H, [], [], [], 0.9)
    (region,) = outline_regions([scan])
    assert (region.reason, region.rect) == (SCAN_REASON, (0.0, 0.0, W, H))


def test_one_syllable_cell_beside_or_under_lettering_is_a_row() -> None:
    """A one-syllable word drawn as one shape ("절" on the line of "한계상태", "비" under "폭두께") is lettering; a
    lone shape of another size (a circle, a dash) or standing apart from any lettering is not."""
    label = _word(300, 200, 4)  # "한계상태"
    beside = _word(150, 200, 1)  # "절" on its centre line
    under = _word(301, 213, 1, w=6.0)  # "비" right under it
    circle = [(150, 230, 166, 246)]  # a section drawing, twice the letter height
    dash = [(400, 196, 407.5, 197)]  # flat: not a syllable
    apart = _word(150, 400, 1)  # a lone shape far from any lettering
    regions = outline_regions([_page(0, label + beside + under + circle + dash + apart)])
    row = (label[0][0], min(b[1] for b in label), max(b[2] for b in label), 200)
    assert sorted(u.rect for u in regions if u.rect is not None) == sorted([beside[0], under[0], row])


def test_glyphs_of_one_line_stay_one_row_across_a_centre_step() -> None:
    """The last glyph of "해당없음" sits 0.2 pt lower than the others: its centre falls in the next 4-pt step, and
    it still belongs to the row (read alone it was junk and the row lost its last syllable)."""
    from kdsdesk.ingest.pdf_outlines import _rows

    word = [(359.3, 653.8, 367.0, 662.1), (367.6, 653.8, 375.5, 662.1), (376.1, 653.8, 384.7, 662.1),
            (385.5, 654.0, 393.6, 662.1)]
    other = [(444.5, 653.8, 452.0, 662.1), (452.6, 653.8, 460.0, 662.1)]  # the next column: a row of its own
    assert _rows(word + other) == [word, other]


def test_syllables_written_downwards_in_one_cell_are_one_label() -> None:
    """"자유돌출판" one syllable under the other beside the rows it names is one region (read as one word); the
    same shapes parted by rules across them are one-syllable labels of their own rows, not one word."""
    from kdsdesk.ingest.pdf_table_geometry import Rule

    label = _word(300, 120, 4)  # lettering elsewhere on the page sets the letter height
    stack = [b for k in range(5) for b in _word(100, 308 + 18 * k, 1)]
    regions = outline_regions([_page(0, label + stack)])
    assert (stack[0][0], stack[0][1], stack[-1][2], stack[-1][3]) in {u.rect for u in regions}
    ruled = PageData(0, W, H, [], [Rule(90.0, 500.0, 311.0 + 18 * k) for k in range(4)], label + stack, 0.0)
    assert all(u.rect is None or u.rect[3] - u.rect[1] < 20 for u in outline_regions([ruled]))


def test_a_shape_a_text_run_only_touches_is_still_lettering() -> None:
    """The "," of the text layer after an outlined "강" ("ㄱ형강, T형강") has a box (its advance) reaching 0.3 pt
    into the syllable's ink: the syllable is still lettering of the row; a shape the text itself covers (the
    same character drawn twice) is left out."""
    from kdsdesk.ingest.pdf_text import Line, Run

    word = _word(150, 200, 3)  # "ㄷ형강"
    comma = Run(",", word[-1][2] - 0.3, 189.0, word[-1][2] + 2.0, 202.0, 10.0, 200.0, cy=195.5)
    doubled = _word(300, 200, 2)  # lettering the text layer also writes, run over run
    text = Run("강재", doubled[0][0] - 0.2, 189.0, doubled[-1][2] + 0.2, 202.0, 10.0, 200.0, cy=195.5)
    line = Line([comma, text], 189.0, 202.0, x0=comma.x0, x1=text.x1)
    regions = outline_regions([PageData(0, W, H, [line], [], word + doubled, 0.0)])
    assert [u.rect for u in regions] == [(word[0][0], min(b[1] for b in word), word[-1][2], 200)]
