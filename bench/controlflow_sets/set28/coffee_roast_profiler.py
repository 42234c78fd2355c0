"""Coffee roasting log analysis: find first crack from the bean-temperature curve and grade the roast."""
import torch
import torch.nn as nn


class RoastProfiler(nn.Module):
    def __init__(self):
        super().__init__()
        self.grader = nn.Sequential(nn.Linear(4, 12), nn.Tanh(), nn.Linear(12, 3))
        self.sample_seconds = 10.0
        self.crack_ror = 8.0          # degC per minute
        self.crack_min_temp = 190.0
        self.drying_end = 150.0

    def forward(self, bean_temp):
        # bean_temp [T] degC, one sample every 10 s
        ror = (bean_temp[1:] - bean_temp[:-1]) * (60.0 / self.sample_seconds)
        crack = -1
        for t in range(ror.shape[0]):
            if bean_temp[t + 1] < self.drying_end:
                continue
            if ror[t] < self.crack_ror and bean_temp[t + 1] > self.crack_min_temp:
                crack = t + 1
                break
        n = bean_temp.shape[0]
        if crack < 0:
            # roast dropped before first crack
            return torch.zeros(3), torch.tensor(-1.0)
        dev_ratio = torch.tensor((n - crack) / n)
        final = bean_temp[-1]
        feats = torch.stack([final / 200.0, dev_ratio, ror[crack - 1] / 10.0, ror[-5:].mean() / 10.0])
        grade = self.grader(feats)
        if dev_ratio < 0.15 or final < 200.0:
            grade = grade - torch.tensor([1.0, 0.0, 0.0])   # underdeveloped
        return grade, dev_ratio


def model():
    torch.manual_seed(0)
    return RoastProfiler().eval()


def _curve(seed, segments):
    # segments: list of (n_samples, ror degC/min); starts at 100 degC
    g = torch.Generator().manual_seed(seed)
    temps = [torch.tensor([100.0])]
    cur = 100.0
    for n, r in segments:
        inc = torch.full((n,), r / 6.0)
        seg = cur + inc.cumsum(0)
        cur = float(seg[-1])
        temps.append(seg)
    t = torch.cat(temps)
    return (t + 0.05 * torch.randn(t.shape[0], generator=g),)


def example_inputs():
    return _curve(0, [(30, 18.0), (12, 14.0), (10, 4.0)])


def dynamic_shapes():
    t = torch.export.Dim("samples", min=20, max=400)
    return ({0: t},)


def verify_inputs():
    return [
        _curve(1, [(10, 5.0), (30, 18.0), (14, 14.0), (12, 4.0)]),   # slow start skipped, crack found, developed
        _curve(2, [(30, 18.0), (15, 14.0)]),                          # never cracks -> early return
        _curve(3, [(30, 18.0), (12, 14.0), (3, 3.0)]),                # crack but underdeveloped
        _curve(4, [(20, 18.0), (5, 4.0), (18, 18.0), (20, 5.0)]),    # stall below 190 is not a crack
        _curve(5, [(28, 18.0), (4, 14.0), (12, 3.0)]),                # dropped before 200 degC
    ]
