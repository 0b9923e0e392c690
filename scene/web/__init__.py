"""The scene on the web and as open data: the scene pack the browser plays (``pack``), the CJK font subset,
the static site, the open-data export (``export``), the trame app and its layout (``app``, ``ui``) and a
headless websocket viewer (``wsviewer``).

May import every earlier layer: ``scene.text``, ``scene.geometry``, ``scene.rite``, ``scene.render``.
"""
