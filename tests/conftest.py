"""Shared test fixtures: an isolated library folder per test, the shared corpus, gui auto-marking.

The shared corpus (``../shared``, or ``KDSDESK_SHARED``) is test material outside the repository. Without it the
tests that read it are skipped, and one line at the end of the run says how many and why; under ``CI=true`` its
absence stops the run before any test, with that message — CI must never pass by skipping.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KDSDESK_SHARED", REPO.parent / "shared")).resolve()
CORPUS = SHARED / "corpus"
SAMPLES = CORPUS / "samples"
SHARED_MISSING = f"the shared corpus is not at {CORPUS} (put shared/ beside the repository or set KDSDESK_SHARED)"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def corpus_files(pattern: str) -> list[Any]:
    """Parameters for a test run once per corpus file matching ``pattern`` (recursive glob); without the corpus,
    one parameter that is skipped for that reason (never an empty parameter set)."""
    if not CORPUS.is_dir():
        return [pytest.param(None, id="no-corpus", marks=pytest.mark.skip(reason=SHARED_MISSING))]
    return [pytest.param(p, id=p.name) for p in sorted(CORPUS.rglob(pattern))]


def pytest_sessionstart(session: pytest.Session) -> None:
    if in_ci() and not CORPUS.is_dir():
        pytest.exit(f"CI=true and {SHARED_MISSING}: the tests that read it would be skipped, so the run fails.",
                    returncode=pytest.ExitCode.USAGE_ERROR)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line per skip reason (how many tests, why) instead of one per test location."""
    reasons: Counter[str] = Counter()
    for rep in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(rep, "longrepr", None)
        reasons[longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)] += 1
    for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        terminalreporter.write_line(f"SKIPPED {n} test{'s' if n != 1 else ''}: {reason.removeprefix('Skipped: ')}")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "kdsdesk-home"
    monkeypatch.setenv("KDSDESK_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(SHARED_MISSING)
    return CORPUS


@pytest.fixture(scope="session")
def samples(corpus: Path) -> Path:
    return corpus / "samples"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "qtbot" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.gui)
