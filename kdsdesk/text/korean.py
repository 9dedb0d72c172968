"""The one tokenizer of documents and queries: Kiwi content morphemes plus symbol tokens.

``tokenize(text)`` → search terms: nouns, verb/adjective stems, roots, foreign words (lower-cased), numbers whole
(``12.7``, ``1000`` from ``1,000``), clause numbers (``4.1.2``) and table numbers (``4.2-1``) as one token, symbols
from ``kdsdesk.text.symbols`` (``f_{ck}`` → ``fck``; ``φs`` → ``φs``, ``phis``). Particles, endings, auxiliary
verbs, adverbs and punctuation are dropped. ``tokenize_many`` is the batched form used by the indexer (Kiwi's own
thread pool, ``num_workers``).

One ``Kiwi`` instance per process (≈1 s and ≈300–500 MB to load), created lazily on first use and shared.
``TOKENIZER_VERSION`` changes whenever the terms produced for the same text may change: the library re-indexes.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kdsdesk.text.symbols import SymbolSpan, find_symbols, normalize

TOKENIZER_VERSION = "2"

# Kiwi tags kept as content morphemes (irregular-verb suffixes such as "VA-I" are cut at "-")
KEEP_TAGS = frozenset(
    {"NNG", "NNP", "NNB", "NR", "VV", "VA", "XR", "XSN", "SL", "SN", "SH", "W_SERIAL", "W_URL", "W_EMAIL"}
)
# dependent nouns that carry no meaning of their own
STOP_FORMS = frozenset({"것", "수", "등", "때문", "바", "데", "중"})

_lock = threading.Lock()
_kiwi: Any = None


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 2))


def get_kiwi() -> Any:
    """The process-wide ``kiwipiepy.Kiwi`` (created on first call; thread-safe)."""
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                from kiwipiepy import Kiwi

                _kiwi = Kiwi(num_workers=default_workers())
    return _kiwi


def warm_up() -> None:
    """Load Kiwi and run it once. Kiwi's constructor holds the GIL (≈1–3 s here, far longer on a busy machine):
    call this before a GUI event loop starts, or accept that the first search/indexing freezes other threads."""
    get_kiwi().tokenize("형태소 분석 준비")


def _keep(form: str, tag: str) -> str | None:
    base = tag.split("-", 1)[0]
    if base not in KEEP_TAGS:
        return None
    if form in STOP_FORMS:
        return None
    if base == "SN":
        return form.replace(",", "")
    return form.lower()


@dataclass(frozen=True, slots=True)
class Analysis:
    """Search terms of a text and the Hangul character bigrams of its content words (compounds joined).

    ``text`` is the normalised text; ``term_starts``/``gram_starts`` are offsets into it (a bigram's offset is its
    word's), so the terms of any part of the text can be cut out with ``slice`` instead of tokenising it again.
    """

    terms: list[str]
    grams: list[str]
    text: str = ""
    term_starts: list[int] = field(default_factory=list)
    gram_starts: list[int] = field(default_factory=list)

    def slice(self, start: int, end: int) -> Analysis:
        """Terms and bigrams that start inside ``[start, end)`` of ``text``."""
        t = [(x, p) for x, p in zip(self.terms, self.term_starts, strict=True) if start <= p < end]
        g = [(x, p) for x, p in zip(self.grams, self.gram_starts, strict=True) if start <= p < end]
        return Analysis([x for x, _ in t], [x for x, _ in g], self.text, [p for _, p in t], [p for _, p in g])


def _bigrams(word: str, start: int, out: list[str], starts: list[int]) -> None:
    grams = [word] if len(word) == 1 else [word[i : i + 2] for i in range(len(word) - 1)]
    out.extend(grams)
    starts.extend([start] * len(grams))


def _analysis(text: str, tokens: Sequence[Any], spans: Sequence[SymbolSpan]) -> Analysis:
    """Join Kiwi tokens and symbol spans in text order; glue adjacent Hangul content morphemes for bigrams."""
    out: list[str] = []
    starts: list[int] = []
    grams: list[str] = []
    gram_starts: list[int] = []
    word = ""
    word_start = word_end = -1
    by_start = {s.start: s for s in spans}
    n = len(tokens)
    for i, tok in enumerate(tokens):
        span = by_start.get(tok.start)
        if span is not None and tok.start + tok.len == span.end:
            out.extend(span.tokens)
            starts.extend([span.start] * len(span.tokens))
            continue
        tag = str(tok.tag)
        form = tok.form
        if tag == "MM" and i + 1 < n and tokens[i + 1].start == tok.start + tok.len and _is_hangul(form):
            kept: str | None = form  # a determiner glued to the next morpheme is a mis-split word (전/MM 단/NNG)
        else:
            kept = _keep(form, tag)
        if not kept:
            continue
        out.append(kept)
        starts.append(tok.start)
        if _is_hangul(kept):
            if tok.start == word_end:
                word += kept
            else:
                if word:
                    _bigrams(word, word_start, grams, gram_starts)
                word, word_start = kept, tok.start
            word_end = tok.start + tok.len
    if word:
        _bigrams(word, word_start, grams, gram_starts)
    return Analysis(out, grams, text, starts, gram_starts)


def _is_hangul(s: str) -> bool:
    return all("\uac00" <= ch <= "\ud7a3" for ch in s)


def _pretokenized(text: str) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, "SL") for s in find_symbols(text)]


def analyze(text: str) -> Analysis:
    """Terms and bigrams of one text (a document chunk or a query)."""
    norm = normalize(text)
    if not norm.strip():
        return Analysis([], [], norm)
    spans = find_symbols(norm)
    tokens = get_kiwi().tokenize(norm, pretokenized=[(s.start, s.end, "SL") for s in spans])
    return _analysis(norm, tokens, spans)


def tokenize(text: str) -> list[str]:
    """Search terms of one text (a document chunk or a query), in order, duplicates kept."""
    return analyze(text).terms


def analyze_many(texts: Iterable[str]) -> list[Analysis]:
    """``analyze`` over many texts with Kiwi's worker threads (same result as calling ``analyze`` on each)."""
    norms = [normalize(t) for t in texts]
    if not norms:
        return []
    spans_of = [find_symbols(t) for t in norms]
    results = get_kiwi().tokenize(norms, pretokenized=_pretokenized)
    return [
        _analysis(norm, tokens, spans) if norm.strip() else Analysis([], [], norm)
        for norm, spans, tokens in zip(norms, spans_of, results, strict=True)
    ]


def tokenize_many(texts: Iterable[str]) -> list[list[str]]:
    """``tokenize`` over many texts with Kiwi's worker threads."""
    return [a.terms for a in analyze_many(texts)]
