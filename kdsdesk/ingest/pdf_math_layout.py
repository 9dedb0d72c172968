"""Layout internals of ``kdsdesk.ingest.pdf_math``: glyphs → atoms, stacked brackets, rules (fractions, radicals,
overlines); rows, scripts and the linear text of a row are in ``kdsdesk.ingest.pdf_math_rows`` (re-exported here).

Geometry is PyMuPDF's (top-left origin, points). Where the glyph carries its outline facts (``Glyph.shape``, from
the file's embedded font via ``kdsdesk.ingest.eqfont``) the rule's line and ends come from its ink, and a
bracket-piece code reads as what that font draws (a whole bracket, or □ when not recognised). Without them, the
measured constants of 한글's font apply: a U+E06D rule lies ``BAR_RISE`` em above its origin and a fraction bar
``AXIS_DROP`` em above the main baseline (Hancom and macOS Quartz exports alike). Glyphs that the rule passes through
(``LEVEL``: the row the fraction sits in, e.g. ``λ`` under a rule drawn too long) are never numerator or
denominator.
"""

from __future__ import annotations

import functools
import itertools
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from kdsdesk.ingest import pua
from kdsdesk.ingest.pdf_glyph import Glyph
from kdsdesk.ingest.pdf_math_rows import (
    SCRIPT_RATIO,
    Atom,
    join,
    linearize_atoms,
    main_base,
    render_row,
    rows,
    stretchy,
    union,
)

RectT = tuple[float, float, float, float]
BAR_RISE = 0.615  # the U+E06D rule lies this many em above its origin (measured: Hancom and Quartz exports)
AXIS_DROP = 0.3  # the main baseline lies this many em below a fraction bar
LEVEL = (0.1, 0.65)  # a glyph whose baseline lies this many em (of its size) below a rule has the rule through it
_SIMPLE = re.compile(r"^(?:[0-9]+(?:\.[0-9]+)?|[^\W\d_](?:_[^\W_]+)?['′]*)$")
__all__ = ["Atom", "join", "layout", "linearize_atoms", "main_base", "render_row", "rows", "union"]


@dataclass(slots=True)
class _Bar:
    x0: float
    x1: float
    oy: float | None  # origin y of a U+E06D glyph; None for a drawn rule
    y: float | None  # rule y for a drawn rule
    members: list[int]
    ink_mid: float | None = None  # em above the origin of the glyph's ink (from the font)
    box_scale: float | None = None  # the glyph's vertical scale as its PyMuPDF box tells it
    trim0: float = 0.0  # ink inset at the left end of the glyph box (from the font)
    trim1: float = 0.0  # ink inset at the right end


def _baseline(g: Glyph) -> float:
    if g.origin is not None:
        return g.origin[1]
    return g.bbox[3] - 0.2 * g.size


def _em_box(glyphs: Sequence[Glyph]) -> dict[str, float]:
    """Per font: height of PyMuPDF's character box in em (its ascender − descender), from glyphs drawn at their
    own size; a stretched rule's vertical scale is its box height over this."""
    ratios: dict[str, list[float]] = {}
    for g in glyphs:
        if g.size > 0 and not (g.is_pua and ord(g.char[:1] or " ") == pua.FRACTION_BAR):
            ratios.setdefault(g.font, []).append((g.bbox[3] - g.bbox[1]) / g.size)
    return {f: statistics.median(r) for f, r in ratios.items()}


def _glyph_bar(i: int, g: Glyph, em_box: dict[str, float]) -> _Bar:
    x = g.origin[0] if g.origin is not None else g.bbox[0]
    shape = g.shape
    if shape is None or shape.ink is None or g.origin is None:
        return _Bar(x, g.bbox[2], _baseline(g), None, [i])
    box = em_box.get(g.font)
    scale = (g.bbox[3] - g.bbox[1]) / box if box else g.size  # vertical scale, if the box follows it
    wide = (g.bbox[2] - x) / shape.advance if shape.advance > 0 else g.size
    ix0, iy0, ix1, iy1 = shape.ink
    trim0, trim1 = max(0.0, ix0 * wide), max(0.0, g.bbox[2] - x - ix1 * wide)
    return _Bar(x, g.bbox[2], g.origin[1], None, [i], (iy0 + iy1) / 2, scale, trim0, trim1)


