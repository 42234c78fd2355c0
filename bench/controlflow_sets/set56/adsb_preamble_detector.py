"""1090 MHz Mode S / ADS-B receiver: preamble search and frame decode.

Input is the magnitude of the baseband signal sampled at 2 MS/s.  A Mode S
reply starts with an 8 us preamble (pulses at samples 0, 2, 7, 9 and silence
in between) followed by 112 pulse-position-modulated bits, two samples each.
The receiver slides over the buffer, checks the four preamble pulses, rejects
candidates whose quiet slots are not quiet, slices the bits and keeps the first
extended squitter (downlink format 17 or 18).  A tiny learned filter cleans the
samples first and a small network scores the decoded frame's quality.
"""
import torch
import torch.nn as nn

FRAME = 16 + 224


class AdsbPreambleDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.cleanup = nn.Conv1d(1, 1, 3, padding=1)
        self.quality = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
        self.pulses = [0, 2, 7, 9]
        self.register_buffer("quiet", torch.tensor([1, 3, 4, 5, 6, 8, 11, 12, 13, 14]))
        self.extended_squitter = (17, 18)

    def slice_bits(self, samples):
        pairs = samples.reshape(112, 2)
        bits = (pairs[:, 0] > pairs[:, 1]).long()
        margin = (pairs[:, 0] - pairs[:, 1]).abs()
        return bits, margin

    def downlink_format(self, bits):
        df = 0
        for b in bits[:5]:
            df = df * 2 + int(b)
        return df

    def forward(self, mag):
        # mag: (samples,) float magnitude
        x = mag + 0.1 * self.cleanup(mag[None, None])[0, 0]
        noise = torch.quantile(x, 0.25)
        level = 4.0 * noise + 0.05

        found = torch.tensor(0)
        position = torch.tensor(-1)
        bits = torch.zeros(112, dtype=torch.long)
        margin = torch.zeros(112)
        for i in range(x.shape[0] - FRAME + 1):
            for p in self.pulses:
                if x[i + p] < level:
                    break
            else:
                pulse_level = x[i + torch.tensor(self.pulses)].min()
                if (x[i + self.quiet] > 0.5 * pulse_level).any():
                    continue      # pulses inside the preamble gaps: not a Mode S reply
                cand_bits, cand_margin = self.slice_bits(x[i + 16:i + FRAME])
                if self.downlink_format(cand_bits) in self.extended_squitter:
                    found = torch.tensor(1)
                    position = torch.tensor(i)
                    bits, margin = cand_bits, cand_margin
                    break
        feats = torch.stack([margin.mean(), margin.min(), level])
        quality = torch.sigmoid(self.quality(feats)) * found.float()
        return found, position, bits, quality


def model():
    torch.manual_seed(5614)
    return AdsbPreambleDetector().eval()


def _frame(df, seed, amp=1.0):
    g = torch.Generator().manual_seed(seed)
    bits = torch.randint(0, 2, (112,), generator=g)
    bits[:5] = torch.tensor([(df >> (4 - k)) & 1 for k in range(5)])
    pre = torch.zeros(16)
    pre[[0, 2, 7, 9]] = amp
    data = torch.stack([bits.float(), 1.0 - bits.float()], dim=1).reshape(-1) * amp
    return torch.cat([pre, data])


def _buffer(n, seed, frames=()):
    g = torch.Generator().manual_seed(seed)
    x = 0.04 + 0.03 * torch.rand(n, generator=g)
    for pos, frame in frames:
        x[pos:pos + FRAME] += frame
    return x


def example_inputs():
    return (_buffer(400, 1, [(70, _frame(17, 11))]),)


def dynamic_shapes():
    s = torch.export.Dim("samples", min=FRAME, max=512)
    return ({0: s},)


def verify_inputs():
    interference = _buffer(512, 4, [(30, _frame(11, 12)), (270, _frame(18, 13, amp=0.8))])
    interference[5:25] += 0.9      # continuous-wave burst: pulses present but gaps not quiet
    return [
        # 400 samples, DF17 squitter at 70 -> found after skipping noise positions
        example_inputs(),
        # min 240 samples, a single DF17 frame filling the buffer -> found at 0
        (_buffer(FRAME, 2, [(0, _frame(17, 21))]),),
        # max 512 samples of receiver noise -> no preamble, loop runs out
        (_buffer(512, 3),),
        # max 512: CW burst (quiet-slot reject), DF11 all-call reply (wrong format),
        # then a weaker DF18 frame at 270 -> found
        (interference,),
    ]
