"""Arcade Pong CPU player: simulate the ball (with wall bounces) to the paddle line and
move the paddle towards the predicted intercept with a learned aim offset."""
import torch
import torch.nn as nn


class PongInterceptPredictor(nn.Module):
    def __init__(self, paddle_x=1.0, height=0.6, max_steps=200, max_speed=0.08):
        super().__init__()
        self.paddle_x = paddle_x
        self.height = height
        self.max_steps = max_steps
        self.max_speed = max_speed
        self.aim = nn.Linear(4, 1)

    def forward(self, ball, paddle_y):
        x, y, vx, vy = ball.unbind(0)
        if vx <= 0:
            return paddle_y, torch.zeros(())
        steps = 0
        while x < self.paddle_x and steps < self.max_steps:
            x = x + vx
            y = y + vy
            if y < 0 or y > self.height:
                vy = -vy
                y = -y if y < 0 else 2 * self.height - y
            steps += 1
        target = y + 0.05 * torch.tanh(self.aim(ball)).squeeze(-1)
        move = (target - paddle_y).clamp(-self.max_speed, self.max_speed)
        return target, move


def model():
    torch.manual_seed(0)
    return PongInterceptPredictor().eval()


def example_inputs():
    # ball x, y, vx, vy (per frame); paddle centre y
    return (torch.tensor([0.13, 0.31, 0.05, 0.047]), torch.tensor(0.25))


def verify_inputs():
    return [
        (torch.tensor([0.52, 0.20, -0.04, 0.01]), torch.tensor(0.30)),   # moving away
        (torch.tensor([1.04, 0.40, 0.03, 0.02]), torch.tensor(0.41)),    # already past the paddle
        (torch.tensor([0.31, 0.12, 0.062, -0.053]), torch.tensor(0.05)),  # bounce off the bottom
    ]
