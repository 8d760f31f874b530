import type { IncomingMessage, ServerResponse } from 'node:http';
import { admissionKey } from './admission-key';

/**
 * Never held: the build's scripts and styles (files, the same for every
 * page, sent at the client's pace) and the sign-in page, the one page
 * anybody may load: a client holding a place in its line must not be able
 * to keep others from signing in.
 */
const NEVER_HELD = ['/_next/static/', '/login'];

interface Line {
  /** requests of this line the app is working on */
  running: number;
  /** requests of this line waiting their turn, oldest first */
  waiting: (() => void)[];
}

/** A held request the app is answering now. */
interface Answering {
  line: Line;
  /** settles when its place is given up */
  released: Promise<void>;
}

/**
 * Identical requests that arrive together (a hundred people opening the job
 * an alert links to, fifty tabs reloading /reservations) are let into the
 * app a few at a time, in the order they came. The server renders on one
 * JavaScript thread: a burst of a hundred renders let in at once holds it
 * for seconds, and every other request (another user's overview, a retry)
 * waits behind the whole burst. Queued apart, the burst costs the same in
 * all, but another request only ever waits for the few renders under way.
 *
 * "Identical" is the method, the path and the query parameters the route
 * reads, of a GET or HEAD (lib/serving/admission-key.ts): a query parameter
 * no route reads, or another spelling of the same path, is the same request
 * and joins the same line. Other methods (server actions) and NEVER_HELD are
 * never held. A
 * request holds its place until the app has finished its answer (`end()`:
 * Next.js writes a page's HTML and its hydration data in several chunks,
 * and letting the next render start at the first would run two at once),
 * its client goes away, or `maxHoldMs` has passed: an answer sent to
 * a client that reads slowly, or not at all, holds the identical requests
 * behind it no longer than that. The next in line starts after the I/O
 * already waiting, so a request that arrived meanwhile is read first, and
 * once the requests outside its line that were being answered when its
 * place came free have been answered: another request then shares the
 * thread with the one render under way when it came, not with each render
 * of the burst that would have started while it waited for Redis. Only the
 * requests already under way are waited for, each for at most `maxHoldMs`,
 * so a steady stream of other requests delays a burst but never stops it.
 */
export class BurstAdmission {
  private readonly lines = new Map<string, Line>();
  private readonly answering = new Set<Answering>();
  private readonly perRequest: number;
  private readonly maxWaiting: number;
  private readonly maxHoldMs: number;

  constructor({
    perRequest = 1,
    maxWaiting = 1_000,
    maxHoldMs = 500,
  }: {
    /** how many identical requests the app works on at once */
    perRequest?: number;
    /** beyond this many waiting, an identical request is refused (503) rather than queued */
    maxWaiting?: number;
    /** the longest one request holds its place */
    maxHoldMs?: number;
  } = {}) {
    this.perRequest = perRequest;
    this.maxWaiting = maxWaiting;
    this.maxHoldMs = maxHoldMs;
  }

  /** Runs `handle` now, or once the identical requests ahead of this one have been answered. */
  admit(request: IncomingMessage, response: ServerResponse, handle: () => void): void {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.url === undefined || NEVER_HELD.some((path) => request.url!.startsWith(path)))
      return handle();
    const key = admissionKey(request.method, request.url);
    let line = this.lines.get(key);
    if (line === undefined) {
      line = { running: 0, waiting: [] };
      this.lines.set(key, line);
    }
    let closed = false;
    response.once('close', () => (closed = true));
    const start = () => {
      const timer = setTimeout(() => release(), this.maxHoldMs).unref();
      let settle = () => {};
      const answering: Answering = { line, released: new Promise<void>((resolve) => (settle = resolve)) };
      this.answering.add(answering);
      const release = this.releaser(key, line, () => {
        clearTimeout(timer);
        this.answering.delete(answering);
        settle();
      });
      if (closed) return release();
      // end() is when the app has finished the answer; 'finish' would wait for a slow client to take it.
      const end = response.end;
      response.end = function (this: ServerResponse, ...args: Parameters<ServerResponse['end']>) {
        release();
        return end.apply(this, args);
      } as ServerResponse['end'];
      response.once('close', release);
      handle();
    };
    if (line.running < this.perRequest) {
      line.running += 1;
      return start();
    }
    if (line.waiting.length >= this.maxWaiting) return refuse(response);
    line.waiting.push(start);
    // A client that gives up while waiting leaves the line without being started.
    response.once('close', () => {
      const place = line.waiting.indexOf(start);
      if (place !== -1) line.waiting.splice(place, 1);
      if (line.running === 0 && line.waiting.length === 0) this.lines.delete(key);
    });
  }

  /** How many requests are being answered or are waiting. */
  get size(): { running: number; waiting: number } {
    let running = 0;
    let waiting = 0;
    for (const line of this.lines.values()) {
      running += line.running;
      waiting += line.waiting.length;
    }
    return { running, waiting };
  }

  /** Gives a running request's place to the next in its line (or frees it), once however often it is called. */
  private releaser(key: string, line: Line, onRelease: () => void): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      onRelease();
      const next = line.waiting.shift();
      // The place passes to the next request as it is: `running` stays the same.
      if (next !== undefined) return void this.afterOthersUnderWay(line).then(() => setImmediate(next));
      line.running -= 1;
      if (line.running === 0) this.lines.delete(key);
    };
  }

  /** Settles once every request outside `line` that is being answered now has given up its place (each within maxHoldMs). */
  private async afterOthersUnderWay(line: Line): Promise<void> {
    await Promise.all([...this.answering].filter((other) => other.line !== line).map((other) => other.released));
  }
}

function refuse(response: ServerResponse): void {
  response.writeHead(503, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'retry-after': '1',
    'x-content-type-options': 'nosniff',
  });
  response.end('Too many identical requests at once: try again in a moment.\n');
}
