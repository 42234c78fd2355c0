"""A string state a converted loop carries that is read as the key of a module-level dict and
passed through a helper returning literals or the state itself (``stage = next_stage(stage, v)``)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

STEPS = torch.export.Dim("steps", min=2, max=40)

# stage: (current limit in A, voltage gain)
STAGES = {"bulk": (2.0, 0.01), "absorb": (0.8, 0.01), "float": (0.2, 0.0)}


def next_stage(stage, volts):
    if stage == "bulk" and volts > 14.2:
        return "absorb"
    if stage != "float" and volts > 14.6:
        return "float"
    return stage


class Charger(nn.Module):
    """A lead-acid charger: the stage sets the current limit; the battery voltage follows the
    charge current and the load drawn at each step."""

    def forward(self, load):
        stage = "bulk"
        volts = torch.tensor(12.4)
        trace = []
        for t in range(load.shape[0]):
            limit, gain = STAGES[stage]
            current = torch.clamp(limit - load[t], min=0.0)
            volts = volts + gain * current * 10.0 - 0.01 * load[t]
            trace.append(current)
            stage = next_stage(stage, volts)
        return torch.stack(trace), volts, torch.tensor(1.0 if stage == "float" else 0.0)


CASES = [
    Case(
        "a_string_state_keys_a_module_dict_and_goes_through_a_helper",
        seeded(Charger),
        (torch.full((12,), 0.1),),
        [
            (torch.full((2,), 0.1),),  # stays in bulk
            (torch.full((40,), 0.1),),  # bulk -> absorb -> float
            (torch.full((40,), 0.7),),  # bulk -> absorb, never float
        ],
        ({0: STEPS},),
        constructs=("for->scan",),
    ),
]
