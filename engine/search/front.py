"""What a search does at the root before a back end's own (the Gobang VCF of
``threats_first``, the tsumego proof of ``prover``): a wrapper around the back end with
options of its own beside the back end's."""

from .options import as_dict, set_option


class RootFront:
    """A back end (``inner``) behind a root step whose parameters are the dataclass
    ``PARAMS`` (``engine.search.options``), kept as the attribute named ``ATTR``; options
    it does not know, and every other attribute, are the back end's."""
    PARAMS: type
    ATTR: str

    def __init__(self, inner, options: dict[str, str] | None = None):
        self.inner = inner
        setattr(self, self.ATTR, self.PARAMS())
        for key, value in (options or {}).items():
            set_option(self._params(), inner.name, key, value)

    def _params(self):
        return getattr(self, self.ATTR)

    def __getattr__(self, attr):
        return getattr(self.inner, attr)

    def set_option(self, key: str, value: str):
        if key in self.PARAMS.__dataclass_fields__:
            set_option(self._params(), self.inner.name, key, value)
            self.params_changed()
        else:
            self.inner.set_option(key, value)

    def params_changed(self):
        """Called after one of the root step's own options was set."""

    def options(self) -> dict:
        return {**self.inner.options(), **as_dict(self._params())}
