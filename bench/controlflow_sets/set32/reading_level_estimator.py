"""Reading-level (CEFR) estimator for graded-reader / textbook passages.

Kind T. Constructs: 1, 2, 5, 6.
Input is a tokenised passage (ids; 0 = padding, 1 = sentence end,
2 = comma) and the syllable count of every token.  The estimator walks the
tokens once to collect sentence lengths and syllable statistics, computes
the Flesch-Kincaid grade, and blends it with a bag-of-embeddings
difficulty classifier into logits over the levels (A1..C2).
"""
import torch
import torch.nn as nn

PAD, EOS, COMMA = 0, 1, 2


class ReadingLevelEstimator(nn.Module):
    def __init__(self, vocab=512, dim=24, levels=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.cls = nn.Linear(dim + 2, levels)
        self.register_buffer("level_grades", torch.tensor([2.0, 4.0, 6.0, 8.0, 11.0, 14.0]))

    def forward(self, tokens, syllables):
        sentence_lengths = []
        cur = torch.zeros((), dtype=torch.long)
        n_words = torch.zeros((), dtype=torch.long)
        n_syll = torch.zeros((), dtype=torch.long)
        n_poly = torch.zeros((), dtype=torch.long)
        for i in range(tokens.shape[0]):
            tok = tokens[i]
            if tok == PAD:
                break  # right-padded batch row: rest is padding
            if tok == COMMA:
                continue
            if tok == EOS:
                if cur > 0:
                    sentence_lengths.append(cur)
                cur = torch.zeros((), dtype=torch.long)
                continue
            cur = cur + 1
            n_words = n_words + 1
            n_syll = n_syll + syllables[i]
            if syllables[i] >= 3:
                n_poly = n_poly + 1
        if cur > 0:
            sentence_lengths.append(cur)  # last sentence without a full stop

        if n_words == 0:
            # empty passage: uniform logits
            return torch.zeros(self.level_grades.shape[0]), torch.zeros(())

        lengths = torch.stack(sentence_lengths).float()
        words_per_sentence = lengths.mean()
        syll_per_word = n_syll.float() / n_words.float()
        grade = 0.39 * words_per_sentence + 11.8 * syll_per_word - 15.59
        if (lengths > 25).any():
            grade = grade + 1.0  # run-on sentences are harder than the average suggests
        grade = grade.clamp(min=0.0)

        mask = (tokens > COMMA).float()
        bag = (self.emb(tokens) * mask[:, None]).sum(0) / mask.sum().clamp(min=1.0)
        extra = torch.stack([grade / 10.0, n_poly.float() / n_words.float()])
        logits = self.cls(torch.cat([bag, extra]))
        logits = logits - 0.5 * (self.level_grades - grade).abs()
        return logits, grade


def model():
    torch.manual_seed(3207)
    return ReadingLevelEstimator().eval()


def _passage(seed, sentence_lens, pad=0, commas=True, final_stop=True, long_words=0.2):
    g = torch.Generator().manual_seed(seed)
    toks, syl = [], []
    for k, n in enumerate(sentence_lens):
        for j in range(n):
            toks.append(int(torch.randint(3, 512, (1,), generator=g)))
            syl.append(3 if float(torch.rand(1, generator=g)) < long_words else 1 + int(torch.randint(0, 2, (1,), generator=g)))
            if commas and j == n // 2:
                toks.append(COMMA)
                syl.append(0)
        if final_stop or k < len(sentence_lens) - 1:
            toks.append(EOS)
            syl.append(0)
    toks += [PAD] * pad
    syl += [0] * pad
    return torch.tensor(toks), torch.tensor(syl)


def example_inputs():
    # three short sentences with commas, right-padded
    return _passage(1, [6, 9, 7], pad=4)


def dynamic_shapes():
    n = torch.export.Dim("tokens", min=2, max=256)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                                      # commas continue, EOS continue, padding break
        _passage(2, [30, 12], commas=False, long_words=0.5),   # run-on sentence (>25 words) penalty, no padding
        _passage(3, [5, 8], final_stop=False, pad=2),          # last sentence unterminated -> appended after loop
        (torch.tensor([1, 1, 7, 9, 1, 0, 0]),                  # leading empty sentences ('cur > 0' false on EOS)
         torch.tensor([0, 0, 2, 1, 0, 0, 0])),
        (torch.tensor([0, 0, 0, 0]), torch.tensor([0, 0, 0, 0])),  # empty passage -> early return
        (torch.tensor([2, 1, 0]), torch.tensor([0, 0, 0])),        # only punctuation -> no words -> early return
        _passage(4, [3], commas=False, final_stop=False, long_words=0.0),  # single 3-word fragment, no EOS at all
    ]
