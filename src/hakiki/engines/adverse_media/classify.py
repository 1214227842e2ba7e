"""Classify an article into adverse-media categories with a transparent lexicon.

Categories (a closed set, :class:`AdverseCategory`) follow the predicate-offence families of
the FATF Recommendations (glossary, "designated categories of offences") that matter for
customer due diligence, plus ``regulatory_action`` for fines, licence revocations and
debarments by a regulator:

``fraud``, ``corruption``, ``money_laundering``, ``terrorism``, ``sanctions_evasion``,
``organised_crime``, ``drug_trafficking``, ``human_trafficking``, ``tax_evasion``,
``cybercrime``, ``violent_crime``, ``regulatory_action``.

The lexicon (:data:`LEXICON`) is a list of English and Swahili phrases, each with a weight:

* 1.0 (strong): the phrase names the offence ("money laundering", "embezzlement",
  "ufisadi");
* 0.6 (medium): usually adverse but broader ("scam", "cartel", "fined"), or the name of an
  agency whose involvement implies the offence (EACC, ICPC, PCCB/TAKUKURU, NDLEA, NAPTIP).

Words that are adverse only in context ("sanctioned" also means "approved", "penalty" is also
a football term) are left out on purpose.

English terms are the charge wording used in court and agency reporting in Kenya (Anti-
Corruption and Economic Crimes Act 2003, Proceeds of Crime and Anti-Money Laundering Act
2009), Nigeria (EFCC Act 2004: "obtaining by false pretences", "advance fee fraud"), Uganda
and Tanzania. Swahili terms are those East African newspapers (Taifa Leo, Mwananchi,
Habari Leo) and agencies use: "ufisadi" (corruption, grand graft), "rushwa" and "hongo"
(bribery), "utakatishaji (wa) fedha (haramu)" (money laundering, the term of Tanzania's
Anti-Money Laundering Act translations), "ugaidi" (terrorism), "dawa za kulevya" and
"mihadarati" (narcotics), "usafirishaji haramu wa binadamu" (human trafficking), "ukwepaji
kodi" (tax evasion), "udanganyifu"/"ulaghai"/"utapeli" (fraud, swindling), "kughushi"
(forgery), "mauaji" (killings), "utekaji nyara" (kidnapping), "ujambazi" (armed robbery),
"uhalifu wa mtandaoni" (online crime), "kufutiwa leseni" (licence revoked).

Phrase syntax, matched on folded (ASCII, lowercase) words: words separated by spaces;
``word*`` any word starting with ``word``; ``*word`` any word ending with it; ``?`` any one
word. Longer phrases win over shorter ones at the same place, and one stretch of text
counts once.

Negation, deliberately simple: a term is *negated* when, in the same sentence, an
exoneration cue (:data:`NEGATION_CUES`: "acquitted", "cleared of", "charges were dropped",
"aliachiliwa huru", "hana hatia"...) comes at most 8 words before it or 6 words after it.
A negated term counts a quarter of its weight and is reported in ``negated_terms`` with the
cues. "Pleaded not guilty" is not a cue: every arraignment reports the plea.

A category's weight is ``1 - prod(1 - w)`` over its distinct matched terms (each term at its
best occurrence), so more independent evidence raises it towards 1.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from hakiki.engines.adverse_media.text import Tokens, tokenize_text

STRONG = 1.0
MEDIUM = 0.6
NEGATION_FACTOR = 0.25
NEGATION_BEFORE = 8  # words between a cue and a term after it
NEGATION_AFTER = 6  # words between a term and a cue after it


class AdverseCategory(StrEnum):
    FRAUD = "fraud"
    CORRUPTION = "corruption"
    MONEY_LAUNDERING = "money_laundering"
    TERRORISM = "terrorism"
    SANCTIONS_EVASION = "sanctions_evasion"
    ORGANISED_CRIME = "organised_crime"
    DRUG_TRAFFICKING = "drug_trafficking"
    HUMAN_TRAFFICKING = "human_trafficking"
    TAX_EVASION = "tax_evasion"
    CYBERCRIME = "cybercrime"
    VIOLENT_CRIME = "violent_crime"
    REGULATORY_ACTION = "regulatory_action"


_C = AdverseCategory
# (category, language, weight): phrases separated by ";".
_LEXICON_TEXT: dict[tuple[AdverseCategory, str, float], str] = {
    (_C.FRAUD, "en", STRONG): """fraud; frauds; fraudulent*; fraudster*; defraud*; embezzl*;
        misappropriat*; obtaining by false pretence*; obtaining money by false pretence*;
        false pretences; advance fee fraud; ponzi*; pyramid scheme*; forgery; forged;
        forging; uttering false document*; swindl*; con artist*; conman; conmen;
        identity theft; cheque fraud; insurance fraud; bank fraud; securities fraud""",
    (_C.FRAUD, "en", MEDIUM): """scam; scams; scammer*; fake gold; stealing by servant;
        theft of public funds; stolen funds; fictitious; ghost workers; efcc;
        economic and financial crimes commission""",
    (_C.FRAUD, "sw", STRONG): """udanganyifu; ulaghai; walaghai; mlaghai; utapeli; matapeli;
        tapeli; kughushi; kugushi; wizi wa fedha; ubadhirifu; ubadhirifu wa fedha""",
    (_C.CORRUPTION, "en", STRONG): """corruption; corrupt; corruptly; bribe; bribes; bribed;
        bribery; bribing; kickback*; graft; abuse of office; abuse of power;
        unexplained wealth; influence peddling;
        anti corruption court; anti graft; procurement irregularit*; inflated tender*;
        tender fraud; public funds loss; loss of public funds""",
    (_C.CORRUPTION, "en", MEDIUM): """eacc; ethics and anti corruption commission; icpc;
        pccb; inspectorate of government; inspector general of government; irregular*
        award*; irregularly; lifestyle audit; conflict of interest""",
    (_C.CORRUPTION, "sw", STRONG): """ufisadi; fisadi; mafisadi; rushwa; hongo;
        matumizi mabaya ya ofisi; matumizi mabaya ya madaraka; kitu kidogo""",
    (_C.CORRUPTION, "sw", MEDIUM): "takukuru",
    (_C.MONEY_LAUNDERING, "en", STRONG): """money laundering; money launderer*; launder*;
        proceeds of crime; laundered funds; illicit financial flows; illicit funds""",
    (_C.MONEY_LAUNDERING, "en", MEDIUM): """pocamla; assets recovery agency; asset recovery
        agency; financial reporting centre; nfiu; forfeiture; forfeited; frozen accounts;
        freezing order*; shell compan*""",
    (_C.MONEY_LAUNDERING, "sw", STRONG): """utakatishaji; utakatishaji fedha; utakatishaji wa
        fedha; *takatisha fedha; *takatisha fedha haramu; fedha haramu""",
    (_C.TERRORISM, "en", STRONG): """terrorism; terrorist*; terror financing;
        financing of terrorism; terror suspect*; terror attack*; al shabaab; al shabab;
        alshabaab; boko haram; iswap; islamic state; allied democratic forces""",
    (_C.TERRORISM, "en", MEDIUM): "extremis*; radicalis*; radicaliz*; jihadi*",
    (_C.TERRORISM, "sw", STRONG): "ugaidi; gaidi; magaidi; ufadhili wa ugaidi",
    (_C.SANCTIONS_EVASION, "en", STRONG): """sanctions evasion; evad* sanctions;
        sanctions busting; sanctions violation*; violat* sanctions; breach* of sanctions;
        sanctions breach*; circumvent* sanctions""",
    (_C.SANCTIONS_EVASION, "en", MEDIUM): """ofac; specially designated national*;
        asset freeze; assets freeze; blacklisted by ? treasury""",
    (_C.SANCTIONS_EVASION, "sw", STRONG): "kukwepa vikwazo; kukiuka vikwazo",
    (_C.SANCTIONS_EVASION, "sw", MEDIUM): "vikwazo",
    (_C.ORGANISED_CRIME, "en", STRONG): """organised crime; organized crime;
        organised criminal group*; organized criminal group*; criminal gang*;
        criminal syndicate*; crime syndicate*; racketeering; mafia; extortion; extort*;
        mungiki; cult member*""",
    (_C.ORGANISED_CRIME, "en", MEDIUM): "syndicate; cartel; cartels; gang leader*; smuggling",
    (_C.ORGANISED_CRIME, "sw", STRONG): """uhalifu wa kupangwa; genge la uhalifu;
        magenge ya uhalifu; magendo""",
    (_C.DRUG_TRAFFICKING, "en", STRONG): """drug trafficking; drug trafficker*;
        trafficking in narcotic*; narcotics trafficking; narcotic drugs; drug baron*;
        drug lord*; drug dealer*; drug smuggling; heroin; cocaine; methamphetamine""",
    (_C.DRUG_TRAFFICKING, "en", MEDIUM): "narcotic*; ndlea; dcea; bhang; cannabis sativa",
    (_C.DRUG_TRAFFICKING, "sw", STRONG): """dawa za kulevya; mihadarati;
        biashara ya dawa za kulevya; usafirishaji wa dawa za kulevya""",
    (_C.HUMAN_TRAFFICKING, "en", STRONG): """human trafficking; trafficking in persons;
        human trafficker*; people smuggling; human smuggling; migrant smuggling;
        sex trafficking; child trafficking; forced labour; forced labor; modern slavery""",
    (_C.HUMAN_TRAFFICKING, "en", MEDIUM): "naptip; counter trafficking",
    (_C.HUMAN_TRAFFICKING, "sw", STRONG): """usafirishaji haramu wa binadamu;
        biashara ya binadamu; biashara haramu ya binadamu""",
    (_C.TAX_EVASION, "en", STRONG): """tax evasion; evad* tax*; evasion of tax*; tax fraud;
        tax dodg*; tax cheat*; under declar* tax*; false tax return*""",
    (_C.TAX_EVASION, "en", MEDIUM): "unpaid tax*; tax arrears; tax avoidance",
    (_C.TAX_EVASION, "sw", STRONG): "ukwepaji kodi; ukwepaji wa kodi; kukwepa kodi",
    (_C.CYBERCRIME, "en", STRONG): """cybercrime*; cyber crime*; cyber fraud; internet fraud;
        online fraud; phishing; ransomware; sim swap*; business email compromise;
        yahoo boys; computer misuse; hacking; hacked; hacker; hackers""",
    (_C.CYBERCRIME, "sw", STRONG): """uhalifu wa mtandaoni; uhalifu wa kimtandao;
        wizi wa mtandaoni""",
    (_C.VIOLENT_CRIME, "en", STRONG): """murder*; homicide; manslaughter; kidnap*; abduct*;
        armed robbery; robbery with violence; rape; raped; assault*; attempted murder;
        banditry""",
    (_C.VIOLENT_CRIME, "sw", STRONG): """mauaji; kuua; utekaji nyara; utekaji; ujambazi;
        majambazi; ubakaji""",
    (_C.REGULATORY_ACTION, "en", STRONG): """licence revoked; license revoked;
        revoked ? licence; revoked ? license; revoked the licence; revoked the license;
        revocation of ? licence; revocation of ? license; licence suspended;
        license suspended; debarred; debarment; barred from; enforcement action;
        disqualified from; cease and desist; censured; deregistered; penalised; penalized""",
    (_C.REGULATORY_ACTION, "en", MEDIUM): "fined; sanctions imposed",
    (_C.REGULATORY_ACTION, "sw", STRONG): """kufutiwa leseni; *futiwa leseni;
        kusimamishwa leseni; *simamishiwa leseni""",
    (_C.REGULATORY_ACTION, "sw", MEDIUM): "faini; adhabu",
}


def _phrases(text: str) -> tuple[str, ...]:
    """Phrases of a ";"-separated list, whitespace collapsed."""
    return tuple(p for p in (" ".join(raw.split()) for raw in text.split(";")) if p)


NEGATION_CUES: tuple[str, ...] = _phrases(
    """acquit*; cleared of; cleared ? of; cleared ? ? of; clears ? of; clears ? ? of;
    clears ? ? ? of; exonerat*; absolved;
    vindicated; found not guilty; not guilty of; declared innocent; no case to answer;
    no evidence; quashed; quash; overturned; charges ? dropped; charges ? ? dropped;
    dropped ? charges; dropped the charges; dropped all charges; charges ? withdrawn;
    charges ? ? withdrawn; withdrew ? charges; withdrew the charges; withdrew all charges;
    charges ? dismissed; charges ? ? dismissed; dismissed ? charges; dismissed the case;
    case ? dismissed; were dropped; was dropped; been dropped;
    were withdrawn; was withdrawn; been withdrawn; were dismissed; falsely accused; wrongly accused;
    *achiliwa huru; hana hatia; hawana hatia; hakuwa na hatia; hakupatikana na hatia;
    *futiwa mashtaka; *ondolewa mashtaka; kuondolewa mashtaka"""
)


@dataclass(frozen=True, slots=True)
class Term:
    phrase: str
    category: AdverseCategory
    weight: float
    language: str  # "en" or "sw"


def _build_lexicon() -> tuple[Term, ...]:
    terms: list[Term] = []
    for (category, language, weight), text in _LEXICON_TEXT.items():
        terms.extend(Term(p, category, weight, language) for p in _phrases(text))
    return tuple(terms)


LEXICON: tuple[Term, ...] = _build_lexicon()


def _word_regex(word: str) -> str:
    if word == "?":
        return "[a-z0-9]+"
    core = re.escape(word.strip("*"))
    head = "[a-z0-9]*" if word.startswith("*") else ""
    tail = "[a-z0-9]*" if word.endswith("*") and len(word) > 1 else ""
    return head + core + tail


def _compile(phrases: Sequence[str]) -> re.Pattern[str]:
    order = sorted(range(len(phrases)), key=lambda i: (-len(phrases[i].split()), -len(phrases[i])))
    alternatives = [
        f"(?P<t{i}>{' '.join(_word_regex(w) for w in phrases[i].split())})" for i in order
    ]
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(alternatives) + r")(?![a-z0-9])")


# Compiled at the first article (a tenth of a second of CPU), not with every process's imports.


@cache
def _term_regex() -> re.Pattern[str]:
    return _compile([t.phrase for t in LEXICON])


@cache
def _cue_regex() -> re.Pattern[str]:
    return _compile(NEGATION_CUES)


@dataclass(frozen=True, slots=True)
class TermOccurrence:
    term: Term
    text: str  # the folded words matched
    first: int  # token indices (inclusive)
    last: int
    negation_cue: str | None  # the folded cue words, when negated

    @property
    def weight(self) -> float:
        return self.term.weight * (NEGATION_FACTOR if self.negation_cue else 1.0)


@dataclass(frozen=True, slots=True)
class CategoryMatch:
    """One category an article falls in, with the evidence.

    ``terms``: the matched words (folded), first occurrence first; ``negated_terms``: those
    only found next to an exoneration cue; ``cues``: those cues; ``weight`` in 0..1.
    """

    category: AdverseCategory
    terms: tuple[str, ...]
    weight: float
    negated_terms: tuple[str, ...] = ()
    cues: tuple[str, ...] = ()

    @property
    def negated(self) -> bool:
        """Every term was negated."""
        return bool(self.negated_terms) and len(self.negated_terms) == len(self.terms)

    def to_dict(self) -> dict[str, Any]:
        return {
            "category": self.category.value,
            "terms": list(self.terms),
            "weight": self.weight,
            "negated_terms": list(self.negated_terms),
            "cues": list(self.cues),
        }


def _matches(pattern: re.Pattern[str], tokens: Tokens) -> list[tuple[int, str, int, int]]:
    found = []
    for match in pattern.finditer(tokens.joined):
        index = int((match.lastgroup or "t0")[1:])
        first = tokens.token_at(match.start())
        last = tokens.token_at(match.end() - 1)
        found.append((index, match.group(), first, last))
    return found


def find_terms(tokens: Tokens) -> list[TermOccurrence]:
    """Every lexicon term in the text, in text order, each marked negated or not."""
    cues = [(text, first, last) for _, text, first, last in _matches(_cue_regex(), tokens)]
    sentence = tokens.sentence
    occurrences: list[TermOccurrence] = []
    for index, text, first, last in _matches(_term_regex(), tokens):
        cue_found: str | None = None
        for cue, c_first, c_last in cues:
            if sentence[c_first] != sentence[first]:
                continue
            before = c_last < first and first - c_last - 1 <= NEGATION_BEFORE
            after = c_first > last and c_first - last - 1 <= NEGATION_AFTER
            if before or after:
                cue_found = cue
                break
        occurrences.append(TermOccurrence(LEXICON[index], text, first, last, cue_found))
    return occurrences


def summarise(occurrences: Iterable[TermOccurrence]) -> tuple[CategoryMatch, ...]:
    """Per-category evidence and weight, strongest category first (ties in enum order)."""
    by_category: dict[AdverseCategory, list[TermOccurrence]] = {}
    for occurrence in occurrences:
        by_category.setdefault(occurrence.term.category, []).append(occurrence)
    results: list[CategoryMatch] = []
    for category, items in by_category.items():
        best: dict[str, float] = {}
        plain: set[str] = set()
        cues: dict[str, None] = {}
        for item in items:
            best[item.text] = max(best.get(item.text, 0.0), item.weight)
            if item.negation_cue:
                cues[item.negation_cue] = None
            else:
                plain.add(item.text)
        remaining = 1.0
        for weight in best.values():
            remaining *= 1.0 - weight
        terms = tuple(best)
        results.append(
            CategoryMatch(
                category=category,
                terms=terms,
                weight=round(1.0 - remaining, 4),
                negated_terms=tuple(t for t in terms if t not in plain),
                cues=tuple(cues),
            )
        )
    order = list(AdverseCategory)
    results.sort(key=lambda m: (-m.weight, order.index(m.category)))
    return tuple(results)


def classify_text(text: str) -> tuple[CategoryMatch, ...]:
    """Adverse categories of a text (put the title first), strongest first."""
    return summarise(find_terms(tokenize_text(text)))


def article_text(title: str, text: str) -> str:
    """What is classified and searched for an article: its title, a line break, its text."""
    return f"{title}\n{text}" if text else title
