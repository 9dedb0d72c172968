"""Self-test: one line per stage and a summary, exit code, network watch, and an offline end-to-end run."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from kdsdesk.cli import main as cli_main
from kdsdesk.evaluation import selftest

REPO = Path(__file__).resolve().parents[3]


def _block_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError("network is disabled in this test")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def test_missing_samples_fail_with_a_summary(tmp_path: Path) -> None:
    lines: list[str] = []
    results = selftest.run_selftest(tmp_path / "없는 폴더", llm="none", emit=lines.append)
    assert len(lines) == len(selftest.STAGES) + 1  # one line per stage, then the summary
    by_key = {r.key: r for r in results}
    assert by_key["parse"].outcome == "fail"
    assert "예제 문서 폴더가 없습니다" in by_key["parse"].detail
    assert by_key["search"].outcome == "fail"  # depends on the index stage
    assert by_key["ask_llm"].outcome == "skip"
    assert by_key["offline"].outcome == "pass"
    assert lines[-1].startswith("자체 점검 실패")
    assert all(line.startswith(("[통과]", "[실패]", "[건너뜀]")) for line in lines[:-1])


def test_network_attempt_fails_the_offline_stage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def phone_home(st: Any) -> str:
        try:
            socket.create_connection(("192.0.2.1", 9), timeout=0.01)  # TEST-NET-1: never routable
        except OSError:
            pass
        return "tried"

    stages = (("phone", "연결 시도", phone_home), *[s for s in selftest.STAGES if s[0] == "offline"])
    monkeypatch.setattr(selftest, "STAGES", stages)
    lines: list[str] = []
    results = selftest.run_selftest(tmp_path, llm="none", emit=lines.append)
    assert results[-1].key == "offline"
    assert results[-1].outcome == "fail"
    assert "네트워크 연결 시도" in results[-1].detail
    assert "192.0.2.1" in results[-1].detail
    assert lines[-1].startswith("자체 점검 실패")


def test_exit_code_follows_failures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selftest, "STAGES", (("ok", "좋음", lambda st: "fine"),))
    assert selftest.main(tmp_path, llm="none") == 0

    def boom(st: Any) -> str:
        raise RuntimeError("bug")

    monkeypatch.setattr(selftest, "STAGES", (("ok", "좋음", lambda st: "fine"), ("bad", "나쁨", boom)))
    assert selftest.main(tmp_path, llm="none") == 1


def test_same_value() -> None:
    assert selftest._same_value("0.75", "0.75")
    assert selftest._same_value("8.40", "8.4")
    assert selftest._same_value("1 500", "1500")
    assert not selftest._same_value("0.85", "0.75")
    assert not selftest._same_value("10", "1")


@pytest.mark.slow
def test_selftest_passes_offline_on_bundled_samples(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole pipeline on ``resources/samples`` with sockets blocked (as on an air-gapped laptop)."""
    monkeypatch.setenv("KDSDESK_MODELS", str(REPO / "tests" / "no-models-here"))  # no LLM: extractive only
    _block_network(monkeypatch)
    code = cli_main(["selftest", "--llm", "none"])
    out = capsys.readouterr().out
    assert code == 0, out
    lines = out.strip().splitlines()
    assert lines[-1].startswith("자체 점검 통과"), out
    for key in ("문서 분석", "색인", "검색", "답변(추출식)", "검증", "근거 쪽 렌더링", "오프라인"):
        assert any(line.startswith(f"[통과] {key}:") for line in lines), (key, out)


class _RamblingLibrary:
    """Stands in for ``Library``: its LLM streams tokens for ever (as the tiny test model does)."""

    def ask(self, question: str, llm: str | None = None, on_token: Any = None) -> Any:
        while True:
            on_token("토큰")


def test_llm_stage_stops_at_its_time_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KDSDESK_SELFTEST_LLM_SECONDS", "0")
    monkeypatch.setattr(selftest, "_questions", lambda st: [selftest.Question("질문?", "1")])
    st = selftest._State(samples=tmp_path, workdir=tmp_path, llm=str(tmp_path / "tiny.gguf"))
    st.library = _RamblingLibrary()  # type: ignore[assignment]
    detail = selftest._stage_ask_llm(st)
    assert "제한 시간(0초)에 멈춤" in detail
    assert "tiny.gguf" in detail


def test_llm_stage_skipped_without_model(tmp_path: Path) -> None:
    st = selftest._State(samples=tmp_path, workdir=tmp_path, llm="none")
    with pytest.raises(selftest.StageSkipped):
        selftest._stage_ask_llm(st)


def test_the_verify_stage_accepts_a_warning_whose_failed_check_is_advisory(tmp_path: Path) -> None:
    from kdsdesk.answer.pipeline import answer_question
    from tests.data.answer_records import hits, text_chunk

    top = text_chunk("(1) 옹벽 배수공의 간격은 4.5 m 이하로 한다.", "top", clause="4.1")
    other = text_chunk("(2) 높이 6 m 이상인 옹벽의 경우 배수공의 간격은 3 m 이하로 한다.", "other", clause="4.3")
    a = answer_question("높이 6 m 이상인 옹벽의 경우 배수공 간격은 몇 m 이하인가요?", hits(top, other), llm="none")
    assert a.status == "warning"
    assert not a.verdict.checks["top_evidence"]
    st = selftest._State(samples=tmp_path, workdir=tmp_path, llm="none", answers=[a])
    assert "인용" in selftest._stage_verify(st)
    broken = a.verdict.__class__(status="warning", checks={**a.verdict.checks, "need_subject": False}, reason="")
    st.answers = [a.__class__(**{**{f: getattr(a, f) for f in a.__dataclass_fields__}, "verdict": broken})]
    with pytest.raises(selftest.StageFailed):
        selftest._stage_verify(st)
