"""One writer, many readers: CLI readers (``search``, ``list``, ``ask``) run in a loop in another process while a
writer indexes; neither side sees an error, readers never repair or take the writer's lock, a second writer is
told in Korean that indexing is running, and the writer finishes every file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kdsdesk import cli
from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import Catalog
from kdsdesk.service import drain
from tests.data.synthetic_docs import fake_parse
from tests.data.writer_proc import REPO, spec_files, start_writer

READER = """
import io, json, sys, contextlib
from pathlib import Path
from kdsdesk import cli
lib, stop = sys.argv[1], Path(sys.argv[2])
runs = errors = 0
seen = set()
while not stop.exists() or runs < 6:
    for argv in (["search", "--json", "--lexical", "동시어휘00", "--library", lib],
                 ["list", "--json", "--library", lib],
                 ["ask", "--json", "--llm", "none", "동시어휘01 허용 처짐은?", "--library", lib]):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
        runs += 1
        if code not in (0, 1 if argv[0] == "ask" else 0) or err.getvalue().strip():  # ask: 1 = not confirmed
            errors += 1
            print("ERROR", argv[0], code, err.getvalue()[-500:], file=sys.stderr)
        if argv[0] == "list":
            seen.add(sum(d["status"] == "searchable" for d in json.loads(out.getvalue())))
        if argv[0] == "ask":
            json.loads(out.getvalue())  # JSON only on stdout
print(json.dumps({"runs": runs, "errors": errors, "seen": sorted(seen)}))
"""


@pytest.mark.slow
def test_cli_readers_and_a_writer_run_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "lib"
    first = spec_files(tmp_path / "docs", range(2), sleep=0)
    cat = Catalog(root)
    drain(add_files(cat, first, parse=fake_parse))
    cat.close()
    more = spec_files(tmp_path / "docs", range(2, 10))
    stop = tmp_path / "writer-done"
    writer = start_writer(root, more)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(root), str(stop)], cwd=REPO, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        # a second writer, meanwhile: told in Korean, nothing changed
        code = cli.main(["index", str(more[0]), "--no-dense", "--library", str(root)])
        err = capsys.readouterr().err
        assert code == 2
        assert "다른 색인 작업" in err
        assert "Traceback" not in err
        _, werr = writer.communicate(timeout=300)
        assert writer.returncode == 0, werr
        stop.touch()
        rout, rerr = reader.communicate(timeout=300)
    finally:
        for p in (writer, reader):
            if p.poll() is None:
                p.kill()
    assert reader.returncode == 0, rerr
    for word in ("Traceback", "LockBusy", "ERROR"):
        assert word not in rerr, rerr
    result = json.loads(rout.strip().splitlines()[-1])
    assert result["errors"] == 0
    assert result["runs"] >= 6
    assert min(result["seen"]) >= 2  # what was committed before stays visible throughout
    cat = Catalog(root)
    docs = cat.documents()
    cat.close()
    assert len(docs) == 10
    assert all(d.status == "searchable" for d in docs)
    assert "색인이 중간에" not in " ".join(d.message for d in docs)  # no reader mistook the writer for a crash
