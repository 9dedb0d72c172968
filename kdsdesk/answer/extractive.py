"""The extractive answerer (no LLM): read the answer from the retrieved evidence by rules, in the answer's shape.

- Value questions: a coefficient the question asks of a named formula (``kdsdesk.answer.formula``); a constant a
  display equation states (``kdsdesk.answer.constants``); else the index-time fact of the top hits that fits the
  question's need best (``kdsdesk.answer.values``: sentence values and table cells alike).
- Requirements and definitions: ``kdsdesk.answer.requirements``.
- Evidence units (the sentences and lines of the top hits) are scored by ``kdsdesk.answer.sentences``.
"""

from __future__ import annotations

from collections.abc import Sequence

from kdsdesk.answer import formula, values
from kdsdesk.answer.constants import constant_read
from kdsdesk.answer.requirements import _evidence, answer_definition, answer_requirement
from kdsdesk.answer.sentences import Unit, score_units, units
from kdsdesk.records import Chunk, Draft, Evidence, Hit, Need
from kdsdesk.text.normalize import norm
from kdsdesk.verify.need import QuestionInfo, classify


def answer_value(need: Need, info: QuestionInfo, hits: Sequence[Hit], ranked: Sequence[Unit]) -> Draft:
    """A value: a coefficient read from a formula the question names; else the constant a display equation
    states; else the fact of the evidence that fits the need best (``kdsdesk.answer.values``)."""
    question = need.question
    f = formula.read(question, ranked)
    if f is not None:  # the question names a product and a relation to it: read the formula, nothing else
        return Draft(
            info.qtype, value=f.value, evidence=(Evidence(f.unit.hit.chunk.chunk_id, f.unit.text),),
            ambiguous=f.ambiguous, notes={"score": round(f.score, 3), "margin": f.margin, "formula": True},
        )  # fmt: skip
    for u in [v for v in ranked if v.hit.chunk.kind != "table"][:5]:
        k = constant_read(question, u, hits)
        if k is not None and (not info.unit or not k[1] or norm(k[1]) == norm(info.unit)):
            return Draft(info.qtype, value=k[0], unit=k[1], evidence=(Evidence(u.hit.chunk.chunk_id, k[2].text),),
                         notes={"constant": True})  # fmt: skip
    d = values.answer_value(need, hits, ranked)
    return d if d is not None else Draft(info.qtype, evidence=_evidence(ranked))


def answer(need: Need, hits: Sequence[Hit]) -> Draft:
    """An extractive draft for ``need`` from ``hits``."""
    question = need.question
    info = classify(question)
    if need.kind == "value" and info.qtype not in ("numeric", "conditional"):
        info = QuestionInfo(need.qtype, unit=info.unit, comparison=info.comparison)
    ranked = score_units(question, units(hits))
    if need.kind == "value":
        return answer_value(need, info, hits, ranked)
    if info.qtype in ("numeric", "conditional"):
        info = QuestionInfo("regulation", comparison=info.comparison)
    if need.kind in ("requirement", "formula"):
        return answer_requirement(question, info, ranked, hits, need)
    return answer_definition(question, info, ranked, need)


def chunk_of(hits: Sequence[Hit], chunk_id: str) -> Chunk | None:
    return next((h.chunk for h in hits if h.chunk.chunk_id == chunk_id), None)
