"""Search back ends behind one small interface (``engine.search.base``) and a registry by
name (``engine.search.registry``)."""
