"""Regexes compiled on first use, so importing `mathreel.core.extract` compiles nothing.

The readers hold about a hundred patterns, some of them large; compiling them all at import cost tens of
milliseconds of every `mathreel` command, most of which never read an answer. `lazy_regex` returns a stand-in
that compiles its pattern the first time any of its methods or attributes is asked for. It then puts the compiled
pattern in its place among the module's globals (the module that created it), so the module's functions call the
compiled pattern directly from then on; references kept elsewhere (a table of rules) go on through the stand-in,
which keeps the compiled pattern's bound methods in its own slots.
"""

from __future__ import annotations

import re
import sys
from typing import Any

_DELEGATED = (
    "match",
    "fullmatch",
    "search",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "pattern",
    "flags",
    "groupindex",
    "groups",
)


class LazyRegex:
    """A `re.Pattern` stand-in that compiles on first use (see the module docstring)."""

    __slots__ = ("_flags", "_home", "_source", *_DELEGATED)

    def __init__(self, source: str, flags: int, home: dict[str, Any]) -> None:
        self._source = source
        self._flags = flags
        self._home = home

    def __getattr__(self, name: str) -> Any:
        """Called only for a slot not filled yet: compile, fill every slot, take this stand-in's place in its
        module's globals, answer."""
        if name not in _DELEGATED:
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        for attribute in _DELEGATED:
            setattr(self, attribute, getattr(compiled, attribute))
        for key, value in list(self._home.items()):
            if value is self:
                self._home[key] = compiled
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"LazyRegex({self._source!r})"


def lazy_regex(source: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern compiled on its first use; typed as the `re.Pattern` it stands for. Call it at a module's top
    level: the module is where the compiled pattern takes its place."""
    return LazyRegex(source, flags, sys._getframe(1).f_globals)  # type: ignore[return-value]
