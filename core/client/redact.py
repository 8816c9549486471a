"""Blanking secrets out of text a server sent back, including text that is still arriving.

A streamed reply grows piece by piece. Replacing whole keys in what has arrived so far is not enough: the
piece that ends with "sk-test-SECR" would show most of the key before the rest arrives. So while text is still
streaming, a tail that could be the start of a secret is held back until the next piece decides it.
"""

from __future__ import annotations

from collections.abc import Sequence

MARK = "[API key]"


def redact(text: str, secrets: Sequence[str]) -> str:
    """`text` with every whole occurrence of each secret replaced by MARK (longest secret first)."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, MARK)
    return text


def held_back(text: str, secrets: Sequence[str]) -> int:
    """Length of the longest tail of `text` that is the start of some secret (0 when none is)."""
    longest = 0
    for secret in secrets:
        for size in range(min(len(secret) - 1, len(text)), longest, -1):
            if text.endswith(secret[:size]):
                longest = size
                break
    return longest


def redact_partial(text: str, secrets: Sequence[str], *, final: bool) -> str:
    """What may be shown of `text` so far: secrets blanked, and, unless the text is `final`, any tail that could
    still grow into a secret held back."""
    shown = redact(text, secrets)
    if final:
        return shown
    return shown[: len(shown) - held_back(shown, [s for s in secrets if s])]
