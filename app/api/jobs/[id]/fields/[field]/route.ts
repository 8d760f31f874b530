import { parseJobId } from '@/lib/routes';
import { apiBadRequest, apiNotFound, apiResponse } from '@/lib/server/api';
import { readJobField } from '@/lib/server/job-detail';

// Every request reads Redis: the field may have changed since the page was drawn.
export const dynamic = 'force-dynamic';

/** A file name for the download that no header or file system can misread: the field name kept to safe characters. */
function downloadName(id: number, field: string): string {
  const safe = field.replace(/[^\w.-]+/g, '_').slice(0, 64) || 'field';
  return `job-${id}-${safe}.bin`;
}

/**
 * The whole stored value of one field of a job, byte for byte, as a download.
 * The page shows the first 64 KiB of a value; this is the rest. Served as
 * bytes, never as a page: job data is untrusted and must not be rendered by
 * the browser under this origin.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string; field: string }> }): Promise<Response> {
  const { id: segment, field } = await params;
  const id = parseJobId(segment);
  if (id === null) return apiBadRequest('A job id is a whole number above 0.');
  const result = await readJobField(id, field);
  if (!result.ok) return apiResponse(result);
  if (result.data === null) return apiNotFound(`Job ${id} has no field ${field}: the job is gone (completed or forgotten) or never had it.`);
  return new Response(new Uint8Array(result.data), {
    headers: {
      'content-type': 'application/octet-stream',
      'content-length': String(result.data.length),
      'content-disposition': `attachment; filename="${downloadName(id, field)}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  });
}
