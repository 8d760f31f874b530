import type { ReactNode } from 'react';
import type { JobData } from '@/lib/layouts/pages';
import { scrollableBox } from '@/components/ui/scroll-x';
import type { PhpValue } from '@/lib/layouts/php-serialized';

/** Levels of a tree shown open at first; deeper ones open on a click. */
const OPEN_LEVELS = 2;

const TYPE = 'text-xs text-zinc-500 dark:text-zinc-400';
const CUT = 'ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-900/50 dark:text-amber-100';

/** Where the read ended inside a value: the stored data goes on, this page did not read it. */
function CutMark({ children }: { children: ReactNode }) {
  return <span className={CUT}>cut: {children}</span>;
}

/** A container as a disclosure: its summary always shown, its children under it (React writes every text as text, never as markup). */
function Branch({ summary, depth, children }: { summary: ReactNode; depth: number; children: ReactNode }) {
  return (
    <details open={depth < OPEN_LEVELS} className="ml-0">
      <summary className="cursor-pointer [overflow-wrap:anywhere]">{summary}</summary>
      <ul className="ml-4 border-l border-zinc-200 pl-3 dark:border-zinc-700">{children}</ul>
    </details>
  );
}

function StringText({ text, binary }: { text: string; binary: boolean }) {
  return <span className={`whitespace-pre-wrap [overflow-wrap:anywhere] ${binary ? 'text-amber-900 dark:text-amber-200' : ''}`}>&quot;{text}&quot;</span>;
}

function PhpNode({ value, depth }: { value: PhpValue; depth: number }): ReactNode {
  switch (value.type) {
    case 'null':
      return <span className={TYPE}>null</span>;
    case 'bool':
      return (
        <>
          {value.value ? 'true' : 'false'} <span className={TYPE}>bool</span>
        </>
      );
    case 'int':
    case 'float':
      return (
        <>
          <span className="tabular-nums">{value.value}</span> <span className={TYPE}>{value.type}</span>
        </>
      );
    case 'string':
      return (
        <>
          <StringText text={value.text} binary={value.binary} />{' '}
          <span className={TYPE}>
            string({value.length}){value.binary ? ', not UTF-8 text: bytes shown as \\xNN' : ''}
          </span>
          {value.cut && <CutMark>the first bytes of {value.length.toLocaleString('en-US')} shown</CutMark>}
        </>
      );
    case 'enum':
      return (
        <>
          <span className="font-semibold">{value.className}</span>::{value.caseName} <span className={TYPE}>enum case</span>
        </>
      );
    case 'reference':
      return <span className={TYPE}>{`reference to ${value.kind === 'object' ? 'object' : 'value'} #${value.index} read earlier`}</span>;
    case 'custom':
      return (
        <>
          <span className="font-semibold">{value.className}</span> <span className={TYPE}>Serializable, {value.length} bytes of its own encoding:</span>{' '}
          <StringText text={value.data} binary={false} />
          {value.cut && <CutMark>its first bytes shown</CutMark>}
        </>
      );
    case 'array':
      return (
        <Branch
          depth={depth}
          summary={
            <>
              <span className={TYPE}>array({value.count})</span>
              {value.cut && (
                <CutMark>
                  {value.entries.length} of {value.count} entries read
                </CutMark>
              )}
            </>
          }
        >
          {value.entries.map((entry, index) => (
            <li key={index}>
              <span className="text-zinc-600 dark:text-zinc-300">
                [<PhpNode value={entry.key} depth={depth + 1} />]
              </span>{' '}
              <span aria-hidden="true">⇒</span> <PhpNode value={entry.value} depth={depth + 1} />
            </li>
          ))}
        </Branch>
      );
    case 'object':
      return (
        <Branch
          depth={depth}
          summary={
            <>
              <span className="font-semibold">{value.className}</span> <span className={TYPE}>object, {value.count} properties</span>
              {value.cut && (
                <CutMark>
                  {value.properties.length} of {value.count} properties read
                </CutMark>
              )}
            </>
          }
        >
          {value.properties.map((property, index) => (
            <li key={index}>
              <span className={TYPE}>{property.visibility === 'private' ? `private (${property.declaringClass ?? '?'})` : property.visibility}</span>{' '}
              <span className="font-semibold">{property.name}</span>: <PhpNode value={property.value} depth={depth + 1} />
            </li>
          ))}
        </Branch>
      );
  }
}

