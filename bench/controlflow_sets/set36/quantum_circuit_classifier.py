"""Quantum ML: state-vector simulation of a 3-qubit variational classifier whose layer angles come in
as a tensor (one row per layer), with a heralded ancilla measured in a repeat-until-success loop.

Real-amplitude simulation (RY + CZ gates). Kind X. Constructs: 1, 4, 5, 7, 9.
"""
import torch
import torch.nn as nn

N_QUBITS = 3
ANCILLA = 2


def apply_ry(state, theta, q):
    c, s = torch.cos(theta / 2), torch.sin(theta / 2)
    st = state.movedim(q, 0)
    a, b = st[0], st[1]
    return torch.stack([c * a - s * b, s * a + c * b]).movedim(0, q)


def apply_cz(state, q1, q2):
    bits = torch.arange(2)
    shape1 = [1] * N_QUBITS
    shape2 = [1] * N_QUBITS
    shape1[q1] = 2
    shape2[q2] = 2
    both = bits.view(shape1) * bits.view(shape2)  # 1 where both qubits are |1>
    return state * (1 - 2 * both).to(state.dtype)


def expect_z(state):
    probs = state ** 2
    out = []
    for q in range(state.dim()):
        p = probs.movedim(q, 0).reshape(2, -1).sum(1)
        out.append(p[0] - p[1])
    return torch.stack(out)


class Entangler(nn.Module):
    def __init__(self, pattern):
        super().__init__()
        self.pattern = pattern

    def forward(self, state):
        state = apply_cz(state, 0, 1)
        state = apply_cz(state, 1, 2)
        if self.pattern == "ring":  # static
            state = apply_cz(state, 2, 0)
        return state


class CircuitClassifier(nn.Module):
    def __init__(self, entangler="ring", max_tries=3, n_classes=2):
        super().__init__()
        self.max_tries = max_tries
        self.enc_scale = nn.Parameter(1.0 + 0.1 * torch.randn(N_QUBITS))
        self.correction = nn.Parameter(torch.tensor(0.6))
        self.entangle = Entangler(entangler)
        self.readout = nn.Linear(N_QUBITS - 1, n_classes)

    def _ancilla_one_prob(self, state):
        return (state.select(ANCILLA, 1) ** 2).sum()

    def forward(self, x, angles):
        state = torch.zeros(2, 2, 2, dtype=x.dtype)
        state[0, 0, 0] = 1.0
        for q in range(N_QUBITS):
            state = apply_ry(state, x[q] * self.enc_scale[q], q)

        layer_z = []
        for layer in range(angles.shape[0]):
            for q in range(N_QUBITS):
                state = apply_ry(state, angles[layer, q], q)
            state = self.entangle(state)
            layer_z.append(expect_z(state))

        # heralded ancilla: while failure is the likely outcome, apply the correction and retry
        tries = torch.zeros((), dtype=x.dtype)
        p1 = self._ancilla_one_prob(state)
        while p1 > 0.5 and tries < self.max_tries:
            state = apply_ry(state, self.correction, ANCILLA)
            state = self.entangle(state)
            p1 = self._ancilla_one_prob(state)
            tries = tries + 1

        # post-select the most likely ancilla outcome
        data = state.select(ANCILLA, 1) if p1 > 0.5 else state.select(ANCILLA, 0)
        data = data / data.norm()
        logits = self.readout(expect_z(data))
        return logits, torch.stack(layer_z), tries


def model():
    torch.manual_seed(36019)
    return CircuitClassifier().eval()


def _angles(*rows):
    return torch.tensor(rows, dtype=torch.float32)


X0 = torch.tensor([0.3, -0.8, 0.5])


def example_inputs():
    # 3 layers, ancilla mostly |0> at the end -> no retries
    return (X0, _angles([0.4, 1.1, -0.2], [0.9, -0.5, 0.3], [0.1, 0.7, -0.4]))


def dynamic_shapes():
    layers = torch.export.Dim("layers", min=2, max=16)
    return (None, {0: layers})


def verify_inputs():
    return [
        example_inputs(),                                                       # p1 < 0.5: while runs 0x, keep |0>
        (X0, _angles([0.2, 0.3, 1.2], [0.5, -0.4, 1.3])),                       # ancilla leans |1>: retries until p1 < 0.5
        (torch.tensor([1.0, 0.2, -0.3]), _angles([0.0, 0.0, 2.4], [0.1, 0.2, 0.3],
                                                  [0.0, 0.1, 0.0], [0.2, 0.0, 0.1])),  # still |1> after 3 tries -> keep |1>
    ]
