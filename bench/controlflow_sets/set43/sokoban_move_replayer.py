"""Sokoban move replayer + value head (puzzle-game RL environment model).

Replays a recorded move sequence on a board (0 floor, 1 wall, 2 box, 3 goal,
4 box on goal), with walls and box pushes resolved exactly like the game; the
replay stops as soon as the puzzle is solved. A small CNN then scores the
final position for the RL agent. The board is padded with walls so moves never
leave the grid.
Constructs: 1, 2, 3, 5, 6, 7
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

DELTAS = ((-1, 0), (1, 0), (0, -1), (0, 1))   # up, down, left, right


class ValueHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.out = nn.Linear(8, 1)

    def forward(self, walls, boxes, goals):
        x = torch.stack([walls, boxes, goals]).float()[None]
        return torch.tanh(self.out(torch.relu(self.conv(x)).amax(dim=(2, 3))))[0, 0]


class SokobanReplayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.value = ValueHead()

    def forward(self, board, player, moves):
        walls = F.pad(board == 1, (1, 1, 1, 1), value=True)
        boxes = F.pad((board == 2) | (board == 4), (1, 1, 1, 1), value=False)
        goals = F.pad((board == 3) | (board == 4), (1, 1, 1, 1), value=False)
        r, c = player[0] + 1, player[1] + 1
        if walls[r, c] or boxes[r, c]:
            # corrupt recording: player starts inside a wall or a box
            return torch.tensor(-1.0), torch.zeros(2, dtype=torch.long), torch.zeros(2)

        pushes = torch.tensor(0)
        bumps = torch.tensor(0)
        solved = torch.tensor(False)
        for t in range(moves.shape[0]):
            dr, dc = DELTAS[int(moves[t])]
            nr, nc = r + dr, c + dc
            if walls[nr, nc]:
                bumps = bumps + 1
                continue
            if boxes[nr, nc]:
                br, bc = nr + dr, nc + dc
                if walls[br, bc] or boxes[br, bc]:
                    bumps = bumps + 1
                    continue
                boxes = boxes.clone()
                boxes[nr, nc] = False
                boxes[br, bc] = True
                pushes = pushes + 1
            r, c = nr, nc
            if not (goals & ~boxes).any():
                solved = torch.tensor(True)
                break

        value = self.value(walls, boxes, goals)
        reward = torch.where(solved, torch.tensor(10.0), value)
        return reward, torch.stack([pushes, bumps]), torch.stack([r - 1, c - 1]).float()


def model():
    torch.manual_seed(10)
    return SokobanReplayer().eval()


_LEVEL = [
    "#######",
    "#     #",
    "# $ . #",
    "#     #",
    "#  $  #",
    "#  .  #",
    "#######",
]


def _board(rows):
    code = {"#": 1, " ": 0, "$": 2, ".": 3, "*": 4}
    return torch.tensor([[code[ch] for ch in row] for row in rows])


def _moves(s):
    return torch.tensor(["UDLR".index(ch) for ch in s])


def example_inputs():
    # walk around the upper box (bumping the left wall once), push the lower box
    # onto its goal, then try to push it into the bottom wall; not solved
    return (_board(_LEVEL), torch.tensor([2, 1]), _moves("ULRRRDLDDDR"))


def dynamic_shapes():
    return ({0: torch.export.Dim("H", min=3, max=16), 1: torch.export.Dim("W", min=3, max=16)},
            None,
            {0: torch.export.Dim("n_moves", min=2, max=64)})


def verify_inputs():
    open_board = _board(["  $. ", "     ", "     "])   # no outer walls: padding supplies them
    return [
        example_inputs(),                                             # wall bump (continue), push, box blocked by wall (continue); not solved
        (_board(_LEVEL), torch.tensor([2, 1]), _moves("RRDDL")),      # both boxes pushed onto goals -> solved, break before last move
        (_board(_LEVEL), torch.tensor([0, 0]), _moves("RR")),         # player starts in a wall -> early return
        (open_board, torch.tensor([0, 1]), _moves("URRUL")),          # bump into padding wall, then solved on first push -> break
        (_board(["#####", "#$$ #", "#  .#", "#####"]), torch.tensor([1, 3]), _moves("LL")),  # box pushed into box -> blocked
    ]
