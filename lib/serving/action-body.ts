/**
 * Why a server action's body cannot be decoded into arguments, or null when
 * it can. The browser sends an action's arguments as a JSON array
 * (`text/plain`), or as `multipart/form-data` when they hold a form or a
 * file; anything else makes Next's decoding throw, which it answers with a
 * 500. Whether the arguments are what the action takes is the action's own
 * check (its zod schema).
 */
export async function actionBodyProblem(request: Request): Promise<string | null> {
  if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
    try {
      await request.formData();
      return null;
    } catch {
      return 'The arguments of the action are not a form that can be read.';
    }
  }
  let argumentsSent: unknown;
  try {
    argumentsSent = JSON.parse(await request.text());
  } catch {
    return 'The arguments of the action are not JSON.';
  }
  return Array.isArray(argumentsSent) ? null : 'The arguments of the action are not a JSON array.';
}
