"""DAW MIDI editing: quantise a recorded drum part to a 1/16 grid with strength and swing,
keeping ghost notes humanised and merging flams that land on the same grid slot.

Kind T. Constructs: 1 2 3 5 6
"""
import torch
import torch.nn as nn


class OnsetQuantizer(nn.Module):
    def __init__(self, grid=0.25, strength=0.8, swing=0.12, ghost_velocity=20.0):
        super().__init__()
        self.grid = grid                  # in beats (1/16 note at 4/4)
        self.strength = strength
        self.swing = swing                # fraction of a grid step that odd 16ths are delayed
        self.ghost_velocity = ghost_velocity

    def forward(self, onsets, velocities):
        out_t, out_v = [], []
        prev_slot = torch.tensor(-1.0)
        last = -1
        for i in range(onsets.shape[0]):
            t = onsets[i]
            v = velocities[i]
            if v < self.ghost_velocity:
                # ghost notes keep the player's timing
                out_t.append(t)
                out_v.append(v)
                continue
            slot = torch.round(t / self.grid)
            if slot == prev_slot:
                # flam: two hits on one slot -> keep a single note with the louder velocity
                if v > out_v[last]:
                    out_v[last] = v
                continue
            target = slot * self.grid
            if self.swing > 0 and slot % 2 == 1:
                target = target + self.swing * self.grid
            out_t.append(t + self.strength * (target - t))
            out_v.append(v)
            prev_slot = slot
            last = len(out_v) - 1
        return torch.stack(out_t), torch.stack(out_v)


def model():
    torch.manual_seed(7)
    return OnsetQuantizer().eval()


def example_inputs():
    # kick / snare / hats with human timing, one ghost note, one flam (louder second hit)
    t = torch.tensor([0.02, 0.27, 0.49, 0.55, 0.76, 0.98, 1.03, 1.24])
    v = torch.tensor([100.0, 64.0, 90.0, 12.0, 70.0, 80.0, 96.0, 66.0])
    return (t, v)


def dynamic_shapes():
    n = torch.export.Dim("notes", min=2, max=256)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),   # ghost note kept, flam merged keeping the louder (second) hit, swing on odd slots
        (torch.tensor([0.51, 0.53]), torch.tensor([90.0, 40.0])),   # flam where the second hit is softer: kept first
        (torch.tensor([0.03, 0.51]), torch.tensor([10.0, 15.0])),   # only ghost notes: passed through untouched
        (torch.arange(32, dtype=torch.float32) * 0.125 + 0.01,      # straight 1/32 roll: every other note collides
         torch.linspace(30.0, 120.0, 32)),
    ]
