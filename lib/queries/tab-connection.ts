/**
 * Which connection this browser tab shows. The header's switcher stores the
 * choice in a cookie, which every tab shares; each tab also sends the
 * connection it rendered with every read and action, so a tab left on one
 * connection cannot act on another that a second tab switched to: the server
 * answers that mismatch with an error asking for a reload.
 */
export const CONNECTION_COOKIE = 'queuelens-connection';
export const CONNECTION_HEADER = 'x-queuelens-connection';

let tabConnection: string | undefined;

/** Set once by the layout's provider with the connection the page was rendered for. */
export function setTabConnection(name: string): void {
  tabConnection = name;
}

export function getTabConnection(): string | undefined {
  return tabConnection;
}
