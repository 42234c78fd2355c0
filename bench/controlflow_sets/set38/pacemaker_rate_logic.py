"""Implantable pacemaker (VVIR) timing logic replayed over a Holter strip: sensor-driven
escape interval, rest hysteresis, tachycardia mode switch and noise reversion.

Kind X. Constructs: 1 2 3 5 6 7
"""
import torch
import torch.nn as nn


class PacemakerLogic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lower_rate = 60.0          # bpm
        self.upper_sensor_rate = 120.0  # bpm
        self.hysteresis_interval = 1200.0  # ms (50 bpm) allowed at rest after a sensed beat
        self.noise_interval = 200.0     # ms: shorter "beats" are oversensed noise
        self.tachy_interval = 400.0     # ms (150 bpm)
        # accelerometer counts -> sensor rate response curve
        self.rate_response = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))

    def escape_interval(self, activity, hysteresis):
        gain = nn.functional.softplus(self.rate_response(activity.reshape(1, 1))).reshape(())
        frac = 1.0 - torch.exp(-activity.clamp(min=0.0, max=10.0) * gain)
        sensor_rate = self.lower_rate + (self.upper_sensor_rate - self.lower_rate) * frac
        interval = 60000.0 / sensor_rate
        if hysteresis and activity < 0.2:
            interval = torch.clamp(interval, min=self.hysteresis_interval)
        return interval

    def forward(self, rr_ms, activity):
        paced, rate = [], []
        hysteresis = False
        noise_run = 0
        fast_run = 0
        mode_switched = torch.zeros(())
        for i in range(rr_ms.shape[0]):
            rr = rr_ms[i]
            if rr < self.noise_interval:
                noise_run += 1
                if noise_run >= 3:
                    break       # noise reversion: fall back to asynchronous pacing
                continue
            noise_run = 0
            esc = self.escape_interval(activity[i], hysteresis)
            if rr > esc:
                # no intrinsic beat before the escape interval ran out: pace
                paced.append(torch.ones(()))
                rate.append(60000.0 / esc)
                hysteresis = False
                fast_run = 0
            else:
                paced.append(torch.zeros(()))
                rate.append(60000.0 / rr)
                hysteresis = True
                if rr < self.tachy_interval:
                    fast_run += 1
                    if fast_run >= 4:
                        mode_switched = torch.ones(())
                else:
                    fast_run = 0
        n_left = rr_ms.shape[0] - len(paced)
        if n_left > 0:
            # skipped noise beats / asynchronous remainder are paced at the lower rate
            paced.append(torch.ones(n_left))
            rate.append(torch.full((n_left,), self.lower_rate))
        paced = torch.cat([p.reshape(-1) for p in paced])
        rate = torch.cat([r.reshape(-1) for r in rate])
        return paced, rate, mode_switched


def model():
    torch.manual_seed(13)
    return PacemakerLogic().eval()


def example_inputs():
    # resting patient: mostly sensed sinus beats ~ 900 ms, one pause (paced), low activity
    rr = torch.tensor([900.0, 880.0, 1500.0, 910.0, 890.0, 1300.0, 870.0, 905.0])
    act = torch.tensor([0.05, 0.05, 0.05, 0.10, 0.10, 0.05, 0.05, 0.05])
    return rr, act


def dynamic_shapes():
    n = torch.export.Dim("beats", min=2, max=200)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),  # sensed beats with hysteresis; 1300 ms pause sensed (hysteresis 1200 < 1300 -> paced)
        (torch.tensor([700.0, 480.0, 900.0, 500.0]), torch.tensor([2.0, 2.5, 2.0, 2.5])),
        # ^ exercising: sensor rate shortens the escape interval -> 700/900 ms paced, 480/500 sensed; no hysteresis
        #   after the sensed beats because activity is high
        (torch.tensor([750.0, 380.0, 370.0, 360.0, 350.0, 340.0, 760.0]), torch.full((7,), 0.3)),
        # ^ run of 5 fast beats: tachycardia mode switch, then fast_run resets
        (torch.tensor([800.0, 150.0, 120.0, 800.0, 110.0, 100.0, 90.0, 800.0, 800.0]), torch.full((9,), 0.1)),
        # ^ two short noise bursts: first (2 beats) is skipped, second (3 beats) triggers noise reversion (break)
    ]
