"""``parse_isolated``: the parse runs in a spawned worker; a hang or a crash becomes a Korean ``KnownError``."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kdsdesk.errors import KnownError
from kdsdesk.ingest.isolate import parse_isolated
from tests.data import isolate_targets
from tests.data.pdf_docs import encrypted_pdf, standard_pdf


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return standard_pdf(tmp_path / "std.pdf", n_pages=1)


@pytest.mark.slow
def test_parses_in_a_worker(pdf: Path) -> None:
    parsed = parse_isolated(pdf, timeout_s=60)
    assert parsed.doc.kind == "pdf"
    assert any(b.kind == "heading" for b in parsed.blocks)


@pytest.mark.slow
def test_hang_becomes_known_error_after_the_timeout(pdf: Path) -> None:
    start = time.monotonic()
    with pytest.raises(KnownError, match="제한 시간") as info:
        parse_isolated(pdf, timeout_s=2, target=isolate_targets.hang)
    assert time.monotonic() - start < 30  # the worker was killed, not waited for
    assert info.value.path == str(pdf.resolve())


@pytest.mark.slow
def test_crash_becomes_known_error(pdf: Path) -> None:
    with pytest.raises(KnownError, match="비정상 종료"):
        parse_isolated(pdf, timeout_s=60, target=isolate_targets.crash)


@pytest.mark.slow
def test_known_error_in_the_worker_keeps_its_message(tmp_path: Path) -> None:
    with pytest.raises(KnownError, match="암호"):
        parse_isolated(encrypted_pdf(tmp_path / "enc.pdf"), timeout_s=60)


@pytest.mark.slow
def test_a_parser_bug_is_not_disguised_as_the_users_problem(pdf: Path) -> None:
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        parse_isolated(pdf, timeout_s=60, target=isolate_targets.bug)


@pytest.mark.slow
def test_ocr_progress_comes_from_the_worker_and_cancel_kills_it(tmp_path: Path) -> None:
    """Outline lettering is read by OCR inside the worker: its progress reaches the parent; a cancel ends the
    worker at once (``Cancelled``), even one that would hang."""
    import threading

    from kdsdesk.errors import Cancelled
    from tests.data.outline_docs import outlined_table_pdf

    seen: list[tuple[str, int, int]] = []
    parsed = parse_isolated(outlined_table_pdf(tmp_path / "o.pdf"), timeout_s=120,
                            progress=lambda stage, done, total: seen.append((stage, done, total)))
    assert parsed.ocr_engine
    assert seen
    assert seen[-1][1] == seen[-1][2] > 0
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    start = time.monotonic()
    with pytest.raises(Cancelled):
        parse_isolated(tmp_path / "o.pdf", timeout_s=120, target=isolate_targets.hang, cancel=cancel)
    assert time.monotonic() - start < 30


@pytest.mark.slow
def test_memory_budget_ends_the_worker_with_a_korean_message(pdf: Path) -> None:
    with pytest.raises(KnownError, match="메모리가 한도"):
        parse_isolated(pdf, timeout_s=120, memory_mb=300, target=isolate_targets.hog)


@pytest.mark.slow
def test_time_budget_is_enforced_inside_the_worker(pdf: Path) -> None:
    """The worker's own watchdog ends it (exit code read by the parent) — same Korean message."""
    with pytest.raises(KnownError, match="제한 시간"):
        parse_isolated(pdf, timeout_s=1, target=isolate_targets.hang)


@pytest.mark.slow
def test_worker_exits_when_its_parent_is_killed(pdf: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    from kdsdesk.proc import alive

    script = (
        "from pathlib import Path; from kdsdesk.ingest.isolate import parse_isolated; "
        "from tests.data import isolate_targets; "
        f"parse_isolated(Path({str(pdf)!r}), timeout_s=600, target=isolate_targets.hang_with_pid)"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[3])
    pid_file = pdf.parent / "worker.pid"
    try:
        for _ in range(600):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.1)
        worker = int(pid_file.read_text())
        assert alive(worker)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(30)
        for _ in range(300):  # polled, not timed: the worker must go by itself, however long the machine takes
            if not alive(worker) or _zombie(worker):
                break
            time.sleep(0.1)
        assert not alive(worker) or _zombie(worker)
    finally:
        if parent.poll() is None:
            parent.kill()


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False
