"""Hydro-climatology: drought events from a 3-month standardized precipitation index.

Monthly rainfall for a station is accumulated over 3 months, log-transformed
and standardized per calendar month (pooled over all months when the record
is too short for per-month statistics) as an SPI-3 approximation.  Run
theory then extracts drought events: onset when SPI drops to -1, the event
lasts while SPI stays negative, and events shorter than two months are
discarded.  Each event gets its duration, cumulative severity, peak and
category.  Three consecutive months at or below -2 trigger the emergency
declaration, which stops the scan.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DroughtEventTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale_months = 3
        self.onset = -1.0
        self.recovery = 0.0
        self.min_duration = 2
        self.exceptional = -2.0
        self.exceptional_run = 3
        self.min_years_monthly_stats = 5

    def spi(self, precip):
        years = precip.shape[0]
        series = precip.reshape(1, 1, -1)
        padded = F.pad(series, (self.scale_months - 1, 0), mode="replicate")
        acc = F.conv1d(padded, torch.ones(1, 1, self.scale_months))[0, 0]
        logs = torch.log1p(acc).reshape(years, 12)
        if years >= self.min_years_monthly_stats:
            mu, sd = logs.mean(0), logs.std(0)
        else:
            mu, sd = logs.mean(), logs.std()
        return ((logs - mu) / torch.clamp(sd, min=1e-3)).reshape(-1)

    def category(self, peak):
        if peak <= -2.0:
            return 3.0  # extreme
        elif peak <= -1.5:
            return 2.0  # severe
        return 1.0      # moderate

    def close_event(self, start, end, severity, peak):
        return torch.stack([torch.tensor(float(start)), torch.tensor(float(end - start)),
                            severity, peak, torch.tensor(self.category(peak))])

    def forward(self, precip):
        z = self.spi(precip)
        events = []
        in_drought, start, run = False, 0, 0
        severity, peak = torch.zeros(()), torch.zeros(())
        emergency = -1
        for m in range(z.shape[0]):
            s = z[m]
            if not in_drought:
                if s <= self.onset:
                    in_drought, start = True, m
                    severity, peak = -s, s
                    run = 1 if s <= self.exceptional else 0
                continue
            if s < self.recovery:
                severity = severity - s
                peak = torch.minimum(peak, s)
                run = run + 1 if s <= self.exceptional else 0
                if run >= self.exceptional_run:
                    emergency = m
                    events.append(self.close_event(start, m + 1, severity, peak))
                    break
                continue
            in_drought = False
            if m - start < self.min_duration:
                continue  # a dry blip, not a drought
            events.append(self.close_event(start, m, severity, peak))
        else:
            if in_drought and z.shape[0] - start >= self.min_duration:
                events.append(self.close_event(start, z.shape[0], severity, peak))

        if len(events) == 0:
            table = torch.full((1, 5), -1.0)
        else:
            table = torch.stack(events)
        return table, torch.tensor(emergency), z


def model():
    torch.manual_seed(5918)
    return DroughtEventTracker().eval()


def make_record(years, seed, dry_spells=(), wet_tail=False, noise=True):
    """Gamma rainfall with a seasonal cycle; dry_spells: (first_month, months, factor)."""
    g = torch.Generator().manual_seed(seed)
    season = 60.0 + 40.0 * torch.cos(torch.arange(12) * 2 * torch.pi / 12)
    shape = torch.full((years, 12), 2.0)
    rain = torch._standard_gamma(shape, generator=g) / 2.0 * season
    if not noise:  # irrigated-district gauge: the climatological mean every year
        rain = season.expand(years, 12).clone()
    flat = rain.reshape(-1)
    for first, months, factor in dry_spells:
        flat[first:first + months] = flat[first:first + months] * factor
    if wet_tail:
        flat[-4:] = flat[-4:] * 3.0
    return (flat.reshape(years, 12),)


def example_inputs():
    # 10 years, an 8-month dry spell in year 4 among natural dry runs; the record
    # ends inside a drought
    return make_record(10, 1, dry_spells=[(40, 8, 0.4)])


def dynamic_shapes():
    return ({0: torch.export.Dim("years", min=2, max=40)},)


def verify_inputs():
    # example: several events incl. one-month blips that are discarded
    ex = example_inputs()
    # 2-year record: pooled statistics; drought still running when the record ends
    short = make_record(2, 2, dry_spells=[(17, 7, 0.1)])
    # 40 years: a multi-year megadrought hits -2 three months running -> emergency
    # (rain stops abruptly: the onset month is already below -2)
    mega = make_record(40, 5, dry_spells=[(100, 5, 0.3), (296, 4, 0.6), (300, 30, 0.0)])
    # 6 climatological years with a wet ending: no droughts at all
    wet = make_record(6, 4, wet_tail=True, noise=False)
    return [ex, short, mega, wet]
