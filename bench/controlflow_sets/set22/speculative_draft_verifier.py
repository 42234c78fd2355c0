"""On-device LLM speculative decoding: verify a draft model's tokens against the target
model's head; accept while the probability ratio beats the uniform draw, otherwise
substitute the target's best other token and stop; bonus token if all are accepted."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpeculativeDraftVerifier(nn.Module):
    def __init__(self, hidden=32, vocab=48, temperature=0.8):
        super().__init__()
        self.vocab = vocab
        self.temperature = temperature
        self.lm_head = nn.Linear(hidden, vocab)

    def forward(self, draft_tokens, draft_probs, target_hidden, bonus_hidden, uniforms):
        k = draft_tokens.shape[0]
        logits = self.lm_head(target_hidden) / self.temperature
        p = torch.softmax(logits, dim=-1)
        out = []
        n_accepted = 0
        for i in range(k):
            tok = draft_tokens[i]
            ratio = p[i, tok] / draft_probs[i]
            if ratio >= uniforms[i]:
                out.append(tok)
                n_accepted += 1
                continue
            refused = F.one_hot(tok, self.vocab).bool()
            out.append(logits[i].masked_fill(refused, float("-inf")).argmax())
            break
        else:
            out.append(self.lm_head(bonus_hidden).argmax())
        emitted = torch.stack(out)
        tokens = torch.cat([emitted, torch.full((k + 1 - emitted.shape[0],), -1, dtype=torch.long)])
        return tokens, torch.tensor(n_accepted)


def model():
    torch.manual_seed(0)
    return SpeculativeDraftVerifier().eval()


def _case(seed, toks, dprobs, us):
    g = torch.Generator().manual_seed(seed)
    k = len(toks)
    return (torch.tensor(toks), torch.tensor(dprobs), torch.randn(k, 32, generator=g) * 2.0,
            torch.randn(32, generator=g) * 2.0, torch.tensor(us))


def example_inputs():
    return _case(1, [5, 17, 30, 2, 41], [0.05, 0.04, 0.06, 0.03, 0.05], [0.21, 0.35, 0.62, 0.15, 0.48])


def dynamic_shapes():
    k = torch.export.Dim("draft_len", min=2, max=16)
    return ({0: k}, {0: k}, {0: k}, None, {0: k})


def verify_inputs():
    return [
        _case(2, [7, 7], [0.002, 0.003], [0.11, 0.27]),
        _case(3, [12, 3, 44], [0.9, 0.8, 0.7], [0.52, 0.33, 0.91]),
        _case(4, [1, 9, 19, 29, 39, 47], [0.004, 0.005, 0.003, 0.002, 0.004, 0.003],
              [0.31, 0.22, 0.64, 0.18, 0.42, 0.75]),
    ]
