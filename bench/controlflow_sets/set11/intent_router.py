"""Chat intent router with fallbacks (customer-support bot front end).

Token ids of the user message (any length) are embedded and mean-pooled; an MLP gives intent
probabilities. Keyword rules win first (a "cancel"/"agent" token routes directly), very short
messages go to the small-talk route, confident predictions are routed, medium ones ask a
clarifying question, and the rest go to the fallback (human) queue.
Typical: branch on a dynamic size with early return, .any() keyword rules, if/elif/else on a
probability, or, static config flag, loop over a static list of rules.
Routes: 0..5 intents, 6 clarify, 7 fallback, 8 small-talk.
"""
import torch
from torch import nn

VOCAB = 500
NUM_INTENTS = 6
CLARIFY, FALLBACK, SMALL_TALK = 6, 7, 8
KEYWORD_RULES = [(17, 2), (42, 5)]   # (token id, intent): "cancel" -> 2, "agent" -> 5


class IntentRouter(nn.Module):
    def __init__(self, use_keyword_rules: bool = True):
        super().__init__()
        self.use_keyword_rules = use_keyword_rules
        self.emb = nn.Embedding(VOCAB, 32)
        self.mlp = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, NUM_INTENTS))
        self.temperature = 0.1
        self.route_thr = 0.7
        self.clarify_thr = 0.4

    def forward(self, tokens):
        # tokens: (1, L) int64
        if tokens.shape[1] < 3:
            return torch.tensor(SMALL_TALK), torch.zeros(NUM_INTENTS)
        if self.use_keyword_rules:  # static
            for tok, intent in KEYWORD_RULES:
                if (tokens == tok).any():
                    return torch.tensor(intent), torch.zeros(NUM_INTENTS)
        pooled = self.emb(tokens).mean(dim=1)
        probs = torch.softmax(self.mlp(pooled)[0] / self.temperature, dim=0)
        conf, best = probs.max(dim=0)
        if conf > self.route_thr:
            route = best
        elif conf > self.clarify_thr or (probs > 0.3).sum() >= 2:
            route = torch.tensor(CLARIFY)
        else:
            route = torch.tensor(FALLBACK)
        return route, probs


def model():
    torch.manual_seed(19)
    return IntentRouter().eval()


def example_inputs():
    return (torch.tensor([[244, 233, 76, 169, 391, 304, 274]]),)   # confident -> routed


def dynamic_shapes():
    return ({1: torch.export.Dim("len", min=2, max=128)},)


def verify_inputs():
    return [
        (torch.tensor([[3, 9]]),),                   # "hi there" -> small talk
        (torch.tensor([[12, 17, 99, 4]]),),          # contains "cancel"
        (torch.tensor([[12, 42, 99, 4, 8]]),),       # contains "agent"
        (torch.tensor([[110, 363, 479, 327]]),),     # medium confidence -> clarify
        (torch.tensor([[307, 333, 345, 82, 471, 90]]),),  # two close intents -> clarify
        (torch.tensor([[94, 239, 133]]),),           # nothing fits -> fallback
    ]
