import { bytesToText } from '../shapes/display-text';

/**
 * A reader of PHP `serialize()` output that builds a plain tree and never
 * instantiates anything: the bytes come from whoever can write the queue's
 * keys (yii2-queue's messages are neither signed nor encrypted), so they
 * are data to show, never code to run. It survives malformed, truncated and
 * huge input: every count is bounded (values read, nesting, bytes of a
 * string shown), and input that stops early gives back the tree read so far
 * with an error that says where and why.
 */
export type PhpValue =
  | { type: 'null' }
  | { type: 'bool'; value: boolean }
  /** decimal text: PHP's integers are 64-bit, a JS number is exact only to 2^53 */
  | { type: 'int'; value: string }
  /** as written: 1.5, INF, NAN, -INF */
  | { type: 'float'; value: string }
  /**
   * length = the declared bytes; text = display text of at most
   * maxStringBytes of them (bytes that are not UTF-8 shown as \xNN); cut
   * when text is only the beginning; binary when the bytes shown are not
   * UTF-8 text or hold control bytes (a NUL, say)
   */
  | { type: 'string'; length: number; text: string; binary: boolean; cut: boolean }
  /** cut when fewer than `count` entries were read */
  | { type: 'array'; count: number; entries: { key: PhpValue; value: PhpValue }[]; cut: boolean }
  /** O: an object's class and its properties, never instantiated */
  | { type: 'object'; className: string; count: number; properties: PhpProperty[]; cut: boolean }
  /** C: a Serializable's own encoding, `length` bytes, shown as text */
  | { type: 'custom'; className: string; length: number; data: string; cut: boolean }
  /** E: an enum case */
  | { type: 'enum'; className: string; caseName: string }
  /** R: (a reference to a value) and r: (to an object): the 1-based index of a value read earlier */
  | { type: 'reference'; kind: 'value' | 'object'; index: number };

/** One property of an O: object; PHP writes protected names as "\0*\0name" and private ones as "\0Class\0name". */
export interface PhpProperty {
  name: string;
  visibility: 'public' | 'protected' | 'private';
  /** the class that declares a private property */
  declaringClass?: string;
  value: PhpValue;
}

export interface PhpParseLimits {
  /** values read at most; the rest is not read */
  maxNodes?: number;
  /** arrays and objects nested at most this deep */
  maxDepth?: number;
  /** bytes of each string (and each C: payload) kept as text */
  maxStringBytes?: number;
}

export interface PhpParse {
  /** the tree, whole or as far as it was read; null when not even one value began */
  value: PhpValue | null;
  /** why the tree is not whole (or what follows it), e.g. 'the data ends at byte 65536 inside a string of 20971520 bytes'; null when it is */
  error: string | null;
  /** where the reading stopped: the end of the value, or the byte the error names */
  bytesRead: number;
}

export const DEFAULT_PHP_PARSE_LIMITS: Required<PhpParseLimits> = { maxNodes: 10_000, maxDepth: 64, maxStringBytes: 4096 };

/** Longest number token read (an int, a float, a length or a count): PHP writes floats in at most ~25 characters. */
const MAX_TOKEN_BYTES = 64;
/** Longest class name read: PHP sets no limit, but a real one is far shorter. */
const MAX_CLASS_NAME_BYTES = 1024;

const QUOTE = 0x22;
const COLON = 0x3a;
const SEMICOLON = 0x3b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Why reading stopped, carrying the innermost value read so far: each
 * container it passes through on the way out attaches it, marks itself cut
 * and passes itself on, so the caller gets the tree read so far.
 */
class ParseStop {
  constructor(
    readonly message: string,
    readonly at: number,
    public partial: PhpValue | null = null,
  ) {}
}

