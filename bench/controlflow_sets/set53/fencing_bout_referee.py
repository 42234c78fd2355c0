"""Electronic foil referee: right-of-way state machine over a bout.

Each frame of the scoring box carries [left touch lamp, right touch lamp,
left blade speed, right blade speed, left advance, right advance] and a
timestamp in ms.  An attack-intent model (rule score + learned correction)
assigns right of way; when a lamp lights, the 300 ms lockout window is
scanned for the opponent's touch and the phrase is resolved.  The bout ends
at 5 touches or when the frames run out.
Returns (scores [left, right], phrase winners (-1 = no touch awarded),
went-to-time flag).
"""
import torch
import torch.nn as nn

NEUTRAL, LEFT, RIGHT = 0, 1, 2


class FoilReferee(nn.Module):
    def __init__(self):
        super().__init__()
        self.intent_net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
        self.lockout_ms = 300.0
        self.bout_to = 5
        self.priority_prob = 0.6

    def _intent(self, frame):
        rule = torch.stack([frame[2] * frame[4], frame[3] * frame[5]])
        logits = rule + 0.1 * self.intent_net(frame[2:6].unsqueeze(0)).squeeze(0)
        return torch.softmax(logits, dim=0)

    def _priority_winner(self, state):
        if state == LEFT:
            return 0
        if state == RIGHT:
            return 1
        return -1          # simultaneous action: nothing awarded

    def _resolve(self, state, left_hit, right_hit):
        if left_hit and right_hit:
            return self._priority_winner(state)
        return 0 if left_hit else 1

    def forward(self, frames, clock_ms):
        n = frames.shape[0]
        scores = [0, 0]
        winners = []
        state = NEUTRAL
        resume_at = 0
        went_to_time = 0
        for i in range(n):
            if i < resume_at:
                continue               # still inside a resolved lockout window
            f = frames[i]
            if f[4] < 0 and f[5] < 0:
                state = NEUTRAL        # both retreating: right of way lost
            else:
                p = self._intent(f)
                if p[0] > self.priority_prob:
                    state = LEFT
                elif p[1] > self.priority_prob:
                    state = RIGHT

            left_hit = f[0] > 0.5
            right_hit = f[1] > 0.5
            if not (left_hit or right_hit):
                continue

            j = i + 1
            while j < n and clock_ms[j] - clock_ms[i] < self.lockout_ms:
                left_hit = left_hit or frames[j, 0] > 0.5
                right_hit = right_hit or frames[j, 1] > 0.5
                j += 1

            winner = self._resolve(state, left_hit, right_hit)
            winners.append(winner)
            if winner >= 0:
                scores[winner] += 1
            state = NEUTRAL
            resume_at = j
            if max(scores) >= self.bout_to:
                break
        else:
            went_to_time = 1
        return (torch.tensor(scores, dtype=torch.long),
                torch.tensor(winners, dtype=torch.long),
                torch.tensor(went_to_time, dtype=torch.long))


def model():
    torch.manual_seed(5311)
    return FoilReferee().eval()


def example_inputs():
    return verify_inputs()[0]


def dynamic_shapes():
    frames = torch.export.Dim("frames", min=2, max=200)
    return ({0: frames}, {0: frames})


def verify_inputs():
    def bout(n, seed, script):
        g = torch.Generator().manual_seed(seed)
        f = torch.zeros(n, 6)
        f[:, 2:4] = 0.5 + 0.1 * torch.rand(n, 2, generator=g)
        f[:, 4:6] = 0.1 * torch.rand(n, 2, generator=g)       # shuffling forward
        for idx, what in script:
            if what == "left_attack":
                f[idx, 2], f[idx, 4] = 2.0, 1.0
            elif what == "right_attack":
                f[idx, 3], f[idx, 5] = 2.0, 1.0
            elif what == "both_retreat":
                f[idx, 4], f[idx, 5] = -0.5, -0.5
            elif what == "left_retreat":
                f[idx, 4] = -0.5
            elif what == "left_hit":
                f[idx, 0] = 1.0
            elif what == "right_hit":
                f[idx, 1] = 1.0
        clock = 40.0 * torch.arange(n, dtype=torch.float32) + 2.0 * torch.rand(n, generator=g)
        return f, clock

    return [
        # example: 120 frames, bout goes to time (for/else).  Phrases:
        # left attack then both hit in lockout -> left on priority;
        # right attack, right hit only; right attack, both hit -> right on
        # priority; both retreat, both hit same frame -> nothing awarded;
        # left retreats alone (and-operand 2 false); left hit only; right hit
        # at the very end -> lockout window runs off the end of the frames
        bout(120, seed=1, script=[(70, "left_retreat"), (5, "left_attack"), (8, "left_hit"), (10, "right_hit"),
                                  (30, "right_attack"), (33, "right_hit"),
                                  (45, "right_attack"), (47, "right_hit"), (49, "left_hit"),
                                  (60, "both_retreat"), (62, "left_hit"), (62, "right_hit"),
                                  (80, "left_hit"), (118, "right_hit")]),
        # 2 frames (min): nothing happens, goes to time
        bout(2, seed=2, script=[]),
        # 200 frames (max): left scores 5 straight touches -> break at 5
        bout(200, seed=3, script=[(k, "left_attack") for k in (10, 40, 70, 100, 130)] +
             [(k + 2, "left_hit") for k in (10, 40, 70, 100, 130)] + [(170, "right_hit")]),
    ]
