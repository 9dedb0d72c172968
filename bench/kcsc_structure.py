"""The clause structure of a flattened KCSC text (``../shared/corpus/kcsc/json/*.json``), rebuilt from the
standard's own 목차 — for turning the 350 real KDS texts into documents the app can read (``bench/kcsc_build.py``).

The JSON text is whitespace-flattened: cover and front matter, a 목차 ("1. 일반사항 1 1.1 목적 1 …" — number,
title, page), then the body where headings run inline ("4.2.3 제목 (1) …"), in some standards without their numbers
("일반사항 목적 이 기준은 …"). This module

1. reads the 목차 (``parse_toc``): numbered entries, 부록/별표 entries, a 목차 split over several pages;
2. places every listed heading in the body (``split_body``): first ``number title`` written together, aligned in the
   목차's order (a longest increasing chain, so a stray mention cannot pull the cursor ahead), then, between those
   anchors, the number alone or the title alone at a sentence boundary (bodies whose headings carry no numbers);
3. finds the deeper headings the 목차 does not list ("4.1.2.3 …") between the anchors, as valid successors of the
   current number whose title the app's own ``parse_heading`` accepts, never across an anchor;
4. cuts the rest into paragraphs at "(1)", "①", "가.", "∙" items.

``Structure.listed``/``found`` count the 목차's headings and how many were placed; ``beyond`` those listed after the
end of a ``_part1`` text (the JSON holds only the first part of a long standard).
"""

from __future__ import annotations

import bisect
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

_NUM = r"(?:\d{1,2}(?:\.\d{1,2}){0,5}|[A-Z](?:\.{1,2}\d{1,2}){0,4})"
_TOC_HEAD = re.compile(r"(?<![가-힣])목\s?차(?![가-힣])")
_TOC_ENTRY = re.compile(
    rf"\s*(?P<num>{_NUM})\.?\s*(?P<title>[^\d\s.](?:(?!\s\(\d|\s\d{{1,2}}\.\d|\s[①-⑳]).){{0,78}}?)"
    r"\s+(?P<page>\d{1,3})(?=\s|$)"
)
_TOC_OTHER = re.compile(
    r"\s*(?P<title>(?:부\s?록|별\s?표|해\s?설)(?:\s*[A-Z]\b)?[^\d]{0,70}?)\s+(?P<page>\d{1,3})(?=\s|$)"
)
_ITEM = re.compile(r"\s(?=(?:\(\d{1,2}\)|[①-⑳]|[가-하]\.)\s|∙)")
_SENTENCE_END = re.compile(r"(?:[.)」\]:]|다|음|함|임|것|요|[a-zA-Z0-9])$")
_BODY_START = re.compile(r"(?<![\d.])1\.?\s*(?:일반\s?사항|총\s?설|총\s?칙|개\s?요|일반)\s")
_BACK = re.compile(r"\s집필위원\s")
MAX_TITLE = 40
NUMBERED_TITLE_ONLY_GAP = 2000  # in a numbered body, a title written alone is looked for this near the one before


@dataclass(frozen=True)
class TocEntry:
    num: str  # "4.2.1", "A.1", or "" for 부록/별표 entries
    title: str
    page: int

    @property
    def label(self) -> str:
        return f"{self.num} {self.title}".strip() if self.num else self.title


@dataclass(frozen=True)
class Block:
    kind: str  # "h" heading, "p" paragraph
    text: str  # heading: title; paragraph: its text
    num: str = ""  # heading number ("" for 부록/별표 headings)
    from_toc: bool = False

    @property
    def heading_line(self) -> str:
        if not self.num:
            return self.text
        return f"{self.num}{'.' if '.' not in self.num else ''} {self.text}".strip()


@dataclass
class Structure:
    blocks: list[Block]
    toc: list[TocEntry]
    found: list[TocEntry] = field(default_factory=list)
    missing: list[TocEntry] = field(default_factory=list)
    beyond: list[TocEntry] = field(default_factory=list)
    deeper: int = 0  # headings found below the 목차's depth
    unnumbered: bool = False  # the body writes its headings without numbers

    @property
    def listed(self) -> int:
        return len(self.toc)


