"""The learned move patterns: MM recovers known gammas from data drawn from them; the
move features on hand-built positions (ladder status included); the weights file's round
trip and faults; the softmax playout policy (legal, never fills an own eye, repeats from
its seed); the options end to end on every back end; the top-k measure's tie rule."""

import numpy as np
import pytest

from test_go_ladder import BREAKER, LADDER_B, LADDER_W, N, make

from engine.core.elo_policy import E_PAT, ELO_LEN, elo_move, elo_scratch, move_gamma
from engine.core.go_kernels import is_eye, is_legal
from engine.core.go_ladder import ladder_scratch
from engine.core.layout import BLACK, M_TO_PLAY, PASS, WHITE
from engine.core.move_features import (G_ATARI, G_CAPTURE, G_DIST, G_ESCAPE, G_LINE,
                                       G_SELFATARI, LEVELS, N_GROUPS, tactical_features)
from engine.core.patterns3 import N_CODES
from engine.core.rng import make_rng
from engine.core.spatial import N_RADII
from engine.game.coords import point
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from engine.knowledge import pattern_weights as weights
from engine.patterns import mm
from engine.patterns.accuracy import topk
from engine.patterns.dataset import Examples
from engine.knowledge.symmetry import CANON
from engine.search import registry
from engine.search.base import Budget
from engine.search.tree import MOVE, PRIOR_N, PRIOR_W


def synthetic(true_pat, true_groups, positions=4000, moves=12, seed=1, true_spatial=()):
    """Examples whose played moves are drawn from the model with the given gammas (the
    diamonds: ``true_spatial`` gammas of the hashes 1, 2, ... in the largest diamond's
    column; hash 0 has gamma 1 there)."""
    rng = np.random.default_rng(seed)
    r = positions * moves
    codes = rng.integers(0, len(true_pat), r).astype(np.int32)
    levels = np.zeros((r, N_GROUPS), dtype=np.int8)
    for g, gam in enumerate(true_groups):
        levels[:, g] = rng.integers(0, len(gam) + 1, r)
    hashes = np.zeros((r, N_RADII), dtype=np.int64)
    hashes[:, -1] = rng.integers(0, len(true_spatial) + 1, r)
    strength = true_pat[codes] * np.prod(
        [np.concatenate([[1.0], gam])[levels[:, g]] for g, gam in enumerate(true_groups)],
        axis=0) * np.concatenate([[1.0], true_spatial])[hashes[:, -1]]
    pos = np.repeat(np.arange(positions), moves).astype(np.int32)
    chosen = np.zeros(r, dtype=bool)
    for j in range(positions):
        s = strength[j * moves:(j + 1) * moves]
        chosen[j * moves + rng.choice(moves, p=s / s.sum())] = True
    return Examples(pos, codes, levels, chosen, hashes)


def test_mm_recovers_the_gammas_it_was_given():
    true_pat = np.array([1.0, 4.0, 0.25, 2.0])
    true_groups = [rng_levels for rng_levels in (np.linspace(0.3, 3.0, n) for n in LEVELS)]
    model = mm.fit(synthetic(true_pat, true_groups), iterations=40)
    fitted = model.pattern_gamma / model.pattern_gamma[0]   # the pattern scale is free
    assert np.allclose(np.log(fitted), np.log(true_pat), atol=0.2)
    for got, want in zip(model.groups, true_groups):
        assert np.allclose(np.log(got), np.log(want), atol=0.25)


def test_mm_recovers_the_gammas_of_the_largest_known_diamond():
    true_pat = np.array([1.0, 4.0, 0.25, 2.0])
    true_groups = [np.ones(n) for n in LEVELS]
    ex = synthetic(true_pat, true_groups, true_spatial=np.array([5.0, 0.3]))
    model = mm.fit(ex, iterations=40, spatial_min=1)
    # hash 0 (gamma 1) is known too, since it is played: the gammas are relative to it
    assert list(model.spatial_keys) == [0, 1, 2]
    got = model.spatial_gamma / model.spatial_gamma[0]
    assert np.allclose(np.log(got[1:]), np.log([5.0, 0.3]), atol=0.2)


def levels_of(st, rc, color):
    lv = np.zeros(N_GROUPS, dtype=np.int8)
    tactical_features(st.s, st.meta, point(*rc, N), color, ladder_scratch(N), 1000, lv)
    return lv


def test_escape_and_atari_carry_the_ladder_status():
    # White's extension at (4, 5) runs into the working ladder; the breaker saves it
    assert levels_of(make(LADDER_B, LADDER_W, WHITE), (4, 5), WHITE)[G_ESCAPE] == 2
    assert levels_of(make(LADDER_B, LADDER_W + BREAKER, WHITE), (4, 5), WHITE)[G_ESCAPE] == 1
    # Black's atari at (3, 4) on the two-liberty stone starts the ladder
    two = [(4, 3), (5, 4), (5, 5)]
    assert levels_of(make(two, LADDER_W, BLACK), (3, 4), BLACK)[G_ATARI] == 1
    assert levels_of(make(two, LADDER_W + BREAKER, BLACK), (3, 4), BLACK)[G_ATARI] == 2


