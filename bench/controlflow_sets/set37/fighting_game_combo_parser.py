"""Special-move input parser for a 2D fighting game.

Per frame the controller gives a stick position and two button pressures.  The
stick is quantised into numpad-style directions relative to the character's
facing; each special move is a direction sequence ending with a button that must
be completed within an input-buffer window.  Pressing both buttons at once is a
throw and ends parsing for this buffer.  Recognised moves select an animation
embedding.
"""
import torch
import torch.nn as nn
from torch.export import Dim

NEUTRAL, DOWN, DOWN_FWD, FWD, BACK, PUNCH, KICK = range(7)
THROW = 3
PAD = -1


class ComboParser(nn.Module):
    def __init__(self, window=12, facing_left=False):
        super().__init__()
        self.window = window
        self.facing_left = facing_left
        # fireball: D DF F P ; uppercut: F D DF P ; hurricane kick: D BACK K   (padded with -1)
        self.register_buffer("moves", torch.tensor([[DOWN, DOWN_FWD, FWD, PUNCH],
                                                    [FWD, DOWN, DOWN_FWD, PUNCH],
                                                    [DOWN, BACK, KICK, PAD]]))
        self.register_buffer("lengths", torch.tensor([4, 4, 3]))
        self.anim = nn.Embedding(4, 8)

    def quantise(self, stick, buttons):
        x, y = stick[:, 0], stick[:, 1]
        if self.facing_left:
            x = -x
        tok = torch.full_like(x, NEUTRAL, dtype=torch.long)
        tok = torch.where((y < -0.5) & (x.abs() < 0.5), torch.full_like(tok, DOWN), tok)
        tok = torch.where((y < -0.5) & (x > 0.5), torch.full_like(tok, DOWN_FWD), tok)
        tok = torch.where((y.abs() < 0.5) & (x > 0.5), torch.full_like(tok, FWD), tok)
        tok = torch.where((y.abs() < 0.5) & (x < -0.5), torch.full_like(tok, BACK), tok)
        tok = torch.where(buttons[:, 1] > 0.5, torch.full_like(tok, KICK), tok)
        tok = torch.where(buttons[:, 0] > 0.5, torch.full_like(tok, PUNCH), tok)
        return tok

    def forward(self, stick, buttons):
        tokens = self.quantise(stick, buttons)
        n_moves = self.moves.shape[0]
        progress = torch.zeros(n_moves, dtype=torch.long)
        last_hit = torch.full((n_moves,), -1000, dtype=torch.long)
        events = []
        for t in range(tokens.shape[0]):
            if (buttons[t] > 0.5).all():
                events.append(torch.stack([torch.tensor(t), torch.tensor(THROW)]))
                break
            tok = tokens[t]
            if tok == NEUTRAL:
                continue
            for m in range(n_moves):
                if t - last_hit[m] > self.window:
                    progress[m] = 0                    # buffer expired, start over
                if tok == self.moves[m, progress[m]]:
                    progress[m] += 1
                    last_hit[m] = t
                    if progress[m] == self.lengths[m]:
                        events.append(torch.stack([torch.tensor(t), torch.tensor(m)]))
                        progress.zero_()
                        break                          # one special per input
        if len(events) == 0:
            return torch.zeros(0, 2, dtype=torch.long), torch.zeros(8)
        ev = torch.stack(events)
        return ev, self.anim(ev[:, 1]).sum(0)


def model():
    torch.manual_seed(6)
    return ComboParser(facing_left=True).eval()     # player-2 side of the screen


# raw stick values for a character facing left (forward = stick left)
_DIRS = {"n": (0.0, 0.0), "d": (0.0, -0.9), "df": (-0.8, -0.8), "f": (-0.9, 0.0), "b": (0.9, 0.0)}


def _gen_frames(seq):
    """seq: list of (direction, buttons) per frame, e.g. ("df", "") or ("n", "p")."""
    stick = torch.tensor([_DIRS[d] for d, _ in seq])
    buttons = torch.tensor([[1.0 if "p" in b else 0.0, 1.0 if "k" in b else 0.0] for _, b in seq])
    return stick, buttons


def example_inputs():
    seq = [("n", "")] * 3 + [("d", ""), ("d", ""), ("df", ""), ("f", ""), ("f", "p")] + [("n", "")] * 4
    return _gen_frames(seq)


def dynamic_shapes():
    t = Dim("frames", min=2, max=120)
    return {0: t}, {0: t}


def verify_inputs():
    slow = [("d", ""), ("df", "")] + [("n", "")] * 14 + [("f", ""), ("n", "p")]     # too slow: buffer expires
    uppercut = [("f", ""), ("d", ""), ("df", ""), ("n", "p"), ("n", ""), ("d", ""), ("b", ""), ("n", "k")]
    throw = [("f", ""), ("n", "pk"), ("d", ""), ("df", ""), ("f", "p")]                # throw ends parsing
    idle = [("n", ""), ("n", "")]                                                      # nothing pressed
    return [
        example_inputs(),            # fireball
        _gen_frames(slow),           # partial inputs expire -> no special (button alone)
        _gen_frames(uppercut),       # uppercut then hurricane kick
        _gen_frames(throw),          # throw -> break
        _gen_frames(idle),           # all neutral -> continue every frame, no events
    ]
