"""Fraction bars and radical vincula (U+E06D runs of the equation font) grouped with what they hold.

Each bar takes the equation runs and narrower bars (already grouped) whose centre lies within its reach (its x
range, 1.5 × its stretched size up and down) — but only those that stand on it or on one another up to it, that no
other bar is nearer to, and that no other member stands in front of: rows of a table packed a line apart keep their
own numerators and radicands, a tall fraction between rows takes neither row, a line of text right above a
display fraction keeps its symbols. A radical's vinculum (a √ ends at its left end, nothing stands on it) takes only
what lies under it. ``axis`` gives the height a group's line is found at: its fraction bar's.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import NamedTuple

from kdsdesk.ingest import pdf_math
from kdsdesk.ingest.pdf_run import BAR, Run


def group_bars(runs: list[Run]) -> list[Run]:
    """Merge each U+E06D bar with the equation runs above, below and under it (numerator, denominator, radicand)
    into one equation run placed on the bar's line; ``pdf_math`` rebuilds the layout from the glyphs."""
    bars = sorted((r for r in runs if r.bar), key=lambda r: r.x1 - r.x0)
    if not bars:
        return runs
    gone: set[int] = set()
    extra: list[Run] = []  # the parts of a run a bar covers only in part, besides the part it takes
    all_maths = [r for r in runs if r.glyphs is not None]  # only equation runs join a bar
    # Runs that are not bars keep their place while bars are grouped: look them up by centre x (sorted);
    # bars (which grow as they are grouped) are always candidates. Candidates keep the page order.
    by_cx = sorted(((r.x0 + r.x1) / 2, i) for i, r in enumerate(all_maths) if not r.bar)
    xs = [cx for cx, _ in by_cx]
    bar_ids = [i for i, r in enumerate(all_maths) if r.bar]
    # Each bar's reach as drawn (x range, centre, vertical reach), before groups grow: in a table whose rows each
    # hold a fraction or radical, a bar's reach overlaps the next row's; a run belongs to the bar nearest to it.
    signs = sorted((r.x1, r.y0, r.y1) for r in runs if r.glyphs is not None and r.text.endswith("√"))
    reach_of = {}
    for b in bars:
        vinculum = bool(signs) and _after_sign(b, signs) and not any(
            _stands_on(all_maths[i], b) for _, i in by_cx[bisect.bisect_left(xs, b.x0) : bisect.bisect_right(xs, b.x1)]
        )
        reach_of[id(b)] = _Reach(b.x0 - 0.1 * b.size, b.x1 + 0.1 * b.size, b.cy, 1.5 * b.size, vinculum)
    for bar in bars:
        if id(bar) in gone:
            continue
        bs = bar.size
        lo, hi = reach_of[id(bar)].lo, reach_of[id(bar)].hi
        near_bars = [i for i in bar_ids if all_maths[i].x0 <= hi and all_maths[i].x1 >= lo]  # grouped ones grew
        maths = [all_maths[i] for i in sorted(
            [i for _, i in by_cx[bisect.bisect_left(xs, lo) : bisect.bisect_right(xs, hi)]] + near_bars
        )]
        members = _bar_members(bar, maths, bars, gone, reach_of)
        if not members and bar.x1 - bar.x0 <= 2.0 * bs:  # an overbar over the first glyph of a run ("x̅/l")
            split = _split_under(bar, all_maths, gone, reach_of[id(bar)])
            if split is not None:
                whole, under, rest = split
                gone.add(id(whole))
                extra.extend(rest)
                members = [under]
        member_ids = {id(r) for r in members}
        lo, hi = bar.x0 - 0.1 * bs, bar.x1 + 0.1 * bs
        scripts = [r for r in maths if r.size < bs and lo <= (r.x0 + r.x1) / 2 <= hi and r is not bar]
        frontier = list(members)  # scripts of the numerator/denominator glyphs hang further out
        pending = [r for r in scripts if id(r) not in gone and id(r) not in member_ids]
        while frontier and pending:
            new: list[Run] = []
            left: list[Run] = []
            for r in pending:
                near = any(r.y0 <= m.y1 + 0.2 * bs and r.y1 >= m.y0 - 0.2 * bs and abs(r.x0 - m.x1) <= 0.5 * bs
                           for m in frontier)
                (new if near else left).append(r)
            members.extend(new)
            frontier, pending = new, left
        if not members:  # a lone bar stays a bar and is dropped later
            bar.bar = False
            bar.text = ""
            continue
        x0, y0, x1, y1 = bar.x0, bar.y0, bar.x1, bar.y1
        for r in members:
            gone.add(id(r))
            x0, y0, x1, y1 = min(x0, r.x0), min(y0, r.y0), max(x1, r.x1), max(y1, r.y1)
        parts = [bar, *members]
        bar.glyphs = [g for r in sorted(parts, key=lambda r: r.x0) for g in (r.glyphs or ())]
        bar.text = "".join([r.text for r in parts]) or BAR
        bar.x0, bar.y0, bar.x1, bar.y1 = x0, y0, x1, y1  # an atom now
    return [r for r in runs if id(r) not in gone and r.text] + extra


