import { describe, expect, it } from 'vitest';
import { jobClassOf, payloadClassName, splitSignedPayload } from './payload';
import { serializeJob, signPayload } from './test-worker';

describe("marko's signed payload", () => {
  it('splits the base64 envelope into signature, encoding and the serialized job', () => {
    const serialized = serializeJob('App\\Jobs\\SendMail', { id: 'a1', attempts: 2 });
    const stored = Buffer.from(signPayload(serialized));
    const payload = splitSignedPayload(stored)!;
    expect(payload.signature).toBe(stored.subarray(0, 64).toString());
    expect(payload).toMatchObject({ encoding: 'b64', truncated: false });
    expect(payload.serialized.toString()).toBe(serialized);
    expect(jobClassOf(payload.serialized)).toEqual({ className: 'App\\Jobs\\SendMail', placeholder: false });
  });

  it('decodes only whole base64 groups of a value cut at a read limit', () => {
    const stored = Buffer.from(signPayload(serializeJob('App\\Jobs\\Import', { rows: 'z'.repeat(5000) })));
    const cut = splitSignedPayload(stored.subarray(0, 1001), stored.length)!;
    expect(cut.truncated).toBe(true);
    expect(cut.serialized.length).toBe(((1001 - 69) >> 2) * 3);
    expect(payloadClassName(stored.subarray(0, 200), stored.length)).toBe('App\\Jobs\\Import');
  });

  it('reads the older raw format and the could-not-serialize placeholder, and refuses what is not signed', () => {
    const raw = Buffer.from(`${'a'.repeat(64)}.O:3:"Foo":0:{}`);
    expect(splitSignedPayload(raw)).toMatchObject({ encoding: 'raw', serialized: Buffer.from('O:3:"Foo":0:{}') });
    const placeholder = 'a:2:{s:5:"class";s:13:"App\\Jobs\\Bulk";s:19:"serialization_error";s:4:"oops";}';
    expect(jobClassOf(Buffer.from(placeholder))).toEqual({ className: 'App\\Jobs\\Bulk', placeholder: true });
    expect(splitSignedPayload(Buffer.from(`${'A'.repeat(64)}.b64:eA==`))).toBeNull();
    expect(splitSignedPayload(Buffer.from('{"job":"x"}'))).toBeNull();
    expect(payloadClassName(Buffer.from('plain'))).toBe('');
  });
});
