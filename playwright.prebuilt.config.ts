import base from './playwright.config';

// Local only (not committed): the build ran beforehand, since on this loaded machine it outlasts the webServer timeout.
const servers = Array.isArray(base.webServer) ? base.webServer : [];
export default { ...base, webServer: servers.map((server) => ({ ...server, command: server.command.replace('npm run build && ', '') })) };
