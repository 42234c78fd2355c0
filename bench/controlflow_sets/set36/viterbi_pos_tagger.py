"""NLP: part-of-speech tagging with a neural-emission HMM decoded by Viterbi, with hard constraints for
punctuation tokens, skipped padding, and backtracking through Python lists of back-pointers.

Kind X. Constructs: 1, 2, 5, 6, 7, 9.
"""
import torch
import torch.nn as nn

N_TAGS = 6  # NOUN VERB ADJ ADV DET PUNCT
PUNCT = 5


class NeuralHMMTagger(nn.Module):
    def __init__(self, vocab=50, dim=16, pad_id=0, n_punct_ids=4, use_context=True):
        super().__init__()
        self.pad_id = pad_id
        self.n_punct_ids = n_punct_ids  # ids 1..n_punct_ids are punctuation marks
        self.use_context = use_context
        self.embed = nn.Embedding(vocab, dim)
        self.context = nn.ModuleList([nn.Conv1d(dim, dim, 3, padding=d, dilation=d) for d in (1, 2)])
        self.emit = nn.Linear(dim, N_TAGS)
        self.trans = nn.Parameter(torch.randn(N_TAGS, N_TAGS))
        self.start = nn.Parameter(torch.randn(N_TAGS))

    def _emissions(self, tokens):
        h = self.embed(tokens)
        if self.use_context:  # static
            for conv in self.context:
                h = h + torch.tanh(conv(h.t()[None])[0].t())
        return torch.log_softmax(3.0 * self.emit(h), dim=-1)

    def _constrain(self, scores, token):
        # punctuation ids can only be tagged PUNCT; words can never be PUNCT
        mask = torch.full_like(scores, -1e4)
        if token <= self.n_punct_ids:
            mask[PUNCT] = 0.0
        else:
            mask = torch.zeros_like(scores)
            mask[PUNCT] = -1e4
        return scores + mask

    def forward(self, tokens):
        em = self._emissions(tokens)
        score = self._constrain(self.start + em[0], tokens[0])
        back = []
        for t in range(1, tokens.shape[0]):
            if tokens[t] == self.pad_id:
                back.append(None)  # padding: carry the lattice through unchanged
                continue
            cand = score[:, None] + self.trans  # [from, to]
            best, arg = cand.max(0)
            score = self._constrain(best + em[t], tokens[t])
            back.append(arg)

        tag = score.argmax()
        path = [tag]
        t = len(back) - 1
        while t >= 0:
            if back[t] is not None:
                tag = back[t][tag]
            path.append(tag)
            t -= 1
        path.reverse()
        return torch.stack(path), score.max()


def model():
    torch.manual_seed(36016)
    return NeuralHMMTagger().eval()


def _sent(*ids):
    return (torch.tensor(ids, dtype=torch.long),)


def example_inputs():
    # "the cat sat on the mat ." with a word-final punctuation id
    return _sent(12, 30, 41, 22, 12, 37, 2)


def dynamic_shapes():
    length = torch.export.Dim("length", min=2, max=128)
    return ({0: length},)


def verify_inputs():
    return [
        example_inputs(),                               # words then punctuation
        _sent(3, 17, 25, 0, 0, 44, 1),                  # starts with punctuation, padding in the middle
        _sent(9, 13),                                   # two words, no punctuation or padding
        _sent(45, 8, 33, 19, 27, 11, 48, 6, 15, 29),    # longer sentence, words only
    ]
