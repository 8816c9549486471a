"""The bundle's index (headline figures with intervals, every reference reproduction, breakdowns and their charts,
the filtered lists, every question), its list pages, and the walk data its script reads for previous/next."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mathreel.core.bundle.html import MATH_NOTE, esc, page, query, status_mark, table
from mathreel.core.bundle.svg import bar_chart

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.bundle.load import BundleRun
    from mathreel.core.bundle.pages import Page

STATUSES = {
    "not_correct": "wrong or unparsed",
    "wrong": "wrong",
    "unparsed": "unparsed",
    "missing": "missing",
    "correct": "correct",
    "all": "questions",
}
JUDGE = "judge:"


def walk_lists(pages: list[Page], runs: list[BundleRun], disagree: set[str]) -> dict[str, list[str]]:
    """Every list a walk can follow, keyed "<run>\\t<walk>" (and "\\tdisagree" for the questions where the runs
    disagree), holding page files in page order; "\\tall" is every page."""
    from mathreel.core.scoring.reading_flow import status_matches

    lists: dict[str, list[str]] = {"\tall": [p.file for p in pages]}
    for run in runs:
        mine = [(p, a) for p in pages if (a := p.answer_of(run)) is not None]
        for walk in STATUSES:
            files = [p.file for p, a in mine if status_matches(a.row.status, walk)]
            lists[f"{run.name}\t{walk}"] = files
            lists[f"{run.name}\t{walk}\tdisagree"] = [
                p.file for p, a in mine if status_matches(a.row.status, walk) and p.ref in disagree
            ]
        for category in judge_categories(run, pages):
            lists[f"{run.name}\t{JUDGE}{category}"] = [p.file for p, a in mine if primary(a) == category]
    return lists


def primary(answer: Any) -> str:
    """The judge's primary error category of an answer ("" when not judged or no error analysis)."""
    card = answer.view.judge if answer.view is not None else None
    if card is None:
        return ""
    entry = card.values("errors").get("primary") or {}
    return str(entry.get("category") or "") if isinstance(entry, dict) else ""


def judge_categories(run: BundleRun, pages: list[Page]) -> list[str]:
    found = [primary(a) for p in pages if (a := p.answer_of(run)) is not None]
    return sorted({c for c in found if c})


def walks_js(key: str, pages: list[Page], lists: dict[str, list[str]]) -> str:
    """`walks.js`: the data the pages' script walks (a script file, so it loads from file:// as from a server)."""
    by_ref: dict[str, list[str]] = {}
    for p in pages:
        by_ref.setdefault(p.ref, []).append(p.file)
    data = {
        "benchmark": key,
        "pages": {p.file: p.ref for p in pages},
        "byRef": by_ref,
        "lists": lists,
        "labels": {**STATUSES},
    }
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":")).replace("<", "\\u003c")
    return f"window.MATHREEL_BUNDLE = {text};\n"


def index_page(
    title: str,
    key: str,
    runs: list[BundleRun],
    pages: list[Page],
    lists: dict[str, list[str]],
    references: dict[str, str],
    notes: list[str],
) -> str:
    report = runs[0].report
    parts = [
        f"<h1>{esc(title)}</h1>",
        f"<p>{esc(report.benchmark)} · {esc(report.mode)} · {len(runs)} run{'s' if len(runs) > 1 else ''} · "
        f"{len(pages)} question pages. {esc(MATH_NOTE)}</p>",
        "<p class='deeplink'>A link such as <code>index.html?benchmark="
        f"{esc(key)}&amp;q=QUESTION&amp;run=FILE&amp;walk=wrong</code> opens that question; the same query "
        "after the app's address opens it in the app.</p><p id='link-status' class='note'></p>",
        "<h2>Headline</h2>",
        _headline(runs),
    ]
    parts += [f"<p class='note'>{esc(note)}</p>" for note in notes]
    for run in runs:
        lines = "".join(f"<li>{esc(line)}</li>" for line in [*run.setting_lines, *run.report.detected])
        warnings = "".join(f"<li class='warning'>{esc(w)}</li>" for w in run.report.warnings)
        parts.append(
            f"<details><summary>{esc(run.name)}: how it was read and scored</summary>"
            f"<ul>{lines}{warnings}</ul></details>"
        )
    parts.append("<h2>Every reference scorer</h2>")
    parts += [references.get(run.name, "") for run in runs]
    parts += ["<h2>Breakdowns</h2>", _breakdowns(runs)]
    parts += ["<h2>Lists to walk</h2>", _filters(runs, lists)]
    parts += ["<h2>Every question</h2>", _questions(key, runs, pages)]
    return page(title, "".join(parts), kind="index")


