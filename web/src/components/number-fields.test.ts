import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : /\.tsx$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );

// docs/accessibility.md: number fields have no spinners (antd names them "Increase Value" / "Decrease
// Value" in English whatever the language, and a wheel or a slip of the arrow key changes a reading).
describe('number fields', () => {
  it('every InputNumber in the app is drawn without its spinner buttons (controls={false})', () => {
    const missing: string[] = [];
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/<InputNumber\b[^>]*?\/?>/gs)) {
        if (!match[0].includes('controls={false}')) {
          const line = text.slice(0, match.index).split('\n').length;
          missing.push(`${path.relative(SRC, file)}:${line}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  // components/number-field.tsx: antd's min/max move a typed value into the range and precision rounds it,
  // silently; a range is a rule of the form (NumberField, useNumberRule), so only that file draws InputNumber.
  it("every number field is the app's NumberInput: no InputNumber elsewhere, none with min, max or precision", () => {
    const found: string[] = [];
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      const own = file.endsWith(path.join('components', 'number-field.tsx'));
      for (const match of text.matchAll(/<InputNumber\b[^>]*?\/?>/gs)) {
        const line = text.slice(0, match.index).split('\n').length;
        if (!own || /\b(min|max|precision)=/.test(match[0])) found.push(`${path.relative(SRC, file)}:${line}`);
      }
    }
    expect(found).toEqual([]);
  });
});
