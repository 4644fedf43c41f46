import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { fieldErrorsFromAjv, validatorCompiler } from '../../src/platform/http/validation.js';
import { formatDate, formatDateTime, parseDate, parseDateOrDateTime, parseDateTime } from '../../src/platform/time.js';
import { localToEpoch } from '../../src/platform/timezones.js';

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

describe('localToEpoch', () => {
  /** The instant of a wall time as the Date setters compute it, for any year. */
  const bySetters = (year: number, month: number, day: number, minutes: number) => {
    const d = new Date(0);
    d.setUTCFullYear(year, month - 1, day);
    d.setUTCHours(0, minutes, 0, 0);
    return d.getTime();
  };

  it('a fixed offset: the wall time minus the offset, for every year (0–99 too), overflowing days and minutes', () => {
    const cases: [number, number, number, number][] = [
      [2024, 2, 29, 0],
      [2023, 2, 29, 90],
      [1970, 1, 1, 0],
      [1999, 12, 31, 1439],
      [2031, 7, 31, 1500],
      [99, 12, 31, 600],
      [5, 1, 1, 0],
      [100, 3, 1, 61],
      [9999, 12, 31, 1439],
    ];
    for (let i = 0; i < 200; i++) {
      cases.push([1 + ((i * 7919) % 9999), 1 + (i % 12), 1 + ((i * 13) % 31), (i * 37) % 1500]);
    }
    for (const [year, month, day, minutes] of cases) {
      for (const offsetMinutes of [0, 120, -330]) {
        assert.equal(
          localToEpoch({ offsetMinutes }, year, month, day, minutes),
          bySetters(year, month, day, minutes) - offsetMinutes * 60_000,
          `${year}-${month}-${day} +${minutes} min at ${offsetMinutes}`,
        );
      }
    }
  });

  it('a zone: Paris in summer and in winter, and the spring-forward gap moved forward', () => {
    const paris = { zone: 'Europe/Paris' };
    assert.equal(localToEpoch(paris, 2026, 7, 1, 9 * 60), Date.UTC(2026, 6, 1, 7, 0), 'summer: UTC+2');
    assert.equal(localToEpoch(paris, 2026, 1, 15, 9 * 60), Date.UTC(2026, 0, 15, 8, 0), 'winter: UTC+1');
    // 29 March 2026, 02:30 does not exist in Paris: read with the offset before the change (UTC+1).
    assert.equal(localToEpoch(paris, 2026, 3, 29, 150), Date.UTC(2026, 2, 29, 1, 30), 'in the gap');
  });
});
