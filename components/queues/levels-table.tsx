import { formatCount } from '@/components/ui/format-count';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { LevelView } from '@/lib/shapes/priority-levels';

/**
 * One row per priority level of a queue, highest first: its stream's exact
 * key, length, entries handed out and not acknowledged, and whether the
 * consumer group exists yet (a reserve creates it). A stream that cannot be
 * read (a key of the wrong type) says why in its row; the others still show.
 */
export function LevelsTable({ label, levels }: { label: string; levels: readonly LevelView[] }) {
  return (
    <DataTable
      label={label}
      minWidthClass="min-w-[40rem]"
      head={
        <>
          <HeaderCell numeric>Level</HeaderCell>
          <HeaderCell>Stream key</HeaderCell>
          <HeaderCell numeric>Length</HeaderCell>
          <HeaderCell numeric>Reserved</HeaderCell>
          <HeaderCell>Consumer group</HeaderCell>
        </>
      }
    >
      {levels.map((level) => (
        <tr key={level.level}>
          <Cell numeric>{level.level}</Cell>
          <Cell code>{level.stream}</Cell>
          {level.error !== undefined ? (
            <Cell colSpan={3}>
              <span className="text-red-700 dark:text-red-400">Cannot read this stream: {level.error}</span>
            </Cell>
          ) : (
            <>
              <Cell numeric>{formatCount(level.length)}</Cell>
              <Cell numeric>{formatCount(level.delivered)}</Cell>
              <Cell>{level.hasGroup ? 'Present' : 'Not created yet'}</Cell>
            </>
          )}
        </tr>
      ))}
    </DataTable>
  );
}
