"""Evaluation: measuring the stages from outside, never inside them.

Above ``service`` and below the entry points (``cli`` calls it for ``kdsdesk eval``, ``evalset`` and
``selftest``); no stage and not ``service`` imports it. ``retrieval`` (Hit@k, MRR, recall per question type),
``answers`` (accuracy, confirmed precision, wrong values shown, not-in-library declined, citation page right),
``split`` (the development/validation half of every question, by standard), ``evalset`` (questions generated from
documents) and ``selftest`` (the offline end-to-end check of an install).
"""
