"""A table's markdown and plot, and the verdict table of them all, written from the raw
rows only (``verdict``).  Every file opens with the commit that wrote it, the commits the
rows were played at, and the exact commands of the sessions that played them."""

import json
from pathlib import Path

from ..results_store import commit, read_lines
from .runs import ROWS, sessions
from .tables import Table
from .verdict import ROWS_OF, Row

TABLE_MD = "table.md"
TABLE_PNG = "table.png"


def _fmt(v, percent: bool = True) -> str:
    """A percentage to 0.1 (3 figures under 1 %); a return or a regret to 4 figures."""
    if v is None:
        return "-"
    return (f"{v:.3g}" if abs(v) < 1 else f"{v:.1f}") if percent else f"{v:.4g}"


def _folders(table: Table, root: Path) -> list[Path]:
    folder = root / table.key
    return [folder / c.name for c in table.cells] if table.kind == "match" else [folder]


def _row_commits(table: Table, root: Path) -> list[str]:
    """The commits the table's rows were played at: each row's, or (the MDP sweep's rows
    carry none) its sessions'."""
    seen = set()
    for folder in _folders(table, root):
        for path in (folder / "results.jsonl", folder / ROWS):
            if path.exists():
                for _, text in read_lines(path)[0][1:]:
                    seen.add(json.loads(text).get("commit"))
        seen.update(s["commit"] for s in sessions(folder) if s["rows_after"] != 0)
    return sorted(str(c) for c in seen - {None})


def _commands(table: Table, root: Path) -> list[str]:
    seen = []
    for f in _folders(table, root):
        for s in sessions(f):
            if s["command"] not in seen:
                seen.append(s["command"])
    return seen


def header(table: Table, root: Path) -> str:
    commands = _commands(table, root) or ["(no session recorded)"]
    return (f"# {table.paper}: {table.title}\n\n"
            f"Written at commit {commit()} from the raw rows beside this file; the rows "
            f"were played at commit(s) {', '.join(_row_commits(table, root)) or '-'}.\n"
            f"Rerun: `python scripts/reproduce.py --only {table.key}` "
            f"(or `nakade reproduce --only {table.key}`). Sessions that played them:\n\n"
            + "\n".join(f"    {c}" for c in commands) + "\n")


def markdown(table: Table, rows: list[Row]) -> str:
    unit = "%" if table.kind in ("match", "halving") else ""
    lines = [f"| cell | paper {unit} | ours {unit} | 95 % interval | n | verdict | notes |",
             "|---|---|---|---|---|---|---|"]
    pc = bool(unit)
    for r in rows:
        interval = "-" if r.low is None else f"{_fmt(r.low, pc)} - {_fmt(r.high, pc)}"
        lines.append(f"| {r.label} | {_fmt(r.paper, pc)} | {_fmt(r.ours, pc)} | {interval} | "
                     f"{r.n} | {r.verdict} | {r.note} |")
    return "\n".join(lines) + "\n"


def plot(table: Table, rows: list[Row], path: Path):
    """Ours with error bars against the paper's points, one figure per table."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    groups = {}
    for r in rows:   # a line per algorithm (and feature norm), per method on the MDPs
        parts = r.label.split(", ")
        name = {"match": "ours", "halving": parts[-1], "regret": f"{parts[0]}, {parts[-1]}",
                "mdp": parts[0]}[table.kind]
        groups.setdefault(name, []).append(r)
    for i, (name, rs) in enumerate(groups.items()):
        got = [r for r in rs if r.ours is not None]
        xs = [r.x for r in got] if table.kind != "match" else [
            rows.index(r) for r in got]
        ax.errorbar(xs, [r.ours for r in got],
                    yerr=[[r.ours - r.low for r in got], [r.high - r.ours for r in got]],
                    fmt="o-", capsize=3, label=name)
    if table.kind == "match":
        ax.plot(range(len(rows)), [r.paper for r in rows], "s", color="black",
                label="paper")
        ax.set_xticks(range(len(rows)), [r.label for r in rows], rotation=30, ha="right",
                      fontsize=7)
        ax.axhline(50, color="grey", lw=0.5)
        ax.set_ylabel("engine A's win rate, %")
    else:
        ax.set_xscale("log")
        ax.set_xlabel(table.xlabel)
        ax.set_ylabel({"halving": "best arm found, %", "regret": "R_t / t at the last step",
                       "mdp": "mean return"}[table.kind])
        if table.kind == "halving":
            ax.set_title("(the paper's figure did not survive the extraction)", fontsize=8)
    ax.legend(fontsize=7)
    fig.suptitle(f"{table.paper}: {table.title}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write(table: Table, root: Path) -> list[Row]:
    """Write the table's markdown and plot; return its rows."""
    rows = ROWS_OF[table.kind](table, root)
    folder = root / table.key
    folder.mkdir(parents=True, exist_ok=True)
    (folder / TABLE_MD).write_text(header(table, root) + "\n" + markdown(table, rows))
    if any(r.ours is not None for r in rows):
        plot(table, rows, folder / TABLE_PNG)
    return rows


def verdicts(tables: list[Table], results: dict) -> str:
    """The verdict table of every published cell: one line a cell (a K or a panel for the
    bandit figures), the verdict first."""
    lines = ["| table | cell | paper | ours | 95 % interval | n | verdict |",
             "|---|---|---|---|---|---|---|"]
    for t in tables:
        pc = t.kind in ("match", "halving")
        for r in results[t.key]:
            interval = "-" if r.low is None else f"{_fmt(r.low, pc)} - {_fmt(r.high, pc)}"
            lines.append(f"| {t.paper.split(' (')[0]} | {r.label} | {_fmt(r.paper, pc)} | "
                         f"{_fmt(r.ours, pc)} | {interval} | {r.n} | {r.verdict} |")
    return "\n".join(lines) + "\n"
