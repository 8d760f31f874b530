'use client';

import Link from 'next/link';
import { formatBytes } from '@/components/key-layout/format-bytes';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { CodeBlock } from '@/components/ui/code-block';
import { formatCount } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import { EmptyList, Section } from '@/components/ui/section';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { DisplayValue } from '@/lib/shapes/display-text';
import { keyContentsQuery, type KeyAddress, type KeyContents } from '@/lib/queries/key-layout';
import { layoutHref, layoutKeyHref } from '@/lib/routes';

const ENTRIES = 'Contents';

function BackToKeys() {
  return (
    <p className="text-sm">
      <Link href={layoutHref} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
        <span aria-hidden="true">← </span>All keys
      </Link>
    </p>
  );
}

/** A stored value as text; a value cut for display says how much of it there is. */
function Value({ value }: { value: DisplayValue }) {
  return (
    <>
      <span className="whitespace-pre-wrap">{value.text}</span>
      {value.truncated && <span className="ml-1 text-zinc-500 dark:text-zinc-400">… (cut; {formatBytes(value.bytes)} in all)</span>}
    </>
  );
}

function sizeText(contents: KeyContents): string {
  if (contents.size === null) return '';
  if (contents.type === 'string') return formatBytes(contents.size);
  const noun = { zset: 'members', set: 'members', list: 'items', hash: 'fields', stream: 'entries' }[contents.type as string] ?? 'elements';
  return `${formatCount(contents.size)} ${noun}`;
}

function ContentsTable({ contents }: { contents: KeyContents }) {
  switch (contents.type) {
    case 'zset': {
      const offset = contents.cursor === '' ? 0 : Number(contents.cursor);
      return (
        <DataTable
          label={ENTRIES}
          minWidthClass="min-w-[32rem]"
          head={
            <>
              <HeaderCell numeric>Rank</HeaderCell>
              <HeaderCell>Member</HeaderCell>
              <HeaderCell numeric>Score</HeaderCell>
            </>
          }
        >
          {contents.entries.map((entry, index) => (
            <tr key={index}>
              <Cell numeric>{formatCount(offset + index)}</Cell>
              <Cell code>
                <Value value={entry.member} />
              </Cell>
              <Cell numeric>{entry.score}</Cell>
            </tr>
          ))}
        </DataTable>
      );
    }
    case 'set':
      return (
        <DataTable label={ENTRIES} minWidthClass="min-w-[24rem]" head={<HeaderCell>Member</HeaderCell>}>
          {contents.members.map((member, index) => (
            <tr key={index}>
              <Cell code>
                <Value value={member} />
              </Cell>
            </tr>
          ))}
        </DataTable>
      );
    case 'list': {
      const offset = contents.cursor === '' ? 0 : Number(contents.cursor);
      return (
        <DataTable
          label={ENTRIES}
          minWidthClass="min-w-[24rem]"
          head={
            <>
              <HeaderCell numeric>Index</HeaderCell>
              <HeaderCell>Item</HeaderCell>
            </>
          }
        >
          {contents.items.map((item, index) => (
            <tr key={index}>
              <Cell numeric>{formatCount(offset + index)}</Cell>
              <Cell code>
                <Value value={item} />
              </Cell>
            </tr>
          ))}
        </DataTable>
      );
    }
    case 'hash':
      return (
        <DataTable
          label={ENTRIES}
          minWidthClass="min-w-[32rem]"
          head={
            <>
              <HeaderCell>Field</HeaderCell>
              <HeaderCell>Value</HeaderCell>
            </>
          }
        >
          {contents.fields.map((field, index) => (
            <tr key={index}>
              <Cell code>
                <Value value={field.name} />
              </Cell>
              <Cell code>
                <Value value={field.value} />
              </Cell>
            </tr>
          ))}
        </DataTable>
      );
    case 'stream':
      return (
        <DataTable
          label={ENTRIES}
          minWidthClass="min-w-[32rem]"
          head={
            <>
              <HeaderCell>Entry id</HeaderCell>
              <HeaderCell>Fields</HeaderCell>
            </>
          }
        >
          {contents.entries.map((entry) => (
            <tr key={entry.id}>
              <Cell code>{entry.id}</Cell>
              <Cell code>
                {entry.fields.map((field, index) => (
                  <span key={index} className="block">
                    <Value value={field.name} /> = <Value value={field.value} />
                  </span>
                ))}
              </Cell>
            </tr>
          ))}
        </DataTable>
      );
    case 'string':
      return (
        <>
          {contents.value.truncated && <p className="text-sm text-zinc-600 dark:text-zinc-400">The first 64 KiB of {formatBytes(contents.value.bytes)}.</p>}
          <CodeBlock label={ENTRIES} text={contents.value.text} wrap />
        </>
      );
    case 'other':
      return <EmptyList>A key of type {contents.redisType}; this page does not show its contents.</EmptyList>;
    default:
      return null;
  }
}

function isEmptyPage(contents: KeyContents): boolean {
  switch (contents.type) {
    case 'zset':
    case 'stream':
      return contents.entries.length === 0;
    case 'set':
      return contents.members.length === 0;
    case 'list':
      return contents.items.length === 0;
    case 'hash':
      return contents.fields.length === 0;
    default:
      return false;
  }
}

function Pager({ contents }: { contents: KeyContents }) {
  if (contents.cursor === '' && contents.next === null) return null;
  return (
    <nav aria-label="Pages of this key" className="flex flex-wrap items-center gap-2 text-sm">
      {contents.cursor !== '' && (
        <Link href={layoutKeyHref(contents)} className="button-secondary">
          First page
        </Link>
      )}
      {contents.next !== null && (
        <Link href={layoutKeyHref(contents, contents.next)} className="button-secondary">
          Next page
        </Link>
      )}
    </nav>
  );
}

/** One key under the prefix, a bounded page at a time, live; values as text. */
export function KeyContentsView({ address, cursor }: { address: KeyAddress; cursor: string }) {
  const view = useLiveQuery(keyContentsQuery(address, cursor));
  const contents = view.data;
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <BackToKeys />
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
          Key <span className="font-mono">{address.key}</span>
        </h1>
        {contents !== undefined && contents.type !== 'none' && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {contents.type === 'other' ? contents.redisType : contents.type}
            {contents.size !== null && `, ${sizeText(contents)}`}
            {contents.ttlSeconds !== null && (
              <span className="font-medium text-red-700 dark:text-red-400">, expires in {formatDuration(contents.ttlSeconds)}</span>
            )}
          </p>
        )}
      </div>
      <LiveErrorBanner title="Cannot read this key" view={view} />
      {contents === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the key…</p>
      ) : contents.type === 'none' ? (
        <EmptyList>This key does not exist (any more): nothing is stored under this name.</EmptyList>
      ) : (
        <Section title={ENTRIES} description="Shown as text; bytes that are not UTF-8 show as \xNN, and long values are cut.">
          {isEmptyPage(contents) ? <EmptyList>Nothing on this page.</EmptyList> : <ContentsTable contents={contents} />}
          <Pager contents={contents} />
        </Section>
      )}
    </div>
  );
}

/** A /layout/key address without a usable key name or cursor. */
export function NotAKeyAddress() {
  return (
    <div className="space-y-4">
      <BackToKeys />
      <h1 className="text-2xl font-semibold tracking-tight">Not a key</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        This address names no key, or its page cursor is not one. Open a key from the key table instead.
      </p>
    </div>
  );
}
