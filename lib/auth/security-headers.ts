/** Headers every response carries: no framing, no sniffing, no referrer leaving the site. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/**
 * The Content-Security-Policy for one response: scripts only with this
 * request's nonce ('strict-dynamic' lets Next's nonced loader pull its
 * chunks), nothing inline, nothing from elsewhere. Styles may be inline:
 * React's style attributes need it and CSS cannot run code. Development adds
 * 'unsafe-eval', which React's dev build uses for stack traces.
 */
export function contentSecurityPolicy(nonce: string, development: boolean): string {
  return [
    `default-src 'self'`,
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? ` 'unsafe-eval'` : ''}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob:`,
    `font-src 'self'`,
    `connect-src 'self'`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

/** The nonce `contentSecurityPolicy` put in `policy` (the request's header, as proxy.ts set it); undefined when there is none. */
export function nonceOf(policy: string | null): string | undefined {
  return policy?.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
}
