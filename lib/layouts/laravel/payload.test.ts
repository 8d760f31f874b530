import { describe, expect, it } from 'vitest';
import { commandOf, readLaravelPayload } from './payload';

const payloadOf = (fields: object) => Buffer.from(JSON.stringify(fields));

describe('reading a Laravel payload', () => {
  it('names the job by RedisQueue’s id, else its uuid, and by displayName, else data.commandName', () => {
    expect(readLaravelPayload(payloadOf({ uuid: 'u-1', id: 'abc', displayName: 'App\\Jobs\\Mail', attempts: 2 }))).toMatchObject({
      id: 'abc',
      uuid: 'u-1',
      name: 'App\\Jobs\\Mail',
      attempts: 2,
      problem: null,
    });
    expect(readLaravelPayload(payloadOf({ uuid: 'u-2', data: { commandName: 'App\\Jobs\\Sync' } }))).toMatchObject({
      id: 'u-2',
      name: 'App\\Jobs\\Sync',
      attempts: 0,
    });
  });

  it('says what is wrong with bytes that are not a JSON object, and never throws', () => {
    expect(readLaravelPayload(Buffer.from([0xff, 0x00, 0x7b])).problem).toMatch(/^not JSON/);
    expect(readLaravelPayload(Buffer.from('[1,2]')).problem).toBe('JSON, but not an object as Laravel writes');
  });

  it('parses data.command as PHP-serialized data, and leaves an encrypted one encrypted', () => {
    const serialized = 'O:8:"App\\Mail":1:{s:2:"to";s:13:"<b>a@b.c</b>!";}';
    const php = commandOf(readLaravelPayload(payloadOf({ data: { command: serialized } })));
    expect(php.kind).toBe('php');
    expect(JSON.stringify(php)).toContain('<b>a@b.c</b>!');
    const envelope = Buffer.from(JSON.stringify({ iv: 'x', value: 'secret', mac: 'm', tag: '' })).toString('base64');
    expect(commandOf(readLaravelPayload(payloadOf({ data: { command: envelope } })))).toEqual({ kind: 'encrypted' });
    expect(commandOf(readLaravelPayload(payloadOf({ data: {} })))).toEqual({ kind: 'none' });
  });
});
