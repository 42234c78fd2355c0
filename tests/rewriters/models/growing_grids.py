"""A `while` bounded by a step counter whose carried tensors grow by a data-dependent amount each
iteration (set68 adaptive_grid_shock_refiner, reduced): a 1-d mesh refined where the jump between
neighbours exceeds a tolerance, a midpoint inserted into each flagged cell, after a size branch
that halves fine inputs. The values are carried in buffers with room for the growth the sizes'
ranges allow over the loop's most iterations (shrinking_loop.growing_room). A point budget's
`break` puts the midpoints in the break guard's cond, whose frame knows the size branch's size
from its range in the program (foreign_symbols._program_ranges)."""

import torch
import torch.nn.functional as F
from torch import nn

from tests.rewriters.models.case import Case, seeded


def _midpoints(u, flags):
    """Inside the loop's body a cond's branches read ``u[1:]`` and ``u[:-1]`` of the carried ``u``,
    whose size the size branch left unbacked: the cond's frame knows them equal only from that
    size's range in the program (``>= 4``), foreign_symbols._program_ranges."""
    lin = 0.5 * (u[:-1] + u[1:])
    jump = (u[1:] - u[:-1]).abs()
    if (jump[flags] > 0.5).all():
        return lin[flags]
    left = torch.cat([u[:1], u[:-2]])
    right = torch.cat([u[2:], u[-1:]])
    curvature = torch.stack([left, u[:-1], u[1:], right], dim=-1).diff(dim=-1).abs().sum(-1)
    return torch.where(jump > 0.5, lin, lin + 0.01 * curvature)[flags]


class RefinedMesh(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Linear(1, 1)

    def forward(self, u, tol):
        if 2 * u.shape[0] > 64:
            u = F.avg_pool1d(u.view(1, 1, -1), 2).view(-1)
        x = torch.linspace(0.0, 1.0, u.shape[0])
        level = 0
        counts = []
        flags = (u[1:] - u[:-1]).abs() > tol
        while flags.any() and level < 3:
            if x.shape[0] + int(flags.sum()) > 60:
                break  # the point budget: the midpoints below run in the break guard's cond
            xm = (0.5 * (x[:-1] + x[1:]))[flags]
            um = _midpoints(u, flags)
            order = torch.argsort(torch.cat([x, xm]))
            x = torch.cat([x, xm])[order]
            u = torch.cat([u, um])[order]
            counts.append(flags.sum())
            level += 1
            flags = (u[1:] - u[:-1]).abs() > tol
        weight = torch.sigmoid(self.scale(u.unsqueeze(-1))).squeeze(-1)
        return x, u * weight, torch.stack(counts) if counts else torch.zeros(0, dtype=torch.long)


def _step(n, at, tol):
    x = torch.linspace(0.0, 1.0, n)
    return torch.where(x < at, torch.ones(n), torch.zeros(n)) + 0.01 * torch.sin(9.0 * x), torch.tensor(tol)


CASES = [
    Case(
        "a_mesh_refined_by_midpoints_a_data_dependent_number_per_iteration_within_a_step_bound",
        seeded(RefinedMesh),
        _step(20, 0.43, 0.1),  # refined at each of the 3 levels
        [
            _step(12, 0.5, 2.0),  # nothing flagged: no refinement
            _step(50, 0.31, 0.1),  # halved first, then refined
            _step(16, 0.7, 0.3),  # refined until nothing is flagged
        ],
        ({0: torch.export.Dim("cells", min=8, max=128)}, None),
        constructs=("while->while_loop",),
    ),
]
