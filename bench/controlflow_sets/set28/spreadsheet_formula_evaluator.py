"""Spreadsheet engine: evaluate a compiled (postfix) cell formula over cell values, with #DIV/0 handling."""
import torch
import torch.nn as nn

PUSH, ADD, SUB, MUL, DIV, MAX, NEG, END, SUM = 0, 1, 2, 3, 4, 5, 6, 7, 8


def apply_binary(op, a, b, eps):
    if op == ADD:
        return a + b
    elif op == SUB:
        return a - b
    elif op == MUL:
        return a * b
    elif op == DIV:
        if b.abs() < eps:
            return torch.full_like(a, float("nan"))     # #DIV/0!
        return a / b
    return a if a > b else b                            # MAX


class FormulaEvaluator(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-2     # below display precision counts as zero

    def forward(self, opcodes, operands):
        # opcodes [N, 2] int64 (opcode, argument count for SUM), operands [N] float (cell value for PUSH)
        stack = []
        for i in range(opcodes.shape[0]):
            op = int(opcodes[i, 0].item())
            if op == END:
                break
            if op == PUSH:
                stack.append(operands[i])
            elif op == NEG:
                stack.append(-stack.pop())
            elif op == SUM:
                # SUM(A1:An) compiled as n pushes followed by SUM n
                acc = stack.pop()
                for _ in range(int(opcodes[i, 1].item()) - 1):
                    acc = acc + stack.pop()
                stack.append(acc)
            else:
                b = stack.pop()
                a = stack.pop()
                r = apply_binary(op, a, b, self.eps)
                if torch.isnan(r):
                    # error propagates: the cell shows #DIV/0 (encoded as 0 with an error flag)
                    return torch.zeros(()), torch.ones((), dtype=torch.bool)
                stack.append(r)
        return stack[-1], torch.zeros((), dtype=torch.bool)


def model():
    return FormulaEvaluator().eval()


def _case(program):
    # program: (PUSH, value) | (SUM, n_args) | (OP,)
    ops = [[p[0], int(p[1]) if p[0] == SUM else 0] for p in program]
    vals = [float(p[1]) if p[0] == PUSH else 0.0 for p in program]
    return torch.tensor(ops, dtype=torch.int64), torch.tensor(vals)


def example_inputs():
    # (A1 + A2) * A3
    return _case([(PUSH, 2.0), (PUSH, 3.0), (ADD,), (PUSH, 1.5), (MUL,)])


def dynamic_shapes():
    n = torch.export.Dim("tokens", min=2, max=128)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        # MAX(A1 - A2, -A3) / A4, then END with padding
        _case([(PUSH, 4.0), (PUSH, 1.5), (SUB,), (PUSH, 2.0), (NEG,), (MAX,), (PUSH, 0.5), (DIV,), (END,), (PUSH, 9.0)]),
        # MAX(A1, A2) where the second wins
        _case([(PUSH, -1.0), (PUSH, 2.5), (MAX,), (PUSH, 3.0), (ADD,)]),
        # A1 / (A2 - A3) with A2 == A3 -> #DIV/0
        _case([(PUSH, 1.0), (PUSH, 2.0), (PUSH, 2.0), (SUB,), (DIV,), (PUSH, 1.0), (ADD,)]),
        # (A1 * A2) - A3 / A4
        _case([(PUSH, 1.2), (PUSH, 0.8), (MUL,), (PUSH, 3.0), (PUSH, 4.0), (DIV,), (SUB,)]),
        # SUM(A1:A4) * SUM(B1:B1)
        _case([(PUSH, 1.5), (PUSH, -0.5), (PUSH, 2.0), (PUSH, 4.0), (SUM, 4), (PUSH, 0.25), (SUM, 1), (MUL,)]),
    ]
