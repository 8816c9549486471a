"""A count with its noun in the right number ("1 question", "2 questions"): every count the CLI prints and the
app shows goes through here, so no text says "1 questions". No imports: `mathreel score` loads it at start."""

from __future__ import annotations

# Nouns whose plural is not the noun + "s" (the few MathReel counts).
IRREGULAR = {"category": "categories", "reply": "replies", "match": "matches", "index": "indices"}


def plural(count: int, noun: str) -> str:
    """`noun` as it reads after `count`: the singular for exactly one, else the plural."""
    if count == 1:
        return noun
    return IRREGULAR.get(noun, noun + "s")


def counted(count: int, noun: str) -> str:
    """`count` and its noun ("1 question", "3 answers"), for a count inside a sentence."""
    return f"{count} {plural(count, noun)}"
