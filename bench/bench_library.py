"""The whole-library case: all 350 KCSC standards (built by ``bench/kcsc_build.py``) plus the real KDS PDFs in one
library, measured end to end.

    .venv/bin/python bench/bench_library.py [--kind hwpx|pdf] [--reuse] [--screenshot PNG] [--json OUT]

(builds the standards with ``bench/kcsc_build.py`` first when they are not there)

Figures (printed as a markdown table; measured, never asserted):
- indexing: ``kdsdesk index … --no-dense`` wall and CPU (the process and its parse workers), peak RSS of the
  largest process, chunks, index size on disk; Kiwi alone over the same chunk texts (``analyze_many``) for scale;
- queries: ``Library.search`` and ``Library.ask(llm="none")`` p50/p95 over the development questions of
  ``bench/out/kcsc/qa/*.jsonl`` (split by standard), after one warm-up question;
- the window (a child process, offscreen, as ``run_gui`` starts): time from launch to the first paint of the main
  window and to ready (Kiwi loaded, the library listed); the longest event-loop stall (10 ms timer) while the list
  is filtered to one field and while one standard is re-indexed; with ``--screenshot`` the window filtered to
  one field is saved;
- one-file re-index from the command line (a changed copy of one standard);
- ``kdsdesk pack export`` / ``pack import``: size and time.

``--reuse`` keeps an already indexed ``bench/out/lib-bench-<kind>`` (skips the indexing figures).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "bench" / "out"
KCSC = OUT / "kcsc"
REAL = ROOT.parent / "shared" / "corpus" / "real" / "kds"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
KDSDESK = [sys.executable, "-m", "kdsdesk"]
REINDEX_STEM = "KDS_14_20_22_part1"  # the standard whose changed copy is re-indexed
FILTER_WORD = "24 교량"  # the field 24 교량, typed as its label


def _children_usage() -> tuple[float, int]:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def run_measured(cmd: Sequence[str]) -> dict[str, Any]:
    """Run ``cmd``; wall, CPU of it and its waited-for children, peak RSS (MB) of the largest process."""
    cpu0, _ = _children_usage()
    t0 = time.perf_counter()
    proc = subprocess.run(list(cmd), env=ENV, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    cpu1, rss = _children_usage()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:6])} … failed:\n{proc.stderr[-2000:]}")
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu1 - cpu0, 1), "peak_rss_mb": round(rss / 1024),
            "stdout": proc.stdout}


def inputs(kind: str, work: Path) -> list[Path]:
    """The built standards of ``kind`` (one of them as a copy that the re-index step changes) and the real PDFs."""
    files = sorted((KCSC / kind).glob(f"*.{kind}"))
    if len(files) < 300:  # not built yet: build the 350 standards first (a few minutes)
        from bench.kcsc_build import main as build

        build([])
        files = sorted((KCSC / kind).glob(f"*.{kind}"))
    work.mkdir(parents=True, exist_ok=True)
    out = []
    for f in files:
        if f.stem == REINDEX_STEM:
            dest = work / f.name
            shutil.copy2(f, dest)
            out.append(dest)
        else:
            out.append(f)
    return out + sorted(REAL.glob("*.pdf"))


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and "logs" not in p.parts)


def pct(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return round(s[min(len(s) - 1, round(q * (len(s) - 1)))], 1) if s else 0.0


def dev_questions() -> list[dict[str, Any]]:
    from kdsdesk.evaluation.split import item_split

    items = []
    for f in sorted((KCSC / "qa").glob("*.jsonl")):
        items += [json.loads(x) for x in f.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [i for i in items if item_split(i) == "dev"]


def kiwi_alone(lib: Path) -> dict[str, Any]:
    from kdsdesk.index.library import Catalog
    from kdsdesk.text.korean import analyze_many, warm_up

    cat = Catalog(lib)
    try:
        texts = [c.text for c in cat.iter_chunks()]
    finally:
        cat.close()
    warm_up()
    c0, t0 = time.process_time(), time.perf_counter()
    analyze_many(texts)
    return {"chunks": len(texts), "chars": sum(map(len, texts)), "kiwi_cpu_s": round(time.process_time() - c0, 1),
            "kiwi_wall_s": round(time.perf_counter() - t0, 1)}


def query_latency(lib: Path, questions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    from kdsdesk.service import Library

    library = Library(lib)
    try:
        t0 = time.perf_counter()
        library.search(str(questions[0]["question"]), k=20)
        first = (time.perf_counter() - t0) * 1000
        search_ms, ask_ms = [], []
        for q in questions:
            t0 = time.perf_counter()
            library.search(str(q["question"]), k=20)
            search_ms.append((time.perf_counter() - t0) * 1000)
        for q in questions:
            t0 = time.perf_counter()
            library.ask(str(q["question"]), llm="none")
            ask_ms.append((time.perf_counter() - t0) * 1000)
    finally:
        library.close()
    return {"questions": len(questions), "first_search_ms": round(first), "search_p50_ms": pct(search_ms, 0.5),
            "search_p95_ms": pct(search_ms, 0.95), "search_max_ms": pct(search_ms, 1.0),
            "ask_p50_ms": pct(ask_ms, 0.5), "ask_p95_ms": pct(ask_ms, 0.95), "ask_max_ms": pct(ask_ms, 1.0)}


def touch_copy(path: Path, n: int) -> None:
    """Change a file's bytes without changing its content (a zip comment / a trailing PDF comment)."""
    if path.suffix == ".hwpx":
        with zipfile.ZipFile(path, "a") as z:
            z.comment = f"bench re-index {n}".encode()
    else:
        with path.open("ab") as f:
            f.write(f"\n% bench re-index {n}\n".encode())


