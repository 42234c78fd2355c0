"""Script-aware language identification router.

A multilingual text pipeline first identifies the writing system of a snippet
(from Unicode code-point ranges) and then sends the pooled character
embeddings to a script-specific language-ID head (all heads score the same label set): CJK, Cyrillic/Arabic, or
Latin. Long snippets are pooled with a strided convolution, short ones with a
plain mean. Shared layers run over an nn.ModuleList.

Kind T. Constructs: 1 (if/elif/else on tensor reductions), 2 (branches assign
the same variable), 3 (`or` of tensor predicates), 7 (pooling helper with its
own size branch), 8 (branch on the snippet length, a dynamic dim), 9 (loop
over nn.ModuleList, nn.ModuleDict lookup by a Python string).
"""
import torch
import torch.nn as nn

LANGUAGES = ["zh", "ja", "ko", "ru", "uk", "ar", "fa", "en", "fr", "de", "es", "it", "pt"]


def script_fraction(codes, lo, hi):
    return ((codes >= lo) & (codes <= hi)).float().mean()


def pool_characters(emb, conv, long_text=32):
    """emb: (L, E) -> (E,)"""
    if emb.shape[0] > long_text:
        h = conv(emb.t().unsqueeze(0))  # (1, E, L')
        return torch.relu(h).mean(dim=-1).squeeze(0)
    return emb.mean(dim=0)


class ScriptRouter(nn.Module):
    def __init__(self, buckets=512, emb=32, n_shared=2):
        super().__init__()
        self.buckets = buckets
        self.embed = nn.Embedding(buckets, emb)
        self.pool_conv = nn.Conv1d(emb, emb, kernel_size=4, stride=4)
        self.shared = nn.ModuleList(nn.Sequential(nn.Linear(emb, emb), nn.GELU()) for _ in range(n_shared))
        # every head scores the shared label set LANGUAGES; each is trained on its own script
        self.heads = nn.ModuleDict({name: nn.Linear(emb, len(LANGUAGES)) for name in ("cjk", "cyr_arab", "latin")})

    def forward(self, codes):
        # codes: (L,) int64 Unicode code points
        cjk = script_fraction(codes, 0x3040, 0x9FFF) + script_fraction(codes, 0xAC00, 0xD7AF)
        cyrillic = script_fraction(codes, 0x0400, 0x04FF)
        arabic = script_fraction(codes, 0x0600, 0x06FF)

        emb = self.embed(codes % self.buckets)
        h = pool_characters(emb, self.pool_conv)
        for layer in self.shared:
            h = h + layer(h)

        if cjk > 0.5:
            script = "cjk"
        elif cyrillic > 0.3 or arabic > 0.3:
            script = "cyr_arab"
        else:
            script = "latin"
        logits = self.heads[script](h)
        return torch.log_softmax(logits, dim=-1)


def model():
    torch.manual_seed(3409)
    return ScriptRouter().eval()


def _text(s):
    return torch.tensor([ord(c) for c in s], dtype=torch.long)


def example_inputs():
    return (_text("The quick brown fox jumps over the lazy dog near the riverbank."),)


def dynamic_shapes():
    L = torch.export.Dim("chars", min=2, max=512)
    return ({0: L},)


def verify_inputs():
    return [
        example_inputs(),                                # Latin, long -> conv pooling
        (_text("Hi"),),                                  # Latin, short -> mean pooling
        (_text("今日はいい天気ですね"),),                    # CJK (ja), short
        (_text("Привет, как дела?"),),                   # Cyrillic -> second head via first `or` operand
        (_text("مرحبا بكم في المدينة القديمة الجميلة جدا اليوم"),),  # Arabic, long -> second `or` operand
        (_text("서울의 날씨는 오늘 맑고 따뜻합니다 그리고 내일도 좋겠습니다 정말로요"),),  # Korean, long
    ]