function byteName(byte: number): string {
  return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** How many leading bytes of `bytes` to show so that a multi-byte character is not torn at the cut. */
function utf8Boundary(bytes: Uint8Array, end: number): number {
  let cut = end;
  // A continuation byte (10xxxxxx) at the cut means a character straddles it; step back to its lead.
  for (let back = 0; back < 3 && cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80; back++) cut--;
  return ((bytes[cut] ?? 0) & 0xc0) === 0x80 ? end : cut;
}

/** Control bytes other than tab, newline and carriage return: text that holds them is binary to a reader. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

class Reader {
  private pos = 0;
  private nodes = 0;
  /** what is being read, innermost last, for an error at the end of the data */
  private readonly within: string[] = [];

  constructor(
    private readonly bytes: Uint8Array,
    private readonly limits: Required<PhpParseLimits>,
  ) {}

  get position(): number {
    return this.pos;
  }

  private endOfData(): ParseStop {
    const inside = this.within.at(-1);
    return new ParseStop(`the data ends at byte ${this.bytes.length} ${inside ? `inside ${inside}` : 'before the value is complete'}`, this.bytes.length);
  }

  private unexpected(expected: string): ParseStop {
    const byte = this.bytes[this.pos];
    if (byte === undefined) return this.endOfData();
    return new ParseStop(`unexpected "${byteName(byte)}" at byte ${this.pos} (expected ${expected})`, this.pos);
  }

  private expect(byte: number): void {
    if (this.bytes[this.pos] !== byte) throw this.unexpected(`"${byteName(byte)}"`);
    this.pos++;
  }

  /** The ASCII text up to `terminator` (which is consumed), at most MAX_TOKEN_BYTES long. */
  private token(terminator: number, what: string): string {
    const start = this.pos;
    const limit = Math.min(this.bytes.length, start + MAX_TOKEN_BYTES + 1);
    for (let at = start; at < limit; at++) {
      if (this.bytes[at] === terminator) {
        this.pos = at + 1;
        return String.fromCharCode(...this.bytes.subarray(start, at));
      }
    }
    if (limit === this.bytes.length) {
      this.pos = this.bytes.length;
      throw this.endOfData();
    }
    return this.fail(`${what} longer than ${MAX_TOKEN_BYTES} bytes at byte ${start}`, start);
  }

  private fail(message: string, at: number): never {
    this.pos = at;
    throw new ParseStop(message, at);
  }

  /** A non-negative decimal count or length, up to `terminator`. */
  private size(terminator: number, what: string): number {
    const start = this.pos;
    const text = this.token(terminator, what);
    const value = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) this.fail(`${what} "${text}" at byte ${start} is not a count`, start);
    return value;
  }

  /** `len:"…"` where len counts the bytes between the quotes: a class name (O:, C:) or an enum's Class:Case (E:). */
  private quotedName(what: string): string {
    const start = this.pos;
    const length = this.size(COLON, `the length of ${what}`);
    if (length > MAX_CLASS_NAME_BYTES) this.fail(`${what} of ${length} bytes at byte ${start}: longer than ${MAX_CLASS_NAME_BYTES}`, start);
    this.expect(QUOTE);
    if (this.pos + length > this.bytes.length) {
      this.pos = this.bytes.length;
      throw this.endOfData();
    }
    const name = bytesToText(this.bytes.subarray(this.pos, this.pos + length));
    this.pos += length;
    this.expect(QUOTE);
    return name;
  }

  /** `length` raw bytes as display text, keeping at most maxStringBytes of them; the position moves past all that exist. */
  private text(length: number): { text: string; binary: boolean; cut: boolean; complete: boolean } {
    const available = this.bytes.length - this.pos;
    const wanted = Math.min(length, this.limits.maxStringBytes);
    let shown = Math.min(wanted, available);
    if (shown < length) shown = utf8Boundary(this.bytes.subarray(this.pos), shown);
    const slice = this.bytes.subarray(this.pos, this.pos + shown);
    const text = bytesToText(slice);
    // Judged on the bytes, not the text: bytesToText's \xNN escapes look like text a string may hold.
    const binary = !isUtf8(slice) || CONTROL.test(text);
    const complete = available >= length;
    this.pos += complete ? length : available;
    return { text, binary, cut: shown < length, complete };
  }

  value(depth: number): PhpValue {
    if (++this.nodes > this.limits.maxNodes) this.fail(`more than ${this.limits.maxNodes} values: the rest is not read`, this.pos);
    const type = this.bytes[this.pos];
    if (type === undefined) throw this.endOfData();
    const start = this.pos;
    this.pos++;
    switch (type) {
      case 0x4e: // N;
        this.expect(SEMICOLON);
        return { type: 'null' };
      case 0x62: {
        // b:0; b:1;
        this.expect(COLON);
        const flag = this.bytes[this.pos];
        if (flag !== 0x30 && flag !== 0x31) throw this.unexpected('"0" or "1"');
        this.pos++;
        this.expect(SEMICOLON);
        return { type: 'bool', value: flag === 0x31 };
      }
      case 0x69: {
        // i:-12;
        this.expect(COLON);
        const at = this.pos;
        const text = this.token(SEMICOLON, 'an integer');
        if (!/^[+-]?\d+$/.test(text)) this.fail(`"${text}" at byte ${at} is not an integer`, at);
        return { type: 'int', value: BigInt(text).toString() };
      }
      case 0x64: {
        // d:1.5; d:INF; d:-INF; d:NAN;
        this.expect(COLON);
        const at = this.pos;
        const text = this.token(SEMICOLON, 'a float');
        if (!/^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|-?INF|NAN)$/.test(text)) this.fail(`"${text}" at byte ${at} is not a float`, at);
        return { type: 'float', value: text };
      }
      case 0x73: // s:5:"hello";
        return this.string();
      case 0x61: // a:2:{key;value;key;value;}
        return this.array(depth, start);
      case 0x4f: // O:8:"stdClass":1:{s:1:"a";i:1;}
        return this.object(depth, start);
      case 0x43: // C:11:"ArrayObject":21:{…}
        return this.custom();
      case 0x45: {
        // E:7:"Foo:Bar";
        this.expect(COLON);
        const at = this.pos;
        const name = this.quotedName('an enum case');
        this.expect(SEMICOLON);
        const colon = name.indexOf(':');
        if (colon <= 0 || colon === name.length - 1) this.fail(`the enum case "${name}" at byte ${at} is not Class:Case`, at);
        return { type: 'enum', className: name.slice(0, colon), caseName: name.slice(colon + 1) };
      }
      case 0x52: // R:2;
      case 0x72: {
        // r:2;
        this.expect(COLON);
        const index = this.size(SEMICOLON, 'a reference');
        return { type: 'reference', kind: type === 0x52 ? 'value' : 'object', index };
      }
      default:
        this.pos = start;
        throw this.unexpected('a value: N, b, i, d, s, a, O, C, E, R or r');
    }
  }

  private string(): PhpValue {
    this.expect(COLON);
    const length = this.size(COLON, 'a string length');
    this.expect(QUOTE);
    const { text, binary, cut, complete } = this.text(length);
    const node: PhpValue = { type: 'string', length, text, binary, cut };
    if (!complete) throw new ParseStop(`the data ends at byte ${this.bytes.length} inside a string of ${length} bytes`, this.bytes.length, node);
    this.expect(QUOTE);
    this.expect(SEMICOLON);
    return node;
  }

  private custom(): PhpValue {
    this.expect(COLON);
    const className = this.quotedName('a class name');
    this.expect(COLON);
    const length = this.size(COLON, 'a payload length');
    this.expect(OPEN_BRACE);
    const { text, cut, complete } = this.text(length);
    const node: PhpValue = { type: 'custom', className, length, data: text, cut };
    if (!complete) throw new ParseStop(`the data ends at byte ${this.bytes.length} inside the ${length}-byte payload of ${className}`, this.bytes.length, node);
    this.expect(CLOSE_BRACE);
    return node;
  }

  /**
   * Reads `count` key/value pairs inside `{…}`: `readKey` checks each key
   * before its value is read, `add` keeps the pair. A pair whose value was
   * cut short is kept with what was read of it, and `node` is marked cut on
   * the way out.
   */
  private pairs<Key>(
    node: PhpValue & { cut: boolean },
    depth: number,
    count: number,
    describe: string,
    readKey: (key: PhpValue, at: number) => Key,
    add: (key: Key, value: PhpValue) => void,
  ): void {
    if (depth >= this.limits.maxDepth) this.fail(`values nest deeper than ${this.limits.maxDepth} levels at byte ${this.pos}`, this.pos);
    this.within.push(describe);
    try {
      this.expect(OPEN_BRACE);
      for (let i = 0; i < count; i++) {
        const at = this.pos;
        const key = readKey(this.value(depth + 1), at);
        try {
          add(key, this.value(depth + 1));
        } catch (stop) {
          if (stop instanceof ParseStop && stop.partial) add(key, stop.partial);
          throw stop;
        }
      }
      this.expect(CLOSE_BRACE);
    } catch (stop) {
      if (stop instanceof ParseStop) {
        node.cut = true;
        stop.partial = node;
      }
      throw stop;
    } finally {
      this.within.pop();
    }
  }

  private array(depth: number, start: number): PhpValue {
    this.expect(COLON);
    const count = this.size(COLON, 'an array size');
    const node = { type: 'array' as const, count, entries: [] as { key: PhpValue; value: PhpValue }[], cut: false };
    this.pairs(
      node,
      depth,
      count,
      `an array of ${count} entries that starts at byte ${start}`,
      (key, at) =>
        key.type === 'int' || key.type === 'string' ? key : this.fail(`an array key at byte ${at} is ${describeType(key)}, not an int or a string`, at),
      (key, value) => node.entries.push({ key, value }),
    );
    return node;
  }

  /** `:len:"Class":count:` after an `O`, up to the properties. */
  private objectHeader(): { className: string; count: number } {
    this.expect(COLON);
    const className = this.quotedName('a class name');
    this.expect(COLON);
    return { className, count: this.size(COLON, 'a property count') };
  }

  /**
   * The class the first value names, as value() reads it, without reading an
   * object's properties: value() names it once the header reads, however
   * the properties do (a container cut short is kept).
   */
  topClassName(): string | null {
    switch (this.bytes[0]) {
      case 0x4f:
        this.pos = 1;
        return this.objectHeader().className;
      case 0x43: {
        const value = this.value(0);
        return value.type === 'custom' ? value.className : null;
      }
      default:
        return null;
    }
  }

  private object(depth: number, start: number): PhpValue {
    const { className, count } = this.objectHeader();
    const node = { type: 'object' as const, className, count, properties: [] as PhpProperty[], cut: false };
    this.pairs(
      node,
      depth,
      count,
      `an object of class ${className} that starts at byte ${start}`,
      (key, at) => propertyName(key) ?? this.fail(`a property name at byte ${at} is ${describeType(key)}, not a string`, at),
      (name, value) => node.properties.push({ ...name, value }),
    );
    return node;
  }
}

