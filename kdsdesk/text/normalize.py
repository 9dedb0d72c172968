"""Text normalisation for comparison, with an index map back to the original text.

Owns the one rule set used to compare a quote with a chunk, a value with a quote and an answer with a gold
answer: NFKC (full/half width, ``²`` → ``2``), whitespace removed, Latin lower-cased, range signs
(``~ 〜 ∼ ～``) unified, comparison signs (``<=`` → ``≤``, ``≦`` → ``≤``), brackets (``[ ] 〔 〕 【 】`` →
``( )``), subscript markup (``f_{ck}``, ``f_ck`` and ``fck`` all become ``fck``), ``×``/``✕`` → ``x``,
Unicode minus and dashes → ``-``, middle dots unified, primes unified and thousands separators dropped
(``1,000`` → ``1000``).

``normalize(text)`` returns a :class:`Normalized` whose ``index[i]`` is the offset in ``text`` of the
character that produced normalised character ``i``; :meth:`Normalized.to_source` maps a normalised range back
to the original (used to turn a matched quote into PDF rectangles). ``tex_to_plain`` turns the small TeX-like
markup of the golden files and of model output (``{{\\frac{a}{b}}}``, ``\\sqrt{x}``) into plain text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from kdsdesk.lexicon import SYNONYMS

# Single characters mapped after NFKC ("" drops the character).
_CHAR_MAP: dict[str, str] = {
    # range signs
    "〜": "~",
    "∼": "~",
    "～": "~",
    "〰": "~",
    # comparison signs
    "≦": "≤",
    "≧": "≥",
    "⩽": "≤",
    "⩾": "≥",
    # brackets
    "[": "(",
    "]": ")",
    "〔": "(",
    "〕": ")",
    "【": "(",
    "】": ")",
    "〈": "(",
    "〉": ")",
    "「": "(",
    "」": ")",
    "『": "(",
    "』": ")",
    "《": "(",
    "》": ")",
    # subscript / superscript markup and braces
    "_": "",
    "{": "",
    "}": "",
    "〖": "",
    "〗": "",
    "^": "",
    # multiplication
    "×": "x",
    "✕": "x",
    "⨯": "x",
    "∗": "*",
    # minus and dashes
    "−": "-",
    "‐": "-",
    "‑": "-",
    "‒": "-",
    "–": "-",
    "—": "-",
    "―": "-",
    "﹣": "-",
    # middle dots
    "⋅": "·",
    "∙": "·",
    "•": "·",
    "‧": "·",
    "・": "·",
    "ㆍ": "·",
    # primes and quotes
    "′": "'",
    "‘": "'",
    "’": "'",
    "´": "'",
    "“": '"',
    "”": '"',
    "″": '"',
    # Greek variants NFKC keeps apart
    "ϕ": "φ",
    "ϑ": "θ",
    "ϵ": "ε",
}

_PAIRS: dict[str, str] = {"<=": "≤", ">=": "≥", "=<": "≤", "=>": "≥"}


@dataclass(frozen=True, slots=True)
class Normalized:
    """Normalised text and, per normalised character, its offset in the original text."""

    text: str
    index: tuple[int, ...]
    source_len: int
    index_end: tuple[int, ...] = ()  # end offset in the original (a merged "<=" ends after "=")

    def to_source(self, start: int, end: int) -> tuple[int, int]:
        """The original range ``[a, b)`` covering normalised characters ``[start, end)``."""
        if end <= start or not self.index:
            pos = self.index[start] if 0 <= start < len(self.index) else self.source_len
            return pos, pos
        start = max(0, min(start, len(self.index) - 1))
        end = max(start + 1, min(end, len(self.index)))
        last = self.index_end[end - 1] if self.index_end else self.index[end - 1] + 1
        return self.index[start], last

    def find(self, needle: str, start: int = 0) -> int:
        return self.text.find(needle, start)


@lru_cache(maxsize=4096)
def _map_char(ch: str) -> str:
    out = []
    for c in unicodedata.normalize("NFKC", ch):
        c = _CHAR_MAP.get(c, c)
        if c and c.isspace():
            continue
        if c.isascii() and c.isalpha():
            c = c.lower()
        out.append(c)
    return "".join(out)


def normalize(text: str) -> Normalized:
    """Normalise ``text`` for comparison (see the module docstring) keeping the index map."""
    chars: list[str] = []
    idx: list[int] = []
    ends: list[int] = []
    for i, ch in enumerate(text):
        mapped = _map_char(ch)
        for c in mapped:
            # "<=" and friends: merge with the previous character
            if chars and (chars[-1] + c) in _PAIRS:
                chars[-1] = _PAIRS[chars[-1] + c]
                ends[-1] = i + 1
                continue
            chars.append(c)
            idx.append(i)
            ends.append(i + 1)
    # thousands separators: a comma between a digit and exactly three digits not followed by a digit
    keep = [True] * len(chars)
    n = len(chars)
    for i, c in enumerate(chars):
        if (
            c == ","
            and i > 0
            and chars[i - 1].isdigit()
            and all(j < n and chars[j].isdigit() for j in range(i + 1, i + 4))
            and not (i + 4 < n and chars[i + 4].isdigit())
        ):
            keep[i] = False
    if not all(keep):
        chars = [c for c, k in zip(chars, keep, strict=True) if k]
        idx = [j for j, k in zip(idx, keep, strict=True) if k]
        ends = [j for j, k in zip(ends, keep, strict=True) if k]
    return Normalized("".join(chars), tuple(idx), len(text), tuple(ends))


def norm(text: str) -> str:
    """Only the normalised string (no index map)."""
    return normalize(text).text


_TEX_WORDS = {
    "cdot": "·",
    "times": "×",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "lt": "<",
    "gt": ">",
    "pm": "±",
    "prime": "'",
    "circ": "°",
}
_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ",
    "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ", "psi": "ψ", "omega": "ω", "Delta": "Δ",
    "Sigma": "Σ", "Phi": "Φ", "Omega": "Ω",
}  # fmt: skip


def _read_group(s: str, i: int) -> tuple[str, int]:
    """The argument at ``s[i]`` (a balanced ``{…}`` group or one character) and the offset after it."""
    while i < len(s) and s[i] == " ":
        i += 1
    if i >= len(s):
        return "", i
    if s[i] != "{":
        return s[i], i + 1
    depth, j = 0, i
    while j < len(s):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
            if depth == 0:
                return s[i + 1 : j], j + 1
        j += 1
    return s[i + 1 :], len(s)


def _wrap(x: str) -> str:
    return f"({x})" if any(op in x for op in " +-−/") else x


def _tex(s: str) -> str:
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        j = i + 1
        while j < n and s[j].isalpha():
            j += 1
        name = s[i + 1 : j]
        if not name:  # "\," "\;" and escaped characters
            i = j + 1
            out.append(s[j] if j < n and s[j] in "{}%" else "")
            continue
        i = j
        if name in ("frac", "dfrac", "tfrac"):
            num, i = _read_group(s, i)
            den, i = _read_group(s, i)
            out.append(f"{_wrap(_tex(num))}/{_wrap(_tex(den))}")
        elif name == "sqrt":
            while i < n and s[i] == " ":
                i += 1
            if i < n and s[i] == "[":
                k = s.find("]", i)
                i = k + 1 if k > 0 else n
            arg, i = _read_group(s, i)
            out.append("√" + _wrap(_tex(arg)))
        elif name in _GREEK:
            out.append(_GREEK[name])
        else:
            out.append(_TEX_WORDS.get(name, ""))
    return "".join(out)


def _strip_math_delims(text: str) -> str:
    """Remove ``{{`` … ``}}`` inline-math delimiters, keeping balanced braces inside."""
    out: list[str] = []
    i, n = 0, len(text)
    depth = -1  # -1: outside math; >= 0: brace depth inside math
    while i < n:
        if depth < 0 and text.startswith("{{", i):
            depth = 0
            i += 2
            continue
        ch = text[i]
        if depth >= 0:
            if ch == "{":
                depth += 1
            elif ch == "}":
                if depth == 0 and text.startswith("}}", i):
                    depth = -1
                    i += 2
                    continue
                depth = max(0, depth - 1)
        out.append(ch)
        i += 1
    return "".join(out)


def tex_to_plain(text: str) -> str:
    """Plain text from TeX-like markup (golden files, model output): ``{{\\frac{d}{2}}}`` → ``d/2``."""
    return _tex(_strip_math_delims(text))


def contains(haystack: str, needle: str) -> bool:
    """``needle`` occurs in ``haystack`` after normalising both (an empty needle never does)."""
    n = norm(needle)
    return bool(n) and n in norm(haystack)


# -- synonyms for matching a question's terms to evidence ----------------------------------------------------------
# Questions and documents name the same quantity in different words (외경 = 바깥지름, 직경 = 지름, 최솟값 = 하한 =
# 최소). For term matching (bigram similarity, not quotes or values), both sides are rewritten to one canonical form.
# Longest forms first, so "최솟값" is not read as "최소" + "값" differently on the two sides.
_SYNONYMS = SYNONYMS
_SYNONYM_RE = re.compile("|".join(re.escape(a) for a, _ in sorted(_SYNONYMS, key=lambda p: -len(p[0]))))
_SYNONYM_OF = dict(_SYNONYMS)


def canonical_terms(text: str) -> str:
    """``text`` with synonyms of quantity and bound words replaced by one canonical form (for term matching only)."""
    return _SYNONYM_RE.sub(lambda m: _SYNONYM_OF[m.group(0)], text)
