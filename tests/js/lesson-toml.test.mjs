// lesson-toml.js (issue 27): a lesson written as TOML and read back, as the page's 存 and 開 do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LessonFileError, lessonToml, readLesson, tomlString } from '../../assets/web/lesson-toml.js';

// the part of a pack readLesson consults: the stages, their steps, the rite's length
const pack = {
  duration_s: 600,
  stages: [{ n: 1, id: 'jiebin', start: 0 }, { n: 2, id: 'chenshe', start: 100 }],
  steps: [{ section: 2, start: 100 }, { section: 2, start: 130 }],
};

test('a string with quotes, a backslash, a newline, a control and a lone surrogate stays one TOML string', () => {
  assert.equal(tomlString('a"b\\c\nd\u0001e\ud800'), '"a\\"b\\\\c\\nd\\u0001e\ufffd"');
});

test('what is written is read back: times, views, cameras, captions that try to start a stop', () => {
  const tricky = '主人"坐"\n[[stop]]\nt = 9 # ]';
  const lesson = {
    title: '射 "一"',
    stops: [
      { t: 12.5, view: 'hall', caption: tricky, en: 'the host' },
      { t: 40, camera: { position: [1, 2, 3], focal_point: [0, 0, 1], view_angle: 40 }, caption: '', play: 5, speed: 2 },
    ],
  };
  const back = readLesson(lessonToml(lesson), 'x.toml', pack);
  assert.equal(back.stops.length, 2);
  assert.equal(back.stops[0].t, 12.5);
  assert.equal(back.stops[0].view, 'hall');
  assert.equal(back.stops[0].caption, tricky);
  assert.deepEqual(back.stops[1].camera.position, [1, 2, 3]);
  assert.equal(back.stops[1].play, 5);
  assert.equal(back.stops[1].speed, 2);
});

test('a stop named by stage and step is the rite\'s absolute time', () => {
  const text = 'title = "課"\n[[stop]]\nstage = 2\nstep = 1\nt = 3\n';
  assert.equal(readLesson(text, 'x.toml', pack).stops[0].t, 133);
});

test('numbers that are not finite are not saved', () => {
  assert.throws(() => lessonToml({ title: 't', stops: [{ t: NaN }] }), LessonFileError);
});

test('a bad file fails with one line naming the file, the stop and what is wrong', () => {
  const cases = [
    ['title = "t"\n', /needs at least one \[\[stop\]\]/],
    ['title = "t"\n[[stop]]\nt = 1\nspeeed = 2\n', /stop 1: unknown key 'speeed'/],
    ['title = "t"\n[[stop]]\nstage = 9\n', /stop 1: no stage 9/],
    ['title = "t"\n[[stop]]\nt = 9999\n', /t = 9999 is not a time within the rite/],
    ['title = "t"\n[[stop]]\nview = "sky"\n', /view 'sky' is not one of/],
  ];
  for (const [text, msg] of cases) {
    assert.throws(() => readLesson(text, 'bad.toml', pack), (e) => {
      assert.ok(e instanceof LessonFileError);
      assert.match(e.message, /^bad\.toml: /);
      assert.match(e.message, msg);
      assert.ok(!e.message.includes('\n'));
      return true;
    });
  }
});
