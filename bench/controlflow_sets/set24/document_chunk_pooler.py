"""Long-document embedding by chunking.

Short documents are encoded in one pass.  Longer ones are split into chunks
of `chunk` tokens; a too-short trailing chunk is merged into the previous one,
every chunk is encoded separately and the chunk vectors are combined with a
learned attention pooling.  The chunk encoder itself switches between mean
pooling (very short chunks) and attention pooling.
"""
import torch
import torch.nn as nn


class ChunkEncoder(nn.Module):
    def __init__(self, vocab=200, d=32, min_attn_len=6):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.mix = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.Linear(d, d))
        self.query = nn.Parameter(torch.randn(d) * 0.3)
        self.min_attn_len = min_attn_len

    def forward(self, ids):                      # ids: [B, t]
        h = self.embed(ids)
        h = h + self.mix(h)
        if ids.shape[1] < self.min_attn_len:
            return h.mean(1)
        att = torch.softmax(h @ self.query, dim=1)
        return (att.unsqueeze(-1) * h).sum(1)


class DocumentChunkPooler(nn.Module):
    def __init__(self, chunk=16, min_tail=5, d=32):
        super().__init__()
        self.chunk = chunk
        self.min_tail = min_tail
        self.encoder = ChunkEncoder(d=d)
        self.chunk_query = nn.Parameter(torch.randn(d) * 0.3)
        self.out = nn.Linear(d, d)

    def split(self, ids):
        T = ids.shape[1]
        n = (T + self.chunk - 1) // self.chunk
        chunks = []
        for i in range(n):
            piece = ids[:, i * self.chunk:(i + 1) * self.chunk]
            if piece.shape[1] < self.min_tail:
                chunks[-1] = torch.cat([chunks[-1], piece], dim=1)
            else:
                chunks.append(piece)
        return chunks

    def forward(self, ids):
        if ids.shape[1] <= self.chunk:
            return self.out(self.encoder(ids))
        vecs = []
        for piece in self.split(ids):
            vecs.append(self.encoder(piece))
        v = torch.stack(vecs, dim=1)                           # [B, n_chunks, d]
        att = torch.softmax(v @ self.chunk_query, dim=1)
        return self.out((att.unsqueeze(-1) * v).sum(1))


def model():
    torch.manual_seed(0)
    return DocumentChunkPooler().eval()


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (torch.randint(0, 200, (2, 40), generator=g),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=8),
             1: torch.export.Dim("tokens", min=2, max=256)},)


def verify_inputs():
    g = torch.Generator().manual_seed(8)
    ids = lambda B, T: torch.randint(0, 200, (B, T), generator=g)  # noqa: E731
    return [
        (ids(2, 4),),      # tiny doc: single pass, mean pooling
        (ids(3, 12),),     # single pass, attention pooling
        (ids(2, 19),),     # two chunks, 3-token tail merged into the first
        (ids(2, 30),),     # two chunks, tail kept
        (ids(4, 100),),    # many chunks
    ]
