"""Farm management: plan crop rotations for several fields over several seasons.

Each field has soil N/P/K levels (0..10).  For every season and field the
planner walks the crops in market-price order and takes the first one that is
not a repeat of last season's crop, whose nutrient demand the soil can meet,
and whose expected yield score (a small learned yield model plus a climate-fit
term for the season's forecast) is acceptable; otherwise the field lies
fallow.  The soil is updated with the crop's uptake (legumes fix nitrogen) and
the natural recovery.
"""
import torch
import torch.nn as nn

FALLOW, CORN, SOY, WHEAT, CLOVER = range(5)


class CropRotationPlanner(nn.Module):
    def __init__(self, min_score=0.0):
        super().__init__()
        self.min_score = min_score
        self.priority = [CORN, SOY, WHEAT, CLOVER]
        self.yield_net = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1))
        self.register_buffer("demand", torch.tensor([
            [0.0, 0.0, 0.0],      # fallow
            [4.0, 1.5, 2.0],      # corn
            [-1.0, 1.0, 1.5],     # soybean (fixes N)
            [3.0, 1.0, 1.0],      # wheat
            [-2.0, 0.5, 0.5],     # clover (fixes N)
        ]))
        self.register_buffer("recovery", torch.tensor([0.6, 0.3, 0.3]))
        # how each crop responds to [rain index, temperature index]
        self.register_buffer("climate_fit", torch.tensor([
            [0.0, 0.0], [1.0, 1.0], [0.8, 0.6], [-0.3, -0.8], [0.5, -0.5]]))

    def crop_scores(self, soil, weather):
        inp = torch.cat([(soil / 10.0).expand(5, 3), weather.expand(5, 2), torch.eye(5)], dim=1)
        return self.yield_net(inp).squeeze(-1) + self.climate_fit @ weather

    def choose(self, soil, last, weather):
        scores = self.crop_scores(soil, weather)
        for c in self.priority:
            if last == c:
                continue
            if (soil < self.demand[c]).any():
                continue
            if scores[c] < self.min_score:
                continue
            return c
        return FALLOW

    def forward(self, soil, history, weather):
        soil = soil.clone()
        last = history.clone()
        plan = []
        for s in range(weather.shape[0]):
            season = []
            for f in range(soil.shape[0]):
                c = self.choose(soil[f], last[f], weather[s])
                soil[f] = (soil[f] - self.demand[c] + self.recovery).clamp(0.0, 10.0)
                last[f] = c
                season.append(torch.tensor(c))
            plan.append(torch.stack(season))
        return torch.stack(plan), soil


def model():
    torch.manual_seed(1505)
    return CropRotationPlanner().eval()


def example_inputs():
    soil = torch.tensor([[7.2, 4.1, 5.3], [2.2, 3.1, 3.7], [5.6, 0.7, 4.4]])
    history = torch.tensor([CORN, WHEAT, SOY])
    weather = torch.tensor([[0.6, 0.7], [-0.4, 0.2], [0.3, -0.6], [0.8, 0.9]])
    return soil, history, weather


def dynamic_shapes():
    fields = torch.export.Dim("fields", min=2, max=32)
    seasons = torch.export.Dim("seasons", min=2, max=10)
    return ({0: fields}, {0: fields}, {0: seasons})


def verify_inputs():
    g = torch.Generator().manual_seed(21)
    soil = (torch.rand(12, 3, generator=g) * 9.0 + 0.55).round(decimals=1) + 0.05
    history = torch.randint(0, 5, (12,), generator=g)
    weather = (torch.rand(6, 2, generator=g) * 2 - 1).round(decimals=2)
    return [
        # example: repeats skipped, a nutrient-poor field, and a dry (negative rain index)
        # season in which crops are rejected by their yield score
        example_inputs(),
        # rich soil, warm wet seasons: corn first, then rotation away from corn
        (torch.tensor([[9.1, 8.2, 8.3], [8.7, 7.9, 9.2]]), torch.tensor([SOY, FALLOW]),
         torch.tensor([[0.9, 0.8], [0.7, 0.9]])),
        # exhausted soil (P and K too low for everything) -> fallow, then recovery
        (torch.tensor([[1.1, 0.2, 0.1], [0.4, 0.35, 0.12]]), torch.tensor([CORN, CLOVER]),
         torch.tensor([[0.1, 0.1], [0.2, -0.1], [0.0, 0.3]])),
        # 12 fields x 6 seasons, random soils and forecasts
        (soil, history, weather),
    ]
