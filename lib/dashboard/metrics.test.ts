import { describe, expect, it } from 'vitest';
import { staticphpThroughput } from '../layouts/staticphp/layout';
import { testQueueFactory } from '../layouts/staticphp/test-redis';
import { formatMetrics } from './metrics';

const openQueue = testQueueFactory();

interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface ParsedFamily {
  type: string;
  help: string;
  samples: ParsedSample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/**
 * A strict reader of the text exposition format 0.0.4, character by
 * character as the format's grammar goes: comments HELP and TYPE before a
 * family's samples, a family's lines together, label values with only the
 * escapes \\ \" \n, values Go's ParseFloat reads, no series twice. Throws on
 * anything else, naming the line.
 */
function parseExposition(text: string): Map<string, ParsedFamily> {
  if (!text.endsWith('\n')) throw new Error('the last line has no line feed');
  const families = new Map<string, ParsedFamily>();
  const seenSeries = new Set<string>();
  let current: string | null = null;
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, index) => {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1} (${JSON.stringify(line)}): ${why}`);
    };
    if (line.startsWith('#')) {
      const [, keyword, name, ...rest] = line.split(' ');
      if (keyword !== 'HELP' && keyword !== 'TYPE') return;
      if (name === undefined || !METRIC_NAME.test(name)) fail('bad metric name');
      const family = families.get(name!) ?? { type: 'untyped', help: '', samples: [] };
      if (families.has(name!) && current !== name) fail('a family may not be split');
      families.set(name!, family);
      current = name!;
      const body = rest.join(' ');
      if (keyword === 'TYPE') {
        if (!TYPES.has(body)) fail(`unknown type ${body}`);
        if (family.samples.length > 0) fail('TYPE after samples');
        family.type = body;
      } else {
        family.help = unescape(body, false, fail);
      }
      return;
    }
    let position = 0;
    while (position < line.length && /[a-zA-Z0-9_:]/.test(line[position]!)) position++;
    const name = line.slice(0, position);
    if (!METRIC_NAME.test(name)) fail('bad metric name');
    const familyName = families.has(name) ? name : name.replace(/_(sum|count|bucket)$/, '');
    const family = families.get(familyName) ?? fail('sample of an undeclared family');
    if (current !== familyName) fail('a family may not be split');
    const labels: Record<string, string> = {};
    if (line[position] === '{') {
      position++;
      while (line[position] !== '}') {
        const start = position;
        while (position < line.length && line[position] !== '=') position++;
        const label = line.slice(start, position);
        if (!LABEL_NAME.test(label) || label in labels) fail(`bad or repeated label name ${label}`);
        if (line[++position] !== '"') fail('a label value must be quoted');
        position++;
        let raw = '';
        while (position < line.length && line[position] !== '"') {
          if (line[position] === '\\') raw += line[position++];
          raw += line[position++] ?? '';
        }
        if (line[position] !== '"') fail('unterminated label value');
        labels[label] = unescape(raw, true, fail);
        position++;
        if (line[position] === ',') position++;
        else if (line[position] !== '}') fail('expected , or }');
      }
      position++;
    }
    if (line[position] !== ' ') fail('expected a space before the value');
    const [value, timestamp, extra] = line.slice(position + 1).split(' ');
    if (extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) fail('bad timestamp');
    const number = value === '+Inf' ? Infinity : value === '-Inf' ? -Infinity : value === 'NaN' ? NaN : Number(value);
    if (value === undefined || value === '' || (Number.isNaN(number) && value !== 'NaN')) fail(`bad value ${value}`);
    const series = JSON.stringify([name, Object.entries(labels).sort()]);
    if (seenSeries.has(series)) fail('a series appears twice');
    seenSeries.add(series);
    family.samples.push({ name, labels, value: number });
  });
  return families;
}

function unescape(raw: string, quoted: boolean, fail: (why: string) => never): string {
  let text = '';
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    if (char === '\n') fail('a raw line feed');
    if (char !== '\\') {
      text += char;
      continue;
    }
    const next = raw[++i];
    if (next === '\\') text += '\\';
    else if (next === 'n') text += '\n';
    else if (next === '"' && quoted) text += '"';
    else fail(`unknown escape \\${next}`);
  }
  return text;
}

function valueOf(families: Map<string, ParsedFamily>, name: string, queue: string): number | undefined {
  return families.get(name)?.samples.find((sample) => sample.labels.queue === queue)?.value;
}

describe('formatMetrics', () => {
  it('writes every queue as gauges and counters that a strict exposition parser reads back, queue names with quotes, backslashes and line feeds included', async () => {
    const queue = await openQueue();
    const hostile = 'mail "urgent"\\n\nline two';
    await queue.pushMany([
      { queue: hostile, name: 'a', payload: {} },
      { queue: hostile, name: 'b', payload: {}, options: { delaySeconds: 600 } },
      { queue: 'plain', name: 'c', payload: {} },
      { queue: 'plain', name: 'd', payload: {} },
    ]);
    const job = await queue.reserve(['plain'], 'host:1', 60);
    await queue.complete(job!);
    await queue.reserve(['plain'], 'host:1', 60);

    const source = staticphpThroughput(queue);
    const text = formatMetrics({
      connection: 'main',
      sample: await source.sample(),
      meaning: source.meaning,
      failures: { totals: new Map([[hostile, 4]]), jobs: 9 },
      waitSampled: true,
      alerts: new Map([
        ['*', { waitSeconds: 300 }],
        ['plain', { backlog: 50 }],
      ]),
      marks: {
        now: new Map([
          [hostile, ['stuck', 'failing']],
          ['plain', []],
        ]),
        rules: new Map([['plain', { failingMinutes: false }]]),
      },
    });
    const families = parseExposition(text);

    expect([...families.keys()]).toEqual([
      'queuelens_queue_pending',
      'queuelens_queue_delayed',
      'queuelens_queue_reserved',
      'queuelens_queue_wait_seconds',
      'queuelens_queue_pushed_total',
      'queuelens_queue_processed_total',
      'queuelens_queue_failed_total',
      'queuelens_queue_alert_wait_seconds',
      'queuelens_queue_alert_backlog',
      'queuelens_failed_jobs',
      'queuelens_queue_mark',
    ]);
    expect(families.get('queuelens_queue_pushed_total')?.type).toBe('counter');
    expect(families.get('queuelens_queue_pending')?.type).toBe('gauge');
    expect(families.get('queuelens_queue_pending')?.samples.map((sample) => sample.labels)).toEqual([
      { connection: 'main', queue: hostile },
      { connection: 'main', queue: 'plain' },
    ]);
    expect(valueOf(families, 'queuelens_queue_pending', hostile)).toBe(1);
    expect(valueOf(families, 'queuelens_queue_delayed', hostile)).toBe(1);
    expect(valueOf(families, 'queuelens_queue_pending', 'plain')).toBe(0);
    expect(valueOf(families, 'queuelens_queue_reserved', 'plain')).toBe(1);
    expect(valueOf(families, 'queuelens_queue_pushed_total', 'plain')).toBe(2);
    expect(valueOf(families, 'queuelens_queue_processed_total', 'plain')).toBe(1);
    expect(valueOf(families, 'queuelens_queue_wait_seconds', 'plain')).toBe(0);
    expect(valueOf(families, 'queuelens_queue_wait_seconds', hostile)).toBeGreaterThanOrEqual(0);
    expect(valueOf(families, 'queuelens_queue_failed_total', hostile)).toBe(4);
    // "plain" has an entry of its own, so "*"'s wait does not apply to it.
    expect(families.get('queuelens_queue_alert_wait_seconds')?.samples).toEqual([
      { name: 'queuelens_queue_alert_wait_seconds', labels: { connection: 'main', queue: hostile }, value: 300 },
    ]);
    expect(families.get('queuelens_queue_alert_backlog')?.samples).toEqual([
      { name: 'queuelens_queue_alert_backlog', labels: { connection: 'main', queue: 'plain' }, value: 50 },
    ]);
    expect(families.get('queuelens_failed_jobs')?.samples).toEqual([{ name: 'queuelens_failed_jobs', labels: { connection: 'main' }, value: 9 }]);
    // Every mark of every queue, 1 where the overview shows it; "plain" has failing switched off, so it has no failing series at all.
    const marks = families
      .get('queuelens_queue_mark')!
      .samples.map(({ labels, value }) => `${labels.queue === hostile ? 'hostile' : labels.queue} ${labels.mark} ${value}`);
    expect(marks).toEqual([
      'hostile no_worker 0',
      'hostile stuck 1',
      'hostile failing 1',
      'hostile overdue_delayed 0',
      'plain no_worker 0',
      'plain stuck 0',
      'plain overdue_delayed 0',
    ]);
  });

  it('the parser refuses what the format does not allow', () => {
    const family = '# TYPE q gauge\n';
    expect(() => parseExposition(`${family}q{queue="a\nb"} 1\n`)).toThrow();
    expect(() => parseExposition(`${family}q{queue="a\\tb"} 1\n`)).toThrow(/unknown escape/);
    expect(() => parseExposition(`${family}q{queue="a"} one\n`)).toThrow(/bad value/);
    expect(() => parseExposition(`${family}q{queue="a"} 1\nq{queue="a"} 2\n`)).toThrow(/twice/);
    expect(() => parseExposition('r 1\n')).toThrow(/undeclared/);
    expect(() => parseExposition(`${family}q 1`)).toThrow(/line feed/);
  });
});
