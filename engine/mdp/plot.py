"""Curves of a sweep: mean return with its 95 % interval against playouts per decision
and against milliseconds per decision (log scale), one line per method, Trap's exact
optimum as a dashed line.  Needs matplotlib (the ``plots`` extra)."""


def plot_curves(records, path, optimum=None, title=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = [k for k in ("budget", "ms") if any(k in r for r in records)]
    fig, axes = plt.subplots(1, len(kinds), figsize=(6 * len(kinds), 4.2), squeeze=False)
    for ax, kind in zip(axes[0], kinds):
        methods = dict.fromkeys(r["method"] for r in records if kind in r)
        for method in methods:
            pts = sorted((r[kind], r["mean"], r["ci95"]) for r in records
                         if kind in r and r["method"] == method)
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            err = [[y - p[2][0] for y, p in zip(ys, pts)], [p[2][1] - y for y, p in zip(ys, pts)]]
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=method)
        if optimum is not None:
            ax.axhline(optimum, linestyle="--", color="grey", label="optimum")
        ax.set_xscale("log")
        ax.set_xlabel("playouts per decision" if kind == "budget" else "ms per decision")
        ax.set_ylabel("mean return")
        ax.grid(alpha=0.3)
        ax.legend()
    if records:
        r = records[0]
        setting = ", ".join(f"{k}={v:g}" for k, v in r["params"].items() if k in ("R", "D"))
        fig.suptitle(title or f"{r['problem']} ({setting})")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
