import { signInWithLink } from '../actions';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Sign in with the link · QueueLens', referrer: 'no-referrer' };

/**
 * The one-time link's page: visiting it changes nothing, so a link scanner's
 * or chat unfurler's HEAD or GET does not use the link up; the button posts
 * the token to signInWithLink.
 */
export default async function LoginLinkPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  return (
    <div className="mx-auto max-w-sm space-y-6 rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900">
      <h1 className="text-xl font-semibold">Sign in with the login link</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        This link signs one browser in as an operator, once. Continue if you opened it from the terminal that started QueueLens.
      </p>
      <form action={signInWithLink}>
        <input type="hidden" name="token" value={typeof token === 'string' ? token : ''} />
        <button type="submit" className="button-primary">
          Sign in as operator
        </button>
      </form>
    </div>
  );
}