def _headline(runs: list[BundleRun]) -> str:
    from mathreel.core.scoring.numbers import se_text

    rows = []
    for run in runs:
        r = run.report
        o = r.overall
        rows.append(
            [
                esc(run.name),
                f"<b>{esc(o.text())}</b>",
                esc(o.n),
                esc(o.correct),
                esc(len(r.unparsed)),
                esc(len(r.missing)),
                esc(f"{se_text(o.clustered_se)} ({o.clustered_by})"),
                esc(f"{r.extractor} · denominator {r.denominator}"),
            ]
        )
    return table(
        ["run", "accuracy [95% CI]", "n", "correct", "unparsed", "missing", "clustered SE", "scored by"],
        rows,
        "headline",
    )


def reference_html(run: BundleRun) -> str:
    """The run under every pinned reproduction of its benchmark (`core.explain.references`); * marks the figure
    each reference reports."""
    from mathreel.core.errors import MathReelError
    from mathreel.core.explain.references import reference_table
    from mathreel.core.explain.runs import Run

    try:
        found = reference_table(Run(run.result, run.judgments, "judge" if run.judgments else "", run.name))
    except MathReelError as error:
        return f"<p class='note'>{esc(run.name)}: no reference table ({esc(error)})</p>"
    rows = []
    for row in found.rows:
        cells = [esc(row.label)]
        for column in found.columns:
            value = row.cells[column.key].value
            text = "-" if value is None else f"{float(value):.1f}"
            cells.append(f"<b>{text}*</b>" if column.key == row.own else text)
        cells += [esc(len(row.unparsed)), esc(len(row.read_differently)), esc(row.reader.source or "")]
        rows.append(cells)
    notes = "".join(f"<p class='note'>{esc(n)}</p>" for n in found.notes)
    return (
        f"<h3>{esc(run.name)}</h3>"
        + table(
            ["reader", *(esc(c.heading) for c in found.columns), "unparsed", "read differently", "source"],
            rows,
            "references",
        )
        + "<p class='note'>* the figure the reference itself reports</p>"
        + notes
    )


def _breakdowns(runs: list[BundleRun]) -> str:
    from mathreel.core.benchmarks import get_benchmark

    bench = get_benchmark(runs[0].report.benchmark)
    labels = {d.key: d.label for d in bench.dimensions}
    dims = list(dict.fromkeys(d for run in runs for d in run.report.by))
    parts = []
    for dim in dims:
        values = list(dict.fromkeys(v for run in runs for v in run.report.by.get(dim, {})))
        series = [(run.name, [_cell(run.report.by.get(dim, {}).get(v)) for v in values]) for run in runs]
        rows = [
            [esc(v), *(esc(_text(run.report.by.get(dim, {}).get(v))) + _n(run, dim, v) for run in runs)] for v in values
        ]
        label = labels.get(dim, dim)
        parts.append(
            f"<h3>{esc(label)}</h3><div class='breakdown'>"
            + table([esc(label), *(esc(run.name) for run in runs)], rows)
            + bar_chart(label, values, series)
            + "</div>"
        )
    return "".join(parts) or "<p class='note'>No dimension to break the figures down by.</p>"


def _cell(cell: Any) -> tuple[float | None, tuple[float, float] | None]:
    return (None, None) if cell is None else (cell.accuracy, None if cell.ci is None else (cell.ci.low, cell.ci.high))


