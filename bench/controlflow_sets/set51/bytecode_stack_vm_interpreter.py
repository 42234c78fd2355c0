"""Tiny stack-machine interpreter used by a JIT's profiling tier.

Programs are (opcode, immediate) pairs.  The interpreter keeps a Python list
as the operand stack, follows jumps, and accumulates a learned per-opcode
cost (used to decide what to compile).  Stops on HALT, on running off the
end, or after a fuel limit.
"""
import torch
import torch.nn as nn

PUSH, ADD, MUL, SUB, DUP, JNZ, HALT, SWAP, NOP = range(9)


class StackVM(nn.Module):
    def __init__(self, fuel=200, trace_costs=True):
        super().__init__()
        self.fuel = fuel
        self.trace_costs = trace_costs
        self.op_cost = nn.Embedding(9, 1)

    def binary(self, op, a, b):
        if op == ADD:
            return a + b
        elif op == MUL:
            return a * b
        return a - b

    def step_cost(self, op):
        return torch.nn.functional.softplus(self.op_cost(op)).squeeze()

    def forward(self, opcodes, immediates):
        stack = []
        pc = 0
        steps = 0
        cost = torch.zeros(())
        n = opcodes.shape[0]
        while pc < n and steps < self.fuel:
            op = int(opcodes[pc].item())
            if self.trace_costs:
                cost = cost + self.step_cost(opcodes[pc])
            steps += 1
            if op == HALT:
                break
            if op == PUSH:
                stack.append(immediates[pc])
            elif op in (ADD, MUL, SUB):
                b = stack.pop()
                a = stack.pop()
                stack.append(self.binary(op, a, b))
            elif op == DUP:
                stack.append(stack[-1])
            elif op == SWAP:
                stack[-1], stack[-2] = stack[-2], stack[-1]
            elif op == JNZ:
                top = stack.pop()
                if top != 0:
                    pc = int(immediates[pc].item())
                    continue
            pc += 1
        result = stack[-1] if stack else torch.zeros(())
        return result.clamp(-1e6, 1e6), cost, torch.tensor(steps)


def model():
    torch.manual_seed(5111)
    return StackVM().eval()


def _prog(pairs):
    ops = torch.tensor([p[0] for p in pairs], dtype=torch.long)
    imm = torch.tensor([float(p[1]) for p in pairs])
    return ops, imm


def example_inputs():
    # countdown loop: x=3; loop: x = x - 1; dup; jnz loop; then x*10+7
    return _prog([
        (PUSH, 3),          # 0: x
        (PUSH, 1),          # 1
        (SUB, 0),           # 2: x-1
        (DUP, 0),           # 3
        (JNZ, 1),           # 4: jump back while x != 0
        (PUSH, 10), (MUL, 0), (PUSH, 7), (ADD, 0),
        (HALT, 0),
    ])


def dynamic_shapes():
    p = torch.export.Dim("program_len", min=2, max=128)
    return ({0: p}, {0: p})


def verify_inputs():
    long_prog = [(PUSH, 2), (PUSH, 3), (SWAP, 0), (SUB, 0), (NOP, 0)] + [(DUP, 0), (ADD, 0)] * 60 \
        + [(PUSH, 1), (ADD, 0), (HALT, 0)]
    return [
        # example: PUSH/SUB/DUP/MUL/ADD, JNZ taken twice then not taken, HALT -> break
        example_inputs(),
        # min length: PUSH then run off the end (no HALT)
        _prog([(PUSH, 4), (PUSH, 2)]),
        # max length: SWAP, NOP (falls through the dispatch), long straight line of DUP/ADD, ends at HALT
        _prog(long_prog),
        # infinite loop (JNZ to itself on a constant) -> fuel runs out
        _prog([(PUSH, 1), (DUP, 0), (JNZ, 1), (HALT, 0)]),
        # JNZ not taken pops the last value -> runs off the end with an empty stack
        _prog([(PUSH, 0), (JNZ, 0)]),
    ]
