"""The presenter's reading builds (issue 45): never refused for the students' and built before theirs — the
queue of :class:`scene.web.builds.Builds` with its child process replaced by a timer."""
from __future__ import annotations

import asyncio

from scene.web import builds as builds_mod


class Store:
    def __init__(self) -> None:
        self.done: set[str] = set()

    def existing(self, r):
        return r if r in self.done else None


def test_the_presenters_build_goes_first_and_is_never_refused(monkeypatch):
    order: list[str] = []

    async def in_child(self, loop, r):            # a build of 0.2 s instead of a child process
        order.append(r)
        await asyncio.sleep(0.2)
        self.store.done.add(r)

    monkeypatch.setattr(builds_mod.Builds, "_in_child", in_child)
    teacher = {"s:teacher"}

    async def run():
        b = builds_mod.Builds(Store(), lambda r: f"url/{r}", lambda client: f"s:{client}",
                              first=teacher.__contains__)
        students = [asyncio.create_task(b.get(f"r{i}", f"r{i}", f"student{i}")) for i in range(6)]
        await asyncio.sleep(0.05)
        # six readings building or waiting: a student's seventh is refused, the teacher's is not
        try:
            await b.get("r9", "r9", "student9")
            refused = False
        except builds_mod.BuildRefused:
            refused = True
        mine = await b.get("rT", "rT", "teacher")
        await asyncio.gather(*students)
        return refused, mine

    refused, mine = asyncio.run(run())
    assert refused and mine == "url/rT"
    assert order[:2] == ["r0", "rT"], order           # the one under way finishes; then hers, then theirs
    assert sorted(order) == sorted(["r0", "r1", "r2", "r3", "r4", "r5", "rT"])
