"""Option-critic policy: terminate the current option if beta > 0.5 or forced, pick a new one by Q.

`or` / `and` / `not` on tensor predicates, loop over nn.ModuleList (stays Python), gather by option.
"""

import torch
from torch import nn

OBS, OPTIONS, ACTIONS = 10, 3, 4


class OptionCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU())
        self.q = nn.Linear(32, OPTIONS)
        self.beta = nn.Linear(32, OPTIONS)
        self.policies = nn.ModuleList([nn.Linear(32, ACTIONS) for _ in range(OPTIONS)])

    def forward(self, obs, option, force_switch):
        f = self.feat(obs)
        beta = torch.sigmoid(self.beta(f))[option]
        q = self.q(f)
        if beta > 0.5 or force_switch:
            new_option = q.argmax()
            switched = torch.tensor(1.0)
        elif not (q[option] < q.max() - 1.0) and beta > 0.05:
            new_option = option
            switched = torch.tensor(0.0)
        else:
            new_option = option
            switched = torch.tensor(-1.0)
        logits = torch.stack([pi(f) for pi in self.policies])
        action = logits[new_option].argmax()
        return torch.stack([new_option.float(), action.float(), switched])


def model():
    torch.manual_seed(0)
    return OptionCritic().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(OBS), torch.tensor(1), torch.tensor(False))


def verify_inputs():
    m = model()
    torch.manual_seed(9)
    cases = {}
    with torch.no_grad():
        for _ in range(400):
            obs = torch.randn(OBS) * 3
            f = m.feat(obs)
            beta = torch.sigmoid(m.beta(f))
            q = m.q(f)
            for o in range(OPTIONS):
                b = beta[o]
                if b > 0.5:
                    cases.setdefault("beta", (obs, torch.tensor(o), torch.tensor(False)))
                elif b <= 0.05:
                    cases.setdefault("low_beta", (obs, torch.tensor(o), torch.tensor(False)))
                elif q[o] >= q.max() - 1.0:
                    cases.setdefault("keep", (obs, torch.tensor(o), torch.tensor(False)))
                    cases.setdefault("force", (obs, torch.tensor(o), torch.tensor(True)))
                else:
                    cases.setdefault("bad_q", (obs, torch.tensor(o), torch.tensor(False)))
    return [cases[k] for k in ("beta", "force", "keep", "low_beta", "bad_q") if k in cases]
