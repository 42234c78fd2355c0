"""Compiler peephole pass: redundant-load elimination on a straight-line block.

program[i] = (opcode, dst, src, addr) with opcodes
    0 LOAD  r[dst] <- mem[addr]        1 STORE mem[addr] <- r[src]
    2 ADD   r[dst] <- r[dst] + r[src]  3 CALL  (clobbers caller-saved regs)
    4 MOV   r[dst] <- r[src]
addr < 0 marks a store through a pointer (may alias anything).
The pass tracks which address each register is known to hold, deletes loads
whose value is already in the destination register, turns loads whose value
is in another register into MOVs, and reports the estimated cycles saved
using a learned per-opcode latency table.
"""
import torch
import torch.nn as nn

LOAD, STORE, ADD, CALL, MOV = 0, 1, 2, 3, 4
NOP = -1


class RedundantLoadEliminator(nn.Module):
    def __init__(self, num_regs=8, caller_saved=4):
        super().__init__()
        self.num_regs = num_regs
        self.caller_saved = caller_saved
        self.latency = nn.Embedding(5, 1)

    def kill_register(self, known, reg):
        known = known.clone()
        known[reg] = -1
        return known

    def forward(self, program):
        known = torch.full((self.num_regs,), -1, dtype=torch.long)   # addr held by each register
        out = []
        removed = []
        for i in range(program.shape[0]):
            insn = program[i]
            op, dst, src, addr = insn[0], insn[1], insn[2], insn[3]
            if op == LOAD:
                if known[dst] == addr:
                    out.append(torch.stack([torch.tensor(NOP), dst, src, addr]))
                    removed.append(op)
                    continue
                holders = (known == addr).nonzero()
                if holders.shape[0] > 0:
                    # value already sits in another register: cheap register move
                    out.append(torch.stack([torch.tensor(MOV), dst, holders[0, 0], torch.tensor(-1)]))
                else:
                    out.append(insn)
                known = self.kill_register(known, dst)
                known[dst] = addr
                continue
            if op == STORE:
                if addr < 0:
                    known = torch.full_like(known, -1)     # pointer store: forget everything
                else:
                    known = torch.where(known == addr, torch.full_like(known, -1), known)
                    known[src] = addr                       # src now mirrors memory
            elif op == CALL:
                known[: self.caller_saved] = -1
            else:
                known = self.kill_register(known, dst)
            out.append(insn)
        new_program = torch.stack(out)
        if removed:
            saved = self.latency(torch.stack(removed)).abs().sum() * 4.0
        else:
            saved = torch.zeros(())
        return new_program, saved


def model():
    torch.manual_seed(5516)
    return RedundantLoadEliminator().eval()


def _prog(rows):
    return (torch.tensor(rows, dtype=torch.long),)


EXAMPLE = [
    [LOAD, 1, 0, 100],   # r1 <- [100]
    [LOAD, 2, 0, 104],   # r2 <- [104]
    [ADD, 3, 1, 0],      # r3 += r1
    [LOAD, 1, 0, 100],   # redundant: r1 already holds [100]
    [LOAD, 5, 0, 104],   # -> MOV r5, r2
    [STORE, 0, 3, 108],  # [108] <- r3
    [LOAD, 6, 0, 108],   # -> MOV r6, r3 (store-to-load forwarding)
    [CALL, 0, 0, 0],     # clobbers r0-r3
    [LOAD, 1, 0, 100],   # must reload after the call
    [LOAD, 6, 0, 108],   # r6 is callee-saved: redundant
    [STORE, 0, 2, -1],   # pointer store: forget everything
    [LOAD, 6, 0, 108],   # reload
    [MOV, 7, 6, 0],      # r7 clobbered
]


def example_inputs():
    return _prog(EXAMPLE)


def dynamic_shapes():
    insns = torch.export.Dim("instructions", min=2, max=128)
    return ({0: insns},)


def _long_block(n, seed):
    g = torch.Generator().manual_seed(seed)
    ops = torch.tensor([LOAD, LOAD, LOAD, STORE, ADD, MOV, CALL])
    op = ops[torch.randint(0, len(ops), (n,), generator=g)]
    dst = torch.randint(0, 8, (n,), generator=g)
    src = torch.randint(0, 8, (n,), generator=g)
    addr = 100 + 4 * torch.randint(0, 6, (n,), generator=g)
    addr = torch.where(torch.rand(n, generator=g) < 0.05, torch.full_like(addr, -1), addr)
    return (torch.stack([op, dst, src, addr], dim=1),)


def verify_inputs():
    return [
        example_inputs(),                                  # every rule: delete, MOV-forward, store kill, call, pointer store
        _prog([[LOAD, 1, 0, 200], [ADD, 2, 1, 0]]),        # instructions=min: nothing removed -> saved = 0
        _long_block(128, 3),                               # instructions=max: random block
        _long_block(40, 4),                                # medium random block
    ]
