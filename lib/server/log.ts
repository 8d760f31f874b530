import 'server-only';

export { logEvent, type LogLevel } from '@/lib/log-event';
