"""The readings the tests run an algorithm under: its defaults, then each alternative reading of each axis."""

from dpbandits.core import registry


def readings(name: str) -> list[dict]:
    """The default parameters ({}) and one {axis: value} per non-default reading of each axis of algorithm ``name``."""
    out = [{}]
    for key, spec in registry.get(name).params.items():
        if spec.is_axis:
            out += [{key: value} for value in list(spec.readings)[1:]]
    return out
