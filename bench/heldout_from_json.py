"""Turn a flattened real KDS text (``../shared/corpus/real/kds/*.json``, ``content.full`` or ``content``) into a
KDS-style HWPX with the fixture builder, for a held-out answer measurement on text the answerer has never seen.

The JSON is not an app input format; this script only rebuilds headings and items from the flat string:
- the front matter up to the body's "1. 일반사항" (the one not followed by a page number, i.e. not the 목차) and the
  back matter from "집필위원" are dropped;
- a clause number "N.N[.N] 제목" becomes a heading paragraph when it is a valid successor of the previous clause
  (child, next sibling, or the next number of an ancestor) — so "1.5 이상" inside a sentence is not a heading;
- items "(1)", "①", "가." start new paragraphs; tables stay as plain text.

Usage: ``.venv/bin/python bench/heldout_from_json.py ../shared/corpus/real/kds/KDS_14_20_10_full.json ...``
(writes ``bench/out/<stem>.hwpx``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.data.hwpx_builder import p, para, section, t, write_hwpx

OUT = Path(__file__).resolve().parent / "out"
_BODY_START = re.compile(r"(?<!\d)1\.?\s*일반사항\s+(?=1\.1\s|\(1\)\s)")
_BACK = re.compile(r"\s집필위원\s")
_NUM = re.compile(r"(?:(?<=\s)|^)(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+(?=[가-힣A-Za-z])")
_ITEM = re.compile(r"\s(?=(?:\(\d{1,2}\)|[①-⑳]|[가-하]\.|∙)\s)")
MAX_TITLE = 40


def _successors(cur: tuple[int, ...]) -> set[tuple[int, ...]]:
    out = {(*cur, 1)}
    for i in range(len(cur)):
        out.add((*cur[:i], cur[i] + 1))
    return out


def split_body(text: str) -> list[tuple[str, str]]:
    """``[("h", "4.2 제목"), ("p", "(1) …"), …]`` from the flat body text."""
    starts = [m.start() for m in _BODY_START.finditer(text)]
    if starts:
        text = text[starts[0]:]
    back = _BACK.search(text)
    if back:
        text = text[: back.start()]
    cur: tuple[int, ...] = ()
    cuts: list[tuple[int, int, str]] = []  # (start, end of number, number)
    for m in _NUM.finditer(text):
        num = tuple(int(x) for x in m.group(1).split("."))
        if (not cur and num == (1,)) or (cur and num in _successors(cur)):
            # a top-level number must be written "N." or followed by a short title
            cuts.append((m.start(), m.end(), m.group(1)))
            cur = num
    blocks: list[tuple[str, str]] = []
    for i, (_s, e, num) in enumerate(cuts):
        end = cuts[i + 1][0] if i + 1 < len(cuts) else len(text)
        seg = text[e:end].strip()
        first = _ITEM.search(" " + seg)
        title, rest = (seg[: first.start() - 1], seg[first.start() - 1 :]) if first else (seg, "")
        title = title.strip()
        if len(title) > MAX_TITLE or re.search(r"다[.:]$", title):  # a heading with a lead sentence
            words = title.split()
            k = 1 if len(title) <= MAX_TITLE else 2
            title, lead = " ".join(words[:k]), " ".join(words[k:])
            rest = f"{lead} {rest}".strip()
        label = num if "." in num else f"{num}."
        blocks.append(("h", f"{label} {title}"))
        for item in _ITEM.split(" " + rest):
            if item.strip():
                blocks.append(("p", item.strip()))
    return blocks


def load_text(path: Path) -> tuple[str, str, str]:
    d = json.loads(path.read_text(encoding="utf-8"))
    content = d["content"]
    text = content["full"] if isinstance(content, dict) else content
    code = d.get("standard_code") or ""
    title = re.sub(r"_수정$", "", d.get("title") or "")
    m = re.search(re.escape(code) + r"\s*:\s*(\d{4})", text) if code else None
    year = m.group(1) if m else ""
    if title == "건설기준 연혁":  # the "full" files carry a wrong title; take the line after "CODE : YEAR"
        mt = re.search(re.escape(code) + r"\s*:\s*\d{4}\s+(.+?)\s+(?:\.|\d{4}년|구조설계기준|설계기준)", text)
        title = mt.group(1) if mt else code
    return text, f"{code} : {year}" if year else code, title


def build(path: Path) -> Path:
    text, code_line, title = load_text(path)
    paras = [p(t(code_line), first=True), para(title)]
    paras += [para(b) for _, b in split_body(text)]
    OUT.mkdir(exist_ok=True)
    return write_hwpx(OUT / f"{path.stem}.hwpx", [section(*paras)], title=title)


def main(argv: list[str]) -> int:
    for a in argv:
        out = build(Path(a))
        print(out, sum(1 for k, _ in split_body(load_text(Path(a))[0]) if k == "h"), "headings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
