"""Text stage: Korean morphemes (kiwipiepy), symbol tokens, normalisation with offset maps, clause-aware chunks."""
