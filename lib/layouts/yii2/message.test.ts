import { describe, expect, it } from 'vitest';
import { decodeMessage, messageOutline, NO_TTR_PREFIX } from './message';
import { YII2_FIXTURES } from './test-fixtures';
import { readYii2Messages } from './test-messages';

const decode = (bytes: Buffer) => decodeMessage(bytes, bytes.length);

/** The class each harness job was pushed as, by id, in every fixture (shared/fixtures/README.md "yii2/*"). */
function harnessClass(id: number): string {
  if (id === 1) return 'harness\\jobs\\CrashJob';
  if (id === 2 || id === 5) return 'harness\\jobs\\FailingJob';
  return 'harness\\jobs\\NoteJob';
}

describe('decodeMessage on what the real drivers stored', () => {
  for (const name of YII2_FIXTURES) {
    it(`decodes every message of ${name}: its TTR, its serializer and its class`, () => {
      const messages = readYii2Messages(name);
      expect(messages.size).toBe(23);
      for (const [id, bytes] of messages) {
        const message = decode(bytes);
        expect(message.ttr, `job ${id}`).toBe({ 1: 30, 2: 600, 5: 2 }[Number(id)] ?? 300);
        expect(message.ttrError).toBeNull();
        expect(message.cut).toBe(false);
        expect(message.className, `job ${id}`).toBe(harnessClass(Number(id)));
        if (name === 'ng-json-serializer') {
          expect(message.body).toMatchObject({ serializer: 'json', error: null, value: { class: harnessClass(Number(id)) } });
        } else {
          expect(message.body).toMatchObject({ serializer: 'php', parse: { error: null, value: { type: 'object', cut: false } } });
        }
      }
    });
  }

  it('still names the class of a message read only in part, and says it is cut', () => {
    for (const name of ['stock', 'ng-json-serializer'] as const) {
      const whole = readYii2Messages(name).get('7')!;
      const message = decodeMessage(whole.subarray(0, 40), whole.length);
      expect(message).toMatchObject({ cut: true, ttr: 300, className: 'harness\\jobs\\NoteJob', length: whole.length });
      if (message.body.serializer === 'json') {
        expect(message.body.value).toBeUndefined();
        expect(message.body.error).toBe(`only the first 40 of ${whole.length} bytes were read: the JSON is not complete`);
      } else {
        expect(message.body).toMatchObject({ serializer: 'php', parse: { error: expect.stringMatching(/^the data ends at byte 36 inside/) } });
      }
    }
  });
});

describe('decodeMessage on what no driver should have stored', () => {
  it('says a message has no TTR prefix, and still shows what is there', () => {
    for (const text of ['O:8:"stdClass":0:{}', '0;N;', '030;N;', 'abc;N;', ';N;', '300N;', `${'9'.repeat(21)};N;`]) {
      expect(decode(Buffer.from(text)).ttrError, text).toBe(NO_TTR_PREFIX);
    }
    expect(decode(Buffer.from(`${'9'.repeat(20)};N;`))).toMatchObject({ ttr: 1e20, ttrError: null, bodyOffset: 21 });
    expect(decode(Buffer.from('O:8:"stdClass":0:{}'))).toMatchObject({ ttr: null, className: 'stdClass', bodyOffset: 0, body: { serializer: 'php' } });
  });

  it('shows igbinary as bytes, unparsed, and anything else as text', () => {
    const igbinary = Buffer.concat([Buffer.from('60;'), Buffer.from([0, 0, 0, 2, 0x17, 0x08]), Buffer.from('stdClass')]);
    expect(decode(igbinary)).toMatchObject({
      ttr: 60,
      className: null,
      body: { serializer: 'igbinary', hex: '00 00 00 02 17 08 73 74 64 43 6c 61 73 73', cut: false },
    });
    expect(decode(Buffer.from([0x33, 0x3b, 0xff, 0x41]))).toMatchObject({ ttr: 3, body: { serializer: 'unknown', text: '\\xFFA', cut: false } });
  });

  it('reports broken JSON, naming its leading class all the same, and JSON without a class', () => {
    expect(decode(Buffer.from('300;{"class":"A","x":'))).toMatchObject({
      className: 'A',
      body: { serializer: 'json', error: expect.stringMatching(/^not valid JSON: /) },
    });
    expect(decode(Buffer.from('300;{"name":"x"}'))).toMatchObject({ className: null, body: { serializer: 'json', error: null, value: { name: 'x' } } });
  });

  it('reads a 20 MB message from its 64 KiB prefix without the rest', () => {
    const length = 20 * 1024 * 1024;
    const head = Buffer.from(`300;O:7:"App\\Big":1:{s:4:"blob";s:${length}:"`);
    const prefix = Buffer.concat([head, Buffer.alloc(64 * 1024 - head.length, 0xff)]);
    const message = decodeMessage(prefix, head.length + length + 3);
    expect(message).toMatchObject({ cut: true, ttr: 300, className: 'App\\Big' });
    expect(message.body).toMatchObject({
      serializer: 'php',
      parse: {
        error: `the data ends at byte ${64 * 1024 - 4} inside a string of ${length} bytes`,
        value: { type: 'object', cut: true, properties: [{ name: 'blob', value: { type: 'string', length, binary: true, cut: true } }] },
      },
    });
  });
});

describe('messageOutline', () => {
  /** Every driver's messages, and what none should store: a custom serialization whole, cut and unclosed, an enum, headers that do not read. */
  const messages = [
    ...YII2_FIXTURES.flatMap((name) => [...readYii2Messages(name).values()]),
    ...[
      '300;C:11:"ArrayObject":21:{x:i:0;a:0:{};m:a:0:{}}',
      '300;C:11:"ArrayObject":21:{x:i:0;a:0:{};m:a:0:{}x',
      '300;E:7:"Foo:Bar";',
      '300;O:8:"stdClass":0:{}',
      '300;O:x:"stdClass":0:{}',
      '300;O:9:"stdClass":0:{}',
      '300;O:8:"stdClass":-1:{}',
      '300;O:8:"stdClass":2:{s:1:"a";O:3:"Sub":0:{}',
      '300;{"class":"app\\\\Job","data":[1]}',
      '300;{"data":[1],"class":"app\\\\Late"}',
      '{"class":"app\\\\NoTtr"}',
    ].map((text) => Buffer.from(text)),
  ];

  it('names the class decodeMessage names, and its TTR, for every message read whole or in part', () => {
    let compared = 0;
    for (const message of messages) {
      for (let read = 0; read <= message.length; read++) {
        const head = message.subarray(0, read);
        const decoded = decodeMessage(head, message.length);
        const outline = messageOutline(head, message.length);
        expect({ className: outline.className, ttr: outline.ttr }, `${JSON.stringify(head.toString('latin1'))}`).toEqual({
          className: decoded.className,
          ttr: decoded.ttr,
        });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('gives a whole JSON body parsed and the bytes after the TTR prefix', () => {
    const message = Buffer.from('300;{"class":"app\\\\Job","n":1}');
    const json = messageOutline(message, message.length);
    expect(json).toMatchObject({ ttr: 300, className: 'app\\Job', json: { class: 'app\\Job', n: 1 } });
    expect(Buffer.from(json.body).toString()).toBe('{"class":"app\\\\Job","n":1}');
    const cut = messageOutline(message, message.length + 1);
    expect(cut).toMatchObject({ className: 'app\\Job', json: undefined });
  });
});
