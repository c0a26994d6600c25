"""The numba-compiled core: named bundles of plain arrays in, plain numbers out.

No Python object (a game, a board, a rules value) ever enters a kernel: kernels take the
bundles of :mod:`fepaper._core.bundles`. Each kernel has a pure-Python twin written for
clarity (:mod:`fepaper.search`); the tests compare them on random positions.
"""
