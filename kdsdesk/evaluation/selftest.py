"""``kdsdesk --selftest``: a headless end-to-end check on the bundled samples, proving the install works offline.

Stages, each one line (``[통과]``/``[실패]``/``[건너뜀]``): models (manifest, sizes, hashes, memory) → parse (every
sample file in this process) → index (a temporary library, through the isolated parsing worker; dense vectors when
an encoder is installed) → search (table captions found again) → ask, extractive → ask with the LLM (when a GGUF is
installed) → verify (confirmed answers carry located, verified quotes) → render (a cited PDF page with its highlight,
PyMuPDF to a pixmap, highlight pixels over text pixels) → offline (no network connection was attempted: an audit
hook watches ``socket.connect`` and name look-ups). A last line sums up; the exit code is 0 only if every stage
passed (a skipped stage is not a failure).

Questions are derived from the samples themselves (numbered table captions and cells), or read from a
``qa.jsonl`` beside the samples when there is one, so the check does not depend on particular sentences.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from kdsdesk import paths
from kdsdesk.errors import KnownError
from kdsdesk.records import Answer, Chunk, Citation, ParsedDoc
from kdsdesk.service import Library, drain
from kdsdesk.verify.policy import passes

log = logging.getLogger(__name__)

Outcome = Literal["pass", "fail", "skip"]
LABEL = {"pass": "[통과]", "fail": "[실패]", "skip": "[건너뜀]"}
MAX_QUESTIONS = 4
HIGHLIGHT_RGB = (1.0, 0.85, 0.0)
LLM_BUDGET_S = 300.0  # generation time allowed to the LLM stage before it stops the model
MAX_LLM_QUESTIONS = 1  # a CPU LLM answer takes 10-60 s: one proves the engine, the model and the verification path
NETWORK_EVENTS = frozenset({"socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.sendto"})


@dataclass(frozen=True, slots=True)
class StageResult:
    key: str
    title: str  # Korean
    outcome: Outcome
    detail: str
    seconds: float

    def line(self) -> str:
        return f"{LABEL[self.outcome]} {self.title}: {self.detail} ({self.seconds:.1f}초)"


class StageFailed(Exception):
    """A stage's check did not hold (the message is Korean)."""


class StageSkipped(Exception):
    """A stage that does not apply here (no LLM installed …)."""


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    expected: str = ""  # expected value ("" when unknown)


@dataclass(slots=True)
class _State:
    samples: Path
    workdir: Path
    llm: str | None
    files: list[Path] = field(default_factory=list)
    parsed: list[ParsedDoc] = field(default_factory=list)
    library: Library | None = None
    answers: list[Answer] = field(default_factory=list)
    network: list[str] = field(default_factory=list)


# -- network watch ---------------------------------------------------------------------------------------------
_watch: list[list[str]] = []  # the active run's event list (audit hooks cannot be removed: one hook, switched)
_hooked = False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if not _watch or event not in NETWORK_EVENTS:
        return
    if event == "socket.connect" and args and getattr(args[0], "family", None) == getattr(socket, "AF_UNIX", -1):
        return  # local IPC, not network
    target = args[1] if event in ("socket.connect", "socket.sendto") and len(args) > 1 else args[:1]
    _watch[-1].append(f"{event} {target!r}")


def _watch_network(sink: list[str]) -> None:
    global _hooked
    if not _hooked:
        sys.addaudithook(_audit)
        _hooked = True
    _watch.append(sink)


# -- stages ----------------------------------------------------------------------------------------------------
def _stage_models(st: _State) -> str:
    from kdsdesk.index.encoder import encoder_status
    from kdsdesk.models.check import check_models

    report = check_models()
    corrupt = [c.message for c in report.files if c.corrupt]
    if corrupt:
        raise StageFailed(" / ".join(corrupt))
    if st.llm is None and report.llm_ok and report.llm_path is not None:
        st.llm = str(report.llm_path)
    enc_ok, enc_msg = encoder_status()
    llm = f"LLM {report.llm_path.name}" if report.llm_ok and report.llm_path else "LLM 없음(추출식 답변)"
    return f"{enc_msg if enc_ok else '의미 검색 모델 없음(단어 검색)'}; {llm}"


