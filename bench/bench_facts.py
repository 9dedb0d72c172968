"""Precision and recall of the index-time fact extractor (``kdsdesk.text.facts.chunk_facts``) on a hand-checked gold
sample (``bench/facts_gold.jsonl``).

The gold: sentences of 10 KCSC standards (``../shared/corpus/kcsc/json``, none of them in any question set) and table
cells of the 3 sample standards (``../shared/corpus/samples/*.hwpx``, parsed with the app's parser). Every number that
states a value has a gold fact (value as written, unit, bound, the quantity it belongs to, the cases it is written
for, threshold, symbolic); references (식/표/그림/clause numbers, KDS/KS codes, item marks, designations such as
"2종", "1차", "90°갈고리", "KRL-2012") have none. Lines with no gold fact measure false positives. Gold fields:
``bound_also`` / ``subject_also`` list other acceptable readings; ``subject`` null = not stated in the unit (not
judged); ``cases_optional`` = phrases a reading may attach without penalty but need not.

A text unit is given to the extractor alone, as a chunk of kind "text"; a cell's table is parsed from its HWPX and
given as its table chunk, and the facts whose (row, col) is the cell's are its readings.

Scoring, per unit, gold and extracted facts are paired one to one (maximum bipartite matching) at three levels:

1. **value** — the numbers in the two values are the same, in order (``1.0`` = ``1``; ``d/4`` and ``4`` both hold
   [4]; ``2~20`` holds [2, 20], so ``2`` alone does not match it).
2. **value+unit+bound** — level 1, and the values are equal as written after normalising (NFKC; spaces, ``_``,
   ``〖〗``, backslashes dropped; ``∼～〜`` → ``~``; a unit inside a range dropped: ``10 % ~ 15`` = ``10~15``), and the
   units equal after the same normalising (``㎜`` = ``mm``, ``m²`` = ``m2``, ``℃`` = ``°C``), and the bound is the
   gold's (or one of ``bound_also``).
3. **value+subject+cases** — level 1, and
   - subject: the gold subject's last word (its head; words lose one trailing particle 은/는/이/가/의/에서… when
     two characters remain) occurs in the extracted subject (spaces removed), or the extracted subject's last word
     (≥ 2 characters) occurs in the gold head ("깊이" for "설치깊이"); and at least half (rounded down) of the gold
     subject's other words occur too. For cells the extracted subject and cases together are searched (a table puts
     the quantity in a column header). Null gold subject: not judged.
   - cases: every gold case is covered — at least half (rounded up) of its words, stop words (경우, 때, 및 …) left
     out, occur in the extracted cases plus subject, and every bound word or sign it holds (≤ < ≥ > 이상 이하 미만
     초과) too; and no extracted case is spurious — each must be covered the same way by the gold cases, optional
     cases and subject together. A case attached in the subject instead of the cases counts (where a qualifier ends
     up is not judged, only whether it is attached).

Precision = pairs / extracted facts, recall = pairs / gold facts, per level and per kind (text, cell). Threshold and
symbolic flags are reported as agreement over level-1 pairs. The listing after the figures shows, per unit, gold
values not found, extracted values with no gold value, and level-1 pairs failing level 2 or 3 or disagreeing on a
flag, with both readings.

Run: .venv/bin/python bench/bench_facts.py [--quiet] [--gold bench/facts_gold.jsonl]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kdsdesk.ingest.hwpx import parse_hwpx
from kdsdesk.records import Fact, Table
from kdsdesk.text.facts import chunk_facts

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

_DROP = re.compile(r"[\s_〖〗\\`\"]")
_RANGE = re.compile(r"[∼～〜]")
_UNIT_IN_RANGE = re.compile(r"(\d)(?:%|°|mm|cm|m|MPa|kN|km/h)~")
_NUM = re.compile(r"\d+(?:\.\d+)?")
_PARTICLES = sorted(
    ["에서는", "에서", "에는", "으로", "로는", "에도", "은", "는", "이", "가", "을", "를", "의", "에", "로", "와",
     "과"],
    key=len,
    reverse=True,
)  # fmt: skip
_STOP = frozenset(
    ["경우", "경우에는", "경우에", "경우는", "때", "때는", "때의", "시", "시에는", "및", "또는", "등", "등의", "그리고",
     "인", "일", "한", "하는", "되는", "이", "의", "에", "구분", "종류", "항목", "비고", "내용", "값", "일반적으로"]
)  # fmt: skip
_BOUND_MARKS = ("≤", "≥", "<", ">", "이상", "이하", "미만", "초과")


def nfkc(s: str) -> str:
    return unicodedata.normalize("NFKC", s).replace("′", "'").replace("’", "'")


def norm_value(v: str) -> str:
    s = _RANGE.sub("~", _DROP.sub("", nfkc(v)))
    s = re.sub(r"^(각각|모두)", "", s)
    return _UNIT_IN_RANGE.sub(r"\1~", s)


def numbers(v: str) -> tuple[float, ...]:
    s = re.sub(r"(?<=\d),(?=\d{3})", "", norm_value(v))
    return tuple(float(x) for x in _NUM.findall(s))


def norm_unit(u: str) -> str:
    s = _DROP.sub("", nfkc(u)).replace("^", "").replace("²", "2").replace("³", "3")
    return s.replace("℃", "°C")


def nospace(s: str) -> str:
    return _DROP.sub("", nfkc(s))


def strip_particle(w: str) -> str:
    for p in _PARTICLES:
        if w.endswith(p) and len(w) >= len(p) + 2:
            return w[: -len(p)]
    return w


def words(s: str) -> list[str]:
    """Content words of a phrase: NFKC, split at spaces and punctuation, stop words out, one particle stripped."""
    toks = re.split(r"[\s,.;:·()\[\]]+", _DROP.sub(lambda m: " " if m.group().isspace() else "", nfkc(s)))
    return [strip_particle(t) for t in toks if t and t not in _STOP]


@dataclass
class Unit:
    """One gold line: a sentence or a cell, its gold facts and the extracted ones."""

    item: dict[str, Any]
    gold: list[dict[str, Any]]
    pred: list[Fact]
    pairs: dict[str, list[tuple[int, int]]] = field(default_factory=dict)


# -- predicates per level -----------------------------------------------------------------------------------------


def value_ok(g: dict[str, Any], p: Fact) -> bool:
    gn = numbers(g["value"])
    return bool(gn) and gn == numbers(p.value)


def vub_ok(g: dict[str, Any], p: Fact) -> bool:
    bounds = [g["bound"], *g.get("bound_also", [])]
    return (
        value_ok(g, p)
        and norm_value(g["value"]) == norm_value(p.value)
        and norm_unit(g["unit"]) == norm_unit(p.unit)
        and p.bound in bounds
    )


def _subject_alt_ok(gold_subject: str, text: str, pred_subject: str) -> bool:
    gw = words(gold_subject)
    if not gw:
        return True
    head, others = gw[-1], gw[:-1]
    pw = words(pred_subject)
    head_ok = head in text or (bool(pw) and len(pw[-1]) >= 2 and pw[-1] in head)
    return head_ok and sum(1 for w in others if w in text) >= len(others) // 2


def subject_ok(g: dict[str, Any], p: Fact) -> bool:
    if g["subject"] is None:
        return True
    searched = p.subject + (" " + " ".join(p.cases) if p.kind == "cell" else "")
    text = nospace(searched)
    return any(_subject_alt_ok(s, text, p.subject) for s in [g["subject"], *g.get("subject_also", [])])


def covered(phrase: str, text: str) -> bool:
    """At least half (rounded up) of the phrase's content words, and every bound word or sign, occur in ``text``."""
    ws = words(phrase)
    if not ws:
        return True
    marks_ok = all(m in text for m in _BOUND_MARKS if m in nospace(phrase))
    return marks_ok and sum(1 for w in ws if w in text) >= math.ceil(len(ws) / 2)


