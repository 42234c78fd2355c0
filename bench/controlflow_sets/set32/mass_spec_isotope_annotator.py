"""Isotope-envelope detection in a centroided peptide MS1 spectrum.

Kind X. Constructs: 1, 2, 3, 5, 6, 7, 9.
Centroids above a fraction of the base peak are kept; then, from the low
m/z end, every peak not yet claimed is tried as a monoisotopic peak for
charges 4, 3, 2, 1 (highest first, since a z=2 envelope also contains
1-Da spacings).  An envelope is extended peak by peak while the next
isotope is found within tolerance and its intensity follows a plausible
(averagine-like) pattern.  Envelopes with at least two isotopes are
reported with a learned quality score; their peaks are claimed.  Output:
rows [mono m/z, charge, n isotopes, score] (zero rows when none).
"""
import torch
import torch.nn as nn

NEUTRON = 1.003355


def find_near(peak_mz, target, tol):
    """Index of the peak closest to target, or -1 if none within tol."""
    err = (peak_mz - target).abs()
    j = torch.argmin(err)
    if err[j] > tol:
        return -1
    return int(j)


def plausible_next(prev_int, next_int, n_iso):
    ratio = next_int / prev_int
    if n_iso == 1:
        return bool(0.2 < ratio < 3.0)  # M+1 can exceed M for larger peptides
    return bool(ratio < 1.5)  # after that the envelope must come down


class IsotopeAnnotator(nn.Module):
    def __init__(self, tol=0.01, min_rel=0.02, max_isotopes=6, charges=(4, 3, 2, 1)):
        super().__init__()
        self.tol, self.min_rel, self.max_isotopes, self.charges = tol, min_rel, max_isotopes, charges
        self.quality = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, mz, intensity):
        idx = torch.nonzero(intensity > self.min_rel * intensity.max()).squeeze(1)
        peak_mz, peak_int = mz[idx], intensity[idx]

        claimed = torch.zeros(idx.shape[0], dtype=torch.bool)
        rows = []
        for p in range(idx.shape[0]):
            if claimed[p]:
                continue
            for z in self.charges:
                members = [p]
                cur = p
                nxt = find_near(peak_mz, peak_mz[cur] + NEUTRON / z, self.tol)
                while nxt >= 0 and len(members) < self.max_isotopes:
                    if claimed[nxt] or not plausible_next(peak_int[cur], peak_int[nxt], len(members)):
                        break
                    members.append(nxt)
                    cur = nxt
                    nxt = find_near(peak_mz, peak_mz[cur] + NEUTRON / z, self.tol)
                if len(members) < 2:
                    continue
                m = torch.tensor(members)
                claimed[m] = True
                env = peak_int[m]
                feats = torch.stack([env[1] / env[0], env.max() / env.sum(),
                                     torch.tensor(len(members) / self.max_isotopes), torch.tensor(z / 4.0)])
                score = torch.sigmoid(self.quality(feats)).squeeze()
                rows.append(torch.stack([peak_mz[p], torch.tensor(float(z)),
                                         torch.tensor(float(len(members))), score]))
                break
        if not rows:
            return torch.zeros(0, 4)
        return torch.stack(rows)


def model():
    torch.manual_seed(3222)
    return IsotopeAnnotator().eval()


def _spectrum(envelopes, noise_peaks=(), seed=0, n_chem_noise=12):
    """envelopes: list of (mono m/z, charge, [relative intensities]) -> centroid list sorted by m/z."""
    g = torch.Generator().manual_seed(seed)
    peaks = [(mono + k * NEUTRON / z + 0.0015 * (2 * k % 3 - 1), a)
             for mono, z, pattern in envelopes for k, a in enumerate(pattern)]
    peaks += list(noise_peaks)
    # low-level chemical noise, below the picking threshold
    noise_mz = 400.0 + 800.0 * torch.rand(n_chem_noise, generator=g)
    noise_int = 0.002 + 0.01 * torch.rand(n_chem_noise, generator=g)
    peaks += list(zip(noise_mz.tolist(), noise_int.tolist()))
    peaks.sort()
    mz = torch.tensor([p[0] for p in peaks], dtype=torch.float32)
    return mz, torch.tensor([p[1] for p in peaks], dtype=torch.float32)


def example_inputs():
    # a doubly and a triply charged peptide plus a singly charged contaminant
    return _spectrum([(523.2741, 2, [1.0, 0.62, 0.24, 0.07]),
                      (771.4104, 3, [0.7, 0.75, 0.41, 0.16, 0.05]),
                      (1001.5, 1, [0.4, 0.22, 0.08])])


def dynamic_shapes():
    n = torch.export.Dim("centroids", min=8, max=4096)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                                       # z=2, z=3 (M+1 > M), z=1 envelopes; claimed peaks skipped
        _spectrum([(612.8312, 4, [0.5, 0.8, 0.7, 0.45, 0.22, 0.09, 0.04])]),  # z=4 envelope capped at max_isotopes
        _spectrum([(700.3, 2, [1.0, 0.5, 0.3])], noise_peaks=[(455.21, 0.3), (980.77, 0.2)]),  # lone noise peaks: no charge fits
        _spectrum([(850.42, 1, [1.0, 0.05, 0.9])]),              # implausible ratio right away: M+1 rejected -> no envelope
        _spectrum([(640.11, 2, [1.0, 0.6, 1.2, 0.3])]),          # envelope stops when intensity rises again (break)
        _spectrum([], noise_peaks=[(500.0, 1.0), (800.5, 0.5)]), # nothing but singletons -> empty result
        _spectrum([(600.0, 1, [1.0, 0.55, 0.2])],                 # weak peak between isotopes of a z=1 envelope:
                  noise_peaks=[(600.0 + NEUTRON / 2 + 0.001, 0.15)]),  # its z=2 partner is already claimed -> break
    ]
