import Link from 'next/link';
import { safeNextPath } from '@/lib/auth/access-settings';
import { SignInForm } from '@/components/auth/sign-in-form';
import { authenticate } from '@/lib/server/access';
import { overviewHref } from '@/lib/routes';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Sign in · QueueLens' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const next = safeNextPath(params.next);
  const current = await authenticate();
  return (
    <div className="mx-auto max-w-sm space-y-6 rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900">
      <h1 className="text-xl font-semibold">Sign in to QueueLens</h1>
      {current.ok && (
        <p className="text-sm">
          You are signed in as {current.access.who} ({current.access.role}).{' '}
          <Link href={overviewHref} className="text-blue-700 underline dark:text-blue-400">
            Go to the overview
          </Link>
          , or sign in again with another secret.
        </p>
      )}
      {params.link === 'used' && (
        <p className="text-sm text-amber-800 dark:text-amber-300">That login link has already been used or is not valid. Sign in with the secret instead.</p>
      )}
      {params.link === 'unavailable' && (
        <p className="text-sm text-amber-800 dark:text-amber-300">
          The login link could not start a session: the Redis that keeps QueueLens’s sessions cannot be reached. The link still works once it is back.
        </p>
      )}
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        The operator secret (QUEUELENS_SECRET) can retry, forget and repair; the viewer secret only looks.
      </p>
      <SignInForm next={next} />
    </div>
  );
}