def cases_ok(g: dict[str, Any], p: Fact) -> bool:
    pred_text = nospace(" ".join([*p.cases, p.subject]))
    if not all(covered(c, pred_text) for c in g["cases"]):
        return False
    gold_side = [*g["cases"], *g.get("cases_optional", [])]
    if g["subject"] is not None:
        gold_side += [g["subject"], *g.get("subject_also", [])]
    gold_text = nospace(" ".join(gold_side))
    return all(covered(c, gold_text) for c in p.cases)


def vsc_ok(g: dict[str, Any], p: Fact) -> bool:
    return value_ok(g, p) and subject_ok(g, p) and cases_ok(g, p)


LEVELS: dict[str, Callable[[dict[str, Any], Fact], bool]] = {
    "value": value_ok,
    "value+unit+bound": vub_ok,
    "value+subject+cases": vsc_ok,
}


def matching(
    n_gold: int, n_pred: int, ok: Callable[[int, int], bool], seed: Sequence[tuple[int, int]] = ()
) -> list[tuple[int, int]]:
    """A maximum one-to-one pairing of gold and extracted facts under ``ok`` (augmenting paths), grown from ``seed``
    (pairs that satisfy ``ok``: the level-1 pairing starts from the level-3 and level-2 pairs, so that the listing
    pairs each gold value with its best reading; the counts do not depend on it)."""
    adj = [[j for j in range(n_pred) if ok(i, j)] for i in range(n_gold)]
    owner: dict[int, int] = {}
    for i, j in seed:
        if j not in owner and i not in owner.values():
            owner[j] = i

    def augment(i: int, seen: set[int]) -> bool:
        for j in adj[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(n_gold):
        if i not in owner.values():
            augment(i, set())
    return sorted((i, j) for j, i in owner.items())


# -- running the extractor ------------------------------------------------------------------------------------------


def table_chunks(source: Path) -> dict[str, tuple[str, Table]]:
    """Table number → (chunk text, table) of a parsed HWPX (the chunker gives a table block's text to its chunk)."""
    out: dict[str, tuple[str, Table]] = {}
    for b in parse_hwpx(source).blocks:
        if b.kind == "table" and b.table is not None:
            out.setdefault(b.table.number, (b.text, b.table))
    return out


def extract(items: Sequence[dict[str, Any]]) -> list[Unit]:
    tables: dict[str, dict[str, tuple[str, Table]]] = {}
    units: list[Unit] = []
    for it in items:
        if it["kind"] == "text":
            pred = list(chunk_facts("text", it["text"], None))
        else:
            src = it["source"]
            if src not in tables:
                tables[src] = table_chunks((REPO / src).resolve())
            text, table = tables[src][it["table"]]
            pred = [f for f in chunk_facts("table", text, table) if (f.row, f.col) == (it["row"], it["col"])]
        units.append(Unit(it, it["facts"], pred))
    for u in units:
        for name in ("value+subject+cases", "value+unit+bound", "value"):
            seed: list[tuple[int, int]] = []
            if name == "value":
                seed = [*u.pairs["value+subject+cases"], *u.pairs["value+unit+bound"]]
            f = LEVELS[name]
            u.pairs[name] = matching(len(u.gold), len(u.pred), lambda i, j, f=f, u=u: f(u.gold[i], u.pred[j]), seed)
    return units


# -- report ---------------------------------------------------------------------------------------------------------


def _pct(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "—"


def summary(units: Sequence[Unit]) -> list[str]:
    lines: list[str] = []
    kinds = [(k, [u for u in units if u.item["kind"] == k]) for k in ("text", "cell")]
    kinds.append(("all", list(units)))
    docs = {u.item["doc"] for u in units}
    lines.append(
        f"gold: {len(units)} units from {len(docs)} standards — "
        + ", ".join(
            f"{k} {len(us)} units, {sum(len(u.gold) for u in us)} gold facts, {sum(len(u.pred) for u in us)} extracted"
            for k, us in kinds[:2]
        )
    )
    lines.append("| level | kind | gold | extracted | pairs | precision | recall |")
    lines.append("|---|---|---|---|---|---|---|")
    for name in LEVELS:
        for k, us in kinds:
            g = sum(len(u.gold) for u in us)
            p = sum(len(u.pred) for u in us)
            m = sum(len(u.pairs[name]) for u in us)
            lines.append(f"| {name} | {k} | {g} | {p} | {m} | {_pct(m, p)} | {_pct(m, g)} |")
    for k, us in kinds:
        pairs = [(u.gold[i], u.pred[j]) for u in us for i, j in u.pairs["value"]]
        th = sum(1 for g, p in pairs if g["threshold"] == p.threshold)
        sy = sum(1 for g, p in pairs if g["symbolic"] == p.symbolic)
        zero = [u for u in us if not u.gold]
        on_zero = sum(len(u.pred) for u in zero)
        lines.append(
            f"{k}: over {len(pairs)} value pairs threshold agrees {_pct(th, len(pairs))},"
            f" symbolic {_pct(sy, len(pairs))}; units with no gold fact: {len(zero)}, extracted on them: {on_zero}"
        )
    return lines


def _show(f: dict[str, Any] | Fact) -> str:
    if isinstance(f, Fact):
        return (f"{f.value!r} unit={f.unit!r} bound={f.bound!r} subject={f.subject!r} cases={list(f.cases)!r}"
                f"{' T' if f.threshold else ''}{' S' if f.symbolic else ''}")
    b = "/".join([f["bound"], *f.get("bound_also", [])])
    s = " / ".join(str(x) for x in [f["subject"], *f.get("subject_also", [])])
    return (f"{f['value']!r} unit={f['unit']!r} bound={b!r} subject={s!r} cases={f['cases']!r}"
            f"{' T' if f['threshold'] else ''}{' S' if f['symbolic'] else ''}")


def misses(units: Sequence[Unit]) -> list[str]:
    lines: list[str] = []
    for u in units:
        l1 = u.pairs["value"]
        got_g = {i for i, _ in l1}
        got_p = {j for _, j in l1}
        l2 = set(u.pairs["value+unit+bound"])
        l3 = set(u.pairs["value+subject+cases"])
        l2_g = {i for i, _ in l2}
        l3_g = {i for i, _ in l3}
        out: list[str] = []
        for i, g in enumerate(u.gold):
            if i not in got_g:
                out.append(f"  missed   {_show(g)}")
        for j, p in enumerate(u.pred):
            if j not in got_p:
                out.append(f"  spurious {_show(p)}")
        for i, j in l1:
            tags = [t for t, s in (("unit/bound", l2_g), ("subject/cases", l3_g)) if i not in s]
            tags += [t for t in ("threshold", "symbolic") if u.gold[i][t] != getattr(u.pred[j], t)]
            if tags:
                out.append(f"  wrong {'+'.join(tags)}:\n    gold {_show(u.gold[i])}\n    got  {_show(u.pred[j])}")
        if out:
            where = u.item["doc"]
            if u.item["kind"] == "cell":
                where += f" 표 {u.item['table']} r{u.item['row']}c{u.item['col']}"
            lines.append(f"{u.item['id']} [{where}] {u.item['text']}")
            lines.extend(out)
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--gold", type=Path, default=HERE / "facts_gold.jsonl")
    ap.add_argument("--quiet", action="store_true", help="figures only, no listing of misses")
    args = ap.parse_args()
    items = [json.loads(line) for line in args.gold.read_text(encoding="utf-8").splitlines() if line.strip()]
    units = extract(items)
    print("\n".join(summary(units)))
    if not args.quiet:
        print("\nmisses (gold facts not found, extracted facts with no gold value, pairs failing level 2 or 3):")
        print("\n".join(misses(units)))


if __name__ == "__main__":
    main()
