"""What a sweep leaves in its output folder, beside the results file: ``summary.json``
(solve rates with their intervals, the configuration the rows counted ran with, and what
was loaded, skipped and unreadable), ``per_problem.md`` (which back end solved which
problem, after ``pairs_table``'s comparison of every two series of one budget and
``kinds_table``'s solve rates by what the problems ask),
and ``solve_rate.png`` (solve rate against budget); and, when asked for
(``miss_diagrams``), a diagram of each Go problem some run missed (``diagram.svg``: the
correct moves, the wrong answer and its principal variation; the miss shown is the one at
the largest budget, the first series by name on ties), drawn from the rows.  ``rates_table`` and ``pairs_table`` are the Markdown tables the
command line prints."""

import json
from pathlib import Path

from ..game.coords import from_gtp
from ..results_store import commit, replace_text, write_error
from .diagram import svg
from .frame import problem_region
from .solve import fight_kind
from .stats import label, paired, per_problem, solve_rates


def rates_table(rates) -> str:
    lines = ["| back end | budget | solved | proved | rate | 95% CI |",
             "|---|---:|---:|---:|---:|---|"]
    for r in rates:
        lines.append(f"| {r.label} | {_budget(r.budget)} | {r.solved}/{r.runs} | {r.proved} "
                     f"| {r.rate:.3f} | {_interval(r)} |")
    return "\n".join(lines)


def _budget(budget: int) -> str:
    return "own" if budget == 0 else str(budget)


def _interval(rate) -> str:
    lo, hi = rate.interval
    return f"[{lo:.3f}, {hi:.3f}]"


def pairs_table(rows) -> str:
    """Every two series of one budget compared problem by problem (``stats.paired``);
    empty when no budget has two."""
    pairs = paired(rows)
    if not pairs:
        return ""
    lines = ["| series A | series B | budget | problems | A solved more | B solved more "
             "| sign test p |", "|---|---|---:|---:|---:|---:|---:|"]
    for p in pairs:
        lines.append(f"| {p.a} | {p.b} | {_budget(p.budget)} | {p.problems} | {p.a_better} "
                     f"| {p.b_better} | {p.p_value:.3f} |")
    return "\n".join(lines)


def kinds_table(rows, problems) -> str:
    """Solve rates of each series and budget by the kind of fight the problems are
    (``solve.fight_kind``: kill or live, with or without the defender's outside stones),
    to show where the misses are; empty when no problem has a kind."""
    kinds = {p.name: fight_kind(p) for p in problems}
    entries = sorted(((r.label, r.budget, kind), r)
                     for kind in {k for k in kinds.values() if k}
                     for r in solve_rates([row for row in rows
                                           if kinds.get(row["problem"]) == kind]))
    if not entries:
        return ""
    lines = ["| back end | budget | the mover must | solved | rate | 95% CI |",
             "|---|---:|---|---:|---:|---|"]
    for (series, budget, kind), r in entries:
        lines.append(f"| {series} | {_budget(budget)} | {kind} | {r.solved}/{r.runs} "
                     f"| {r.rate:.3f} | {_interval(r)} |")
    return "\n".join(lines)


def problem_table(rows, problems) -> str:
    table = per_problem(rows)
    columns = sorted({key for cells in table.values() for key in cells})
    head = " | ".join(f"{a}@{b if b else 'own'}" for a, b in columns)
    lines = [f"| problem | answer | {head} |", "|---|---|" + "---:|" * len(columns)]
    for p in problems:
        cells = table.get(p.name, {})
        shown = [f"{cells[c][0]}/{cells[c][1]}" if c in cells else "-" for c in columns]
        lines.append(f"| {p.name} | {p.answer_text()} | " + " | ".join(shown) + " |")
    return "\n".join(lines)


def miss_diagrams(folder: Path, rows, problems) -> int:
    """Write ``folder/PROBLEM.svg`` for every Go problem with a missed run (see the module
    docstring); returns how many were written."""
    misses = {}
    for row in rows:
        if not row["correct"]:
            key = (-int(row["budget"]), label(row["algo"], row.get("restrict", False)))
            if row["problem"] not in misses or key < misses[row["problem"]][0]:
                misses[row["problem"]] = (key, row)
    written = 0
    for p in problems:
        if p.name not in misses or p.game != "go":
            continue
        (budget, series), row = misses[p.name]
        n = p.size
        move = from_gtp(row["move"], n) if row["move"] != "resign" else None
        pv = [from_gtp(v, n) for v in row.get("pv", "").split()]
        folder.mkdir(parents=True, exist_ok=True)
        status = row.get("status") or "found"
        title = f"{p.name}: {series} @{-budget} played {row['move']} ({status})"
        replace_text(folder / f"{p.name}.svg",
                     svg(p.state, problem_region(p), p.accept, move, False, pv, title) + "\n")
        written += 1
    return written


def plot(rates, path: Path, title: str | None = None):
    import matplotlib   # only the plot needs it
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    budgets = sorted({r.budget for r in rates if r.budget > 0})
    for algo in sorted({r.label for r in rates}):
        mine = [r for r in rates if r.label == algo]
        if len(mine) == 1 and mine[0].budget == 0 and budgets:   # an external engine
            r = mine[0]
            lo, hi = r.interval
            ax.axhline(r.rate, linestyle="--", color="grey", label=f"{algo} (own settings)")
            ax.axhspan(lo, hi, color="grey", alpha=0.15)
            continue
        mine = [r for r in mine if r.budget > 0]
        xs = [r.budget for r in mine]
        ys = [r.rate for r in mine]
        err = [[r.rate - r.interval[0] for r in mine], [r.interval[1] - r.rate for r in mine]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=algo)
    ax.set_xscale("log")
    ax.set_xlabel("playouts per move")
    ax.set_ylabel("solve rate (95% Wilson interval)")
    ax.set_ylim(0, 1)
    if title:
        ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_report(out: Path, command: str, loaded, settings, restrict: bool, jobs, rows,
                 failures) -> list:
    """Write the three files for a sweep of ``jobs`` over the problems of ``loaded`` (a
    ``LoadReport``) that gave ``rows`` and ``failures``; returns its solve rates."""
    rates = solve_rates(rows)
    summary = {
        "command": command,
        "version": settings.version,
        "commit": commit(),
        "problems": len(loaded.problems),
        "restrict": restrict,
        "frame": settings.use_frame,
        "options": dict(settings.options),
        "gtp": settings.gtp,
        "unreadable": [{"where": w, "why": y} for w, y in loaded.errors],
        "tst_tests_read": loaded.tests_read,
        "tst_commands_skipped": dict(loaded.skipped),
        "jobs": len(jobs), "rows": len(rows), "failed": len(failures),
        "rates": [r.as_dict() for r in rates],
    }
    replace_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    tables = [pairs_table(rows), kinds_table(rows, loaded.problems),
              problem_table(rows, loaded.problems)]
    replace_text(out / "per_problem.md", "\n\n".join(t for t in tables if t) + "\n")
    if rates:
        try:
            plot(rates, out / "solve_rate.png")
        except OSError as exc:
            raise write_error(out / "solve_rate.png", exc) from None
    return rates
