"""How one number is made from a result file (`Scorer`), and every way the benchmark's known scorers make one.

A published or disputed figure is always some reading of the answers, a denominator, a unit (questions; a
multi-binary question's pairs one by one; Video-MME-v2's group scores under a grouping policy) and, perhaps, a
judge's extractions. Naming these five factors is what lets `core.explain.gap` change them one at a time.
The readers and policies are the benchmark's own (`Benchmark.reproductions`); nothing here knows a benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from mathreel.core.benchmarks.base import DEFAULT_GROUP_POLICY, GroupPolicy
from mathreel.core.errors import MathReelError
from mathreel.core.kinds import DENOMINATORS, Denominator

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.benchmarks import Benchmark

# What one scored item is: a benchmark question (a multi-binary question's pairs together), each row alone (a
# multi-binary pair counted by itself), or a group of questions scored together (Video-MME-v2's groups).
Unit = Literal["question", "pair", "group"]
MATHREEL_POLICY = "mathreel"  # the group policy name of MathReel's own rule (DEFAULT_GROUP_POLICY)
ROBUST = "robust"


@dataclass(frozen=True)
class Scorer:
    """One way of making a number from a file: which extractor reads the answers, which denominator, what a unit
    is, which group policy (for group units: "mathreel" or the reproduction whose rule it is), and whether the
    run's judge extractions replace the rule reading."""

    reader: str = ROBUST
    denominator: Denominator = "all"
    unit: Unit = "question"
    policy: str = ""
    judge: bool = False
    # The group rule itself, when it is none of the named policies (a step on the way from one policy to another).
    rule: GroupPolicy | None = field(default=None, compare=False)

    def label(self) -> str:
        """ "official, answered", "robust, all, per pair", "official, group score (official policy), judge"."""
        parts = [self.reader]
        if self.unit == "group":
            parts.append(f"group score ({self.policy} policy)")
        else:
            parts.append(self.denominator)
            if self.unit == "pair":
                parts.append("per pair")
        if self.judge:
            parts.append("judge")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "reader": self.reader,
            "denominator": self.denominator,
            "unit": self.unit,
            "policy": self.policy or None,
            "judge": self.judge,
            "label": self.label(),
        }


@dataclass(frozen=True)
class Reader:
    """One distinct extractor of a benchmark: the names that choose it (a reproduction may go by two), what it
    reproduces, its source and full commit, its own denominator and group policy (None for MathReel's)."""

    names: tuple[str, ...]
    title: str
    source: str
    commit: str
    denominator: Denominator
    policy: str | None

    @property
    def name(self) -> str:
        return self.names[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "reader": self.name,
            "names": list(self.names),
            "title": self.title,
            "source": self.source or None,
            "commit": self.commit or None,
            "denominator": self.denominator,
            "policy": self.policy,
        }


def readers(bench: Benchmark) -> list[Reader]:
    """MathReel's robust reader, then every pinned reproduction of the benchmark, each distinct one once (two names
    for one scorer, such as VideoMathQA's `official` and `lmms-regex`, make one reader with both names)."""
    found = [
        Reader(
            (ROBUST,),
            "MathReel's robust extractor",
            "",
            "",
            "all",
            MATHREEL_POLICY if bench.groups is not None else None,
        )
    ]
    seen: dict[int, int] = {}
    for name, scorer in bench.reproductions.items():
        if id(scorer) in seen:
            index = seen[id(scorer)]
            found[index] = Reader((*found[index].names, name), *_reader_fields(found[index]))
            continue
        seen[id(scorer)] = len(found)
        policy = name if scorer.groups is not None else None
        found.append(Reader((name,), scorer.name, scorer.source, scorer.commit, scorer.denominator, policy))
    return found


def _reader_fields(reader: Reader) -> tuple[str, str, str, Denominator, str | None]:
    return reader.title, reader.source, reader.commit, reader.denominator, reader.policy


def find_reader(bench: Benchmark, name: str) -> Reader:
    """The reader a name chooses, or a MathReelError listing the benchmark's readers."""
    for reader in readers(bench):
        if name in reader.names:
            return reader
    offered = ", ".join(name for reader in readers(bench) for name in reader.names)
    raise MathReelError(f"{bench.title} has no extractor {name!r}; choose one of {offered}")


def own_scorer(bench: Benchmark, name: str, judge: bool = False) -> Scorer:
    """The number a reader's own reference reports: a reproduction with a group policy reports its group score,
    another its accuracy under its own denominator; MathReel's robust reader its accuracy over all questions."""
    reader = find_reader(bench, name)
    if reader.policy is not None and reader.name != ROBUST:
        return Scorer(name, "all", "group", reader.policy, judge)
    return Scorer(name, reader.denominator, "question", "", judge)


def policy_names(bench: Benchmark) -> list[str]:
    """The group policies a benchmark scored in groups can be read under: MathReel's, then each reproduction's."""
    if bench.groups is None:
        return []
    return [MATHREEL_POLICY, *(name for name, scorer in bench.reproductions.items() if scorer.groups is not None)]


def group_policy(bench: Benchmark, name: str) -> GroupPolicy:
    """The GroupPolicy a policy name stands for."""
    if name == MATHREEL_POLICY:
        return DEFAULT_GROUP_POLICY
    scorer = bench.reproductions.get(name)
    if scorer is None or scorer.groups is None:
        raise MathReelError(
            f"{bench.title} has no group policy {name!r}; choose one of "
            f"{', '.join(policy_names(bench)) or 'none (it is not scored in groups)'}"
        )
    return scorer.groups


def units_of(bench: Benchmark, mode: str) -> list[Unit]:
    """The units a file of this benchmark and mode can be counted in."""
    units: list[Unit] = ["question"]
    if bench.mode(mode).grouped:
        units.append("pair")
    if bench.groups is not None:
        units.append("group")
    return units


def check_scorer(bench: Benchmark, mode: str, scorer: Scorer) -> Scorer:
    """`scorer` made whole and checked for this benchmark: a group unit takes MathReel's policy when none is named
    and counts every group (its denominator is "all"); a MathReelError names what does not apply."""
    find_reader(bench, scorer.reader)
    if scorer.denominator not in DENOMINATORS:
        raise MathReelError(f"unknown denominator {scorer.denominator!r}; choose one of {', '.join(DENOMINATORS)}")
    if scorer.unit not in units_of(bench, mode):
        raise MathReelError(
            f"{bench.title} / {mode} cannot be counted per {scorer.unit}; choose one of "
            f"{', '.join(units_of(bench, mode))}"
        )
    if scorer.unit == "group":
        policy = scorer.policy or MATHREEL_POLICY
        group_policy(bench, policy)
        return Scorer(scorer.reader, "all", "group", policy, scorer.judge)
    if scorer.policy:
        raise MathReelError(f"a group policy ({scorer.policy!r}) applies only to the group unit")
    return scorer


def known_scorers(bench: Benchmark, mode: str, judge: bool = False) -> list[Scorer]:
    """Every scorer MathReel can reproduce on a file of this benchmark and mode: each reader under each
    denominator and unit (group scores under each policy), without and, when the run has a judge file, with its
    extractions. The order is the table's: readers as `readers` lists them, then denominators, units, policies."""
    found = []
    for use_judge in (False, True) if judge else (False,):
        for reader in readers(bench):
            for unit in units_of(bench, mode):
                if unit == "group":
                    found += [Scorer(reader.name, "all", "group", policy, use_judge) for policy in policy_names(bench)]
                else:
                    found += [Scorer(reader.name, denominator, unit, "", use_judge) for denominator in DENOMINATORS]
    return found
