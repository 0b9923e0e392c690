"""Printed matter (印本): a performer's role sheets (角色單), the rehearsal director's call sheet (場記單)
and the book of plans (禮圖), drawn as vectors from the layout and the compiled tracks.

``canvas`` (pages of vector drawing ops, written as PDF through fpdf2 or as SVG in HTML), ``fonts`` (the
CJK fonts and their glyph widths), ``plan`` (the court to scale: 堂, 階, 楹, 物, 乏, 侯 …, scale bar,
north arrow), ``roles`` (who a role is and what he does in each stage: steps, cues, paths), ``sheets``
(the booklets and the call sheet), ``book`` (one plan per stage with its 經), ``layout`` (text flow and
tables on a page).

May import every earlier layer: ``scene.text``, ``scene.geometry``, ``scene.rite``, ``scene.render``
(the font files), ``scene.web`` (the dimension lines, the web font subset); no renderer (pyvista/VTK).
"""
