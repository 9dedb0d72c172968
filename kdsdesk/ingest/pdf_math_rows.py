"""Rows of an equation's atoms (``kdsdesk.ingest.pdf_math``): the ``Atom`` record, rows by baseline (stretchy
brackets join the row they span, scripts the row they hang from), scripts and limits attached to their bases, and
the linear text of a row (``F_y``, ``x^2``, ``_{n+1}``, ``(1/2)a_n``).

Geometry is PyMuPDF's (top-left origin, points). Scripts are ~0.68 of their base's size (``SCRIPT_RATIO`` is the
cut). ``kdsdesk.ingest.pdf_math_layout`` makes the atoms (glyphs, fractions, radicals, brackets).
"""

from __future__ import annotations

import bisect
import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

SCRIPT_RATIO = 0.85  # a glyph smaller than this share of its base is a script
_WORD = re.compile(r"^[^\W_]+$")
_BUCKET = 24.0  # points: atoms are looked up in horizontal bands of this height
_STRETCHY = frozenset("()[]{}|‖√∑∫∏")  # drawn larger than the text around them: never a base for size

def stretchy(a: Atom) -> bool:
    """Drawn larger than the text around it (a tall bracket, √, ∑): never a base for size."""
    return a.tall or a.text in _STRETCHY


@dataclass(slots=True)
class Atom:
    """A glyph or a rebuilt group (fraction, radical, bracket) during layout."""

    text: str
    x0: float
    y0: float  # tight-ish ink box, from the baseline and size (rawdict boxes include the font's line gap)
    x1: float
    y1: float
    base: float
    size: float
    members: list[int]
    math: bool
    space: bool = False
    tall: bool = False  # a stacked bracket: belongs to whichever row it spans
    garbage: bool = False
    frac: bool = False  # a rebuilt fraction "a/b": parenthesised where a neighbour would make it ambiguous
    scripts: list[tuple[str, str]] = field(default_factory=list)  # ("_"|"^", text) attached by the row walker

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2


def _copy(a: Atom) -> Atom:
    """A copy to render (scripts attach to it) without touching the atom a caller still holds."""
    return Atom(a.text, a.x0, a.y0, a.x1, a.y1, a.base, a.size, list(a.members), a.math, a.space, a.tall,
                 a.garbage, a.frac, [])


def union(atoms: Iterable[Atom]) -> tuple[float, float, float, float]:
    items = list(atoms)
    return (
        min(a.x0 for a in items),
        min(a.y0 for a in items),
        max(a.x1 for a in items),
        max(a.y1 for a in items),
    )


def _v_overlap(a: Atom, b: Atom) -> float:
    return min(a.y1, b.y1) - max(a.y0, b.y0)


def main_base(atoms: list[Atom]) -> float:
    """Median baseline of the biggest non-stretchy atoms (the row's own level, not its scripts or brackets)."""
    pool = [a for a in atoms if not stretchy(a) and not a.space] or atoms
    big = max(a.size for a in pool)
    return statistics.median([a.base for a in pool if a.size >= SCRIPT_RATIO * big])


def _script_text(text: str) -> str:
    return text if _WORD.match(text) else "{" + text + "}"


