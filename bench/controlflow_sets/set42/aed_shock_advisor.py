"""Automated external defibrillator (AED): rhythm analysis and shock advice.

The ECG (mV, 250 Hz) is analysed in 2 s segments. Segments with CPR/motion
artifact (huge amplitude) or a flat line are not classified (flat lines are
counted for the asystole decision). Every other segment is scored by a rhythm
classifier: the classic "time near baseline" feature (organised rhythms sit on
the baseline between narrow QRS complexes, ventricular fibrillation never does)
plus a small learned CNN term. Two consecutive shockable segments stop the
analysis and the AED advises a shock: the energy follows the escalation
protocol, scaled for the measured patient impedance, and the capacitor charge
is simulated to report the charging time.
Outputs: advice (0 no analysis possible, 1 shock, 2 no shock, 3 asystole -> CPR),
energy (J), charge time (0.1 s ticks) and the per-segment shockable decisions.

Kind: X. Constructs: 1, 2, 3, 4, 5, 6, 7, 8, 9.
"""
import torch
from torch import nn
from torch.export import Dim

NO_ANALYSIS, SHOCK, NO_SHOCK, ASYSTOLE = 0, 1, 2, 3
FS = 250
SEG = 2 * FS


class RhythmClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, 15, stride=5)
        self.fc = nn.Linear(4, 1)

    def forward(self, seg):
        amp = seg.max() - seg.min()
        centred = seg - seg.median()
        near_baseline = ((centred.abs() < 0.1 * amp).float()).mean()
        learned = torch.tanh(self.fc(torch.relu(self.conv((centred / amp).view(1, 1, -1))).mean(dim=-1)))[0, 0]
        return torch.sigmoid(10.0 * (0.45 - near_baseline) + 0.3 * learned)


def charge_ticks(energy_j, capacitance_f=150e-6, v_max=2000.0, rate=0.12):
    """Simulate the RC charging of the capacitor until it stores the requested energy."""
    v = torch.zeros_like(energy_j)
    ticks = 0
    while 0.5 * capacitance_f * v * v < energy_j:
        v = v + (v_max - v) * rate
        ticks += 1
    return ticks


class ShockAdvisor(nn.Module):
    def __init__(self, prior_shocks=0):
        super().__init__()
        self.classifier = RhythmClassifier()
        self.energy_protocol = [150.0, 200.0, 200.0]  # biphasic escalation
        self.prior_shocks = prior_shocks

    def forward(self, ecg, impedance):
        if ecg.shape[0] < SEG:
            return torch.tensor(NO_ANALYSIS), torch.zeros(1), torch.tensor(0), torch.zeros(0, dtype=torch.long)
        n_seg = ecg.shape[0] // SEG
        consecutive, flat = 0, 0
        decisions = []
        for s in range(n_seg):
            seg = ecg[s * SEG:(s + 1) * SEG]
            amp = seg.max() - seg.min()
            if amp > 8.0 or amp < 0.1:
                if amp < 0.1:
                    flat += 1
                consecutive = 0
                decisions.append(0)
                continue
            shockable = self.classifier(seg) > 0.5
            consecutive = consecutive + 1 if shockable else 0
            decisions.append(int(shockable))
            if consecutive >= 2:
                break
        decisions_t = torch.tensor(decisions, dtype=torch.long)
        if consecutive >= 2:
            base = self.energy_protocol[min(self.prior_shocks, len(self.energy_protocol) - 1)]
            energy = base * (impedance / 75.0).clamp(0.8, 1.4)
            return torch.tensor(SHOCK), energy, torch.tensor(charge_ticks(energy)), decisions_t
        advice = ASYSTOLE if 2 * flat >= n_seg else NO_SHOCK
        return torch.tensor(advice), torch.zeros(1), torch.tensor(0), decisions_t


def model():
    torch.manual_seed(4213)
    return ShockAdvisor().eval()


def _t(seconds):
    return torch.arange(int(seconds * FS), dtype=torch.float32) / FS


def _sinus(seconds, bpm=72, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = _t(seconds)
    period = 60.0 / bpm
    phase = torch.remainder(t, period)
    qrs = 1.5 * torch.exp(-((phase - 0.2) / 0.012) ** 2) - 0.3 * torch.exp(-((phase - 0.23) / 0.01) ** 2)
    twave = 0.3 * torch.exp(-((phase - 0.45) / 0.05) ** 2)
    return qrs + twave + 0.02 * torch.randn(t.shape, generator=g)


def _vf(seconds, hz=5.0, amp=0.6, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = _t(seconds)
    env = 1.0 + 0.3 * torch.sin(2 * torch.pi * 0.4 * t)
    sig = torch.sin(2 * torch.pi * hz * t) + 0.4 * torch.sin(2 * torch.pi * (hz * 0.73) * t + 1.0)
    return amp * env * sig + 0.02 * torch.randn(t.shape, generator=g)


def _flat(seconds, seed=0):
    g = torch.Generator().manual_seed(seed)
    return 0.01 * torch.randn(int(seconds * FS), generator=g)


def _cpr(seconds):
    t = _t(seconds)
    return 5.0 * torch.sin(2 * torch.pi * 1.8 * t)


def example_inputs():
    ecg = torch.cat([_cpr(2), _vf(6, seed=1)])
    return ecg, torch.tensor([80.0])


def dynamic_shapes():
    return ({0: Dim("samples", min=2, max=5000)}, None)


def verify_inputs():
    return [
        example_inputs(),                                    # CPR artifact skipped, 2 VF segments -> shock
        (_sinus(8, seed=2), torch.tensor([80.0])),           # organised rhythm in all 4 segments -> no shock
        (torch.cat([_flat(4, seed=3), _sinus(2, bpm=40, seed=4)]), torch.tensor([80.0])),  # mostly flat -> asystole
        (_vf(1.5, seed=5), torch.tensor([80.0])),            # shorter than one segment -> no analysis
        # VF, organised beat resets the count, VF, VF -> shock; high impedance -> more energy, longer charge
        (torch.cat([_vf(2, seed=6), _sinus(2, seed=7), _vf(4, hz=4.2, amp=1.0, seed=8)]), torch.tensor([120.0])),
        (_vf(3, seed=11), torch.tensor([80.0])),            # a single analysable segment: shockable but not
        # confirmed by a second one -> no shock
        (torch.cat([_vf(2, seed=9), _flat(2, seed=10)]), torch.tensor([50.0])),  # one VF segment then flat: no shock; half flat -> asystole
    ]
