import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { fieldErrorsFromAjv, validatorCompiler } from '../../src/platform/http/validation.js';
import { formatDate, formatDateTime, parseDate, parseDateOrDateTime, parseDateTime } from '../../src/platform/time.js';

describe('date formats', () => {
  it('parses the date form YYYY-MM-DD and refuses impossible dates', () => {
    assert.deepEqual(parseDate('2024-02-29'), { year: 2024, month: 2, day: 29 });
    for (const bad of [
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-1-01',
      '24-01-01',
      '2024-01-01T00:00:00+00:00',
      '',
    ]) {
      assert.equal(parseDate(bad), undefined, bad);
    }
    assert.equal(formatDate({ year: 2015, month: 3, day: 23 }), '2015-03-23');
  });

  it('parses the datetime form with an offset or Z', () => {
    assert.equal(parseDateTime('2018-01-17T08:36:37+00:00'), Date.UTC(2018, 0, 17, 8, 36, 37));
    assert.equal(parseDateTime('2018-01-17T10:36:37+02:00'), Date.UTC(2018, 0, 17, 8, 36, 37));
    assert.equal(parseDateTime('2018-01-17T03:06:37-05:30'), Date.UTC(2018, 0, 17, 8, 36, 37));
    assert.equal(parseDateTime('2016-08-23T11:20:31Z'), Date.UTC(2016, 7, 23, 11, 20, 31));
  });

  it('parses the datetime-with-fraction form with a comma or a dot', () => {
    assert.equal(parseDateTime('2018-01-17T08:36:37,266+00:00'), Date.UTC(2018, 0, 17, 8, 36, 37, 266));
    assert.equal(parseDateTime('2018-01-17T08:36:37.266+00:00'), Date.UTC(2018, 0, 17, 8, 36, 37, 266));
    assert.equal(parseDateTime('2024-04-23T09:46:40.784401+02:00'), Date.UTC(2024, 3, 23, 7, 46, 40, 784));
    assert.equal(parseDateTime('2024-04-23T09:46:40,5Z'), Date.UTC(2024, 3, 23, 9, 46, 40, 500));
  });

  it('refuses malformed datetimes', () => {
    for (const bad of [
      '2024-02-30T00:00:00+00:00',
      '2024-01-01T24:00:00+00:00',
      '2024-01-01T10:60:00+00:00',
      '2024-01-01T10:00:00',
      '2024-01-01 10:00:00+00:00',
      '2024-01-01T10:00:00+0100',
      '2024-01-01T10:00:00,+00:00',
      '2024-01-01T10:00:00+24:00',
    ]) {
      assert.equal(parseDateTime(bad), undefined, bad);
    }
  });

  it('accepts a date or a datetime where a filter allows both', () => {
    assert.equal(parseDateOrDateTime('2024-03-01'), Date.UTC(2024, 2, 1));
    assert.equal(parseDateOrDateTime('2024-03-01T12:00:00+01:00'), Date.UTC(2024, 2, 1, 11));
    assert.equal(parseDateOrDateTime('2024-03-32'), undefined);
  });

  it('formats datetimes as YYYY-MM-DDThh:mi:ss±hh:mi', () => {
    assert.equal(formatDateTime(Date.UTC(2018, 0, 17, 8, 36, 37, 266)), '2018-01-17T08:36:37+00:00');
    assert.equal(formatDateTime(parseDateTime('0005-01-01T00:00:00+00:00') as number), '0005-01-01T00:00:00+00:00');
    assert.deepEqual(parseDate('0005-02-29'), undefined);
    assert.deepEqual(parseDate('2000-02-29'), { year: 2000, month: 2, day: 29 });
    const now = Date.now();
    assert.equal(parseDateTime(formatDateTime(now)), now - (now % 1000));
  });

  it('makes an invalid date in a body a field error of its own', () => {
    const schema = Type.Object({
      start: Type.String({ format: 'date' }),
      items: Type.Array(Type.Object({ at: Type.String({ format: 'date-time' }) })),
    });
    const validate = validatorCompiler({ schema, method: 'POST', url: '/', httpPart: 'body' }) as unknown as ((
      v: unknown,
    ) => boolean) & {
      errors: never;
    };
    assert.equal(validate({ start: '2024-02-29', items: [{ at: '2024-01-01T00:00:00,5+01:00' }] }), true);
    assert.equal(
      validate({ start: '2024-02-30', items: [{ at: '2024-01-01T00:00:00+00:00' }, { at: '2024-01-01' }] }),
      false,
    );
    assert.deepEqual(
      fieldErrorsFromAjv(validate.errors).map((e) => [e.field, e.code]),
      [
        ['start', 'invalid_date'],
        ['items.1.at', 'invalid_datetime'],
      ],
    );
  });
});
