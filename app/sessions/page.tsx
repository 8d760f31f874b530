import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { EndSessionButton } from '@/components/auth/end-session-button';
import { Callout } from '@/components/ui/banner';
import { UtcMoment } from '@/components/ui/moment';
import { EmptyList, Section } from '@/components/ui/section';
import { Cell, DataTable, HeaderCell, RowHeaderCell } from '@/components/ui/table';
import { authenticate } from '@/lib/server/access';
import { openSessionsSeenBy } from '@/lib/server/session';
import { sessionsHref } from '@/lib/routes';

// Read from Redis on every request: a cached page would show sessions that have ended.
export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sessions · QueueLens' };

/** The browsers signed in now, and for an operator a button to end each: a lost laptop's session ends here. */
export default async function SessionsPage() {
  const current = await authenticate();
  if (!current.ok) redirect(`/login?next=${encodeURIComponent(sessionsHref)}`);
  const read = await openSessionsSeenBy(current.access);
  const canEnd = current.access.role === 'operator';
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Sessions</h1>
      <Section
        title="Signed-in browsers"
        description="Each sign-in at /login (or with the one-time link) opens a session for 12 hours. Signing out ends it; ending it here signs that browser out at its next request, wherever its cookie was copied to. Scripts with a bearer secret have no session: change the secret to lock them out."
      >
        {!read.ok ? (
          <Callout title="Cannot read the sessions" tone="error" role="alert">
            {read.error}
          </Callout>
        ) : read.value.sessions.length === 0 ? (
          <EmptyList>No browser is signed in.</EmptyList>
        ) : (
          <DataTable
            label="Open sessions"
            minWidthClass="min-w-[40rem]"
            head={
              <>
                <HeaderCell>Name</HeaderCell>
                <HeaderCell>Role</HeaderCell>
                <HeaderCell>Signed in</HeaderCell>
                <HeaderCell>Ends</HeaderCell>
                {canEnd && <HeaderCell>End it</HeaderCell>}
              </>
            }
          >
            {read.value.sessions.map((session, index) => (
              // A viewer's rows have no id (a key is in the page's payload); they are never ended from here, so their place is key enough.
              <tr key={session.id ?? index}>
                <RowHeaderCell>
                  {session.who}
                  {session.isThisBrowser && <span className="ml-2 text-zinc-500 dark:text-zinc-400">(this browser)</span>}
                </RowHeaderCell>
                <Cell>
                  <span className="whitespace-nowrap">{session.role}</span>
                </Cell>
                <Cell>
                  <UtcMoment seconds={session.startedAt} now={read.value.now} />
                </Cell>
                <Cell>
                  <UtcMoment seconds={session.expiresAt} now={read.value.now} />
                </Cell>
                {canEnd && session.id !== undefined && (
                  <Cell>
                    <EndSessionButton
                      id={session.id}
                      label={`End ${session.who}’s session, signed in ${new Date(session.startedAt * 1000).toISOString().slice(11, 19)} UTC`}
                    />
                  </Cell>
                )}
              </tr>
            ))}
          </DataTable>
        )}
      </Section>
    </div>
  );
}
