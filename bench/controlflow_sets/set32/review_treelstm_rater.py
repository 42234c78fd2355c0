"""Child-sum Tree-LSTM star-rating model for product reviews (dependency parse).

Kind X. Constructs: 1, 2, 4, 5, 7, 8, 9.
Input: token ids of a sentence and the dependency head of every token
(-1 for the root), as produced by the upstream parser.  The children lists
are built from the head array, the root is found by climbing heads from
the first token, and the tree is encoded recursively bottom-up with a
child-sum Tree-LSTM cell (leaves have no children to sum).  Very long
sentences (parser output unreliable) fall back to a bag-of-embeddings
encoder.  The sentence vector is either the root state or (the default)
a max-pool over the states of all nodes collected during the recursion.
Output: logits over 1..5 stars.
"""
import torch
import torch.nn as nn


class ChildSumTreeLSTMCell(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.hidden = hidden
        self.W_iou = nn.Linear(dim, 3 * hidden)
        self.U_iou = nn.Linear(hidden, 3 * hidden, bias=False)
        self.W_f = nn.Linear(dim, hidden)
        self.U_f = nn.Linear(hidden, hidden, bias=False)

    def forward(self, x, child_h, child_c):
        if child_h.shape[0] == 0:
            h_sum = x.new_zeros(self.hidden)
        else:
            h_sum = child_h.sum(0)
        i, o, u = (self.W_iou(x) + self.U_iou(h_sum)).chunk(3)
        i, o, u = torch.sigmoid(i), torch.sigmoid(o), torch.tanh(u)
        c = i * u
        if child_h.shape[0] > 0:
            f = torch.sigmoid(self.W_f(x)[None] + self.U_f(child_h))
            c = c + (f * child_c).sum(0)
        return o * torch.tanh(c), c


class TreeLSTMRater(nn.Module):
    def __init__(self, vocab=1000, dim=32, hidden=32, classes=5, max_tree_tokens=48, pool="max"):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cell = ChildSumTreeLSTMCell(dim, hidden)
        self.bag = nn.Linear(dim, hidden)
        self.out = nn.Linear(hidden, classes)
        self.max_tree_tokens = max_tree_tokens
        self.pool = pool
        self.hidden = hidden

    def encode(self, node, children, x, states):
        hs, cs = [], []
        for ch in children[node]:
            h, c = self.encode(ch, children, x, states)
            hs.append(h)
            cs.append(c)
        if hs:
            child_h, child_c = torch.stack(hs), torch.stack(cs)
        else:
            child_h = x.new_zeros(0, self.hidden)
            child_c = x.new_zeros(0, self.hidden)
        h, c = self.cell(x[node], child_h, child_c)
        states.append(h)
        return h, c

    def forward(self, tokens, heads):
        x = self.emb(tokens)
        if tokens.shape[0] > self.max_tree_tokens:
            return self.out(torch.tanh(self.bag(x.mean(0))))

        n = tokens.shape[0]
        children = [[] for _ in range(n)]
        for i in range(n):
            hd = int(heads[i])
            if hd >= 0:
                children[hd].append(i)

        root = 0
        while heads[root] >= 0:
            root = int(heads[root])

        states = []
        h, _ = self.encode(root, children, x, states)
        sent = h if self.pool == "root" else torch.stack(states).max(0).values
        return self.out(sent)


def model():
    torch.manual_seed(3220)
    return TreeLSTMRater().eval()


def _sent(tokens, heads):
    return torch.tensor(tokens, dtype=torch.long), torch.tensor(heads, dtype=torch.long)


def example_inputs():
    # "the charger was really good": root "good"(4); charger->good, the->charger, was->good, really->good
    return _sent([11, 52, 30, 95, 140], [1, 4, 4, 4, -1])


def dynamic_shapes():
    n = torch.export.Dim("tokens", min=2, max=128)
    return ({0: n}, {0: n})


def verify_inputs():
    g = torch.Generator().manual_seed(5)
    long_tokens = torch.randint(10, 1000, (60,), generator=g)
    long_heads = torch.cat([torch.tensor([-1]), torch.arange(59)])
    return [
        example_inputs(),                                         # root found after 2 climbs (0 -> 1 -> 4)
        _sent([140, 11, 52], [-1, 2, 0]),                          # root is token 0: climb loop runs 0 times
        _sent([52, 140, 7, 95], [1, -1, 1, 1]),                    # root after 1 climb; three leaf children
        _sent([33, 44, 55, 66, 77, 88, 99, 12], [1, 2, 3, 4, 5, 6, 7, -1]),  # chain: deep recursion, 7 climbs
        (long_tokens, long_heads),                                # 60 tokens > 48: bag-of-embeddings fallback
        _sent([200, 300], [-1, 0]),                                # two-token tree
    ]
