"""KDS clause structure shared by the HWPX and PDF parsers: heading lines, numbering order, paragraph
markers and the document's code/title/edition year.

- ``parse_heading`` recognises one heading line (``4.2.3 전단철근``, ``1. 일반사항``, ``A.2.2 …``) and refuses
  numbers, values, equation fragments, item markers, table-of-contents lines and sentences.
- ``ClauseTracker`` accepts headings only in a plausible numbering order and keeps the current clause path.
- ``split_item`` returns the paragraph marker a text starts with (``(2)``, ``①``, ``가.``, ``1)``).
- ``detect_doc_meta`` finds ``KDS 14 20 22``, the title and the edition year in the first lines (file name as
  fallback).

Pure functions on strings; no parser engine is imported here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from pathlib import PurePath

from kdsdesk import lexicon as lx

MAX_HEADING_CHARS = 100
MAX_TITLE_CHARS = 80
MAX_LEVELS = 8
MAX_FIRST_LEVEL = 30
ORDER_GAP = 2  # a heading may skip this many numbers (tolerates one or two headings the parser missed)

_WS = re.compile(r"\s+")
_NUMBER = r"(?:[A-Z](?:\.(?:[1-9]\d?))+|[1-9]\d?(?:\.(?:[1-9]\d?)){0,7})"
_HEADING = re.compile(rf"^(?P<num>{_NUMBER})\.?\s+(?P<title>\S.*)$")
_APPENDIX = re.compile(r"^부록\s*(?P<num>[A-Z])\.?\s+(?P<title>\S.*)$")
_HANGUL = re.compile(r"[가-힣]")
_FORBIDDEN = re.compile(r"[=≤≥<>±×÷+*|→←↔{}\[\]^_\\∑∫√≠≒≈…]|\.{2,}|·{2,}")
_SENTENCE_END = re.compile(r"(?:[.。,;:]|다|니다|한다|있다|이다|된다|않는다|따른다|한다\)|이상|이하|미만|초과)$")
_LEADING_VALUE = re.compile(r"^[\d.,]+(?:\s|$|[a-zA-Z%°㎜㎝㎡㎏μ/])")
_TRAILING_PAGE = re.compile(r"(?:\s|[.·…]{2,})\d{1,3}$")
_LEADING_WORD_BAN = re.compile(
    r"^(?:mm|cm|m|km|kN|N|MPa|GPa|kPa|Pa|kg|t|배|개|이상|이하|미만|초과|이내|및|또는|에서|까지|에|의|을|를|이|가|은|는"
    r"|과|와|로|으로|부터|%|°|~|-|–|—|\)|,)(?=\s|$|[.,)])"
)


_CODE = re.compile(r"\b(KDS|KCS|예시)\s*(\d{2})\s*(\d{2})\s*(\d{2})(?:\s*[:：]\s*((?:19|20)\d{2}))?")
_CODE_IN_NAME = re.compile(r"(?i)(kds|kcs)[\s_\-]*(\d{2})[\s_\-]*(\d{2})[\s_\-]*(\d{2})")
_YEAR_IN_NAME = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_DATE_LINE = re.compile(r"(?:19|20)\d{2}\s*년|https?://|www\.|\.kr\b")
META_LINES = 60


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFC", text).replace("\u3000", " ").replace("\xa0", " ")
    return _WS.sub(" ", text).strip()


def _title_ok(title: str) -> bool:
    if not title or len(title) > MAX_TITLE_CHARS or not _HANGUL.search(title):
        return False
    if _FORBIDDEN.search(title) or _SENTENCE_END.search(title) or _TRAILING_PAGE.search(title):
        return False
    if _LEADING_VALUE.match(title) or _LEADING_WORD_BAN.match(title):
        return False
    if title[0] in "([{<「『" and not re.match(r"^\([^)]*\)\S", title):  # "(1) …" after a number is an item
        return False
    digits = sum(ch.isdigit() for ch in title)
    if digits > max(3, len(title) // 4):
        return False
    if len(title.split()) > 15:
        return False
    return ". " not in title  # two sentences


def parse_heading(text: str) -> tuple[str, str] | None:
    """``(number, title)`` if ``text`` is a KDS clause heading line, else ``None``.

    ``"4.2.3 전단철근"`` → ``("4.2.3", "전단철근")``; ``"1. 일반사항"`` → ``("1", "일반사항")``;
    ``"부록 A 강재"`` → ``("A", "강재")``. Values (``0.75``, ``12.7 kN/m``), equations, item markers (``(1)``,
    ``①``, ``가.``), table-of-contents lines (``1.1 목적 ····· 3``) and sentences (``…한다.``) give ``None``.
    """
    line = _norm(text)
    if not line or len(line) > MAX_HEADING_CHARS:
        return None
    m = _HEADING.match(line) or _APPENDIX.match(line)
    if m is None:
        return None
    number, title = m.group("num"), m.group("title").strip()
    if len(number.split(".")) > MAX_LEVELS:
        return None
    first = number.split(".")[0]
    if first.isdigit() and int(first) > MAX_FIRST_LEVEL:
        return None
    if not _title_ok(title):
        return None
    return number, title


def heading_level(number: str) -> int:
    return len(number.split("."))


def _key(number: str) -> tuple[int, ...]:
    """Comparable components; an appendix letter sorts after every body number (A → 1001)."""
    out = []
    for i, part in enumerate(number.split(".")):
        if i == 0 and part.isalpha():
            out.append(1000 + ord(part) - ord("A") + 1)
        else:
            out.append(int(part))
    return tuple(out)


def _opens_with_ones(rest: Sequence[int]) -> bool:
    """Components below a newly opened level: the first may skip a little, deeper ones must be 1."""
    if not rest:
        return True
    return 1 <= rest[0] <= 1 + ORDER_GAP and all(x == 1 for x in rest[1:])


class ClauseTracker:
    """Follows the clause numbering of one document in reading order.

    ``offer(text)`` parses a candidate line and accepts it only if its number plausibly follows the current
    one: the first child of the current clause, the next sibling, or the next number of an ancestor (deeper
    levels of a newly opened clause start at 1; first-level numbers only increase; appendix letters come after
    numbers). A small gap (``ORDER_GAP``) tolerates a missed heading. The first heading may be anything (a
    document part may start at ``4.2.5``); when the very first accepted heading shows up again (a table of
    contents followed by the body), the tracker restarts there.
    """

    def __init__(self) -> None:
        self._path: list[tuple[str, str]] = []  # (number, "number title") from the top level down
        self._first: tuple[str, str] | None = None

    @property
    def clause(self) -> str:
        return self._path[-1][0] if self._path else ""

    @property
    def clause_path(self) -> tuple[str, ...]:
        return tuple(label for _, label in self._path)

    @property
    def level(self) -> int:
        return heading_level(self.clause) if self._path else 0

    def plausible(self, number: str) -> bool:
        """Whether a heading numbered ``number`` may follow the current clause."""
        new = _key(number)
        if not self._path:
            return True
        cur = _key(self.clause)
        if new[: len(cur)] == cur and len(new) > len(cur):  # child (or grandchild) of the current clause
            return _opens_with_ones(new[len(cur) :])
        for i in range(min(len(cur), len(new))):
            if new[:i] != cur[:i]:
                break
            if new[i] == cur[i]:
                continue
            if i == 0 and new[0] > 1000 >= cur[0]:  # first appendix after the body
                return new[0] == 1001 and all(x == 1 for x in new[2:])
            if cur[i] < new[i] <= cur[i] + 1 + ORDER_GAP:
                return all(x == 1 for x in new[i + 1 :])
            return False
        return False

    def acceptable(self, number: str, title: str) -> bool:
        """Whether ``accept(number, title)`` would take it: a plausible successor, or the first heading again (a
        table of contents over, or an appendix that numbers its clauses from 1 again)."""
        restart = self._first is not None and (number, title) == self._first and bool(self._path)
        return restart or self.plausible(number)

    def accept(self, number: str, title: str) -> bool:
        """Take ``number title`` as the current clause if its order is plausible; return whether it was."""
        if self._first is not None and (number, title) == self._first and self._path:
            self._path = []  # the table of contents is over: the body starts again at the first heading
        if not self.plausible(number):
            return False
        new = _key(number)
        while self._path and not (new[: len(k := _key(self._path[-1][0]))] == k and len(new) > len(k)):
            self._path.pop()
        self._path.append((number, f"{number} {title}"))
        if self._first is None:
            self._first = (number, title)
        return True

    def offer(self, text: str) -> tuple[str, str] | None:
        """Parse ``text`` as a heading and accept it; the ``(number, title)`` taken, else ``None``."""
        parsed = parse_heading(text)
        if parsed is None or not self.accept(*parsed):
            return None
        return parsed


def split_item(text: str) -> str:
    """The paragraph marker `text` starts with: `(2)`, `①`, `가.`, `1)`, `(가)`, `a)`; or ""."""
    m = lx.NUMBERED_ITEM_MARK.match(text)
    return m.group("m") if m else ""


def _title_candidate(line: str) -> bool:
    return (
        bool(_HANGUL.search(line))
        and 2 <= len(line) <= MAX_TITLE_CHARS
        and not _DATE_LINE.search(line)
        and not _CODE.search(line)
        and parse_heading(line) is None
        and not split_item(line)
        and not _SENTENCE_END.search(line.rstrip(" ."))
    )


def detect_doc_meta(lines: Sequence[str], filename: str) -> tuple[str, str, str]:
    """``(doc_code, title, year)`` from the first lines of a document, the file name as fallback.

    The code line is ``KDS 14 20 22 : 2022`` (or ``KDS 14 20 22:2022``, or the code alone); the title is the
    rest of that line or the next title-like line. Without a code in the content, ``KDS143110.pdf`` or
    ``dev-kds-14-20-22.hwpx`` give ``KDS 14 31 10`` / ``KDS 14 20 22``. Missing parts are ``""``.
    """
    head = [_norm(x) for x in lines[:META_LINES]]
    head = [x for x in head if x]
    code = title = year = ""
    code_at = -1
    best: re.Match[str] | None = None
    for i, line in enumerate(head):
        for m in _CODE.finditer(line):
            if m.group(5):  # with an edition year: the document's own code line
                best, code_at = m, i
                break
            if best is None and len(line) <= len(m.group(0)) + 40 and i < 10:
                best, code_at = m, i
        if best is not None and best.group(5):
            break
    if best is not None:
        code = f"{best.group(1)} {best.group(2)} {best.group(3)} {best.group(4)}"
        year = best.group(5) or ""
        rest = _norm(head[code_at][best.end() :])
        rest = re.split(r"\s[.·:]\s|\s[.·]$|(?:19|20)\d{2}\s*년", rest)[0].strip(" .:-")
        if _title_candidate(rest):
            title = rest
        else:
            for line in head[code_at + 1 : code_at + 6]:
                cand = line.strip(" .")
                if _title_candidate(cand):
                    title = cand
                    break
    stem = PurePath(filename).name
    if not code:
        m2 = _CODE_IN_NAME.search(stem)
        if m2:
            code = f"{m2.group(1).upper()} {m2.group(2)} {m2.group(3)} {m2.group(4)}"
            tail = stem[m2.end() :]
            ym = _YEAR_IN_NAME.search(tail)
            if ym and not year:
                year = ym.group(1)
    if not title and not best:
        for line in head[:5]:
            if _title_candidate(line) and line.endswith(("기준", "시방서", "지침", "설계기준")):
                title = line
                break
    return code, title, year
