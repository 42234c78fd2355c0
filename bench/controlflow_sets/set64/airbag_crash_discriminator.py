"""Airbag control unit: frontal crash discrimination from the central accelerometer.

Samples arrive at 1 kHz (deceleration in g).  The algorithm idles until the
deceleration exceeds a wake-up level, then integrates velocity change and
compares it with a threshold that grows with time since wake-up (a real crash
builds delta-v fast, potholes and curb strikes do not).  Deployment also
needs the independent safing sensor to agree.  Events that do not reach the
threshold within the algorithm window reset to idle.  Saturated/glitched
samples are ignored.  The deployment stage depends on crash severity.
"""
import torch
import torch.nn as nn

IDLE, ARMED = 0, 1
KMH_PER_G_MS = 9.81 * 1e-3 * 3.6


class CrashDiscriminator(nn.Module):
    def __init__(self, wake_g=3.0, window_ms=80, safing_g=2.0, glitch_g=150.0, severe_g=12.0):
        super().__init__()
        self.wake_g = wake_g
        self.window_ms = window_ms
        self.safing_g = safing_g
        self.glitch_g = glitch_g
        self.severe_g = severe_g

    def _threshold_kmh(self, elapsed_ms):
        if elapsed_ms < 15:
            return 6.0
        elif elapsed_ms < 40:
            return 12.0
        return 20.0

    def _safing_agrees(self, safing, t):
        recent = safing[max(t - 4, 0):t + 1]
        return recent.max() > self.safing_g

    def forward(self, accel_g, safing_g):
        n = accel_g.shape[0]
        state = IDLE
        dv = torch.zeros(())
        t_wake = 0
        events = 0
        fired = torch.tensor(False)
        fire_ms = torch.tensor(-1)
        stage = torch.tensor(0)
        t = 0
        while t < n and not fired:
            a = accel_g[t]
            if a.abs() > self.glitch_g:
                t += 1
                continue
            if state == IDLE:
                if a > self.wake_g:
                    state = ARMED
                    dv = a * KMH_PER_G_MS
                    t_wake = t
                    events += 1
            else:
                dv = dv + a * KMH_PER_G_MS
                elapsed = t - t_wake
                if dv > self._threshold_kmh(elapsed) and self._safing_agrees(safing_g, t):
                    fired = torch.tensor(True)
                    fire_ms = torch.tensor(t)
                    mean_g = dv / KMH_PER_G_MS / (elapsed + 1)
                    stage = torch.tensor(2) if mean_g > self.severe_g else torch.tensor(1)
                elif elapsed >= self.window_ms or dv < 0:
                    state = IDLE
                    dv = torch.zeros(())
            t += 1
        return fired, fire_ms, stage, dv, torch.tensor(events)


def model():
    torch.manual_seed(64)
    return CrashDiscriminator().eval()


def _pulse(n, start, length, peak_g, seed, noise=0.3):
    g = torch.Generator().manual_seed(seed)
    x = noise * torch.randn(n, generator=g)
    k = torch.arange(length).float()
    x[start:start + length] += peak_g * torch.sin(torch.pi * (k + 0.5) / length)
    return x


def example_inputs():
    acc = _pulse(200, 30, 70, 35.0, seed=0)     # 56 km/h barrier-like pulse
    return acc, 0.8 * acc


def dynamic_shapes():
    t = torch.export.Dim("samples", min=8, max=2000)
    return ({0: t}, {0: t})


def verify_inputs():
    pothole = _pulse(300, 50, 6, 8.0, seed=1)
    pothole[58:66] -= 7.0                        # rebound right after the hit: delta-v goes negative -> early reset
    glitchy = _pulse(200, 40, 90, 12.0, seed=2)
    glitchy[20] = 500.0                          # saturated sample before the crash
    glitchy[60] = -400.0                         # and one inside the event
    slow_curb = _pulse(250, 20, 120, 4.5, seed=5)
    return [
        example_inputs(),                                   # wake, severe crash: fires early -> stage 2, loop stops on `fired`
        (pothole, 0.8 * pothole),                           # pothole: wakes, rebound makes delta-v negative -> reset; no deployment
        (glitchy, 0.8 * glitchy),                           # glitch samples skipped (continue); moderate crash -> stage 1, later threshold
        (_pulse(200, 30, 70, 35.0, seed=3), torch.zeros(200)),  # main sensor sees a crash, safing sensor does not: no fire
        (_pulse(8, 0, 0, 0.0, seed=4), _pulse(8, 0, 0, 0.0, seed=4)),  # quiet 8 ms: never wakes
        (slow_curb, 0.8 * slow_curb),                       # long low curb strike: 80 ms window expires -> reset
    ]
