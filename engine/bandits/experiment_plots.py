"""The figures of the bandit experiments (``experiments``): best arm found against the
number of arms, and average regret against the step.  Needs matplotlib (the
``experiments`` extra)."""

import numpy as np

from .experiments import REGRET_ALGORITHMS


def plot_halving(rows, budgets, arms, reps, ucb_c, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    styles = ["-", "--", ":", "-."]
    colours = {"SequentialHalving": "tab:blue", "UCB1": "tab:red"}
    for bi, budget in enumerate(budgets):
        for name, colour in colours.items():
            pts = [r for r in rows if r["budget"] == budget and r["algorithm"] == name]
            ks = [r["arms"] for r in pts]
            rate = np.array([r["rate"] for r in pts])
            se = np.array([r["se"] for r in pts])
            ax.errorbar(ks, 100 * rate, yerr=196 * se, color=colour,
                        linestyle=styles[bi % len(styles)], marker="o", markersize=3,
                        capsize=2, label=f"{name}, T = {budget:,}")
    ax.set_xscale("log", base=2)
    ax.set_xticks(arms)
    ax.set_xticklabels([str(k) for k in arms])
    ax.axvline(128, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("number of arms K")
    ax.set_ylabel("best arm identified (%)")
    ax.set_ylim(0, 101)
    ax.set_title(f"Sequential Halving vs UCB1 (c = {ucb_c:g}), {reps:,} runs each, "
                 "95% CI")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_regret(curves, dims, norms, runs, constants, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(norms), len(dims), sharey=True, squeeze=False,
                             figsize=(4.2 * len(dims), 3.6 * len(norms) + 0.6))
    colours = {"LinUCB": "tab:blue", "fLinUCB-GD": "tab:green", "UCB1": "tab:red"}
    for row, norm in zip(axes, norms):
        for ax, d in zip(row, dims):
            mean, se = curves[(d, norm)]
            t = np.arange(1, mean.shape[1] + 1)
            for i, name in enumerate(REGRET_ALGORITHMS):
                ax.plot(t, mean[i], color=colours[name], label=name)
                ax.fill_between(t, mean[i] - 1.96 * se[i], mean[i] + 1.96 * se[i],
                                color=colours[name], alpha=0.2, linewidth=0)
            ax.set_xscale("log")
            ax.set_title(f"d = {d}, |z_a| = {norm:g}, {runs} runs", fontsize=10)
            ax.grid(alpha=0.3)
        row[0].set_ylabel("average regret R_t / t")
    for ax in axes[-1]:
        ax.set_xlabel("step t")
    axes[0][0].legend()
    alpha, kappa, ucb_c = constants
    fig.suptitle(f"LinUCB (alpha = {alpha:g}), fLinUCB-GD (kappa = {kappa:g}), "
                 f"UCB1 (c = {ucb_c:g}); shaded: 95% CI of the mean")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
