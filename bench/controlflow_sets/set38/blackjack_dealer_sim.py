"""Casino game server: play out the dealer's hand from the shoe (soft-17 rule, naturals,
shoe running out) and settle every seated player's standing total.

Kind X. Constructs: 1 2 3 4 5 6 7 9
"""
import torch
import torch.nn as nn

WIN, PUSH, LOSE = 1, 0, -1


class DealerSim(nn.Module):
    def __init__(self, hit_soft_17=True):
        super().__init__()
        self.hit_soft_17 = hit_soft_17

    def hand_value(self, hard, aces):
        # one ace may count 11 if it does not bust the hand
        if aces > 0 and hard + 10 <= 21:
            return hard + 10, True
        return hard, False

    def should_hit(self, total, soft):
        if total < 17:
            return True
        if self.hit_soft_17 and soft and total == 17:
            return True
        return False

    def settle(self, player, dealer):
        if player > 21:
            return LOSE
        if dealer > 21 or player > dealer:
            return WIN
        elif player == dealer:
            return PUSH
        return LOSE

    def forward(self, shoe, player_totals):
        shoe = shoe.clamp(1, 10)
        hard = shoe[0] + shoe[1]
        aces = (shoe[:2] == 1).sum()
        total, soft = self.hand_value(hard, aces)
        if total == 21:
            # dealer natural: everybody loses except a player with 21 (push)
            outcome = torch.where(player_totals == 21, PUSH, LOSE)
            return outcome, total, torch.tensor(2)

        idx = 2
        while self.should_hit(total, soft):
            if idx >= shoe.shape[0]:
                # cut card reached with no cards left: the hand stands as is
                break
            card = shoe[idx]
            idx += 1
            hard = hard + card
            aces = aces + (card == 1).long()
            total, soft = self.hand_value(hard, aces)
            if total > 21:
                break

        results = []
        for p in range(player_totals.shape[0]):
            results.append(torch.tensor(self.settle(player_totals[p], total)))
        return torch.stack(results), total, torch.tensor(idx)


def model():
    torch.manual_seed(10)
    return DealerSim().eval()


def _make_shoe(cards, pad_seed=None, n=None):
    cards = torch.tensor(cards, dtype=torch.long)
    if n is not None and n > cards.shape[0]:
        g = torch.Generator().manual_seed(pad_seed)
        cards = torch.cat([cards, torch.randint(1, 11, (n - cards.shape[0],), generator=g)])
    return cards


def example_inputs():
    # dealer 10 + 6 = 16, draws 5 -> 21; players stand on 20, 21, 23 (bust), 17
    return (_make_shoe([10, 6, 5], 0, 52), torch.tensor([20, 21, 23, 17]))


def dynamic_shapes():
    return ({0: torch.export.Dim("shoe", min=8, max=208)}, {0: torch.export.Dim("players", min=2, max=7)})


def verify_inputs():
    return [
        example_inputs(),                                                  # one hit, 21 made: players lose/push
        (_make_shoe([1, 10], 1, 20), torch.tensor([21, 19])),              # dealer natural: early return
        (_make_shoe([10, 7], 2, 30), torch.tensor([18, 17, 16])),          # hard 17 stands: loop 0 times
        (_make_shoe([1, 6, 10, 4], 3, 30), torch.tensor([19, 20])),        # soft 17 hits (ace 11 -> 1), 17 hard, stands
        (_make_shoe([9, 5, 2, 8], 4, 40), torch.tensor([12, 22, 18])),     # 14, 16, 24: bust break, all standing win
        (_make_shoe([2, 2, 2, 2, 2, 2, 2, 2]), torch.tensor([15, 17])),    # shoe of 8 small cards runs out: break
        (_make_shoe([1, 1, 1, 1, 1, 1, 3, 9], None, None), torch.tensor([18, 19, 20, 21, 13, 30, 17])),
        # ^ multiple aces: soft 12, 13, 14, 15, 16, soft 19 after the 3; seven players, push/win/lose mix
    ]
