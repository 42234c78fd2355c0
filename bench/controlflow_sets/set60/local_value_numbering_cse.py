"""Basic-block optimiser: local value numbering (CSE + redundant-load elimination with
store-to-load forwarding) followed by iterative dead-code elimination, plus a learned
latency model for the cycles saved. Value ids: 0..3 are arguments, instruction i -> 4 + i."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

ADD, MUL, SUB, LOAD, STORE, CALL, RET = range(7)
N_ARGS = 4  # arguments are distinct `restrict` base pointers / scalars


def kill_memory(mem, addr_vn):
    """A store may clobber every remembered location except provably distinct restrict args."""
    for key in list(mem):
        if key == addr_vn or (key < N_ARGS and addr_vn < N_ARGS):
            continue
        del mem[key]


def value_number(instrs):
    n = instrs.shape[0]
    vn = list(range(N_ARGS))   # value number of every SSA value
    rep = list(range(N_ARGS))  # value number -> first SSA value that computed it
    table, mem = {}, {}
    reachable = n
    for i in range(n):
        op, a, b = (int(x) for x in instrs[i])
        if op == RET:
            reachable = i + 1
            break
        if op == STORE:
            kill_memory(mem, vn[a])
            mem[vn[a]] = vn[b]  # forward the stored value to later loads
            vn.append(-1)
            continue
        if op == CALL:
            mem.clear()  # opaque call: all memory is suspect, result is unique
            found = None
        elif op == LOAD:
            found = mem.get(vn[a])
        else:
            va, vb = vn[a], vn[b]
            if op != SUB and va > vb:
                va, vb = vb, va  # commutative: canonical operand order
            found = table.get((op, va, vb))
        if found is not None:
            vn.append(found)
            continue
        vn.append(len(rep))
        rep.append(N_ARGS + i)
        if op == LOAD:
            mem[vn[a]] = vn[-1]
        elif op != CALL:
            table[(op, va, vb)] = vn[-1]
    canon = [rep[v] if v >= 0 else k for k, v in enumerate(vn)]
    canon += list(range(len(canon), N_ARGS + n))  # unreachable tail keeps its own ids
    return torch.tensor(canon), reachable


class LocalValueNumbering(nn.Module):
    def __init__(self):
        super().__init__()
        self.latency = nn.Linear(7, 1)  # learned cycles per removed opcode

    def use_counts(self, ca, cb, uses_a, uses_b, alive, n):
        cnt = torch.zeros(N_ARGS + n, dtype=torch.long)
        cnt.scatter_add_(0, ca, (alive & uses_a).long())
        cnt.scatter_add_(0, cb, (alive & uses_b).long())
        return cnt[N_ARGS:]

    def forward(self, instrs):
        # instrs (N, 3) int64: opcode, operand a, operand b (value ids)
        n = instrs.shape[0]
        canon, reachable = value_number(instrs)
        ops = instrs[:, 0]
        ca, cb = canon[instrs[:, 1]], canon[instrs[:, 2]]
        uses_a = ops != CALL
        uses_b = (ops == STORE) | (ops == ADD) | (ops == MUL) | (ops == SUB)
        pure = (ops == ADD) | (ops == MUL) | (ops == SUB) | (ops == LOAD)
        alive = torch.arange(n) < reachable
        removable = alive & pure & (self.use_counts(ca, cb, uses_a, uses_b, alive, n) == 0)
        while removable.any():
            alive = alive & ~removable
            removable = alive & pure & (self.use_counts(ca, cb, uses_a, uses_b, alive, n) == 0)
        removed = (~alive) & (torch.arange(n) < reachable)
        hist = (F.one_hot(ops, 7) * removed.unsqueeze(1)).sum(0).float()
        saved = F.softplus(self.latency(hist)).squeeze() * removed.any()
        return canon[N_ARGS:] - N_ARGS, alive.long(), saved


def model():
    torch.manual_seed(6012)
    return LocalValueNumbering().eval()


def _block(rows):
    return (torch.tensor(rows, dtype=torch.long),)


EXAMPLE = [[ADD, 0, 1], [MUL, 2, 3], [ADD, 1, 0], [LOAD, 0, 0], [LOAD, 0, 0], [STORE, 1, 4],
           [LOAD, 0, 0], [SUB, 6, 5], [CALL, 0, 0], [LOAD, 0, 0], [ADD, 13, 11], [RET, 14, 0]]


def example_inputs():
    return _block(EXAMPLE)


def dynamic_shapes():
    return ({0: Dim("instrs", min=2, max=48)},)


def verify_inputs():
    long_block = []
    for k in range(8):  # 6 instrs per round, no RET: falls off the end
        base = 4 + 6 * k
        long_block += [[ADD, k % 4, (k + 1) % 4], [MUL, base, base], [ADD, (k + 1) % 4, k % 4],
                       [STORE, base, base + 1], [LOAD, base, 0], [SUB, base + 4, base + 2]]
    return [
        _block(EXAMPLE),                                   # example: CSE, load reuse, call kill
        _block([[ADD, 0, 1], [RET, 4, 0]]),                # min: nothing to remove, DCE skipped
        _block(long_block),                                # max: no RET, forwarded loads, chains
        _block([[MUL, 0, 0], [RET, 0, 0], [ADD, 4, 1], [SUB, 6, 2]]),  # dead value, unreachable
        _block([[LOAD, 0, 0], [ADD, 0, 1], [STORE, 5, 2], [LOAD, 0, 0], [RET, 7, 0]]),  # alias kill
    ]
