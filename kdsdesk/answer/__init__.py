"""Answer stage: a question and its retrieved hits → a typed draft answer, then verified into an ``Answer``.

The question's type and what it asks (value, condition, requirement, definition) are read by rules; the draft comes
from the extractive answerer (rules over sentences, tables, formulas) or from a local LLM through llama.cpp with a
JSON schema; ``verify`` then checks it against its quoted evidence. Entry point: ``pipeline.answer_question``.
"""
