"""How far from uniform the abstraction tree's choices below the root are, by budget.

After one tree decision (Algorithm 8 below Algorithm 9's root) of B playouts on an empty
sheet, the script samples states one shot below the root (a candidate shot delivered
with the rules' noise, candidates drawn by their root visits) and reads the tree there
exactly as ``search_kernels.below`` does: the path's boxes mixed with w(d), the total
mapped through f(n) = n^0.4.  Per state it records the effective visits of an action
(its mixed count times f(n_sum) / n_sum), the UCB1 exploration term, the spread of the
mixed means, and where the action UCB1 picks ranks by mixed mean among the open actions
(0 = the best, 1 = the worst): a uniform random choice ranks 0.5 on average, so a mean
rank near 0.5 says the tree plays below the root about as flat Monte Carlo does.

    python scripts/curling/below_root.py --players tree tree-mean --budgets 150 1000 5000
"""

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.core.rng import make_rng  # noqa: E402
from engine.curling import search_kernels as K  # noqa: E402
from engine.curling.physics import TABLE  # noqa: E402
from engine.curling.players import SearchPlayer, SearchSettings, parse_spec  # noqa: E402
from engine.curling.sheet import STONES  # noqa: E402
from engine.curling.shots import (DRAW_TARGETS, HIT_EXTRA, N_ACTIONS,  # noqa: E402
                                  action_delivery, deliver)
from engine.curling.winprob import end_values  # noqa: E402
from engine.results_store import commit  # noqa: E402

HASH = np.array([-7046029254386353131], np.int64)


def _lookup(tree, box, depth, t, pos, alive):
    """The child box the kernel's ``_child`` would find, or -1 (never created)."""
    box_n, box_r, lo, stats, keys, vals, used = tree
    code = 0
    for k in range(t):
        for c in range(2):
            v = pos[k, c] if alive[k] else K.LO[c]
            if v >= lo[box, 2 * k + c] + K.SPAN[c] / 2.0 ** (depth + 1):
                code |= 1 << (2 * k + c)
    key = np.array([box * (1 << 33) + code], np.int64)
    mask = keys.shape[0] - 1
    h = int(((key * HASH) >> 20)[0]) & mask
    while keys[h] != -1:
        if keys[h] == key[0]:
            return int(vals[h])
        h = (h + 1) & mask
    return -1


def read_state(tree, cfg, t, pos, alive):
    """(effective visits per open action, exploration terms, mixed means, the UCB1
    choice's rank by mean in [0, 1]) at a state of shot ``t``, as ``below`` mixes it."""
    box_n, box_r, lo, stats = tree[:4]
    c, max_depth, n_new, at_mean = cfg[8], int(cfg[1]), cfg[2], cfg[7] > 0
    acts = np.empty(N_ACTIONS, np.int64)
    m = K.open_below(DRAW_TARGETS, alive, acts, cfg[10] > 0)
    acts = acts[:m]
    n, r = np.zeros(m), np.zeros(m)
    box, depth = t, 0
    while True:
        w = K.weight(depth, cfg[9])
        mean = box_r[box] / box_n[box] if box_n[box] > 0 else 0.5
        tried = stats[box, 0, acts] > 0
        n += np.where(tried, w * stats[box, 0, acts], w * n_new if box_n[box] > 0 else 0.0)
        virtual = (w * n_new * mean if at_mean else mean) if box_n[box] > 0 else 0.0
        r += np.where(tried, w * stats[box, 1, acts], virtual)
        if box_n[box] < K.threshold(depth) or depth >= max_depth:
            break
        nxt = _lookup(tree, box, depth, t, pos, alive)
        if nxt < 0:
            break
        box, depth = nxt, depth + 1
    total = n.sum()
    if total <= 0:
        return None
    scale = K.count_transform(total) / total
    log_n = math.log(max(total * scale, 1.0))
    eff = n * scale
    with np.errstate(divide="ignore", invalid="ignore"):
        means = np.where(n > 0, r / n, np.nan)
        bonus = np.where(n > 0, c * np.sqrt(2.0 * log_n / eff), np.inf)
    scores = np.where(n > 0, means + bonus, np.inf)
    pick = int(np.argmax(scores))
    valued = np.isfinite(means)
    if np.isinf(scores[pick]) or valued.sum() < 2:
        rank = 0.5               # an untried action: the kernel's pick is by tie-break
    else:
        rank = float(np.mean(means[valued] > means[pick]) * valued.sum() / (valued.sum() - 1))
    return eff[valued], bonus[valued], means[valued], rank, depth


