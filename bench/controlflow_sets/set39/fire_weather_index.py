"""Canadian Forest Fire Weather Index (FWI) system run day by day over a season of
noon weather observations, followed by a small learned head that maps the final fuel
moisture codes and season statistics to a 5-level fire danger rating.

Kind T. Constructs: 1 (if/elif/else on tensor predicates, ternary), 2 (returns inside
branches, variables assigned in one branch), 3 (and), 5 (for over the dynamic number of
days, append + stack), 7 (control flow inside helper functions), 9 (config: latitude
band / month tables, self.training).
"""
import torch
import torch.nn as nn

# Effective day length for the Duff Moisture Code, and day-length adjustment for the
# Drought Code, by month (northern hemisphere, ~46N).
DMC_DAY_LENGTH = [6.5, 7.5, 9.0, 12.8, 13.9, 13.9, 12.4, 10.9, 9.4, 8.0, 7.0, 6.0]
DC_DAY_LENGTH = [-1.6, -1.6, -1.6, 0.9, 3.8, 5.8, 6.4, 5.0, 2.4, 0.4, -1.6, -1.6]


def ffmc_step(temp, rh, wind, rain, ffmc_prev):
    """Fine Fuel Moisture Code for one day."""
    mo = 147.2 * (101.0 - ffmc_prev) / (59.5 + ffmc_prev)
    if rain > 0.5:
        rf = rain - 0.5
        inc = 42.5 * rf * torch.exp(-100.0 / (251.0 - mo)) * (1.0 - torch.exp(-6.93 / rf))
        if mo > 150.0:
            inc = inc + 0.0015 * (mo - 150.0) ** 2 * torch.sqrt(rf)
        mo = torch.clamp(mo + inc, max=250.0)
    ed = 0.942 * rh ** 0.679 + 11.0 * torch.exp((rh - 100.0) / 10.0) \
        + 0.18 * (21.1 - temp) * (1.0 - torch.exp(-0.115 * rh))
    if mo > ed:
        ko = 0.424 * (1.0 - (rh / 100.0) ** 1.7) + 0.0694 * torch.sqrt(wind) * (1.0 - (rh / 100.0) ** 8)
        kd = ko * 0.581 * torch.exp(0.0365 * temp)
        m = ed + (mo - ed) * 10.0 ** (-kd)
    else:
        ew = 0.618 * rh ** 0.753 + 10.0 * torch.exp((rh - 100.0) / 10.0) \
            + 0.18 * (21.1 - temp) * (1.0 - torch.exp(-0.115 * rh))
        m = mo
        if mo < ew:
            k1 = 0.424 * (1.0 - ((100.0 - rh) / 100.0) ** 1.7) \
                + 0.0694 * torch.sqrt(wind) * (1.0 - ((100.0 - rh) / 100.0) ** 8)
            kw = k1 * 0.581 * torch.exp(0.0365 * temp)
            m = ew - (ew - mo) * 10.0 ** (-kw)
    return 59.5 * (250.0 - m) / (147.2 + m)


def dmc_step(temp, rh, rain, dmc_prev, day_length):
    """Duff Moisture Code for one day."""
    pr = dmc_prev
    if rain > 1.5:
        re = 0.92 * rain - 1.27
        mo = 20.0 + torch.exp(5.6348 - dmc_prev / 43.43)
        if dmc_prev <= 33.0:
            b = 100.0 / (0.5 + 0.3 * dmc_prev)
        elif dmc_prev <= 65.0:
            b = 14.0 - 1.3 * torch.log(dmc_prev)
        else:
            b = 6.2 * torch.log(dmc_prev) - 17.2
        mr = mo + 1000.0 * re / (48.77 + b * re)
        pr = torch.clamp(244.72 - 43.43 * torch.log(mr - 20.0), min=0.0)
    k = 1.894 * (temp + 1.1) * (100.0 - rh) * day_length * 1e-6 if temp > -1.1 else torch.zeros_like(temp)
    return pr + 100.0 * k


def dc_step(temp, rain, dc_prev, day_adj):
    """Drought Code for one day."""
    dr = dc_prev
    if rain > 2.8:
        rd = 0.83 * rain - 1.27
        qo = 800.0 * torch.exp(-dc_prev / 400.0)
        qr = qo + 3.937 * rd
        dr = torch.clamp(400.0 * torch.log(800.0 / qr), min=0.0)
    v = torch.clamp(0.36 * (temp + 2.8) + day_adj, min=0.0)
    return dr + 0.5 * v


def initial_spread_index(wind, ffmc):
    fm = 147.2 * (101.0 - ffmc) / (59.5 + ffmc)
    sf = 19.115 * torch.exp(-0.1386 * fm) * (1.0 + fm ** 5.31 / 4.93e7)
    return sf * torch.exp(0.05039 * wind)


def buildup_index(dmc, dc):
    if dmc <= 0.4 * dc:
        return 0.8 * dmc * dc / (dmc + 0.4 * dc + 1e-6)
    return dmc - (1.0 - 0.8 * dc / (dmc + 0.4 * dc + 1e-6)) * (0.92 + (0.0114 * dmc) ** 1.7)


def fire_weather_index(isi, bui):
    if bui <= 80.0:
        fd = 0.626 * bui ** 0.809 + 2.0
    else:
        fd = 1000.0 / (25.0 + 108.64 * torch.exp(-0.023 * bui))
    b = 0.1 * isi * fd
    if b > 1.0:
        return torch.exp(2.72 * (0.434 * torch.log(b)) ** 0.647)
    return b