def _stage_parse(st: _State) -> str:
    from kdsdesk.ingest.dispatch import parse_file
    from kdsdesk.ingest.sniff import SUPPORTED_SUFFIXES

    if not st.samples.is_dir():
        raise StageFailed(f"예제 문서 폴더가 없습니다: {st.samples}")
    st.files = sorted(p for p in st.samples.iterdir() if p.suffix.lower() in SUPPORTED_SUFFIXES)
    if not st.files:
        raise StageFailed(f"예제 문서(PDF/HWPX)가 없습니다: {st.samples}")
    from kdsdesk.text.chunk import chunk_document

    n_chunks = n_tables = 0
    failures: list[str] = []
    for f in st.files:
        try:
            doc = parse_file(f)
        except KnownError as exc:
            failures.append(f"{f.name}: {exc.message}")
            continue
        chunks = chunk_document(doc)
        if not chunks:
            failures.append(f"{f.name}에서 본문을 읽지 못했습니다")
            continue
        st.parsed.append(doc)
        n_chunks += len(chunks)
        n_tables += sum(1 for _ in doc.tables())
    if failures:
        raise StageFailed("; ".join(failures))
    kinds = sorted({p.doc.kind.upper() for p in st.parsed})
    return f"{len(st.files)}개 파일({'/'.join(kinds)}), 청크 {n_chunks}개, 표 {n_tables}개"


def _stage_index(st: _State) -> str:
    from kdsdesk.index.encoder import encoder_status

    lib = Library(st.workdir / "라이브러리 폴더")  # Korean and a space, as under a Windows user name
    st.library = lib
    report = drain(lib.add(st.files))
    if report.failed:
        raise StageFailed("; ".join(f"{Path(f).name}: {m}" for f, m in report.failed))
    docs = lib.documents()
    if len(docs) != len(st.files) or any(d.status != "searchable" for d in docs):
        raise StageFailed(f"검색 가능한 문서 {sum(d.status == 'searchable' for d in docs)}/{len(st.files)}개")
    detail = f"문서 {len(docs)}개, 청크 {sum(d.n_chunks for d in docs)}개"
    if encoder_status()[0]:
        encoded = drain(lib.encode_pending())
        detail += f", 의미 벡터 {encoded}개"
    return detail


def _table_chunks(st: _State) -> Iterator[Chunk]:
    from kdsdesk.text.chunk import chunk_document

    for doc in st.parsed:
        for c in chunk_document(doc):
            if c.table is not None and c.table.number and c.table.title:
                yield c


def _stage_search(st: _State) -> str:
    lib = _library(st)
    tables = list(_table_chunks(st))
    if not tables:
        raise StageFailed("예제 문서에 번호 붙은 표가 없어 검색을 확인할 수 없습니다")
    seen: set[tuple[str, str]] = set()
    found = tried = 0
    for c in tables:
        key = (c.doc.doc_code, c.table_number)
        if key in seen:
            continue
        seen.add(key)
        tried += 1
        hits = lib.search(c.table.title if c.table else "", k=5)
        if any(h.chunk.doc.doc_code == key[0] and h.chunk.table_number == key[1] for h in hits):
            found += 1
    if found * 2 < tried or not found:
        raise StageFailed(f"표 제목으로 찾은 표 {found}/{tried}개")
    return f"표 제목으로 찾은 표 {found}/{tried}개 (상위 5위 안)"


def _questions(st: _State) -> list[Question]:
    """``qa.jsonl`` beside the samples when present (numeric items), else questions from table cells."""
    qa = st.samples / "qa.jsonl"
    out: list[Question] = []
    if qa.is_file():
        for line in qa.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and row.get("qtype") == "numeric" and row.get("question"):
                out.append(Question(str(row["question"]), str(row.get("answer", ""))))
        return out[:MAX_QUESTIONS]
    for c in _table_chunks(st):
        t = c.table
        if t is None or t.header_rows >= t.n_rows:
            continue
        grid = t.grid()
        row = grid[t.header_rows]
        label = row[0].text if row[0] is not None else ""
        for k in range(1, t.n_cols):
            cell = row[k]
            value = cell.text.strip() if cell is not None else ""
            head = " ".join(t.column_headers(k))
            if label and head and value and value.replace(".", "", 1).isdigit():
                out.append(Question(f"{t.title}에서 {label}의 {head}은(는) 얼마인가요?", value))
                break
        if len(out) >= MAX_QUESTIONS:
            break
    return out


def _same_value(answer: str, expected: str) -> bool:
    def norm(s: str) -> str:
        return "".join(s.split()).rstrip("0").rstrip(".") if "." in s else "".join(s.split())

    return norm(answer) == norm(expected)


def _ask(
    st: _State, llm: str, limit: int = MAX_QUESTIONS, on_token: Callable[[str], None] | None = None
) -> tuple[int, int, list[str]]:
    lib = _library(st)
    qs = _questions(st)[:limit]
    if not qs:
        raise StageFailed("확인할 질문을 예제 문서에서 만들지 못했습니다")
    shown = wrong = 0
    notes: list[str] = []
    for q in qs:
        ans = lib.ask(q.text, llm=llm, on_token=on_token)
        st.answers.append(ans)
        if ans.status in ("confirmed", "warning"):
            shown += 1
            if q.expected and ans.value and not _same_value(ans.value, q.expected):
                wrong += 1
                notes.append(f"'{q.text}' → {ans.value} (기대 {q.expected})")
    return shown, len(qs), notes if wrong else []


