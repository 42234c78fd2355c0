"""Network intrusion detection: Threshold Random Walk (TRW) port-scan detector.

Connection records (source host id, destination port, features) are processed
in time order, per source host. For every first contact with a new destination
port the sequential likelihood ratio is updated with the outcome (did the
handshake succeed?). A learned model estimates, from the connection features,
how likely a *benign* host's attempt would have failed anyway (e.g. a service
that is down), which tempers the penalty of a failure. The walk stops as soon
as it crosses the scanner or benign threshold (Jung et al., 2004).
Returns the sorted source ids, their verdict (1 scanner, -1 benign, 0 pending)
and the final log-likelihood ratio.

Kind: X. Constructs: 1, 2, 5, 6, 7.
"""
import math

import torch
from torch import nn
from torch.export import Dim

THETA_SCANNER = 0.2   # P(success | scanner)


class BenignSuccessModel(nn.Module):
    def __init__(self, n_feats=5):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_feats, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, feats):
        # P(success | benign) in [0.6, 0.9]
        return 0.6 + 0.3 * torch.sigmoid(self.mlp(feats).squeeze(-1))


def llr_step(success, theta_benign):
    if success:
        return torch.log(THETA_SCANNER / theta_benign)
    return torch.log((1.0 - THETA_SCANNER) / (1.0 - theta_benign))


def walk(ports, success, theta, upper, lower):
    """Run the sequential test over one host's connections; returns (verdict, llr)."""
    llr = torch.zeros(())
    seen = set()
    verdict = 0
    for j in range(ports.shape[0]):
        port = int(ports[j])
        if port in seen:
            continue  # only first contacts count
        seen.add(port)
        llr = llr + llr_step(success[j], theta[j])
        if llr > upper:
            verdict = 1
            break
        if llr < lower:
            verdict = -1
            break
    return verdict, llr


class TRWDetector(nn.Module):
    def __init__(self, alpha=0.01, beta=0.99):
        super().__init__()
        self.benign = BenignSuccessModel()
        self.upper = math.log(beta / alpha)
        self.lower = math.log((1 - beta) / (1 - alpha))

    def forward(self, src, dport, feats):
        theta = self.benign(feats)
        success = feats[:, 0] > 0.5          # SYN-ACK seen
        hosts = torch.unique(src)
        verdicts, llrs = [], []
        for h in hosts.tolist():
            idx = (src == h).nonzero().flatten()
            verdict, llr = walk(dport[idx], success[idx], theta[idx], self.upper, self.lower)
            verdicts.append(verdict)
            llrs.append(llr)
        return hosts, torch.tensor(verdicts, dtype=torch.long), torch.stack(llrs)


def model():
    torch.manual_seed(4217)
    return TRWDetector().eval()


def _flows(spec, seed):
    """spec: list of (src, port, success) in time order."""
    g = torch.Generator().manual_seed(seed)
    src = torch.tensor([s for s, _, _ in spec], dtype=torch.long)
    dport = torch.tensor([p for _, p, _ in spec], dtype=torch.long)
    feats = torch.rand(len(spec), 5, generator=g)
    feats[:, 0] = torch.tensor([1.0 if ok else 0.0 for _, _, ok in spec])
    return src, dport, feats


def example_inputs():
    spec = []
    for k in range(8):                      # host 7: sweeping ports, mostly refused -> scanner
        spec.append((7, 20 + k, k == 3))
        spec.append((3, 443, True))         # host 3: web browsing, same port again and again
        if k < 6:
            spec.append((5, [80, 443, 22, 25, 993, 8080][k], k != 2))   # host 5: mostly successful
    return _flows(spec, seed=0)


def dynamic_shapes():
    n = Dim("flows", min=2, max=1024)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),  # scanner detected (break), benign host detected (break), repeat-port host pending
        _flows([(1, 22, False), (1, 23, False), (2, 80, True), (1, 22, False)], seed=1),  # both pending,
        # repeated port skipped
        _flows([(9, p, False) for p in range(1000, 1040)], seed=2),   # fast scanner: crosses after a few ports
    ]
