import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, type FormDefinition } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { formVersion } from './tables.js';

const bodyOf = ({ formcode: _c, version: _v, ...body }: FormDefinition) => body;

/**
 * Issue 8 §2: concurrent edits of one scale. Each edit names the revision it was based on, and
 * is written only while that is still the current revision: of 12 parallel edits from the same
 * revision exactly one is saved and 11 are told to reload (before, the last writer won silently).
 */
describe.each(engines())('concurrent scale edits on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let formcode: string;
  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    formcode = (await s.call('as.m.assess.forms.copyForm', { formcode: 'PHQ9', formname: '并发编辑' }, school)).data.formcode;
  });
  afterAll(() => s?.close());

  const load = async () => (await s.call('as.m.assess.forms.getForm', { formcode }, school)).data as { definition: FormDefinition; revision: number };

  it('12 parallel edits from one revision: one saved, 11 conflicts, and the saved one is what is stored', async () => {
    const { definition, revision } = await load();
    const edits = Array.from({ length: 12 }, (_, i) => {
      const d = structuredClone(definition);
      d.questions[0]!.text.zh = `编辑 ${i}`;
      return d;
    });
    const answers = await Promise.all(edits.map((d) => s.call('as.m.assess.forms.updateForm', { formcode, revision, definition: bodyOf(d) }, school)));
    const saved = answers.flatMap((a, i) => (a.errorCode === 0 ? [i] : []));
    expect(saved).toHaveLength(1);
    for (const a of answers.filter((x) => x.errorCode !== 0)) {
      expect(a.errorCode).toBe(ErrorCode.conflict);
      expect(a.errorMsg).toContain('刷新');
    }
    const [stored] = await s.database.db.select().from(formVersion).where(eq(formVersion.formcode, formcode));
    expect((stored!.definition as FormDefinition).questions[0]!.text.zh).toBe(`编辑 ${saved[0]}`);
    expect((await load()).revision).toBe(revision + 1);
  });

  it('an edit based on an old revision is refused; one based on the current revision is saved', async () => {
    const { definition, revision } = await load();
    const d = structuredClone(definition);
    d.questions[0]!.text.zh = '基于旧版本';
    expect((await s.call('as.m.assess.forms.updateForm', { formcode, revision: revision - 1, definition: bodyOf(d) }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.assess.forms.updateForm', { formcode, revision, definition: bodyOf(d) }, school)).errorCode).toBe(0);
  });

  it('an edit that names no revision is refused', async () => {
    const { definition } = await load();
    expect((await s.call('as.m.assess.forms.updateForm', { formcode, definition: bodyOf(definition) }, school)).errorCode).toBe(ErrorCode.validation);
  });
});
