"""Clips: a stage played through the studio as MP4 or GIF (imageio + ffmpeg)."""
from __future__ import annotations

import bisect
import math
from pathlib import Path

from ..rite.cache import load_rite
from ..rite.moments import find_stage
from . import glprobe
from .studio import StillError, Studio

#: the most frames a clip may have (a long stage at a slow speed would run for hours)
MAX_FRAMES = 6000



def subtitle_at(cues, starts, t: float) -> str:
    """The text of the latest cue started by t, as the player's caption line shows the latest step begun."""
    k = bisect.bisect_right(starts, t + 1e-9) - 1
    return cues[k][2] if k >= 0 else ""


def export_clip(out: str | Path, stage, view: str = "overview", size: tuple[int, int] = (960, 540),
                reading=None, fps: float = 10.0, speed: float | None = None, labels: bool = True,
                caption: bool = True, max_seconds: float = 30.0, roof: str = "cutaway", subtitles=None) -> int:
    """``python -m scene clip``: a stage as an MP4 (imageio-ffmpeg) or a GIF; returns the frame count.

    ``speed`` is rite-seconds per clip-second; by default a stage is sped up to last at most
    ``max_seconds``.  ``subtitles(rite)`` gives the captions to burn in, ``[(start, end, text)]`` in time
    order (``scene.web.captions.cues``: the phrase, and the seed's sentence where it reaches)."""
    from ..extras import need
    from . import views
    views.parse(view)
    out = Path(out)
    if out.suffix.lower() not in (".mp4", ".gif"):
        raise StillError(f"--out {str(out)!r} must end in .mp4 or .gif")
    imageio = need("imageio.v2", "clip", "clip")
    if out.suffix.lower() == ".mp4":
        need("imageio_ffmpeg", "clip", "clip to MP4")
    if out.suffix.lower() == ".mp4" and (size[0] % 2 or size[1] % 2):
        raise StillError(f"--size {size[0]}x{size[1]}: an MP4 needs even width and height")
    glprobe.configure()
    glprobe.start()
    rite = load_rite(reading)
    st = find_stage(rite, stage)
    length = max(st.end_s - st.start_s, 0.1)
    if speed is None:
        speed = max(1.0, length / max_seconds)
    if not (math.isfinite(speed) and speed > 0 and math.isfinite(fps) and fps > 0):
        raise StillError(f"--speed {speed:g} / --fps {fps:g}: finite and positive")
    n = max(2, int(length / speed * fps))
    if n > MAX_FRAMES:
        raise StillError(f"{n:,} frames at --speed {speed:g}, --fps {fps:g}: at most {MAX_FRAMES:,} (raise --speed)")
    cues = list(subtitles(rite)) if subtitles else []
    starts = [a for a, _, _ in cues]
    studio = Studio(reading, size, rite=rite, roof=roof)
    from ..atomic import replacing
    try:
        from .. import progress
        with replacing(out) as tmp:             # the one safe writer: no link written through, no FIFO
            if out.suffix.lower() == ".mp4":
                writer = imageio.get_writer(str(tmp), fps=fps, codec="libx264", quality=7, macro_block_size=1,
                                            ffmpeg_log_level="error")
            else:
                writer = imageio.get_writer(str(tmp), mode="I", duration=1000.0 / fps, loop=0)
            with writer, progress.phase(f"the clip's frames (§{st.n})", total=n) as ph:
                for k in range(n):
                    t = st.start_s + length * k / (n - 1)
                    writer.append_data(studio.render(t, view, labels=labels, caption=caption, stage=st,
                                                     subtitle=subtitle_at(cues, starts, t)).image)
                    ph.advance()
    finally:
        studio.close()
    return n
