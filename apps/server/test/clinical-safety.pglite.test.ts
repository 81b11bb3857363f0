import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The hazard log names, for each control, the test that proves it. A control whose test was moved
// or deleted would be a claim without evidence: this fails then. (One database project: it reads
// files only.)
const root = fileURLToPath(new URL('../../../', import.meta.url));
// The format's example, in a fenced block, is not a hazard.
const log = readFileSync(`${root}docs/clinical-safety/hazard-log.md`, 'utf8').replace(
  /^```[\s\S]*?^```/gm,
  '',
);

interface Hazard {
  id: string;
  body: string;
}

function hazards(): Hazard[] {
  const parts = log.split(/^### /m).slice(1);
  return parts.map((part) => ({ id: part.slice(0, part.indexOf(':')), body: part }));
}

describe('clinical safety hazard log', () => {
  it('gives every hazard a cause, effect, initial and residual risk, and controls each proven by a test file that exists', () => {
    const all = hazards();
    expect(all.length, 'hazards logged').toBeGreaterThan(0);
    for (const hazard of all) {
      expect(hazard.id, 'hazard heading').toMatch(/^HAZ-\d{2}$/);
      for (const field of ['- Cause:', '- Effect:', '- Initial risk:', '- Controls:', '- Residual risk:']) {
        expect(hazard.body, `${hazard.id} ${field}`).toContain(field);
      }
      const risks = [...hazard.body.matchAll(/severity (\d), likelihood (\d), risk (\d)/g)];
      expect(risks.length, `${hazard.id} initial and residual risk`).toBeGreaterThanOrEqual(2);
      const tests = [...hazard.body.matchAll(/tested by `([^`]+)`/g)].map((m) => m[1]!);
      expect(tests.length, `${hazard.id} names a test for its controls`).toBeGreaterThan(0);
      for (const file of tests) {
        expect(existsSync(`${root}${file}`), `${hazard.id}: ${file} exists`).toBe(true);
        expect(file, `${hazard.id}: ${file} is a test`).toMatch(/\.(test|spec)\.tsx?$/);
      }
    }
    expect(new Set(all.map((h) => h.id)).size, 'hazard ids are unique').toBe(all.length);
  });
});
