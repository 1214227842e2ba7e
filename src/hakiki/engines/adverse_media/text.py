"""Article text as tokens, shared by the classifier and the name search.

Tokens are runs of letters and digits (apostrophes inside a word kept, so "Ng'ang'a" is one
token); each is folded the way the screening normaliser folds names (ASCII, casefolded,
apostrophes dropped). For every gap between two tokens we record whether a name may span it
(not across commas, brackets, quotes, dashes, line breaks, or a full stop after a word of
more than three letters, so "Kamau. John" and "Kamau, John" are never one name while
"Mr. John" and "J. Kamau" are) and whether a sentence ends there.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from hakiki.engines.screening.normalize import fold

_WORD = re.compile(r"[^\W_]+(?:['’`ʼ][^\W_]+)*")
_NON_ALNUM = re.compile(r"[^a-z0-9]")
_NAME_BREAK = re.compile(r"[,;:!?()\[\]{}\"“”«»/|\n\r\t–—…]|\s-\s")
_STRONG_END = re.compile(r"[!?\n]")
SHORT_WORD = 3  # a full stop after a word this short ("Mr", "Dr", "J") ends neither


@dataclass(frozen=True, slots=True)
class Tokens:
    text: str
    folded: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    capitalised: tuple[bool, ...]
    name_joins: tuple[bool, ...]  # name_joins[i]: a name may continue from token i to i + 1
    sentence: tuple[int, ...]  # sentence number of each token
    joined: str  # folded tokens joined by single spaces
    starts: tuple[int, ...]  # offset of each token in ``joined``

    def __len__(self) -> int:
        return len(self.folded)

    def token_at(self, offset: int) -> int:
        """Index of the token covering ``offset`` in ``joined``."""
        return bisect_right(self.starts, offset) - 1

    def original(self, first: int, last: int) -> str:
        """The original text from token ``first`` to token ``last`` (inclusive)."""
        return self.text[self.spans[first][0] : self.spans[last][1]]


def _fold_token(token: str) -> str:
    return _NON_ALNUM.sub("", fold(token))


def tokenize_text(text: str) -> Tokens:
    folded: list[str] = []
    spans: list[tuple[int, int]] = []
    capitalised: list[bool] = []
    for match in _WORD.finditer(text):
        token = _fold_token(match.group())
        if not token:
            continue
        folded.append(token)
        spans.append(match.span())
        first = match.group()[0]
        capitalised.append(first.isupper() or first.isdigit())
    joins: list[bool] = []
    sentence: list[int] = [0] * len(folded)
    current = 0
    for i in range(len(folded) - 1):
        gap = text[spans[i][1] : spans[i + 1][0]]
        short = spans[i][1] - spans[i][0] <= SHORT_WORD
        stop = "." in gap and not short
        joins.append(not _NAME_BREAK.search(gap) and not stop)
        if stop or _STRONG_END.search(gap):
            current += 1
        sentence[i + 1] = current
    joins.append(False)
    starts: list[int] = []
    offset = 0
    for token in folded:
        starts.append(offset)
        offset += len(token) + 1
    return Tokens(
        text=text,
        folded=tuple(folded),
        spans=tuple(spans),
        capitalised=tuple(capitalised),
        name_joins=tuple(joins),
        sentence=tuple(sentence),
        joined=" ".join(folded),
        starts=tuple(starts),
    )