@dataclass(frozen=True)
class Standard:
    path: Path
    code: str
    year: str
    title: str
    text: str

    @property
    def stem(self) -> str:
        return self.path.stem

    @property
    def part_only(self) -> bool:
        return "_part" in self.path.stem


def load(path: Path) -> Standard:
    d = json.loads(path.read_text(encoding="utf-8"))
    content = d["content"]
    text = content["full"] if isinstance(content, dict) else content
    text = unicodedata.normalize("NFC", text)
    code = d.get("standard_code") or d.get("id") or ""
    m = re.search(re.escape(code) + r"\s*:\s*(\d{4})", text) if code else None
    year = m.group(1) if m else ""
    title = re.sub(r"_수정$", "", d.get("title") or "").strip()
    if not title or title in {"건설기준 연혁", "1"} or title.isdigit():
        mt = re.search(re.escape(code) + r"\s*:\s*\d{4}\s+(.+?)\s+(?:\.\s|\d{4}년|http)", text) if code else None
        title = mt.group(1).strip() if mt else code
    return Standard(path, code, year, title, text)


# -- 목차 ---------------------------------------------------------------------------------------------------------
def parse_toc(text: str) -> tuple[list[TocEntry], int]:
    """The 목차's entries and the offset where the body starts (0 and ``[]`` when there is no 목차)."""
    for m in _TOC_HEAD.finditer(text):
        entries, end = _toc_at(text, m.end())
        if len(entries) >= 2:
            return entries, end
    return [], 0


def _toc_at(text: str, pos: int) -> tuple[list[TocEntry], int]:
    out: list[TocEntry] = []
    last_page = 0
    while True:
        again = re.match(r"\s*목\s?차(?![가-힣])", text[pos:])
        if again:
            pos += again.end()
            continue
        e = _TOC_ENTRY.match(text, pos)
        if e is not None:
            page = int(e.group("page"))
            title = e.group("title").strip()
            first_chapter = e.group("num") == "1"  # a 목차 of a standard printed in a book starts at its page there
            if _toc_page_ok(page, last_page, bool(out), first_chapter) and _toc_title_ok(title):
                out.append(TocEntry(e.group("num").replace("..", "."), title, page))
                last_page, pos = page, e.end()
                continue
        o = _TOC_OTHER.match(text, pos)
        if o is not None:
            page = int(o.group("page"))
            if _toc_page_ok(page, last_page, bool(out)):
                out.append(TocEntry("", re.sub(r"\s+", " ", o.group("title")).strip(), page))
                last_page, pos = page, o.end()
                continue
        break
    return (out, pos) if out else ([], 0)


def _toc_page_ok(page: int, last: int, have: bool, first_chapter: bool = False) -> bool:
    return (not have and (page <= 10 or first_chapter)) or (have and last <= page <= last + 60)


def _toc_title_ok(title: str) -> bool:
    if len(title) > 70 or re.search(r"\(\d{1,2}\)|[①-⑳]|다\.$|\s\d{1,2}\.\d", title):
        return False
    return bool(re.search(r"[가-힣A-Za-z]", title))


# -- body -----------------------------------------------------------------------------------------------------
_DOTS = "·⦁･ㆍ∙•‧・⋅"


def _ws_pattern(s: str) -> str:
    """``s`` as a regex that ignores whitespace between its characters (and which middle dot is used)."""
    return r"\s*".join(f"[{_DOTS}]" if ch in _DOTS else re.escape(ch) for ch in s if not ch.isspace())


def _key(num: str) -> tuple[int, ...]:
    out = []
    for i, part in enumerate(num.split(".")):
        out.append(1000 + ord(part) - 64 if i == 0 and part.isalpha() else int(part) if part.isdigit() else 0)
    return tuple(out)


ORDER_GAP = 2  # as the app's ClauseTracker: a number may skip two (a heading the text itself lost or misnumbered)


