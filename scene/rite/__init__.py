"""The rite in time: the choreography as data (``choreography``), walkable routes (``routes``), the
seeded shooting (``shooting``), the director that compiles the steps into tracks (``director``, a composition of parts
that own their state: ``people``, ``places``, ``things``, ``counting``, ``ways``, ``record``, ``plain``,
``archery``; the text's standard forms in ``forms/``), the evaluation of those tracks (``timeline``), named moments
(``moments``), the on-disk cache of a compiled rite (``cache``) and the physical audit (``audit``).

May import: ``scene.text``, ``scene.geometry``, ``scene.paths``; pure Python and numpy (no pyvista).
"""
