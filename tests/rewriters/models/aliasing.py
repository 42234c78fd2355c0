"""Models whose graph ops would see aliased or lifted inputs, computed tensor indices, recurrent
modules over a dynamic length, and carried values that grow under a Python-bounded loop."""

import torch
import torch.nn.functional as F
from torch import nn

from tests.rewriters.models.case import Case, seeded


class Propagate(nn.Module):
    """`h = h0` then a tensor while loop that reads h0 (a loop variable aliasing a closure)."""

    def forward(self, x, adj):
        h0 = torch.tanh(x)
        h = h0
        delta = torch.tensor(float("inf"))
        rounds = torch.tensor(0)
        while (delta > 1e-4) & (rounds < 30):
            h_new = 0.5 * h0 + 0.5 * (adj @ h)
            delta = (h_new - h).abs().max()
            h = h_new
            rounds += 1
        return h, rounds


class PowerIteration(nn.Module):
    """A helper reading `w.T` of a closed-over view, `v = u` before the loop."""

    def step(self, w, u):
        v = F.normalize(w.T @ u, dim=0)
        return F.normalize(w @ v, dim=0), v

    def forward(self, x):
        w = x.view(4, 4)
        u = F.normalize(torch.ones(4), dim=0)
        v = u
        done = torch.tensor(False)
        it = 0
        while not done and it < 20:
            u_new, v = self.step(w, u)
            done = (u_new - u).norm() < 1e-5
            u = u_new
            it += 1
        return u @ w @ v


class PickByTensor(nn.Module):
    """`q[option]` with a 0-d tensor index inside and around a tensor `if`."""

    def __init__(self):
        super().__init__()
        self.q = nn.Linear(6, 4)
        self.heads = nn.ModuleList(nn.Linear(6, 3) for _ in range(4))

    def forward(self, x, option):
        q = self.q(x)
        if q[option] > q.mean():
            chosen = option
        else:
            chosen = q.argmax()
        logits = torch.stack([head(x) for head in self.heads])
        return logits[chosen], q[chosen]


class Suppress(nn.Module):
    """`active[i] = False` inside a tensor while loop (greedy suppression)."""

    def forward(self, scores, sim):
        active = scores > 0.2
        keep = torch.zeros_like(scores)
        while active.any():
            i = torch.where(active, scores, torch.full_like(scores, -1.0)).argmax()
            keep = keep + (torch.arange(scores.shape[0]) == i).float()
            active = active & (sim[i] < 0.5)
            active[i] = False
        return keep


class Encoder(nn.Module):
    """nn.GRU and a bidirectional 2-layer nn.LSTM over a dynamic length, with a tensor `if`."""

    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 5, batch_first=True)
        self.lstm = nn.LSTM(5, 4, num_layers=2, bidirectional=True, batch_first=True)

    def forward(self, x):
        h, last = self.gru(x)
        if last.abs().mean() > 0.3:
            h = h * 2
        out, (h_n, c_n) = self.lstm(h)
        return out[:, -1], h_n, c_n


class ShortOrScored(nn.Module):
    """A size branch returns short inputs as they are; longer ones are scored by a bidirectional
    batch_first nn.GRU over a view (`x[None]`), then a tensor `if`."""

    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 4, batch_first=True, bidirectional=True)

    def forward(self, x):
        if x.shape[0] <= 3:
            return x[:, :1]
        h, _ = self.gru(x[None])
        score = h[0].sum(-1, keepdim=True)
        if score.mean() > 0:
            score = score * 2
        return score


class Grow(nn.Module):
    """A loop-carried tensor that grows each step under a Python bound with a tensor break."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(4, 4)

    def forward(self, h):
        history = h.new_zeros(h.shape[0], 0)
        for _ in range(6):
            h = self.cell(torch.tanh(h), h)
            history = torch.cat([history, h.sum(-1, keepdim=True)], dim=1)
            if (h.sum(-1) > 1.0).all():
                break
        return history, h


class GreedyGrow(nn.Module):
    """Greedy decoding: `seq = torch.cat([seq, tok], 1)` in `range(int(n.item()))` with an EOS
    break, from a prompt of dynamic length."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(9, 6)
        self.cell = nn.GRUCell(6, 6)
        self.out = nn.Linear(6, 9)

    def forward(self, prompt, max_new):
        h = self.emb(prompt).mean(dim=1)
        seq = prompt
        tok = prompt[:, -1]
        for _ in range(int(max_new.item())):
            h = self.cell(self.emb(tok), h)
            tok = self.out(h).argmax(dim=-1)
            seq = torch.cat([seq, tok.unsqueeze(1)], dim=1)
            if (tok == 0).all():
                break
        return seq


class Trim(nn.Module):
    """Two tensor `while` loops after an early `return` (they run inside the cond's branch):
    voice-activity trimming of leading and trailing quiet frames."""

    def forward(self, energy):
        n = energy.shape[0]
        start = torch.tensor(0)
        end = torch.tensor(n)
        if not (energy > 0).any():
            return torch.zeros(n)
        while start < end - 1 and energy[start] < 0:
            start = start + 1
        while end - 1 > start and energy[end - 1] < 0:
            end = end - 1
        idx = torch.arange(n)
        return ((idx >= start) & (idx < end)).float()


