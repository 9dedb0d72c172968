"""Share of the sample standards' golden equations that the PDF parser reproduces exactly (after normalisation).

For each sample PDF: ``kdsdesk parse FILE.pdf --json`` (``python -m kdsdesk``, the installed package), then
every equation of ``golden/<stem>.json`` — display equations (``equation`` blocks, found on the line that ends
with their label ``(4.2-1)``) and inline ones (``{{ … }}`` in paragraphs, headings and table cells, found between
the plain text around them in the golden block) — is compared with the parser's text at that place.

Both sides go to one canonical linear form: spaces and TeX braces dropped; ``\\frac{a}{b}`` and the parser's
``a/b`` become one fraction node whose operands lose their outer parentheses (so ``(1/6)λ`` = ``\\frac{1}{6}λ``
and ``V_s=(A_v f_yt d)/s`` = ``V_{s} = \\frac{A_{v}f_{yt}d}{s}``); ``\\sqrt{x}`` and ``√x`` one radical node;
parentheses around a single operand dropped; scripts ``_x``/``_{xy}`` kept as scripts. An equation counts when
the canonical forms are equal (exact match, no partial credit).

    .venv/bin/python bench/measure_equations.py [--corpus ../shared/corpus] [--show-misses] [--kdsdesk CMD]
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EDGE = "¶"  # start or end of a line, table cell or golden block
_OPS = set("+-=≤≥<>,;·×±→|")
_CHARS = str.maketrans({"−": "-", "′": "'", "’": "'", "≦": "≤", "≧": "≥", "\u00a0": " "})

Node = tuple[Any, ...]  # ("tok", text) | ("grp", [nodes]) | ("frac", num, den) | ("sqrt", arg)


# -- canonical form --------------------------------------------------------------------------------------------------
class _Reader:
    """Recursive-descent reader of both notations (golden TeX-like and the parser's linear text)."""

    def __init__(self, text: str) -> None:
        self.s = text.translate(_CHARS)
        self.i = 0

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def seq(self, until: str = "") -> list[Node]:
        out: list[Node] = []
        while self.i < len(self.s) and not (until and self.peek() in until):
            ch = self.peek()
            if ch.isspace():
                self.i += 1
                continue
            if ch == "/" and out:
                self.i += 1
                den = self.operand()
                out[-1] = ("frac", out[-1], den)
                continue
            node = self.item()
            if node is not None:
                out.append(node)
        return out

    def braced(self) -> list[Node]:
        """``{…}`` (TeX group) → its content."""
        assert self.peek() == "{"
        self.i += 1
        inner = self.seq("}")
        self.i += 1
        return inner

    def operand(self) -> Node:
        while self.peek() and self.peek().isspace():
            self.i += 1
        if self.peek() == "{":
            return ("grp", self.braced())
        node = self.item()
        return node if node is not None else ("grp", [])

    def item(self) -> Node | None:
        ch = self.peek()
        if ch == "\\":
            m = re.match(r"\\([A-Za-z]+)", self.s[self.i :])
            name = m.group(1) if m else ""
            self.i += 1 + len(name)
            if name == "frac":
                num = self.operand()
                return self.scripts(("frac", num, self.operand()))
            if name == "sqrt":
                return ("sqrt", self.operand())
            return self.scripts(("tok", name)) if name else None
        if ch == "{":
            inner = self.braced()
            return self.scripts(inner[0] if len(inner) == 1 else ("grp", inner))
        if ch in "([":
            close = ")" if ch == "(" else "]"
            self.i += 1
            inner = self.seq(close)
            self.i += 1
            return self.scripts(("grp", inner) if ch == "(" else ("sq", inner))
        if ch == "√":
            self.i += 1
            return ("sqrt", self.operand())
        if ch in ")]}":
            self.i += 1
            return ("tok", ch)
        m = re.match(r"[0-9]+(?:\.[0-9]+)?", self.s[self.i :])
        if m:
            self.i += len(m.group(0))
            return self.scripts(("tok", m.group(0)))
        self.i += 1
        if ch in _OPS:
            return ("tok", ch)
        return self.scripts(("tok", ch))

    def scripts(self, base: Node) -> Node:
        subs: list[str] = []
        while True:
            while self.peek() == "'":
                self.i += 1
                base = ("tok", _emit(base) + "'")
            mark = self.peek()
            if mark not in ("_", "^"):
                return base if not subs else ("tok", _emit(base) + "".join(subs))
            self.i += 1
            if self.peek() == "{":
                body = _emit_seq(self.braced())
            else:
                m = re.match(r"[^\W_가-힣]+(?:,[^\W_가-힣]+)*", self.s[self.i :])
                body = m.group(0) if m else ""
                self.i += len(body)
            subs.append(f"{mark}{{{body}}}")


def _operand(node: Node) -> str:
    return _emit_seq(node[1]) if node[0] == "grp" else _emit(node)


def _emit(node: Node) -> str:
    kind = node[0]
    if kind == "tok":
        return str(node[1])
    if kind == "frac":
        return f"⟨{_operand(node[1])}/{_operand(node[2])}⟩"
    if kind == "sqrt":
        return f"√⟨{_operand(node[1])}⟩"
    if kind == "sq":
        return f"[{_emit_seq(node[1])}]"
    inner: list[Node] = node[1]
    if len(inner) == 1:
        return _emit(inner[0])
    return f"({_emit_seq(inner)})"


def _emit_seq(nodes: list[Node]) -> str:
    return "".join(_emit(n) for n in nodes)


def canonical(text: str) -> str:
    """Canonical linear form of a golden TeX-like equation or of the parser's linear text."""
    return _emit_seq(_Reader(text).seq())


# -- golden equations and where to find them ------------------------------------------------------------------------
@dataclass(frozen=True)
class Golden:
    src: str
    kind: str  # "display" | "inline"
    left: str  # anchor before the equation (spaceless), EDGE at a block start
    right: str  # anchor after it


def split_inline(text: str) -> list[tuple[bool, str]]:
    """Golden text → (is_math, piece) in order; ``{{ … }}`` may hold braces of its own."""
    out: list[tuple[bool, str]] = []
    i = 0
    while True:
        j = text.find("{{", i)
        if j < 0:
            out.append((False, text[i:]))
            return out
        out.append((False, text[i:j]))
        k, depth = j + 2, 0
        while k < len(text):
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                if depth == 0 and text[k : k + 2] == "}}":
                    break
                depth -= 1
            k += 1
        out.append((True, text[j + 2 : k]))
        i = k + 2


def _plain(text: str) -> str:
    return "".join(text.translate(_CHARS).split())


def golden_equations(golden: dict[str, Any], width: int = 6) -> list[Golden]:
    texts: list[str] = []
    out: list[Golden] = []
    for b in golden["blocks"]:
        if b["type"] == "equation":
            out.append(Golden(b["src"], "display", EDGE, _plain(b.get("label", "")) + EDGE))
        elif b["type"] in ("para", "heading"):
            texts.append(b["text"])
        elif b["type"] == "table":
            for row in [*b.get("header", []), *b.get("rows", [])]:
                texts += [c if isinstance(c, str) else c["text"] for c in row if c is not None]
    for text in texts:
        parts = split_inline(text)
        for k, (math, piece) in enumerate(parts):
            if not math:
                continue
            before = _plain(parts[k - 1][1]) if k > 0 else ""
            after = _plain(parts[k + 1][1]) if k + 1 < len(parts) else ""
            left = before[-width:] if before else EDGE
            right = after[:width] if after else EDGE
            out.append(Golden(piece, "inline", left, right))
    return out


def parsed_lines(parsed: dict[str, Any]) -> list[str]:
    """Lines of the parser's output (chunk text lines, whole chunks with lines joined — a paragraph the layout
    broke in two still counts — and table cells), each between EDGE marks."""
    lines = [EDGE + ln + EDGE for c in parsed["chunks"] for ln in c["text"].split("\n")]
    lines += [EDGE + c["text"].replace("\n", " ") + EDGE for c in parsed["chunks"] if "\n" in c["text"]]
    for t in parsed.get("tables", []):
        lines += [EDGE + (cell or "") + EDGE for row in t["grid"] for cell in row]
    return lines


def candidates(eq: Golden, lines: list[str]) -> list[str]:
    """The parser's text between the equation's anchors, wherever both anchors occur on one line."""
    found: list[str] = []
    for line in lines:
        keep = [k for k, ch in enumerate(line) if not ch.isspace()]
        flat = "".join(line[k] for k in keep).translate(_CHARS)
        start = flat.find(eq.left)
        while start >= 0:
            a = start + len(eq.left)
            b = flat.find(eq.right, a)
            if b >= 0 and b - a <= 4 * len(eq.src) + 40:
                lo = keep[a] if a < len(keep) else len(line)
                hi = keep[b] if b < len(keep) else len(line)
                found.append(line[lo:hi].strip())
            start = flat.find(eq.left, start + 1)
    return found


def measure(
    pdf: Path, golden_path: Path, kdsdesk: list[str]
) -> tuple[dict[str, tuple[int, int]], list[tuple[Golden, str]]]:
    import subprocess

    cmd = [*kdsdesk, "parse", str(pdf), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    parsed = json.loads(out.stdout)
    lines = parsed_lines(parsed)
    counts: dict[str, tuple[int, int]] = {}
    misses: list[tuple[Golden, str]] = []
    for eq in golden_equations(json.loads(golden_path.read_text(encoding="utf-8"))):
        want = canonical(eq.src)
        got = candidates(eq, lines)
        ok = any(canonical(c) == want for c in got)
        hit, n = counts.get(eq.kind, (0, 0))
        counts[eq.kind] = (hit + ok, n + 1)
        if not ok:
            best = max(got, key=lambda c: difflib.SequenceMatcher(None, canonical(c), want).ratio(), default="")
            misses.append((eq, best or "(anchors not found)"))
    return counts, misses


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--show-misses", action="store_true")
    ap.add_argument("--kdsdesk", default=f"{sys.executable} -m kdsdesk", help="command that runs kdsdesk")
    args = ap.parse_args()
    samples: Path = args.corpus / "samples"
    print("| file | display | inline | all |")
    print("|---|---:|---:|---:|")
    total = [0, 0]
    shown: list[str] = []
    for pdf in sorted(samples.glob("*.pdf")):
        counts, misses = measure(pdf, samples / "golden" / f"{pdf.stem}.json", shlex.split(args.kdsdesk))
        cells = []
        hits = n = 0
        for kind in ("display", "inline"):
            h, k = counts.get(kind, (0, 0))
            hits, n = hits + h, n + k
            cells.append(f"{h}/{k} ({100 * h / max(1, k):.1f}%)")
        total[0] += hits
        total[1] += n
        print(f"| {pdf.name} | {cells[0]} | {cells[1]} | {hits}/{n} ({100 * hits / max(1, n):.1f}%) |")
        shown += [f"{pdf.stem}: {eq.kind} {eq.src!r}\n    got {got!r}\n    want {canonical(eq.src)}"
                  f"\n    have {canonical(got)}" for eq, got in misses]
    share = 100 * total[0] / max(1, total[1])
    print(f"\nAll samples: {total[0]}/{total[1]} golden equations reproduced ({share:.1f}%).")
    if args.show_misses:
        print("\n".join(shown))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
