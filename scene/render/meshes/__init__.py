"""The one place that builds the scene's meshes from the model.

Two sets, kept apart so that an interactive app can rebuild only what moves:

* :func:`build_static` — from a :class:`~scene.layout.Layout`: the ground and
  court, the hall (堂 platform with its 廉, both stairs with the reading's 等,
  the two 楹, the 序, the back and gable walls, the five-purlin roof with 庪 楣
  棟, 室 and 房 in a 庠), the 門, the range (侯 on its 植 with 綱, 乏, the 侯道
  axis), the two 物 painted on the 堂, and the fixed furniture (洗 水 篚, 磬 on
  its frame, 尊 on the 斯禁, the 篚 on the 堂, the mats), with their shadows.
* :func:`build_dynamic` — from a :class:`~scene.timeline.Pose`: the cast
  (:mod:`scene.figures`), every movable object (爵 觶 旌 楅 中 扑 豐 瑟 俎,
  bows, arrows in flight / stuck in the 侯 / lying short, the 筭 counters), the
  侯's 下个 and 左下綱 as the pose's ``hou_rope`` state has them, and shadows.

Every triangle carries the id of the thing it belongs to (``hall.west_steps``,
``target.centre``, ``actor.bin``, ``object.jue``, ``arrow.bin.3`` …): the
VTK polydata have a cell array ``part`` indexing ``field_data['part_ids']``.

Geometry is built in numpy (:mod:`scene.render.shapes`); VTK is imported only to
wrap the arrays (:mod:`.vtk`: :func:`to_vtk`; :func:`to_polydata` for pyvista, :func:`scene.to_pyvista`).  Static geometry is drawn in 周尺 (the
text's unit) and scaled to metres once; the cast is sized in metres.

Modules: ``static`` (the set and its cache), ``building`` (堂, stairs, 楹, 序, roof), ``grounds`` (庭, 門,
range, furniture), ``dynamic`` (the pose's set), ``props`` (the movable things), ``vtk`` (polydata).
"""
from __future__ import annotations

from . import contact, props  # noqa: F401
from .dynamic import (  # noqa: F401
                      OFFSTAGE_MARGIN_M,
                      DynamicSet,
                      build_dynamic,
                      hand_points,
                      holding_words,
                      object_kind,
                      object_word,
                      undrawn,
)
from .props import hand_local  # noqa: F401
from .static import ROOF_MODES, StaticSet, build_static, static_of, static_set  # noqa: F401
from .vtk import to_polydata, to_vtk  # noqa: F401
