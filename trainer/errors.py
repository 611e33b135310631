"""The one error type for input the engine cannot use: it names the field and the problem."""


class RequestError(ValueError):
    """A request, scenario or option that cannot be read.

    `field` is a path into the input, such as ``throws[3].dice``; str() gives ``field: message``,
    the one line a user sees.
    """

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


class DataError(RuntimeError):
    """A bundled or property data file (paytable, layout) that is broken."""


def shown(value: object) -> str:
    """A value as a message shows it: a number of 400 digits or a long text is not printed whole."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}… ({len(text)} characters)"