def _follows(new: tuple[int, ...], cur: tuple[int, ...]) -> bool:
    """``new`` may follow ``cur``: its child, next sibling or an ancestor's next (deeper levels opening at 1), with
    a gap of at most ``ORDER_GAP``."""
    if not cur:
        return new == (1,)
    if len(new) > len(cur) and new[: len(cur)] == cur:
        rest = new[len(cur):]
        return 1 <= rest[0] <= 1 + ORDER_GAP and all(x == 1 for x in rest[1:])
    for i in range(min(len(cur), len(new))):
        if new[i] == cur[i]:
            continue
        return cur[i] < new[i] <= cur[i] + 1 + ORDER_GAP and all(x == 1 for x in new[i + 1:])
    return False


def _boundary_before(text: str, start: int, floor: int) -> bool:
    """The text before ``start`` ends a sentence, an item or a heading (or ``start`` is where the search began)."""
    before = text[floor:start].rstrip()
    return not before or bool(_SENTENCE_END.search(before))


def _numbered_candidates(text: str, e: TocEntry, lo: int, hi: int) -> list[tuple[int, int]]:
    """Places of "number title" (whitespace-insensitive, then a space or the end) in ``text[lo:hi]``."""
    pat = _ws_pattern(e.title) if not e.num else rf"(?<![\d.]){re.escape(e.num)}\.?\s*{_ws_pattern(e.title)}"
    rx = re.compile(pat + r"(?=\s|$|\()")
    return [(m.start(), m.end()) for m in rx.finditer(text, lo, hi)]


def _align(cands: list[list[tuple[int, int]]]) -> list[tuple[int, int] | None]:
    """One place per entry (or none) with places strictly increasing in entry order, as many as possible; ties go
    to the earliest places."""
    n = len(cands)
    # best[i][j]: length of the longest chain ending with entry i at its candidate j
    best: list[list[int]] = []
    back: list[list[tuple[int, int] | None]] = []
    for i in range(n):
        row, brow = [], []
        for s, _e in cands[i]:
            b, arg = 1, None
            for pi in range(i):
                for pj, (_ps, pe) in enumerate(cands[pi]):
                    if pe <= s and best[pi][pj] + 1 > b:
                        b, arg = best[pi][pj] + 1, (pi, pj)
            row.append(b)
            brow.append(arg)
        best.append(row)
        back.append(brow)
    top, at = 0, None
    for i in range(n):
        for j, b in enumerate(best[i]):
            if b > top:
                top, at = b, (i, j)
    out: list[tuple[int, int] | None] = [None] * n
    while at is not None:
        i, j = at
        out[i] = cands[i][j]
        at = back[i][j]
    return out


def _title_only(text: str, e: TocEntry, lo: int, hi: int) -> tuple[int, int] | None:
    """The title alone in ``text[lo:hi]`` (headings written without their numbers): best where an item "(1)"
    follows it, then at a sentence boundary, then the first place it stands as words of its own."""
    if len(re.sub(r"\s", "", e.title)) < 2:
        return None
    rx = re.compile(rf"(?<!\S){_ws_pattern(e.title)}(?=\s|$)")
    found = list(rx.finditer(text, lo, hi))
    for m in found:
        if re.match(r"\s*(?:\(1\)|①|1\))\s", text[m.end():m.end() + 8]):
            return m.start(), m.end()
    for m in found:
        if _boundary_before(text, m.start(), lo):
            return m.start(), m.end()
    return (found[0].start(), found[0].end()) if found else None


def _title_candidates(text: str, e: TocEntry, lo: int, hi: int, after_title: re.Pattern[str]) -> list[tuple[int, int]]:
    """Places of the title alone where a heading can start: after a sentence end or right after another listed
    title (bodies that write their headings without numbers: "일반사항 목적 이 기준은 …")."""
    if len(re.sub(r"\s", "", e.title)) < 2:
        return []
    rx = re.compile(rf"(?<!\S){_ws_pattern(e.title)}(?=\s|$)")
    out = []
    for m in rx.finditer(text, lo, hi):
        before = text[max(lo, m.start() - 80):m.start()].rstrip()
        if m.start() - lo < 3 or _SENTENCE_END.search(before) or after_title.search(before):
            out.append((m.start(), m.end()))
    return out


