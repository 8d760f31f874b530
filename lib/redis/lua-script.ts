import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChainableCommander } from 'ioredis';
import type { QueueClient } from './client';
import { QueueError, scriptErrorMessage } from './errors';

export type ScriptArgument = string | number | Buffer;

const LUA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lua');

/** Splices `-- @include name` lines with lua/includes/name.lua: our own code, never caller data. */
export function expandIncludes(source: string): string {
  return source.replace(/^-- @include ([\w-]+)$/gm, (_, include: string) => readFileSync(join(LUA_DIR, 'includes', `${include}.lua`), 'utf8'));
}

/**
 * Scripts answer `{code, key}` with a negative code when they refuse; this
 * turns that into a QueueError and passes every other reply through.
 */
export function assertScriptSucceeded(reply: unknown): unknown {
  if (Array.isArray(reply) && typeof reply[0] === 'number' && reply[0] < 0) {
    throw new QueueError(scriptErrorMessage(reply[0], String(reply[1])));
  }
  return reply;
}

type Names = readonly string[];

/** One call's keys and arguments by name; `rest` names the trailing list some scripts take (queue names, ids). */
export type ScriptCall<Keys extends Names, Args extends Names, Rest extends string = never> = { readonly [Key in Keys[number]]: string } & {
  readonly [Arg in Args[number]]: ScriptArgument;
} & { readonly [List in Rest]: readonly ScriptArgument[] };

interface ScriptSpec<Keys extends Names, Args extends Names, Rest extends string, Reply> {
  /** Under lua/; the number before `.lua` is the key count, checked against `keys`. */
  readonly file: string;
  /** KEYS in the order the script reads them. */
  readonly keys: Keys;
  /** ARGV in the order the script reads them. */
  readonly args: Args;
  readonly rest?: Rest;
  /** Replies as Buffers: the script returns bytes shown whatever their encoding. */
  readonly bytes?: boolean;
  /** The reply's shape, as the script's header documents it; refusals were thrown already. */
  readonly reply: (reply: unknown) => Reply;
}

/** One Lua script with its keys and arguments named and its reply typed: the only way code runs a script. */
export interface LuaScript<Keys extends Names, Args extends Names, Rest extends string, Reply> {
  readonly file: string;
  /** Runs it once; a refusal (`{negative code, key}`) is thrown as a QueueError. */
  run(client: QueueClient, call: ScriptCall<Keys, Args, Rest>): Promise<Reply>;
  /** Adds it to a pipeline; read its place in the replies with `reply`. */
  queue(pipeline: ChainableCommander, call: ScriptCall<Keys, Args, Rest>): void;
  /** A pipelined reply of this script, checked and typed as `run` returns it. */
  reply(raw: unknown): Reply;
}

type ScriptFunction = (this: unknown, ...args: ScriptArgument[]) => Promise<unknown>;

function commandName(file: string): string {
  return `queuelens:${file.replace(/\.lua$/, '')}`;
}

function keyCountOf(file: string, keys: Names): number {
  const stated = /-(\d+)\.lua$/.exec(file)?.[1];
  if (stated === undefined || Number(stated) !== keys.length) throw new Error(`${file} states ${stated ?? 'no'} keys but its wrapper names ${keys.length}`);
  return keys.length;
}

/**
 * Names a script of lua/. It is defined on a client the first time that
 * client runs it: ioredis then sends EVALSHA and resends the body when Redis
 * answers NOSCRIPT (restarted, SCRIPT FLUSH), in pipelines too.
 */
export function luaScript<const Keys extends Names, const Args extends Names, Reply, const Rest extends string = never>(
  spec: ScriptSpec<Keys, Args, Rest, Reply>,
): LuaScript<Keys, Args, Rest, Reply> {
  const name = commandName(spec.file);
  const numberOfKeys = keyCountOf(spec.file, spec.keys);
  let lua: string | undefined;
  const functionOn = (client: QueueClient): ScriptFunction => {
    if (!(name in client.scriptsSet))
      client.defineCommand(name, { lua: (lua ??= expandIncludes(readFileSync(join(LUA_DIR, spec.file), 'utf8'))), numberOfKeys });
    const defined = (client as unknown as Record<string, ScriptFunction | undefined>)[spec.bytes ? `${name}Buffer` : name];
    if (defined === undefined) throw new Error(`ioredis did not define ${name}`);
    return defined;
  };
  const argumentsOf = (call: ScriptCall<Keys, Args, Rest>): ScriptArgument[] => {
    const named = call as Record<string, ScriptArgument | readonly ScriptArgument[]>;
    const list = spec.rest === undefined ? [] : (named[spec.rest] as readonly ScriptArgument[]);
    return [...spec.keys.map((key) => named[key] as string), ...spec.args.map((arg) => named[arg] as ScriptArgument), ...list];
  };
  const reply = (raw: unknown) => spec.reply(assertScriptSucceeded(raw));
  return {
    file: spec.file,
    run: async (client, call) => reply(await functionOn(client).apply(client, argumentsOf(call))),
    // The function defined on the pipeline's client runs on whatever `this` is, so a pipeline made before the definition queues it too.
    queue: (pipeline, call) => void functionOn((pipeline as unknown as { redis: QueueClient }).redis).apply(pipeline, argumentsOf(call)),
    reply,
  };
}

/** Replies of scripts that answer 1 when they changed something and 0 when the state had moved on. */
export function changedFlag(reply: unknown): boolean {
  return Number(Array.isArray(reply) ? reply[0] : reply) === 1;
}

/** A flat script reply of strings and integers (ioredis gives integers as numbers, bulk strings as strings). */
export function flatReply(reply: unknown): (string | number)[] {
  return reply as (string | number)[];
}

/** A flat reply read as bytes: integers as numbers, bulk strings as Buffers, nil as null. */
export function flatBytesReply(reply: unknown): (Buffer | number | null)[] {
  return reply as (Buffer | number | null)[];
}

/** Cuts a flat reply into rows of `width` values. */
export function replyRows<Row>(values: readonly unknown[], width: number, row: (at: (offset: number) => unknown) => Row): Row[] {
  const out: Row[] = [];
  for (let i = 0; i + width <= values.length; i += width) out.push(row((offset) => values[i + offset]));
  return out;
}
