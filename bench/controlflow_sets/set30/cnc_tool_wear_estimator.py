"""CNC milling tool-wear estimator (kind T).

Per-pass sensor summaries (spindle current, vibration x/y/z) of one cutting tool are fed
through a small pre-net (ModuleList of residual blocks) and a GRU cell stepped over the
passes.  The wear increment per pass is accumulated into a monotone flank-wear curve.  If
the tool has exceeded the wear limit it is flagged for replacement and the remaining
useful life (RUL) head is skipped.

constructs: 1 (if on tensor), 2 (return inside a branch), 5 (for over dynamic T, append + cat),
            9 (loop over nn.ModuleList, config flag)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        return x + F.gelu(self.fc(self.norm(x)))


class ToolWearEstimator(nn.Module):
    def __init__(self, n_channels=4, hidden=16, n_blocks=2, wear_limit_mm=0.3, add_rms=True):
        super().__init__()
        self.add_rms = add_rms
        in_dim = n_channels + 1 if add_rms else n_channels
        self.inp = nn.Linear(in_dim, hidden)
        self.blocks = nn.ModuleList([ResidualBlock(hidden) for _ in range(n_blocks)])
        self.cell = nn.GRUCell(hidden, hidden)
        self.wear_rate = nn.Linear(hidden, 1)
        self.rul_head = nn.Linear(hidden + 1, 1)
        self.wear_limit_mm = wear_limit_mm

    def forward(self, passes):
        # passes: (T, C) one row per machining pass
        if self.add_rms:
            rms = passes[:, 1:].pow(2).mean(dim=1, keepdim=True).sqrt()
            passes = torch.cat([passes, rms], dim=1)
        z = self.inp(passes)
        for block in self.blocks:
            z = block(z)

        h = z.new_zeros(1, self.cell.hidden_size)
        states = []
        for t in range(passes.shape[0]):
            h = self.cell(z[t:t + 1], h)
            states.append(h)
        states = torch.cat(states, dim=0)

        # wear increments are positive, so the flank-wear curve is monotone
        increments = 0.01 * F.softplus(self.wear_rate(states)).squeeze(1)
        wear = torch.cumsum(increments, dim=0)

        if wear[-1] > self.wear_limit_mm:
            replace = torch.ones(1)
            return wear, torch.zeros(1), replace

        rul_passes = F.softplus(self.rul_head(torch.cat([h, wear[-1:].unsqueeze(0)], dim=1)))
        return wear, rul_passes.reshape(1) * (self.wear_limit_mm - wear[-1]) / self.wear_limit_mm, torch.zeros(1)


def model():
    torch.manual_seed(302)
    return ToolWearEstimator().eval()


def _passes(n, seed, level=1.0):
    g = torch.Generator().manual_seed(seed)
    return level * (torch.rand(n, 4, generator=g) + 0.5)


def example_inputs():
    return (_passes(12, 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("passes", min=2, max=256)},)


def verify_inputs():
    return [
        example_inputs(),         # 12 passes: wear below limit -> RUL head
        (_passes(3, 1),),         # short history, fresh tool -> RUL head
        (_passes(60, 2),),        # long history: wear above limit -> early return "replace"
        (_passes(200, 3, 2.0),),  # very long, heavy cutting: early return "replace"
    ]
