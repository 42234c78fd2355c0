"""Keyphrase extraction for scientific abstracts: candidate phrases are maximal runs of
adjectives/nouns (from a POS lexicon) that end in a noun, capped in length; duplicates are
dropped, each candidate is scored by a small contextual encoder (conv over token
embeddings) plus a position prior, and the document gets an embedding pooled over its
keyphrases.

Kind X. Constructs: 1 (if on tensor tag comparisons, torch.equal), 2 (early return when the
text has no candidate), 3 (and / or on tensor tag predicates), 4 (inner while loops on
tensor tag conditions: extend a run, trim trailing adjectives), 5 (for over the candidate
list, Python lists of tensors -> stack), 6 (continue on non-candidate tokens and duplicate
phrases, break when enough phrases were found), 7 (candidate and scoring helpers).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

STOP, ADJ, NOUN, OTHER = 0, 1, 2, 3
LEXICON = {
    STOP: "the a an of in for and to with on is are by from this that".split(),
    ADJ: "deep neural convolutional sparse fast robust efficient novel large small graph "
         "temporal spatial semantic adversarial".split(),
    NOUN: "network networks model models image images segmentation detection attention "
          "transformer accuracy dataset datasets learning representation representations "
          "graph_nodes video retrieval benchmark method training inference memory".split(),
    OTHER: "we propose show uses improves achieves reduces . , ; outperforms introduce".split(),
}
VOCAB = [w for tag in (STOP, ADJ, NOUN, OTHER) for w in LEXICON[tag]]
TAG_OF = [tag for tag in (STOP, ADJ, NOUN, OTHER) for _ in LEXICON[tag]]


class KeyphraseExtractor(nn.Module):
    def __init__(self, dim=24, max_len=4, max_phrases=6):
        super().__init__()
        self.max_len = max_len
        self.max_phrases = max_phrases
        self.register_buffer("pos_table", torch.tensor(TAG_OF))
        self.emb = nn.Embedding(len(VOCAB), dim)
        self.ctx = nn.Conv1d(dim, dim, 3, padding=1)
        self.score = nn.Linear(dim, 1)

    def candidates(self, tags):
        n = tags.shape[0]
        spans = []
        i = 0
        while i < n:
            if tags[i] != ADJ and tags[i] != NOUN:
                i += 1
                continue
            j = i
            while j < n and (tags[j] == ADJ or tags[j] == NOUN) and j - i < self.max_len:
                j += 1
            k = j
            while k > i and tags[k - 1] != NOUN:
                k -= 1                              # a phrase must end in a noun
            if k > i:
                spans.append((i, k))
            i = j
        return spans

    def phrase_score(self, h, start, end, n):
        pooled = h[start:end].mean(0)
        position_prior = 1.0 - 0.5 * start / n      # keyphrases tend to appear early
        return self.score(pooled)[0] + position_prior + 0.1 * (end - start), pooled

    def forward(self, ids):
        # ids: (L,) int64 token ids into VOCAB
        n = ids.shape[0]
        tags = self.pos_table[ids]
        h = torch.tanh(self.ctx(self.emb(ids).T[None])[0].T)
        spans = self.candidates(tags)
        if len(spans) == 0:
            return torch.zeros(1, 2, dtype=torch.long), torch.zeros(1), torch.zeros(h.shape[1])
        kept, scores, vecs, seen = [], [], [], []
        for s, e in spans:
            if any(e - s == e2 - s2 and torch.equal(ids[s:e], ids[s2:e2]) for s2, e2 in seen):
                continue                            # same phrase already listed
            seen.append((s, e))
            sc, vec = self.phrase_score(h, s, e, n)
            kept.append(torch.tensor([s, e]))
            scores.append(sc)
            vecs.append(vec)
            if len(kept) >= self.max_phrases:
                break
        scores = torch.stack(scores)
        doc = (F.softmax(scores, 0)[:, None] * torch.stack(vecs)).sum(0)
        return torch.stack(kept), scores, doc


def model():
    torch.manual_seed(3917)
    return KeyphraseExtractor().eval()


def _make_text(text):
    return (torch.tensor([VOCAB.index(w) for w in text.split()], dtype=torch.long),)


def example_inputs():
    # an abstract sentence pair: a 4-token phrase (max_len), six phrases found -> break
    return _make_text("we propose a novel sparse attention transformer for video retrieval and show "
                      "that sparse attention reduces memory by a large . the model achieves robust "
                      "accuracy on the benchmark")


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=2, max=128)},)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # no adjective/noun at all: early return
    none = _make_text("we propose ; this is by the")
    # long adjective chain (longer than max_len, split; the first 4-token piece has no noun),
    # runs that are only adjectives (no phrase), text ending inside a run
    chain = _make_text("deep robust efficient convolutional neural network improves small fast . "
                       "we introduce large semantic graph")
    # many distinct phrases -> stops after max_phrases (break), repeated phrase skipped
    many = _make_text("image segmentation , detection , graph_nodes representation , video retrieval , "
                      "image segmentation , temporal attention , spatial attention , dataset training , "
                      "inference memory , large benchmark")
    # two tokens, one noun
    two = _make_text("the model")
    return [ex, none, chain, many, two]