def _number_only(text: str, e: TocEntry, lo: int, hi: int) -> tuple[int, int] | None:
    """The number written with another title than the 목차's, between two placed headings: first at a sentence
    boundary, else the first whose title the app's heading rules accept."""
    from kdsdesk.ingest.clauses import parse_heading

    if not e.num:
        return None
    rx = re.compile(rf"(?<![\d.\w]){re.escape(e.num)}\.?\s+(?=[가-힣A-Za-z]|\d[가-힣])")
    ok = []
    for m in rx.finditer(text, lo, hi):
        title = clean_title(_title_from(text, m.end(), hi)[0])
        if title and parse_heading(f"{e.num}. {title}" if "." not in e.num else f"{e.num} {title}"):
            ok.append(m)
    for m in ok:
        if _boundary_before(text, m.start(), lo):
            return m.start(), m.end()
    return (ok[0].start(), ok[0].end()) if ok else None


def _body_span(text: str, toc_end: int) -> tuple[int, int]:
    start = toc_end
    if not toc_end:
        m = _BODY_START.search(text)
        start = m.start() if m else 0
    back = _BACK.search(text, start)
    return start, back.start() if back else len(text)


@dataclass
class _Head:
    start: int
    end: int  # end of the heading text (number and title) in the source
    num: str
    title: str
    from_toc: bool


