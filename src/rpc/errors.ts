// JSON-RPC 2.0 errors the edge produces, from one table (codes and default
// messages as in A2A 0.3 a2a.json and 1.0 §9.5). `data` follows A2A 1.0: an
// array of google.rpc.ErrorInfo (free-form data is also valid for 0.3 readers).
export const RPC_ERRORS = {
  PARSE_ERROR: { code: -32700, message: "Invalid JSON payload" },
  INVALID_REQUEST: { code: -32600, message: "Request payload validation error" },
  METHOD_NOT_FOUND: { code: -32601, message: "Method not found" },
  INTERNAL_ERROR: { code: -32603, message: "Internal error" },
} as const;
export type RpcErrorName = keyof typeof RPC_ERRORS;

export type RpcId = string | number | null;

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** `reason` in UPPER_SNAKE_CASE, as A2A 1.0 §9.5 asks of ErrorInfo. */
export function rpcError(name: RpcErrorName, detail?: string, reason?: string): RpcErrorObject {
  const { code, message } = RPC_ERRORS[name];
  const error: RpcErrorObject = { code, message: detail ? `${message}: ${detail}` : message };
  if (reason) error.data = [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "agent-card-edge" }];
  return error;
}

export function rpcErrorBody(id: RpcId, error: RpcErrorObject): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error });
}
