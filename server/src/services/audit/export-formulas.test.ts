import * as contract from '@rodmenys/contract';
import { GROUP } from '@rodmenys/contract';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeSignedIn } from '../../test/factories.js';
import { openCsvInLibreOffice } from '../../test/spreadsheet.js';

const HOSTILE = ['=HYPERLINK("http://example.com/x","Click")', '+1+2', '-3+4', '@SUM(1;2)', '\t=5+5', '\r=6+6'];

describe(`GET /api/audit/export as CSV opened in LibreOffice (${dbKind()})`, () => {
  const t = useApp();

  it('holds no formula where users wrote formula text (name, record name, changes)', async () => {
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    for (const text of HOSTILE) {
      await t.db.query(
        `INSERT INTO audit_log (actor_id, actor_username, kind, entity, entity_id, before, after)
         VALUES ($1, $2, 'device.update', 'device', $3, $4::jsonb, $5::jsonb)`,
        [operator.id, text, text, JSON.stringify({ Description: 'old' }), JSON.stringify({ Description: text })],
      );
    }
    const res = await inject(t.app, contract.exportAuditLog, {
      query: 'kind=device.update&format=csv&lang=en',
      token: operator.token,
    });
    expect(res.status).toBe(200);
    const sheet = openCsvInLibreOffice(String(res.body), ';');
    expect(sheet.formulas).toEqual([]);
    // The text is there, as text: a user name as the user wrote it, after the quote.
    expect(sheet.texts).toContain(`'${HOSTILE[0]}`);
    expect(sheet.texts).toContain(`'${HOSTILE[2]}`);
    // The workbook keeps them as text cells.
    const xlsx = await t.app.inject({
      method: 'GET',
      url: '/api/audit/export?kind=device.update&format=xlsx&lang=en',
      headers: { authorization: `Bearer ${operator.token}` },
    });
    const files = unzipSync(new Uint8Array(xlsx.rawPayload));
    expect(strFromU8(files['xl/worksheets/sheet1.xml']!)).not.toContain('<f>');
  }, 120_000);

  it('the check can fail: the same text written as it is opens as a formula', () => {
    const raw = `\uFEFFa;b\r\n${HOSTILE[0]!.replaceAll('"', '""').replace(/^/, '"')}";x\r\n=1+1;y\r\n`;
    expect(openCsvInLibreOffice(raw, ';').formulas.length).toBeGreaterThan(0);
  }, 120_000);
});