def clean_title(title: str) -> str:
    """A heading title without the flattened equation markup (``𝑪_𝒑`` → ``Cp``: a title's symbol is an equation
    object in 한글)."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", re.sub(r"[_〖〗^]", "", title))).strip()


_NEXT_NUM = re.compile(r"\s(?:\d{1,2}\.\d{1,2}(?:\.\d{1,2})*|[①-⑳]|\(\d{1,2}\)|∙|<|표\s\d|그림\s\d)")
_PARTICLE_END = re.compile(r"(?:[가-힣](?:은|는|을|를)|다\.?|[.:：,])$")


def _title_from(text: str, start: int, limit: int) -> tuple[str, int]:
    """A heading title written after its number at ``start`` (not from the 목차): up to the first item marker or
    clause number, and before the first word that opens a sentence (a word ending in 은/는/을/를, or one that
    ends it); at most 8 words and ``MAX_TITLE`` characters."""
    seg = text[start:min(limit, start + 200)]
    first = _NEXT_NUM.search(" " + seg)
    cut = first.start() if first else len(seg)
    words = seg[:cut].split()
    empty = re.search(r"\s?내용\s?없음\.?$", " ".join(words))  # "1.4 용어의 정의 내용 없음." — an empty clause
    if empty is not None:
        words = " ".join(words)[: empty.start()].split()
    whole = " ".join(words)
    if first is not None and words and len(words) <= 8 and len(whole) <= MAX_TITLE and not re.search(r"다\.?$", whole):
        keep = words  # the whole run up to an item marker or the next number
    else:
        keep = _title_words(words)
    title = " ".join(keep)
    while len(title) > MAX_TITLE and len(keep) > 1:
        keep.pop()
        title = " ".join(keep)
    if not title:
        return "", start
    # the end of the last kept word in the source
    end = start
    for w in keep:
        end = text.index(w, end) + len(w)
    return title, end


# what follows a clause number cited in a sentence ("4.5.2절", "4.4.3이나", "4.3.3.3까지의")
_REFERENCE_WORD = r"(?:절|항|조|호|장|이나|이|가|까지|에|의|을|를|와|과|로|으로|은|는|및|또는|부터|참조|내지|등)"
_TITLE_WITH_STOP = re.compile(r"[가-힣A-Za-z][^\s.]*(?:\s[^\s.]+){0,2}(?<!다)\.")
_OPENERS = {"이", "그", "본", "각", "다음", "이때", "여기서", "다만", "또한"}  # words that open a sentence
_PARTICLE = re.compile(r"(?:으로|은|는|을|를|의|이|가|와|과|에|로)$")


def _stem(w: str) -> str:
    return _PARTICLE.sub("", w) if len(w) > 2 else w


def _title_words(words: list[str]) -> list[str]:
    """Title words when no item marker closes the title: up to a word opening a sentence, or the start of a
    sentence that restates the title ("용량 배수지의 용량은 …" → "용량")."""
    keep: list[str] = []
    for i, w in enumerate(words[:8]):
        if keep and (_PARTICLE_END.search(w) or w in _OPENERS):
            break
        if keep and w.endswith("의"):
            seen = {_stem(x) for x in keep}
            if any(_stem(x) in seen and _PARTICLE.search(x) for x in words[i + 1:i + 6]):
                break
        keep.append(w)
        if w.endswith((".", ":", "：")):
            break
    return keep


def _deeper(
    text: str, lo: int, hi: int, cur: str, upper: str, listed: set[str], allow_top: bool = False
) -> list[_Head]:
    """Headings the 목차 does not list between ``lo`` and ``hi``: each a valid successor of the one before,
    beyond ``cur`` and before ``upper`` in numbering order, with a title the app's heading rules accept
    (``allow_top``: first-level numbers too, at a sentence boundary — for texts without a 목차)."""
    from kdsdesk.ingest.clauses import parse_heading

    reps = "{0,5}" if allow_top else "{1,5}"
    # "4.1.2 제목", and a number of three levels or more written against its title ("1.4.1용어의 선택기준")
    rx = re.compile(
        rf"(?:(?<=\s)|^)(\d{{1,2}}(?:\.\d{{1,2}}){reps})\.?\s+(?=[가-힣A-Za-z]|\d[가-힣])"
        r"|(?:(?<=\s)|^)(\d{1,2}(?:\.\d{1,2}){2,5})(?=[가-힣])(?!" + _REFERENCE_WORD + ")"
    )
    out: list[_Head] = []
    now = _key(cur) if cur else ()
    up = _key(upper) if upper else (10**6,)
    for m in rx.finditer(text, lo, hi):
        num = m.group(1) or m.group(2)
        if num in listed:
            continue
        k = _key(num)
        if not _follows(k, now) or not (k < up):
            continue
        after_head = bool(out) and not text[out[-1].end:m.start()].strip()
        strict = len(k) > 1 and (k == (*now, 1) or any(k == (*now[:i], now[i] + 1) for i in range(1, len(now))))
        needs_boundary = len(k) == 1 or (allow_top and not strict)
        if needs_boundary and not after_head and not _boundary_before(text, m.start(), lo):
            continue
        title, end = _title_from(text, m.end(), hi)
        title = clean_title(title)
        if _TITLE_WITH_STOP.fullmatch(title):  # "4.1.5 배수펌프. 배수펌프의 유량은 …": the title ends at the stop
            title = title[:-1]
        if not title or parse_heading(f"{num}. {title}" if len(k) == 1 else f"{num} {title}") is None:
            continue
        out.append(_Head(m.start(), end, num, title, False))
        now = k
    return out


def _drop_lists(heads: list[_Head], text: str) -> list[_Head]:
    """Without a 목차: three or more sibling "headings" in a row with nothing between them are a list in the text
    ("1. 총설 2. 착수정 3. …"), not headings."""
    keep = [True] * len(heads)
    i = 0
    while i < len(heads):
        j = i
        while (j + 1 < len(heads) and len(_key(heads[j + 1].num)) == len(_key(heads[i].num))
               and not text[heads[j].end:heads[j + 1].start].strip()):
            j += 1
        if j - i >= 2:
            for x in range(i, j + 1):
                keep[x] = False
        i = j + 1
    return [h for h, k in zip(heads, keep, strict=True) if k]


_DEFINITION_CLAUSE = re.compile(r"용어|기호")
_COLON = re.compile(r"\s?[:：]\s")
_HANGUL = re.compile(r"[가-힣]")


def _term_start(text: str, colon: int, context: str) -> int | None:
    """Where the term defined by the colon at ``colon`` starts: the word before it — two words when the pair is
    used elsewhere in the standard too ("기초 피어", "본 공사") — extended back to balance a parenthesis
    ("사수위(Dead Storage Level, DSL)"); None for a colon inside parentheses ("(단위 : kN/m2)")."""
    words = [(m.start(), m.group()) for m in re.finditer(r"\S+", text[:colon])]
    if not words:
        return None
    # right after the previous definition's sentence ("…을 말한다. 설계 압력(design pressure): …"): every word
    # since that sentence ended is the term, when they are few
    end = text.rfind(". ", 0, colon)
    begin = end + 2 if end >= 0 else 0  # a paragraph's start is a sentence's start
    since = text[begin:colon]
    bare = re.sub(r"\([^()]*\)", "", since).split()
    if (since.strip() and 1 <= len(bare) <= 4 and len(since) <= 60 and since.count("(") == since.count(")")
            and not since.rstrip().endswith("다")):
        return begin + (len(since) - len(since.lstrip()))
    k = len(words) - 1
    if k >= 1 and _HANGUL.search(words[k - 1][1]) and not words[k - 1][1].endswith((".", ")", ",")):
        pair = text[words[k - 1][0]:colon].strip()
        if context.count(pair) >= 2:
            k -= 1
    term = text[words[k][0]:colon]
    while term.count("(") < term.count(")") and k > 0:
        k -= 1
        term = text[words[k][0]:colon]
    if term.count("(") != term.count(")") or len(term) > 40 or term.endswith(("다", "다.")):
        return None
    return words[k][0]


def split_definitions(par: str, context: str = "") -> list[str]:
    """A flattened definition list ("치올림: 보나 … 것 품질관리: 계약 …", "𝐹 : 이동이 … 𝐺 : 부등침하 …") as one
    paragraph per term, as the source writes them (each on its own line); ``context``: the standard's text."""
    cuts: list[int] = []
    for m in _COLON.finditer(par):
        start = _term_start(par, m.start(), context or par)
        if start is None or start <= (cuts[-1] if cuts else 0):
            continue
        if not re.search(r"\w", par[cuts[-1] if cuts else 0:start]):
            continue  # only a marker ("∙") before the term: it stays with it
        cuts.append(start)
    out = [par[a:b].strip() for a, b in zip([0, *cuts], [*cuts, len(par)], strict=True)]
    return [x for x in out if x]


