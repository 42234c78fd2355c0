"""Contactless transit ticketing: charge a day's card taps with peak surcharge, free
transfers and a daily fare cap.

Kind T. Constructs: 1 2 3 5 6
"""
import torch
import torch.nn as nn


class FareCapper(nn.Module):
    def __init__(self, daily_cap=7.0, transfer_window=90.0, peak_surcharge=0.5):
        super().__init__()
        self.daily_cap = daily_cap
        self.transfer_window = transfer_window      # minutes
        self.peak_surcharge = peak_surcharge
        # (start, end) minute-of-day of the two peak periods
        self.register_buffer("peaks", torch.tensor([[420.0, 570.0], [960.0, 1110.0]]))

    def is_peak(self, minute):
        in_peak = (minute >= self.peaks[:, 0]) & (minute < self.peaks[:, 1])
        return in_peak.any()

    def forward(self, tap_minutes, base_fares):
        charges = []
        spent = torch.zeros(())
        last_paid_at = torch.tensor(-1.0e4)
        last_paid_fare = torch.zeros(())
        for i in range(tap_minutes.shape[0]):
            t = tap_minutes[i]
            base = base_fares[i]
            if self.daily_cap - spent < 0.01:
                # capped: everything else today is free
                charges.append(torch.zeros(()))
                continue
            if t - last_paid_at < self.transfer_window and base <= last_paid_fare:
                # transfer onto an equal or cheaper line within the window
                charges.append(torch.zeros(()))
                continue
            fare = base + self.peak_surcharge if self.is_peak(t) else base
            fare = torch.minimum(fare, self.daily_cap - spent)
            spent = spent + fare
            last_paid_at = t
            last_paid_fare = base
            charges.append(fare)
        return torch.stack(charges), spent


def model():
    torch.manual_seed(2)
    return FareCapper().eval()


def example_inputs():
    # commute: peak bus, transfer to cheaper tram, lunch trip, evening peak, late ride
    t = torch.tensor([455.5, 490.5, 760.5, 1020.5, 1300.5])
    f = torch.tensor([2.75, 2.25, 2.75, 2.75, 2.75])
    return (t, f)


def dynamic_shapes():
    n = torch.export.Dim("taps", min=2, max=128)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),   # peak + off-peak fares, one free transfer, 4th fare clipped by cap, 5th tap capped
        (torch.tensor([600.5, 640.5]), torch.tensor([2.25, 3.75])),
        # ^ two off-peak taps 40 min apart, second line pricier: transfer check fails on the fare (and-rhs false)
        (torch.tensor([300.5, 700.5, 705.5, 1200.5]), torch.tensor([1.75, 2.25, 1.75, 2.25])),
        # ^ early-morning, then >90 min later (and-lhs false), then a cheaper transfer, never reaches the cap
        (torch.arange(12, dtype=torch.float32) * 100.0 + 30.5, torch.full((12,), 3.25)),
        # ^ 12 taps every 100 min: cap reached on the 3rd paid tap, the rest free
    ]
