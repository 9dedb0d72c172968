"""One contract for every answerer: ``draft(need, hits) -> Draft``, judged by the same verifier.

- :class:`ExtractiveAnswerer` reads the answer from the retrieved evidence by rules (``kdsdesk.answer.extractive``:
  facts for values, requirement and definition sentences, formulas);
- :class:`LlmAnswerer` asks a local GGUF model (llama.cpp) with the need and the candidate facts in the prompt
  (``kdsdesk.answer.prompts``), in a JSON schema per question type (``kdsdesk.answer.schema``).

Both return a :class:`kdsdesk.records.Draft`. The model's own checks (schema-valid, not truncated) travel in
``Draft.notes["model_checks"]``, its prompt size in ``notes["prompt_tokens"]`` and its time in ``notes["timing"]``;
the pipeline turns the first into verification checks.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from kdsdesk.records import Draft, Hit, Need

log = logging.getLogger(__name__)


class Answerer(Protocol):
    name: str

    def draft(self, need: Need, hits: Sequence[Hit]) -> Draft: ...


class ExtractiveAnswerer:
    """Rules over the evidence (no model)."""

    name = "extractive"

    def draft(self, need: Need, hits: Sequence[Hit]) -> Draft:
        from kdsdesk.answer import extractive

        return extractive.answer(need, hits)


class LlmAnswerer:
    """A local GGUF model through llama.cpp, constrained to the answer schema of the question's type."""

    def __init__(self, gguf: Path, on_token: Callable[[str], None] | None = None) -> None:
        self.gguf = gguf
        self.on_token = on_token
        self.name = gguf.name

    def draft(self, need: Need, hits: Sequence[Hit]) -> Draft:
        import kdsdesk.answer.llm as llm_mod
        import kdsdesk.answer.prompts as prompts
        from kdsdesk.answer.schema import SchemaError, draft_from_json, schema_for

        prompt = prompts.build(need, hits)
        items = prompt.items
        schema = schema_for(need.qtype, len(items))
        res = llm_mod.complete_json(self.gguf, prompts.SYSTEM, prompt.user, schema, on_token=self.on_token)
        checks = {"complete": res.finish_reason != "length", "schema": True}
        try:
            draft = draft_from_json(json.loads(res.text), need.qtype, [it.chunk_id for it in items])
        except (ValueError, SchemaError) as exc:  # json.JSONDecodeError is a ValueError
            log.info("model output rejected: %s", exc)
            checks["schema"] = False
            draft = Draft(need.qtype, value="?", requirements=("?",), definition="?")  # given, unusable
        notes = {"model_checks": checks, "prompt_tokens": res.prompt_tokens, "timing": {"llm_ms": res.elapsed_ms}}
        return replace(draft, notes=notes)
