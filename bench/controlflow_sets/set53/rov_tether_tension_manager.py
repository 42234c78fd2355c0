"""Tether management for a work-class ROV winch.

From the load-cell tension (kN) and ROV depth (m) history and the current
tether payout (m) the manager detects snags (sudden tension jumps), predicts
the tension for a candidate payout with a catenary + learned current-drag
model, and pays out / reels in in 2 m steps to keep the tension inside the
working band.  Returns (new payout m, winch command -1/0/+1, snag flag).
"""
import torch
import torch.nn as nn


class CatenaryTension(nn.Module):
    def __init__(self):
        super().__init__()
        self.drag = nn.Linear(3, 1)

    def forward(self, depth, payout, current_idx):
        if payout < depth * 1.05:
            # tether almost vertical: the ROV hangs on it directly
            return 6.0 + 0.5 * (depth * 1.05 - payout)
        slack = payout - depth
        x = torch.stack([depth / 100.0, slack / 100.0, current_idx]).unsqueeze(0)
        drag = 0.5 + torch.sigmoid(self.drag(x)).squeeze()
        return 0.5 + drag * depth / (slack + 10.0)


class TetherManager(nn.Module):
    def __init__(self):
        super().__init__()
        self.catenary = CatenaryTension()
        self.max_tension = 3.0
        self.min_tension = 1.2
        self.max_payout = 600.0
        self.step_m = 2.0
        self.snag_jump_kn = 3.0
        self.window = 20

    def _snagged(self, tension):
        snag = False
        for i in range(1, tension.shape[0]):
            if tension[i] - tension[i - 1] > self.snag_jump_kn:
                snag = True
                break
        return snag

    def forward(self, tension, depth, payout):
        payout0 = payout[0]
        if self._snagged(tension):
            # stop the winch and let the pilot free the tether
            return payout0, torch.zeros((), dtype=torch.long), torch.ones((), dtype=torch.long)

        win = tension[-self.window:] if tension.shape[0] > self.window else tension
        current_idx = win.std() / (win.mean() + 1e-3)   # fluctuation ~ current strength
        depth_now = depth[-1]

        new_payout = payout0
        predicted = self.catenary(depth_now, new_payout, current_idx)
        while predicted > self.max_tension and new_payout < self.max_payout:
            new_payout = new_payout + self.step_m
            predicted = self.catenary(depth_now, new_payout, current_idx)
        while predicted < self.min_tension and new_payout - self.step_m > depth_now * 1.1:
            new_payout = new_payout - self.step_m
            predicted = self.catenary(depth_now, new_payout, current_idx)

        cmd = torch.sign(new_payout - payout0).to(torch.long)
        return new_payout, cmd, torch.zeros((), dtype=torch.long)


def model():
    torch.manual_seed(5310)
    return TetherManager().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    samples = torch.export.Dim("samples", min=4, max=200)
    return ({0: samples}, {0: samples}, None)


def verify_inputs():
    def dive(n, depth_end, tension_level, seed, snag_at=None):
        g = torch.Generator().manual_seed(seed)
        depth = torch.linspace(depth_end * 0.9, depth_end, n)
        tension = tension_level + 0.2 * torch.randn(n, generator=g)
        if snag_at is not None:
            tension[snag_at:] += 4.0
        return tension, depth

    return [
        # example: 60 samples (> 20 window); ROV at 300 m on 305 m of tether
        # (taut branch) -> pay out until tension < 3 kN (first while)
        (*dive(60, 300.0, 2.0, seed=1), torch.tensor([305.0])),
        # 4 samples (min); 200 m depth on 600 m payout: slack -> reel in
        # until tension >= 1.2 kN (second while, first and-operand false)
        (*dive(4, 200.0, 1.0, seed=2), torch.tensor([600.0])),
        # 200 samples (max); tension jump at sample 150 -> snag break, stop
        (*dive(200, 150.0, 2.0, seed=3, snag_at=150), torch.tensor([180.0])),
        # 10 samples; deep 590 m on 592 m, max payout 600 reached while still
        # over-tensioned (first while, second and-operand false)
        (*dive(10, 590.0, 2.5, seed=4), torch.tensor([592.0])),
        # 30 samples; recovery near the surface, 8 m depth on 12 m: light
        # tension, reeling in stops at 1.1 x depth (second while, second
        # and-operand false)
        (*dive(30, 8.0, 0.5, seed=5), torch.tensor([12.0])),
    ]
