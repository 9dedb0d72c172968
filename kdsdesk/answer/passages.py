"""The best passages for a question: when no answer is confirmed, the engineer still gets the page.

From the top retrieved chunks, each chunk's best sentence window (the sentence holding most of the question's
content words, with the sentence before it when that one introduces it) scored by the share of the question's
words it holds and the hit's rank; one passage per chunk, the best ``n``. The question's words are marked in the
passage (ranges into its text) for highlighting; a PDF passage carries the page where it starts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kdsdesk import lexicon as lx
from kdsdesk.records import Hit, Need, Passage
from kdsdesk.text.match import bigrams, coverage
from kdsdesk.text.sentences import sentence_ranges

N_PASSAGES = 5
POOL = 10
MAX_CHARS = 320


def _marks(text: str, words: Sequence[str]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    low = text.lower()
    for w in sorted({w for w in words if len(w) >= 2 or re.match(r"[A-Za-z]", w)}, key=len, reverse=True):
        start = 0
        while (i := low.find(w.lower(), start)) >= 0:
            if not any(a < i + len(w) and i < b for a, b in out):
                out.append((i, i + len(w)))
            start = i + len(w)
    return tuple(sorted(out))


def _page_at(hit: Hit, offset: int) -> int | None:
    for s in sorted(hit.chunk.spans, key=lambda sp: sp.start):
        if s.end > offset and s.page_index is not None:
            return s.page_index
    return hit.chunk.pages[0] if hit.chunk.pages and hit.chunk.doc.kind == "pdf" else None


def passages(need: Need, hits: Sequence[Hit], n: int = N_PASSAGES) -> tuple[Passage, ...]:
    """The ``n`` best passages of ``hits`` for ``need`` (see the module docstring)."""
    words = [w for w in need.terms if w not in lx.GENERIC_WORDS] or list(need.terms)
    qg: set[str] = set()
    for w in words:
        qg |= bigrams(w)
    out: list[Passage] = []
    for h in hits[:POOL]:
        text = h.chunk.text
        best: tuple[float, int, int] | None = None
        ranges = sentence_ranges(text) if h.chunk.kind != "table" else [(0, len(text))]
        for i, (a, b) in enumerate(ranges):
            s = coverage(qg, bigrams(text[a:b])) if qg else 0.0
            if best is None or s > best[0]:
                lead = text[ranges[i - 1][0] : ranges[i - 1][1]] if i > 0 else ""
                lo = ranges[i - 1][0] if lead and re.search(r"(다음|같다)\S*\s*[.:]?$", lead) else a
                best = (s, lo, b)
        if best is None:
            continue
        s, a, b = best
        if b - a > MAX_CHARS:
            b = a + MAX_CHARS
        piece = text[a:b]
        out.append(
            Passage(
                chunk=h.chunk, text=piece, start=a, page_index=_page_at(h, a) if h.chunk.doc.kind == "pdf" else None,
                marks=_marks(piece, words), score=round(s + 0.2 / h.rank, 4),
            )
        )  # fmt: skip
    out.sort(key=lambda p: -p.score)
    return tuple(out[:n])