# -- the window, in a child process -----------------------------------------------------------------------------
def window_probe(lib: Path, reindex_file: str, screenshot: str, launched: float) -> int:
    """Start like ``run_gui``; print first paint, ready, and the longest stalls while filtering and re-indexing."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    from kdsdesk.service import Library
    from kdsdesk.ui.controller import Controller
    from kdsdesk.ui.garbage import GuiGarbageCollector
    from kdsdesk.ui.main_window import MainWindow, load_korean_font

    out: dict[str, Any] = {"imports_s": round(time.time() - launched, 2)}
    app = QApplication(["kdsdesk"])
    load_korean_font(app)
    collector = GuiGarbageCollector(app)
    gc_ms: list[float] = []
    collect = collector.collect_due

    def timed_collect() -> int:
        t0 = time.perf_counter()
        n = collect()
        gc_ms.append((time.perf_counter() - t0) * 1000)
        return n

    collector.collect_due = timed_collect  # type: ignore[method-assign]
    t0 = time.perf_counter()
    library = Library(lib)
    out["open_library_s"] = round(time.perf_counter() - t0, 2)
    controller = Controller(library)
    window = MainWindow(controller, lib / "logs" / "bench.log")

    class FirstPaint(QObject):
        def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
            if ev.type() == QEvent.Type.Paint and "first_paint_s" not in out:
                out["first_paint_s"] = round(time.time() - launched, 2)
            return False

    spy = FirstPaint()
    window.installEventFilter(spy)
    window.resize(1440, 900)
    window.show()
    app.processEvents()
    t0 = time.perf_counter()
    library.warm_up()
    out["kiwi_load_s"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()
    controller.refresh_documents()
    app.processEvents()
    out["list_s"] = round(time.perf_counter() - t0, 2)
    n_docs = len(window.library_panel.documents())
    out["ready_s"] = round(time.time() - launched, 2)
    out["documents"] = n_docs

    late: list[float] = []
    phase = [""]
    last = [time.perf_counter()]
    stalls: dict[str, float] = {}

    def tick() -> None:
        now = time.perf_counter()
        if phase[0]:
            stalls[phase[0]] = max(stalls.get(phase[0], 0.0), (now - last[0]) * 1000 - 10)
            late.append((now - last[0]) * 1000 - 10)
        last[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    timer.start()

    def step_filter() -> None:
        phase[0] = "filter"
        window.library_panel.filter.setText(FILTER_WORD)  # typed: applied after the debounce
        QTimer.singleShot(800, step_shot)

    def step_shot() -> None:
        phase[0] = ""
        panel = window.library_panel
        out["filtered_rows"] = sum(
            1 for i in range(panel.tree.topLevelItemCount())
            if (g := panel.tree.topLevelItem(i)) is not None and not g.isHidden()
            for k in range(g.childCount()) if (c := g.child(k)) is not None and not c.isHidden()
        )
        if screenshot:
            window.grab().save(screenshot)
        QTimer.singleShot(100, step_reindex)

    def step_reindex() -> None:
        phase[0] = "reindex"
        t0 = time.perf_counter()

        def done(running: bool) -> None:
            if not running and phase[0] == "reindex":
                out["reindex_window_s"] = round(time.perf_counter() - t0, 2)
                phase[0] = ""
                QTimer.singleShot(1200, finish)  # the catalog refresh after it

        controller.indexing_changed.connect(done)
        touch_copy(Path(reindex_file), 2)
        controller.reindex([reindex_file])

    def finish() -> None:
        out["stall_filter_ms"] = round(stalls.get("filter", 0.0), 1)
        out["stall_reindex_ms"] = round(stalls.get("reindex", 0.0), 1)
        out["ticks"] = len(late)
        out["gc_max_ms"] = round(max(gc_ms, default=0.0), 1)
        print(json.dumps(out))
        controller.shutdown()
        collector.stop()
        app.quit()

    QTimer.singleShot(300, step_filter)
    app.exec()
    return 0


def window(lib: Path, reindex_file: Path, screenshot: str) -> dict[str, Any]:
    launched = time.time()
    proc = subprocess.run([*[sys.executable, str(Path(__file__).resolve())], "--window-probe", str(lib),
                           "--reindex-file", str(reindex_file), "--screenshot", screenshot,
                           "--launched", repr(launched)], env=ENV, cwd=ROOT, capture_output=True, text=True,
                          timeout=900)
    lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"window probe failed:\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kind", choices=("hwpx", "pdf"), default="hwpx")
    ap.add_argument("--reuse", action="store_true", help="keep an indexed library (no indexing figures)")
    ap.add_argument("--screenshot", default="")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--only-window", action="store_true", help="with --reuse: the window figures only")
    ap.add_argument("--window-probe", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--reindex-file", default="", help=argparse.SUPPRESS)
    ap.add_argument("--launched", type=float, default=0.0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.window_probe:
        return window_probe(args.window_probe, args.reindex_file, args.screenshot, args.launched or time.time())

    lib = OUT / f"lib-bench-{args.kind}"
    work = OUT / f"bench-copy-{args.kind}"
    files = inputs(args.kind, work)
    copy = next(f for f in files if f.parent == work)
    fig: dict[str, Any] = {"files": len(files), "kind": args.kind,
                           "machine": f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}",
                           "date": time.strftime("%Y-%m-%d %H:%M")}
    if not (args.reuse and lib.exists()):
        shutil.rmtree(lib, ignore_errors=True)
        print(f"indexing {len(files)} files …", file=sys.stderr, flush=True)
        r = run_measured([*KDSDESK, "index", "--library", str(lib), *map(str, files), "--no-dense"])
        fig["index"] = {k: v for k, v in r.items() if k != "stdout"}
        fig["index"]["size_mb"] = round(dir_size(lib) / 1e6, 1)
        fig["kiwi_alone"] = kiwi_alone(lib)
    if args.only_window:
        fig["window"] = window(lib, copy, args.screenshot)
        print(json.dumps(fig, ensure_ascii=False, indent=1))
        return 0
    print("queries …", file=sys.stderr, flush=True)
    fig["queries"] = query_latency(lib, dev_questions())
    print("one-file re-index …", file=sys.stderr, flush=True)
    touch_copy(copy, 1)
    r = run_measured([*KDSDESK, "index", "--library", str(lib), str(copy), "--no-dense"])
    fig["reindex_one_cli"] = {"wall_s": r["wall_s"], "cpu_s": r["cpu_s"]}
    print("window …", file=sys.stderr, flush=True)
    fig["window"] = window(lib, copy, args.screenshot)
    print("pack …", file=sys.stderr, flush=True)
    pack = OUT / f"bench-{args.kind}.kdspack"
    pack.unlink(missing_ok=True)
    r = run_measured([*KDSDESK, "pack", "export", "--library", str(lib), str(pack)])
    fig["pack_export"] = {"wall_s": r["wall_s"], "size_mb": round(pack.stat().st_size / 1e6, 1)}
    other = OUT / f"lib-bench-{args.kind}-imported"
    shutil.rmtree(other, ignore_errors=True)
    r = run_measured([*KDSDESK, "pack", "import", "--library", str(other), str(pack)])
    fig["pack_import"] = {"wall_s": r["wall_s"]}
    shutil.rmtree(other, ignore_errors=True)
    print(json.dumps(fig, ensure_ascii=False, indent=1))
    if args.json:
        args.json.write_text(json.dumps(fig, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