@functools.lru_cache(maxsize=4096)
def _glyph_info(char: str, font: str, is_pua: bool) -> tuple[bool, pua.GlyphRole | None, str, bool]:
    """Per character and font (cached): equation font?, PUA role (``None``: not PUA), text read on its own,
    printed as an ASCII code (the 한글 Viewer route)."""
    eq = pua.is_hyhwpeq_font(font)
    if is_pua or pua.is_pua(char):
        return eq, pua.glyph_role(char, font), pua.decode_char(char, font) or "", False
    return eq, None, char, eq and pua.looks_like_ascii_equation_garbage(char, font)


def _atoms(
    glyphs: Sequence[Glyph], bars: Sequence[RectT], stats: pua.PuaStats | None
) -> tuple[list[Atom], list[_Bar], list[tuple[int, pua.BracketPiece]]]:
    atoms: list[Atom] = []
    found_bars = [_Bar(r[0], r[2], None, (r[1] + r[3]) / 2, []) for r in bars]
    pieces: list[tuple[int, pua.BracketPiece]] = []
    em_box: dict[str, float] | None = None
    for i, g in enumerate(glyphs):
        eq, role, text, garbage = _glyph_info(g.char, g.font, g.is_pua)
        ink = None
        if role is not None:
            if role == "bar":
                if em_box is None:
                    em_box = _em_box(glyphs)
                found_bars.append(_glyph_bar(i, g, em_box))
                continue
            if role == "bracket":
                draws = g.shape.draws if g.shape is not None else None
                if draws is None:
                    pieces.append((i, pua.BRACKET_PIECES[ord(g.char)]))
                    continue
                role = "unknown" if draws == pua.UNKNOWN else "char"
                ink = g.shape.ink if g.shape is not None else None
                text = draws or text  # what the file's font draws for the piece's code
            if stats is not None:
                if role == "char":
                    stats.decoded += 1
                elif role == "symbol":
                    stats.symbol_font += 1
                elif role == "unknown":
                    stats.count_unknown(ord(g.char))
            if not text:
                continue
        base = _baseline(g)
        x0 = g.origin[0] if g.origin is not None else g.bbox[0]
        top, bottom = (base - ink[3] * g.size, base - ink[1] * g.size) if ink else (
            base - 0.72 * g.size, base + 0.18 * g.size
        )
        atoms.append(
            Atom(
                text, x0, top, max(g.bbox[2], x0), bottom, base, g.size, [i],
                math=eq, space=not text.strip(), garbage=garbage,
            )
        )
    return atoms, _merge_bars(found_bars), pieces


def _merge_bars(bars: list[_Bar]) -> list[_Bar]:
    """Rules drawn as a chain of U+E06D glyphs on one origin line become one rule."""
    out: list[_Bar] = []
    for bar in sorted(bars, key=lambda b: (b.oy is None, b.oy or 0.0, b.x0)):
        last = out[-1] if out else None
        if (
            last is not None and bar.oy is not None and last.oy is not None and abs(bar.oy - last.oy) <= 0.3
            and -0.5 <= bar.x0 - last.x1 <= 0.5
        ):
            if bar.x1 >= last.x1:
                last.x1, last.trim1 = bar.x1, bar.trim1
            last.members.extend(bar.members)
        else:
            out.append(bar)
    for bar in out:  # the ends of the ink, not of the glyph boxes
        if bar.x1 - bar.trim1 > bar.x0 + bar.trim0:
            bar.x0, bar.x1 = bar.x0 + bar.trim0, bar.x1 - bar.trim1
    return out