class FireDangerRater(nn.Module):
    def __init__(self, month=7, hemisphere="north"):
        super().__init__()
        self.month = month
        self.hemisphere = hemisphere
        self.head = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 5))

    def forward(self, weather, start_codes):
        # weather: (days, 4) noon temp [C], RH [%], wind [km/h], 24h rain [mm]
        # start_codes: (3,) FFMC, DMC, DC at the start of the period
        month = self.month if self.hemisphere == "north" else (self.month + 5) % 12 + 1
        le = DMC_DAY_LENGTH[month - 1]
        lf = DC_DAY_LENGTH[month - 1]
        ffmc, dmc, dc = start_codes[0], start_codes[1], start_codes[2]
        fwi_days, isi_days = [], []
        extreme_days = torch.zeros(())
        for d in range(weather.shape[0]):
            temp, rh, wind, rain = weather[d, 0], weather[d, 1], weather[d, 2], weather[d, 3]
            ffmc = ffmc_step(temp, rh, wind, rain, ffmc)
            dmc = dmc_step(temp, rh, rain, dmc, le)
            dc = dc_step(temp, rain, dc, lf)
            isi = initial_spread_index(wind, ffmc)
            bui = buildup_index(dmc, dc)
            fwi = fire_weather_index(isi, bui)
            if fwi > 30.0 and bui > 60.0:
                extreme_days = extreme_days + 1.0
            fwi_days.append(fwi)
            isi_days.append(isi)
        fwi_series = torch.stack(fwi_days)
        isi_series = torch.stack(isi_days)
        feats = torch.stack([
            ffmc / 100.0, dmc / 100.0, dc / 500.0, fwi_series[-1] / 30.0,
            fwi_series.mean() / 30.0, fwi_series.max() / 30.0, isi_series.mean() / 10.0,
            extreme_days / weather.shape[0],
        ])
        logits = self.head(feats)
        if not self.training:  # static: module is always run in eval mode here
            logits = logits - logits.logsumexp(-1)
        return fwi_series, logits


def model():
    torch.manual_seed(3901)
    return FireDangerRater().eval()


def _make_weather(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    # two weeks of mixed summer weather with three rain days (rain branches of all three codes,
    # FFMC drying and in-between days, BUI <= 80, FWI above and below 1, no extreme day)
    torch.manual_seed(11)
    days = 14
    temp = 18.0 + 10.0 * torch.rand(days)
    rh = 30.0 + 40.0 * torch.rand(days)
    wind = 5.0 + 20.0 * torch.rand(days)
    rain = torch.tensor([0.0, 0.0, 6.0, 0.0, 0.0, 0.0, 0.0, 2.2, 0.0, 0.0, 12.0, 0.0, 0.0, 0.0])
    return (torch.stack([temp, rh, wind, rain], 1), torch.tensor([85.0, 6.0, 15.0]))


def dynamic_shapes():
    days = torch.export.Dim("days", min=2, max=120)
    return ({0: days}, None)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # drought spell: high start DMC/DC, hot dry windy days -> BUI > 80, FWI > 30, extreme days,
    # drying branch of FFMC, DMC "else" (dmc > 65) rain branch on the last day
    drought = (_make_weather([[31.0, 18.0, 30.0, 0.0], [33.0, 15.0, 35.0, 0.0], [34.0, 14.0, 28.0, 0.0],
                              [30.0, 20.0, 25.0, 0.0], [29.0, 45.0, 10.0, 4.0]]),
               torch.tensor([92.0, 90.0, 420.0]))
    # soaking rain after wet start: FFMC mo > 150 rain branch, DMC <= 33 branch, DC rain branch,
    # BUI <= 80, FWI <= 1 (returns b), cold day (temp <= -1.1 -> k = 0)
    soaked = (_make_weather([[8.0, 95.0, 5.0, 25.0], [6.0, 98.0, 3.0, 30.0], [-4.0, 90.0, 4.0, 0.0],
                             [5.0, 96.0, 2.0, 18.0]]),
              torch.tensor([20.0, 4.0, 10.0]))
    # dry fuel then a humid calm day: FFMC wetting branch (mo < ew); then an in-between day
    # (ew <= mo <= ed, m = mo); DMC 33 < dmc <= 65 rain branch
    humid = (_make_weather([[27.0, 25.0, 15.0, 0.0], [16.0, 92.0, 2.0, 0.0], [20.0, 60.0, 10.0, 0.0],
                            [22.0, 40.0, 12.0, 3.0]]),
             torch.tensor([94.0, 45.0, 200.0]))
    # minimum length (2 days)
    short = (_make_weather([[24.0, 35.0, 18.0, 0.0], [26.0, 30.0, 22.0, 0.0]]),
             torch.tensor([85.0, 6.0, 15.0]))
    # long season of 60 days (loop many times)
    g = torch.Generator().manual_seed(7)
    n = 60
    t = 15.0 + 15.0 * torch.rand(n, generator=g)
    h = 20.0 + 60.0 * torch.rand(n, generator=g)
    w = 2.0 + 30.0 * torch.rand(n, generator=g)
    r = torch.where(torch.rand(n, generator=g) < 0.2, 1.0 + 15.0 * torch.rand(n, generator=g), torch.zeros(n))
    long = (torch.stack([t, h, w, r], 1), torch.tensor([87.0, 20.0, 150.0]))
    return [ex, drought, soaked, humid, short, long]
