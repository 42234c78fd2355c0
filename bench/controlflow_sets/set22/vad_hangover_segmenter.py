"""Voice activity detection for a voice memo app: frame scorer + onset/hangover state machine."""
import torch
import torch.nn as nn

SILENCE, ONSET, SPEECH, HANGOVER = 0, 1, 2, 3


class FrameScorer(nn.Module):
    def __init__(self, n_bands=8):
        super().__init__()
        self.n_bands = n_bands
        self.tilt = nn.Linear(n_bands, 1)
        self.floor = -4.0
        self.scale = 1.5

    def forward(self, frames):
        spec = frames.reshape(frames.shape[0], self.n_bands, -1).pow(2).mean(-1)
        log_e = torch.log(spec.mean(-1) + 1e-6)
        logit = self.scale * (log_e - self.floor) + 0.1 * self.tilt(torch.log(spec + 1e-6)).squeeze(-1)
        return torch.sigmoid(logit)


class Hangover(nn.Module):
    def __init__(self, on_thr=0.6, off_thr=0.4, onset_frames=3, hang_frames=2):
        super().__init__()
        self.on_thr, self.off_thr = on_thr, off_thr
        self.onset_frames, self.hang_frames = onset_frames, hang_frames

    def forward(self, probs):
        state = SILENCE
        onset = 0
        hang = 0
        segments = torch.zeros((), dtype=torch.long)
        flags = []
        for t in range(probs.shape[0]):
            p = probs[t]
            if state == SILENCE:
                if p > self.on_thr:
                    state = ONSET
                    onset = 1
            elif state == ONSET:
                if p > self.on_thr:
                    onset += 1
                    if onset >= self.onset_frames:
                        state = SPEECH
                        segments = segments + 1
                else:
                    state = SILENCE
            elif state == SPEECH:
                if p < self.off_thr:
                    state = HANGOVER
                    hang = self.hang_frames
            else:
                if p > self.on_thr:
                    state = SPEECH
                else:
                    hang -= 1
                    if hang == 0:
                        state = SILENCE
            flags.append(torch.ones_like(p) if state >= SPEECH else torch.zeros_like(p))
        return torch.stack(flags), segments


class VadHangoverSegmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.scorer = FrameScorer()
        self.machine = Hangover()

    def forward(self, frames):
        probs = self.scorer(frames)
        mask, segments = self.machine(probs)
        return frames * mask[:, None], mask, segments


def model():
    torch.manual_seed(0)
    return VadHangoverSegmenter().eval()


def _frames(levels, seed):
    # one amplitude level per 64-sample frame: 0.01 = room noise, >= 0.3 = speech
    g = torch.Generator().manual_seed(seed)
    lv = torch.tensor(levels)
    return (torch.randn(len(levels), 64, generator=g) * lv[:, None],)


def example_inputs():
    return _frames([0.01, 0.5, 0.6, 0.7, 0.01, 0.01, 0.01, 0.01, 0.4, 0.01, 0.01, 0.01], 1)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=512)},)


def verify_inputs():
    return [
        _frames([0.01, 0.01, 0.01], 2),
        _frames([0.6, 0.5, 0.01, 0.8, 0.7, 0.6, 0.01, 0.5, 0.01, 0.01, 0.01], 3),
        _frames([0.5, 0.01, 0.6, 0.7, 0.8, 0.6, 0.5], 4),
    ]
