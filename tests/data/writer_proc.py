"""A writer in another process for the concurrency tests: indexes synthetic spec files (``fake_parse``, a pause
per file) into a library while the test reads it. The process prints ``started`` before its first file and
exits 0 when every file is searchable (the lock is held once ``started`` is printed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.data.synthetic_docs import write_spec

REPO = Path(__file__).resolve().parents[2]

WRITER = """
import sys
from pathlib import Path
from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import Catalog
from tests.data.synthetic_docs import fake_parse
cat = Catalog(Path(sys.argv[1]))
gen = add_files(cat, [Path(p) for p in sys.argv[2:]], parse=fake_parse)
next(gen)  # the writer lock is taken
print("started", flush=True)
try:
    while True:
        next(gen)
except StopIteration as stop:
    report = stop.value
cat.close()
sys.exit(0 if len(report.added) + len(report.replaced) + len(report.skipped) == len(sys.argv) - 2 else 3)
"""


def spec(i: int, sleep: float = 0.4) -> dict[str, Any]:
    return {
        "code": f"KDS 91 00 {i:02d}",
        "title": "동시 읽기 시험",
        "year": "2024",
        "sleep": sleep,
        "blocks": [
            [f"{j}.1", "text", f"(1) 동시어휘{i:02d} 조항 {j}: 허용 처짐은 {j}.5 mm 이하로 한다."] for j in range(1, 12)
        ],
    }


def spec_files(folder: Path, ids: range, sleep: float = 0.4) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [write_spec(folder / f"c{i:02d}.pdf", spec(i, sleep)) for i in ids]


def start_writer(root: Path, files: list[Path]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(root), *map(str, files)],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "started"
    return proc
