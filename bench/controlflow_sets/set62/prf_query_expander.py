"""Dense retrieval with iterative pseudo-relevance feedback (Rocchio in embedding space).

The query tokens are embedded and projected; documents come as precomputed
embeddings. Each feedback round takes the current top-k documents, skips
those that are not relevant enough (sorted, so the first miss ends the scan)
and near-duplicates of documents already used (syndicated copies would
otherwise dominate the centroid), and moves the query towards the centroid
of the rest. Rounds stop when the query moves by less than a small angle, when nothing
relevant is left, or after a fixed budget.

Kind: X.  Constructs: 1, 2, 3, 4, 5, 6, 7.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def is_near_duplicate(doc, kept, threshold):
    for other in kept:
        if (doc * other).sum() > threshold:
            return True
    return False


class PRFQueryExpander(nn.Module):
    def __init__(self, vocab=500, dim=32, feedback_docs=4, min_score=0.55, dup_threshold=0.97,
                 alpha=0.7, beta=0.3, tol_deg=1.5, max_rounds=4):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
        self.feedback_docs = feedback_docs
        self.min_score = min_score
        self.dup_threshold = dup_threshold
        self.alpha = alpha
        self.beta = beta
        self.tol_deg = tol_deg
        self.max_rounds = max_rounds

    def encode_query(self, tokens):
        return F.normalize(self.proj(self.tok(tokens).mean(dim=0)), dim=0)

    def feedback_centroid(self, docs, scores):
        k = min(self.feedback_docs, docs.shape[0])
        top_scores, top_idx = scores.topk(k)
        kept = []
        for j in range(k):
            if top_scores[j] < self.min_score:
                break  # sorted: everything after is even less relevant
            doc = docs[top_idx[j]]
            if is_near_duplicate(doc, kept, self.dup_threshold):
                continue
            kept.append(doc)
        return kept

    def forward(self, query_tokens, doc_embs):
        # query_tokens: [L] token ids; doc_embs: [N, dim] precomputed document embeddings
        q = self.encode_query(query_tokens)
        docs = F.normalize(doc_embs, dim=1)
        scores = docs @ q
        moved_deg = torch.tensor(180.0)
        rounds = 0
        while moved_deg > self.tol_deg and rounds < self.max_rounds:
            kept = self.feedback_centroid(docs, scores)
            if len(kept) == 0:
                break  # nothing relevant enough to learn from
            centroid = torch.stack(kept).mean(dim=0)
            q_new = F.normalize(self.alpha * q + self.beta * centroid, dim=0)
            moved_deg = torch.rad2deg(torch.acos((q_new * q).sum().clamp(-1.0, 1.0)))
            q = q_new
            scores = docs @ q
            rounds += 1
        return scores, q


def model():
    torch.manual_seed(631)
    return PRFQueryExpander().eval()


def _case(n_tokens, n_docs, seed, relevant=0, dup_of=None, noise=0.45):
    """Documents: `relevant` of them are noisy copies of the query direction."""
    torch.manual_seed(631)
    m = PRFQueryExpander().eval()
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, 500, (n_tokens,), generator=g)
    with torch.no_grad():
        q = m.encode_query(tokens)
    docs = torch.randn(n_docs, 32, generator=g)
    for r in range(relevant):
        docs[r] = F.normalize(q + noise * F.normalize(torch.randn(32, generator=g), dim=0), dim=0) * 3.0
    if dup_of is not None:
        src, dst = dup_of
        docs[dst] = docs[src] + 0.02 * torch.randn(32, generator=g)
    return tokens, docs


def example_inputs():
    return _case(6, 20, 1, relevant=3)


def dynamic_shapes():
    return ({0: Dim("query_len", min=2, max=32)}, {0: Dim("docs", min=2, max=256)})


def verify_inputs():
    return [
        example_inputs(),                          # 3 relevant docs: 4th top doc below min_score -> inner break;
                                                   # stops by angle tolerance after 4 rounds
        _case(3, 30, 2, relevant=5),               # 5 relevant: all top-4 used (inner loop without break)
        _case(5, 25, 3, relevant=4, dup_of=(0, 7)),  # near-duplicate of a relevant doc -> continue
        _case(4, 15, 4),                           # nothing relevant: kept empty -> outer break in round 1
        _case(2, 3, 5, relevant=2),                # only 3 docs: k = 3 < feedback_docs; still moving after
                                                   # 4 rounds -> stops on max_rounds
    ]
