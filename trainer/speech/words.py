"""The words a dealer says for each call: the one place where the engine's wording of a call
("Seven, three-four", "2nd & Goal on the 7") becomes the words spoken aloud ("seven three four",
"second and goal on the seven").

The regulations say what is called, never in which words; these are the readings taken:

- every number is said as a word ("one" to "ninety nine"; a die's face "one" to "six", never
  "ace", "deuce" or "trey", except where the engine's own call says "ace");
- the two dice of a pair that the layout does not tell apart (Props & Hops' two dice, Three Dice
  Football's two green dice, the Pai Gow dice's two blue dice) may be said in either order;
- the engine's punctuation is not said, and its abbreviations are said whole ("1st" is "first",
  "&" is "and", "TD" is "touchdown");
- a no roll is called as "no roll" and its reason in a few words (NO_ROLL_WORDS), so that the
  call names the reason the call action grades.
"""

from __future__ import annotations

import re

ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
        "nineteen")
TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
ORDINALS = {"1st": "first", "2nd": "second", "3rd": "third"}

#: a no roll's reason as it is said after "no roll"
NO_ROLL_WORDS = {
    "die-off-table": "die off the table",
    "die-on-die": "die on die",
    "not-flat": "dice not flat",
    "die-fell-out": "die fell out",
    "lid-removed": "lid removed",
    "not-simultaneous": "not together",
    "missed-far-end": "missed the end",
    "on-bank-chips": "on the bank",
    "in-dice-cup": "in the cup",
    "on-rail": "on the rail",
    "cheating-device": "cheating",
    "improper": "improper throw",
    "cocked-multiple-sides": "cocked die",
}

#: the engine's words that are said otherwise
SAID = {"td": "touchdown", "&": "and", "1s": "ones"}

_TOKEN = re.compile(r"\d+(?:st|nd|rd|s)?|[A-Za-z]+|&")


def number(n: int) -> str:
    """A number from 0 to 99 in words: 22 is "twenty two"."""
    if not 0 <= n <= 99:
        raise ValueError(f"{n} is not a number from 0 to 99")
    if n < 20:
        return ONES[n]
    tens, ones = divmod(n, 10)
    return TENS[tens] + (f" {ONES[ones]}" if ones else "")


def spoken(text: str) -> str:
    """The engine's wording of a call in the words said: lower case, numbers as words, no
    punctuation ("Green 2-3, red 4: gain of 1" is "green two three red four gain of one")."""
    out: list[str] = []
    for token in _TOKEN.findall(text):
        low = token.lower()
        if low in SAID:
            out.append(SAID[low])
        elif low in ORDINALS:
            out.append(ORDINALS[low])
        elif low.isdigit():
            out.append(number(int(low)))
        else:
            out.append(low)
    return " ".join(out)


def no_roll(reason: str) -> str:
    """The words of a no roll with this reason: "no roll die on die"."""
    return f"no roll {NO_ROLL_WORDS[reason]}"
