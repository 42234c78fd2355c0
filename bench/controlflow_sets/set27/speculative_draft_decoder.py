"""Speculative decoding with a small draft language model.

A cheap draft GRU proposes a block of tokens greedily; the target GRU then
walks the block, keeping tokens while it agrees with the draft and emitting
its own token at the first disagreement, after which a new block is drafted.
Generation stops at end-of-sequence or when the token budget is used up. The
output is identical to greedy decoding with the target model alone.
"""
import torch
import torch.nn as nn

EOS = 0


class TinyGruLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)

    def step(self, tok, h):
        return self.cell(self.emb(tok).unsqueeze(0), h)

    def logits(self, h):
        return self.out(h).squeeze(0)


class SpeculativeDraftDecoder(nn.Module):
    def __init__(self, vocab=24, dim=32, draft_len=4, draft_noise=0.03, logit_scale=5.0, eos_bias=1.4):
        super().__init__()
        self.dim = dim
        self.draft_len = draft_len
        self.target = TinyGruLM(vocab, dim)
        self.draft = TinyGruLM(vocab, dim)
        with torch.no_grad():
            # the draft is a noisy distillation of the target
            for p_d, p_t in zip(self.draft.parameters(), self.target.parameters()):
                p_d.copy_(p_t + draft_noise * torch.randn_like(p_t))
            for lm in (self.target, self.draft):
                # trained LMs have peaked next-token distributions
                lm.out.weight.mul_(logit_scale)
                lm.out.bias.mul_(logit_scale)
                # calibrated end-of-sequence prior so that generations terminate
                lm.out.bias[EOS] += eos_bias

    def forward(self, prompt, max_new):
        # prompt: [P] int64 token ids; max_new: int64 scalar budget
        h_t = torch.zeros(1, self.dim)
        h_d = torch.zeros(1, self.dim)
        for i in range(prompt.shape[0]):
            h_t = self.target.step(prompt[i], h_t)
            h_d = self.draft.step(prompt[i], h_d)
        out = []
        accepted = torch.zeros((), dtype=torch.int64)
        produced = torch.zeros((), dtype=torch.int64)
        done = False
        while produced < max_new and not done:
            proposal = []
            hd = h_d
            for _ in range(self.draft_len):
                tok = self.draft.logits(hd).argmax()
                proposal.append(tok)
                hd = self.draft.step(tok, hd)
            for j in range(self.draft_len):
                tok = self.target.logits(h_t).argmax()
                if tok == proposal[j]:
                    accepted = accepted + 1
                out.append(tok)
                produced = produced + 1
                h_t = self.target.step(tok, h_t)
                h_d = self.draft.step(tok, h_d)
                if tok == EOS or produced >= max_new:
                    done = True
                    break  # finished
                if tok != proposal[j]:
                    break  # draft diverged, draft a new block
        if len(out) == 0:
            return torch.zeros(0, dtype=torch.int64), accepted
        return torch.stack(out), accepted


def model():
    torch.manual_seed(0)
    return SpeculativeDraftDecoder().eval()


def _prompt(n, budget, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(1, 24, (n,), generator=g), torch.tensor(budget, dtype=torch.int64)


def example_inputs():
    return _prompt(6, 12, 0)


def dynamic_shapes():
    P = torch.export.Dim("prompt_len", min=2, max=64)
    return ({0: P}, None)


def verify_inputs():
    return [
        _prompt(5, 16, 21),  # long agreement runs, stops on the budget
        _prompt(8, 0, 2),    # zero budget
        _prompt(5, 30, 7),   # ends with end-of-sequence
        _prompt(5, 20, 22),  # a fully accepted draft block
        _prompt(5, 30, 9),   # immediate end-of-sequence
        _prompt(5, 9, 13),   # draft keeps disagreeing
    ]
