"""Parser for a framed UART telemetry capture.

Frames look like [0x7E, LEN, payload (LEN bytes), CHECKSUM] where CHECKSUM is
the payload sum modulo 256. The parser hunts for the sync byte, validates
length and checksum (resynchronizing one byte later on failure), stops when a
frame is cut off by the end of the capture, and embeds each valid payload
weighted by the inter-byte timing (long gaps hint at line noise).
"""
import torch
import torch.nn as nn

SYNC = 0x7E


class UartFrameParser(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.dim = dim
        self.byte_emb = nn.Embedding(256, dim)
        self.proj = nn.Linear(dim, dim)

    def embed(self, payload, gaps_ms):
        weights = torch.softmax(-gaps_ms / 2.0, dim=0)
        return self.proj((self.byte_emb(payload) * weights[:, None]).sum(0))

    def forward(self, stream, gaps_ms):
        # stream: [L] int64 bytes, gaps_ms: [L] float time since previous byte
        n = stream.shape[0]
        frames = []
        lengths = []
        i = 0
        while i < n:
            if stream[i] != SYNC:
                i += 1
                continue  # hunting for the sync byte
            if i + 1 >= n:
                break  # capture ends right after the sync byte
            length = int(stream[i + 1].item())
            end = i + 2 + length
            if end >= n:
                break  # frame cut off by the end of the capture
            payload = stream[i + 2:end]
            if length == 0 or payload.sum() % 256 != stream[end]:
                i += 1  # false sync or corrupted frame: resync
                continue
            frames.append(self.embed(payload, gaps_ms[i + 2:end]))
            lengths.append(stream[i + 1])
            i = end + 1
        if len(frames) == 0:
            return torch.zeros(0, self.dim), torch.zeros(0, dtype=torch.int64)
        return torch.stack(frames), torch.stack(lengths)


def model():
    torch.manual_seed(0)
    return UartFrameParser().eval()


def _frame(payload, corrupt=False):
    chk = sum(payload) % 256
    if corrupt:
        chk = (chk + 1) % 256
    return [SYNC, len(payload)] + list(payload) + [chk]


def _capture(parts, seed):
    g = torch.Generator().manual_seed(seed)
    stream = torch.tensor([b for part in parts for b in part], dtype=torch.int64)
    gaps = 0.1 + 0.2 * torch.rand(stream.shape[0], generator=g)
    gaps[torch.rand(stream.shape[0], generator=g) < 0.1] += 3.0
    return stream, gaps


def example_inputs():
    return _capture([[1, 2], _frame([10, 20, 30]), _frame([200, 100])], 0)


def dynamic_shapes():
    L = torch.export.Dim("capture_len", min=2, max=1024)
    return ({0: L}, {0: L})


def verify_inputs():
    return [
        # line noise, two good frames, a corrupted one, a good one, trailing noise
        _capture([[3, 250, 9], _frame([1, 2, 3, 4]), _frame([77, 180]),
                  _frame([5, 6, 7], corrupt=True), _frame([255, 255, 255, 17]), [0, 1]], 1),
        # a zero-length frame (false sync), then a frame cut off by the capture end
        _capture([[SYNC, 0, 4], _frame([40, 41]), [SYNC, 5, 1, 2]], 2),
        # the capture ends right after a sync byte
        _capture([_frame([9, 9, 9]), [12, SYNC]], 3),
        # only noise
        _capture([[1, 2, 3, 4, 5, 6]], 4),
    ]