function describeType(value: PhpValue): string {
  return value.type === 'null' ? 'null' : value.type === 'int' || value.type === 'array' || value.type === 'enum' ? `an ${value.type}` : `a ${value.type}`;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A property's name and visibility from its key: "\0*\0name" is protected, "\0Class\0name" private, anything else public; null when the key is no name. */
function propertyName(key: PhpValue): Omit<PhpProperty, 'value'> | null {
  // An array cast to an object keeps its integer keys as property names.
  if (key.type === 'int') return { name: key.value, visibility: 'public' };
  if (key.type !== 'string') return null;
  const end = key.text.startsWith('\u0000') ? key.text.indexOf('\u0000', 1) : -1;
  if (end < 0) return { name: key.text, visibility: 'public' };
  const scope = key.text.slice(1, end);
  const name = key.text.slice(end + 1);
  return scope === '*' ? { name, visibility: 'protected' } : { name, visibility: 'private', declaringClass: scope };
}

/**
 * Reads one PHP-serialized value from `bytes` (which may be only the
 * beginning of the stored value) into a tree. Never throws and never
 * instantiates a class. Stops at the first malformed byte, at the end of
 * the data, past `maxNodes` values or `maxDepth` levels, and returns the
 * tree read so far (containers and strings it did not finish marked `cut`)
 * with the reason. Bytes after a whole value are reported as an error
 * beside the whole value (PHP 8.3 warns about them too).
 */
export function parsePhpSerialized(bytes: Uint8Array, limits: PhpParseLimits = {}): PhpParse {
  const reader = new Reader(bytes, { ...DEFAULT_PHP_PARSE_LIMITS, ...limits });
  try {
    const value = reader.value(0);
    const end = reader.position;
    const error = end < bytes.length ? `${bytes.length - end} bytes after the value, from byte ${end}, are not part of it` : null;
    return { value, error, bytesRead: end };
  } catch (stop) {
    if (!(stop instanceof ParseStop)) throw stop;
    return { value: stop.partial, error: stop.message, bytesRead: stop.at };
  }
}

/**
 * The class of the value `bytes` begins with (an object's or a custom
 * serialization's), as parsePhpSerialized's tree names it, read without
 * the rest: for a list row or a search, which need only the class.
 */
export function phpClassName(bytes: Uint8Array): string | null {
  try {
    return new Reader(bytes, DEFAULT_PHP_PARSE_LIMITS).topClassName();
  } catch (stop) {
    if (!(stop instanceof ParseStop)) throw stop;
    const partial = stop.partial;
    return partial?.type === 'custom' ? partial.className : null;
  }
}