def _stack_brackets(
    glyphs: Sequence[Glyph], pieces: list[tuple[int, pua.BracketPiece]], stats: pua.PuaStats | None
) -> list[Atom]:
    """Stack bracket pieces into tall brackets: each top piece pairs with the nearest bottom piece below it in the
    same column; middles and extenders join the pair they overlap. Left-over pieces stand alone (an extender is
    a plain vertical rule ``|``; a lone top/bottom/middle keeps its own character and counts unknown)."""

    def same_column(i: int, p: pua.BracketPiece, j: int, q: pua.BracketPiece) -> bool:
        return abs(glyphs[i].bbox[0] - glyphs[j].bbox[0]) <= 1.0 and p.family == q.family and p.side == q.side

    def base(i: int) -> float:
        return _baseline(glyphs[i])

    tops = sorted(((i, p) for i, p in pieces if p.role == "top"), key=lambda t: base(t[0]))
    bottoms = [(i, p) for i, p in pieces if p.role == "bottom"]
    columns: list[list[tuple[int, pua.BracketPiece]]] = []
    for i, p in tops:
        below = [(j, q) for j, q in bottoms if same_column(i, p, j, q) and base(j) > base(i)]
        if below:
            j, q = min(below, key=lambda t: base(t[0]))
            bottoms.remove((j, q))
            columns.append([(i, p), (j, q)])
    rest = [(i, p) for i, p in pieces if p.role in ("middle", "extender")]
    loose = [(i, p) for i, p in pieces if p.role in ("top", "bottom") and not any((i, p) in c for c in columns)]
    for i, p in rest:
        box = glyphs[i].bbox
        hosts = [
            c for c in columns
            if same_column(i, p, *c[0]) and box[1] <= glyphs[c[1][0]].bbox[3] and box[3] >= glyphs[c[0][0]].bbox[1]
        ]
        if hosts:
            hosts[0].append((i, p))
        else:
            loose.append((i, p))
    out: list[Atom] = []
    for col in columns:
        if stats is not None:
            stats.rebuilt += len(col)
        top, bottom = glyphs[col[0][0]], glyphs[col[1][0]]
        y0, y1 = base(col[0][0]) - 0.8 * top.size, base(col[1][0]) + 0.2 * bottom.size
        fam, side = col[0][1].family, col[0][1].side
        out.append(
            Atom(
                pua.BRACKET_CHARS[(fam, side)], min(glyphs[i].bbox[0] for i, _ in col), y0,
                max(glyphs[i].bbox[2] for i, _ in col), y1, (y0 + y1) / 2 + AXIS_DROP * top.size, top.size,
                [i for i, _ in col], True, tall=True,
            )
        )
    for i, p in loose:
        g = glyphs[i]
        if stats is not None:
            if p.role == "extender":
                stats.decoded += 1
            else:
                stats.count_unknown(ord(g.char))
        b = base(i)
        out.append(Atom(p.alone, g.bbox[0], b - 0.72 * g.size, g.bbox[2], b + 0.18 * g.size, b, g.size, [i], True))
    return out


