"""Quote provenance: does a quote lie in the chunk it cites, and where on the page is it?

A quote is accepted only when the chunk it cites is among the hits retrieved for this question, and the quote is
found in that chunk's text after normalising both sides (``kdsdesk.text.normalize``): containment first; failing
that, the longest common *contiguous* substring must cover at least ``LCS_THRESHOLD`` of the normalised quote.

The verified quote is the chunk's own text at the matched range (never the quoted string as given), so the later
value checks read the document, not the model. ``Citation.rects`` are the chunk spans overlapping that range
(``(page_index, x0, y0, x1, y1)``, PyMuPDF top-left points); a span cut by the range is clipped proportionally
to the character offsets. HWPX chunks have no rects and ``page_index`` None.

``LCS_THRESHOLD`` (0.9) was measured on the sample QA (``../shared/corpus/samples/qa.jsonl``, 120 gold quotes,
``tex_to_plain`` of the golden markup) against the indexed sample libraries: against the chunks of their own
clause, 109/120 (PDF) and 114/120 (HWPX) gold quotes are contained; the rest (display equations rendered
differently from the golden TeX, PDF table cells) cover 0.20–0.88. Against the chunks of the *other* clauses of
the same document the best coverage has p90 0.50 (max 1.0 only for a table title repeated in the text). 0.9
accepts a quote with a changed particle or spacing; it does not let a changed number through, because the
value check re-reads the number from the matched range of the chunk, not from the quote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from kdsdesk.records import Chunk, Citation, Hit
from kdsdesk.text.normalize import normalize

LCS_THRESHOLD = 0.9
MIN_QUOTE_CHARS = 2  # normalised characters; shorter quotes prove nothing


@dataclass(frozen=True, slots=True)
class QuoteMatch:
    """Where a quote was found in a text: original range ``[start, end)`` and the share of the quote matched."""

    start: int
    end: int
    coverage: float  # 1.0 when contained


def locate(quote: str, text: str, threshold: float = LCS_THRESHOLD) -> QuoteMatch | None:
    """Find ``quote`` in ``text`` (normalised containment, else longest common substring ≥ ``threshold``)."""
    nq = normalize(quote)
    if len(nq.text) < MIN_QUOTE_CHARS:
        return None
    nt = normalize(text)
    pos = nt.text.find(nq.text)
    if pos >= 0:
        a, b = nt.to_source(pos, pos + len(nq.text))
        return QuoteMatch(a, b, 1.0)
    if not nt.text:
        return None
    m = SequenceMatcher(None, nt.text, nq.text, autojunk=False).find_longest_match(
        0, len(nt.text), 0, len(nq.text)
    )
    coverage = m.size / len(nq.text)
    if m.size == 0 or coverage < threshold:
        return None
    a, b = nt.to_source(m.a, m.a + m.size)
    return QuoteMatch(a, b, coverage)


def lcs_coverage(quote: str, text: str) -> float:
    """Share of the normalised quote covered by its longest common substring with ``text`` (1.0 if contained)."""
    nq, nt = normalize(quote).text, normalize(text).text
    if not nq:
        return 0.0
    if nq in nt:
        return 1.0
    m = SequenceMatcher(None, nt, nq, autojunk=False).find_longest_match(0, len(nt), 0, len(nq))
    return m.size / len(nq)


def rects_for(chunk: Chunk, start: int, end: int) -> tuple[tuple[int, float, float, float, float], ...]:
    """Rectangles covering characters ``[start, end)`` of ``chunk.text``: spans clipped proportionally."""
    out: list[tuple[int, float, float, float, float]] = []
    for s in sorted(chunk.spans, key=lambda sp: sp.start):
        lo, hi = max(s.start, start), min(s.end, end)
        if lo >= hi or s.rect is None or s.page_index is None:
            continue
        x0, y0, x1, y1 = s.rect
        n = max(1, s.end - s.start)
        w = x1 - x0
        out.append((s.page_index, x0 + w * (lo - s.start) / n, y0, x0 + w * (hi - s.start) / n, y1))
    return tuple(out)


def _first_page(chunk: Chunk, start: int, end: int) -> int | None:
    for s in sorted(chunk.spans, key=lambda sp: sp.start):
        if s.end > start and s.start < end and s.page_index is not None:
            return s.page_index
    if chunk.doc.kind == "pdf" and chunk.pages:
        return chunk.pages[0]
    return None


def cite(chunk: Chunk, quote: str, threshold: float = LCS_THRESHOLD) -> Citation:
    """A citation of ``quote`` in ``chunk``: verified with the chunk's own text and rects when found."""
    m = locate(quote, chunk.text, threshold)
    if m is None:
        return Citation(chunk=chunk, quote=quote, verified=False)
    text = chunk.text[m.start : m.end]
    return Citation(
        chunk=chunk,
        quote=text,
        verified=True,
        page_index=_first_page(chunk, m.start, m.end) if chunk.doc.kind == "pdf" else None,
        rects=rects_for(chunk, m.start, m.end) if chunk.doc.kind == "pdf" else (),
        start=m.start,
        end=m.end,
    )


def verify_quote(chunk_id: str, quote: str, hits: Sequence[Hit]) -> Citation | None:
    """Check one ``{chunk_id, quote}`` against the retrieved hits; None when the chunk was not retrieved."""
    for h in hits:
        if h.chunk.chunk_id == chunk_id:
            return cite(h.chunk, quote)
    return None
