"""`quick_init`: a frozen record made by it is the record its dataclass makes (the same fields,
defaults, equality, hash, repr, copies and refusals), and what it cannot make the same way is
refused when the class is defined."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import FrozenInstanceError, dataclass, field

import pytest

from trainer.frozen import quick_init
from trainer.procedure.model import Expected, Performed, ThrowView
from trainer.scenario import Event, Offer
from trainer.settlement import Line, Step, ThrowReport, Wager


@dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: str = "b"
    c: dict = field(default_factory=dict)
    d: tuple = ()


@quick_init
@dataclass(frozen=True, slots=True)
class Quick:
    a: int
    b: str = "b"
    c: dict = field(default_factory=dict)
    d: tuple = ()


CALLS = [((1,), {}), ((1, "x"), {}), ((1,), {"c": {2: 3}}), ((), {"a": 4, "d": (5,)}),
         ((1, "x", {6: 7}, (8,)), {})]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_quick_record_is_the_record_its_dataclass_makes(args, kwargs):
    plain, quick = Plain(*args, **kwargs), Quick(*args, **kwargs)
    assert dataclasses.astuple(quick) == dataclasses.astuple(plain)
    assert repr(quick) == repr(plain).replace("Plain(", "Quick(")
    assert quick == Quick(*args, **kwargs) and quick != Quick(99)
    assert pickle.loads(pickle.dumps(quick)) == quick == copy.deepcopy(quick)
    assert dataclasses.replace(quick, b="y").b == "y"
    with pytest.raises(FrozenInstanceError):
        quick.a = 2  # type: ignore[misc]


def test_each_default_factory_makes_a_new_value_and_wrong_calls_fail_as_before():
    assert Quick(1).c is not Quick(1).c and Quick(1).c == {}
    hashable = (1, "x", frozenset({2}), (3,))  # a dict field has no hash, as in the dataclass
    assert hash(Quick(*hashable)) == hash(Plain(*hashable))  # type: ignore[arg-type]
    for call in (lambda k: k(), lambda k: k(1, "b", {}, (), 5), lambda k: k(1, e=2),
                 lambda k: k(1, a=1)):
        with pytest.raises(TypeError) as plain:
            call(Plain)
        with pytest.raises(TypeError) as quick:
            call(Quick)
        assert str(quick.value).replace("Quick", "Plain") == str(plain.value)


def test_the_engines_quick_records_take_what_their_dataclasses_took():
    """Each record the deal makes by the thousand takes the parameters a frozen dataclass of its
    fields takes (names, order, defaults), as quick_init checks when the class is defined."""
    for cls in (Expected, Performed, ThrowView, Wager, Line, Step, ThrowReport, Offer, Event):
        own = dataclasses.fields(cls)
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        assert [p.name for p in params] == [f.name for f in own], cls
        for p, f in zip(params, own, strict=True):
            if f.default is not dataclasses.MISSING:
                assert p.default is f.default, (cls, f.name)
            elif f.default_factory is not dataclasses.MISSING:  # made on each call
                assert p.default is not p.empty, (cls, f.name)
            else:
                assert p.default is p.empty, (cls, f.name)


def test_what_quick_init_cannot_make_the_same_is_refused_when_defined():
    with pytest.raises(TypeError, match="does not run __post_init__"):
        @quick_init
        @dataclass(frozen=True, slots=True)
        class Checked:
            a: int

            def __post_init__(self) -> None:
                pass
    with pytest.raises(TypeError, match="is for @dataclass"):
        quick_init(dataclass(slots=True)(type("Loose", (), {"__annotations__": {"a": "int"}})))
    with pytest.raises(TypeError, match="is for @dataclass"):
        quick_init(dataclass(frozen=True)(type("Unslotted", (), {"__annotations__": {"a": "int"}})))
    with pytest.raises(TypeError, match="take every field"):
        @quick_init
        @dataclass(frozen=True, slots=True, kw_only=True)
        class Named:
            a: int
    with pytest.raises(TypeError, match="take every field"):
        @quick_init
        @dataclass(frozen=True, slots=True)
        class Hidden:
            a: int
            b: int = field(default=0, init=False)