def test_capture_self_atari_distance_and_line():
    st = make(LADDER_B, LADDER_W, BLACK)     # Black to move takes E5 at (4, 5)
    st.play(point(0, 0, N), BLACK)           # a last move in the corner, then White passes
    st.play(PASS, WHITE)
    lv = levels_of(st, (4, 5), BLACK)
    assert lv[G_CAPTURE] == 3 and lv[G_LINE] == 4 and lv[G_DIST] == 0   # PASS: no distance
    st = GoState(GoRules(size=N, superko=False))
    st.setup(black=[point(0, 1, N)], white=[point(0, 2, N), point(1, 1, N)])
    st.to_play = BLACK
    st.play(point(8, 8, N), BLACK)
    st.play(point(2, 0, N), WHITE)           # the last move
    lv = levels_of(st, (0, 0), BLACK)        # joins (0, 1): one liberty left, (1, 0)
    assert lv[G_SELFATARI] == 2 and lv[G_LINE] == 1 and lv[G_DIST] == 3   # d = 2+0+2


def test_weights_round_trip_and_faults(tmp_path):
    codes = np.unique(CANON[[0, 0b01, 0b1001 << 4, 0xFFFF]]).astype(np.int32)
    model = mm.Model(codes, np.linspace(0.5, 3.0, len(codes)),
                     [np.linspace(0.1, 2.0, n) for n in LEVELS],
                     np.array([-2**63, -5, 7, 2**63 - 1], np.int64), np.array([1.5, 2, 3, 4]))
    path = tmp_path / "w.txt"
    weights.save(path, model, 12.0, 99.0, 50, "a test")
    wt = weights.load(str(path))
    assert wt.prior_games == 12.0 and wt.prior_scale == 99.0 and wt.ladder_nodes == 50
    assert sorted(wt.patterns) == list(codes)
    assert np.allclose([wt.patterns[c] for c in codes], model.pattern_gamma, rtol=1e-3)
    assert wt.spatial == {-2**63: 1.5, -5: 2.0, 7: 3.0, 2**63 - 1: 4.0}
    v = weights.policy_vector(str(path))
    assert v.shape == (ELO_LEN,)
    bad = tmp_path / "bad.txt"
    bad.write_text(path.read_text().replace("escape ", "escape 0 "))
    with pytest.raises(weights.WeightsError, match="escape needs 2"):
        weights.load(str(bad))
    with pytest.raises(weights.WeightsError, match="cannot read"):
        weights.load(str(tmp_path / "missing.txt"))


def test_the_policy_vector_never_offers_an_own_eye():
    v = weights.policy_vector()
    st = GoState(GoRules(size=N, superko=False))
    st.setup(black=[point(0, 1, N), point(1, 0, N), point(1, 1, N)])
    from engine.core.patterns3 import code
    c = code(st.s, N + 2, point(0, 0, N))
    assert v[E_PAT + c] == 0.0                    # Black's eye, Black to move
    assert v[E_PAT + N_CODES + c] > 0.0           # not White's eye


def test_elo_moves_are_legal_and_repeat_from_the_seed():
    v = weights.policy_vector()
    runs = []
    for _ in range(2):
        st = GoState(GoRules(size=N, superko=False))
        rng = make_rng(11)
        wbuf, buf, lv = elo_scratch(st.s.shape[1])
        lad = ladder_scratch(N, 2 * N)
        moves = []
        for _ in range(150):
            color = int(st.meta[M_TO_PLAY])
            p = int(elo_move(st.s, st.meta, rng, color, v, wbuf, buf, lad, lv))
            if p != PASS:
                assert is_legal(st.s, st.meta, p, color)
                assert not is_eye(st.s, N + 2, p, color)
            moves.append(p)
            st.play(p, color)
            if st.is_terminal():
                break
        runs.append(moves)
    assert runs[0] == runs[1] and len(runs[0]) > 40


@pytest.mark.parametrize("algo", ["uct:prior=1:priors=elo:rave=1", "shot", "linuct-rave",
                                  "uct:playout=heavy:prior=1:priors=elo"])
def test_every_back_end_takes_the_learned_policy(algo):
    st = GoState(GoRules(size=N))
    st.play(point(2, 2, N))
    options = {"playout": "elo"} if "heavy" not in algo else {}
    results = [registry.make(algo, seed=4, options=options).search(st, Budget(playouts=150))
               for _ in range(2)]
    assert results[0].playouts == 150
    assert [(c.move, c.visits) for c in results[0].candidates] == \
        [(c.move, c.visits) for c in results[1].candidates]


