"""A step a search takes at the root before the back end's own search (the pipeline of
``engine.search.searcher``): the tsumego proof of ``prover``, the Gobang VCF of
``threats_first``.  A step has options of its own (its dataclass ``Options``, values in
``params``) beside the back end's, and ``before`` either answers the search (a proven
move, a VCF) or hands on the root's allowed moves, narrowed or not."""


class RootStep:
    Options: type

    def __init__(self):
        self.params = self.Options()

    def reset(self):
        """The position or one of the step's options changed: drop what it keeps."""

    def before(self, state, allowed, target) -> tuple:
        """(the search's answer, or None to go on; the ``allowed`` mask, a uint8 array or
        None, for what follows)."""
        raise NotImplementedError
