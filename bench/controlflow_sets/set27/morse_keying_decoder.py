"""Decoder for hand-keyed Morse code from a straight key.

Input is the sequence of key-down / key-up durations (seconds), starting with
key-down. Durations are measured in dot units for the configured speed:
key-down longer than two units is a dash; key-up gaps shorter than two units
separate elements, longer ones end a character, longer than five units end a
word. Characters are looked up by walking the Morse binary tree (heap
indexing); over-long garbled symbols are discarded. The decoded text is
embedded with a GRU.
"""
import torch
import torch.nn as nn

MORSE = {
    "A": ".-", "B": "-...", "C": "-.-.", "D": "-..", "E": ".", "F": "..-.", "G": "--.",
    "H": "....", "I": "..", "J": ".---", "K": "-.-", "L": ".-..", "M": "--", "N": "-.",
    "O": "---", "P": ".--.", "Q": "--.-", "R": ".-.", "S": "...", "T": "-", "U": "..-",
    "V": "...-", "W": ".--", "X": "-..-", "Y": "-.--", "Z": "--..",
}
SPACE_ID = 27
TREE_SIZE = 64


def _tree_table():
    table = torch.zeros(TREE_SIZE, dtype=torch.int64)
    for k, (letter, code) in enumerate(sorted(MORSE.items())):
        node = 1
        for sym in code:
            node = 2 * node + (1 if sym == "-" else 0)
        table[node] = ord(letter) - ord("A") + 1
    return table


class MorseKeyingDecoder(nn.Module):
    def __init__(self, wpm=20, dim=16):
        super().__init__()
        self.unit_s = 1.2 / wpm
        self.dim = dim
        self.register_buffer("table", _tree_table())
        self.register_buffer("space", torch.tensor(SPACE_ID))
        self.char_emb = nn.Embedding(SPACE_ID + 1, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)

    def forward(self, durations):
        # durations: [N] alternating key-down / key-up times in seconds
        node = 1
        chars = []
        for i in range(durations.shape[0]):
            units = durations[i] / self.unit_s
            if i % 2 == 0:
                node = 2 * node + (1 if units > 2.0 else 0)
                if node >= TREE_SIZE:
                    node = 1  # garbled symbol, drop it
                continue  # key-down handled
            if units < 2.0:
                continue  # gap inside a character
            chars.append(self.table[node])  # character complete
            node = 1
            if units > 5.0:
                chars.append(self.space)
        if node > 1:
            chars.append(self.table[node])  # last character, no final gap
        if len(chars) == 0:
            return torch.zeros(0, dtype=torch.int64), torch.zeros(self.dim)
        ids = torch.stack(chars)
        _, h = self.gru(self.char_emb(ids).unsqueeze(0))
        return ids, h[0, 0]


def model():
    torch.manual_seed(0)
    return MorseKeyingDecoder().eval()


def _keyed(text, seed, jitter=0.2, unit_s=0.06):
    """Durations for `text` ('#' stands for a garbled over-long symbol)."""
    g = torch.Generator().manual_seed(seed)
    units = []
    words = text.split(" ")
    for w, word in enumerate(words):
        for c, ch in enumerate(word):
            code = "......" if ch == "#" else MORSE[ch]
            for s, sym in enumerate(code):
                units.append(3.0 if sym == "-" else 1.0)
                last_in_char = s == len(code) - 1
                if not last_in_char:
                    units.append(1.0)
                elif c < len(word) - 1:
                    units.append(3.0)
                elif w < len(words) - 1:
                    units.append(7.0)
    units = torch.tensor(units)
    scale = 1.0 + jitter * (2.0 * torch.rand(units.shape[0], generator=g) - 1.0)
    return (units * scale * unit_s,)


def example_inputs():
    return _keyed("SOS", 0)


def dynamic_shapes():
    N = torch.export.Dim("key_events", min=2, max=1024)
    return ({0: N},)


def verify_inputs():
    return [
        _keyed("CQ DE K", 1),    # words and spaces, trailing character without a final gap
        _keyed("HI #T", 2),      # a garbled symbol in the middle decodes as unknown (0)
        _keyed("#", 3),          # only garbage
        _keyed("TE", 4),         # two characters, no word gap
    ]
