"""Value semantics for plain classes: `==`, hash, repr and `replace` from the fields a class lists, as a dataclass
gives them.

The classes every `mathreel score` builds (`Question`, `Prediction`, `ResultFile`, `Extraction`, `Report`, ...)
were dataclasses. The decorator writes each generated method as source and compiles it when the module is imported:
42 compilations, about 75 M instructions, a tenth of a 2,700-answer `score --json` process (bench/README.md, "the
score process's start"). These classes write their `__init__` by hand and name their fields once in `FIELDS`, in
`__init__`'s order; this base gives the rest, as `@dataclass(eq=True)` would.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

T = TypeVar("T", bound="Fields")


class Fields:
    """`==` by fields between objects of the same class, a repr naming each field, `replace`; unhashable, as a
    dataclass that is not frozen."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.FIELDS])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{self.__class__.__qualname__}({shown})"

    def replace(self: T, **changes: Any) -> T:
        """A copy with `changes` (`dataclasses.replace`), made through `__init__` so its checks run again."""
        values = {name: getattr(self, name) for name in self.FIELDS}
        unknown = set(changes) - set(values)
        if unknown:
            raise TypeError(f"{self.__class__.__qualname__} has no field {', '.join(sorted(unknown))}")
        values.update(changes)
        return self.__class__(**values)


class FrozenFields(Fields):
    """`Fields` for a value never changed once made (a frozen dataclass): hashable by its fields."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]  # the base is unhashable (None), as its dataclass was
        return hash(self._values())
