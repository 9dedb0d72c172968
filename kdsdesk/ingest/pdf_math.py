"""Equation layout from positioned glyphs: HyhwpEQ glyphs → linear text, and inline equations put back in lines.

한글's PDF export draws an equation as loose glyphs: smaller raised/lowered glyphs for scripts, a stretched
horizontal rule (U+E06D) for fraction bars and radical vincula, tall brackets stacked from pieces. This module
rebuilds the layout from positions:

- ``linearize(glyphs)`` — one equation's glyphs → ``A_e=[(0.038E)/(F_y(D/t))+2/3]A_g``: subscripts ``F_y``,
  superscripts ``x^2`` (``_{n+1}`` when the script is not a plain word), fractions ``(numerator)/(denominator)``
  (no parentheses around one number or one symbol), radicals ``√(…)``, stacked brackets ``( [ {``, limits
  ``lim_{h→0}``;
- ``build_lines(glyphs)`` — all glyphs of a text region (body text and equation glyphs together) → lines in
  reading order whose pieces are text characters or whole inline equations, so that symbols land back in their
  sentence: ``가장 얇은 덧판 두께의 0.75√(E/F_y)배``.

Input is ``Glyph`` records (raw PUA or already decoded; ``kdsdesk.ingest.pua`` decodes raw ones). Coordinates are
PyMuPDF's (top-left origin, points); ``origin`` is the glyph's baseline point from ``rawdict``. No PDF engine is
imported here; ``tests/data/pdf_builder.py`` and ``kdsdesk.ingest.pdf`` produce the glyphs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kdsdesk.ingest import pua
from kdsdesk.ingest.pdf_glyph import Glyph as Glyph
from kdsdesk.ingest.pdf_math_layout import Atom, join, layout, main_base, render_row, rows, union

RectT = tuple[float, float, float, float]

UNREADABLE = "[수식 판독 불가]"  # an equation whose glyphs came out as ASCII codes (한글 Viewer route)


@dataclass(frozen=True, slots=True)
class LinePiece:
    """A piece of a rebuilt line: one text glyph, or one whole inline equation (``is_math``).

    ``glyphs`` are indexes into the list given to ``build_lines`` (empty for an inserted space).
    ``unreadable``: the equation's glyphs came out as ASCII codes; ``text`` is then ``UNREADABLE``.
    """

    text: str
    bbox: RectT
    glyphs: tuple[int, ...]
    is_math: bool = False
    unreadable: bool = False


@dataclass(frozen=True, slots=True)
class MathLine:
    """One line in reading order (left to right); ``baseline`` is the main baseline's y."""

    baseline: float
    bbox: RectT
    pieces: tuple[LinePiece, ...]

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.pieces)


def linearize(
    glyphs: Sequence[Glyph], bars: Sequence[RectT] = (), stats: pua.PuaStats | None = None
) -> str:
    """One equation's glyphs (any order) → linear text; ``bars`` are drawn rules (x0, y0, x1, y1) used like U+E06D.

    Several rows (a ``cases`` block, a display equation over two lines) come out top to bottom, joined by ``; ``.
    Glyphs printed as ASCII codes (the 한글 Viewer route, ``pua.looks_like_ascii_equation_garbage``) give
    ``UNREADABLE`` for the whole equation.
    """
    atoms = layout(glyphs, bars, stats)
    if any(a.garbage for a in atoms):
        return UNREADABLE
    return "; ".join(join(render_row([a for a in row if not a.space])) for row in rows(atoms))


def build_lines(
    glyphs: Sequence[Glyph], bars: Sequence[RectT] = (), stats: pua.PuaStats | None = None
) -> list[MathLine]:
    """All glyphs of a text region → lines top to bottom; each line's pieces left to right.

    Text glyphs stay one piece each (spaces as in the PDF, plus one where a gap of more than 0.35 em has none);
    neighbouring equation atoms merge into one ``is_math`` piece with the linear text of the equation. Rows are
    found from baselines, so raised/lowered scripts, numerators and denominators stay in their line.
    """
    out: list[MathLine] = []
    for row in rows(layout(glyphs, bars, stats)):
        pieces = _line_pieces(glyphs, render_row(row))
        if not pieces:
            continue
        boxes = [p.bbox for p in pieces if p.glyphs] or [pieces[0].bbox]
        bbox = (min(r[0] for r in boxes), min(r[1] for r in boxes), max(r[2] for r in boxes), max(r[3] for r in boxes))
        out.append(MathLine(main_base(row), bbox, tuple(pieces)))
    return out


def _math_piece(glyphs: Sequence[Glyph], run: list[Atom]) -> LinePiece:
    members = tuple(sorted(m for a in run for m in a.members))
    garbage = any(a.garbage for a in run)
    text = UNREADABLE if garbage else join(run)
    return LinePiece(text, _bbox_of(glyphs, members) or union(run), members, is_math=True, unreadable=garbage)


def _line_pieces(glyphs: Sequence[Glyph], bases: list[Atom]) -> list[LinePiece]:
    pieces: list[LinePiece] = []
    run: list[Atom] = []
    prev: Atom | None = None
    for b in bases:
        if prev is not None and not (prev.space or b.space) and b.x0 - prev.x1 > 0.35 * max(b.size, prev.size):
            if run:
                pieces.append(_math_piece(glyphs, run))
                run = []
            pieces.append(LinePiece(" ", (prev.x1, prev.y0, b.x0, prev.y1), ()))
        if b.math:
            run.append(b)
        else:
            if run:
                pieces.append(_math_piece(glyphs, run))
                run = []
            box = _bbox_of(glyphs, tuple(b.members)) or (b.x0, b.y0, b.x1, b.y1)
            pieces.append(LinePiece(b.text, box, tuple(b.members)))
        prev = b
    if run:
        pieces.append(_math_piece(glyphs, run))
    return pieces


def _bbox_of(glyphs: Sequence[Glyph], members: tuple[int, ...]) -> RectT | None:
    """Union of the member glyphs' PDF boxes, leaving out stretched rules and extenders (their boxes are wild)."""
    boxes = [
        glyphs[m].bbox
        for m in members
        if not (pua.is_pua(glyphs[m].char) and pua.glyph_role(glyphs[m].char, glyphs[m].font) in ("bar", "bracket"))
    ]
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
