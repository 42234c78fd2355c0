"""Hierarchical mmWave beam training at a 5G base station (kind X).

Input: the P multipath components seen by the array, (P, 2) = (path gain in dB, angle of
departure in degrees).  Starting from a wide sector beam, each level halves the beam
width and sweeps three child beams around the current best direction (children outside
the field of view are skipped, the sweep stops early once a child is comfortably above
target).  Training stops when the SNR target is met or the narrowest beam is reached.
If the link is still in outage the result is returned as is; otherwise a learned
refiner submodule nudges the beam within its width.  The noise figure comes from a tiny
learned model of the receiver.

constructs: 1 (if on tensor), 2 (return inside a branch), 3 (and / or with tensor predicates),
            4 (while with tensor condition, loop-carried tensors + Python width),
            6 (continue / break on tensor conditions in the inner sweep), 7 (helper function
            and a submodule with its own size branch), 8 (branch on P), 9 (static child loop)
"""
import torch
import torch.nn as nn


def beam_snr_db(paths, centre, width, noise_db):
    off = (paths[:, 1] - centre) / width
    gain = (10.0 ** (paths[:, 0] / 10.0) * torch.exp(-off ** 2)).sum() * (1000.0 / width)
    return 10.0 * torch.log10(gain + 1e-9) - noise_db


class BeamRefiner(nn.Module):
    def __init__(self, hidden=16, attn_above=4):
        super().__init__()
        self.enc = nn.Linear(2, hidden)
        self.att = nn.Linear(hidden, 1)
        self.out = nn.Linear(hidden, 1)
        self.attn_above = attn_above

    def forward(self, paths, centre, width):
        rel = torch.stack([(paths[:, 1] - centre) / width, paths[:, 0] / 10.0], dim=1)
        h = torch.tanh(self.enc(rel))
        if paths.shape[0] > self.attn_above:
            w = torch.softmax(self.att(h).squeeze(1), dim=0)
            pooled = (w.unsqueeze(1) * h).sum(dim=0)
        else:
            pooled = h.mean(dim=0)
        return centre + 0.25 * width * torch.tanh(self.out(pooled)).squeeze()


class BeamTrainer(nn.Module):
    def __init__(self, start_width=64.0, min_width=4.0, n_children=3, fov_deg=50.0,
                 target_snr_db=15.0, outage_snr_db=0.0):
        super().__init__()
        self.noise_net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
        self.refiner = BeamRefiner()
        self.start_width = start_width
        self.min_width = min_width
        self.n_children = n_children
        self.fov_deg = fov_deg
        self.target_snr_db = target_snr_db
        self.outage_snr_db = outage_snr_db

    def forward(self, paths):
        noise_db = 5.0 + 2.0 * torch.tanh(self.noise_net(paths.mean(dim=0))).squeeze()
        centre = torch.zeros(())
        width = self.start_width
        snr = beam_snr_db(paths, centre, width, noise_db)
        trace = [snr]
        while snr < self.target_snr_db and width > self.min_width:
            width = width / 2
            best_snr, best_centre = None, centre
            for c in range(self.n_children):
                cand = centre + (c - (self.n_children - 1) / 2) * width
                if cand.abs() > self.fov_deg:
                    continue
                s = beam_snr_db(paths, cand, width, noise_db)
                if best_snr is None or s > best_snr:
                    best_snr, best_centre = s, cand
                if s > self.target_snr_db + 3.0:
                    break
            centre, snr = best_centre, best_snr
            trace.append(snr)

        if snr < self.outage_snr_db:
            return centre, snr, torch.stack(trace)
        centre = self.refiner(paths, centre, width)
        return centre, beam_snr_db(paths, centre, width, noise_db), torch.stack(trace)


def model():
    torch.manual_seed(315)
    return BeamTrainer().eval()


def _paths(rows):
    return (torch.tensor(rows, dtype=torch.float32),)


def example_inputs():
    return _paths([[0.0, 37.0], [-8.0, -20.0], [-12.0, 5.0]])


def dynamic_shapes():
    return ({0: torch.export.Dim("paths", min=2, max=32)},)


def verify_inputs():
    return [
        example_inputs(),                                     # several levels towards +37 deg, refiner mean-pool (P=3)
        _paths([[12.0, 2.0], [-5.0, 30.0]]),                  # strong LOS near boresight: target met at once, while runs 0 times
        _paths([[-30.0, 10.0], [-32.0, -40.0], [-35.0, 20.0]]),   # deep shadowing: narrows to min width, still outage -> early return
        _paths([[0.0, 47.0], [-10.0, -50.0], [-15.0, 0.0], [-12.0, 20.0], [-20.0, -5.0], [-18.0, 40.0]]),  # P=6 attention refiner; path at 47 deg: child at 56 deg beyond the 50 deg FOV skipped (continue)
        _paths([[8.6, -32.0], [-6.0, 10.0]]),                 # first narrowing already > target+3: inner break, one level
    ]
