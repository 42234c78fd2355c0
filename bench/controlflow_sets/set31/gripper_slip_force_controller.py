"""Robot gripper grasp-force controller driven by fingertip tactile sensors.

Each fingertip pad has 6 normal-force and 6 shear taxels.  A slip index
(shear/normal ratio, corrected by a learned micro-vibration detector when the
window is long enough) is compared with the friction coefficient.  While the
object slips the controller squeezes harder (up to a few re-grasps); if that
cannot make the grasp safe it asks for a controlled set-down.  Very stable
grasps are relaxed a little to avoid crushing the object.
"""
import torch
import torch.nn as nn


class SlipDetector(nn.Module):
    def __init__(self, min_frames=8):
        super().__init__()
        self.min_frames = min_frames
        self.temporal = nn.Conv1d(12, 4, kernel_size=5)
        self.head = nn.Linear(4, 1)

    def forward(self, tactile):
        # tactile: [T, 12] -> scalar slip index
        normal = tactile[:, :6].sum(-1)
        shear = tactile[:, 6:].abs().sum(-1)
        slip = (shear / normal.clamp(min=1e-3)).max()
        if tactile.shape[0] >= self.min_frames:
            # micro-vibrations that precede macro slip, learned from the window
            h = torch.relu(self.temporal(tactile.t().unsqueeze(0))).mean(-1)
            slip = slip + 0.02 * torch.tanh(self.head(h)).reshape(())
        return slip


class GraspController(nn.Module):
    def __init__(self, mu=0.5, max_force=15.0, max_regrasp=4):
        super().__init__()
        self.mu = mu
        self.max_force = max_force
        self.max_regrasp = max_regrasp
        self.detector = SlipDetector()

    def forward(self, tactile, grip_force):
        slip = self.detector(tactile)
        if slip < 0.3 * self.mu:
            # comfortably stable: back off 10 % to save the object and the motor
            return grip_force * 0.9, torch.zeros(())
        force = grip_force
        regrasps = 0
        while slip > self.mu and regrasps < self.max_regrasp:
            force = force * 1.25
            # squeezing harder scales the normal taxels; the shear carries the load and stays
            pressed = torch.cat([tactile[:, :6] * (force / grip_force), tactile[:, 6:]], dim=1)
            slip = self.detector(pressed)
            regrasps += 1
        if force > self.max_force or slip > self.mu:
            # cannot hold it safely: clamp and request a controlled set-down
            return force.clamp(max=self.max_force), torch.ones(())
        return force, torch.zeros(())


def model():
    torch.manual_seed(17)
    return GraspController().eval()


def _make_window(frames, ratio, force, seed):
    g = torch.Generator().manual_seed(seed)
    normal = 1.0 + 0.05 * torch.rand(frames, 6, generator=g)
    wobble = 1.0 + 0.02 * torch.sin(torch.arange(frames, dtype=torch.float32))[:, None]
    shear = ratio * normal * wobble / 1.02
    return torch.cat([normal, shear], dim=1), torch.tensor(force)


def example_inputs():
    # slipping: three re-grasps make it safe
    return _make_window(16, 0.9, 6.0, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=4, max=128)}, None)


def verify_inputs():
    return [
        # while runs 3 times, grasp becomes safe, normal return
        example_inputs(),
        # very stable grasp: early relax return
        _make_window(12, 0.1, 5.0, 1),
        # short window (< 8 frames, no learned term), no slip: while runs zero times
        _make_window(6, 0.4, 5.0, 2),
        # mild slip: exactly one re-grasp
        _make_window(10, 0.6, 8.0, 3),
        # heavy slip: re-grasp budget runs out while still slipping -> set-down (slip operand)
        _make_window(20, 3.0, 4.0, 4),
        # slip fixed only after force exceeds the limit -> set-down (force operand)
        _make_window(9, 1.1, 9.0, 5),
    ]
