// Final stone positions from the official FCV1 simulator, for tests/data/curling_fcv1.json.
// Reads lines "k vx vy rot n x1 y1 ... xn yn" (shot coordinates of side 0: the hack at the
// origin, rot 0 = ccw, 1 = cw, k the index the thrown stone takes, the n resting stones
// take indices 0..n-1 skipping k) and prints "alive x y" for the 16 stones per line, after
// the same off-sheet removal the rules apply during and after the shot.
#include <cstdio>
#include <iostream>
#include <digitalcurling3/digitalcurling3.hpp>

namespace dc = digitalcurling3;

int main() {
    dc::simulators::SimulatorFCV1Factory factory;
    auto sim = factory.CreateSimulator();
    const float hack = 21.0315f, half = 4.75f / 2.f, r = dc::ISimulator::kStoneRadius;
    int k, rot, n;
    float vx, vy;
    while (std::cin >> k >> vx >> vy >> rot >> n) {
        dc::ISimulator::AllStones stones;
        int slot = 0;
        for (int i = 0; i < n; ++i) {
            float x, y;
            std::cin >> x >> y;
            if (slot == k) ++slot;
            stones[slot++].emplace(dc::Vector2(x, y - hack), 0.f, dc::Vector2(), 0.f);
        }
        stones[k].emplace(dc::Vector2(0.f, -hack), 0.f, dc::Vector2(vx, vy),
                          rot == 0 ? dc::kPi / 2.f : -dc::kPi / 2.f);
        sim->SetStones(stones);
        while (true) {
            auto now = sim->GetStones();
            bool removed = false;
            for (auto &s : now) {
                if (s && !(s->position.x + r < half && s->position.x - r > -half
                           && s->position.y - r < 19.2025f && s->position.y - r > -22.8605f)) {
                    s = std::nullopt;
                    removed = true;
                }
            }
            if (removed) sim->SetStones(now);
            if (sim->AreAllStonesStopped()) break;
            sim->Step();
        }
        auto const& out = sim->GetStones();
        for (auto const& s : out) {
            bool in = s && s->position.y - r > 10.9725f;
            std::printf("%d %.5f %.5f ", in ? 1 : 0, in ? s->position.x : 0.f,
                        in ? s->position.y + hack : 0.f);
        }
        std::printf("\n");
    }
}