def test_elo_priors_follow_the_move_strengths():
    """Each child: prior_games even games, and sqrt(its share of the gammas) times
    prior_scale won games; the gammas read the diamonds."""
    st = make(LADDER_B, LADDER_W, BLACK)
    searcher = registry.make("uct:prior=1:priors=elo:patterns=tygem:rave=1", seed=1)
    searcher.search(st, Budget(playouts=1))
    pool = searcher.pool
    kids = pool.children()
    elo = weights.elo("tygem")
    assert len(elo.keys) > 1000 and np.all(np.diff(elo.keys) > 0)
    lad = ladder_scratch(N)
    lv = np.zeros(N_GROUPS, dtype=np.int8)
    hashes = np.zeros(N_RADII, dtype=np.int64)
    gamma = {int(pool.ti[MOVE, k]): move_gamma(st.s, st.meta, int(pool.ti[MOVE, k]), BLACK,
                                               elo.gammas, elo.keys, elo.spatial, lad, lv,
                                               hashes)
             for k in kids if pool.ti[MOVE, k] != PASS}
    plain = {p: move_gamma(st.s, st.meta, p, BLACK, elo.gammas, elo.keys[:0],
                           elo.spatial[:0], lad, lv, hashes) for p in gamma}
    assert any(abs(gamma[p] - plain[p]) > 1e-9 * plain[p] for p in gamma)   # diamonds read
    total = sum(gamma.values())
    wt = weights.load("tygem")
    for k in kids:
        p = int(pool.ti[MOVE, k])
        won = 0.0 if p == PASS else np.floor(np.sqrt(gamma[p] / total) * wt.prior_scale)
        assert pool.ti[PRIOR_N, k] == int(wt.prior_games + won)
        assert pool.tf[PRIOR_W, k] == pytest.approx(wt.prior_games / 2 + won)
    take = point(4, 5, N)   # the capture of the ladder stone is among the favourites
    assert gamma[take] > np.percentile(list(gamma.values()), 90)


def test_a_bad_patterns_option_is_refused():
    with pytest.raises(ValueError, match="cannot read"):
        registry.make("uct:patterns=/nonexistent/w.txt")
    s = registry.make("uct")
    with pytest.raises(ValueError, match="cannot read"):
        s.set_option("patterns", "/nonexistent/w.txt")
    assert s.options()["patterns"] == "builtin"


def test_topk_shares_ties_out():
    ex = Examples(np.array([0, 0, 0, 1, 1], np.int32), np.zeros(5, np.int32),
                  np.zeros((5, N_GROUPS), np.int8), np.array([0, 1, 0, 1, 0], bool),
                  np.zeros((5, N_RADII), np.int64))
    s = np.array([1.0, 1.0, 1.0, 5.0, 1.0])
    assert topk(ex, s, 1) == pytest.approx((1 / 3 + 1) / 2)
    assert topk(ex, s, 2) == pytest.approx((2 / 3 + 1) / 2)


def test_tsumego_answers_make_one_example_a_position_and_the_shipped_weights_load():
    """``examples_at`` on problems' framed positions and answers (what ``train_patterns.py
    tsumego`` fits): one chosen row per answer, the chosen row the answer's own features,
    rows aligned with the heavy policy's; the weights fitted that way load by name."""
    from engine.core.game import GO, candidate_moves
    from engine.go_knowledge import load as load_knowledge
    from engine.patterns.accuracy import heavy_strengths
    from engine.patterns.dataset import examples_at
    from engine.tsumego.problem import load_problems
    from engine.tsumego.solve import position
    problems = [p for p in load_problems(["problems/go"]).problems if p.accept][:6]
    pairs = [(position(p), m) for p in problems for m in sorted(p.accept)]
    ex = examples_at(pairs)
    assert ex.n_positions == len(pairs)
    assert np.bincount(ex.pos[ex.chosen]).tolist() == [1] * len(pairs)
    state, move = pairs[0]
    cand = np.empty(state.s.shape[1] + 1, dtype=np.int32)
    k = candidate_moves(GO, state.s, state.meta, cand) - 1
    rows = np.flatnonzero(ex.pos == 0)
    assert len(rows) == k and cand[np.flatnonzero(ex.chosen[rows])[0]] == move
    kn = load_knowledge()
    assert len(heavy_strengths(pairs, kn.patterns, kn.playout)) == len(ex.pos)
    shipped = weights.load("tsumego")
    assert shipped.path.endswith("tsumego_patterns.txt") and shipped.patterns
    assert registry.make("uct:prior=1:priors=elo:patterns=tsumego").options()[
        "patterns"] == "tsumego"


def test_train_patterns_tsumego_fits_writes_and_measures_the_held_out(tmp_path, capsys):
    """``scripts/train_patterns.py tsumego``: the problems listed in ``--exclude`` are left
    out of the fit and measured; the weights written load and hold the fitted patterns."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import train_patterns
    folder = Path("problems/go/9x9")
    held = sorted(folder.glob("*.sgf"))[:3]
    listing = tmp_path / "held.txt"
    listing.write_text("".join(f"{p.name}\n" for p in held))
    out = tmp_path / "w.txt"
    assert train_patterns.main(["tsumego", str(folder), "--exclude", str(listing),
                                "--iterations", "3", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    n = len(list(folder.glob("*.sgf")))
    assert f"{n - 3} training problems (3 held out, 0 unreadable)" in text
    assert "| 3 |" in text and "learned on tsumego (all features)" in text
    assert weights.load(str(out)).patterns
