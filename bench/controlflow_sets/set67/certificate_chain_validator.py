"""TLS client certificate-chain validation (path building + per-cert checks) and risk score.

The server sends a bundle of certificates (cert 0 is the leaf). Path
building follows each certificate's issuer index up to a trust anchor,
rejecting unknown / self-signed untrusted issuers, issuers without the CA
flag, basicConstraints path-length violations and over-long paths. Every
certificate on the built path is then checked for its validity window, key
size (trust anchors are exempt) and the pre-computed signature check. A small
MLP scores connection risk from chain length, weakest key, days to expiry and
the verdict.

Inputs: issuer (N,) index or -1; validity (N, 2) not_before / not_after in
days; flags (N, 3) is_ca / trust_anchor / signature_ok; key_bits (N,);
path_len (N,) basicConstraints pathLen (-1 = none); now (1,) in days.

Status: 0 ok, 1 unknown issuer, 2 issuer not a CA, 3 path length, 4 path too
long, 5 not yet valid, 6 expired, 7 weak key, 8 bad signature.

Constructs: 1, 2, 3, 4, 6, 7
"""
import torch
import torch.nn as nn
from torch.export import Dim

OK, UNKNOWN_ISSUER, NOT_CA, PATH_LEN, TOO_LONG, NOT_YET_VALID, EXPIRED, WEAK_KEY, BAD_SIGNATURE = range(9)


class ChainValidator(nn.Module):
    def __init__(self):
        super().__init__()
        self.max_depth = 5
        self.min_key_bits = 2048.0
        self.risk = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def check_cert(self, i, validity, flags, key_bits, now):
        if now < validity[i, 0]:
            return NOT_YET_VALID
        if now > validity[i, 1]:
            return EXPIRED
        if key_bits[i] < self.min_key_bits and not flags[i, 1]:
            return WEAK_KEY
        if flags[i, 2] == 0:
            return BAD_SIGNATURE
        return OK

    def forward(self, issuer, validity, flags, key_bits, path_len, now):
        t = now[0]
        cur = torch.tensor(0)
        chain = [cur]
        status = OK
        depth = 0
        while not flags[cur, 1]:
            if depth >= self.max_depth:
                status = TOO_LONG
                break
            nxt = issuer[cur]
            if nxt < 0 or nxt == cur:
                status = UNKNOWN_ISSUER
                break
            if not flags[nxt, 0]:
                status = NOT_CA
                break
            if path_len[nxt] >= 0 and depth > path_len[nxt]:
                status = PATH_LEN
                break
            chain.append(nxt)
            cur = nxt
            depth += 1

        if status == OK:
            for c in chain:
                s = self.check_cert(c, validity, flags, key_bits, t)
                if s != OK:
                    status = s
                    break

        idx = torch.stack(chain)
        in_chain = torch.zeros(issuer.shape[0]).index_fill(0, idx, 1.0)
        days_left = ((validity[idx, 1] - t).min() / 365.0).clamp(-1.0, 5.0)
        feats = torch.stack([torch.tensor(len(chain) / self.max_depth), key_bits[idx].min() / 4096.0,
                             days_left, torch.tensor(float(status == OK))])
        return torch.tensor(status), in_chain, torch.sigmoid(self.risk(feats))


def model():
    torch.manual_seed(67)
    return ChainValidator().eval()


def _bundle(certs, now=19500.0):
    """certs: (issuer, not_before, not_after, is_ca, anchor, sig_ok, key_bits, path_len)"""
    return (torch.tensor([c[0] for c in certs], dtype=torch.long),
            torch.tensor([[c[1], c[2]] for c in certs], dtype=torch.float32),
            torch.tensor([[c[3], c[4], c[5]] for c in certs], dtype=torch.long),
            torch.tensor([c[6] for c in certs], dtype=torch.float32),
            torch.tensor([c[7] for c in certs], dtype=torch.long),
            torch.tensor([now], dtype=torch.float32))


LEAF = (1, 19400.0, 19800.0, 0, 0, 1, 2048.0, -1)
INTER = (2, 18000.0, 21000.0, 1, 0, 1, 4096.0, 0)
ROOT = (2, 15000.0, 25000.0, 1, 1, 1, 1024.0, -1)   # legacy 1024-bit root: exempt as trust anchor


def example_inputs():
    # leaf -> intermediate (pathLen 0) -> trusted root, plus an unrelated extra cert: valid
    return _bundle([LEAF, INTER, ROOT, (3, 16000.0, 22000.0, 1, 0, 1, 2048.0, -1)])


def dynamic_shapes():
    N = Dim("certs", min=2, max=16)
    return ({0: N}, {0: N}, {0: N}, {0: N}, {0: N}, None)


def verify_inputs():
    return [
        example_inputs(),                                                                 # ok; path loop 2x; weak key exempt for anchor
        _bundle([(0, 19000.0, 20000.0, 1, 1, 1, 3072.0, -1), ROOT]),                      # leaf is a pinned anchor: path loop 0x
        _bundle([LEAF, (2, 18000.0, 19450.0, 1, 0, 1, 4096.0, 0), ROOT]),                 # expired intermediate (check loop breaks at 2nd)
        _bundle([(1, 19600.0, 20000.0, 0, 0, 1, 2048.0, -1), INTER, ROOT]),              # leaf not yet valid
        _bundle([LEAF, (2, 18000.0, 21000.0, 1, 0, 1, 1024.0, 0), ROOT]),                 # weak intermediate key
        _bundle([(1, 19400.0, 19800.0, 0, 0, 0, 2048.0, -1), INTER, ROOT]),              # bad leaf signature
        _bundle([(-1, 19400.0, 19800.0, 0, 0, 1, 2048.0, -1), ROOT]),                     # issuer missing from the bundle
        _bundle([LEAF, (1, 18000.0, 21000.0, 1, 0, 1, 4096.0, -1), ROOT]),                # self-signed untrusted intermediate
        _bundle([(1, 19400.0, 19800.0, 0, 0, 1, 2048.0, -1), (2, 19000.0, 20000.0, 0, 0, 1, 2048.0, -1), ROOT]),  # issuer is not a CA
        _bundle([LEAF, (2, 18000.0, 21000.0, 1, 0, 1, 4096.0, -1), (3, 18000.0, 21000.0, 1, 0, 1, 4096.0, -1),
                 (4, 15000.0, 25000.0, 1, 1, 1, 4096.0, 0)]),                             # root pathLen 0 with 2 intermediates below
        _bundle([LEAF, (2, 18000.0, 21000.0, 1, 0, 1, 4096.0, -1), (1, 18000.0, 21000.0, 1, 0, 1, 4096.0, -1)]),  # issuer loop: too long
    ]
