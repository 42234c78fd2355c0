"""TLS server: protocol-version check and cipher-suite selection.

The ClientHello's offered suites arrive as rows (suite id, key-exchange
strength in bits, AEAD flag, TLS-1.3-only flag).  The server refuses old
protocol versions, honours the downgrade-protection SCSV, and then walks
its own preference list, taking the first suite the client also offers that
is acceptable for the negotiated version.  A learned scorer rates the
resulting session's risk for the security dashboard.
"""
import torch
import torch.nn as nn

ALERT_NONE = 0
ALERT_HANDSHAKE_FAILURE = 40
ALERT_PROTOCOL_VERSION = 70
ALERT_INAPPROPRIATE_FALLBACK = 86
FALLBACK_SCSV = 0x5600
TLS12, TLS13 = 3, 4


class CipherNegotiator(nn.Module):
    def __init__(self):
        super().__init__()
        self.min_version = TLS12
        self.max_version = TLS13
        self.min_kx_bits = 2048.0
        self.risk = nn.Linear(4, 1)

    def acceptable(self, suite, version):
        if version >= TLS13 and suite[2] < 0.5:
            return False  # TLS 1.3 only runs AEAD ciphers
        if suite[3] > 0.5 and version < TLS13:
            return False  # a TLS 1.3 suite offered on a 1.2 connection
        return bool(suite[1] >= self.min_kx_bits)

    def session_risk(self, suite, version):
        feats = torch.stack([suite[1] / 4096.0, suite[2], suite[3], version.float() / 4.0])
        return torch.sigmoid(self.risk(feats)).squeeze(0)

    def forward(self, offer, server_pref, version):
        if version < self.min_version:
            return torch.tensor(-1), torch.tensor(ALERT_PROTOCOL_VERSION), torch.zeros(())
        if (offer[:, 0] == FALLBACK_SCSV).any() and version < self.max_version:
            # client retried with a lower version although we support a higher one
            return torch.tensor(-1), torch.tensor(ALERT_INAPPROPRIATE_FALLBACK), torch.zeros(())

        chosen = -1
        for s in range(server_pref.shape[0]):
            for c in range(offer.shape[0]):
                if offer[c, 0] != server_pref[s]:
                    continue
                if self.acceptable(offer[c], version):
                    chosen = c
                break  # the suite was offered; either taken or rejected
            if chosen >= 0:
                break
        if chosen < 0:
            return torch.tensor(-1), torch.tensor(ALERT_HANDSHAKE_FAILURE), torch.zeros(())
        return torch.tensor(chosen), torch.tensor(ALERT_NONE), self.session_risk(offer[chosen], version)


def model():
    torch.manual_seed(5910)
    return CipherNegotiator().eval()


# suite id, kx bits, aead, tls13-only
AES128_GCM_SHA256_13 = [0x1301, 3072.0, 1.0, 1.0]
CHACHA20_POLY1305_13 = [0x1303, 3072.0, 1.0, 1.0]
ECDHE_RSA_AES128_GCM = [0xC02F, 3072.0, 1.0, 0.0]
ECDHE_RSA_AES128_CBC = [0xC013, 3072.0, 0.0, 0.0]
DHE_RSA_AES128_CBC_1024 = [0x0033, 1024.0, 0.0, 0.0]
RSA_AES128_GCM = [0x009C, 2048.0, 1.0, 0.0]
SCSV = [FALLBACK_SCSV, 0.0, 0.0, 0.0]
SERVER_PREF = [0x1301, 0x1303, 0xC02F, 0x009C, 0xC013]


def make_hello(suites, version, pref=SERVER_PREF):
    return (torch.tensor(suites, dtype=torch.float32), torch.tensor(pref, dtype=torch.float32),
            torch.tensor(version))


def example_inputs():
    # modern browser on TLS 1.3 -> first server preference 0x1301
    return make_hello([CHACHA20_POLY1305_13, AES128_GCM_SHA256_13, ECDHE_RSA_AES128_GCM], TLS13)


def dynamic_shapes():
    c = torch.export.Dim("offered", min=2, max=24)
    s = torch.export.Dim("server_suites", min=2, max=16)
    return ({0: c}, {0: s}, None)


def verify_inputs():
    ex = example_inputs()
    # TLS 1.0 client -> protocol_version alert
    old = make_hello([ECDHE_RSA_AES128_CBC, DHE_RSA_AES128_CBC_1024], 1)
    # fallback retry on 1.2 carrying the SCSV -> inappropriate_fallback
    fallback = make_hello([ECDHE_RSA_AES128_GCM, SCSV], TLS12)
    # TLS 1.2 client offering a 1.3 suite (skipped) and a CBC suite; 2 server suites
    tls12 = make_hello([AES128_GCM_SHA256_13, ECDHE_RSA_AES128_CBC, RSA_AES128_GCM], TLS12,
                       pref=[0x1301, 0xC013])
    # TLS 1.3 offering only CBC and weak DHE -> handshake_failure; 24 offered suites
    # (padding with unknown GREASE ids), 16 server suites
    grease = [[float(0x0A0A + 0x1010 * i), 0.0, 0.0, 0.0] for i in range(22)]
    big_pref = SERVER_PREF + [0xCCA8 + i for i in range(11)]
    nothing = make_hello(grease + [ECDHE_RSA_AES128_CBC, DHE_RSA_AES128_CBC_1024], TLS13,
                         pref=big_pref)
    return [ex, old, fallback, tls12, nothing]
