/** One priority level of a queue (a stream of StaticPHP's driver), as the queue page's levels table shows it. */
export interface LevelView {
  level: string;
  /** the stream's key */
  stream: string;
  length: number;
  /** entries handed to a worker and not acknowledged yet */
  delivered: number;
  hasGroup: boolean;
  /** when the stream cannot be read (a key of the wrong type) */
  error?: string;
}
