"""CPU design-space exploration: replay a branch trace through a hybrid predictor.

A tournament predictor combines gshare (global history XOR PC indexing a table of
2-bit saturating counters) with a perceptron predictor whose weights start from
a profile of a previous run. A per-PC chooser of 2-bit counters picks which one
to trust and is trained only when the two disagree. Unconditional jumps hit the
BTB and bypass the direction predictors. Mispredictions are counted after a
warm-up period that depends on the trace length.
"""
import torch
import torch.nn as nn

NOT_TAKEN, TAKEN, JUMP = 0, 1, 2


class HybridBranchPredictor(nn.Module):
    def __init__(self, history_bits=6, perceptron_rows=16, theta=14.0):
        super().__init__()
        self.history_bits = history_bits
        self.mask = (1 << history_bits) - 1
        self.perceptron_rows = perceptron_rows
        self.theta = theta
        self.register_buffer("profile_weights", torch.randn(perceptron_rows, history_bits + 1) * 3.0)

    def _update_counter(self, table, idx, up):
        if up and table[idx] < 3:
            table[idx] += 1
        elif not up and table[idx] > 0:
            table[idx] -= 1

    def forward(self, pcs, outcomes):
        n = pcs.shape[0]
        warmup = 64 if n > 256 else 16
        pht = torch.full((self.mask + 1,), 2, dtype=torch.long)
        chooser = torch.full((self.mask + 1,), 1, dtype=torch.long)
        weights = self.profile_weights.clone()
        history = torch.ones(self.history_bits)
        ghr = 0
        mispredicts = torch.zeros((), dtype=torch.long)
        predictions = []

        for t in range(n):
            if outcomes[t] == JUMP:
                predictions.append(torch.tensor(TAKEN))
                continue
            pc = int(pcs[t])
            idx = (pc ^ ghr) & self.mask
            row = pc % self.perceptron_rows
            g_pred = bool(pht[idx] >= 2)
            y = weights[row, 0] + (weights[row, 1:] * history).sum()
            p_pred = bool(y >= 0)
            pred = p_pred if chooser[pc & self.mask] >= 2 else g_pred
            taken = bool(outcomes[t] == TAKEN)
            predictions.append(torch.tensor(int(pred)))

            if g_pred != p_pred:
                self._update_counter(chooser, pc & self.mask, p_pred == taken)
            self._update_counter(pht, idx, taken)
            if p_pred != taken or y.abs() <= self.theta:
                sign = 1.0 if taken else -1.0
                weights[row, 0] += sign
                weights[row, 1:] += sign * history
            if pred != taken and t >= warmup:
                mispredicts += 1

            ghr = ((ghr << 1) | int(taken)) & self.mask
            history = torch.cat([history[1:], torch.tensor([1.0 if taken else -1.0])])

        return torch.stack(predictions), mispredicts, pht, chooser


def model():
    torch.manual_seed(1234)
    return HybridBranchPredictor().eval()


def _trace(n, seed, jump_every=0, random_frac=0.0):
    """Loop back-edges (taken 7x then exit), an alternating if/else and some data-dependent branches."""
    g = torch.Generator().manual_seed(seed)
    pcs, outs = [], []
    for t in range(n):
        kind = t % 3
        if jump_every and t % jump_every == jump_every - 1:
            pcs.append(0x400), outs.append(JUMP)
        elif kind == 0:
            pcs.append(0x120), outs.append(TAKEN if (t // 3) % 8 != 7 else NOT_TAKEN)
        elif kind == 1:
            pcs.append(0x184), outs.append((t // 3) % 2)
        else:
            r = float(torch.rand((), generator=g))
            pcs.append(0x1c8 + 4 * (t % 5)), outs.append(int(r < 0.5) if r < random_frac * 2 else TAKEN)
    return torch.tensor(pcs, dtype=torch.long), torch.tensor(outs, dtype=torch.long)


def example_inputs():
    return _trace(120, 1, jump_every=10, random_frac=0.3)


def dynamic_shapes():
    n = torch.export.Dim("branches", min=8, max=512)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                          # loop + alternating + some random branches, jumps bypass (continue)
        _trace(512, 2, random_frac=0.5),           # max trace: long warm-up (64), no jumps
        _trace(8, 3, jump_every=4),                # min trace: everything inside the warm-up window
        _trace(300, 4, jump_every=7, random_frac=0.0),  # fully predictable pattern, chooser settles
    ]
