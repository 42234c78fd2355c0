"""Condition-based maintenance policy for a degrading machine (Markov decision process).

States 0..S-1 are degradation levels, S-1 = failed.  Each period in state s the machine costs
op_cost[s] to run and degrades one level with probability deg_prob[s]; a repair costs
repair_cost and returns it to state 0.  A failed machine must be repaired.  The optimal policy
is found by modified policy iteration: a few evaluation sweeps (stopping early once the values
settle) followed by a greedy improvement, repeated until the policy is stable.  The repair
threshold (first state where repairing is optimal) is then read off.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class MaintenanceMDP(nn.Module):
    def __init__(self, gamma=0.9, eval_sweeps=40, tol=1e-2, max_outer=20):
        super().__init__()
        self.gamma = gamma
        self.eval_sweeps = eval_sweeps
        self.tol = tol
        self.max_outer = max_outer

    def _q_values(self, V, deg_prob, op_cost, repair_cost):
        V_next = torch.cat([V[1:], V[-1:]])
        q_run = op_cost + self.gamma * (deg_prob * V_next + (1.0 - deg_prob) * V)
        q_run = torch.cat([q_run[:-1], torch.full((1,), float("inf"))])  # cannot keep running when failed
        q_repair = repair_cost + op_cost[0] + self.gamma * V[0] * torch.ones_like(V)
        return q_run, q_repair

    def _evaluate(self, V, policy, deg_prob, op_cost, repair_cost):
        for _ in range(self.eval_sweeps):
            q_run, q_repair = self._q_values(V, deg_prob, op_cost, repair_cost)
            V_new = torch.where(policy, q_repair, q_run)
            delta = (V_new - V).abs().max()
            V = V_new
            if delta < self.tol:
                break
        return V

    def forward(self, deg_prob, op_cost, repair_cost):
        S = deg_prob.shape[0]
        if deg_prob[:-1].amax() < 1e-3:
            # negligible wear: never repair, run forever from state 0
            V = op_cost / (1.0 - self.gamma)
            return V, torch.zeros(S), torch.tensor(S - 1), torch.tensor(0)

        policy = torch.zeros(S, dtype=torch.bool)
        policy[-1] = True
        V = torch.zeros(S)
        stable = torch.zeros((), dtype=torch.bool)
        outer = 0
        while not stable and outer < self.max_outer:
            V = self._evaluate(V, policy, deg_prob, op_cost, repair_cost)
            q_run, q_repair = self._q_values(V, deg_prob, op_cost, repair_cost)
            new_policy = q_repair < q_run
            stable = (new_policy == policy).all()
            policy = new_policy
            outer += 1

        threshold = S - 1
        for s in range(S):
            if policy[s]:
                threshold = s
                break
        return V, policy.float(), torch.tensor(threshold), torch.tensor(outer)


def model():
    return MaintenanceMDP().eval()


def _machine(S, p0, p_growth, cost0, cost_growth, fail_cost):
    s = torch.arange(S).float()
    deg = (p0 * (1.0 + p_growth * s)).clamp(max=0.95)
    cost = cost0 * (1.0 + cost_growth * s) ** 2
    cost[-1] = fail_cost
    return deg, cost


def example_inputs():
    d, c = _machine(6, 0.1, 0.5, 1.0, 0.6, 30.0)
    return (d, c, torch.tensor(30.0))


def dynamic_shapes():
    states = Dim("states", min=3, max=128)
    return ({0: states}, {0: states}, None)


def verify_inputs():
    d1, c1 = _machine(5, 0.0, 0.0, 1.0, 0.3, 20.0)
    d2, c2 = _machine(10, 0.05, 0.3, 1.0, 0.2, 15.0)
    d3, c3 = _machine(4, 0.3, 0.2, 2.0, 1.5, 80.0)
    return [
        example_inputs(),                   # preventive repair from state 3 of 6; 3 improvement rounds
        (d1, c1, torch.tensor(5.0)),        # no degradation at all: early return
        (d2, c2, torch.tensor(60.0)),       # expensive repair: run to failure (threshold = failed state)
        (d3, c3, torch.tensor(1.0)),        # cheap repair, fast wear: repair already in state 0 or 1
        (d2, c2, torch.tensor(3.0)),        # long machine, cheap repair: early threshold
    ]
