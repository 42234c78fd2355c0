"""Hierarchical encoder for customer-support tickets.

The token stream is split into sentences on punctuation ids (or when a run-on
sentence gets too long), padding is skipped, each sentence is attention-pooled
into a vector, a transformer layer lets sentences see each other, and the
pooled document vector is classified into a routing queue.  Only the first
`max_sentences` sentences are read.
"""
import torch
import torch.nn as nn

PAD, PERIOD, QUESTION, EXCLAIM = 0, 1, 2, 3


class AttentionPool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, x):
        # x: [n, dim] -> [dim]
        if x.shape[0] == 1:
            return x[0]
        w = torch.softmax(self.score(x).squeeze(-1), dim=0)
        return (w[:, None] * x).sum(0)


class TicketEncoder(nn.Module):
    def __init__(self, vocab=200, dim=32, n_queues=5, max_sentence_len=12, max_sentences=8,
                 use_context=True):
        super().__init__()
        self.dim = dim
        self.max_sentence_len = max_sentence_len
        self.max_sentences = max_sentences
        self.use_context = use_context
        self.embed = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.word_pool = AttentionPool(dim)
        self.sent_pool = AttentionPool(dim)
        self.context = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, dropout=0.0,
                                                  batch_first=True)
        self.classifier = nn.Linear(dim, n_queues)

    def forward(self, token_ids):
        # token_ids: [L] int64
        emb = self.embed(token_ids)
        sentences = []
        current = []
        for i in range(token_ids.shape[0]):
            tok = token_ids[i]
            if tok == PAD:
                continue
            current.append(emb[i])
            if tok == PERIOD or tok == QUESTION or tok == EXCLAIM or len(current) >= self.max_sentence_len:
                sentences.append(self.word_pool(torch.stack(current)))
                current = []
                if len(sentences) == self.max_sentences:
                    break
        if current:
            # trailing text without final punctuation
            sentences.append(self.word_pool(torch.stack(current)))
        if not sentences:
            # empty ticket (only padding)
            return torch.zeros(self.classifier.out_features), torch.zeros(0, self.dim)
        sent = torch.stack(sentences)
        if self.use_context:  # static
            sent = self.context(sent.unsqueeze(0)).squeeze(0)
        doc = self.sent_pool(sent)
        return self.classifier(doc), sent


def model():
    torch.manual_seed(41)
    return TicketEncoder().eval()


def _make_ticket(*parts):
    return (torch.tensor([t for p in parts for t in p], dtype=torch.long),)


def example_inputs():
    return _make_ticket(
        [17, 45, 88, 102, 9, PERIOD],              # "my card was declined ."
        [33, 61, 120, 77, 14, 5, 190, QUESTION],   # "why is the payment still pending ?"
        [150, 42, 11, 99, 88],                     # trailing text, no punctuation
        [PAD, PAD, PAD])


def dynamic_shapes():
    return ({0: torch.export.Dim("tokens", min=2, max=512)},)


def verify_inputs():
    return [
        # two punctuated sentences + trailing text, padding skipped at the end
        example_inputs(),
        # only padding: empty-ticket early return
        _make_ticket([PAD, PAD, PAD, PAD]),
        # one-token sentences ("!" after "?"), single-vector pooling; exclamation closes
        _make_ticket([21, 22, QUESTION], [EXCLAIM]),
        # a single sentence made of one token: both pools see one vector
        _make_ticket([EXCLAIM, PAD]),
        # run-on text of 30 tokens: split by max_sentence_len (12) twice + trailing 6
        _make_ticket(list(range(10, 40))),
        # eleven short sentences: stops after max_sentences (8) -> break
        _make_ticket(*[[50 + i, 60 + i, PERIOD] for i in range(11)]),
        # padding in the middle of the ticket
        _make_ticket([70, PAD, 71, PAD, PERIOD, 72, 73]),
    ]
