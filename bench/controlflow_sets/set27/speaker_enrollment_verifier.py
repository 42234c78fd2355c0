"""Speaker verification against an enrollment set.

Scores trial utterance embeddings against a speaker's enrollment embeddings.
With too few enrollment utterances the score is blended with a universal
background model; long enrollments keep only the most recent utterances and
are attention-pooled. A confidence gate decides whether the raw speaker score
is trusted or averaged with the background score.
"""
import torch
import torch.nn as nn


class EnrollmentPooler(nn.Module):
    def __init__(self, dim, max_utterances=32):
        super().__init__()
        self.max_utterances = max_utterances
        self.attn = nn.Linear(dim, 1)
        self.proj = nn.Linear(dim, dim)

    def forward(self, enrollment):
        if enrollment.shape[0] > self.max_utterances:
            enrollment = enrollment[-self.max_utterances:]
        weights = torch.softmax(self.attn(enrollment).squeeze(-1), dim=0)
        return self.proj(weights @ enrollment)


class SpeakerEnrollmentVerifier(nn.Module):
    def __init__(self, dim=16, min_enrollment=8):
        super().__init__()
        self.min_enrollment = min_enrollment
        self.register_buffer("ubm_mean", 0.3 * torch.randn(dim))
        self.pooler = EnrollmentPooler(dim)
        self.gate = nn.Linear(dim, 1)

    def forward(self, enrollment, trials):
        # enrollment: [L, dim] utterance embeddings, trials: [C, dim]
        background = trials @ self.ubm_mean
        if enrollment.shape[0] < self.min_enrollment:
            speaker = enrollment.mean(0)
            return 0.8 * background + 0.2 * (trials @ speaker)
        speaker = self.pooler(enrollment)
        confidence = torch.sigmoid(self.gate(speaker)).squeeze(-1)
        raw = trials @ speaker
        scores = raw if confidence > 0.5 else 0.5 * (raw + background)
        return scores


def model():
    torch.manual_seed(0)
    return SpeakerEnrollmentVerifier().eval()


def _voice(scale):
    # a fixed direction in embedding space standing in for a voice timbre
    return scale * torch.randn(16, generator=torch.Generator().manual_seed(107))


def _session(length, timbre, n_trials, seed):
    g = torch.Generator().manual_seed(seed)
    enrollment = 0.3 * torch.randn(length, 16, generator=g) + _voice(timbre)
    trials = torch.randn(n_trials, 16, generator=g)
    return enrollment, trials


def example_inputs():
    return _session(12, 0.0, 10, 0)


def dynamic_shapes():
    L = torch.export.Dim("enroll_utts", min=2, max=128)
    C = torch.export.Dim("trials", min=2, max=64)
    return ({0: L}, {0: C})


def verify_inputs():
    return [
        _session(3, 0.0, 6, 1),       # barely enrolled
        _session(12, 1.5, 10, 2),     # gate trusts the speaker model
        _session(20, -1.5, 8, 3),     # gate falls back to the blend
        _session(60, -1.5, 12, 4),    # long enrollment is truncated
    ]