def _paragraphs(seg: str, title: str = "", context: str = "") -> list[str]:
    pars = [s.strip() for s in _ITEM.split(" " + seg) if s.strip()]
    if not _DEFINITION_CLAUSE.search(title):
        return pars
    return [d for p in pars for d in split_definitions(p, context)]


def split_body(text: str, part_only: bool = False) -> Structure:
    """Headings and paragraphs of the body, with the 목차's headings placed and counted."""
    toc, toc_end = parse_toc(text)
    lo, hi = _body_span(text, toc_end)
    heads: list[_Head] = []
    st = Structure([], toc)
    if toc:
        placed = _align([_numbered_candidates(text, e, lo, hi) for e in toc])
        titles = "|".join(sorted({_ws_pattern(e.title) for e in toc if e.title}, key=len, reverse=True))
        after_title = re.compile(rf"(?:^|\s)(?:{titles})$")
        by_title = _align([_title_candidates(text, e, lo, hi, after_title) for e in toc])
        numbered = sum(p is not None for p in placed)
        st.unnumbered = sum(p is not None for p in by_title) > 1.5 * numbered + 2
        if st.unnumbered:  # headings written without numbers: the numbers in the text are no headings
            placed = by_title
        # between anchors: the number alone, then the title alone
        for i, e in enumerate(toc):
            if placed[i] is not None:
                continue
            prev_end = max([p[1] for p in placed[:i] if p is not None], default=lo)
            nxt = min([p[0] for p in placed[i + 1:] if p is not None], default=hi)
            if nxt <= prev_end:
                continue
            got = None if st.unnumbered else _number_only(text, e, prev_end, nxt)
            if got is None:
                limit = nxt if st.unnumbered else min(nxt, prev_end + NUMBERED_TITLE_ONLY_GAP)
                got = _title_only(text, e, prev_end, limit)
            placed[i] = got
        _same_title_child(toc, placed)
        for e, p in zip(toc, placed, strict=True):
            if p is None:
                (st.beyond if part_only and _after_last(e, placed, toc) else st.missing).append(e)
                continue
            st.found.append(e)
            title = e.title
            written = text[p[0]:p[1]]
            if e.num and written and not re.sub(r"\s", "", written).endswith(re.sub(r"\s", "", e.title)):
                title, end = _title_from(text, p[1], hi)  # the number alone: take the title as written
                p = (p[0], end)
                if not title:
                    title = e.title
            heads.append(_Head(p[0], p[1], e.num, title, True))
        heads.sort(key=lambda h: h.start)
        listed = {e.num for e in toc if e.num}
        extra: list[_Head] = []
        for i, h in enumerate([] if st.unnumbered else heads):
            if not h.num or h.num[0].isalpha():
                continue
            nxt_head = heads[i + 1] if i + 1 < len(heads) else None
            end = nxt_head.start if nxt_head else hi
            upper = ""
            if nxt_head and nxt_head.num and not nxt_head.num[0].isalpha() and _key(nxt_head.num) > _key(h.num):
                upper = nxt_head.num
            extra += _deeper(text, h.end, end, h.num, upper, listed)
        st.deeper = len(extra)
        heads = sorted(heads + extra, key=lambda h: h.start)
    else:
        heads = _drop_lists(_deeper(text, lo, hi, "", "", set(), allow_top=True), text)
        st.deeper = len(heads)
    blocks: list[Block] = []
    first = heads[0].start if heads else hi
    blocks += [Block("p", x) for x in _paragraphs(text[lo:first])] if heads and text[lo:first].strip() else []
    for i, h in enumerate(heads):
        end = heads[i + 1].start if i + 1 < len(heads) else hi
        blocks.append(Block("h", h.title, h.num, h.from_toc))
        blocks += [Block("p", x) for x in _paragraphs(text[h.end:end], h.title, text)]
    if not heads:
        blocks = [Block("p", x) for x in _paragraphs(text[lo:hi])]
    st.blocks = blocks
    return st


