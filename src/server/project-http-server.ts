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

/**
 * `requestTimeout`: what the server will be given (fastify sets it later); the expired requests are looked for at
 * a fraction of it (Node looks every 30 s by default, which would answer a 1 s timeout up to 30 s late).
 */
export function createProjectHttpServer(requestTimeout = 300_000): ProjectHttpServer {
  let handler: RequestListener | undefined;
  const checkEvery = requestTimeout > 0 ? Math.max(100, Math.min(30_000, Math.floor(requestTimeout / 2))) : 30_000;
  const server = http.createServer({ connectionsCheckingInterval: checkEvery }, (req: IncomingMessage, res: ServerResponse) => {
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
      // Node checks the whole-request deadline only while the headers' one is not later (its constructor clamps it)
      if (opts.requestTimeout > 0) server.headersTimeout = Math.min(server.headersTimeout, opts.requestTimeout);
      server.setTimeout(opts.connectionTimeout);
      if (opts.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
      return server;
    },
  };
}
