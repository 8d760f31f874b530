import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parsePhpSerialized, type PhpValue } from './php-serialized';
import { readYii2Messages } from './yii2/test-messages';

const php = (text: string) => Buffer.from(text, 'binary');
const parse = (text: string, limits = {}) => parsePhpSerialized(php(text), limits);
const str = (text: string) => ({ type: 'string', length: Buffer.byteLength(text), text, binary: false, cut: false });

/** The PHP-serialized jobs the real stock driver wrote, without their `<ttr>;` prefix. */
function stockMessages(): Buffer[] {
  return [...readYii2Messages('stock').values()].map((message) => message.subarray(message.indexOf(';') + 1));
}

describe('parsePhpSerialized', () => {
  it('reads every scalar type as PHP writes it', () => {
    expect(parse('N;').value).toEqual({ type: 'null' });
    expect(parse('b:1;').value).toEqual({ type: 'bool', value: true });
    expect(parse('b:0;').value).toEqual({ type: 'bool', value: false });
    expect(parse('i:-42;').value).toEqual({ type: 'int', value: '-42' });
    // PHP's 64-bit integers beyond 2^53, exact.
    expect(parse('i:9223372036854775807;').value).toEqual({ type: 'int', value: '9223372036854775807' });
    for (const written of ['1.5', '-0.1', '1.0E+25', 'INF', '-INF', 'NAN']) {
      expect(parse(`d:${written};`).value).toEqual({ type: 'float', value: written });
    }
    expect(parse('s:5:"hello";').value).toEqual(str('hello'));
    // The length counts bytes, not characters.
    expect(parsePhpSerialized(Buffer.from('s:9:"naïve€";')).value).toEqual({ type: 'string', length: 9, text: 'naïve€', binary: false, cut: false });
    expect(parse('s:0:"";')).toEqual({ value: str(''), error: null, bytesRead: 7 });
  });

  it('reads arrays, enums, references and Serializable payloads', () => {
    expect(parse('a:2:{i:0;s:1:"a";s:1:"k";a:0:{}}').value).toEqual({
      type: 'array',
      count: 2,
      entries: [
        { key: { type: 'int', value: '0' }, value: str('a') },
        { key: str('k'), value: { type: 'array', count: 0, entries: [], cut: false } },
      ],
      cut: false,
    });
    expect(parse('E:11:"Suit:Hearts";').value).toEqual({ type: 'enum', className: 'Suit', caseName: 'Hearts' });
    expect(parse('a:2:{i:0;O:8:"stdClass":0:{}i:1;r:2;}').value).toMatchObject({ entries: [{}, { value: { type: 'reference', kind: 'object', index: 2 } }] });
    expect(parse('R:3;').value).toEqual({ type: 'reference', kind: 'value', index: 3 });
    expect(parse('C:11:"ArrayObject":21:{x:i:0;a:0:{};m:a:0:{}}').value).toEqual({
      type: 'custom',
      className: 'ArrayObject',
      length: 21,
      data: 'x:i:0;a:0:{};m:a:0:{}',
      cut: false,
    });
  });

  it('reads an object with public, protected and private properties and never instantiates it', () => {
    // What PHP writes for: class Base { private $secret = 's'; }
    //   class MailJob extends Base { public $to = 'a@b'; protected $tries = 3; public $payload; }
    //   with $payload an object of its own.
    const serialized =
      'O:16:"app\\jobs\\MailJob":4:{s:2:"to";s:3:"a@b";s:8:"\0*\0tries";i:3;s:12:"\0Base\0secret";s:1:"s";' +
      's:7:"payload";O:8:"stdClass":1:{s:4:"\0*\0x";N;}}';
    const { value, error } = parse(serialized);
    expect(error).toBeNull();
    expect(value).toEqual({
      type: 'object',
      className: 'app\\jobs\\MailJob',
      count: 4,
      cut: false,
      properties: [
        { name: 'to', visibility: 'public', value: str('a@b') },
        { name: 'tries', visibility: 'protected', value: { type: 'int', value: '3' } },
        { name: 'secret', visibility: 'private', declaringClass: 'Base', value: str('s') },
        {
          name: 'payload',
          visibility: 'public',
          value: { type: 'object', className: 'stdClass', count: 1, cut: false, properties: [{ name: 'x', visibility: 'protected', value: { type: 'null' } }] },
        },
      ],
    });
  });

  it('reads every message the real stock driver wrote', () => {
    const messages = stockMessages();
    expect(messages.length).toBe(23);
    for (const message of messages) {
      const { value, error, bytesRead } = parsePhpSerialized(message);
      expect(error).toBeNull();
      expect(bytesRead).toBe(message.length);
      expect(value).toMatchObject({ type: 'object', className: expect.stringMatching(/^harness\\jobs\\(NoteJob|CrashJob|FailingJob)$/), cut: false });
    }
    const note = stockMessages()
      .map((message) => parsePhpSerialized(message).value)
      .find((value) => value?.type === 'object' && value.className === 'harness\\jobs\\NoteJob');
    expect(note).toMatchObject({
      properties: [
        { name: 'name', visibility: 'public', value: { type: 'string', text: expect.stringMatching(/^job-\d+$/) } },
        { name: 'data', visibility: 'public', value: { type: 'array', count: 2, entries: [{ key: str('i') }, { key: str('email') }] } },
      ],
    });
  });

  it('gives back the tree read so far, and where it stopped, for a real message cut at every byte', () => {
    const message = stockMessages().find((bytes) => bytes.includes('NoteJob'))!;
    for (let cut = 0; cut < message.length; cut++) {
      const { value, error, bytesRead } = parsePhpSerialized(message.subarray(0, cut));
      expect(error, `cut at ${cut}`).toMatch(/^the data ends at byte \d+ /);
      expect(bytesRead).toBeLessThanOrEqual(cut);
      // Once the class name and the property count are read, the object is there, marked cut.
      if (cut >= 'O:20:"harness\\jobs\\NoteJob":2:'.length)
        expect(value, `cut at ${cut}`).toMatchObject({ type: 'object', className: 'harness\\jobs\\NoteJob', cut: true });
      else expect(value).toBeNull();
    }
    const inName = parsePhpSerialized(message.subarray(0, message.indexOf('job-') + 2));
    expect(inName.error).toBe(`the data ends at byte ${message.indexOf('job-') + 2} inside a string of ${message.includes('job-1') ? 6 : 5} bytes`);
    expect(inName.value).toMatchObject({ properties: [{ name: 'name', value: { type: 'string', text: 'jo', cut: true } }] });
  });

  it('never throws on random bytes, nor on random bytes after a valid start', () => {
    const starts = ['', 'a:3:{', 'O:3:"Foo":2:{', 's:10:"', 'i:', 'a:1:{i:0;a:1:{i:0;'];
    for (let round = 0; round < 3000; round++) {
      const bytes = Buffer.concat([php(starts[round % starts.length]!), randomBytes(round % 64)]);
      const result = parsePhpSerialized(bytes);
      expect(result.bytesRead).toBeLessThanOrEqual(bytes.length);
      expect(result.value !== null || result.error !== null).toBe(true);
    }
  });

  it('names the byte it did not expect', () => {
    expect(parse('x')).toEqual({ value: null, error: 'unexpected "x" at byte 0 (expected a value: N, b, i, d, s, a, O, C, E, R or r)', bytesRead: 0 });
    expect(parse('s:5:"hello"x').error).toBe('unexpected "x" at byte 11 (expected ";")');
    expect(parse('i:12a;').error).toBe('"12a" at byte 2 is not an integer');
    expect(parse('a:1:{d:1.5;i:1;}')).toMatchObject({
      error: 'an array key at byte 5 is a float, not an int or a string',
      value: { type: 'array', entries: [], cut: true },
    });
    expect(parse('b:1;trailing')).toEqual({
      value: { type: 'bool', value: true },
      error: '8 bytes after the value, from byte 4, are not part of it',
      bytesRead: 4,
    });
    expect(parse('').error).toBe('the data ends at byte 0 before the value is complete');
    expect(parsePhpSerialized(Buffer.from([0x73, 0x3a, 0x32, 0x3a, 0x22, 0xff, 0x00, 0x22, 0x3b])).value).toEqual({
      type: 'string',
      length: 2,
      text: '\\xFF\u0000',
      binary: true,
      cut: false,
    });
  });

  it('shows only the start of a 20 MB string, and says where a 64 KiB prefix of it ends', () => {
    const length = 20 * 1024 * 1024;
    const whole = Buffer.concat([Buffer.from(`s:${length}:"`), Buffer.alloc(length, 'é'), Buffer.from('";')]);
    const { value, error, bytesRead } = parsePhpSerialized(whole);
    expect(error).toBeNull();
    expect(bytesRead).toBe(whole.length);
    expect(value).toMatchObject({ type: 'string', length, cut: true, binary: false });
    // 4096 bytes at most: 2048 characters of two bytes each, none torn.
    expect((value as Extract<PhpValue, { type: 'string' }>).text).toBe('é'.repeat(2048));

    const prefix = parsePhpSerialized(whole.subarray(0, 65536));
    expect(prefix.error).toBe(`the data ends at byte 65536 inside a string of ${length} bytes`);
    expect(prefix.value).toMatchObject({ type: 'string', length, cut: true });
  });

  it('stops nesting at maxDepth and keeps the levels above it', () => {
    const deep = 'a:1:{i:0;'.repeat(100) + 'N;' + '}'.repeat(100);
    const { value, error } = parse(deep);
    expect(error).toBe(`values nest deeper than 64 levels at byte ${64 * 9 + 4}`);
    let levels = 0;
    for (let node = value; node?.type === 'array'; node = node.entries[0]?.value ?? null) {
      expect(node.cut).toBe(true);
      levels++;
    }
    expect(levels).toBe(64);
    expect(parse('a:1:{i:0;a:1:{i:0;N;}}', { maxDepth: 2 }).error).toBeNull();
    expect(parse('a:1:{i:0;a:1:{i:0;N;}}', { maxDepth: 1 }).error).toMatch(/^values nest deeper than 1 levels/);
  });

  it('reads at most maxNodes values', () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => `i:${i};i:${i};`).join('');
    const { value, error } = parse(`a:20000:{${entries}}`);
    expect(error).toBe('more than 10000 values: the rest is not read');
    expect(value).toMatchObject({ type: 'array', count: 20000, cut: true });
    // The array itself is one value; each entry is two.
    expect((value as Extract<PhpValue, { type: 'array' }>).entries.length).toBe(4999);
    expect(parse('a:2:{i:0;N;i:1;N;}', { maxNodes: 5 }).error).toBeNull();
    expect(parse('a:2:{i:0;N;i:1;N;}', { maxNodes: 4 }).error).toBe('more than 4 values: the rest is not read');
  });

  it('cuts strings at maxStringBytes without tearing a character', () => {
    expect(parsePhpSerialized(Buffer.from('s:6:"ééé";'), { maxStringBytes: 3 }).value).toEqual({
      type: 'string',
      length: 6,
      text: 'é',
      binary: false,
      cut: true,
    });
    expect(parse('s:5:"hello";', { maxStringBytes: 5 }).value).toEqual(str('hello'));
  });
});
