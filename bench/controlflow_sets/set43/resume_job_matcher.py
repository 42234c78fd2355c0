"""Resume / job-posting matcher for a recruiting tool.

Token embeddings of a resume are projected and pooled (long resumes are pooled
per 64-token section and max-pooled over sections so one strong section is not
diluted), compared with the job posting embedding, and routed to
interview / recruiter review / reject.
Constructs: 1, 3, 5, 7, 8, 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SectionPooler(nn.Module):
    def __init__(self, section_len=64):
        super().__init__()
        self.section_len = section_len

    def forward(self, tokens):
        if tokens.shape[0] > self.section_len:
            sections = []
            for start in range(0, tokens.shape[0], self.section_len):
                sections.append(tokens[start:start + self.section_len].mean(dim=0))
            return torch.stack(sections).max(dim=0).values
        return tokens.mean(dim=0)


class ResumeJobMatcher(nn.Module):
    def __init__(self, dim=32, use_keyword_boost=True):
        super().__init__()
        self.proj = nn.Linear(dim, dim, bias=False)
        self.pool = SectionPooler()
        self.use_keyword_boost = use_keyword_boost
        self.keyword_weight = 0.1

    def forward(self, resume_tokens, job_emb, keyword_hits):
        r = self.pool(self.proj(resume_tokens))
        j = self.proj(job_emb)
        score = F.cosine_similarity(r, j, dim=0)
        if self.use_keyword_boost:
            score = score + self.keyword_weight * keyword_hits.clamp(max=3).sum() / 3.0

        too_short = resume_tokens.shape[0] < 8
        if score > 0.6 and not too_short:
            decision = torch.tensor([1.0, 0.0, 0.0])
        elif score > 0.2 or (keyword_hits > 0).all():
            decision = torch.tensor([0.0, 1.0, 0.0])
        else:
            decision = torch.tensor([0.0, 0.0, 1.0])
        return decision, score


def model():
    torch.manual_seed(2)
    return ResumeJobMatcher().eval()


def _resume(n, job, alpha, seed):
    g = torch.Generator().manual_seed(seed)
    return alpha * job[None, :] + 0.3 * torch.randn(n, 32, generator=g)


def _job():
    return torch.randn(32, generator=torch.Generator().manual_seed(99))


def example_inputs():
    job = _job()
    return (_resume(40, job, 1.0, 0), job, torch.tensor([2.0, 1.0, 0.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=2, max=256)}, None, None)


def verify_inputs():
    job = _job()
    kw0 = torch.tensor([0.0, 0.0, 0.0])
    kw_all = torch.tensor([1.0, 1.0, 1.0])
    return [
        example_inputs(),                                         # strong match, short pooling -> interview
        (_resume(150, job, 1.0, 1), job, kw0),                    # > 64 tokens -> section pooling, interview
        (_resume(5, job, 1.0, 2), job, kw0),                      # strong but too short -> review (elif via score)
        (_resume(100, job, -1.0, 3), job, kw_all),                # anti-match, >64 tokens, all keywords -> review via `or`
        (_resume(30, job, -1.0, 4), job, kw0),                    # anti-match, no keywords -> reject
    ]
