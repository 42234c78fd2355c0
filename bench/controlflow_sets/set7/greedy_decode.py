"""Greedy text decoding: embedding + GRUCell, for over range(int(max_new.item())), break on EOS."""

import torch
from torch import nn

VOCAB, HID = 50, 32


class GreedyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, HID)
        self.cell = nn.GRUCell(HID, HID)
        self.out = nn.Linear(HID, VOCAB)

    def encode(self, prompt):
        h = torch.zeros(prompt.shape[0], HID)
        for t in range(prompt.shape[1]):
            h = self.cell(self.emb(prompt[:, t]), h)
        return h

    def forward(self, prompt, max_new, eos_id):
        h = self.encode(prompt)
        seq = prompt
        tok = prompt[:, -1]
        for _ in range(int(max_new.item())):
            h = self.cell(self.emb(tok), h)
            tok = self.out(h).argmax(dim=-1)
            seq = torch.cat([seq, tok.unsqueeze(1)], dim=1)
            if (tok == eos_id).all():
                break
        return seq


def model():
    torch.manual_seed(0)
    return GreedyDecoder().eval()


def example_inputs():
    return (torch.tensor([[3, 7, 11, 2]]), torch.tensor(6), torch.tensor(1))


def dynamic_shapes():
    return ({1: torch.export.Dim("prompt_len", min=1, max=32)}, None, None)


def verify_inputs():
    m = model()
    prompt = torch.tensor([[5, 9, 1, 4, 8, 2]])
    with torch.no_grad():
        probe = m(prompt, torch.tensor(8), torch.tensor(-1))
    eos_at_3 = probe[0, prompt.shape[1] + 2].reshape(())
    return [
        (prompt, torch.tensor(8), torch.tensor(-1)),  # no EOS: runs all 8 steps
        (prompt, torch.tensor(8), eos_at_3),  # EOS generated at step 3 (or earlier): break
        (torch.tensor([[4]]), torch.tensor(0), torch.tensor(1)),  # zero new tokens, 1-token prompt
    ]
