"""Judge replies of broken JSON that cost the old parser O(n^2) (every "{" decoded to the end of the text, and an
error's line number counted from the start of the text each time), by name: each function gives a reply of about
n characters. Shared by tests/test_judge_parse_bounds.py and bench/bench_hostile.py."""

from __future__ import annotations

from collections.abc import Callable

HOSTILE_REPLIES: dict[str, Callable[[int], str]] = {
    "braces": lambda n: "{" * n,
    "open keys": lambda n: '{"' * (n // 2),
    "keys without values": lambda n: '{"a":x' * (n // 6),
    "unterminated strings": lambda n: '{"a":"' * (n // 6),
    "escaped quotes": lambda n: '{"\\"' * (n // 4),
    "nested then broken": lambda n: ('{"a":' * 200 + "x") * (n // 1001),
    "many small objects": lambda n: '{"a":1}' * (n // 7),
    "empty objects": lambda n: "{}" * (n // 2),
    "one long unclosed key": lambda n: '{"' + "a" * n,
}
