"""Curated spelling variants and short forms of given names, and number words.

A small, reviewable table, not a dictionary of every name: each line is one group of spellings
of the same name; two tokens are variants when they share a group (a token may be in several
groups: "ted" is short for Theodore and for Edward). Variants score
:data:`~.similarity.VARIANT_SIMILARITY`, a little under an exact match.

Sources, kept deliberately conservative:

* Arabic-derived names: the common Latin spellings of one Arabic name as they appear side by
  side in the UN and OFAC lists' aliases (e.g. Mohamed / Muhammad / Mohammed, Hussein /
  Husayn / Hussain) and the French-influenced West African forms (Mamadou, Boubacar,
  Ibrahima) used by the same name-holders;
* Yoruba short forms: the everyday clipped forms of Oluwa-/Ola- names (Olanrewaju / Lanre,
  Oluwaseun / Seun, Babatunde / Tunde), as used in Nigerian civil registration guidance on
  "known as" names;
* Swahili spellings of Arabic-derived names, as East African civil and parliamentary records
  write them (a final vowel added, "kh" written "h", "y" for final "i": Ally / Ali, Salum /
  Salim, Hamisi / Khamis, Ramadhani / Ramadan, Shabani / Shaban, Athumani / Othman, Mussa /
  Musa);
* English hypocoristics in wide use (William / Bill, Theodore / Ted).

Single words written as two ("Abu Bakr", "Abdul Rahman") are handled by the aligner, which
tries adjacent tokens written together against this table too.
"""

from __future__ import annotations

from functools import lru_cache

_GROUPS = """
muhammad mohamed mohammed mohamad mohammad muhammed mohamud mohammod mohd muhamad
    mahamat mamadou mahamadou mouhamed mouhammed
ahmed ahmad ahmet ahmadou
mahmoud mahmud mahmood
abubakar abubakr abubakari aboubakar boubacar abubaker aboubacar abubakir
abdullah abdallah abdulla abdalla abdellah abdoulaye abdullahi
abdulrahman abdurrahman abdelrahman abderrahmane abdurahman abdirahman
abdulaziz abdelaziz abdulazeez abdiaziz
abdelkader abdulqadir abdulkadir abdelkadir abdikadir abdulkader
hussein husayn hussain husein hossein hussen husain
hassan hasan
osama usama usamah oussama
omar umar omer oumar
othman uthman osman usman ousmane athumani athuman
yusuf yousef youssef yousuf yusif yousif yussuf
ibrahim ebrahim ibrahima brahim
ismail ismael ismaila
suleiman sulaiman sulayman suleyman souleymane sulemani
khalid khaled
mustafa mostafa moustafa mustapha
said saeed saeid saiid
yahya yahaya
idris idriss idrissa
issa isa eisa
musa moussa mussa
yaqub yakub yakubu yacoub
aisha aishah aicha ayesha aysha
fatima fatuma fatimah fatma fatoumata
zainab zaynab zeinab
ali ally aly
salim salem saleem selim salum
khamis hamis hamisi khamisi
ramadan ramadhan ramadhani ramazan
shaban shabani shaaban
juma jumaa
olanrewaju lanre
oluwaseun seun
oluwatosin tosin
oluwafemi femi
babatunde tunde
adebayo bayo
olufunmilayo funmilayo funmi
william bill
robert bob rob
richard dick rick
theodore ted
edward ted
alexander sasha alexandr aleksandr
"""

_NUMBERS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fourty": 40,  # a frequent misspelling
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_ORDINAL_SUFFIXES = ("st", "nd", "rd", "th")


def _groups() -> dict[str, frozenset[int]]:
    table: dict[str, set[int]] = {}
    for number, line in enumerate(" ".join(_GROUPS.split("\n    ")).strip().splitlines()):
        for token in line.split():
            table.setdefault(token, set()).add(number)
    return {token: frozenset(ids) for token, ids in table.items()}


_TABLE = _groups()
_MEMBERS: dict[int, tuple[str, ...]] = {}
for _token, _ids in _TABLE.items():
    for _id in _ids:
        _MEMBERS[_id] = (*_MEMBERS.get(_id, ()), _token)


def are_variants(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are listed spellings or short forms of one name."""
    ga = _TABLE.get(a)
    return ga is not None and not ga.isdisjoint(_TABLE.get(b, ()))


VARIANT_TOKENS = frozenset(_TABLE)


def has_variants(token: str) -> bool:
    """True when the token is in a listed group of spellings."""
    return token in _TABLE


@lru_cache(maxsize=4096)
def variants_of(token: str) -> tuple[str, ...]:
    """Every other listed spelling of ``token`` (empty for a name not in the table)."""
    out: dict[str, None] = {}
    for group in _TABLE.get(token, ()):
        out.update(dict.fromkeys(m for m in _MEMBERS[group] if m != token))
    return tuple(out)


def numbers_to_digits(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Number words and ordinals as digits: ("forty", "four") -> ("44",), "1st" -> "1"."""
    out: list[str] = []
    pending: int | None = None  # a tens word waiting for a unit
    for token in tokens:
        if token in _TENS:
            if pending is not None:
                out.append(str(pending))
            pending = _TENS[token]
            continue
        value = _NUMBERS.get(token)
        if value is None and token[-2:] in _ORDINAL_SUFFIXES and token[:-2].isdigit():
            value = int(token[:-2])
        if value is None and token.isdigit():
            value = int(token)
        if pending is not None:
            if value is not None and value < 10:
                out.append(str(pending + value))
                pending = None
                continue
            out.append(str(pending))
            pending = None
        out.append(str(value) if value is not None else token)
    if pending is not None:
        out.append(str(pending))
    return tuple(out)


# "Abd al-X", servant of X, with X one of the divine names (or Muttalib), is one given name as
# written in two words ("Abdul Jabbar", "Abdel Aziz"); "Abdul" before a surname is not.
_ABD_PREFIXES = frozenset({"abdul", "abdel", "abdal", "abdil", "abd", "abdoul", "abdu", "abdou"})
_DIVINE_NAME_WORDS = """
    rahman rahim malik quddus salam mumin muhaymin aziz jabbar jabar mutakabbir khaliq bari
    musawwir ghaffar ghafar ghafur ghafoor qahhar wahhab wahab razzaq razaq fattah alim qabid
    basit khafid rafi muizz mudhill sami basir hakam adl latif khabir halim azim shakur shakoor
    ali kabir hafiz hafeez muqit hasib jalil karim kareem raqib mujib wasi hakim hakeem wadud
    majid majeed baith shahid haqq haq wakil qawi matin wali hamid hameed muhsi mubdi muid muhyi
    mumit hayy qayyum qayum wajid wahid ahad samad qadir kadir qader muqtadir muqaddim muakhkhir
    awwal akhir zahir batin mutaali barr tawwab muntaqim afuw rauf muqsit jami ghani mughni mani
    darr nafi nur hadi badi baqi warith rashid sabur sabour nasir nasser naser mannan muttalib
    qayoom sattar
"""
_DIVINE_NAMES = frozenset(_DIVINE_NAME_WORDS.split())


@lru_cache(maxsize=4096)
def is_theophoric(prefix: str, name: str) -> bool:
    """True for "abdul" + "jabbar": two tokens that write one theophoric given name."""
    return prefix in _ABD_PREFIXES and name in _DIVINE_NAMES
