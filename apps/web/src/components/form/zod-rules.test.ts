import { describe as group, expect, it } from 'vitest';
import { catalogue, NAME_RULE } from '@xinli/contract';
import { z } from 'zod';
import { describe, fieldOf, problemOf } from './zod-rules';

const insertRole = catalogue['as.m.system.role.insertRole'].input as z.ZodType;
const insertDept = catalogue['as.m.system.dept.insertDept'].input as z.ZodType;
const field = (s: z.ZodType, name: string) => fieldOf(s, name)!;

group('rules from the contract', () => {
  it('reads required, length limits and ranges from the role input', () => {
    expect(describe(field(insertRole, 'rolename'))).toMatchObject({ required: true, kind: 'string', maxLength: 30 });
    expect(describe(field(insertRole, 'rolekey'))).toMatchObject({ required: true, maxLength: 32 });
    expect(describe(field(insertRole, 'sort'))).toMatchObject({ required: false, kind: 'number', min: 0, max: 9999 });
    expect(describe(field(insertRole, 'remark'))).toMatchObject({ required: false, maxLength: 200 });
    // A union such as `email | ''` takes the limits of its string member.
    expect(describe(field(insertDept, 'email'))).toMatchObject({ required: false, maxLength: 64 });
    expect(fieldOf(insertRole, 'nosuchfield')).toBeUndefined();
  });

  it('answers what the server would refuse, as a message key', () => {
    expect(problemOf(field(insertRole, 'rolename'), 'x'.repeat(31))).toEqual({ key: 'max', values: { max: 30 } });
    expect(problemOf(field(insertRole, 'rolename'), 'x'.repeat(30))).toBeNull();
    expect(problemOf(field(insertRole, 'rolename'), '   ')).toEqual({ key: 'required', values: {} });
    expect(problemOf(field(insertRole, 'rolename'), undefined)).toEqual({ key: 'required', values: {} });
    expect(problemOf(field(insertRole, 'rolekey'), '9lives')).toEqual({ key: 'format', values: {} });
    expect(problemOf(field(insertRole, 'rolekey'), 'counsellor')).toBeNull();
    expect(problemOf(field(insertRole, 'sort'), 10000)).toEqual({ key: 'maxValue', values: { max: 9999 } });
    // A cleared number of a field with a default is "not given", not a wrong type.
    expect(problemOf(field(insertRole, 'sort'), null)).toBeNull();
    expect(problemOf(field(insertDept, 'email'), 'not-an-email')).toEqual({ key: 'format', values: {} });
    expect(problemOf(field(insertDept, 'email'), '')).toBeNull();
    expect(problemOf(field(insertDept, 'parentid'), null)).toBeNull();
  });

  it('answers a rule that states itself with its sentence (the person-name rule)', () => {
    const realname = field(catalogue['as.m.cuser.insertCUser'].input as z.ZodType, 'realname');
    expect(problemOf(realname, '林小雨😀')).toEqual({ key: 'sentence', values: {}, sentence: NAME_RULE });
    expect(problemOf(realname, '林'.repeat(51))).toEqual({ key: 'max', values: { max: 50 } });
    expect(problemOf(realname, '买买提·艾力')).toBeNull();
  });

  it('walks nested fields', () => {
    const comment = catalogue['as.m.assess.comment.updateComment'].input as z.ZodType;
    const zh = fieldOf(comment, ['interpretation', 'zh']);
    expect(zh).toBeDefined();
  });
});
