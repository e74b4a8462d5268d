import { describe, expect, it } from 'vitest';
import { catalogue } from '@xinli/contract';
import { z } from 'zod';
import { newValues, recordValues, shapeValues } from './schema-values';

const insertDept = catalogue['as.m.system.dept.insertDept'].input as z.ZodType;
const deptDefaults = { parentid: null, sort: 0, leader: '', phonenumber: '', email: '', enabled: 1 };

describe('dialog values from the action input', () => {
  it('opens a new record with the defaults, under the page own values (an undefined one leaves the default)', () => {
    expect(newValues(insertDept)).toEqual(deptDefaults);
    expect(newValues(insertDept, { parentid: 'D0002', musercode: undefined })).toEqual({ ...deptDefaults, parentid: 'D0002' });
  });

  it('gives a field without a default the empty value it accepts, a required one none', () => {
    const input = z.strictObject({
      name: z.string().trim().min(1),
      remark: z.string(),
      tags: z.array(z.string()),
      parent: z.string().min(1).nullable(),
      code: z.string().min(1).optional(),
    });
    expect(newValues(input)).toEqual({ remark: '', tags: [], parent: null });
  });

  it('opens a record with its fields of the input', () => {
    const fields = { parentid: null, deptname: '教务处', sort: 2, leader: '', phonenumber: '', email: '', enabled: 1, musercode: 'M1' };
    expect(recordValues(insertDept, { deptid: 'D1', insname: 'x', usercount: 0, ...fields })).toEqual(fields);
    // And the form's own fields the page names (a region path made of the record's codes).
    expect(recordValues(insertDept, { deptid: 'D1', region: ['330000'], ...fields }, ['region', 'absent'])).toEqual({ ...fields, region: ['330000'] });
  });

  it('sends a cleared field as its default or empty value, an unset one not at all, other values as they are', () => {
    expect(
      shapeValues(insertDept, { deptname: '教务处', sort: null, leader: undefined, parentid: undefined, musercode: undefined, confirm: 'x' }),
    ).toEqual({ deptname: '教务处', sort: 0, leader: '', parentid: null, confirm: 'x' });
  });
});
