// Reads lessons as the page does (lesson-toml.js's readLesson) for tests/test_lesson_agree.py: on stdin
// {"pack": {duration_s, stages, steps}, "lessons": [[name, text], …]}; on stdout, for each lesson,
// {"ok": its stops} or {"error": the one line}.  Not a test file itself (node --test runs *.test.mjs only).
import { readFileSync } from 'node:fs';
import { LessonFileError, readLesson } from '../../assets/web/lesson-toml.js';

const { pack, lessons } = JSON.parse(readFileSync(0, 'utf8'));
const out = lessons.map(([name, text]) => {
  try {
    return { ok: readLesson(text, name, pack).stops };
  } catch (e) {
    if (!(e instanceof LessonFileError)) throw e;
    return { error: e.message };
  }
});
process.stdout.write(JSON.stringify(out));
