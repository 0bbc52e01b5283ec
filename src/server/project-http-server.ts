// v4's `strapi.server.httpServer`: the node http.Server exists from the start (v4 creates it with the koa
// app), so project code can attach to it in register or bootstrap (socket.io's `new Server(httpServer)` is
// the common case) although Tessera builds its fastify server only after bootstrap. The server's request
// listener forwards to whatever handler fastify installs later (fastify's `serverFactory`), so a listener
// that wraps the existing ones (socket.io does) still reaches fastify.
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';

/** the fastify options a server it makes itself gets (lib/server.js), applied the same way here */
export interface ServerTimeouts {
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

export interface ProjectHttpServer {
  readonly server: http.Server;
  /** fastify's serverFactory: installs its handler and returns the server */
  serve(handler: RequestListener, opts: ServerTimeouts): http.Server;
}

export function createProjectHttpServer(): ProjectHttpServer {
  let handler: RequestListener | undefined;
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    if (handler) return handler(req, res);
    // not listening before fastify is ready, so nothing should arrive; answer rather than hang
    res.statusCode = 503;
    res.end();
  });
  return {
    server,
    serve(h, opts) {
      handler = h;
      server.keepAliveTimeout = opts.keepAliveTimeout;
      server.requestTimeout = opts.requestTimeout;
      server.setTimeout(opts.connectionTimeout);
      if (opts.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
      return server;
    },
  };
}
