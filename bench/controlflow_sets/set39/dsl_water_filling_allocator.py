"""DSL / DMT modem power and bit allocation: per-tone SNR (measured during training of the
line) plus a learned per-tone SNR margin give the noise-to-gain ratio of every tone;
water-filling distributes the power budget, tones that would exceed the maximum
constellation size are capped and the rest is re-water-filled, and finally tones that
cannot carry one bit are switched off.

Kind X. Constructs: 1 (if on tensor predicates), 2 (early return when the line cannot
sync; values kept from before the loop), 3 (and in the while; and/not in the rounds),
4 (while on a tensor water-level condition with a loop-carried tone count used for
slicing), 5 (for over the dynamic number of tones, Python list -> tensor), 6 (break out of
the capping rounds, continue over tones), 7 (water-filling submodule with its own loop).
"""
import torch
import torch.nn as nn


class WaterFilling(nn.Module):
    def forward(self, inv_gain, budget):
        # inv_gain: (K,) gap * noise / gain per tone; returns power per tone and water level
        srt, _ = torch.sort(inv_gain)
        n = srt.shape[0]
        level = (budget + srt.sum()) / n
        while n > 1 and level <= srt[n - 1]:
            n -= 1                       # the worst remaining tone gets no power
            level = (budget + srt[:n].sum()) / n
        return (level - inv_gain).clamp(min=0.0), level


class DmtBitLoader(nn.Module):
    def __init__(self, max_bits=15.0, min_bits=1.0, max_rounds=4, base_gap_db=9.8):
        super().__init__()
        self.max_bits = max_bits
        self.min_bits = min_bits
        self.max_rounds = max_rounds
        self.base_gap_db = base_gap_db
        self.margin_net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
        self.wf = WaterFilling()

    def forward(self, snr_db, budget):
        # snr_db: (K,) per-tone SNR at unit transmit power [dB]; budget: (1,) total power
        k_tones = snr_db.shape[0]
        pos = torch.arange(k_tones, dtype=torch.float32) / k_tones
        margin_db = 3.0 * torch.sigmoid(self.margin_net(torch.stack([snr_db / 30.0, pos], 1))).squeeze(-1)
        inv = 10.0 ** ((self.base_gap_db + margin_db - snr_db) / 10.0)
        budget = budget[0]
        if budget / inv.min() < 1.0:
            # even the best tone cannot carry a single bit: no sync
            return torch.zeros(k_tones), torch.zeros(k_tones), torch.zeros(0, dtype=torch.long)

        capped = torch.zeros(k_tones, dtype=torch.bool)
        cap_power = torch.zeros(())
        full = 2.0 ** self.max_bits - 1.0
        for _ in range(self.max_rounds):
            inv_eff = torch.where(capped, torch.full_like(inv, 1e6), inv)
            power, level = self.wf(inv_eff, (budget - cap_power).clamp(min=0.0))
            bits = torch.log2(1.0 + power / inv)
            over = (bits > self.max_bits) & ~capped
            if not over.any():
                break
            capped = capped | over
            cap_power = (full * inv * capped).sum()
        power = torch.where(capped, full * inv, power)
        bits = torch.where(capped, torch.full_like(bits, self.max_bits), bits)

        active = []
        for k in range(k_tones):
            if power[k] <= 0:
                continue
            if bits[k] < self.min_bits:
                # not worth a tone: switch it off (its power is simply not used)
                power[k] = 0.0
                bits[k] = 0.0
                continue
            active.append(k)
        return power, bits, torch.tensor(active, dtype=torch.long)


def model():
    torch.manual_seed(3911)
    return DmtBitLoader().eval()


def _make_line(seed, k, lo_db, hi_db, budget, ripple=3.0):
    """SNR falling with frequency (longer loop -> steeper), plus ripple from bridged taps."""
    g = torch.Generator().manual_seed(seed)
    f = torch.linspace(0.0, 1.0, k)
    snr = hi_db + (lo_db - hi_db) * f + ripple * torch.randn(k, generator=g)
    return snr, torch.tensor([budget])


def example_inputs():
    # 32 tones on a medium loop: upper tones get no power, a few are switched off
    return _make_line(1, 32, -5.0, 45.0, 40.0)


def dynamic_shapes():
    return ({0: torch.export.Dim("tones", min=4, max=256)}, None)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # short loop, very high SNR on low tones: tones capped at 15 bits and re-water-filled in
    # every round (all max_rounds used, no break), every tone active
    short = _make_line(2, 24, 40.0, 70.0, 60.0, ripple=1.0)
    # very long loop with tiny budget: no tone can carry a bit -> early return
    dead = _make_line(3, 8, -40.0, -25.0, 0.5, ripple=0.5)
    # minimum 4 tones, one strong and three weak ones, small budget: water-filling drops
    # tones until a single one is left (while ends on the "n > 1" operand)
    four = (torch.tensor([30.0, 4.0, -3.0, -10.0]), torch.tensor([3.0]))
    # 128 tones, mid budget (while loop drops many tones)
    wide = _make_line(5, 128, -20.0, 50.0, 80.0)
    return [ex, short, dead, four, wide]
