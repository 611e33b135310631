"""Frozen records made quickly: `quick_init` gives a frozen, slotted dataclass an `__init__` that
stores each field through its slot, as fast as a plain class's and still frozen.

A frozen dataclass's own `__init__` stores each field with `object.__setattr__(self, name,
value)`, which looks the name up again for every field of every record: for the records a deal
makes by the thousand (an expected action has 11 fields, a settlement line 7) it was a quarter of
the time it takes to deal a round and build its procedure. The slot's own setter does the same
store without the look-up. The records stay what they were: the same fields, defaults, equality,
hash, repr and `FrozenInstanceError` on assignment; only how `__init__` stores a field changes.
"""

from __future__ import annotations

import inspect
from dataclasses import MISSING, fields
from typing import TypeVar

T = TypeVar("T", bound=type)

_NO_VALUE = object()  # a field with a default factory that was not given


def quick_init(cls: T) -> T:
    """Put on top of `@dataclass(frozen=True, slots=True)`: the same class, created faster.

    Only for what the dataclass's own `__init__` does alone (no `__post_init__`, no init-only or
    keyword-only fields, every field set by `__init__`): anything else is refused here, when the
    class is defined, so that a record never skips what its dataclass would have done."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: quick_init is for @dataclass(frozen=True, slots=True)")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_init does not run __post_init__")
    own = fields(cls)
    takes = list(inspect.signature(cls).parameters.values())  # what the dataclass takes
    if any(not f.init or f.kw_only for f in own) or [p.name for p in takes] != [f.name for f in own] \
            or any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in takes):
        raise TypeError(f"{cls.__name__}: quick_init needs the dataclass's __init__ to take every "
                        "field, in order, by position or name, and nothing else")
    names: dict[str, object] = {"_NO_VALUE": _NO_VALUE}
    args, body = [], []
    for f in own:
        names[f"_set_{f.name}"] = _slot(cls, f.name).__set__
        if f.default is not MISSING:
            names[f"_default_{f.name}"] = f.default
            args.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            args.append(f"{f.name}=_NO_VALUE")
            body.append(f"    if {f.name} is _NO_VALUE:\n        {f.name} = _factory_{f.name}()")
        else:
            args.append(f.name)
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body or ["    pass"]) + "\n"
    exec(source, names)  # made from the field names alone, as dataclasses makes its own
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]
    return cls


def _slot(cls: type, name: str):
    """The slot that holds a field (the class's own, or a base's)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    raise TypeError(f"{cls.__name__}: no slot for {name}")
