"""Coefficients read from formulas by the question's own symbols (the answerer's side of ``kdsdesk.text.formula``):
the number that stands in the asked relation to the product the question names, from the ranked units."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from kdsdesk.answer.sentences import Unit
from kdsdesk.text.formula import MARGIN, _matches, asked


@dataclass(frozen=True, slots=True)
class Reading:
    value: str
    unit: Unit
    score: float
    ambiguous: bool
    margin: float | None



def read(question: str, ranked: Sequence[Unit]) -> Reading | None:
    """The number the question asks for by its relation to a named product, from the ranked units (tables
    excluded); None when the question names no product or no unit holds one in that relation."""
    a = asked(question)
    if a is None:
        return None
    cands: list[tuple[float, str, Unit]] = []
    for u in ranked:
        if u.hit.chunk.kind == "table" or u.score <= 0.3:
            continue
        for value, bound in _matches(a, unicodedata.normalize("NFKC", u.text)):
            s = u.score
            if a.bound:  # a bound asked for: the number written as that bound wins, one written as none loses
                s += 0.5 if bound == a.bound else (-0.3 if not bound else -0.5)
            cands.append((s, value, u))
    if not cands:
        return None
    cands.sort(key=lambda c: -c[0])
    best = cands[0]
    rival = next((c for c in cands[1:] if c[1].replace(" ", "") != best[1].replace(" ", "")), None)
    margin = best[0] - rival[0] if rival else None
    return Reading(best[1], best[2], best[0], margin is not None and margin < MARGIN, margin)
