"""Postal-address field tagger for a checkout form.

Token ids of a free-text address go through an embedding + BiGRU tagger whose
logits are combined with a gazetteer prior (known street words, city names,
country names). Locale rules then fix up the ambiguous numeric tokens: a
leading number is the house number, numbers right after the city (or after a
postcode token) belong to the postcode. Over-long pasted text keeps its tail.

Vocabulary layout: 0 pad, 1 comma, 2-99 street words, 100-199 city names,
200-299 numeric tokens, 300-319 country names, 320-399 unit words (apt, suite).

Constructs: 1, 2, 3, 5, 8, 9
"""
import torch
import torch.nn as nn
from torch.export import Dim

HOUSE, STREET, CITY, POSTCODE, COUNTRY, OTHER = range(6)


class AddressTagger(nn.Module):
    def __init__(self, vocab=400, max_len=24, use_country_prior=True):
        super().__init__()
        self.emb = nn.Embedding(vocab, 16)
        self.gru = nn.GRU(16, 24, batch_first=True, bidirectional=True)
        self.head = nn.Linear(48, 6)
        self.max_len = max_len
        self.use_country_prior = use_country_prior
        gaz = torch.zeros(vocab, 6)
        gaz[1, OTHER] = 3.0
        gaz[2:100, STREET] = 3.0
        gaz[100:200, CITY] = 3.0
        gaz[200:300, OTHER] = 1.5   # bare numbers: unknown until a rule claims them
        gaz[320:400, OTHER] = 3.0
        self.register_buffer("gazetteer", gaz)

    def forward(self, ids):
        if ids.shape[0] > self.max_len:
            # a whole pasted paragraph: city / postcode / country live at the end
            ids = ids[-self.max_len:]
        h, _ = self.gru(self.emb(ids).unsqueeze(0))
        logits = self.head(h[0]) + self.gazetteer[ids]
        is_num = (ids >= 200) & (ids < 300)

        if is_num[0] and not is_num[1]:
            logits[0, HOUSE] += 4.0  # "221 Baker Street ..."
        if self.use_country_prior:  # static
            if ids[-1] >= 300 and ids[-1] < 320:
                logits[-1, COUNTRY] += 4.0

        labels = []
        prev = torch.tensor(-1)
        for i in range(ids.shape[0]):
            lab = logits[i].argmax()
            if is_num[i] and (prev == CITY or prev == POSTCODE):
                lab = torch.tensor(POSTCODE)
            labels.append(lab)
            prev = lab
        return logits, torch.stack(labels)


def model():
    torch.manual_seed(67)
    return AddressTagger().eval()


def _ids(tokens):
    return (torch.tensor(tokens, dtype=torch.long),)


def example_inputs():
    # "221 baker street , london 12 34 , uk"
    return _ids([205, 10, 11, 1, 120, 230, 231, 1, 305])


def dynamic_shapes():
    return ({0: Dim("tokens", min=3, max=40)},)


def verify_inputs():
    return [
        example_inputs(),  # house-number rule fires, country prior fires, postcode after city and after postcode
        # 30 tokens > max_len: truncated; tail starts with two numbers (no house rule), ends with a unit word (not a country)
        _ids([320, 201, 1, 5, 6, 7, 1, 101, 102, 1, 330, 331, 5, 8, 1, 240, 241, 12, 13, 1, 150, 260, 261, 1, 14, 15, 1, 160, 270, 350]),
        # starts with a unit word (not a number), number after a street word (no postcode rule), ends with a number
        _ids([322, 207, 1, 40, 41, 290, 1, 150, 260]),
    ]
