"""Basel-style backtest of a 99% one-day Value-at-Risk model: filtered historical
simulation (a small network rescales the empirical quantile by recent volatility) rolled
over a daily P&L series, counting exceptions, then the traffic-light zone and the capital
multiplier. Missing days (NaN) are skipped; short histories use a shorter window.

Kind T. Constructs: 1 (if/elif/else on the exception count, NaN test on a day), 2 (returns
inside branches of the zone helper, variable set in one branch), 5 (for over the dynamic
number of days, append + stack), 6 (continue on missing days), 7 (zone helper with its own
branches), 8 (window length chosen from the dynamic series length).
"""
import torch
import torch.nn as nn


def traffic_light(exceptions, n_days):
    """Basel zone and capital multiplier, exception count scaled to a 250-day year."""
    scaled = exceptions * 250.0 / n_days
    if scaled <= 4.0:
        return torch.tensor(0.0), torch.tensor(3.0)                       # green
    elif scaled <= 9.0:
        plus = torch.tensor([0.40, 0.50, 0.65, 0.75, 0.85])
        idx = (scaled.floor() - 5.0).clamp(0, 4).long()
        return torch.tensor(1.0), 3.0 + plus[idx]                            # yellow
    else:
        return torch.tensor(2.0), torch.tensor(4.0)                       # red


class VaRBacktest(nn.Module):
    def __init__(self, window=50, short_window=20, level=0.01):
        super().__init__()
        self.window = window
        self.short_window = short_window
        self.level = level
        self.vol_adjust = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, pnl):
        # pnl: (T,) daily P&L in % of portfolio value; NaN = no trading that day
        w = self.window if pnl.shape[0] >= 2 * self.window else self.short_window
        w = min(w, pnl.shape[0] - 1)
        clean = torch.nan_to_num(pnl, nan=0.0)
        var_path, exc_path = [], []
        exceptions = torch.zeros(())
        n_tested = 0
        for t in range(w, pnl.shape[0]):
            if torch.isnan(pnl[t]):
                continue                                # market closed / missing mark
            hist = clean[t - w:t]
            q = -torch.quantile(hist, self.level)
            recent = hist[-5:].std(correction=0) / (hist.std(correction=0) + 1e-6)
            feats = torch.stack([recent, hist.mean(), hist.abs().max() / 10.0])
            scale = 1.0 + 0.25 * torch.tanh(self.vol_adjust(feats)[0])
            var_t = q.clamp(min=0.1) * scale
            hit = pnl[t] < -var_t
            if hit:
                exceptions = exceptions + 1.0
            var_path.append(var_t)
            exc_path.append(hit.float())
            n_tested += 1
        if n_tested == 0:
            return torch.zeros(1), torch.zeros(1), torch.zeros(()), torch.tensor(3.0)
        zone, mult = traffic_light(exceptions, n_tested)
        return torch.stack(var_path), torch.stack(exc_path), zone, mult


def model():
    torch.manual_seed(3908)
    return VaRBacktest().eval()


def _make_pnl(seed, n, vol=1.0, crash_at=None, crash_vol=4.0, missing=()):
    g = torch.Generator().manual_seed(seed)
    x = vol * torch.randn(n, generator=g)
    if crash_at is not None:
        x[crash_at:] = crash_vol * torch.randn(n - crash_at, generator=g) - 1.0
    for i in missing:
        x[i] = float("nan")
    return (x,)


def example_inputs():
    # 130 calm days: long window (130 >= 100), one exception -> green zone
    return _make_pnl(5, 130)


def dynamic_shapes():
    return ({0: torch.export.Dim("days", min=2, max=300)},)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # short history (60 < 100 -> 20-day window) with two missing days (continue taken);
    # a moderate volatility pick-up late in the series -> 1 exception in 38 days -> yellow zone
    yellow = _make_pnl(3, 60, crash_at=45, crash_vol=2.0, missing=(25, 33))
    # crash regime for the last 100 of 250 days -> red zone
    red = _make_pnl(3, 250, crash_at=150, crash_vol=5.0)
    # two days only: window clipped to 1 day, one test day (green)
    tiny = _make_pnl(4, 2)
    # three days whose test days are all missing: no day tested -> early return
    closed = _make_pnl(5, 3, missing=(1, 2))
    return [ex, yellow, red, tiny, closed]
