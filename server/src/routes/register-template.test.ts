import * as contract from '@rodmenys/contract';
import { GROUP, REGISTER_COLUMNS } from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn } from '../test/factories.js';
import { registerCsv, sendRegister } from '../test/register-file.js';

/* The register's template (docs/master-data.md): the headers in the asked language, importable as is; who may import. */

describe(`GET /api/masterData/register/template (${dbKind()})`, () => {
  const t = useApp();
  let token: string;
  beforeAll(async () => {
    token = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
  }, 120_000);

  it('gives the headers in the asked language, and the template imports as an empty file', async () => {
    for (const lang of ['lt', 'en'] as const) {
      const res = await inject(t.app, contract.registerTemplate, { query: { lang }, token });
      expect(res.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
      const header = (wb.worksheets[0]!.getRow(1).values as unknown[]).slice(1);
      expect(header).toEqual(REGISTER_COLUMNS.map((c) => c[lang]));
      const preview = await inject(t.app, contract.previewRegisterImport, {
        token,
        payload: res.raw,
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(preview.body.Errors.map((e: { Code: string }) => e.Code)).toEqual(['EMPTY_FILE']);
    }
    const csvRes = await inject(t.app, contract.registerTemplate, { query: { lang: 'en', format: 'csv' }, token });
    expect(csvRes.status).toBe(200);
    expect(String(csvRes.body).startsWith('\uFEFFCountry;County;')).toBe(true);
  });
});

describe(`register import: who may (${dbKind()})`, () => {
  const t = useApp();

  it('answers 400 without a body, and only group 1 may import', async () => {
    const operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    expect((await sendRegister(t.app, operator, 'preview', Buffer.alloc(0))).status).toBe(400);
    const file = registerCsv([{ Country: 'Lietuva', DeviceType: 'HCA', DeviceCode: 'HCA-403' }]);
    const admin = (await makeSignedIn(t.app, { groupId: GROUP.admin })).token;
    const user = (await makeSignedIn(t.app, { groupId: GROUP.user })).token;
    for (const token of [admin, user]) {
      expect((await sendRegister(t.app, token, 'preview', file)).status).toBe(403);
      expect((await sendRegister(t.app, token, 'apply', file)).status).toBe(403);
      expect((await inject(t.app, contract.registerTemplate, { token })).status).toBe(403);
    }
    expect((await sendRegister(t.app, '', 'preview', file)).status).toBe(401);
    expect(await t.db.query("SELECT 1 FROM device WHERE device_code = 'HCA-403'")).toMatchObject({ rowCount: 0 });
  });
});
