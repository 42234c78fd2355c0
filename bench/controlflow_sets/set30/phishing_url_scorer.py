"""Phishing URL scorer for a mail gateway (kind T).

Input: the URL as a 1-D tensor of ASCII codes (L,).  A character CNN produces a learned
score; a rule helper adds classic lexical red flags (an '@' in the URL, many sub-domains,
a raw IP host, very long URLs, no https).  Very short URLs are padded up to the CNN's
receptive field, very long ones only look at their first 128 characters.

constructs: 1 (if on tensor predicates), 2 (returns inside helper branches), 3 (or / and / not),
            7 (control flow in helper functions called from forward), 8 (branches on L)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

AT, DOT, SLASH, DASH, COLON = ord("@"), ord("."), ord("/"), ord("-"), ord(":")


def host_part(codes):
    """Characters between '://' and the next '/' (or the end)."""
    slashes = (codes == SLASH).nonzero().flatten()
    if slashes.numel() >= 3:
        return codes[slashes[1] + 1:slashes[2]]
    if slashes.numel() == 2:
        return codes[slashes[1] + 1:]
    return codes


def rule_score(codes):
    score = torch.zeros(())
    if (codes == AT).any() or (codes == DASH).sum() > 3:
        score = score + 2.0
    host = host_part(codes)
    is_digit_or_dot = ((host >= ord("0")) & (host <= ord("9"))) | (host == DOT)
    if is_digit_or_dot.all() and (host == DOT).sum() == 3:
        return score + 3.0          # raw IPv4 host: strong signal, stop here
    if (host == DOT).sum() > 3:
        score = score + 1.0         # many sub-domains
    if not (codes[:5] == torch.tensor([ord(c) for c in "https"])).all():
        score = score + 0.5
    return score


class UrlScorer(nn.Module):
    def __init__(self, vocab=128, emb=16, channels=32, kernel=7, max_len=128, long_url=75):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.conv = nn.Conv1d(emb, channels, kernel)
        self.out = nn.Linear(channels, 1)
        self.kernel = kernel
        self.max_len = max_len
        self.long_url = long_url

    def forward(self, codes):
        rules = rule_score(codes)
        if codes.shape[0] > self.long_url:
            rules = rules + 1.0
        x = codes[: self.max_len] if codes.shape[0] > self.max_len else codes
        if x.shape[0] < self.kernel:
            x = F.pad(x, (0, self.kernel - x.shape[0]))
        h = F.relu(self.conv(self.embed(x).t().unsqueeze(0))).amax(dim=2)
        return torch.sigmoid(self.out(h).squeeze() + rules - 2.0)


def model():
    torch.manual_seed(305)
    return UrlScorer().eval()


def _url(s):
    return (torch.tensor([ord(c) for c in s], dtype=torch.long),)


def example_inputs():
    return _url("http://secure-login.paypa1.com.account-verify.info/update")


def dynamic_shapes():
    return ({0: torch.export.Dim("chars", min=5, max=2048)},)


def verify_inputs():
    long_path = "https://docs.example.org/" + "/".join(f"section{i}" for i in range(12))
    return [
        example_inputs(),                       # no '@', 2 dashes; host has 4 dots -> +1; not https -> +0.5; L<=75
        _url("https://www.example.com/index.html"),   # benign: every rule branch off
        _url("http://user@192.168.10.5/login"),        # '@' -> +2; host 'user@192...' is not an IP
        _url("http://192.168.10.5/paypal/login"),      # raw IPv4 host -> early return from helper
        _url("https://a.b.c.d.e.evil.co/x-y-z-w-v"),   # >3 dashes -> +2 (via 'or' 2nd arm); >3 dots in host -> +1
        _url("ab.co"),                           # L=5 < kernel: padded; no slash -> host is whole string
        _url("http://example.net"),              # exactly two slashes -> host is tail
        _url(long_path),                         # L>128: truncated, and L>75 penalty
        _url("https://shop.example.com/products/garden/tools/pruning-shears?id=12345&ref=spring_sale_2024"),  # 75 < L <= 128: penalty, not truncated
        _url("https://1.2.3.4.5/a"),             # all digits+dots but 4 dots: IPv4 test fails on 'and', >3 dots +1
    ]
