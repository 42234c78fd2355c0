"""On-device keyboard next-key prediction: a stacked LSTM over the recently typed key ids
(variable length, only the last 32 kept), with a shift-state dependent temperature. The
top-3 keys are returned for the suggestion strip / touch-target resizing."""

import torch
from torch import nn

NUM_KEYS = 40
HIDDEN = 48
MAX_CONTEXT = 32


class NextKey(nn.Module):
    def __init__(self, layers: int = 2):
        super().__init__()
        self.emb = nn.Embedding(NUM_KEYS, HIDDEN)
        self.cells = nn.ModuleList([nn.LSTMCell(HIDDEN, HIDDEN) for _ in range(layers)])
        self.out = nn.Linear(HIDDEN, NUM_KEYS)

    def forward(self, keys: torch.Tensor, ctx: torch.Tensor):
        # keys: (1, T) int64 key ids; ctx: (1, 2) = shift pressed, caps lock
        if keys.shape[1] > MAX_CONTEXT:
            keys = keys[:, -MAX_CONTEXT:]
        x = self.emb(keys)
        hs = [torch.zeros(1, HIDDEN) for _ in self.cells]
        cs = [torch.zeros(1, HIDDEN) for _ in self.cells]
        for t in range(x.shape[1]):
            inp = x[:, t]
            for layer, cell in enumerate(self.cells):
                hs[layer], cs[layer] = cell(inp, (hs[layer], cs[layer]))
                inp = hs[layer]
        logits = self.out(hs[-1]) * 4.0
        temp = 0.7 if ctx[0, 0] > 0.5 else 1.0
        scaled = logits / temp
        probs = torch.softmax(scaled, dim=-1)
        _, top_k = torch.topk(scaled, 3, dim=-1)
        top_p = torch.gather(probs, 1, top_k)
        return probs, top_k, top_p


def model() -> nn.Module:
    torch.manual_seed(0)
    return NextKey().eval()


def _keys(T, shift, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, NUM_KEYS, (1, T), generator=g), torch.tensor([[shift, 0.0]])


def example_inputs() -> tuple:
    return _keys(10, 0.0, 0)


def dynamic_shapes():
    return ({1: torch.export.Dim("typed", min=2, max=48)}, None)


def verify_inputs() -> list:
    return [
        _keys(2, 1.0, 1),    # start of word with shift
        _keys(48, 0.0, 2),   # long context truncated
        _keys(33, 1.0, 3),
        _keys(32, 0.0, 4),   # exactly the context size: not truncated
    ]
