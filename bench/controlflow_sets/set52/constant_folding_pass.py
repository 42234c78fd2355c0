"""Compiler middle-end: constant folding over a straight-line SSA expression
list (CONST / PARAM / ADD / SUB / MUL / DIV with operand indices), with the
x*0 identity, no folding of division by zero, and a learned cost model that
estimates the runtime of whatever is left unfolded."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

CONST, PARAM, ADD, SUB, MUL, DIV = range(6)


def apply_op(op, a, b):
    if op == ADD:
        return a + b
    elif op == SUB:
        return a - b
    elif op == MUL:
        return a * b
    if b == 0:
        return None  # keep the runtime trap
    return a / b


def is_zero(known, values, i):
    return known[i] and bool(values[i] == 0)


class ConstantFolder(nn.Module):
    def __init__(self):
        super().__init__()
        self.cost = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
        self.fold_mul_by_zero = True

    def forward(self, opcode, operands, imm):
        # opcode: [N] int64; operands: [N, 2] int64 indices of earlier nodes; imm: [N] constants
        values, known = [], []
        for i in range(opcode.shape[0]):
            op = int(opcode[i].item())
            if op == CONST:
                values.append(imm[i])
                known.append(True)
                continue
            if op == PARAM:
                values.append(torch.zeros(()))
                known.append(False)
                continue
            a, b = int(operands[i, 0]), int(operands[i, 1])
            if not (known[a] and known[b]):
                if self.fold_mul_by_zero and op == MUL and (is_zero(known, values, a) or is_zero(known, values, b)):
                    values.append(torch.zeros(()))
                    known.append(True)
                else:
                    values.append(torch.zeros(()))
                    known.append(False)
                continue
            folded = apply_op(op, values[a], values[b])
            if folded is None:
                values.append(torch.zeros(()))
                known.append(False)
            else:
                values.append(folded)
                known.append(True)
        folded_mask = torch.tensor(known)
        leftover = F.one_hot(opcode, 6).float() * (~folded_mask).float()[:, None]
        est_cycles = F.softplus(self.cost(leftover.sum(0))).squeeze(0)
        return torch.stack(values), folded_mask.to(torch.int64), est_cycles


def model():
    torch.manual_seed(5211)
    return ConstantFolder().eval()


def _program(n, seed, p_param):
    g = torch.Generator().manual_seed(seed)
    ops, lhs, rhs, imm = [], [], [], []
    for i in range(n):
        if i < 2 or torch.rand((), generator=g) < 0.3:
            op = PARAM if torch.rand((), generator=g) < p_param else CONST
        else:
            op = int(torch.randint(ADD, DIV + 1, (), generator=g))
        ops.append(op)
        lo = max(0, i - 4)
        lhs.append(int(torch.randint(lo, max(i, 1), (), generator=g)) if i > 0 else 0)
        rhs.append(int(torch.randint(lo, max(i, 1), (), generator=g)) if i > 0 else 0)
        imm.append(float(torch.randint(-3, 4, (), generator=g)) if op == CONST else 0.0)
    return torch.tensor(ops), torch.stack([torch.tensor(lhs), torch.tensor(rhs)], 1), torch.tensor(imm)


def example_inputs():
    ops = torch.tensor([CONST, CONST, PARAM, ADD, MUL, CONST, MUL, DIV, DIV, SUB])
    operands = torch.tensor([[0, 0], [0, 0], [0, 0], [0, 1], [2, 3], [0, 0], [2, 5], [3, 5], [3, 1], [8, 4]])
    imm = torch.tensor([2.0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    # n3 = 7 folds; n4 = p*7 unknown; n6 = p*0 -> 0; n7 = 7/0 stays; n8 = 7/5 folds; n9 = n8 - n4 unknown
    return ops, operands, imm


def dynamic_shapes():
    nodes = Dim("nodes", min=2, max=128)
    return {0: nodes}, {0: nodes}, {0: nodes}


def verify_inputs():
    return [
        example_inputs(),                                  # every op kind, x*0 identity, div-by-zero kept, unknown operands
        (torch.tensor([CONST, CONST]), torch.zeros(2, 2, dtype=torch.int64), torch.tensor([1.0, 2.0])),  # min nodes, all constants
        _program(128, 3, 0.2),                             # max nodes, random mix of folding / unknown
        _program(40, 4, 0.0),                              # all leaves constant -> folds except div by zero
        (torch.tensor([PARAM, CONST, MUL, SUB]), torch.tensor([[0, 0], [0, 0], [1, 0], [2, 1]]), torch.tensor([0.0, 0.0, 0.0, 4.0])),  # 0*p folded via lhs zero
    ]
