import { describe, expect, it } from 'vitest';
import { catalogue } from '@xinli/contract';
import type { z } from 'zod';
import { newValues, recordValues, shapeValues } from './schema-values';

const insertDept = catalogue['as.m.system.dept.insertDept'].input as z.ZodType;

describe('dialog values from the action input', () => {
  it('opens a new record with the defaults and empty values, under the page own ones', () => {
    expect(newValues(insertDept)).toEqual({ parentid: null, sort: 0, leader: '', phonenumber: '', email: '', enabled: 1 });
    expect(newValues(insertDept, { parentid: 'D0002', musercode: undefined })).toEqual({
      parentid: 'D0002',
      sort: 0,
      leader: '',
      phonenumber: '',
      email: '',
      enabled: 1,
    });
  });

  it('opens a record with its fields of the input', () => {
    const row = {
      deptid: 'D1',
      musercode: 'M1',
      insname: 'x',
      parentid: null,
      deptname: '教务处',
      sort: 2,
      leader: '',
      phonenumber: '',
      email: '',
      enabled: 1,
    };
    expect(recordValues(insertDept, row)).toEqual({
      parentid: null,
      deptname: '教务处',
      sort: 2,
      leader: '',
      phonenumber: '',
      email: '',
      enabled: 1,
      musercode: 'M1',
    });
  });

  it('sends a cleared field as its default or empty value, an unset one not at all, other values as they are', () => {
    expect(
      shapeValues(insertDept, {
        deptname: '教务处',
        sort: null,
        leader: undefined,
        parentid: undefined,
        musercode: undefined,
        confirm: 'x',
      }),
    ).toEqual({
      deptname: '教务处',
      sort: 0,
      leader: '',
      parentid: null,
      confirm: 'x',
    });
  });
});
