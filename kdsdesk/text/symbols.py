"""Symbol tokens: engineering symbols as typed on a keyboard or printed in a standard, reduced to one search term.

``f_ck``, ``f_{ck}`` and ``fck`` → ``fck``; ``A_{v,min}`` and ``A_v,min`` → ``avmin``; Greek letters are kept and
also spelled out (``φs`` → ``φs`` and ``phis``); a Greek letter written before a capital Latin letter is a product
(``φV_n`` → ``φvn``, ``phivn``, ``φ``, ``phi``, ``vn``). Plain English words of five letters or more are not symbols
(Kiwi tags them as foreign words and they are lower-cased like any other token).

This module is pure Python (no Kiwi): ``find_symbols`` gives the character spans that ``kdsdesk.text.korean`` hands
to Kiwi as pre-tokenised, so a symbol is never split into ``f`` / ``_`` / ``ck``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

GREEK_NAMES: dict[str, str] = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu",
    "ξ": "xi", "ο": "omicron", "π": "pi", "ρ": "rho", "ϱ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau",
    "υ": "upsilon", "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
}  # fmt: skip

_LET = r"A-Za-z\u0370-\u03ff"
_GREEK = re.compile(r"[\u0370-\u03ff]")
_HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
# base: a letter then letters/digits/primes; optional subscript: _{...} or _x[,y…]
SYMBOL_RE = re.compile(
    rf"(?<![{_LET}0-9_])[{_LET}][{_LET}0-9']*"
    rf"(?:\s?_\s?(?:\{{[^{{}}\n]{{1,24}}\}}|[{_LET}0-9]+(?:,[{_LET}0-9]+)*))?"
)
# table and equation numbers "4.2-1", "A.3-2" and serial clause numbers are one token each
NUMBER_RE = re.compile(
    r"(?<![0-9A-Za-z.])(?:[A-Z]\.)?\d+(?:\.\d+)*-\d+(?![0-9A-Za-z.\-])"
    r"|(?<![0-9A-Za-z.])\d{1,3}(?:,\d{3})+(?![\d,])"
)
_STRIP = re.compile(r"[_{}\s,'`]")
MIN_WORD_LEN = 5  # a run of this many plain Latin letters is an English word, not a symbol


@dataclass(frozen=True, slots=True)
class SymbolSpan:
    """Characters ``[start, end)`` of a (normalised) text are one symbol or number; ``tokens`` are its terms."""

    start: int
    end: int
    tokens: tuple[str, ...]


def normalize(text: str) -> str:
    """NFKC (full-width Latin, ², ㎜, ϕ/φ variants unified) — applied to documents and queries alike."""
    return unicodedata.normalize("NFKC", text)


def spell_greek(s: str) -> str:
    return "".join(GREEK_NAMES.get(ch, ch) for ch in s)


def has_hangul(text: str) -> bool:
    return _HANGUL.search(text) is not None


def _variants(core: str) -> list[str]:
    """The symbol term and, when it contains Greek, its spelled-out twin."""
    out = [core]
    if _GREEK.search(core):
        spelled = spell_greek(core)
        if spelled != core:
            out.append(spelled)
    return out


def symbol_tokens(raw: str) -> list[str]:
    """Search terms of one symbol as written (``A_{v,min}`` → ``["avmin"]``); [] for a plain English word."""
    core = _STRIP.sub("", raw).lower()
    if not core:
        return []
    if core.isascii() and core.isalpha() and len(core) >= MIN_WORD_LEN and "_" not in raw:
        return [core]  # an English word: one plain term, like Kiwi's foreign-word token
    tokens = _variants(core)
    # a Greek letter directly before a capital Latin letter is a product: φV_n = φ · V_n
    m = re.match(r"^([\u0370-\u03ff]+)([A-Z].*)$", _STRIP.sub("", raw))
    if m:
        for part in (m.group(1).lower(), m.group(2).lower()):
            for t in _variants(part):
                if t not in tokens:
                    tokens.append(t)
    return tokens


def is_english_word(raw: str) -> bool:
    return raw.isascii() and raw.isalpha() and len(raw) >= MIN_WORD_LEN


def find_symbols(text: str) -> list[SymbolSpan]:
    """Non-overlapping symbol and number spans of ``text`` (already ``normalize``d), in order."""
    spans: list[SymbolSpan] = []
    for m in NUMBER_RE.finditer(text):
        spans.append(SymbolSpan(m.start(), m.end(), (m.group().replace(",", ""),)))
    taken = [(s.start, s.end) for s in spans]
    for m in SYMBOL_RE.finditer(text):
        raw = m.group()
        if is_english_word(raw):
            continue
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        toks = symbol_tokens(raw)
        if toks:
            spans.append(SymbolSpan(m.start(), m.end(), tuple(toks)))
    spans.sort(key=lambda s: s.start)
    return spans


def is_symbol_query(query: str) -> bool:
    """A query without Hangul (``fck``, ``A_v,min``, ``13 < t ≤ 19``): routes keep the BM25 order."""
    return bool(query.strip()) and not has_hangul(query)