def decide(spec: str, budget: int, seed: int):
    """One tree decision on an empty sheet, first end of two: (tree, out, cfg)."""
    name, changes = parse_spec(spec)
    s = SearchSettings(budget=budget, **changes)
    cfg = SearchPlayer(name, seed, s).cfg()
    pos, alive = np.zeros((STONES, 2)), np.zeros(STONES, np.bool_)
    tree = K.new_tree(budget * STONES + 2 * STONES, N_ACTIONS)
    out = (np.zeros(s.n_cand, np.int64), np.zeros(s.n_cand), np.zeros(s.n_cand),
           np.zeros(N_ACTIONS), np.zeros(N_ACTIONS), np.zeros(N_ACTIONS, np.int64),
           np.zeros(3, np.int64))
    args = (cfg, (TABLE, DRAW_TARGETS, HIT_EXTRA), end_values(1, 0), pos, alive, 0)
    rng = make_rng(seed)
    K.search(*args, 0, tree, rng, out)
    K.search(*args, max(budget, s.c_limit * int(out[6][1])), tree, rng, out)
    return tree, out, cfg


def measure(kind: str, budget: int, states: int, seed: int) -> dict:
    start = time.process_time()
    tree, out, cfg = decide(kind, budget, seed)
    seconds = time.process_time() - start
    k = int(out[6][2])
    cand, cand_n = out[0][:k], out[1][:k]
    weights = cand_n + 1.0
    rng, pick = make_rng(seed + 1), np.random.default_rng(seed)
    eff, bonus, spread, ranks, depths = [], [], [], [], []
    for _ in range(states):
        a = int(cand[pick.choice(k, p=weights / weights.sum())])
        pos, alive = np.zeros((STONES, 2)), np.zeros(STONES, np.bool_)
        vx, vy, spin = action_delivery(TABLE, DRAW_TARGETS, HIT_EXTRA, pos, a)
        deliver(TABLE, pos, alive, 0, vx, vy, spin, True, rng, np.zeros((0, 3)))
        got = read_state(tree, cfg, 1, pos, alive)
        if got is None:
            continue
        e, b, mu, rank, depth = got
        eff.append(np.median(e))
        bonus.append(np.median(b))
        spread.append(float(mu.max() - mu.min()))
        ranks.append(rank)
        depths.append(depth)
    return {"player": kind, "budget": budget, "states": len(ranks), "decision_cpu_s": round(seconds, 2),
            "boxes": int(tree[6][0]), "path_depth": float(np.mean(depths)),
            "effective_visits": float(np.median(eff)),
            "exploration_term": float(np.median(bonus)),
            "mean_spread": float(np.median(spread)),
            "choice_rank": float(np.mean(ranks)),
            "choice_rank_se": float(np.std(ranks, ddof=1) / math.sqrt(len(ranks))),
            "seed": seed, "commit": commit()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", nargs="+", default=["tree", "tree-mean"],
                    help="tree players by spec (tree, tree-mean, tree,c_below=0.3)")
    ap.add_argument("--budgets", type=int, nargs="+", default=[150, 1000, 5000])
    ap.add_argument("--states", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, help="append one JSON line a budget")
    args = ap.parse_args(argv)
    print("| player | playouts a shot | states | path depth | effective visits an action | "
          "exploration term | spread of the means | UCB1 choice's rank (0 best, "
          "0.5 uniform) |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for kind, b in ((k, b) for k in args.players for b in args.budgets):
        rec = measure(kind, b, args.states, args.seed)
        print(f"| `{kind}` | {b:,} | {rec['states']} | {rec['path_depth']:.1f} | "
              f"{rec['effective_visits']:.2f} | {rec['exploration_term']:.2f} | "
              f"{rec['mean_spread']:.2f} | {rec['choice_rank']:.2f} "
              f"(± {rec['choice_rank_se']:.2f}) |", flush=True)
        if args.out:
            with args.out.open("a") as f:
                f.write(json.dumps(rec) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
