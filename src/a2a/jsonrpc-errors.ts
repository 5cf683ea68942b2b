// JSON-RPC 2.0's own errors, with the names and default messages A2A gives
// them; identical in 0.3 (a2a.json) and 1.0 (§9.5), so both version modules
// include this table (SPEC-NOTES §3.4).

export interface ErrorDefinition {
  code: number;
  /** Default `error.message`. */
  message: string;
}

export const JSONRPC_STANDARD_ERRORS = {
  JSONParseError: { code: -32700, message: "Invalid JSON payload" },
  InvalidRequestError: { code: -32600, message: "Request payload validation error" },
  MethodNotFoundError: { code: -32601, message: "Method not found" },
  InvalidParamsError: { code: -32602, message: "Invalid parameters" },
  InternalError: { code: -32603, message: "Internal error" },
} as const satisfies Record<string, ErrorDefinition>;
