"""The answer key: settle one round given as a request (the settle contract, docs/settle.md).

`settle(request)` reads the request strictly (every bad field is a RequestError naming it),
plays the throws through the game's table, and returns the contract's response.
"""

from __future__ import annotations

from collections.abc import Mapping

from trainer import games
from trainer.errors import RequestError
from trainer.games.base import Game, check_keys
from trainer.money import parse_amount, plain_amount
from trainer.settlement import Wager

REQUEST_KEYS = ("game", "options", "wagers", "throws")
THROW_EXTRAS = ("wagers", "take_down")


def settle(request: object) -> dict:
    if not isinstance(request, dict):
        raise RequestError("request", f"expected a JSON object, got {type(request).__name__}")
    check_keys(request, REQUEST_KEYS, "")
    if "game" not in request:
        raise RequestError("game", "missing")
    if not isinstance(request["game"], str):
        raise RequestError("game", f"expected a game id, got {request['game']!r}")
    game = games.get(request["game"])
    raw_options = request.get("options", {})
    if not isinstance(raw_options, dict):
        raise RequestError("options", "expected an object")
    options = game.parse_options(raw_options)
    bets = game.catalogue(options)
    table = game.new_table(options)

    refused = []
    for wager in read_wagers(request.get("wagers", []), "wagers", game, bets):
        if (refusal := table.offer(wager)) is not None:
            refused.append(refusal)

    raw_throws = request.get("throws", [])
    if not isinstance(raw_throws, list):
        raise RequestError("throws", "expected a list of throws")
    reports = []
    for i, raw in enumerate(raw_throws):
        where = f"throws[{i}]"
        if not isinstance(raw, dict):
            raise RequestError(where, "expected an object such as {\"dice\": [...]} or {\"no_roll\": ...}")
        if table.over:
            raise RequestError(where, "the round is already over; no throw may follow")
        if "take_down" in raw or "wagers" in raw:  # most throws have neither
            for j, td in enumerate(_list(raw.get("take_down", []), f"{where}.take_down")):
                seat, bet = read_take_down(td, f"{where}.take_down[{j}]", game, bets)
                if not table.take_down(seat, bet):
                    raise RequestError(f"{where}.take_down[{j}]",
                                       f"no {bet} wager from seat {seat} is on the layout")
            for wager in read_wagers(raw.get("wagers", []), f"{where}.wagers", game, bets):
                if (refusal := table.offer(wager)) is not None:
                    refused.append(refusal)
            raw = {k: v for k, v in raw.items() if k not in THROW_EXTRAS}
        refused += table.no_more_bets()
        throw = table.parse_throw(raw, where)
        reports.append(table.throw(throw).to_json())

    return {
        "game": game.id,
        "throws": reports,
        "refused": [r.to_json() for r in refused],
        "open": [w.to_json() for w in table.open_wagers()],
    }


def _list(raw: object, where: str) -> list:
    if not isinstance(raw, list):
        raise RequestError(where, "expected a list")
    return raw


def read_seat(raw: Mapping[str, object], where: str, game: Game) -> int:
    if "seat" not in raw:
        raise RequestError(f"{where}.seat", "missing")
    seat = raw["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RequestError(f"{where}.seat", f"expected a seat number 1–{game.seats}, got {seat!r}")
    if not 1 <= seat <= game.seats:
        raise RequestError(f"{where}.seat", f"seat {seat} is out of range 1–{game.seats}")
    return seat


def read_bet(raw: Mapping[str, object], where: str, game: Game, bets: Mapping) -> str:
    if "bet" not in raw:
        raise RequestError(f"{where}.bet", "missing")
    bet = raw["bet"]
    if not isinstance(bet, str) or bet not in bets:
        raise RequestError(f"{where}.bet", f"unknown bet {bet!r} for {game.id}")
    return str(bet)


WAGER_KEYS = frozenset(("seat", "bet", "amount"))


def read_wagers(raw: object, where: str, game: Game, bets: Mapping) -> list[Wager]:
    wagers = []
    seats = game.seats
    for i, item in enumerate(_list(raw, where)):
        # the common, well-formed wager: checked without building any message
        if type(item) is dict and item.keys() == WAGER_KEYS:
            seat, bet = item["seat"], item["bet"]
            if (type(seat) is int and 1 <= seat <= seats and type(bet) is str and bet in bets
                    and (cents := plain_amount(item["amount"])) is not None):
                wagers.append(Wager(seat, bet, cents))
                continue
        at = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise RequestError(at, "expected an object with seat, bet and amount")
        check_keys(item, ("seat", "bet", "amount"), at)
        seat = read_seat(item, at, game)
        bet = read_bet(item, at, game, bets)
        if "amount" not in item:
            raise RequestError(f"{at}.amount", "missing")
        wagers.append(Wager(seat, bet, parse_amount(item["amount"], f"{at}.amount")))
    return wagers


def read_take_down(raw: object, where: str, game: Game, bets: Mapping) -> tuple[int, str]:
    if not isinstance(raw, dict):
        raise RequestError(where, "expected an object with seat and bet")
    check_keys(raw, ("seat", "bet"), where)
    return read_seat(raw, where, game), read_bet(raw, where, game, bets)