def _enclosed(text: str) -> bool:
    """``(…)`` whose first bracket closes at the very end."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for k, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return k == len(text) - 1
    return False


def _wrap(text: str) -> str:
    return text if _SIMPLE.match(text) or _enclosed(text) else f"({text})"


def _stack(cands: list[Atom], start: float, upward: bool, size: float, reach: float = 0.5) -> list[Atom]:
    """Atoms that form a connected stack beginning within ``reach`` em of ``start`` and going up (numerator) or
    down, the nearest row first, then what touches it."""
    if upward:
        chosen = [a for a in cands if a.cy < start and a.y1 >= start - reach * size]
        edge = max((a.y1 for a in chosen), default=start)
        chosen = [a for a in chosen if a.y1 >= min(edge, start - 0.5 * size)]
    else:
        chosen = [a for a in cands if a.cy > start and a.y0 <= start + reach * size]
        edge = min((a.y0 for a in chosen), default=start)
        chosen = [a for a in chosen if a.y0 <= max(edge, start + 0.5 * size)]
    if not chosen:
        return []
    taken = {id(a) for a in chosen}  # by identity: atoms are distinct objects (comparing fields is slow)
    rest = [a for a in cands if id(a) not in taken and ((a.cy < start) if upward else (a.cy > start))]
    grew = True
    while grew and rest:
        grew = False
        edge = min(a.y0 for a in chosen) if upward else max(a.y1 for a in chosen)
        left: list[Atom] = []
        for a in rest:
            if (upward and a.y1 >= edge - 0.15 * size) or (not upward and a.y0 <= edge + 0.15 * size):
                chosen.append(a)
                grew = True
            else:
                left.append(a)
        rest = left
    return chosen


def _bar_level(bar: _Bar, atoms: list[Atom], typical: float) -> tuple[float, float]:
    """(y of the rule, em size of the text it belongs to).

    A glyph rule lies ``BAR_RISE`` em above its origin in 한글's font; the estimate is then moved to the middle of
    the nearest gap between two text rows (numerator baseline, denominator top) when it falls inside a row, which
    is where fonts that draw the rule lower put it (the sample PDFs' rule sits at the origin).
    """
    inside = [a for a in atoms if bar.x0 - 0.5 <= a.cx <= bar.x1 + 0.5 and not a.space and not stretchy(a)]
    if bar.y is not None:
        return bar.y, max((a.size for a in inside if abs(a.cy - bar.y) <= 1.6 * typical), default=typical)
    assert bar.oy is not None
    near = [a for a in inside if bar.oy - 1.6 * typical <= a.cy <= bar.oy + 1.0 * typical]
    size = max((a.size for a in near), default=typical)
    if bar.ink_mid is not None:  # the font told where the ink lies; the scale is the box's when text near agrees
        scale = bar.box_scale or size
        if any(abs(a.size - scale) <= 0.15 * scale for a in near) or not near:
            size = scale
        return bar.oy - bar.ink_mid * size, size
    est = bar.oy - BAR_RISE * size
    big = sorted(
        (a for a in inside if abs(a.base - est) <= 2.5 * size and a.size >= SCRIPT_RATIO * size), key=lambda a: a.base
    )
    rows: list[list[Atom]] = []
    for a in big:
        if rows and a.base - rows[-1][-1].base <= 0.3 * size:
            rows[-1].append(a)
        else:
            rows.append([a])
    if not any(min(a.base - 0.7 * a.size for a in r) < est < max(a.base for a in r) for r in rows):
        return est, size  # already between rows (한글's own font)
    best: tuple[float, float] | None = None
    for upper, lower in itertools.pairwise(rows):
        top = max(a.base for a in upper)
        bottom = min(a.base - 0.7 * a.size for a in lower)
        if bottom <= top:
            continue
        dist = min(abs(est - top), abs(est - bottom))
        if dist <= 1.0 * size and (best is None or dist < best[0]):
            best = (dist, (top + bottom) / 2)
    return (est if best is None else best[1]), size


def _rebuild_bars(atoms: list[Atom], bars: list[_Bar], stats: pua.PuaStats | None) -> list[Atom]:
    """Turn each rule into a fraction, a radical or an overline (narrowest first, so inner ones nest)."""
    typical = statistics.median([a.size for a in atoms if not a.space] or [10.0])
    levels = sorted(((bar, *_bar_level(bar, atoms, typical)) for bar in bars), key=lambda t: t[0].x1 - t[0].x0)
    for k, (bar, bar_y, size) in enumerate(levels):

        def beyond_other_bar(a: Atom, k: int = k, bar_y: float = bar_y) -> bool:
            """A later (wider) rule lies between the atom and this rule: the atom belongs to that one."""
            return any(
                o.x0 - 0.5 <= a.cx <= o.x1 + 0.5 and min(a.cy, bar_y) < y < max(a.cy, bar_y)
                for o, y, _s in levels[k + 1 :]
            )

        inside = [
            a for a in atoms
            if bar.x0 - 0.5 <= a.cx <= bar.x1 + 0.5 and not a.space and not beyond_other_bar(a)
            and not _on_level(a, bar_y, size)
        ]
        frac = False
        level: list[Atom] = []
        num = _stack(inside, bar_y, True, size)
        den = _stack(inside, bar_y, False, size)
        if num and not den and bar.ink_mid is not None:  # a rule the font placed: the gap below may be wider
            den = _stack(inside, bar_y, False, size, reach=1.0)
        radical = next(
            (
                a
                for a in atoms
                if a.text == "√" and abs(a.x1 - bar.x0) <= 0.3 * size and a.base - 1.6 * a.size <= bar_y <= a.base
            ),
            None,
        )
        if num and den:
            text = f"{_wrap(linearize_atoms(num))}/{_wrap(linearize_atoms(den))}"
            frac = True
            used, base = num + den, bar_y + AXIS_DROP * size
            top = max((a.size for a in num + den if not stretchy(a)), default=size)
            level = [a for a in _level_neighbours(atoms, bar, bar_y, size) if a.size <= 1.25 * top]
            if level:
                base = statistics.median(a.base for a in level)
        elif den and radical is not None:
            text = f"√({linearize_atoms(den)})"
            used, base = [*den, radical], main_base(den)
        elif den:
            inner = linearize_atoms(den)
            text = inner + "\u0305" if len(inner) == 1 else f"({inner})\u0305"
            used, base = den, main_base(den)
        elif num:
            text = linearize_atoms(num)
            used, base = num, main_base(num)
        else:
            if stats is not None and bar.members:
                stats.count_unknown(pua.FRACTION_BAR)
            continue
        if stats is not None:
            stats.rebuilt += len(bar.members)
        x0, y0, x1, y1 = union(used)
        size = max((a.size for a in used if not stretchy(a)), default=size)
        if frac and level and size < 0.9 * max(a.size for a in level):  # num/den set smaller: the row's size
            size = max(a.size for a in level)
        members = [m for a in used for m in a.members] + bar.members
        gone = {id(u) for u in used}
        atoms = [a for a in atoms if id(a) not in gone]
        atoms.append(
            Atom(text, min(x0, bar.x0), y0, max(x1, bar.x1), y1, base, size, members, True,
                  garbage=any(a.garbage for a in used), frac=frac)
        )
    return atoms


def _on_level(a: Atom, bar_y: float, size: float) -> bool:
    """The rule passes through ``a`` (a glyph of the row the fraction sits in): not a numerator or denominator."""
    return a.size >= SCRIPT_RATIO * size and LEVEL[0] * a.size < a.base - bar_y < LEVEL[1] * a.size


def _level_neighbours(atoms: list[Atom], bar: _Bar, bar_y: float, size: float) -> list[Atom]:
    """The nearest plain glyphs left and right of a fraction on the row it sits in (they give its baseline)."""
    level = [a for a in atoms if not a.space and not stretchy(a) and _on_level(a, bar_y, size)]
    left = [a for a in level if a.x1 <= bar.x0 + 0.5 * a.size and bar.x0 - a.x1 <= 3 * a.size]
    right = [a for a in level if a.x0 >= bar.x0 and a.x0 - bar.x1 <= 3 * a.size]
    out = [max(left, key=lambda a: a.x1)] if left else []
    return out + ([min(right, key=lambda a: a.x0)] if right else [])


def layout(glyphs: Sequence[Glyph], bars: Sequence[RectT], stats: pua.PuaStats | None) -> list[Atom]:
    atoms, found, pieces = _atoms(glyphs, bars, stats)
    atoms += _stack_brackets(glyphs, pieces, stats)
    if found:
        atoms = _rebuild_bars(atoms, found, stats)
    return atoms
