"""Helpers on decoded text, outside the decoding pipeline.

``repair`` undoes a client's wrong decode, ``normalize`` folds browser-vs-codec look-alikes for
matching, ``lookalikes`` is the generated table both of those use.
"""