def render_row(atoms: list[Atom]) -> list[Atom]:
    """Attach scripts and limits to their bases in one row; returns base atoms (scripts folded into text)."""
    items = sorted(
        (_copy(a) for a in atoms if not a.space), key=lambda t: (t.x0, t.base)
    )

    starts = [t.x0 for t in items]
    reach = max((t.x1 - t.x0 + 0.8 * t.size for t in items), default=0.0)

    def local_max(a: Atom) -> float:
        lo, hi = bisect.bisect_left(starts, a.x0 - reach), bisect.bisect_right(starts, a.x1)
        near = [b.size for b in items[lo:hi] if b.x1 >= a.x0 - 0.8 * b.size and not stretchy(b)]
        return max(near, default=a.size)

    small: list[bool] = []
    run: list[Atom] = []  # the current run of small atoms
    for a in items:
        is_small = a.size < SCRIPT_RATIO * local_max(a)
        if not is_small and run and -0.2 * a.size <= a.x0 - max(t.x1 for t in run) <= 0.5 * a.size:
            is_small = any(  # the tail of a script, or the other script set after it: the run's size
                abs(a.size - t.size) <= 0.1 * a.size
                and (abs(a.base - t.base) <= 0.2 * a.size or abs(a.base - t.base) >= 0.5 * a.size)
                for t in run
            )
        small.append(is_small)
        if is_small:
            run.append(a)
        else:
            run = []
    groups: list[list[Atom]] = []
    big = [a for a, s in zip(items, small, strict=True) if not s]
    for a, is_small in zip(items, small, strict=True):
        if not is_small:
            continue
        grp = groups[-1] if groups else None
        if grp is not None and _joins_group(a, grp, big):
            grp.append(a)
        else:
            groups.append([a])
    bases = big + [_copy(a) for a in atoms if a.space]
    attached: list[tuple[Atom, list[Atom]]] = []
    for grp in groups:
        gx0, gy0, gx1, gy1 = union(grp)
        kind, owner = "", None

        def overlap(b: Atom, lo: float = gx0, hi: float = gx1) -> float:
            return min(b.x1, hi) - max(b.x0, lo)

        over = [b for b in bases if overlap(b) > 0.1]
        below = [b for b in over if gy0 >= b.y1 - 0.15 * b.size]
        above = [b for b in over if gy1 <= b.y0 + 0.15 * b.size]
        if below:
            kind, owner = "_", max(below, key=lambda b: (overlap(b), b.x1))
        elif above:
            kind, owner = "^", max(above, key=lambda b: (overlap(b), b.x1))
        else:
            left = [b for b in bases if b.x1 <= gx0 + 0.3 * b.size and gx0 - b.x1 <= 0.6 * b.size]
            if not left:  # a script set after the other script of its base (A_cp then ^2), not above it
                left = [
                    o for o, g in attached
                    if union(g)[2] <= gx0 + 0.3 * o.size and gx0 - union(g)[2] <= 0.6 * min(t.size for t in grp)
                ]
            if left:
                owner = max(left, key=lambda b: b.x1)
                dy = main_base(grp) - owner.base
                kind = "_" if dy > 0.1 * owner.size else "^" if dy < -0.15 * owner.size else ""
        if owner is None or not kind:  # small text on its own level (its own scripts inside)
            if len(grp) == 1:
                bases.append(grp[0])
                continue
            x0, y0, x1, y1 = union(grp)
            text = linearize_atoms(grp)
            top = max(grp, key=lambda t: t.size)
            members = [m for a in grp for m in a.members]
            garbage = any(a.garbage for a in grp)
            bases.append(Atom(text, x0, y0, x1, y1, main_base(grp), top.size, members, top.math, garbage=garbage))
            continue
        owner.scripts.append((kind, linearize_atoms(grp) if len(grp) > 1 else grp[0].text))
        attached.append((owner, grp))
    for owner, grp in attached:  # extents grow only now, so that every script found its owner by the base's ink
        gx0, gy0, gx1, gy1 = union(grp)
        owner.members.extend(m for a in grp for m in a.members)
        owner.x1 = max(owner.x1, gx1)
        owner.y0, owner.y1 = min(owner.y0, gy0), max(owner.y1, gy1)
        owner.garbage |= any(a.garbage for a in grp)
    bases.sort(key=lambda t: (t.x0, t.base))
    for b in bases:
        if b.scripts:
            if b.frac:
                b.text, b.frac = f"({b.text})", False
            subs = [t for k, t in b.scripts if k == "_"]
            sups = [t for k, t in b.scripts if k == "^"]
            b.text += "".join(f"_{_script_text(t)}" for t in subs) + "".join(f"^{_script_text(t)}" for t in sups)
            b.scripts = []
    return bases


def _joins_group(a: Atom, grp: list[Atom], bases: list[Atom]) -> bool:
    """Whether small atom ``a`` continues script group ``grp``: right after it, on the group's own baseline or a
    smaller script of it (``λ_{pw(D_cp)}``), with no base-level atom in between."""
    last = max(grp, key=lambda t: t.x1)
    top = max(t.size for t in grp)
    main = statistics.median(t.base for t in grp if t.size >= SCRIPT_RATIO * top)
    if a.x0 - last.x1 > 0.5 * a.size:
        return False
    same_level = abs(a.base - main) <= 0.2 * a.size and a.size >= SCRIPT_RATIO * top
    deeper = a.size < SCRIPT_RATIO * top and min(t.y0 for t in grp) <= a.cy <= max(t.y1 for t in grp) + 0.3 * a.size
    if not (same_level or deeper):
        return False
    return not any(last.x1 - 0.1 < b.cx < a.x0 + 0.1 and _v_overlap(a, b) > 0.4 * a.size for b in bases)


