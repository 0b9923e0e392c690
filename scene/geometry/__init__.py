"""Geometry from the text: classical numerals and lengths (``units``), the scholarly readings that convert
them (``readings``), the building (``hall``) and every named place with its provenance (``places``,
``layout``).

May import: ``scene.text``, ``scene.paths``; pure Python and numpy.
"""