def _text(cell: Any) -> str:
    """A cell as every view prints it ("77.8% [45.3, 93.7]"), "-" without one."""
    return "-" if cell is None else cell.text()


def _n(run: BundleRun, dim: str, value: str) -> str:
    cell = run.report.by.get(dim, {}).get(value)
    return f" <small>n={cell.n}</small>" if cell is not None else ""


def _filters(runs: list[BundleRun], lists: dict[str, list[str]]) -> str:
    items = []
    for run in runs:
        links = []
        for walk, label in [*STATUSES.items(), *((w, w) for w in _judge_walks(run, lists))]:
            files = lists.get(f"{run.name}\t{walk}", [])
            if files:
                links.append(f"<a href='{esc(list_file(run, walk))}'>{esc(label)} ({len(files)})</a>")
        disagree = lists.get(f"{run.name}\tall\tdisagree", [])
        if len(runs) > 1:
            links.append(f"<a href='{esc(list_file(run, 'all', True))}'>runs disagree ({len(disagree)})</a>")
        items.append(f"<li><b>{esc(run.name)}</b>: {' · '.join(links)}</li>")
    return f"<ul class='filters'>{''.join(items)}</ul>"


def _judge_walks(run: BundleRun, lists: dict[str, list[str]]) -> list[str]:
    prefix = f"{run.name}\t{JUDGE}"
    return [key[len(run.name) + 1 :] for key in lists if key.startswith(prefix)]


def list_file(run: BundleRun, walk: str, disagree: bool = False) -> str:
    import hashlib

    digest = hashlib.sha256(walk.encode()).hexdigest()[:8]
    safe = "".join(c if c.isalnum() else "_" for c in walk)[:40]
    return f"lists/{run.number}-{safe}-{digest}{'-disagree' if disagree else ''}.html"


def list_page(key: str, run: BundleRun, walk: str, disagree: bool, pages: list[Page], files: list[str]) -> str:
    wanted = set(files)
    label = STATUSES.get(walk, walk) + (" where the runs disagree" if disagree else "")
    rows = []
    for p in pages:
        if p.file not in wanted:
            continue
        answer = p.answer_of(run)
        link = query({"benchmark": key, "q": p.ref, "run": run.name, "walk": walk, "disagree": "1" if disagree else ""})
        rows.append(
            [
                f"<a href='../{esc(p.file)}?{esc(link)}'>{esc(p.ref)}</a>",
                status_mark(answer.row.status) if answer else "",
                esc(answer.row.extracted or "—") if answer else "",
                esc(answer.row.gold) if answer else "",
                esc(primary(answer)) if answer else "",
            ]
        )
    body = (
        f"<nav><a href='../index.html'>all runs</a></nav><h1>{esc(run.name)}: {esc(label)} "
        f"<small>({len(rows)})</small></h1>" + table(["question", "verdict", "read", "gold", "judge"], rows)
    )
    return page(f"{run.name}: {label}", body, depth=1, kind="list")


def _questions(key: str, runs: list[BundleRun], pages: list[Page]) -> str:
    from mathreel.core.benchmarks import get_benchmark

    dim = get_benchmark(runs[0].report.benchmark).primary
    rows = []
    for p in pages:
        cells = [
            f"<a href='{esc(p.file)}'>{esc(p.ref)}</a>",
            esc(p.head.dims.get(dim, "") if p.head is not None and dim else ""),
        ]
        for run in runs:
            answer = p.answer_of(run)
            if answer is None:
                cells.append("")
                continue
            link = query({"benchmark": key, "q": p.ref, "run": run.name, "walk": "all"})
            cells.append(
                f"<a href='{esc(p.file)}?{esc(link)}'>{status_mark(answer.row.status)}</a> "
                f"{esc(answer.row.extracted or '')}"
            )
        rows.append(cells)
    return table(["question", esc(dim or ""), *(esc(run.name) for run in runs)], rows, "questions")