def join(bases: list[Atom]) -> str:
    """Concatenate base atoms. A space goes after a plain-word script that a letter or digit follows
    ("A_v f_yt d" must not read as "A_vf_ytd"); a fraction next to a letter, digit or bracket is parenthesised
    ("(1/2)a_n", not "1/2a_n")."""
    out: list[str] = []
    for k, b in enumerate(bases):
        text = b.text
        if b.frac:
            before = bool(out) and (out[-1][-1:].isalnum() or out[-1][-1:] in ")]}√")
            after = k + 1 < len(bases) and (bases[k + 1].text[:1].isalnum() or bases[k + 1].text[:1] in "([{√")
            if before or after:
                text = f"({text})"
        if out and text and text[0].isalnum() and re.search(r"[_^][^\W_]+$", out[-1]):
            out.append(" ")
        out.append(text)
    return "".join(out)


def linearize_atoms(atoms: list[Atom]) -> str:
    """Text of atoms that form one row (scripts and limits attached)."""
    return join(render_row([a for a in atoms if not a.space]))


def rows(atoms: list[Atom]) -> list[list[Atom]]:
    """Group atoms into rows: atoms of the local main size found rows by baseline (biggest first); stretchy ones
    (brackets, √, ∑) join the row they span; small ones (scripts, limits) join the row they hang from."""
    rows: list[tuple[float, float, list[Atom]]] = []  # (baseline, size, atoms)
    plain = [a for a in atoms if not stretchy(a)]
    buckets: dict[int, list[Atom]] = {}
    for b in plain:
        buckets.setdefault(int(b.cy // _BUCKET), []).append(b)
    smalls: list[Atom] = []
    by_base: list[tuple[float, int]] = []  # (baseline, row index), sorted
    top_size = max((a.size for a in plain), default=10.0)
    for a in sorted(plain, key=lambda t: -t.size):
        lo = bisect.bisect_left(by_base, (a.base - 0.3 * top_size, -1))
        best = None
        for base, k in by_base[lo:]:
            if base > a.base + 0.3 * top_size:
                break
            size = rows[k][1]
            if a.size >= SCRIPT_RATIO * size and abs(a.base - base) <= 0.3 * size and (best is None or k < best):
                best = k
        if best is not None:
            rows[best][2].append(a)
            continue
        local = [
            b.size
            for k in (int(a.cy // _BUCKET) - 1, int(a.cy // _BUCKET), int(a.cy // _BUCKET) + 1)
            for b in buckets.get(k, ())
            if b.x0 <= a.x1 + 1.5 * b.size
            and b.x1 >= a.x0 - 1.5 * b.size
            and b.y0 <= a.y1 + 0.5 * b.size
            and b.y1 >= a.y0 - 0.5 * b.size
        ]
        if a.size < SCRIPT_RATIO * max(local, default=a.size):
            smalls.append(a)
        else:
            bisect.insort(by_base, (a.base, len(rows)))
            rows.append((a.base, a.size, [a]))
    for a in sorted((a for a in atoms if stretchy(a)), key=lambda t: -t.size):
        spanned = [k for k, (base, _s, _m) in enumerate(rows) if a.y0 - 0.2 * a.size <= base <= a.y1 + 0.3 * a.size]
        if spanned:
            rows[min(spanned, key=lambda k: abs(rows[k][0] - a.cy))][2].append(a)
        else:
            rows.append((a.base, a.size, [a]))
    for a in sorted(smalls, key=lambda t: -t.size):
        host = _host_row(a, rows)
        if host is None:
            rows.append((a.base, a.size, [a]))
        else:
            rows[host][2].append(a)
    return [r[2] for r in sorted(rows, key=lambda r: r[0])]


def _host_row(a: Atom, rows: list[tuple[float, float, list[Atom]]]) -> int | None:
    """The row a small atom (script, limit) hangs from: it overlaps the row's band vertically; among those, the
    row with a bigger atom nearest to its left (or above/below it), then the nearest baseline."""
    best: tuple[float, float, int] | None = None
    for k, (base, size, members) in enumerate(rows):
        if abs(base - a.base) > 4 * size:
            continue
        top = min(m.y0 for m in members) - 0.5 * size
        bottom = max(m.y1 for m in members) + 0.5 * size
        if not (a.size < SCRIPT_RATIO * size and a.y1 >= top and a.y0 <= bottom):
            continue
        gaps = [a.x0 - m.x1 if m.x1 <= a.x0 else 0.0 for m in members if m.x0 < a.x1 and m.size > a.size]
        gap = min(gaps, default=1e9)
        key = (gap, abs(a.base - base), k)
        if best is None or key < best:
            best = key
    return None if best is None else best[2]
