"""The frame test of issue 27, shared by tests/test_lesson45.py and bench/bench_frames.py: what each step's
acting people need (the director's own rule), and the verdict on what the browser measured of them
(assets/web/framecheck.js: an id buffer drawn in the player's camera, the page's overlays subtracted).

A person passes when he is in frame (his whole figure inside the view), at least :data:`UNOCCLUDED` of his
pixels are seen (not hidden by the hall, a prop or another person, not under the page's toolbar, caption,
badge or a label), no more than :data:`COVERED` of him lies under an overlay (no caption or label covers
him), and a standing figure where he stands is drawn at least the height frame_rules.min_height asks for
the step (by the number of people acting together and how far apart they stand)."""
from __future__ import annotations

from dataclasses import dataclass

#: the least share of a person's pixels (drawn alone) that must show in the page's picture: the director's
#: audit calls a man hidden when both his middle and his head are behind something; half of him seen still
#: shows his bow and his hands
UNOCCLUDED = 0.5
#: the most of him the page's overlays (toolbar, caption boxes, badges, labels) may cover: a few pixels of
#: a cap under a label's corner, not a face or a hand
COVERED = 0.02

#: where the app serves the player's modules
FRAMECHECK = "/xsl/framecheck.js"


@dataclass(frozen=True)
class Need:
    section: int
    index: int
    t: float                 # the step's middle
    who: tuple[str, ...]     # the people it names who are on stage then
    height: float            # frame_rules.min_height for the step, as the audit applies it
    ok_python: bool          # the Python audit's verdict (sight lines, no GL)
    why_python: str


def _key(c) -> tuple[int, int, float]:
    # keyed by the step's start too: a form's sub-steps (§33 told act by act) share their data step's index
    return (c.span.section, c.span.index, round(c.span.start_s, 3))


def heights(rite) -> dict[tuple[int, int, float], float]:
    """Per step (section, index, start) the height the director's rule asks (0: the rule's one exemption,
    people further apart than twice the court is wide — no frame shows them all big): the director's own
    checks (:func:`scene.render.shot_checks.checks`), without the Python audit's verdicts (what a test of the
    browser's frame needs; :func:`needs` adds them, ~10 s more of sight lines)."""
    from scene.render import shots
    from scene.render.shot_checks import checks
    return {_key(c): 0.0 if c.wide else c.need for c in checks(rite, shots._World(rite))}


def needs(rite) -> dict[tuple[int, int, float], Need]:
    """Per step the audit's verdict and the height its rule asks for (:func:`heights`): the director's own
    checks, what :func:`scene.render.shot_audit.audit` judges by, so the rule is the director's, not a copy."""
    from scene.render import shot_audit, shots
    from scene.render.shot_checks import checks
    world = shots._World(rite)
    cs = checks(rite, world)
    verdicts = shot_audit.audit(rite, world=world, cs=cs)
    assert [(c.span.section, c.span.index) for c in cs] == [(v.section, v.index) for v in verdicts]
    return {_key(c): Need(v.section, v.index, v.t, v.who, 0.0 if c.wide else c.need, v.ok, v.why)
            for v, c in zip(verdicts, cs)}


def judge_person(p: dict, need_height: float) -> list[str]:
    """Why a measured person fails (empty: he passes)."""
    if not p.get("drawn"):
        return [f"{p['id']} not drawn"]
    if not p["alone"]:
        return [f"{p['id']} not in the picture"]
    why = []
    if not p["inFrame"]:
        why.append(f"{p['id']} cut by the frame's edge")
    if p["share"] < UNOCCLUDED:
        how = []
        if p["hidden3d"] > 0:
            things = p.get("hiddenByThings", 0.0)
            how.append(f"hidden {p['hidden3d']:.0%} by the scene ({things:.0%} by the hall or things, "
                       f"{p['hidden3d'] - things:.0%} by other people)")
        if p["covered"] > 0:
            how.append(f"covered {p['covered']:.0%} by " + ", ".join(sorted(p["by"])))
        why.append(f"{p['id']} seen {p['share']:.0%} < {UNOCCLUDED:.0%} ({'; '.join(how)})")
    if p["covered"] > COVERED:
        why.append(f"{p['id']} under {', '.join(sorted(p['by']))} ({p['covered']:.0%})")
    if p["standing"] < need_height:
        why.append(f"{p['id']} figure {p['standing']:.3f} < {need_height:.3f}")
    return why


def judge(people: list[dict], need_height: float) -> list[str]:
    return [w for p in people for w in judge_person(p, need_height)]


def figures(people: list[dict]) -> str:
    return " ".join(f"{p['id']}:seen{p['share']:.2f}/cov{p['covered']:.2f}/h{p['standing']:.3f}"
                    + ("" if p["inFrame"] else "/CUT") for p in people if p.get("drawn"))
