"""Tiny GRU seq2seq translator with greedy decoding that stops once every sentence emitted EOS."""

import torch
from torch import nn

SRC_VOCAB, TGT_VOCAB, EMB, HID = 20, 8, 16, 32
BOS, EOS, MAX_DECODE = 1, 2, 10


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(SRC_VOCAB, EMB)
        self.rnn = nn.GRU(EMB, HID, batch_first=True)

    def forward(self, src):
        out, h = self.rnn(self.emb(src))
        return out, h[0]


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(TGT_VOCAB, EMB)
        self.cell = nn.GRUCell(EMB + HID, HID)
        self.out = nn.Linear(2 * HID, TGT_VOCAB)

    def forward(self, tok, h, enc_out):
        scores = torch.bmm(enc_out, h.unsqueeze(2)).squeeze(2)
        ctx = torch.bmm(torch.softmax(scores, dim=1).unsqueeze(1), enc_out).squeeze(1)
        h = self.cell(torch.cat([self.emb(tok), ctx], dim=1), h)
        return self.out(torch.cat([h, ctx], dim=1)), h


class Translator(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()

    def forward(self, src):
        enc_out, h = self.encoder(src)
        tok = torch.full((src.shape[0],), BOS, dtype=torch.long)
        finished = torch.zeros(src.shape[0], dtype=torch.bool)
        logits_seq = []
        for _ in range(MAX_DECODE):
            logits, h = self.decoder(tok, h, enc_out)
            logits_seq.append(logits)
            tok = logits.argmax(dim=1)
            finished = finished | (tok == EOS)
            if finished.all():
                break
        return torch.stack(logits_seq, dim=1)


def model():
    torch.manual_seed(0)
    net = Translator()
    with torch.no_grad():  # sharper, "trained-looking" output layer so argmax margins are large
        nn.init.normal_(net.decoder.out.weight, std=1.5)
        net.decoder.out.bias.zero_()
        net.decoder.out.bias[EOS] = 1.0
    return net.eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randint(3, SRC_VOCAB, (2, 7)),)


def dynamic_shapes():
    return ({1: torch.export.Dim("src_len", min=1, max=32)},)


def _src(seed):
    g = torch.Generator().manual_seed(seed)
    length = int(torch.randint(1, 33, (1,), generator=g))
    return (torch.randint(3, SRC_VOCAB, (2, length), generator=g),)


def verify_inputs():
    # seeds 114, 118: all sentences hit EOS at step 1 (break at once); 106: break after 3 steps;
    # 111, 122, 105: no early stop, full MAX_DECODE steps (105 has src_len 1).
    return [_src(s) for s in (114, 118, 106, 111, 122, 105)]
