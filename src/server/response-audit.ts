// A hook on every HTTP response the server sends, for auditors that must see them all (the test suite
// installs one that fails any test whose responses carry a password hash or a reset/confirmation token).
// Servers built while no auditor is installed pay nothing: the fastify hook is only added when one is.
export interface AuditedResponse {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  /** the serialized body (string or Buffer); streams are not inspected */
  body: string | Buffer;
}

export type ResponseAuditor = (response: AuditedResponse) => void;

const auditors = new Set<ResponseAuditor>();

/** Installs an auditor for every server built afterwards; returns its removal. */
export function addResponseAuditor(auditor: ResponseAuditor): () => void {
  auditors.add(auditor);
  return () => auditors.delete(auditor);
}

export function hasResponseAuditors(): boolean {
  return auditors.size > 0;
}

export function auditResponse(response: AuditedResponse): void {
  for (const a of auditors) a(response);
}