function JsonNode({ value, depth }: { value: unknown; depth: number }): ReactNode {
  if (value === null) return <span className={TYPE}>null</span>;
  if (Array.isArray(value)) {
    return (
      <Branch depth={depth} summary={<span className={TYPE}>array({value.length})</span>}>
        {value.map((item, index) => (
          <li key={index}>
            <span className="text-zinc-600 dark:text-zinc-300">[{index}]</span> <JsonNode value={item} depth={depth + 1} />
          </li>
        ))}
      </Branch>
    );
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return (
      <Branch depth={depth} summary={<span className={TYPE}>object, {entries.length} keys</span>}>
        {entries.map(([key, item]) => (
          <li key={key}>
            <span className="font-semibold">{key}</span>: <JsonNode value={item} depth={depth + 1} />
          </li>
        ))}
      </Branch>
    );
  }
  if (typeof value === 'string') return <StringText text={value} binary={false} />;
  return (
    <>
      {String(value)} <span className={TYPE}>{typeof value}</span>
    </>
  );
}

/**
 * A job's decoded data as a tree: PHP's types, property visibility and
 * class names, or JSON's; containers collapse; where the read ended the
 * value says "cut". Data is shown, never run or rendered as markup.
 */
/** The name a keyboard user hears on the decoded data's frame. */
const DECODED = 'The data, decoded';

export function DataTree({ data }: { data: JobData }) {
  switch (data.kind) {
    case 'php':
      return (
        <div className="space-y-2">
          {data.parse.error !== null && (
            <p className="text-sm text-amber-900 dark:text-amber-200">
              Read up to byte {data.parse.bytesRead}: {data.parse.error}.
            </p>
          )}
          <div
            {...scrollableBox(DECODED)}
            className="overflow-x-auto rounded-md border border-zinc-200 bg-white px-4 py-3 font-mono text-xs leading-relaxed dark:border-zinc-800 dark:bg-zinc-900"
          >
            {data.parse.value === null ? <span className={TYPE}>nothing could be read</span> : <PhpNode value={data.parse.value} depth={0} />}
          </div>
        </div>
      );
    case 'json':
      return (
        <div className="space-y-2">
          {data.error !== null && <p className="text-sm text-amber-900 dark:text-amber-200">{data.error}.</p>}
          {data.value !== undefined && (
            <div
              {...scrollableBox(DECODED)}
              className="overflow-x-auto rounded-md border border-zinc-200 bg-white px-4 py-3 font-mono text-xs leading-relaxed dark:border-zinc-800 dark:bg-zinc-900"
            >
              <JsonNode value={data.value} depth={0} />
            </div>
          )}
        </div>
      );
    case 'hex':
    case 'text':
      return (
        <div className="space-y-2">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {data.kind === 'hex' ? data.format : 'Not a format QueueLens decodes: its first bytes as text, bytes that are not UTF-8 as \\xNN'}.
          </p>
          <pre
            {...scrollableBox(data.kind === 'hex' ? 'The data in hex' : 'The data as text')}
            className="overflow-x-auto rounded-md border border-zinc-200 bg-white px-4 py-3 text-xs whitespace-pre-wrap [overflow-wrap:anywhere] dark:border-zinc-800 dark:bg-zinc-900"
          >
            {data.kind === 'hex' ? data.hex : data.text}
          </pre>
          {data.cut && <CutMark>only the first bytes are shown</CutMark>}
        </div>
      );
  }
}