def _stage_ask_extractive(st: _State) -> str:
    shown, total, wrong = _ask(st, "none")
    if wrong:
        raise StageFailed("확인된 답이 기대값과 다릅니다: " + "; ".join(wrong))
    if not shown:
        raise StageFailed(f"확인된 답이 없습니다(질문 {total}개)")
    return f"질문 {total}개 중 {shown}개 확인된 답, 틀린 값 0개"


class _BudgetSpent(Exception):
    """Raised from the token callback to stop a generation that outlived the stage's time budget."""


def llm_budget_s() -> float:
    """Seconds the LLM stage may generate (``KDSDESK_SELFTEST_LLM_SECONDS``; the smoke test's tiny model rambles)."""
    try:
        return float(os.environ.get("KDSDESK_SELFTEST_LLM_SECONDS", LLM_BUDGET_S))
    except ValueError:
        return LLM_BUDGET_S


def _stage_ask_llm(st: _State) -> str:
    if not st.llm or st.llm == "none":
        raise StageSkipped("LLM(GGUF) 파일이 없어 추출식 답변만 확인했습니다")
    budget = llm_budget_s()
    name = Path(st.llm).name
    started = time.monotonic()
    tokens = 0

    def on_token(piece: str) -> None:
        nonlocal tokens
        tokens += 1
        if time.monotonic() - started > budget:
            raise _BudgetSpent

    before = len(st.answers)
    try:
        shown, total, wrong = _ask(st, st.llm, limit=MAX_LLM_QUESTIONS, on_token=on_token)
    except _BudgetSpent:
        return f"{name}: 토큰 {tokens}개 생성 중 제한 시간({budget:.0f}초)에 멈춤 — 모델 실행 확인, 답은 검증 안 함"
    if wrong:
        raise StageFailed("확인된 답이 기대값과 다릅니다: " + "; ".join(wrong))
    used = ", ".join(sorted({a.answerer for a in st.answers[before:]}))
    return f"{name}: 질문 {total}개, 확인된 답 {shown}개, 틀린 값 0개, 토큰 {tokens}개 (답변기: {used})"


def _stage_verify(st: _State) -> str:
    shown = [a for a in st.answers if a.status in ("confirmed", "warning")]
    if not shown:
        raise StageFailed("검증할 확인된 답이 없습니다")
    n_cites = 0
    for a in shown:
        if not a.citations:
            raise StageFailed(f"인용 없는 확인된 답: '{a.question}'")
        for c in a.citations:
            if not c.verified or c.start < 0 or c.end <= c.start:
                raise StageFailed(f"원문에서 위치가 확인되지 않은 인용: '{c.quote[:40]}'")
            n_cites += 1
        # a warning may carry an advisory check that failed (OCR, stale source, not the first passage); nothing else
        checks = a.verdict.checks
        if not passes(checks) or (a.status == "confirmed" and not all(checks.values())):
            raise StageFailed(f"검사에 실패했는데 확인된 답으로 표시됨: '{a.question}'")
    return f"확인된 답 {len(shown)}개의 인용 {n_cites}개 모두 원문 위치 확인"


def _cited_pdf(st: _State) -> tuple[Path, Citation] | None:
    """A located PDF quote from the answers; else (answers cited HWPX only) a PDF table found by search, cited the
    way verification cites (``verify.quotes.cite``), so the highlight path is checked whichever format answered."""
    for a in st.answers:
        for c in a.citations:
            if c.chunk.doc.kind == "pdf" and c.rects:
                return Path(c.chunk.doc.file), c
    from kdsdesk.verify.quotes import cite

    lib = _library(st)
    for table in _table_chunks(st):
        for hit in lib.search(table.table.title if table.table else "", k=5):
            chunk = hit.chunk
            if chunk.doc.kind == "pdf" and chunk.spans:
                citation = cite(chunk, chunk.text[: min(len(chunk.text), 40)])
                if citation.rects:
                    return Path(chunk.doc.file), citation
    return None


