"""Commands of the rite in time: ``stages``, ``pose``, ``audit``, ``check`` (the rite-grammar checker), ``steps``.

Each reads the compiled rite from the disk cache (:func:`~scene.rite.cache.load_rite`: keyed by every byte the
compilation reads, so an edited choreography or module is compiled afresh; ``XIANGSHELI_NO_CACHE=1`` always)."""
from __future__ import annotations

import argparse

from .checks import number
from .common import add_json, add_reading, add_seed, check_stage, dump, table


def cmd_stages(args: argparse.Namespace) -> None:
    from ..rite.cache import load_rite
    rite = load_rite(args.reading, args.seed, chapter=getattr(args, "chapter", None))
    rows = [{"n": s.n, "id": s.id, "title": s.title, "phase": s.phase, "start_s": round(s.start_s, 2),
             "end_s": round(s.end_s, 2), "incipit": s.incipit} for s in rite.stages]
    if args.json:
        dump(rows)
        return
    rows_ = [["§", "id", "title", "phase", "start s", "end s", "incipit"]]
    rows_ += [[str(r["n"]), r["id"], r["title"], r["phase"], f"{r['start_s']:.1f}", f"{r['end_s']:.1f}",
               r["incipit"]] for r in rows]
    print(table(rows_))
    for t, rnd, text in rite.announcements:
        print(f"round {rnd} 數獲 at {t:.1f} s: {text}")


def cmd_pose(args: argparse.Namespace) -> None:
    from ..rite.cache import load_rite
    rite = load_rite(args.reading, args.seed, chapter=getattr(args, "chapter", None))
    if args.t < 0 or args.t > rite.duration:
        raise ValueError(f"--t {args.t:g} is outside the rite (0 to {rite.duration:.1f} s)")
    data = rite.as_pose_dict(args.t)
    if args.json:
        dump(data)
        return
    st = data["stage"]
    print(f"t = {data['t']} s — §{st['n']} {st['title']} — {data['phrase']}")
    rows_ = [["id", "name", "role", "x m", "y m", "z m", "heading", "posture", "holding"]]
    for a in data["actors"]:
        if a["visible"]:
            x, y, z = a["xyz_m"]
            rows_.append([a["id"], a["name"], a["role"], f"{x:.2f}", f"{y:.2f}", f"{z:.2f}",
                          f"{a['heading_deg']:.0f}", a["posture"], a["holding"]])
    print(table(rows_))


def cmd_audit(args: argparse.Namespace) -> None:
    from ..rite.audit import audit
    from ..rite.cache import load_rite
    rite = load_rite(args.reading, args.seed, chapter=getattr(args, "chapter", None))
    found = audit(rite, hz=args.hz)
    for v in found:
        print(v)
    print(f"{len(found)} violation(s) in {rite.duration:.0f} s sampled at {args.hz:g} Hz")
    if found:
        raise SystemExit(1)


def register(sub) -> None:
    stg = sub.add_parser("stages", help="the stages (the sections: 51 in chapter 5) with their times")
    stg.set_defaults(func=cmd_stages)
    pose = sub.add_parser("pose", help="every actor and object at a moment")
    pose.add_argument("--t", type=number(0, 1e6), required=True, help="seconds from the start of the rite")
    pose.set_defaults(func=cmd_pose)
    aud = sub.add_parser("audit", help="check spacing, surfaces, speed and obstacles over the whole rite")
    aud.add_argument("--hz", type=number(0, 100, lo_open=True), default=10.0,
                     help="samples a second, in (0, 100]")
    aud.set_defaults(func=cmd_audit)
    for sp in (stg, pose):
        add_json(sp)
    for sp in (stg, pose, aud):
        add_reading(sp)
        add_seed(sp)
    register_check(sub)
    register_steps(sub)


