"""On-device translation: GRU encoder-decoder with dot attention, greedy decoding
(no beam) until EOS or a length cap derived from the source length, a minimum
length rule, and a GNMT-style length penalty on the returned score."""
import torch
from torch import nn

VOCAB, EMB, HID = 40, 16, 32
BOS, EOS = 1, 2


class GreedyTranslator(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(VOCAB, EMB)
        self.tgt_emb = nn.Embedding(VOCAB, EMB)
        self.encoder = nn.GRU(EMB, HID, batch_first=True)
        self.cell = nn.GRUCell(EMB + HID, HID)
        self.out = nn.Linear(2 * HID, VOCAB)
        self.alpha = 0.6
        self.eos_prior = 0.8        # per token beyond the source length
        self.max_src = 48

    def attend(self, h, mem):
        w = torch.softmax(mem @ h, dim=0)
        return w @ mem

    def length_penalty(self, n):
        return ((5.0 + n) / 6.0) ** self.alpha

    def forward(self, src):
        # src: (S,) int64 token ids
        if src.shape[0] > self.max_src:
            src = src[: self.max_src]                 # model was trained on <= 48 tokens
        S = src.shape[0]
        mem, h = self.encoder(self.src_emb(src).unsqueeze(0))
        mem, h = mem[0], h[0, 0]
        min_len = S // 2
        max_len = 2 * S + 2
        tok = torch.tensor(BOS)
        ctx = mem.mean(dim=0)
        toks, logp = [], torch.zeros(())
        for step in range(max_len):
            h = self.cell(torch.cat([self.tgt_emb(tok), ctx]).unsqueeze(0), h.unsqueeze(0))[0]
            ctx = self.attend(h, mem)
            logits = self.out(torch.cat([h, ctx]))
            bias = torch.zeros(VOCAB)
            if step < min_len:
                bias[EOS] = -1e4                         # forbid EOS early
            else:
                bias[EOS] = self.eos_prior * (step - S)
            lp = torch.log_softmax(logits + bias, dim=-1)
            tok = torch.argmax(lp)
            logp = logp + lp[tok]
            toks.append(tok)
            if tok == EOS:
                break
        n = len(toks)
        return torch.stack(toks), logp / self.length_penalty(n)


def model():
    torch.manual_seed(0)
    return GreedyTranslator().eval()


def example_inputs():
    return (torch.tensor([5, 9, 13, 22, 7, 31, 4]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("S", min=2, max=64)},)


def verify_inputs():
    g = torch.Generator().manual_seed(15)
    return [
        (torch.tensor([3, 17]),),
        (torch.randint(3, VOCAB, (60,), generator=g),),      # over-long source: truncated
        (torch.tensor([8, 8, 8, 8, 12, 30, 30, 5, 6, 11, 19]),),
    ]
