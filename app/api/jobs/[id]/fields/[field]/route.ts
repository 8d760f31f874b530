import { parseJobId } from '@/lib/routes';
import { apiBadRequest, apiNotFound, apiResponse } from '@/lib/server/api';
import { readJobHashField } from '@/lib/server/layout-pages';

// Every request reads Redis: the field may have changed since the page was drawn.
export const dynamic = 'force-dynamic';

/** A file name for the download that no header or file system can misread: the field name kept to safe characters. */
function downloadName(id: number, field: string): string {
  const safe = field.replace(/[^\w.-]+/g, '_').slice(0, 64) || 'field';
  return `job-${id}-${safe}.bin`;
}

/** Bytes handed to the response at a time: the client's pace decides when the next goes. */
const CHUNK_BYTES = 64 * 1024;

/**
 * A value as a stream of CHUNK_BYTES views of it, each taken when the client
 * is ready for more: no copy of the whole value is made for the response.
 * `sent` runs once the last view has been taken or the stream was cancelled
 * (the client went away).
 */
function streamOf(value: Buffer, sent: () => void): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      controller.enqueue(value.subarray(offset, offset + CHUNK_BYTES));
      offset += CHUNK_BYTES;
      if (offset < value.length) return;
      controller.close();
      sent();
    },
    cancel: sent,
  });
}

/**
 * The whole stored value of one field of a job, byte for byte, as a download.
 * The page shows the first 64 KiB of a value; this is the rest. Served as
 * bytes, never as a page: job data is untrusted and must not be rendered by
 * the browser under this origin.
 *
 * Read with one HGET and streamed out: a hash field has no ranged read, so
 * reading it in ranges would copy the whole value inside Redis once per
 * range, and a value rewritten between two ranges would arrive torn. The
 * whole value is in this server's memory only while it is being sent, and
 * only for whoever asked for the download; the page never reads it whole.
 * It is a large read (lib/server/queue.ts readLargeValues): on a Redis client
 * of its own, and its place among the few the session and the process may
 * have at once is held until the value has been sent or the client has gone.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string; field: string }> }): Promise<Response> {
  const { id: segment, field } = await params;
  const id = parseJobId(segment);
  if (id === null) return apiBadRequest('A job id is a whole number above 0.');
  const result = await readJobHashField(id, field);
  if (!result.ok) return apiResponse(result);
  const { value, release } = result.data;
  // Next sends no body for a HEAD, and neither pulls nor cancels the stream: nothing of the value is sent.
  if (request.signal.aborted || request.method === 'HEAD') release();
  else request.signal.addEventListener('abort', release, { once: true });
  if (value === null) {
    release();
    return apiNotFound(`Job ${id} has no field ${field}: the job is gone (completed or forgotten) or never had it.`);
  }
  return new Response(streamOf(value, release), {
    headers: {
      'content-type': 'application/octet-stream',
      'content-length': String(value.length),
      'content-disposition': `attachment; filename="${downloadName(id, field)}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  });
}
