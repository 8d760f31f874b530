import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, nonceOf } from './security-headers';

describe('nonceOf', () => {
  it('reads back the nonce a policy was made with, in production and in development', () => {
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
    expect(nonceOf(contentSecurityPolicy(nonce, false))).toBe(nonce);
    expect(nonceOf(contentSecurityPolicy(nonce, true))).toBe(nonce);
  });

  it('is undefined without a policy or without a nonce in it', () => {
    expect(nonceOf(null)).toBeUndefined();
    expect(nonceOf(`default-src 'self'; script-src 'self'`)).toBeUndefined();
  });
});
