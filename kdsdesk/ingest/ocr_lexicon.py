"""OCR'd Korean syllables checked against the document's own text layer.

Tesseract's Korean model (tessdata_fast) has no 휨, 댐, 얇, 굵 … in its character set (0.23 % of the syllables of
350 KDS texts; 휨 — bending — alone 3,728 times): it reads 휨좌굴 as 횡좌굴 or 휠좌굴 (confidence 0). It also mixes
vowels and final consonants of small type (설계값 → 셜계값). A document whose lettering is partly outlines still has
most of its words in its text layer, so each OCR'd syllable is checked in its context (the syllable with up to two
neighbours on each side, at least one; the widest context found in the text layer decides):

- a syllable the model cannot write, with the same initial consonant (the part of the glyph the model did see),
  replaces the one read when that context — three syllables at least, or the whole shorter word — occurs at least
  ``MIN_SEEN`` times and more often than as read;
- any syllable differing in one jamo (initial, vowel or final consonant) replaces it, in a word of three
  syllables or more and not at its end (where a particle stands, which the sentence chooses), when the syllable
  as read never stands next to either of its neighbours in the text layer and the changed one, in the widest
  context, occurs at least ``MIN_SEEN`` times (the most frequent wins): 셜계값 → 설계값, 호멘트 → 모멘트;
- a syllable the model cannot write is sometimes dropped altogether (휨비틀림좌굴 → 비틀림좌굴, 휨모멘트 → 모멘트);
  when the row drawn has one glyph more than the Hangul read from it (``restore``), such a syllable is put back
  where its context (the inserted syllable with up to two neighbours in the word, three syllables at least) is
  the most frequent in the text layer, at least ``MIN_SEEN`` times.

The text stays marked as OCR (its confidence unchanged): a value read this way is never confirmed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

MIN_SEEN = 2
NEIGHBOUR_MIN_LEN = 3  # the one-jamo rule reads words of at least this many syllables
MIN_CONTEXT = 3  # a syllable the model lacks replaces one read in a context this long (or the whole shorter word):
# one neighbour alone is weak evidence (계획토피 → 계휨토피, for the 계휨 of 설계휨강도)
MAX_GRAM = 5
_WINDOWS = ((2, 2), (1, 2), (2, 1), (1, 1), (0, 1), (1, 0))  # syllables of context left and right
# ``correct`` also reads two syllables on one side only, so a syllable inside a long word has a context of three
# (국부좌굴휠좌굴: 휨좌굴); ``restore`` does not (비틀림좌굴 + 휨 would go where 휨좌굴 is most frequent)
_CORRECT_WINDOWS = ((2, 2), (1, 2), (2, 1), (1, 1), (0, 2), (2, 0), (0, 1), (1, 0))
_BASE, _LAST = 0xAC00, 0xD7A3
_MEDIALS, _FINALS = 21, 28


def _hangul(ch: str) -> bool:
    return _BASE <= ord(ch) <= _LAST


def _jamo(ch: str) -> tuple[int, int, int]:
    k = ord(ch) - _BASE
    return k // (_MEDIALS * _FINALS), (k // _FINALS) % _MEDIALS, k % _FINALS


def _syllable(i: int, m: int, f: int) -> str:
    return chr(_BASE + (i * _MEDIALS + m) * _FINALS + f)


def _neighbours(ch: str) -> list[str]:
    """Syllables differing from ``ch`` in one jamo only (initial, vowel or final consonant)."""
    i, m, f = _jamo(ch)
    out = [_syllable(ii, m, f) for ii in range(19) if ii != i]
    out += [_syllable(i, mm, f) for mm in range(_MEDIALS) if mm != m]
    return out + [_syllable(i, m, ff) for ff in range(_FINALS) if ff != f]


class Lexicon:
    """The text layer of one document (spaces removed) as counts of its 2- to 5-character pieces, and the syllables
    in it that the model cannot write (by initial consonant)."""

    def __init__(self, texts: Iterable[str], charset: frozenset[str]) -> None:
        text = "".join("".join(t.split()) for t in texts)
        self.grams: Counter[str] = Counter(
            text[i : i + n] for n in range(2, MAX_GRAM + 1) for i in range(len(text) - n + 1)
        )
        self.missing: dict[int, list[str]] = {}
        if charset:
            for ch in sorted({c for c in text if _hangul(c) and c not in charset}):
                self.missing.setdefault(_jamo(ch)[0], []).append(ch)

    def correct(self, word: str) -> str:
        """``word`` with syllables replaced as described above (unchanged when nothing fits)."""
        if not self.grams or len(word) < 2:
            return word
        out = list(word)
        for i, ch in enumerate(word):
            if _hangul(ch):
                out[i] = self._syllable(out, i)
        return "".join(out)

    def _syllable(self, out: list[str], i: int) -> str:
        ch = out[i]
        lacking = [m for m in self.missing.get(_jamo(ch)[0], ()) if m != ch]
        windows = []
        for left, right in _CORRECT_WINDOWS:
            lo, hi = max(0, i - left), min(len(out), i + right + 1)
            if hi - lo >= 2:
                ctx = "".join(out[lo:hi])
                windows.append((ctx, i - lo, self.grams[ctx]))
        wide = min(MIN_CONTEXT, len(out))
        for ctx, k, seen in windows:
            best, n = max(((m, self.grams[ctx[:k] + m + ctx[k + 1 :]]) for m in lacking), key=lambda x: x[1],
                          default=(ch, 0))
            if n >= MIN_SEEN and n > seen and len(ctx) >= wide:
                return best
            if seen >= MIN_SEEN:  # attested as read
                return ch
        # never next to either neighbour: a misreading — in a word of three syllables or more (a two-syllable word
        # the text layer happens not to hold is not evidence enough: 구분 → 구부), and not its last syllable (a
        # particle, which the sentence chooses, not the word: 판요소에 ↔ 판요소의 ↔ 판요소와, 세장판이 ↔ 세장판요)
        if (
            len(out) >= NEIGHBOUR_MIN_LEN and i < len(out) - 1 and windows
            and not any(seen for _, _, seen in windows)
        ):
            ctx, k, _ = windows[0]
            best, n = max(((m, self.grams[ctx[:k] + m + ctx[k + 1 :]]) for m in _neighbours(ch)), key=lambda x: x[1])
            if n >= MIN_SEEN:
                return best
        return ch

    def restore(self, words: list[str], glyphs: int) -> list[str]:
        """``words`` (one OCR'd row) with one syllable the model cannot write put back when the row has ``glyphs``
        shapes and one Hangul syllable fewer was read (all of its text Hangul); unchanged when nothing fits."""
        lacking = [m for ms in self.missing.values() for m in ms]
        if not lacking or not words or not all(_hangul(ch) for w in words for ch in w):
            return words
        if sum(len(w) for w in words) != glyphs - 1:
            return words
        best: tuple[int, int, int, str] | None = None  # count, word, position, syllable
        for wi, w in enumerate(words):
            for pos in range(len(w) + 1):
                for m in lacking:
                    new = w[:pos] + m + w[pos:]
                    seen = max(
                        (self.grams[new[max(0, pos - left) : pos + right + 1]] for left, right in _WINDOWS
                         if min(left, pos) + min(right, len(new) - pos - 1) >= 2),
                        default=0,
                    )
                    if seen >= MIN_SEEN and (best is None or seen > best[0]):
                        best = (seen, wi, pos, m)
        if best is None:
            return words
        _, wi, pos, m = best
        return [*words[:wi], words[wi][:pos] + m + words[wi][pos:], *words[wi + 1 :]]
