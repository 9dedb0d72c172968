"""llama-cpp-python adapter: load a GGUF once per path, answer in JSON constrained by a schema, stream tokens.

- ``llama_cpp`` is imported only inside :func:`load` (``kdsdesk --help`` stays instant).
- A GGUF without a chat template in its metadata (gemma-3 base models) gets ``chat_format="gemma"`` when its
  architecture is gemma, else ``"chatml"``; with a template, llama-cpp-python uses the model's own.
- Output is constrained with ``response_format={"type": "json_object", "schema": …}`` (a grammar), and
  ``finish_reason == "length"`` is reported (truncated output is never used). llama-cpp-python applies the grammar
  to the whole vocabulary before top-k at every token: measured here with gemma-3-270m (262k tokens, 2 shared
  cores under load) 0.76–0.94 s/token constrained against 0.30–0.40 s/token free (≈2.5×). ``KDSDESK_LLM_GRAMMAR=0``
  turns the grammar off: the prompt shows the JSON shape, the first JSON object of the output is taken, and the
  same strict validation (``kdsdesk.answer.schema.validate``) rejects anything else — never repaired.
- One model per path stays loaded; llama.cpp contexts are not thread-safe, so every call holds one lock (one
  lane). The system prompt is identical for every question, so llama.cpp reuses the evaluated prefix.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kdsdesk.errors import KnownError

log = logging.getLogger(__name__)

N_CTX = 4096
MAX_TOKENS = 384

_LOCK = threading.Lock()
_MODELS: dict[str, Any] = {}


@dataclass(frozen=True, slots=True)
class LlmResult:
    text: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    elapsed_ms: float


def chat_format_for(metadata: dict[str, str]) -> str | None:
    """The chat format to force for a GGUF's metadata; None when it has its own template."""
    if metadata.get("tokenizer.chat_template"):
        return None
    arch = metadata.get("general.architecture", "").lower()
    name = metadata.get("general.name", "").lower()
    return "gemma" if "gemma" in arch or "gemma" in name else "chatml"


def _threads() -> int:
    return max(1, min(8, os.cpu_count() or 2))


def load(path: Path) -> Any:
    """The loaded ``llama_cpp.Llama`` for ``path`` (cached). Call with ``_LOCK`` held."""
    key = str(path.resolve())
    model = _MODELS.get(key)
    if model is not None:
        return model
    try:
        import llama_cpp
    except ImportError as exc:  # pragma: no cover - the dependency is required
        raise KnownError("llama-cpp-python 이 설치되어 있지 않습니다. --llm none 으로 추출식 답변을 쓰세요.") from exc
    from kdsdesk.models.runtime import load_llama_cpu_backends

    load_llama_cpu_backends()  # runtime-CPU-dispatch builds (no AVX2); does nothing for a normal build
    try:
        model = llama_cpp.Llama(model_path=key, n_ctx=N_CTX, n_threads=_threads(), verbose=False)
    except (ValueError, RuntimeError, OSError) as exc:
        raise KnownError(
            "언어 모델(GGUF)을 읽을 수 없습니다. 파일이 손상되었거나 지원하지 않는 형식입니다.", path=key
        ) from exc
    forced = chat_format_for({k: str(v) for k, v in (model.metadata or {}).items()})
    if forced is not None:
        model.chat_format = forced
        model.chat_handler = None
        log.info("GGUF without chat template: using chat_format=%s", forced)
    close_models()  # one model in memory at a time
    _MODELS[key] = model
    return model


def close_models() -> None:
    """Free loaded models now: llama-cpp-python's finalizers fail when they run during interpreter shutdown."""
    for model in list(_MODELS.values()):
        try:
            model.close()
        except (AttributeError, TypeError):  # pragma: no cover - older bindings without close()
            pass
    _MODELS.clear()


atexit.register(close_models)


def count_tokens(model: Any, text: str) -> int:
    return len(model.tokenize(text.encode("utf-8"), add_bos=False, special=False))


def complete_json(
    path: Path,
    system: str,
    user: str,
    schema: dict[str, Any],
    on_token: Callable[[str], None] | None = None,
    max_tokens: int | None = None,
) -> LlmResult:
    """One chat completion in JSON (see the module docstring); streams content pieces to ``on_token``."""
    max_tokens = max_tokens or MAX_TOKENS
    with _LOCK:
        model = load(path)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        prompt_tokens = count_tokens(model, system) + count_tokens(model, user) + 16  # template tokens
        t0 = time.perf_counter()
        constrained = os.environ.get("KDSDESK_LLM_GRAMMAR", "1") != "0"
        extra: dict[str, Any] = {"response_format": {"type": "json_object", "schema": schema}} if constrained else {}
        stream = model.create_chat_completion(
            messages=messages, temperature=0.0, max_tokens=max_tokens, stream=True, repeat_penalty=1.1, **extra
        )
        parts: list[str] = []
        finish = ""
        n = 0
        for chunk in stream:
            choice = chunk["choices"][0]
            piece = choice.get("delta", {}).get("content") or ""
            if piece:
                n += 1
                parts.append(piece)
                if on_token is not None:
                    on_token(piece)
            if choice.get("finish_reason"):
                finish = str(choice["finish_reason"])
        elapsed = (time.perf_counter() - t0) * 1000
    return LlmResult(first_json("".join(parts)), finish, prompt_tokens, n, elapsed)


def first_json(text: str) -> str:
    """The first complete JSON object in ``text`` (models add fences or chatter when unconstrained)."""
    import json

    start = text.find("{")
    while start >= 0:
        try:
            _, end = json.JSONDecoder().raw_decode(text, start)
        except ValueError:
            start = text.find("{", start + 1)
            continue
        return text[start:end]
    return text
