import { Fragment } from 'react';

/**
 * A job's name (a PHP class such as `App\Jobs\SendMail`, or a dotted name)
 * that a narrow column may wrap after each `\` or `.`, and inside a part
 * only when the part alone is wider than the column: never in the middle of
 * a short word, as breaking anywhere did ("Harnes|sJob").
 */
export function JobName({ name }: { name: string }) {
  const parts = name.split(/(?<=[\\.])/);
  return (
    <span className="break-words">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