def _same_title_child(toc: list[TocEntry], placed: list[tuple[int, int] | None]) -> None:
    """A chapter and its first clause with one title ("4. 수리설계", "4.1 수리설계") written once in the body: the
    text is the clause's; the chapter heading stands empty just before it."""
    for i in range(len(toc) - 1):
        e, child, p = toc[i], toc[i + 1], placed[i]
        if (p is not None and placed[i + 1] is None and e.num and child.num.startswith(e.num + ".")
                and re.sub(r"\s", "", e.title) == re.sub(r"\s", "", child.title)):
            placed[i], placed[i + 1] = (p[0], p[0]), p


def _after_last(e: TocEntry, placed: list[tuple[int, int] | None], toc: list[TocEntry]) -> bool:
    """A listed heading after the last one placed (in a ``_part1`` file the text stops early)."""
    i = toc.index(e)
    return all(p is None for p in placed[i:]) and any(p is not None for p in placed[:i])


# -- where a quote lies ---------------------------------------------------------------------------------------
def squash(s: str) -> str:
    """Whitespace removed, NFKC (math italic 𝑓 → f), for finding a quote in built text."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", s))


def clause_of_quote(blocks: list[Block], quote: str) -> str | None:
    """The number of the deepest heading above the paragraph holding ``quote`` ("" before any heading; ``None``
    when the quote is in no paragraph)."""
    q = squash(quote)
    if not q:
        return None
    flat, starts, owner = [], [], []
    cur = ""
    pos = 0
    for b in blocks:
        if b.kind == "h":
            cur = b.num or cur
            s = squash(b.heading_line)
        else:
            s = squash(b.text)
        starts.append(pos)
        owner.append(cur)
        flat.append(s)
        pos += len(s)
    joined = "".join(flat)
    at = joined.find(q)
    if at < 0:
        return None
    i = bisect.bisect_right(starts, at) - 1
    return owner[i]
