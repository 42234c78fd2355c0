"""VoIP packet-loss concealment: extrapolate lost audio frames, mute long bursts.

Constructs: 1 (if/else on the loss flag), 2 (`out` assigned in every branch,
`run` updated in one), 3 (`or` of tensor predicates), 5 (for over the dynamic
number of frames, append + stack).
"""
import torch
import torch.nn as nn


class PacketLossConcealer(nn.Module):
    def __init__(self, n=32, max_burst=3):
        super().__init__()
        self.max_burst = max_burst
        self.predictor = nn.Linear(n, n)
        with torch.no_grad():
            self.predictor.weight.mul_(0.05).add_(0.8 * torch.eye(n))
            self.predictor.bias.zero_()

    def forward(self, frames, lost):
        # frames: [F, 32] decoded audio (garbage where lost), lost: [F] 1.0 = lost
        prev = torch.zeros(frames.shape[1])
        run = torch.zeros(())
        outs = []
        for f in range(frames.shape[0]):
            if lost[f] > 0.5:
                run = run + 1
                if run > self.max_burst or prev.abs().max() < 1e-3:
                    out = torch.zeros_like(prev)  # mute
                else:
                    out = self.predictor(prev) * 0.9
            else:
                out = frames[f]
                if run > 0:
                    # first good frame after a loss: cross-fade from the concealment
                    out = 0.5 * (out + self.predictor(prev))
                run = torch.zeros(())
            outs.append(out)
            prev = out
        return torch.stack(outs)


def model():
    torch.manual_seed(5)
    return PacketLossConcealer().eval()


def _audio(F_, seed, lost_idx):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(F_ * 32, dtype=torch.float32)
    x = (0.5 * torch.sin(t * 0.07) + 0.05 * torch.randn(F_ * 32, generator=g)).view(F_, 32)
    lost = torch.zeros(F_)
    for i in lost_idx:
        lost[i] = 1.0
    x[lost > 0.5] = 9.0  # garbage payload
    return x, lost


def example_inputs():
    return _audio(12, 0, [3, 7, 8])


def dynamic_shapes():
    fr = torch.export.Dim("frames", min=2, max=64)
    return ({0: fr}, {0: fr})


def verify_inputs():
    return [
        example_inputs(),                          # single loss + 2-frame burst, cross-fades
        _audio(2, 1, []),                          # min size, no loss
        _audio(10, 2, [0, 1]),                     # loss at start: prev silent -> mute via `or`
        _audio(20, 3, [4, 5, 6, 7, 8, 9]),         # long burst: run > 3 -> mute
        _audio(64, 4, [10, 30, 31, 50, 51, 52, 53, 54, 63]),  # max size, mixed, loss at end
    ]
