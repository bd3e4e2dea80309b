import { describe, expect, it } from 'vitest';
import { AUDIT_ENTITY_LABELS, AUDIT_KIND_LABELS, AUDIT_KINDS, auditEntityLabel } from './kinds.js';

describe('the audit log’s kinds and record kinds', () => {
  it('names every record kind the server writes in both languages, an unknown one as stored', () => {
    // The server's audit writer takes only these record kinds (AuditEntity); the declarations' and the
    // jobs' entries showed their raw names on the Lithuanian screen before they had one.
    expect(auditEntityLabel('declaration', 'lt')).toBe('Deklaracija');
    expect(auditEntityLabel('job', 'en')).toBe('Job');
    expect(auditEntityLabel('somethingOld', 'lt')).toBe('somethingOld');
    for (const [entity, label] of Object.entries(AUDIT_ENTITY_LABELS)) expect(label.lt, entity).not.toBe(label.en);
    for (const kind of AUDIT_KINDS) expect(AUDIT_KIND_LABELS[kind].lt, kind).not.toBe(AUDIT_KIND_LABELS[kind].en);
  });
});
