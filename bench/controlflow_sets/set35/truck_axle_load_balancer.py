"""Truck loading assistant for a distribution centre: computes front / rear
axle loads from the pallets' weights and deck positions (lever rule), and
while an axle is over its legal limit it moves the heaviest pallet that can
still move (not strapped down, room left on the deck) one slot toward the
other axle. Gives up when nothing can move or after a move budget; a small learned head rates handling stability of the
final load plan for the dispatcher.

Input: pallets [P, 3] (weight kg, position m behind the front axle on a -1.0 .. 8.2 m deck,
strapped-down flag).
Outputs: final positions [P], axle loads [2], legal flag [1], handling score [1].
"""
import torch
import torch.nn as nn


class AxleLoadBalancer(nn.Module):
    def __init__(self, wheelbase=6.0, tare=(4000.0, 3000.0), limits=(7100.0, 11500.0),
                 deck=(-1.0, 8.2), slot=1.2, max_moves=16):
        super().__init__()
        self.wheelbase = wheelbase
        self.tare_front, self.tare_rear = tare
        self.front_limit, self.rear_limit = limits
        self.deck_start, self.deck_end = deck
        self.slot = slot
        self.max_moves = max_moves
        self.handling = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def axle_loads(self, weights, pos):
        moment = (weights * pos).sum() / self.wheelbase
        rear = self.tare_rear + moment
        front = self.tare_front + weights.sum() - moment
        return front, rear

    def movable(self, pos, strapped, toward_rear):
        if toward_rear:
            room = pos + self.slot <= self.deck_end
        else:
            room = pos - self.slot >= self.deck_start
        return room & (strapped < 0.5)

    def pick_pallet(self, weights, pos, strapped, toward_rear):
        ok = self.movable(pos, strapped, toward_rear)
        if not ok.any():
            return -1
        return int(torch.where(ok, weights, torch.full_like(weights, -1.0)).argmax())

    def forward(self, pallets):
        weights, pos, strapped = pallets[:, 0], pallets[:, 1].clone(), pallets[:, 2]
        front, rear = self.axle_loads(weights, pos)
        moves = 0
        while (front > self.front_limit or rear > self.rear_limit) and moves < self.max_moves:
            toward_rear = bool(front > self.front_limit)
            i = self.pick_pallet(weights, pos, strapped, toward_rear)
            if i < 0:
                break
            pos[i] = pos[i] + (self.slot if toward_rear else -self.slot)
            front, rear = self.axle_loads(weights, pos)
            moves += 1

        legal = ((front <= self.front_limit) & (rear <= self.rear_limit)).float().reshape(1)
        cog = (weights * pos).sum() / weights.sum()
        feats = torch.stack([front / self.front_limit, rear / self.rear_limit, cog / self.wheelbase,
                             weights.sum() / 10000.0])
        return pos, torch.stack([front, rear]), legal, torch.sigmoid(self.handling(feats))


def model():
    torch.manual_seed(14)
    return AxleLoadBalancer().eval()


def example_inputs():
    # heavy machine parts loaded at the front: front axle overloaded, two moves fix it
    return (torch.tensor([[1500.0, -0.6, 0.0], [1400.0, 0.6, 0.0], [800.0, 1.8, 0.0], [650.0, 3.0, 0.0],
                          [500.0, 4.2, 0.0]]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("pallets", min=2, max=26)},)


def verify_inputs():
    return [
        example_inputs(),  # front overloaded -> pallets moved rearward until legal
        (torch.tensor([[900.0, 7.0, 0.0], [2600.0, 7.8, 1.0], [2400.0, 6.6, 0.0], [1800.0, 5.4, 0.0],
                       [700.0, 4.2, 0.0], [300.0, 3.0, 0.0]]),),  # rear overloaded; heaviest is strapped -> others move forward
        (torch.tensor([[600.0, 1.0, 0.0], [700.0, 3.0, 0.0], [650.0, 5.0, 0.0]]),),  # already legal -> no moves
        (torch.tensor([[6000.0, 6.5, 1.0], [4000.0, 7.0, 1.0], [500.0, 0.1, 0.0]]),),  # rear over, nothing movable -> break
        (torch.tensor([[15000.0, 4.0, 0.0], [300.0, 6.0, 1.0]]),),  # overweight coil: both axles over, hops back and forth -> move budget
    ]