def _stage_render(st: _State) -> str:
    """Render the cited page whole, paint the quote's rectangles as the viewer does, and look at the pixels:
    inside the rectangles there must be text (the rectangles sit on the quote) and the highlight colour."""
    import numpy as np
    import pymupdf as _pymupdf

    pymupdf: Any = _pymupdf  # untyped engine calls
    found = _cited_pdf(st)
    if found is None:
        raise StageFailed("위치(사각형)가 있는 PDF 인용이 없습니다")
    pdf, cite = found
    page_index = cite.rects[0][0]
    rects = [pymupdf.Rect(r[1:]) for r in cite.rects if r[0] == page_index]
    zoom = 2.0
    with pymupdf.open(pdf) as doc:
        page = doc[page_index]
        before = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom))
        for rect in rects:
            page.draw_rect(rect, color=None, fill=HIGHLIGHT_RGB, fill_opacity=0.4, overlay=True)
        after = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom))
        where = f"{pdf.name} {page_index + 1}쪽 ({after.width}×{after.height}px)"
    height, width = int(before.height), int(before.width)
    a0 = np.frombuffer(before.samples, dtype=np.uint8).reshape(height, width, before.n)[..., :3]
    a1 = np.frombuffer(after.samples, dtype=np.uint8).reshape(after.height, after.width, after.n)[..., :3]
    mask = np.zeros((height, width), dtype=bool)
    for rect in rects:
        x0, y0 = max(0, int(rect.x0 * zoom)), max(0, int(rect.y0 * zoom))
        x1, y1 = min(width, int(rect.x1 * zoom)), min(height, int(rect.y1 * zoom))
        mask[y0:y1, x0:x1] = True
    if not mask.any():
        raise StageFailed(f"인용 위치가 쪽 밖에 있습니다({where})")
    ink = float((a0[mask].max(axis=1) < 128).mean())  # text pixels under the highlight
    r, g, b = (a1[mask][:, i].astype(int) for i in range(3))
    yellow = float(((r - b > 60) & (g - b > 40)).mean())
    outside_changed = float((a0[~mask] != a1[~mask]).any(axis=1).mean()) if (~mask).any() else 0.0
    if ink <= 0.01:
        raise StageFailed(f"강조 위치에 글자가 없습니다({where})")
    if yellow < 0.9 or outside_changed > 0.01:
        raise StageFailed(f"강조가 인용 위치에 그려지지 않았습니다(강조색 {yellow:.0%}, 밖 {outside_changed:.0%})")
    return f"{where}: 강조 {len(rects)}곳, 강조 안 강조색 화소 {yellow:.0%}, 글자 화소 {ink:.0%}"


def _stage_offline(st: _State) -> str:
    if st.network:
        raise StageFailed(f"네트워크 연결 시도 {len(st.network)}회: {st.network[0]}")
    return "네트워크 연결 시도 0회"


def _library(st: _State) -> Library:
    if st.library is None:
        raise StageFailed("색인 단계가 실패해 진행할 수 없습니다")
    return st.library


STAGES: tuple[tuple[str, str, Callable[[_State], str]], ...] = (
    ("models", "모델 점검", _stage_models),
    ("parse", "문서 분석", _stage_parse),
    ("index", "색인", _stage_index),
    ("search", "검색", _stage_search),
    ("ask", "답변(추출식)", _stage_ask_extractive),
    ("ask_llm", "답변(LLM)", _stage_ask_llm),
    ("verify", "검증", _stage_verify),
    ("render", "근거 쪽 렌더링", _stage_render),
    ("offline", "오프라인", _stage_offline),
)


def run_selftest(
    samples: Path | None = None, llm: str | None = None, emit: Callable[[str], None] = print
) -> list[StageResult]:
    """Run every stage in a temporary library, emitting one line per stage and a summary; return the results."""
    results: list[StageResult] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="kdsdesk-selftest-") as tmp:
        st = _State(samples=Path(samples) if samples else paths.resource("samples"), workdir=Path(tmp), llm=llm)
        _watch_network(st.network)
        try:
            for key, title, fn in STAGES:
                t0 = time.monotonic()
                outcome: Outcome = "pass"
                try:
                    detail = fn(st)
                except StageSkipped as exc:
                    outcome, detail = "skip", str(exc)
                except (StageFailed, KnownError) as exc:
                    outcome, detail = "fail", str(exc)
                except Exception as exc:  # a bug is a failed stage; the run goes on
                    log.exception("selftest stage %s", key)
                    outcome, detail = "fail", f"오류 {type(exc).__name__}: {exc}"
                result = StageResult(key, title, outcome, detail, time.monotonic() - t0)
                results.append(result)
                emit(result.line())
        finally:
            _watch.remove(st.network)
            if st.library is not None:
                st.library.close()
    failed = [r for r in results if r.outcome == "fail"]
    passed = sum(r.outcome == "pass" for r in results)
    total = time.monotonic() - started
    if failed:
        emit(f"자체 점검 실패: {len(failed)}개 단계 실패({', '.join(r.title for r in failed)}), "
             f"{passed}개 통과 ({total:.1f}초)")
    else:
        emit(f"자체 점검 통과: {passed}개 단계 통과, {len(results) - passed}개 건너뜀 ({total:.1f}초)")
    return results


def main(samples: Path | None = None, llm: str | None = None) -> int:
    results = run_selftest(samples, llm=llm, emit=lambda s: print(s, flush=True))
    return 0 if all(r.outcome != "fail" for r in results) else 1
