"""Money in integer cents, odds as exact fractions (see readings: money-and-breakage).

No float ever holds money or odds. A payout of "X to Y" on a wager of A cents is A·X/Y cents,
rounded down to the cent.
"""

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

from trainer.errors import DataError, RequestError

#: The largest single wager the trainer accepts: $1,000,000.00. Anything larger is a typo.
MAX_WAGER_CENTS = 100_000_000
_PLAIN = re.compile(r"(\d{1,7})(?:\.(\d{1,2}))?")


def parse_amount(value: object, field: str) -> int:
    """Read a wager amount (dollars, as a decimal string or number) into cents, or refuse it."""
    if (plain := plain_amount(value)) is not None:
        return plain
    if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
        raise RequestError(field, f"expected dollars such as \"5\" or \"2.50\", got {_show(value)}")
    text = str(value).strip()
    try:
        dollars = Decimal(text)
    except InvalidOperation:
        raise RequestError(field, f"{_show(value)} is not a number of dollars") from None
    if not dollars.is_finite():
        raise RequestError(field, f"{_show(value)} is not a number of dollars")
    # each bound before any arithmetic: dollars * 100 overflows at an exponent of 999999, and
    # -1e999999 is as far out as 1e999999
    if dollars <= 0:
        raise RequestError(field, f"{_show(value)} is not a positive amount")
    if dollars.adjusted() > 12:
        raise RequestError(field, f"{_show(value)} is larger than the trainer's limit of $1,000,000.00")
    if dollars.adjusted() < -12:
        raise RequestError(field, f"{_show(value)} is finer than a cent")
    cents = dollars * 100
    if cents != cents.to_integral_value():
        raise RequestError(field, f"{_show(value)} is finer than a cent")
    if cents > MAX_WAGER_CENTS:
        raise RequestError(field, f"{_show(value)} is larger than the trainer's limit of $1,000,000.00")
    return int(cents)


def read_payout(text: str) -> tuple[int | None, str]:
    """(cents, "") for a payout as a dealer types it ("$1,250.50"), or (None, what is wrong,
    in words for the keypad)."""
    text = text.strip().lstrip("$").replace(",", "")
    if not text:
        return None, "Enter the payout in dollars, like 12.50"
    if text.startswith("-"):
        return None, "A payout is never negative"
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None, f"“{text}” is not an amount: use digits and one decimal point"
    if not value.is_finite() or any(c not in "0123456789." for c in text):
        return None, f"“{text}” is not an amount: use digits and one decimal point"
    cents = value * 100
    if cents != cents.to_integral_value():
        return None, "Payouts are in whole cents: at most two decimals"
    if cents > 10 * MAX_WAGER_CENTS:
        return None, "That is more than any payout at this table"
    return int(cents), ""


#: the most characters a plain amount has: seven digits, a point and two ("1000000.00")
_PLAIN_LONGEST = 10


def plain_amount(value: object) -> int | None:
    """The cents of a plain, valid amount string such as "5" or "2.50"; None for anything else."""
    if type(value) is str and len(value) <= _PLAIN_LONGEST:
        return _plain_cents(value)
    return None


@lru_cache(maxsize=1024)
def _plain_cents(text: str) -> int | None:
    """`plain_amount` of a text short enough to be one, kept: a round names a few amounts many
    times. Kept by the exact text, and what is kept is a number (or None): nothing a request
    sends changes what another is told, and no long text is held."""
    if plain := _PLAIN.fullmatch(text):
        whole, part = plain.groups()
        cents = int(whole) * 100 + (int(part.ljust(2, "0")) if part else 0)
        if 0 < cents <= MAX_WAGER_CENTS:
            return cents
    return None


@lru_cache(maxsize=4096, typed=True)
def fmt(cents: int) -> str:
    """Cents as a dollar string with two decimals: 1500 -> "15.00". Kept by the exact number
    (`typed`: an int, never a float equal to it): an answer writes a few amounts many times."""
    if cents < 0:
        return "-" + fmt(-cents)
    return f"{cents // 100}.{cents % 100:02d}"


def fmt_dollars(cents: int) -> str:
    """Cents for people: 150000 -> "$1,500.00"."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"


def winnings(amount_cents: int, odds: Fraction) -> int:
    """The payout (not counting the wager) of a winning wager, rounded down to the cent."""
    return (amount_cents * odds.numerator) // odds.denominator


def parse_odds(text: str, where: str = "") -> Fraction:
    """Read "X to Y" into Fraction(X, Y). Commas in X are allowed ("5,000 to 1")."""
    parts = str(text).replace(",", "").split(" to ")
    try:
        x, y = (int(p) for p in parts)
        if x <= 0 or y <= 0:
            raise ValueError
    except ValueError:
        raise DataError(f"{where}: odds must read like \"3 to 2\", got {text!r}") from None
    return Fraction(x, y)


def _show(value: object) -> str:
    if isinstance(value, str):  # shown as typed, but a lone surrogate escaped
        text = '"' + value.encode("utf-8", "backslashreplace").decode("utf-8") + '"'
    else:
        text = str(value) if isinstance(value, Decimal) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


#: standard chip denominations in cents, largest first ($1,000 yellow ... $1 white), then the
#: half-dollar and quarter coins and cents a payout below a dollar may need
CHIPS = (100_000, 50_000, 10_000, 2_500, 500, 100)
COINS = (50, 25, 5, 1)
#: every chip and coin a payout is built from, largest first (the payout keypad's bank)
DENOMINATIONS = CHIPS + COINS


def chips(cents: int) -> list[tuple[int, int]]:
    """The fewest chips (then coins) that make an amount: [(denomination, count), ...].

    Greedy is optimal for these denominations: each is at least twice the next and every
    one divides evenly into the chip sets a cage issues."""
    out = []
    for unit in CHIPS + COINS:
        count, cents = divmod(cents, unit)
        if count:
            out.append((unit, count))
    return out


def chips_text(cents: int) -> str:
    """"3 × $25, 1 × $5, 1 × $0.25" for the payout keypad."""
    return ", ".join(f"{n} × {fmt_dollars(unit)}" for unit, n in chips(cents)) or "nothing"
