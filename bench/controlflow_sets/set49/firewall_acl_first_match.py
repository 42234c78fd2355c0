"""Stateless firewall ACL evaluation: each packet is checked against an
ordered rule list (first match wins, for/else default policy), with a
learned anomaly scorer that can quarantine allowed traffic."""
import torch
import torch.nn as nn
from torch.export import Dim

ALLOW, DENY, LOG = 0.0, 1.0, 2.0


class Rule(nn.Module):
    def __init__(self, lo, hi, action):
        super().__init__()
        self.register_buffer("lo", torch.tensor(lo))
        self.register_buffer("hi", torch.tensor(hi))
        self.action = action

    def forward(self, pkt):
        # pkt: [5] = src_net, dst_port, proto, size, rate
        return bool(((pkt >= self.lo) & (pkt <= self.hi)).all())


class FirewallACL(nn.Module):
    def __init__(self, default_action=DENY, quarantine=True):
        super().__init__()
        inf = 1e9
        self.rules = nn.ModuleList([
            Rule([-inf, 21.5, -inf, -inf, -inf], [inf, 23.5, inf, inf, inf], DENY),          # telnet/ftp
            Rule([9.5, 442.5, 5.5, -inf, -inf], [10.5, 443.5, 6.5, inf, 500.5], ALLOW),      # internal https
            Rule([-inf, 52.5, 16.5, -inf, -inf], [inf, 53.5, 17.5, 512.5, inf], ALLOW),      # dns/udp small
            Rule([-inf, 442.5, -inf, -inf, 2000.5], [inf, 443.5, inf, inf, inf], LOG),       # very chatty https
            Rule([-inf, 442.5, 5.5, -inf, -inf], [inf, 443.5, 6.5, inf, inf], ALLOW),        # public https
        ])
        self.default_action = default_action
        self.quarantine = quarantine
        self.scorer = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, packets):
        # packets: [P, 5]
        actions = []
        hits = torch.zeros(len(self.rules) + 1)
        feats = torch.log1p(packets.abs())
        for p in range(packets.shape[0]):
            pkt = packets[p]
            for r, rule in enumerate(self.rules):
                if rule(pkt):
                    action = rule.action
                    hits[r] += 1
                    break
            else:
                action = self.default_action
                hits[-1] += 1
            act = torch.tensor(action)
            if self.quarantine and action != DENY:
                # allowed, but the anomaly model is very confident: quarantine
                if self.scorer(feats[p]).squeeze() > 2.0:
                    act = torch.tensor(DENY)
            actions.append(act)
        return torch.stack(actions), hits


def model():
    torch.manual_seed(4918)
    m = FirewallACL().eval()
    with torch.no_grad():
        # make the anomaly scorer fire on huge packet rates
        m.scorer[2].weight.zero_()
        m.scorer[2].bias.fill_(-1.0)
        m.scorer[0].weight[0].zero_()
        m.scorer[0].weight[0, 4] = 1.0
        m.scorer[0].bias[0] = -9.0
        m.scorer[2].weight[0, 0] = 2.0
    return m


def _pk(src, port, proto, size, rate):
    return [float(src), float(port), float(proto), float(size), float(rate)]


def example_inputs():
    return (torch.tensor([
        _pk(3, 23, 6, 60, 5),        # telnet -> deny (rule 0, first rule)
        _pk(10, 443, 6, 900, 80),    # internal https -> allow (rule 1)
        _pk(7, 53, 17, 80, 30),      # dns -> allow (rule 2)
        _pk(7, 443, 6, 1400, 5000),  # chatty https -> log (rule 3)
        _pk(4, 443, 6, 1200, 40),    # public https -> allow (rule 4, last)
        _pk(4, 8080, 6, 500, 10),    # no match -> default deny (for-else)
    ]),)


def dynamic_shapes():
    return ({0: Dim("packets", min=2, max=512)},)


def verify_inputs():
    g = torch.Generator().manual_seed(181)
    P = 300
    ports = torch.tensor([22.0, 23.0, 53.0, 80.0, 443.0, 8080.0])[torch.randint(0, 6, (P,), generator=g)]
    rnd = torch.stack([torch.randint(0, 20, (P,), generator=g).float(), ports,
                       torch.tensor([6.0, 17.0])[torch.randint(0, 2, (P,), generator=g)],
                       torch.randint(40, 1500, (P,), generator=g).float(),
                       torch.randint(1, 3000, (P,), generator=g).float()], 1)
    return [
        example_inputs(),
        (rnd,),                                               # random traffic mix
        (torch.tensor([_pk(10, 443, 6, 700, 400), _pk(5, 443, 6, 700, 60000)]),),  # allow; log + quarantined flood
        (torch.tensor([_pk(1, 9999, 6, 60, 1), _pk(2, 25, 6, 60, 1)]),),            # only default-policy packets
    ]
