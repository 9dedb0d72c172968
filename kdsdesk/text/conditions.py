"""Numeric conditions stated in a text and whether a question's conditions agree with an item's.

A KDS item often states its own condition ("타설 속도가 4.5 m/h를 초과하는 경우: …", "2.1 m/h 이상 4.5 m/h
이하인 경우", "두께 6 mm 이상인 판재"), and a question states one too ("4.5 m/h를 넘으면", "2.1~4.5 m/h인",
"두께가 10 mm일 때"). Each is read as an interval of one quantity, keyed by its unit:

- a bound: number, unit, particle, comparison word — 초과/넘는/넘으면 (>), 이상 (≥), 이하/이내/까지/넘지 않는/
  초과하지 않는 (≤), 미만 (<);
- a range: ``a~b unit`` or ``a unit 이상 b unit 이하/미만``;
- in a question only, a point: a number with a unit and no comparison word ("10 mm일 때").

:func:`agreement` compares them: +1 when one of the item's intervals of a unit contains the question's interval
of that unit (the item is written for the question's case), -1 when every item interval of a shared unit is
disjoint from the question's (the item is written for another case: "4.5 m/h 이하" for "4.5 m/h를 넘으면"), 0
otherwise (no shared unit, partial overlap). The asked part of a question ("몇 mm 이하") has no number and so
states no condition.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from kdsdesk import lexicon as lx
from kdsdesk.lexicon import UNITS
from kdsdesk.text.normalize import norm

_NUM = r"\d+(?:\.\d+)?"
_UNIT_ALT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
_UNIT = rf"(?:\s*(?P<unit>{_UNIT_ALT})(?![A-Za-z/]))?"
# comparison words after "number unit (particle)": longest, negated forms first
_WORD = (
    r"\s*(?:[을를이가]|보다|까지는)?\s*"
    r"(?P<word>초과하지\s*않|넘지\s*않|초과|넘[는은으을어]|넘으면|상회|이상|이하|이내|미만|까지|보다\s*크|보다\s*작)"
)
_BOUND = re.compile(rf"(?<![\d.A-Za-z_])(?P<num>{_NUM}){_UNIT}{_WORD}")
_RANGE = re.compile(
    rf"(?<![\d.A-Za-z_])(?P<a>{_NUM})\s*(?P<ua>{_UNIT_ALT})?\s*[~〜∼～]\s*(?P<b>{_NUM}){_UNIT.replace('unit', 'ub')}"
)
_LATIN_UNITS = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True) if not re.search("[가-힣]", u))
_POINT = re.compile(rf"(?<![\d.A-Za-z_/(])(?P<num>{_NUM})\s*(?P<unit>{_LATIN_UNITS})(?![A-Za-z/²³0-9])")


@dataclass(frozen=True, slots=True)
class Cond:
    """``lo (<|≤) x (<|≤) hi`` for the quantity measured in ``unit`` (None: unbounded)."""

    unit: str
    lo: Decimal | None
    lo_inc: bool
    hi: Decimal | None
    hi_inc: bool
    start: int = 0
    end: int = 0

    def contains(self, other: Cond) -> bool:
        """``other`` lies inside this interval."""
        if self.lo is not None and (
            other.lo is None or other.lo < self.lo or (other.lo == self.lo and other.lo_inc and not self.lo_inc)
        ):
            return False
        return self.hi is None or not (
            other.hi is None or other.hi > self.hi or (other.hi == self.hi and other.hi_inc and not self.hi_inc)
        )

    def disjoint(self, other: Cond) -> bool:
        """No value satisfies both."""
        return _below(self, other) or _below(other, self)


def _below(a: Cond, b: Cond) -> bool:
    """Every value of ``a`` is below every value of ``b``."""
    if a.hi is None or b.lo is None:
        return False
    return a.hi < b.lo or (a.hi == b.lo and not (a.hi_inc and b.lo_inc))


def _dec(s: str) -> Decimal | None:
    try:
        return Decimal(s)
    except InvalidOperation:
        return None


def _unit(u: str | None) -> str:
    return norm(u or "").replace("²", "2").replace("³", "3")


def _bound(num: Decimal, unit: str, op: str, a: int, b: int) -> Cond:
    if op == ">":
        return Cond(unit, num, False, None, False, a, b)
    if op == "≥":
        return Cond(unit, num, True, None, False, a, b)
    if op == "<":
        return Cond(unit, None, False, num, False, a, b)
    return Cond(unit, None, False, num, True, a, b)


def conditions(text: str, points: bool = False) -> list[Cond]:
    """The intervals ``text`` states (see the module docstring); ``points``: also bare "number unit" values."""
    s = unicodedata.normalize("NFKC", text)
    out: list[Cond] = []
    taken: list[tuple[int, int]] = []
    for m in _RANGE.finditer(s):
        a, b = _dec(m["a"]), _dec(m["b"])
        if a is None or b is None or a >= b:
            continue
        unit = _unit(m["ub"] or m["ua"])
        out.append(Cond(unit, a, True, b, True, m.start(), m.end()))
        taken.append((m.start(), m.end()))
    bounds: list[Cond] = []
    for m in _BOUND.finditer(s):
        if any(x <= m.start() < y for x, y in taken):
            continue
        num = _dec(m["num"])
        op = lx.BOUND_OPERATORS.get(re.sub(r"\s+", "", m["word"]))
        if num is None or op is None:
            continue
        bounds.append(_bound(num, _unit(m["unit"]), op, m.start(), m.end()))
    i = 0
    while i < len(bounds):  # "a 이상 b 이하" → one range
        c = bounds[i]
        n = bounds[i + 1] if i + 1 < len(bounds) else None
        if (
            n is not None and c.unit == n.unit and c.lo is not None and c.hi is None and n.hi is not None
            and n.lo is None and c.lo < n.hi and lx.BETWEEN_BOUNDS.match(s[c.end : n.start])
        ):  # fmt: skip
            out.append(Cond(c.unit, c.lo, c.lo_inc, n.hi, n.hi_inc, c.start, n.end))
            taken.append((c.start, n.end))
            i += 2
            continue
        out.append(c)
        taken.append((c.start, c.end))
        i += 1
    if points:
        for m in _POINT.finditer(s):
            if any(x <= m.start() < y for x, y in taken):
                continue
            num = _dec(m["num"])
            if num is not None:
                out.append(Cond(_unit(m["unit"]), num, True, num, True, m.start(), m.end()))
    return sorted(out, key=lambda c: c.start)


def question_conditions(question: str) -> list[Cond]:
    """The conditions a question states (points included; the asked part has no number)."""
    return [c for c in conditions(question, points=True) if c.unit]


def _opposite(a: Cond, b: Cond) -> bool:
    """Two half-lines pointing away from one end ("2 m 이내" against "2 m 이상"): they share only that point."""
    up_a, down_a = a.lo is not None and a.hi is None, a.hi is not None and a.lo is None
    up_b, down_b = b.lo is not None and b.hi is None, b.hi is not None and b.lo is None
    return (up_a and down_b and a.lo == b.hi) or (down_a and up_b and a.hi == b.lo)


def agreement(qconds: list[Cond], text: str) -> int:
    """+1 / -1 / 0: the item ``text`` is written for the question's case / for another case / neither."""
    if not qconds:
        return 0
    iconds = [c for c in conditions(text) if c.unit]
    result = 0
    for q in qconds:
        same = [c for c in iconds if c.unit == q.unit]
        if not same:
            continue
        if any(c.contains(q) for c in same):
            return 1
        if all(c.disjoint(q) or _opposite(c, q) for c in same):
            result = -1
    return result
