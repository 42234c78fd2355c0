"""On-device assistant: fit chat history + the new query into a fixed context window,
dropping whole old turns (cut after a separator), left-padding, and a pooled context vector."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChatContextTruncator(nn.Module):
    def __init__(self, vocab=256, dim=16, max_ctx=48, sep_id=2, pad_id=0):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.max_ctx = max_ctx
        self.sep_id = sep_id
        self.pad_id = pad_id

    def pool(self, ids, mask):
        e = self.embed(ids) * mask[:, None].to(torch.float32)
        return e.sum(0) / mask.sum().clamp(min=1).to(torch.float32)

    def forward(self, history, query):
        if query.shape[0] >= self.max_ctx:
            ids = query[-self.max_ctx:]
            mask = torch.ones(self.max_ctx, dtype=torch.long)
            return ids, mask, self.pool(ids, mask)
        budget = self.max_ctx - query.shape[0]
        if history.shape[0] > budget:
            history = history[-budget:]
            if (history == self.sep_id).any():
                start = int((history == self.sep_id).nonzero()[0, 0].item()) + 1
                history = history[start:]
        ctx = torch.cat([history, query])
        mask = torch.ones(ctx.shape[0], dtype=torch.long)
        if ctx.shape[0] < self.max_ctx:
            missing = self.max_ctx - ctx.shape[0]
            ctx = F.pad(ctx, (missing, 0), value=self.pad_id)
            mask = F.pad(mask, (missing, 0))
        return ctx, mask, self.pool(ctx, mask)


def model():
    torch.manual_seed(0)
    return ChatContextTruncator().eval()


def _turns(seed, lengths):
    # turns of random word ids (>= 3), each turn followed by a separator (2)
    g = torch.Generator().manual_seed(seed)
    parts = []
    for n in lengths:
        parts.append(torch.randint(3, 256, (n,), generator=g))
        parts.append(torch.tensor([2]))
    return torch.cat(parts)


def _query(seed, n):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(3, 256, (n,), generator=g)


def example_inputs():
    return (_turns(1, [12, 9, 7]), _query(2, 10))


def dynamic_shapes():
    return ({0: torch.export.Dim("history", min=2, max=512)}, {0: torch.export.Dim("query", min=2, max=128)})


def verify_inputs():
    return [
        (_turns(3, [5, 4]), _query(4, 50)),             # query alone overflows the window
        (_turns(5, [20, 15, 18, 3]), _query(6, 8)),     # cut at a turn boundary
        (_turns(7, [44])[:44], _query(8, 12)),          # one long turn, no separator: fills the window
    ]
