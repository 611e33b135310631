"""A package's face: the names it makes public, each loaded from its module when first used
(PEP 562), so that importing the package does not import everything behind it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module


def lazy_face(package: str, face: Mapping[str, tuple[str, str | None]]
              ) -> tuple[Callable[[str], object], Callable[[], list[str]], list[str]]:
    """(__getattr__, __dir__, __all__) for `package`, from `face`: each public name and the
    module (and the name there) it comes from; a name with no attribute is a module, used as a
    namespace."""
    namespace = import_module(package).__dict__

    def __getattr__(name: str) -> object:
        if name not in face:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attr = face[name]
        value = import_module(module) if attr is None else getattr(import_module(module), attr)
        namespace[name] = value  # once loaded, an ordinary attribute
        return value

    names = sorted(face)
    return __getattr__, lambda: list(names), names


def names_from(module: str, *names: str) -> dict[str, tuple[str, str]]:
    """Face entries for names kept under the same name in `module`."""
    return {n: (module, n) for n in names}
