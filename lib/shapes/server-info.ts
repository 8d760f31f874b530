/** What the dashboard shows about the Redis server the queues live on. */
export interface ServerInfo {
  /** redis_version as the server reports it */
  version: string;
  /** used_memory_human, Redis's own rounding (`2.04M`) */
  usedMemoryHuman: string;
  usedMemoryBytes: number;
  connectedClients: number;
  uptimeSeconds: number;
  /** maxmemory_policy; null when the server does not report it (unknown) */
  maxmemoryPolicy: string | null;
}
