"""Event-loop latency of the real window while it indexes: a 10 ms QTimer records how late each tick is.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_gui_latency.py [--copies N]

Indexes the bundled samples plus N modified copies of them into a temporary library through the window's
controller (the same lanes the app uses) and prints tick lateness percentiles (measured, not asserted).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent


def make_inputs(folder: Path, copies: int) -> list[Path]:
    samples = sorted((REPO / "resources" / "samples").iterdir())
    out = []
    for i in range(copies + 1):
        for src in samples:
            dest = folder / f"{src.stem}-{i}{src.suffix}"
            shutil.copy2(src, dest)
            if i and dest.suffix == ".hwpx":
                with zipfile.ZipFile(dest, "a") as z:
                    z.comment = f"copy {i}".encode()
            elif i:
                with dest.open("ab") as f:  # a trailing comment after %%EOF changes the hash only
                    f.write(f"\n% copy {i}\n".encode())
            out.append(dest)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--interval-ms", type=int, default=10)
    ap.add_argument("--no-warm-up", action="store_true", help="skip Library.warm_up() (shows the Kiwi-load stall)")
    args = ap.parse_args()

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from kdsdesk.service import Library
    from kdsdesk.ui.controller import Controller
    from kdsdesk.ui.main_window import MainWindow, load_korean_font

    app = QApplication(sys.argv[:1])
    load_korean_font(app)
    with tempfile.TemporaryDirectory() as tmp:
        inputs = make_inputs(Path(tmp), args.copies)
        lib = Library(Path(tmp) / "library")
        t_warm = time.perf_counter()
        if not args.no_warm_up:
            lib.warm_up()  # as run_gui does before its event loop (Kiwi holds the GIL while it loads)
        warm_s = time.perf_counter() - t_warm
        controller = Controller(lib)
        window = MainWindow(controller, Path(tmp) / "log.txt")
        window.show()
        late: list[float] = []
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            if controller.is_indexing():
                late.append((now - last[0]) * 1000 - args.interval_ms)
            last[0] = now

        timer = QTimer()
        timer.setInterval(args.interval_ms)
        timer.timeout.connect(tick)
        timer.start()
        t0 = time.perf_counter()
        controller.indexing_changed.connect(lambda running: None if running else app.quit())
        controller.add_paths(inputs)
        app.exec()
        wall = time.perf_counter() - t0
        timer.stop()
        controller.shutdown()
    late.sort()
    q = statistics.quantiles(late, n=100) if len(late) >= 2 else [0.0] * 99
    print(f"warm-up before the event loop {warm_s:.1f} s")
    print(f"files {len(inputs)}  indexing wall {wall:.1f} s  ticks {len(late)} (interval {args.interval_ms} ms)")
    print(f"tick lateness ms: p50 {q[49]:.1f}  p95 {q[94]:.1f}  p99 {q[98]:.1f}  max {max(late, default=0):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
