"""Parse a file in a worker process with a time limit, so a hostile file can neither crash nor hang the app.

The worker uses the ``spawn`` start method (safe with threads and Qt in the parent) and returns the pickled
``ParsedDoc``; ``KnownError`` raised in the worker is re-raised here with its Korean message.
"""

from __future__ import annotations

import multiprocessing as mp
import queue
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from kdsdesk.errors import KnownError
from kdsdesk.records import ParsedDoc

DEFAULT_TIMEOUT_S = 300.0


Parser = Callable[[Path], ParsedDoc]


def _worker(path: str, conn: Connection, target: Parser | None = None) -> None:
    try:
        if target is None:
            from kdsdesk.ingest.dispatch import parse_file

            target = parse_file
        conn.send(("ok", target(Path(path))))
    except KnownError as exc:
        conn.send(("known", exc.message))
    except Exception as exc:  # noqa: BLE001 — reported to the parent, which logs it as a bug
        import traceback

        conn.send(("bug", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
    finally:
        conn.close()


def parse_isolated(path: Path, timeout_s: float = DEFAULT_TIMEOUT_S, *, target: Parser | None = None) -> ParsedDoc:
    """``parse_file`` in a child process; ``KnownError`` on a crash, a time-out or a file we cannot read.

    ``target`` replaces ``parse_file`` (a module-level function, so the spawned child can import it; tests use it
    to simulate a hang or a crash).
    """
    path = Path(path).resolve()
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_worker, args=(str(path), child, target), daemon=True)
    proc.start()
    child.close()
    try:
        if not parent.poll(timeout_s):
            raise KnownError(
                f"파일 분석이 제한 시간({timeout_s:.0f}초)을 넘어 중단했습니다. 파일이 손상되었거나 너무 복잡합니다.",
                path=str(path),
            )
        try:
            status, payload = parent.recv()
        except (EOFError, OSError, queue.Empty) as exc:
            raise KnownError(
                "파일을 분석하던 작업 프로세스가 비정상 종료했습니다. 파일이 손상되었을 수 있습니다.", path=str(path)
            ) from exc
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
    if status == "ok":
        assert isinstance(payload, ParsedDoc)
        return payload
    if status == "known":
        raise KnownError(str(payload), path=str(path))
    raise RuntimeError(f"parser bug on {path}: {payload}")