def _split_under(
    bar: Run, maths: list[Run], gone: set[int], area: _Reach
) -> tuple[Run, Run, list[Run]] | None:
    """A run the lone ``bar`` covers only in part, its glyphs under the bar (their boxes reaching into the bar's)
    contiguous (the ``x`` of ``x/l`` under the overbar of ``x̅``): the run, the part under the bar and the other
    parts (each a run of its own glyphs)."""
    lo, hi, cy, reach, _ = area
    for r in maths:
        if r.bar or not r.glyphs or id(r) in gone or r.x0 >= hi or r.x1 <= lo or not cy <= r.cy <= cy + reach:
            continue
        idx = [
            i for i, g in enumerate(r.glyphs)
            if lo <= (g.bbox[0] + g.bbox[2]) / 2 <= hi and g.bbox[1] < bar.y1 and g.bbox[3] > bar.y0
        ]
        if not idx or len(idx) == len(r.glyphs) or idx != list(range(idx[0], idx[-1] + 1)):
            continue
        cuts = [(0, idx[0]), (idx[0], idx[-1] + 1), (idx[-1] + 1, len(r.glyphs))]
        parts = [_part(r, a, b, a == 0, b == len(r.glyphs)) for a, b in cuts if b > a]
        under = parts[1] if idx[0] > 0 else parts[0]
        return r, under, [p for p in parts if p is not under]
    return None


def _part(r: Run, a: int, b: int, first: bool, last: bool) -> Run:
    """Glyphs ``a:b`` of the equation run ``r`` as a run of their own."""
    glyphs = (r.glyphs or [])[a:b]
    text = r.text[a:b] if len(r.text) == len(r.glyphs or ()) else "".join(g.char for g in glyphs)
    x0, x1 = min(g.bbox[0] for g in glyphs), max(g.bbox[2] for g in glyphs)
    return Run(text or BAR, x0, r.y0, x1, r.y1, r.size, r.base, r.bold, glyphs, False, r.lead and first,
               r.trail and last, r.cy)


class _Reach(NamedTuple):
    """Where a bar takes runs, as drawn: x range, centre height, vertical reach; a radical's vinculum takes only
    what lies under it."""

    lo: float
    hi: float
    cy: float
    reach: float
    vinculum: bool


def _bar_members(
    bar: Run, maths: list[Run], bars: list[Run], gone: set[int], reach_of: dict[int, _Reach]
) -> list[Run]:
    """The equation runs and narrower bars (grouped or not) that ``bar`` takes: centre within its reach, not
    nearer to another bar, not a table row's equation beyond this bar's own. A wider bar is never taken: it takes
    this one when its turn comes (a fraction bar under a radical's vinculum, a radical in a denominator)."""
    lo, hi, cy, reach, vinculum = reach_of[id(bar)]
    width = hi - lo
    members = [
        r for r in maths
        if lo <= (r.x0 + r.x1) / 2 <= hi and abs(r.cy - cy) <= reach and r is not bar and id(r) not in gone
        and (not r.bar or reach_of[id(r)].hi - reach_of[id(r)].lo <= width) and (not vinculum or r.cy >= cy)
    ]
    members = _attached(bar, members)
    rivals = [
        o for b in bars
        if b is not bar and id(b) not in gone
        and (o := reach_of[id(b)]).lo <= hi and o.hi >= lo and abs(o.cy - cy) <= 2 * reach
    ] if len(bars) > 1 and members else []
    if rivals:
        members = _nearest_members(bar, members, rivals, reach_of)
    if not vinculum and len(members) > 2:  # under a vinculum a radicand's numerator stands between: no test
        members = _first_layer(members, cy)
    return members


def _attached(bar: Run, members: list[Run]) -> list[Run]:
    """The members that stand on the bar or on one another up to it (boxes at most 0.3 × size apart vertically,
    overlapping across): a wide bar's reach (1.5 × its stretched size) also spans the lines above and below,
    whose runs (a subscript, a symbol, a coefficient) are not its numerator or denominator."""
    if not members:
        return members
    todo = [(bar.y0, bar.y1, bar.x0, bar.x1)]
    rest = list(members)
    kept: list[Run] = []
    while todo and rest:
        y0, y1, x0, x1 = todo.pop()
        still = []
        for r in rest:
            g = 0.3 * r.size
            if r.y1 >= y0 - g and r.y0 <= y1 + g and r.x1 > x0 and r.x0 < x1:
                kept.append(r)
                todo.append((r.y0, r.y1, r.x0, r.x1))
            else:
                still.append(r)
        rest = still
    kept_ids = {id(k) for k in kept}
    return [m for m in members if id(m) in kept_ids]


