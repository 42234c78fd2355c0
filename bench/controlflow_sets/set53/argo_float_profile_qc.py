"""Real-time quality control of an Argo float temperature/salinity profile.

Applies the Argo real-time spike test level by level (with the shallow/deep
thresholds of the QC manual), flags non-monotonic pressure levels, and adds a
small learned profile-plausibility score.  Flags: 1 good, 2 probably good
(untested), 4 bad.
"""
import torch
import torch.nn as nn


class ProfileScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 8, kernel_size=3, padding=1)
        self.head = nn.Linear(8, 1)

    def forward(self, temp, psal):
        x = torch.stack([(temp - 10.0) / 10.0, psal - 35.0]).unsqueeze(0)
        h = torch.relu(self.conv(x)).mean(dim=-1)
        return torch.sigmoid(self.head(h)).squeeze()


class ArgoRealtimeQC(nn.Module):
    def __init__(self):
        super().__init__()
        self.scorer = ProfileScorer()
        # (shallow, deep) spike thresholds from the Argo QC manual
        self.temp_spike = (6.0, 2.0)
        self.psal_spike = (0.9, 0.3)
        self.deep_dbar = 500.0

    def _spike_value(self, v, i):
        return (v[i] - 0.5 * (v[i + 1] + v[i - 1])).abs() - 0.5 * (v[i + 1] - v[i - 1]).abs()

    def forward(self, pres, temp, psal):
        n = pres.shape[0]
        if n < 5:
            # too short for the vertical tests: everything "probably good"
            flags = torch.full((n,), 2, dtype=torch.long)
            return flags, flags.clone(), torch.zeros(())

        t_flags = [torch.tensor(1)]
        s_flags = [torch.tensor(1)]
        for i in range(1, n - 1):
            if pres[i] <= pres[i - 1]:
                # pressure inversion: the whole level is bad, skip the tests
                t_flags.append(torch.tensor(4))
                s_flags.append(torch.tensor(4))
                continue
            deep = pres[i] > self.deep_dbar
            t_thr = self.temp_spike[1] if deep else self.temp_spike[0]
            s_thr = self.psal_spike[1] if deep else self.psal_spike[0]
            t_flags.append(torch.tensor(4) if self._spike_value(temp, i) > t_thr
                           else torch.tensor(1))
            s_flags.append(torch.tensor(4) if self._spike_value(psal, i) > s_thr
                           else torch.tensor(1))
        t_flags.append(torch.tensor(1))
        s_flags.append(torch.tensor(1))

        score = self.scorer(temp, psal)
        return torch.stack(t_flags), torch.stack(s_flags), score


def model():
    torch.manual_seed(5303)
    return ArgoRealtimeQC().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    levels = torch.export.Dim("levels", min=3, max=400)
    return ({0: levels}, {0: levels}, {0: levels})


def verify_inputs():
    def profile(n, max_dbar, seed, spikes=(), inversion=None):
        g = torch.Generator().manual_seed(seed)
        pres = torch.linspace(5.0, max_dbar, n)
        temp = 4.0 + 20.0 * torch.exp(-pres / 300.0) + 0.02 * torch.randn(n, generator=g)
        psal = 34.5 + 0.5 * torch.tanh(pres / 400.0) + 0.005 * torch.randn(n, generator=g)
        for idx, dt, ds in spikes:
            temp[idx] += dt
            psal[idx] += ds
        if inversion is not None:
            pres[inversion] = pres[inversion - 1] - 1.0
        return pres, temp, psal

    return [
        # example: 60 levels to 1000 dbar; a shallow temp spike (level 5,
        # > 6 C) and a deep salinity spike (level 50, > 0.3 PSU); an
        # inverted pressure at level 30 -> continue
        profile(60, 1000.0, seed=1, spikes=[(5, 8.0, 0.0), (50, 0.0, 0.5)], inversion=30),
        # 3 levels (min) -> early return, nothing tested
        profile(3, 100.0, seed=2),
        # 400 levels (max) to 2000 dbar; shallow salinity spike and deep
        # temperature spike (the other threshold of each ternary)
        profile(400, 2000.0, seed=3, spikes=[(10, 0.0, 1.5), (300, 3.0, 0.0)]),
        # 5 levels, smallest profile that runs the loop, all good
        profile(5, 200.0, seed=4),
    ]