def _adj(n):
    a = torch.rand(n, n, generator=torch.Generator().manual_seed(n))
    return a / a.sum(dim=1, keepdim=True)


N = torch.export.Dim("n", min=2, max=32)


class RowBudget(nn.Module):
    """A tensor ``while`` inside a ``for`` body reading ``req = x[i]`` and ``need = req[0]``: two
    closed-over tensors of one storage lifted into the nested loop's body."""

    def forward(self, x):
        total = torch.zeros(())
        for i in range(x.shape[0]):
            req = x[i]
            need = req[0]
            free = req.sum() * 0.0
            while free < need * 4 and (req > free).any():
                free = free + req.abs().sum() * 0.1 + 0.5
            total = total + free
        return total


CASES = [
    Case(
        "loop_variable_aliasing_a_closure",
        seeded(Propagate),
        (torch.randn(5, 3), _adj(5)),
        [(torch.randn(n, 3), _adj(n)) for n in (2, 9)],
        ({0: N}, {0: N, 1: N}),
        constructs=("while->while_loop",),
    ),
    Case(
        "transpose_of_a_closed_over_view",
        seeded(PowerIteration),
        (torch.randn(16),),
        [(torch.randn(16) * 3,), (torch.eye(4).reshape(16),)],
        constructs=("while->while_loop",),
    ),
    Case(
        "tensor_index_in_and_around_if",
        seeded(PickByTensor),
        (torch.randn(6), torch.tensor(1)),
        [(torch.randn(6), torch.tensor(i)) for i in range(4)] + [(torch.randn(6) * 5, torch.tensor(2))],
        constructs=("if->cond",),
    ),
    Case(
        "store_into_a_loop_variable",
        seeded(Suppress),
        (torch.rand(6), torch.rand(6, 6)),
        [(torch.rand(n), torch.rand(n, n)) for n in (2, 9)] + [(torch.zeros(4), torch.rand(4, 4))],
        ({0: N}, {0: N, 1: N}),
        constructs=("while->while_loop",),
    ),
    Case(
        "recurrent_modules_over_dynamic_length",
        seeded(Encoder),
        (torch.randn(2, 7, 3),),
        [(torch.randn(2, t, 3) * s,) for t, s in ((1, 1.0), (4, 0.01), (20, 3.0))],
        ({1: torch.export.Dim("t", min=1, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "recurrent_module_over_a_view_after_a_size_branch",
        seeded(ShortOrScored),
        (torch.randn(7, 3),),
        [(torch.randn(t, 3) * s,) for t, s in ((2, 1.0), (5, 1.0), (5, -1.0), (30, 2.0))],
        ({0: torch.export.Dim("t", min=2, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "carried_tensor_grows_until_break",
        seeded(Grow),
        (torch.randn(2, 4),),
        [(torch.randn(2, 4) * 0.1,), (torch.ones(2, 4) * 3,), (torch.randn(3, 4) * 2,)],
        ({0: torch.export.Dim("b", min=1, max=8)},),
        constructs=("for->unrolled",),
    ),
    Case(
        "carried_tensor_grows_under_item_bound",
        seeded(GreedyGrow),
        (torch.tensor([[3, 5, 1]]), torch.tensor(5)),
        [(torch.tensor([[2]]), torch.tensor(0)), (torch.tensor([[4, 4, 8, 1, 7]]), torch.tensor(9))]
        + [(torch.tensor([[t]]), torch.tensor(6)) for t in range(9)],
        ({1: torch.export.Dim("prompt", min=1, max=16)}, None),
        constructs=("for->while_loop",),
    ),
    Case(
        "two_loops_after_an_early_return",
        seeded(Trim),
        (torch.tensor([-1.0, -2.0, 3.0, 1.0, -1.0, -1.0]),),
        [
            (-torch.ones(4),),
            (torch.ones(5),),
            (torch.tensor([-1.0, 2.0]),),
            (torch.tensor([-3.0, -1.0, 0.5, -2.0, 4.0, -1.0, -1.0, -1.0]),),
        ],
        ({0: torch.export.Dim("frames", min=2, max=64)},),
        constructs=("while->while_loop",),
    ),
    Case(
        "nested_while_reading_two_views_of_one_row",
        seeded(RowBudget),
        (torch.tensor([[2.0, 1.0, 3.0], [0.1, 0.2, 0.3]]),),
        [(torch.tensor([[-2.0, 1.0, 3.0], [0.1, 0.2, 0.3], [1.0, 1.0, 1.0]]),), (torch.rand(9, 3) * 4.0,)],
        ({0: torch.export.Dim("rows", min=2, max=16)},),
        constructs=("for->while_loop", "while->while_loop"),
    ),
]
