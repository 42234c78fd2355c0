"""NTP client clock discipline over a sequence of server exchanges.

Offsets are measured against the free-running clock, so the corrections
applied so far are subtracted before each exchange is judged.
For every exchange (offset, round-trip delay, both in ms):
  * samples whose delay is far above the best delay seen are dropped
    (huff-and-puff style congestion filter);
  * a popcorn-spike suppressor drops a single isolated outlier;
  * offsets above the step threshold are only acted on after `stepout`
    consecutive large samples (then the clock is stepped);
  * otherwise the PLL slews the clock with (learned, bounded) loop gains;
  * an offset beyond the panic threshold aborts discipline altogether.
Returns the per-sample correction applied, the final frequency estimate (ppm)
and the number of steps taken.
"""
import torch
import torch.nn as nn


class ClockDiscipline(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain_logits = nn.Parameter(0.1 * torch.randn(2))
        self.step_threshold = 128.0       # ms
        self.panic_threshold = 1000.0e3   # ms
        self.stepout = 3
        self.delay_factor = 3.0

    def forward(self, offsets, delays):
        phase_gain = 0.25 * torch.sigmoid(self.gain_logits[0])
        freq_gain = 0.05 * torch.sigmoid(self.gain_logits[1])
        freq = torch.zeros(())
        jitter = torch.full((), 1.0)
        last = offsets[0].clone()
        best_delay = delays[0]
        big_count = 0
        steps = 0
        clock_adjust = torch.zeros(())        # total correction applied so far
        corrections = []
        for i in range(offsets.shape[0]):
            off, dly = offsets[i] - clock_adjust, delays[i]
            best_delay = torch.minimum(best_delay, dly)
            if off.abs() > self.panic_threshold:
                corrections.append(torch.zeros(()))
                break                              # panic: leave it to the operator
            if dly > self.delay_factor * best_delay + 5.0:
                corrections.append(torch.zeros(()))
                continue                           # congested path, ignore
            if (off - last).abs() > 3.0 * jitter + 20.0 and big_count == 0 and i > 0:
                big_count = 1 if off.abs() > self.step_threshold else 0
                corrections.append(torch.zeros(()))
                continue                           # popcorn spike
            if off.abs() > self.step_threshold:
                big_count += 1
                if big_count >= self.stepout:
                    corr = off                     # step the clock
                    freq = torch.zeros(())
                    steps += 1
                    big_count = 0
                else:
                    corr = torch.zeros(())
            else:
                big_count = 0
                corr = phase_gain * off
                freq = freq + freq_gain * off
                jitter = 0.9 * jitter + 0.1 * (off - last).abs()
            last = off
            clock_adjust = clock_adjust + corr
            corrections.append(corr)
        return torch.stack(corrections), freq, torch.tensor(steps)


def model():
    torch.manual_seed(507)
    return ClockDiscipline().eval()


def _exchanges(n, seed=0, spike_at=None, congest_at=None, step_from=None, panic_at=None):
    g = torch.Generator().manual_seed(seed)
    offsets = 2.0 + 0.5 * torch.randn(n, generator=g)
    delays = 20.0 + torch.rand(n, generator=g)
    if spike_at is not None:
        offsets[spike_at] = 90.0
    if congest_at is not None:
        delays[congest_at] = 400.0
    if step_from is not None:
        offsets[step_from:] += 500.0
    if panic_at is not None:
        offsets[panic_at] = 5.0e6
    return offsets, delays


def example_inputs():
    return _exchanges(32, seed=1, spike_at=10, congest_at=20)


def dynamic_shapes():
    n = torch.export.Dim("exchanges", min=4, max=256)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                              # one popcorn spike, one congested sample, slew
        _exchanges(4, seed=2),                         # shortest: plain slewing
        _exchanges(256, seed=3, step_from=100),        # sustained 500 ms offset -> clock stepped
        _exchanges(40, seed=4, panic_at=25),           # panic offset -> break out of the loop
    ]