def cmd_check(args: argparse.Namespace) -> None:
    from ..rite import grammar
    from ..rite.cache import load_rite
    specs = grammar.readings_to_check(getattr(args, "chapter", None)) if args.reading == "all" else [args.reading]
    rules = tuple(args.rule.split(",")) if args.rule else grammar.RULES
    bad = [r for r in rules if r not in grammar.RULES]
    if bad:
        raise ValueError(f"--rule {','.join(bad)}: rules are {', '.join(grammar.RULES)}")
    report, total = [], 0
    for spec in specs:
        rite = load_rite(spec, args.seed, chapter=getattr(args, "chapter", None))
        if args.mutate:
            from .mutation import print_mutation
            print_mutation(rite, args.section, args.json)
            continue
        if args.coverage:
            from .coverage import print_coverage
            print_coverage(rite, args.json)
            continue
        found = grammar.check(rite, rules)
        total += len(found)
        report.append({"reading": rite.reading.name if spec is None else spec, "findings": [f.as_dict() for f in found]})
        if not args.json:
            for f in found:
                print(f.line() + _follows(rite, f))
            print(f"{len(found)} finding(s) under {spec or rite.reading.name} "
                  f"({len(rite.spans)} steps, rules: {', '.join(rules)})")
    if args.coverage or args.mutate:
        return
    if args.json:
        dump(report[0] if len(report) == 1 else {"findings": [f for r in report for f in
                                                               ({**x, "reading": r["reading"]} for x in r["findings"])]})
    if total:
        raise SystemExit(1)


def _follows(rite, f) -> str:
    """`` (follows jie_ximo=south)`` when the finding's step is played under a chapter's choice (its ``when``)."""
    try:
        when = rite.choreography.section(f.section).steps[f.step].when if f.step is not None else None
    except (ValueError, IndexError):
        return ""
    return f" (follows {when})" if when and "=" in when else ""


def cmd_steps(args: argparse.Namespace) -> None:
    from ..rite.cache import load_rite
    from ..rite.evidence import ASPECTS, STATUSES, rite_evidence, step_table, summary
    if args.section is not None:
        check_stage(args.section, getattr(args, "chapter", None))
    rite = load_rite(args.reading, args.seed, chapter=getattr(args, "chapter", None))
    rows, evs = step_table(rite), rite_evidence(rite)
    if args.section is not None:
        n = rite.choreography.section(args.section).n
        keep = [r["section"] == n for r in rows]
        rows = [r for r, k in zip(rows, keep) if k]
        evs = [e for e, k in zip(evs, keep) if k]
    counts = summary(evs)
    if args.json:
        dump({"aspects": list(ASPECTS), "summary": counts, "steps": rows})
        return
    mark = {"stated": "S", "commentary": "C", "assumed": "a"}
    out = [["§", "#", "who", "verb", "start s", "place", "facing", "posture", "W F P R T", "phrase"]]
    for r in rows:
        pl = r["place"]["id"] or ""
        out.append([str(r["section"]), str(r["index"]), ",".join(r["who"]), r["verb"], f"{r['start_s']:.1f}", pl,
                    "" if r["facing"] is None else f"{r['facing']:.0f}", r["posture"] or "",
                    " ".join(mark[r["evidence"][a]["status"]] for a in ASPECTS), r["phrase"]])
    print(table(out))
    print("evidence (S stated, C commentary, a assumed) over these steps: " + "; ".join(
        f"{a} " + " ".join(f"{counts[a][k]} {k}" for k in STATUSES) for a in ASPECTS))


def register_steps(sub) -> None:
    sp = sub.add_parser("steps", help="every step: who, when, where, facing, posture and the evidence of each",
                        description="Every step of the compiled rite with the status of its where, facing, "
                                    "posture, route and timing: stated (the phrase says it), commentary (a 鄭注 "
                                    "says it, quoted) or assumed (ours, with the reason).")
    sp.add_argument("--section", default=None, help="only this stage (section number or id)")
    sp.set_defaults(func=cmd_steps)
    add_json(sp)
    add_reading(sp)
    add_seed(sp)


def register_check(sub) -> None:
    chk = sub.add_parser("check", help="the rite-grammar checker: the tracks against what the words require",
                         description="Every step's phrase (and the 記, and the standard forms) against the compiled "
                                     "tracks; exit 1 if anything is found. --reading all: every preset, with and "
                                     "without the 大夫.")
    chk.add_argument("--rule", default=None, help="only these rule families (comma-separated)")
    chk.add_argument("--coverage", action="store_true",
                     help="instead of the findings: per section the clauses, those acted, those checked, the rest")
    chk.add_argument("--mutate", action="store_true",
                     help="instead of the findings: seed errors into every acted clause (a dropped 興, a 拜 acted as "
                          "a 揖, the wrong man, a place 10 尺 off …) and report the share the checker kills, per "
                          "section and operator, with the survivors (scene.rite.grammar.mutate)")
    chk.add_argument("--section", type=int, action="append", default=None, metavar="N",
                     help="with --mutate: only this section (repeatable)")
    chk.set_defaults(func=cmd_check)
    add_json(chk)
    add_reading(chk)
    add_seed(chk)
