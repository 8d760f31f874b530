import 'server-only';
import { CONNECTION_PARAM, singleSearchParams, type PageSearchParams } from '@/lib/routes';
import { chooseConnection, connections } from './queue';

/** The connection a page's address names, against the one this browser shows. */
export interface AddressedConnection {
  /** the connection this browser shows */
  here: { name: string; label: string };
  /** the one the address names when it is another (its label null when QueueLens has none of that name); null when it names `here` or none */
  elsewhere: { name: string; label: string | null } | null;
  /** whether the address names a connection at all: an older link names none */
  named: boolean;
}

/** Which connection the address (`CONNECTION_PARAM`) names; null when the connections cannot be read, which the page's reads say. */
export async function addressedConnection(params: PageSearchParams): Promise<AddressedConnection | null> {
  const choice = await chooseConnection();
  if (!choice.ok) return null;
  const here = { name: choice.connection.name, label: choice.connection.label };
  const named = singleSearchParams(params).get(CONNECTION_PARAM);
  if (named === null || named === here.name) return { here, elsewhere: null, named: named !== null };
  const label = connections().find((connection) => connection.name === named)?.label ?? null;
  return { here, elsewhere: { name: named, label }, named: true };
}