def _after_sign(bar: Run, signs: list[tuple[float, float, float]]) -> bool:
    """Whether a √ of the equation font ends at ``bar``'s left end, reaching up to it: then ``bar`` is a radical's
    vinculum, unless a run stands on it (``_stands_on``: a fraction bar right after a small √, as ``√(d/b_w)`` is
    drawn without a vinculum)."""
    i = bisect.bisect_left(signs, (bar.x0 - 0.3 * bar.size,))
    while i < len(signs) and signs[i][0] <= bar.x0 + 0.3 * bar.size:
        _, y0, y1 = signs[i]
        if y0 - 0.3 * bar.size <= (bar.y0 + bar.y1) / 2 <= y1:
            return True
        i += 1
    return False


def _stands_on(r: Run, bar: Run) -> bool:
    """A numerator: a run above ``bar``'s centre whose box reaches into the bar's."""
    return not r.bar and r.cy < bar.cy and r.y1 > bar.y0 and r.x0 < bar.x1 and r.x1 > bar.x0


def _nearest_members(bar: Run, members: list[Run], rivals: list[_Reach], reach_of: dict[int, _Reach]) -> list[Run]:
    """The ``members`` in reach of ``bar`` that no other bar in reach of them is nearer to (by centre height).

    A bar among the members that keeps them is no rival: a radical's vinculum over a fraction joins the fraction
    bar it is nearest to, and the numerator right under the vinculum joins with it."""

    def nearer(r: Run, d: float, others: list[_Reach]) -> bool:
        cx = (r.x0 + r.x1) / 2
        return any(
            lo <= cx <= hi and abs(r.cy - cy) < d and abs(r.cy - cy) <= reach and (not vinc or r.cy >= cy)
            for lo, hi, cy, reach, vinc in others
        )

    cy = reach_of[id(bar)].cy
    kept_bars = [m for m in members if m.bar and not nearer(m, abs(m.cy - cy), [o for o in rivals
                                                                               if o != reach_of.get(id(m))])]
    kept_ids = {id(m) for m in kept_bars}
    others = [o for o in rivals if o not in {reach_of[k] for k in kept_ids if k in reach_of}]
    return [m for m in members if id(m) in kept_ids or (not m.bar and not nearer(m, abs(m.cy - cy), others))]


def _first_layer(members: list[Run], cy: float) -> list[Run]:
    """Drop a member that another member stands wholly between and the bar (``cy``), overlapping it across: it
    belongs to the table row above or below (``3.76√(E/F_y)`` over a tall fraction's numerator), not to this
    numerator or denominator. Scripts overlap their base vertically and stay."""

    def between(m: Run, c: Run) -> bool:
        if m is c or (m.bar and not _grouped(m)) or m.x0 >= c.x1 or m.x1 <= c.x0:
            return False
        if c.cy < cy:
            return m.y0 >= c.y1 and m.cy < cy
        return m.y1 <= c.y0 and m.cy > cy

    return [c for c in members if not any(between(m, c) for m in members)]


def _grouped(r: Run) -> bool:
    """A bar that has already taken its numerator, denominator or radicand."""
    return r.bar and any(g.char != BAR for g in r.glyphs or ())


def axis(glyphs: Sequence[pdf_math.Glyph]) -> float:
    """Height of an equation group's line: its fraction bar (glyphs of the group above and below it; the widest
    when nested), not a radical's vinculum over the fraction (that lies a storey higher and put ``√(E/F_y)`` on
    the line above its coefficient); a group without one (an overbar alone) sits at its first bar."""
    best: tuple[float, float] | None = None
    first: float | None = None
    for g in glyphs:
        if g.char != BAR:
            continue
        x0, y0, x1, y1 = g.bbox
        c = (y0 + y1) / 2
        if first is None:
            first = c
        above = below = False
        for h in glyphs:
            if h.char == BAR or h.bbox[2] <= x0 or h.bbox[0] >= x1:
                continue
            hc = (h.bbox[1] + h.bbox[3]) / 2
            above = above or hc < c
            below = below or hc > c
        if above and below and (best is None or x1 - x0 > best[0]):
            best = (x1 - x0, c)
    return best[1] if best is not None else first if first is not None else 0.0
