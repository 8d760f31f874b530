import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface ExactAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A request to 127.0.0.1:`port` with its target and Host exactly as given,
 * for the gates' tests: node's http keeps a path as written, where fetch
 * would normalize it. Host is `127.0.0.1:port` unless `headers` names one.
 */
export function sendExactly(
  port: number,
  path: string,
  { headers = {}, method = 'GET', body }: { headers?: Record<string, string>; method?: string; body?: string } = {},
): Promise<ExactAnswer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
