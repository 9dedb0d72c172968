"""The window's controller is a reader of a library another process is indexing: documents refresh and
questions are answered throughout with no failure on either side; when the writer is gone the window may index."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import Catalog
from kdsdesk.service import Library, drain
from tests.data.synthetic_docs import fake_parse
from tests.data.writer_proc import spec_files, start_writer


@pytest.mark.slow
def test_controller_reads_while_a_cli_writer_indexes(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from kdsdesk.ui.controller import Controller

    root = tmp_path / "lib"
    cat = Catalog(root)
    drain(add_files(cat, spec_files(tmp_path / "docs", range(2), sleep=0), parse=fake_parse))
    cat.close()
    writer = start_writer(root, spec_files(tmp_path / "docs", range(2, 8)))
    controller = Controller(Library(root))
    failures: list[BaseException] = []
    controller.failure.connect(failures.append)
    counts: list[int] = []
    try:
        while writer.poll() is None or len(counts) < 3:
            with qtbot.waitSignal(controller.documents_changed, timeout=10000):
                controller.refresh_documents()
            counts.append(sum(d.status == "searchable" for d in controller.documents))
            with qtbot.waitSignal(controller.answer_ready, timeout=120000) as answered:
                controller.ask("동시어휘01 허용 처짐은?", llm="none")
            assert answered.args[0].hits  # the committed documents are searched
            # as in the window: the next action waits for the event loop to have handled the worker's end
            qtbot.waitUntil(lambda: not controller.llm_lane.busy(), timeout=30000)
        _, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err
        with qtbot.waitSignal(controller.documents_changed, timeout=10000):
            controller.refresh_documents()
        assert [d.status for d in controller.documents] == ["searchable"] * 8
        assert not failures
        assert min(counts) >= 2
        assert counts == sorted(counts)  # never saw committed documents vanish
    finally:
        if writer.poll() is None:
            writer.kill()
        assert controller.shutdown(30000)
        controller.library.close()
