"""Requirement clauses of a compound sentence, and the check that such a clause is the document's own text.

KDS sentences often join two requirements: "대형구멍은 미끄럼임계접합에만 사용할 수 있으며, 외측 판에 … 와셔를
사용하여야 한다." Each clause that ends in a requirement's modal ending (하여야 하며, 할 수 있으며, 로 하며,
하지 않으며, 아니하며, 할 수 없으며) followed by a comma is a requirement of its own; :func:`split_requirements`
cuts the sentence there and writes each clause's ending in its final form (… 할 수 있으며 → … 할 수 있다),
nothing else changed. Only these modal endings are cut — "150 mm 이상이고 …" joins two conditions of one
requirement and is never split.

:func:`clause_in` is the verifier's side: a requirement is the document's text when it is contained (normalised)
in a quote, or when it ends in one of these final forms and the quote holds it with the connective ending.
"""

from __future__ import annotations

import re

from kdsdesk import lexicon as lx
from kdsdesk.text.normalize import norm

# connective (as written before ", ") → final form; longest first
ENDINGS = lx.REQUIREMENT_CONNECTIVES

_CUT = re.compile("(" + "|".join(re.escape(c) for c, _ in ENDINGS) + r"),\s+")


def split_requirements(sentence: str) -> list[str]:
    """The requirement clauses of ``sentence`` (one item, the sentence itself, when it is not compound)."""
    out: list[str] = []
    pos = 0
    for m in _CUT.finditer(sentence):
        final = next(f for c, f in ENDINGS if c == m.group(1))
        clause = sentence[pos : m.start()] + final
        if len(clause.strip()) > len(final) + 4:
            out.append(clause.strip())
            pos = m.end()
    rest = sentence[pos:].strip()
    if rest:
        out.append(rest)
    return out or [sentence]


def clause_in(text: str, quote: str) -> bool:
    """``text`` is in ``quote`` (normalised), possibly as a clause whose connective ending was made final."""
    nt, nq = norm(text), norm(quote)
    if nt and nt in nq:
        return True
    for connective, final in ENDINGS:
        if text.rstrip(" .").endswith(final):
            head = text.rstrip(" .")[: -len(final)]
            if norm(head + connective + ",") in nq:
                return True
    return False
