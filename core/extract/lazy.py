"""Regexes compiled on first use, so importing `mathreel.core.extract` compiles nothing.

The readers hold about a hundred patterns, some of them large; compiling them all at import cost tens of
milliseconds of every `mathreel` command, most of which never read an answer. A `LazyRegex` compiles its pattern
the first time any of its methods or attributes is asked for and then keeps the compiled pattern's bound methods
in its own slots, so later calls cost what calls on the compiled pattern cost.
"""

from __future__ import annotations

import re
from typing import Any

_DELEGATED = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "pattern", "flags",
              "groupindex", "groups")


class LazyRegex:
    """A `re.Pattern` stand-in that compiles on first use (see the module docstring)."""

    __slots__ = ("_flags", "_source", *_DELEGATED)

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        """Called only for a slot not filled yet: compile, fill every slot from the compiled pattern, answer."""
        if name not in _DELEGATED:
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        for attribute in _DELEGATED:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"LazyRegex({self._source!r})"


def lazy_regex(source: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern compiled on its first use; typed as the `re.Pattern` it stands for."""
    return LazyRegex(source, flags)  # type: ignore[return-value]
